#include "engine/scene/document.hpp"

#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace lodestone {

void validate_document(const Preset& document) {
  validate_preset(document);
  validate_timeline(document);
}

Preset document_from_json(const json& j) {
  Preset document = preset_from_json(j);
  validate_timeline(document);
  return document;
}

Preset document_from_file_json(json j) {
  Preset document = preset_from_file_json(std::move(j));
  validate_timeline(document);
  return document;
}

Preset parse_preset(const std::string& text, const std::string& source) {
  json j = read_json_text(text, source);
  try {
    return document_from_file_json(std::move(j));
  } catch (const PresetError& e) {
    throw PresetError(source + " " + e.path(), e.message());
  }
}

Preset load_preset_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PresetError(path, "cannot open the file for reading");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  Preset preset = parse_preset(buffer.str(), path);
  // Files a preset names are found next to it, wherever the program runs.
  std::string& file = preset.particles.file;
  if (!file.empty() && std::filesystem::path(file).is_relative())
    file = (std::filesystem::absolute(path).parent_path() / file).lexically_normal().string();
  return preset;
}

Preset default_preset() {
  return parse_preset(default_preset_text(), "built-in default preset");
}

}  // namespace lodestone
