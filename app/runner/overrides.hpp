#pragma once
// --set PATH=VALUE: preset values overridden for one run, without editing the file. The value is read as
// a sweep's values are (JSON where it parses: 0.2, [0,0,1], true; text otherwise, which the preset reads as
// a quantity with a unit: 40mT, "0.5 atm"), put at the dotted path of the preset's JSON, and the whole
// preset read back by the preset reader, so the errors are the loader's: the JSON path, the value and what
// is allowed. A bare number is in the preset's unit system (units.system), as its file and a sweep read it:
// field.strength=0.5 in a preset in reduced units is 0.5 of its field unit, 40mT is 40 mT in any.

#include "engine/core/preset.hpp"
#include "engine/scene/schema.hpp"

#include <string>
#include <vector>

namespace lodestone::runner {

// A value as typed on the command line: the JSON value when the text parses as JSON, else the text.
json value_from_text(const std::string& text);

// Splits "PATH=VALUE" at the first '='. Returns "" and fills path and value, or what is wrong.
std::string parse_override(const std::string& spec, std::string& path, std::string& value);

// `preset` with each PATH=VALUE of `specs` applied in order (later ones win), read back and validated,
// each protocol phase's own changes checked on top. Throws PresetError: a path that is not there names
// "--set PATH" and the keys that are; a bad value names its JSON path, the value and what is allowed.
Preset apply_overrides(const Preset& preset, const std::vector<std::string>& specs);

}  // namespace lodestone::runner
