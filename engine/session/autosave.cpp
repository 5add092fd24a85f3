#include "engine/session/autosave.hpp"

#include "engine/core/version.hpp"
#include "engine/scene/checkpoint.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"

#include <cctype>
#include <chrono>
#include <cstring>
#include <filesystem>

namespace lodestone {
namespace {

constexpr char kMagic[] = "LODESTONE-AUTOSAVE\n";
constexpr size_t kMagicSize = sizeof(kMagic) - 1;

void put_u64(std::string& out, std::uint64_t v) {
  char bytes[8];
  std::memcpy(bytes, &v, 8);  // little-endian, as checkpoints (engine/scene/checkpoint.cpp asserts it)
  out.append(bytes, 8);
}

void put_section(std::string& out, const std::string& bytes) {
  put_u64(out, bytes.size());
  out += bytes;
}

// Reads the file's parts in order; each read names the section it is in when the bytes run out.
class Cursor {
 public:
  // Reads `bytes` (which must outlive the cursor) from `at` on.
  Cursor(const std::string& bytes, size_t at) : bytes_(bytes), at_(at) {}
  size_t at() const { return at_; }
  std::uint64_t u64(const char* section) {
    if (bytes_.size() - at_ < 8) truncated(section, 8);
    std::uint64_t v = 0;
    std::memcpy(&v, bytes_.data() + at_, 8);
    at_ += 8;
    return v;
  }
  std::string section(const char* name) {
    const std::uint64_t n = u64(name);
    if (n > bytes_.size() - at_) truncated(name, n);
    std::string out = bytes_.substr(at_, static_cast<size_t>(n));
    at_ += static_cast<size_t>(n);
    return out;
  }

