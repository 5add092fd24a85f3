#pragma once
// `lodestone --remote`: commands read from standard input, one per line, applied through the same
// path as the panels (the GUI's copy of the parameters, then an ApplyParameters command; load,
// save, run, pause, reset as the buttons do). For scripted sessions such as the soak test
// (scripts/soak.sh, docs/reliability.md). Replies go to standard output, one line each:
//
//   set PATH VALUE   a preset field by its dotted path, VALUE as JSON ("25 mT", 0.3, [0, 1, 0]); answers
//                    "ok set PATH" once applied ("ok set PATH (unchanged: ...)" when it had that value already:
//                    no edit is recorded, none to undo), or "confirm: WHAT (send 'confirm' to apply it)" for an edit
//                    the panels would ask about (a field far beyond any magnet, a collapsing time step, an
//                    edit at a rewound step that drops the run after it); the run waits at its step meanwhile
//   confirm          applies the edit waiting for confirmation, at that step; a run it paused goes on
//   cancel           drops the edit waiting for confirmation; a run it paused goes on
//   get PATH         prints "value PATH VALUE", the value in force (as a preset file writes it)
//   run | pause | reset
//   step N           pauses, runs N steps and then answers "ok step N now S" (S: the step reached)
//   advance TIME     the same by simulated time ("2 ms"): "ok advance STEPS now S"
//                    A pause (the verb, or the window's space, Esc or Pause button), a reset, a load, a rewind or
//                    an undo ends them early: "stopped: step N at step S after D steps (paused)". While one runs,
//                    `pause` and `quit` are acted on as soon as they are read; other commands wait their turn.
//                    One estimated (from its first steps) to take over a minute answers at once: "running: step N:
//                    about 2.3 h left at R steps/s; 'pause' stops it", and its "ok ..." or "stopped: ..." comes when
//                    it ends; meanwhile other commands are read and answered, and the status line shows its progress
//   hash             "hash HEX": 64-bit hash of every particle's position, velocity and orientation in id
//                    order (engine/core/state_hash.hpp), to compare two states exactly
//   history          "history FIRST LAST now=S head=H points=N memory=..MiB budget=..MiB": the first and
//                    last kept step of the run's history (docs/history.md)
//   rewind STEP      restores the exact state at STEP (from FIRST to the furthest step reached):
//                    "ok rewind STEP now STEP"; the steps replayed from the kept point before it are a request
//                    like `step` (stopped by a pause, answered at once with an estimate when long)
//   undo | redo      "undone: WHAT" / "redone: WHAT", or "refused: nothing to undo" ("... redo")
//   recover          after a failed check: back to before the last edit, undoing it ("undone: WHAT")
//   back TIME        back by simulated time to a kept point: "ok back now S"
//   (a failed check prints "stopped: MESSAGE" when it happens)
//   load FILE | save FILE
//   restore          restores the session a Lodestone that did not quit cleanly autosaved (the newest; issue 41,
//                    app/desktop/autosave_keeper.hpp), paused: "ok restore STEP"; or "refused: restore: why" (none
//                    left, or a damaged one, named and moved aside). Later commands wait for it
//   ids              prints "ids ID ID ...": the ids of the scene's particles now, in its order (a script's hands
//                    on particles added, deleted or brought back by an undo)
//   status           prints "status step=.. time=.. particles=.. healthy=0|1 running=0|1 unsaved=0|1 edits_pending=N
//                    waiting=0|1" (waiting: the protocol phase running waits for go),
//                    " stepping=DONE/ASKED" while a step or advance runs, and " autosaved=STEP" (the step of the
//                    newest autosave written; "none" before the first) unless autosave is off
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
//   hold ID [position|orientation|both|none]
//                    holds sphere ID still (both when left out; none lets it go); the forces on it are still
//                    computed. Prints "ok hold particle N still"; a clump's pebble is refused
//   lid PRESSURE | off
//                    puts a lid on the box pressed with PRESSURE (with units: "0.5 atm", "2 bar", "500 Pa"; the
//                    box's open top becomes the lid's wall), changes its pressure, or takes it off
//   go               a protocol phase that waits for the user ("wait": the words of its button, e.g. field-switch-on's
//                    "Switch the field on") ends and the next starts: "ok went on: now phase 2/2 field on"
//                    Each of these is recorded in the scene's timeline and waits for the simulation's answer;
//                    a refusal prints "refused: <command>: <why>".
//   sync             answers "ok sync" once the window shows everything sent so far (a load arrived, its view
//                    applied, two frames drawn); later commands wait for it
//   view | field-view off|slice|lines|both [x|y|z [AT]] | color KEY | frame [all|selection] | select ID |
//   sidebar show|hide|WIDTH | hints show|hide | gallery [show|hide|open NAME] | help | about
//                    the view: app/desktop/remote_view.hpp
//   key NAME         presses a key in the 3-D view as the keyboard would (space, escape, delete, r, f, tab, f1):
//                    "ok key NAME"
//   quit             exits (without asking about unsaved changes), also while a request runs
//
// A command that cannot be carried out prints "refused: <command>: <why>" (naming the field, the
// value and what is allowed, as the panels would) and changes nothing.

