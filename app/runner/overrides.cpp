#include "app/runner/overrides.hpp"

#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"

#include <algorithm>

namespace lodestone::runner {

json value_from_text(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception&) {
    return text;
  }
}

std::string parse_override(const std::string& spec, std::string& path, std::string& value) {
  const size_t equals = spec.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size())
    return "'" + spec + "' is not PATH=VALUE (e.g. field.strength=40mT, materials.0.friction=0.3)";
  path = spec.substr(0, equals);
  value = spec.substr(equals + 1);
  return {};
}

namespace {

// "materials.0.friction" -> "/materials/0/friction"
json::json_pointer pointer_of(const std::string& dotted_path) {
  std::string pointer = "/" + dotted_path;
  std::replace(pointer.begin(), pointer.end(), '.', '/');
  return json::json_pointer(pointer);
}

// A value of the command line as the preset's own file reads it: in a preset in reduced units a bare number is
// in those units, as in the file and in a sweep (issue 42). Read through the file reader (the preset in its
// units, the value put at its path), then taken back in SI from there; the other values stay as they were, so
// a preset in SI units runs bit for bit as before.
json value_in_si(const Preset& preset, const std::string& path, const json& value) {
  if (preset.units.system == UnitSystem::Si) return value;
  json file = preset_to_file_json(preset);
  set_json_path(file, path, value, "--set " + path);
  const json si = preset_to_json(preset_from_file_json(std::move(file)));
  const json::json_pointer at = pointer_of(path);
  return si.contains(at) ? si.at(at) : value;  // a key written only when not its default: the default
}

}  // namespace

Preset apply_overrides(const Preset& preset, const std::vector<std::string>& specs) {
  if (specs.empty()) return preset;
  json document = preset_to_json(preset);
  for (const std::string& spec : specs) {
    std::string path, value;
    if (std::string error = parse_override(spec, path, value); !error.empty()) throw PresetError("--set", error);
    try {
      set_json_path(document, path, value_in_si(preset, path, value_from_text(value)), "--set " + path);
    } catch (const PresetError& e) {
      if (e.path().rfind("--set", 0) == 0) throw;
      throw PresetError(e.path(), e.message() + " (after --set)");
    }
  }
  Preset overridden;
  try {
    overridden = document_from_json(document);
    // A protocol phase's changes apply when it starts: check them now, on top of the overrides.
    for (size_t k = 0; k < overridden.protocol.size(); ++k) phase_preset(overridden, static_cast<int>(k));
  } catch (const PresetError& e) {
    throw PresetError(e.path(), e.message() + " (after --set)");
  }
  return overridden;
}

}  // namespace lodestone::runner
