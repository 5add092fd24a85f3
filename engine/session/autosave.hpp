#pragma once
// An autosave: what the desktop app writes every half minute while something changes (issue 41), so that after a
// crash the session comes back as it was. It is the session document (the preset with its whole timeline: what File
// > Save writes, and what `lodestone-run` replays bit for bit) and a point of its run (the state, the parameters in
// force, the timeline entries applied: engine/session/history.hpp), from which Session(document, point) goes on
// exactly as the run would have.
//
// Format, one file (engine/session/autosave_store.hpp writes it atomically): the line "LODESTONE-AUTOSAVE", a format
// version, then three sections, each a 64-bit length and its bytes: the header (JSON: the scene's name and source,
// when it was written, its step and time, the program, the entries applied and the parameters in force in SI), the
// document (the preset text a save writes) and a checkpoint of the state (engine/scene/checkpoint.hpp, with the
// document as it stands at that step), and an FNV-1a checksum of every byte before it. A damaged or truncated file
// is refused whole, naming the section at fault: nothing of it is loaded.

#include "engine/core/preset.hpp"
#include "engine/session/history.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lodestone {

inline constexpr int kAutosaveVersion = 1;

struct AutosaveError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What the restore offer shows, read from the header alone.
struct AutosaveInfo {
  std::string scene;          // the name its files go by ("two-dipoles"; autosave_scene_name)
  std::string source;         // where the scene came from: its file, or "built-in default preset"
  std::int64_t saved_at = 0;  // [s] wall clock (seconds since 1970, UTC) when it was written (0: now, when written)
  std::int64_t step = 0;      // of the saved state
  double time = 0.0;          // [s] simulated time of the saved state
  std::string written_by;     // "Lodestone 0.1.0"
};

struct Autosave {
  AutosaveInfo info;
  Preset document;     // the session: the preset as loaded, its protocol and the whole timeline of edits
  SessionPoint point;  // the run at info.step
};

// The name an autosave of a scene from `source` goes by: the file's name without its folder and extension, only
// letters, digits, '-' and '_' kept ("default" for the built-in scene).
std::string autosave_scene_name(const std::string& source);

// Bytes of an autosave / an autosave from bytes (throws AutosaveError naming the section and what is wrong).
std::string autosave_to_bytes(const Autosave& autosave);
Autosave autosave_from_bytes(const std::string& bytes);
// The header alone, from the first bytes of a file (at least up to the end of the header); throws AutosaveError.
AutosaveInfo autosave_info_from_bytes(const std::string& bytes);

}  // namespace lodestone
