#pragma once
// Edits of a preset by dotted path ({"dotted.path": value}, numeric segments index lists:
// "materials.0.friction"): what a protocol phase, a timeline entry, a sweep and a panel edit change.
// A change walks down the field tables to its one field (engine/scene/schema.hpp), is read by that field's
// reader and re-checks only the sections it touched: a field edit on a scene of 20 000 listed particles does
// not read the particles again.
//
// The timeline (session log) of a preset: the parameter changes of a run by step number, each
// {"step": N, "set": {"dotted.path": value}} with the paths and values of a protocol phase's `set`
// (engine/session/protocol.hpp). The app records one entry per accepted edit; a Simulation built from a
// preset applies each entry just before the step with its number, where the app's simulation thread
// applied the edit (between steps), so a saved session replays bit-identically with the same thread
// count (docs/session-log.md).
//
// Phases and entries apply in the order they happen, later ones winning: an entry acts on top of the
// running phase and stays in force through later phases except for the keys those set themselves
// (the rule panel edits always followed).

#include "engine/core/preset.hpp"
#include "engine/scene/schema.hpp"

#include <string>
#include <utility>
#include <vector>

namespace lodestone {

// The value at a dotted path inside a JSON object; numeric segments index lists
// ("materials.0.friction"). Where a segment is not a key it is joined to the next ones by dots,
// so keys that contain dots are reached too: protocol.2.set.field.strength is the "field.strength"
// change of phase 2 (the sweeps use that). Throws PresetError naming `where` and the path when
// nothing is there (listing the keys at the last level that exists).
json& json_at_path(json& root, const std::string& dotted_path, const std::string& where);
// Sets the value at such a path (which must exist).
void set_json_path(json& root, const std::string& dotted_path, const json& value, const std::string& where);

// The preset a phase runs with: the base preset with the overrides of phases 0..phase applied (and
// no timeline: its entries apply on top as the run reaches them, engine/scene/preset_edits.hpp).
// Throws PresetError naming protocol[k].set.<path> for a bad override.
Preset phase_preset(const Preset& base, int phase);

// One change of a preset: a dotted path ("field.strength", "materials.0.friction") and the value, as the user gave
// it ("40 mT", 0.3, [0, 1, 0]) or as a save writes it (SI). What the panels, the remote `set`, Python's `set` and
// the timeline send.
struct ParameterChange {
  std::string path;
  json value;
};
// {"dotted.path": value, ...} as a list of changes, in its order.
std::vector<ParameterChange> changes_of(const json& set);

// The value at a dotted path, as a preset file writes it (SI): the one field, walked down the field tables (the
// `set` objects of protocol phases and timeline entries, whose keys hold dots, as JSON). Throws PresetError naming
// `where` and the path when nothing is there.
json value_at(const Preset& preset, const std::string& dotted_path, const std::string& where = "$");

// What `changes` change in `preset`, value by value: each change read by its field's reader (units, range, words)
// and compared with the value before at the finest level parameter_changes names (a whole object given is compared
// key by key; an unchanged value is no change). The values are SI, as a save writes them; `before` gets the old
// ones at the same paths. Later changes see the earlier ones. Nothing across sections is checked here
// (apply_changes does that). Throws PresetError naming the path: "$.<path>" under `where`.
std::vector<ParameterChange> changes_made(const Preset& preset, const std::vector<ParameterChange>& changes,
                                          const std::string& where, json* before = nullptr);

// The smallest list of changes that turns `before` into `after`: objects and lists of objects are
// compared entry by entry, anything else that differs (a number, a vector, an object whose keys
// changed) is one change. The protocol and the timeline are not compared.
std::vector<ParameterChange> parameter_changes(const Preset& before, const Preset& after);

// True for a path that does not act on the running scene: the description, display units, format
// version, particle generator (used by the next reset) and run settings (duration, intervals, pace).
// Edits of these go to the document itself, not to the timeline.
bool is_document_path(const std::string& path);

// `preset` with the changes of `set` ({"dotted.path": value}) applied in order: each value read by its field's
// reader, as a file would be, and the cross-field checks of the sections they touch run again (the others passed
// before); the result has no timeline. `where` names the set in errors ("$.timeline[3].set"); a path into the
// particles, the protocol, the timeline or the version is refused. Throws PresetError naming `where` and the path,
// the value and what is allowed.
Preset apply_changes(const Preset& preset, const json& set, const std::string& where);
// The same for the paths of the document itself (is_document_path: description, units, particle generator, run);
// the protocol and the timeline are kept.
Preset apply_document_changes(const Preset& document, const json& set, const std::string& where);

// Checks a preset's timeline: steps in non-decreasing order, every path present and every value
// allowed (the entries applied in turn to the preset's own parameters). Throws PresetError naming
// $.timeline[k].step or $.timeline[k].set.<path>. A change that only a protocol phase's own changes
// make impossible is found when it is applied (the run stops with a message).
void validate_timeline(const Preset& preset);

// The document a run continues or restarts from after it applied the first entry_phases.size()
// entries of its timeline, entry k during protocol phase entry_phases[k]: each applied entry folded
// into the parameters (without a protocol) or into the set of the phase it was applied in (so that
// the phase runs with it and later phases keep it except for keys they set themselves), in order;
// the entries not yet applied stay in the timeline. A reset and a checkpoint start from this.
Preset fold_applied_entries(const Preset& document, const std::vector<int>& entry_phases);

}  // namespace lodestone
