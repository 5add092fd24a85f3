#pragma once
// A scene document: a preset with its protocol and its timeline of recorded edits (docs/session-log.md), read
// whole from text, a file or JSON and checked whole: every section (engine/scene/preset_io.hpp) and then the
// timeline, each entry applied in turn to the parameters (engine/scene/preset_edits.hpp). What the app, the runner,
// the Python module and the checkpoint reader load. All throw PresetError naming the JSON path, the value and what
// is allowed (a file's errors start with its name).

#include "engine/core/preset.hpp"
#include "engine/scene/schema.hpp"

#include <string>

namespace lodestone {

// The checks of a whole document: validate_preset, then validate_timeline.
void validate_document(const Preset& document);

// From JSON in SI (a Python dict, a preset the runner changed).
Preset document_from_json(const json& j);
// From a file's JSON in its own unit system (units.system).
Preset document_from_file_json(json j);
// From a file's text; `source` names it in messages.
Preset parse_preset(const std::string& text, const std::string& source = "preset");
// From a file; a checkpoint it names (particles.file) is found next to it.
Preset load_preset_file(const std::string& path);
// The built-in default scene (presets/default.json, compiled into the binary).
Preset default_preset();

}  // namespace lodestone
