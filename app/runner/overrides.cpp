#include "app/runner/overrides.hpp"

#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/unit_values.hpp"

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

Preset apply_overrides(const Preset& preset, const std::vector<std::string>& specs) {
  if (specs.empty()) return preset;
  json document = preset_to_json(preset);
  for (const std::string& spec : specs) {
    std::string path, value;
    if (std::string error = parse_override(spec, path, value); !error.empty()) throw PresetError("--set", error);
    // A bare number in the preset's own units, as its file and a sweep read it.
    set_json_path(document, path, value_in_si(preset.units, path, value_from_text(value)), "--set " + path);
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