 private:
  [[noreturn]] void truncated(const char* section, std::uint64_t wanted) const {
    throw AutosaveError("the file ends inside the " + std::string(section) + " (" + std::to_string(wanted) +
                        " bytes wanted, " + std::to_string(bytes_.size() - at_) +
                        " left): it is truncated, written only in part");
  }
  const std::string& bytes_;
  size_t at_;
};

std::int64_t seconds_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

json header_of(const Autosave& a) {
  // The parameters in force are written with the document's list of particles, which they leave out (Session keeps
  // it in the document only), so that they read back as a whole preset.
  Preset in_force = a.point.in_force;
  in_force.particles.particles = a.document.particles.particles;
  return json{{"scene", a.info.scene},
              {"source", a.info.source},
              {"saved_at", a.info.saved_at != 0 ? a.info.saved_at : seconds_now()},
              {"step", a.point.state.step},
              {"time", a.point.state.time},
              {"written_by", lodestone_version_line()},
              {"entry_phases", a.point.entry_phases},
              {"in_force", preset_to_json(in_force)}};
}

AutosaveInfo info_of(const json& h) {
  AutosaveInfo info;
  try {
    info.scene = h.at("scene").get<std::string>();
    info.source = h.at("source").get<std::string>();
    info.saved_at = h.at("saved_at").get<std::int64_t>();
    info.step = h.at("step").get<std::int64_t>();
    info.time = h.at("time").get<double>();
    info.written_by = h.at("written_by").get<std::string>();
  } catch (const json::exception& e) {
    throw AutosaveError(std::string("the header lacks a field or has one of the wrong type: ") + e.what());
  }
  return info;
}

json parse_header(const std::string& text) {
  try {
    json h = json::parse(text);
    if (!h.is_object()) throw AutosaveError("the header is not a JSON object");
    return h;
  } catch (const json::exception& e) {
    throw AutosaveError(std::string("the header is not JSON: ") + e.what());
  }
}

// Reads the header's parameters in force and entries applied, checked against the document and the state.
SessionPoint point_of(const json& h, const Preset& document, State state) {
  SessionPoint p;
  try {
    p.entry_phases = h.at("entry_phases").get<std::vector<int>>();
  } catch (const json::exception& e) {
    throw AutosaveError(std::string("header.entry_phases: not a list of protocol phases: ") + e.what());
  }
  if (p.entry_phases.size() > document.timeline.size())
    throw AutosaveError("header.entry_phases: " + std::to_string(p.entry_phases.size()) +
                        " timeline entries applied, but the document's timeline has " +
                        std::to_string(document.timeline.size()));
  try {
    p.in_force = preset_from_json(h.at("in_force"));
  } catch (const PresetError& e) {
    throw AutosaveError(std::string("header.in_force: the parameters in force do not load: ") + e.what());
  } catch (const json::exception& e) {
    throw AutosaveError(std::string("header.in_force: missing: ") + e.what());
  }
  p.in_force.particles.particles.clear();  // as Session keeps them
  if (h.value("step", std::int64_t{-1}) != state.step)
    throw AutosaveError("header.step: " + h.value("step", json()).dump() + ", but the checkpoint's state is at step " +
                        std::to_string(state.step));
  p.state = std::move(state);
  return p;
}

}  // namespace

std::string autosave_scene_name(const std::string& source) {
  if (source.empty() || source == "built-in default preset") return "default";
  std::string stem = std::filesystem::path(source).stem().string();
  const std::string suffix = ".lodestone";  // "scene.lodestone.json" (the MIME type's name)
  if (stem.size() > suffix.size() && stem.ends_with(suffix)) stem.resize(stem.size() - suffix.size());
  std::string out;
  for (char ch : stem) out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' ? ch : '_';
  if (out.size() > 60) out.resize(60);
  return out.empty() ? "scene" : out;
}

std::string autosave_to_bytes(const Autosave& a) {
  std::string out(kMagic, kMagicSize);
  put_u64(out, kAutosaveVersion);
  put_section(out, header_of(a).dump());
  put_section(out, preset_to_text(a.document));
  // The checkpoint's own preset: the document as it stands at that step (the entries applied folded in), as a
  // checkpoint of now stores it, so that the checkpoint alone also continues the run.
  put_section(out, checkpoint_to_bytes(fold_applied_entries(a.document, a.point.entry_phases), a.point.state));
  put_u64(out, checkpoint_checksum(out.data(), out.size()));
  return out;
}

AutosaveInfo autosave_info_from_bytes(const std::string& bytes) {
  if (bytes.compare(0, kMagicSize, kMagic) != 0)
    throw AutosaveError("not a Lodestone autosave (it does not start with LODESTONE-AUTOSAVE)");
  Cursor c(bytes, kMagicSize);
  const std::uint64_t version = c.u64("format version");
  if (version != static_cast<std::uint64_t>(kAutosaveVersion))
    throw AutosaveError("format version " + std::to_string(version) + "; this program reads version " +
                        std::to_string(kAutosaveVersion));
  return info_of(parse_header(c.section("header")));
}

Autosave autosave_from_bytes(const std::string& bytes) {
  const AutosaveInfo info = autosave_info_from_bytes(bytes);  // magic, version, header readable
  Cursor c(bytes, kMagicSize);
  c.u64("format version");
  const std::string header = c.section("header");
  const std::string document_text = c.section("session document");
  const std::string checkpoint = c.section("checkpoint");
  const size_t summed = c.at();
  const std::uint64_t stored = c.u64("checksum");
  if (c.at() != bytes.size())
    throw AutosaveError(std::to_string(bytes.size() - c.at()) + " unexpected bytes after the checksum");
  if (checkpoint_checksum(bytes.data(), summed) != stored)
    throw AutosaveError("the checksum does not match: the file is damaged");
  Autosave out;
  out.info = info;
  try {
    out.document = parse_preset(document_text, "the session document");
  } catch (const PresetError& e) {
    throw AutosaveError(e.what());
  }
  Checkpoint saved;
  try {
    saved = checkpoint_from_bytes(checkpoint);
  } catch (const CheckpointError& e) {
    throw AutosaveError(std::string("the checkpoint: ") + e.what());
  }
  out.point = point_of(parse_header(header), out.document, std::move(saved.state));
  return out;
}

}  // namespace lodestone
