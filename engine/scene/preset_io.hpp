#pragma once
// Reading and writing presets (the struct: engine/core/preset.hpp): one JSON file = one whole scene
// (format in docs/presets.md, generated from the field tables in preset_schema.cpp). Loading validates everything and
// converts units to SI; a bad file gives a PresetError naming the JSON path, the value and what is allowed.

#include "engine/core/preset.hpp"
#include "engine/scene/schema.hpp"

#include <string>
#include <vector>

namespace lodestone {

// Field tables (one per struct). Shared by parsing, writing, docs and the app's panels.
const Schema<Preset>& preset_schema();
const Schema<Material>& material_schema();
const Schema<ContactParameters>& contact_schema();
const Schema<LinearLawParameters>& linear_law_schema();
const Schema<HertzMindlinParameters>& hertz_mindlin_schema();
const Schema<HertzCoulombParameters>& hertz_coulomb_schema();
const Schema<SandParameters>& sand_law_schema();
const Schema<RollingParameters>& rolling_schema();
const Schema<PressureParameters>& pressure_schema();
const Schema<ProtocolPhase>& protocol_phase_schema();
const Schema<TimelineEntry>& timeline_entry_schema();
const Schema<MagneticParameters>& magnetics_schema();
const Schema<FieldParameters>& field_schema();
const Schema<EnvironmentParameters>& environment_schema();
const Schema<BoxParameters>& box_schema();
const Schema<IntegratorParameters>& integrator_schema();
const Schema<GeneratorParameters>& generator_schema();
const Schema<Region>& region_schema();
const Schema<ParticleEntry>& particle_entry_schema();
const Schema<RunParameters>& run_schema();
const Schema<ViewParameters>& view_schema();
const Schema<BondParameters>& bonds_schema();
const Schema<BondEntry>& bond_entry_schema();
const Schema<FloorParameters>& floor_schema();
const Schema<DisplayUnits>& display_units_schema();
const Schema<LjScales>& lj_scales_schema();
const Schema<ClumpPebble>& clump_pebble_schema();
const Schema<ClumpEntry>& clump_schema();

// Parsing and writing the sections of a preset. All throw PresetError. preset_from_json and preset_to_json take and
// give the JSON in SI (how the engine edits a preset by dotted path); the file functions convert from and to the
// file's units.system (engine/scene/unit_system.hpp). The timeline is read here, not applied: a whole document (a
// file, a checkpoint's preset) is read by engine/scene/document.hpp, which also checks that its timeline applies.
Preset preset_from_json(const json& j);
// A preset file's JSON in its own unit system: converted to SI, then preset_from_json.
Preset preset_from_file_json(json j);
// JSON text as a preset file holds it; broken JSON is refused naming `source`, the line and the column.
json read_json_text(const std::string& text, const std::string& source);
// preset_to_json, then converted to the preset's units.system: what a save writes.
json preset_to_file_json(const Preset& preset);
json preset_to_json(const Preset& preset);
std::string preset_to_text(const Preset& preset);  // pretty JSON, keys in declared order
// Atomic save: writes "<path>.tmp-<pid>" then renames it over `path`; the old file survives a failure.
void save_preset_file(const Preset& preset, const std::string& path);

// Cross-field checks (names exist, box is not empty, periodic sides pair up, the list's spheres inside the box, the
// scene's size, the clumps' materials).
void validate_preset(const Preset& preset);
// Those of the checks that read one of `sections` (top-level keys: "box", "materials", ...): what a change of
// these sections must check again, the others having passed before.
void validate_sections(const Preset& preset, const std::vector<std::string>& sections);

// The built-in default scene's text (presets/default.json, compiled into the binary; engine/scene/document.hpp reads
// it).
const std::string& default_preset_text();

// The particles a scene will have (the generator's and the clumps' pebbles), counted before anything is built; a
// checkpoint's are not known until it is read (0).
double scene_particle_count(const Preset& preset);
// The unit a quantity is shown in: the scene's display unit for field, length and pressure, the SI unit otherwise.
std::string display_unit(Quantity q, const DisplayUnits& units);
// A value at a dotted path as the panels show it: each dimensional number in its display unit ("25 mT" for
// field.strength 0.025), other values as they are. For messages and undo notices.
json value_in_display_units(const std::string& path, const json& value, const DisplayUnits& units);

// Documentation of every field (docs/presets.md is this, checked by a test).
std::vector<FieldDoc> preset_field_docs();
std::string preset_docs_markdown();

}  // namespace lodestone
