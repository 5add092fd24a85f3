#pragma once
// The remote's lines read without Qt (`lodestone --remote`; app/desktop/remote_control.hpp lists the verbs): a line
// becomes its verb, the rest of the line, and the verb's arguments read into what the app then sends (an edit, an
// engine Command) or shows, or a refusal. RemoteControl::execute reads every line through parse_remote_line before it
// acts, and fuzz/fuzz_remote.cpp runs the same function on fuzzed lines without a window (docs/reliability.md
// "Fuzzing"), so the fuzzer tests the parser the app runs. Reading changes nothing: what depends on the app's
// state (a `get`'s value, whether a `select`ed id exists, a `sidebar` width's range) is checked by the verb itself.

#include "engine/live/commands.hpp"
#include "engine/scene/preset_edits.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lodestone::remote {

// A line the remote refuses, and why: printed "refused: LINE: why". The readers of values (the preset schema,
// parse_point) throw their own PresetError or FieldInputError, with the field, the value and what is allowed;
// RemoteControl::execute prints those the same way.
class Refusal : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `field-view off|slice|lines|both [x|y|z [AT]]`, the View panel's field view.
struct FieldViewArguments {
  bool slice = false;
  bool lines = false;
  int axis = -1;             // the slice's normal, 0 x, 1 y, 2 z; -1: as it was
  std::optional<double> at;  // [m] the slice's position along it; none: as it was
};

// The names `key NAME` takes, in the order of RemoteControl's Qt keys.
inline constexpr std::array<const char*, 7> kKeyNames = {"space", "escape", "delete", "r", "f", "tab", "f1"};

// One line read. Only the members of its verb are set.
struct Request {
  std::string verb;  // empty: a blank line, nothing to do
  std::string rest;  // the line after the verb and the white space after it
  // set, lid: the edit, sent as ApplyParameters (the panels' path).
  std::vector<ParameterChange> edit;
  // step, advance (StepOnce), rewind (Rewind), back (GoBack), field-at (EvaluateField), drag (DragParticle), add
  // (AddParticle or AddClump), delete (DeleteBody), hold (HoldParticle): the command, its request id still 0 (the
  // sender numbers it).
  std::optional<Command> command;
  FieldViewArguments field_view;       // field-view
  std::optional<float> sidebar_width;  // sidebar WIDTH [logical pixels]; none: show or hide
  std::uint64_t select_id = 0;         // select ID
  int key = -1;                        // key NAME: its index in kKeyNames
};

// Reads `line`; `in_force` is the parameters the panels hold (a `lid` edits their box and pressure sections).
// Throws Refusal (an unknown verb, a usage), PresetError or FieldInputError for a line the remote refuses.
Request parse_remote_line(const std::string& line, const Preset& in_force);

}  // namespace lodestone::remote
