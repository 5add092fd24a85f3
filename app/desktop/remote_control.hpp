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
//   field-at X Y Z [exact]
//                    prints "field BX BY BZ": the total field B [T] at the point (metres, or with units: 1.5mm),
//                    applied + every moment summed as the forces do (or all of them: exact), evaluated by the
//                    simulation thread in its current state (an EvaluateField command), each component the
//                    shortest text that reads back as the same double. Later commands wait for the answer.
//   sync             answers "ok sync" once the window shows everything sent so far (a load arrived, its view
//                    applied, two frames drawn); later commands wait for it
//   view | color KEY | frame [all|selection] | select ID | sidebar show|hide|WIDTH | help | about
//                    the view: app/desktop/remote_view.hpp
//   quit             exits (without asking about unsaved changes)
//
// A command that cannot be carried out prints "refused: <command>: <why>" (naming the field, the
// value and what is allowed, as the panels would) and changes nothing.

#include "engine/live/simulation_thread.hpp"
#include "ui/ui_state.hpp"

#include <QObject>

#include <string>

class QSocketNotifier;
class QTimer;

namespace lodestone::desktop {

class RemoteControl : public QObject {
  Q_OBJECT

 public:
  RemoteControl(SimulationThread& simulation, ui::UiState& state, ui::CommandSink send, QObject* parent = nullptr);

 signals:
  void quit_requested();

 private:
  void read_input();
  // Executes the whole lines read so far, in order; stops while a field-at waits for its answer.
  void execute_pending();
  void execute(const std::string& line);
  // Prints the answer of the field-at in flight once a snapshot carries it, then goes on with the input.
  void answer_field();

  SimulationThread& simulation_;
  ui::UiState& state_;
  ui::CommandSink send_;
  QSocketNotifier* notifier_;
  std::string pending_;              // input read but not yet executed
  QTimer* field_poll_;               // runs while a field-at waits for the simulation thread
  std::uint64_t field_request_ = 0;  // the last EvaluateField sent
  bool awaiting_field_ = false;
  // sync: later commands wait until the window has caught up (remote_view.hpp).
  void answer_sync();
  QTimer* sync_poll_;
  std::uint64_t sync_frames_ = 0;
  bool awaiting_sync_ = false;
};

}  // namespace lodestone::desktop
