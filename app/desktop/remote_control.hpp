#pragma once
// `lodestone --remote`: commands read from standard input, one per line, applied through the same
// path as the panels (the GUI's copy of the parameters, then an ApplyParameters command; load,
// save, run, pause, reset as the buttons do). For scripted sessions such as the soak test
// (scripts/soak.sh, docs/reliability.md). Replies go to standard output, one line each:
//
//   set PATH VALUE   a preset field by its dotted path, VALUE as JSON ("25 mT", 0.3, [0, 1, 0])
//   get PATH         prints "value PATH VALUE", the value in force (as a preset file writes it)
//   run | pause | reset | step N
//   load FILE | save FILE
//   status           prints "status step=.. time=.. particles=.. healthy=0|1 running=0|1 unsaved=0|1 edits_pending=N"
//   quit             exits (without asking about unsaved changes)
//
// A command that cannot be carried out prints "refused: <command>: <why>" (naming the field, the
// value and what is allowed, as the panels would) and changes nothing.

#include "engine/live/simulation_thread.hpp"
#include "ui/ui_state.hpp"

#include <QObject>

#include <string>

class QSocketNotifier;

namespace lodestone::desktop {

class RemoteControl : public QObject {
  Q_OBJECT

 public:
  RemoteControl(SimulationThread& simulation, ui::UiState& state, ui::CommandSink send, QObject* parent = nullptr);

 signals:
  void quit_requested();

 private:
  void read_input();
  void execute(const std::string& line);

  SimulationThread& simulation_;
  ui::UiState& state_;
  ui::CommandSink send_;
  QSocketNotifier* notifier_;
  std::string pending_;  // input read but not yet a whole line
};

}  // namespace lodestone::desktop
