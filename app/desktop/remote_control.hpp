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
//   drag ID X Y Z [STIFFNESS]
//                    pulls particle ID (a clump pebble: its clump) toward the point (metres, or with units) with
//                    the drag spring, STIFFNESS relative to the default feel (1, allowed 0.01 to 50); again to
//                    move the target; prints "ok drag particle ID toward (..) mm"
//   release          lets go of the dragged particle
//   add JSON         adds a particle: {"position": [...], "radius": "0.5 mm", "material": "...", "moment": ...,
//                    "axis": [...]} (the keys of a list generator's particle); {"copy": ID, "position": [...]}
//                    a copy of particle ID; {"shape": "bar" | "cube", ...} a clump (the keys of a `clumps`
//                    entry); refused when it would overlap. Prints "ok add particle N at (..) mm"
//   delete ID        removes particle ID, or the clump it is a pebble of; prints "ok deleted ..." with the
//                    bonds broken
//   lid PRESSURE | off
//                    puts a lid on the box pressed with PRESSURE (with units: "0.5 atm", "2 bar", "500 Pa"; the
//                    box's open top becomes the lid's wall), changes its pressure, or takes it off
//                    Each of these is recorded in the scene's timeline and waits for the simulation's answer.
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
  // Prints the answer of the touch (drag, release, add, delete) in flight once a snapshot carries it.
  void answer_touch();
  // Sends a touch command with a new request id and waits for its answer before going on.
  template <class TouchCommand>
  void send_touch(TouchCommand command, const std::string& line);
  // The `add` verb's JSON as a command; throws PresetError naming the key, the value and what is allowed.
  Command parse_add(const std::string& text);
  // The `lid` verb: an edit of the pressure section (and a closed top) through the panels' path.
  void set_lid(const std::string& argument);

  SimulationThread& simulation_;
  ui::UiState& state_;
  ui::CommandSink send_;
  QSocketNotifier* notifier_;
  std::string pending_;              // input read but not yet executed
  QTimer* field_poll_;               // runs while a field-at waits for the simulation thread
  std::uint64_t field_request_ = 0;  // the last EvaluateField sent
  bool awaiting_field_ = false;
  QTimer* touch_poll_;               // runs while a touch waits for the simulation thread
  std::uint64_t touch_request_ = 0;  // the last touch command sent
  std::string touch_line_;           // its command line, for a refusal
  bool awaiting_touch_ = false;
};

}  // namespace lodestone::desktop