#include "app/desktop/autosave_keeper.hpp"
#include "app/desktop/remote_parse.hpp"
#include "engine/live/simulation_thread.hpp"
#include "ui/ui_state.hpp"

#include <QObject>

#include <functional>
#include <string>

class QSocketNotifier;
class QTimer;

namespace lodestone::desktop {

class RemoteControl : public QObject {
  Q_OBJECT

 public:
  // `autosaves`: the app's autosave keeper (the verb `restore`, and `status`).
  RemoteControl(SimulationThread& simulation, ui::UiState& state, ui::CommandSink send, AutosaveKeeper& autosaves,
                QObject* parent = nullptr);
  ~RemoteControl() override;
  // Every millisecond, and before each frame the view draws (SceneView::frame_starting: an answer that has arrived is
  // printed before the frame, not after it): the newest snapshot; a failed check reported; the answer of the
  // command in flight printed once a snapshot carries it, and then the input goes on.
  void poll();

 signals:
  void quit_requested();
  // The `key` verb: a press and release of `key` (a Qt::Key) in the 3-D view.
  void key_requested(int key);
  // A command was carried out or answered: the view may show something new (SceneView::wake). Not while an answer
  // is awaited: a frame begun then would hold the answer back until it is drawn.
  void acted();

 private:
  void read_input();
  // Executes the whole lines read so far, in order; stops while a command waits for its answer.
  void execute_pending();
  // Reads the line (remote::parse_remote_line, Qt-free and fuzzed), then finds its verb in a table of the verbs above
  // (then among the view's) and carries it out; a refusal, or an error thrown by the verb, prints "refused: LINE: why".
  void execute(const std::string& line);
  // The verbs, one member each: `request` is the line read (its verb's arguments), `line` the whole line (named in a
  // refusal).
  using VerbHandler = void (RemoteControl::*)(const remote::Request& request, const std::string& line);
  void verb_set(const remote::Request& request, const std::string& line);
  void verb_confirm(const remote::Request& request, const std::string& line);
  void verb_cancel(const remote::Request& request, const std::string& line);
  void verb_get(const remote::Request& request, const std::string& line);
  void verb_run(const remote::Request& request, const std::string& line);
  void verb_pause(const remote::Request& request, const std::string& line);
  void verb_reset(const remote::Request& request, const std::string& line);
  void verb_step(const remote::Request& request, const std::string& line);
  void verb_advance(const remote::Request& request, const std::string& line);
  void verb_hash(const remote::Request& request, const std::string& line);
  void verb_history(const remote::Request& request, const std::string& line);
  void verb_rewind(const remote::Request& request, const std::string& line);
  void verb_undo(const remote::Request& request, const std::string& line);
  void verb_redo(const remote::Request& request, const std::string& line);
  void verb_recover(const remote::Request& request, const std::string& line);
  void verb_back(const remote::Request& request, const std::string& line);
  void verb_load(const remote::Request& request, const std::string& line);
  void verb_save(const remote::Request& request, const std::string& line);
  void verb_restore(const remote::Request& request, const std::string& line);
  void verb_status(const remote::Request& request, const std::string& line);
  void verb_field_at(const remote::Request& request, const std::string& line);
  void verb_drag(const remote::Request& request, const std::string& line);
  void verb_release(const remote::Request& request, const std::string& line);
  void verb_add(const remote::Request& request, const std::string& line);
  void verb_delete(const remote::Request& request, const std::string& line);
  void verb_hold(const remote::Request& request, const std::string& line);
  void verb_ids(const remote::Request& request, const std::string& line);
  void verb_go(const remote::Request& request, const std::string& line);
  void verb_lid(const remote::Request& request, const std::string& line);
  void verb_quit(const remote::Request& request, const std::string& line);
  void verb_sync(const remote::Request& request, const std::string& line);
  void verb_key(const remote::Request& request, const std::string& line);
  void report_stop();
  // While a command waits for its answer: takes `quit` and `pause` out of the lines read so far and acts on them at
  // once (a pause ends a step under way; its "ok pause" follows the answer awaited).
  void take_urgent_lines();
  // The answer to the step or advance in flight, printed once: true when it came (or, for a request estimated to
  // take over a minute, when its estimate was printed and the input may go on).
  bool step_answered(const Snapshot& s);
  // The next lines wait until the simulation thread answers `request`; `print` prints the answer.
  void await_reply(std::uint64_t request, std::function<void(const Reply&)> print);
  // Sends a touch command with a new request id and waits for its answer before going on.
  template <class TouchCommand>
  void send_touch(TouchCommand command, const std::string& line);
  // `step`, `advance` and `rewind`: sends the command and waits for its answer (step_answered): `done` prints the
  // "ok ..." from its text; a stop prints "stopped: ...", a refusal "refused: LINE: why".
  void send_step(Command command, std::uint64_t request, std::function<void(const std::string&)> done,
                 const std::string& line);
  // `undo`, `redo` and `recover`: waits for `request` and prints its answer ("undone: WHAT", "redone: WHAT") or
  // "refused: why".
  void await_undo_reply(std::uint64_t request);
  // Sends an edit of the parameters (the panels' path: dotted paths and values) and waits for it: prints
  // "ok DONE", the confirmation it needs, or "refused: LINE: why" (the simulation thread's reason).
  void send_edit(std::vector<ParameterChange> changes, const std::string& done, const std::string& line);

  SimulationThread& simulation_;
  ui::UiState& state_;
  ui::CommandSink send_;
  AutosaveKeeper& autosaves_;
  QSocketNotifier* notifier_;
  std::string pending_;  // input read but not yet executed
  QTimer* poll_;
  // The command in flight: true once it printed its answer from the snapshot. Null when none.
  std::function<bool(const Snapshot&)> waiting_;
  bool waits_for_frames_ = false;    // waiting_ needs frames drawn (sync): the view is kept drawing meanwhile
  std::uint64_t field_request_ = 0;  // the last EvaluateField sent
  // The step or advance in flight (0: none), its verb and line, and whether its estimate was printed (the input
  // went on without waiting for it).
  std::uint64_t step_request_ = 0;
  std::string step_line_;
  std::function<void(const std::string&)> step_done_;  // prints its "ok ..." from the answer's text
  bool step_detached_ = false;
  std::size_t read_before_step_ = 0;  // bytes of pending_ read before the step in flight was sent
  int pauses_due_ = 0;                // `pause` lines acted on early: "ok pause" printed after the answer awaited
  bool quitting_ = false;
  std::string reported_stop_;  // the failed check last reported (step and message)
};

}  // namespace lodestone::desktop
