#pragma once
// Particle-frame exports: the format chosen by a path's extension, a series of frames written
// during a run (lodestone-run --frames), and one frame written to one file (the desktop app's
// Export panel). The formats themselves live one per file (export_xyz, export_vtk,
// export_lammps_dump, export_csv) and share the per-particle values of engine/output/frame_fields.hpp.
// Columns, units and how to open each in ParaView / OVITO: docs/outputs.md.

#include "engine/output/export_vtk.hpp"
#include "engine/output/frame_fields.hpp"

#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lodestone {

enum class FrameFormat : int { ExtendedXyz, VtkPolyData, LammpsDump, Csv };
inline constexpr int kFrameFormatCount = 4;

// A short name for menus and messages ("extended XYZ", "VTK PolyData", ...).
const char* frame_format_name(FrameFormat format);
// The extension a new file of this format gets (".xyz", ".vtp", ".dump", ".csv").
const char* frame_format_extension(FrameFormat format);
// The format a path's extension selects (case-insensitive): .xyz, .vtp, .dump or .lammpstrj,
// .csv; nullopt for anything else.
std::optional<FrameFormat> frame_format_of(const std::string& path);
// The allowed extensions with their formats, for error messages.
std::string frame_extensions_help();

// A file that could not be written: the message names the path and the reason.
class ExportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One frame as the whole content of a file of `format` (CSV with its version comment and header; VTK the .vtp
// alone, in `vtk_encoding`; a LAMMPS dump without its bond side files).
std::string frame_file_text(FrameFormat format, const FrameFields& frame,
                            VtkEncoding vtk_encoding = VtkEncoding::Ascii);
// Writes one frame to `path` in the format of its extension, atomically. Throws ExportError for
// an unknown extension (naming the allowed ones) or a file that cannot be written. A LAMMPS dump of a
// frame with bonds also writes its data file and bond dump beside it (lammps_data_path, lammps_bond_dump_path).
void export_frame(const std::string& path, const FrameFields& frame, VtkEncoding vtk_encoding = VtkEncoding::Ascii);

// A run's frames. XYZ, LAMMPS dump and CSV append to the one file (a dump of a scene with bonds also writes
// the data file of its first frame and appends each frame's bonds to a dump local beside it, both named
// after the dump: engine/output/export_lammps_dump.hpp); VTK writes one .vtp per frame
// beside the path (stem_000000.vtp, stem_000001.vtp, ...) and keeps stem.pvd, the collection of
// all frames with their times, valid at every moment (rewritten atomically after each frame, and
// each .vtp written atomically before it is listed), so a crashed run leaves a readable series.
class FrameSeriesWriter {
 public:
  // Makes the stream an appended frame file is written to (throws ExportError when it cannot): how a program
  // writes compressed frames (app/trajectory/gzip_stream.hpp) without the engine linking a compression library.
  using StreamOpener = std::function<std::unique_ptr<std::ostream>(const std::string& path)>;

  // Creates (truncates) the output; throws ExportError when it cannot be written. `units`: the unit-system
  // note of the frames to come (FrameFields::units), which the CSV header line carries. `open`: the frames file of
  // an appended format through this (its first flush, at finish(), completes it) instead of a plain file; the
  // dump's bond files beside it stay plain, named after `path` without its last extension when `open` is given.
  FrameSeriesWriter(const std::string& path, FrameFormat format, const std::string& units = "",
                    VtkEncoding vtk_encoding = VtkEncoding::Ascii, const StreamOpener& open = {});
  // Appends a frame; throws ExportError when writing fails.
  void write(const FrameFields& frame);
  // Flushes the appended file; throws ExportError when that fails (disk full).
  void finish();

  FrameFormat format() const { return format_; }
  std::int64_t frames() const { return frames_; }
  // The .pvd of a VTK series ("" for the other formats).
  const std::string& collection_path() const { return collection_path_; }

 private:
  std::string path_;
  std::string side_path_;  // the name the dump's bond files are made from (path_, or path_ less a .gz)
  FrameFormat format_;
  VtkEncoding vtk_encoding_ = VtkEncoding::Ascii;
  std::int64_t frames_ = 0;
  std::unique_ptr<std::ostream> out_;  // XYZ, dump, CSV
  std::ofstream bond_out_;             // dump of a scene with bonds: the dump local of the bonds
  std::string directory_, stem_;       // VTK: where the frames go, and their name
  std::string collection_path_;        // VTK: the .pvd
  std::vector<PvdEntry> collection_;   // VTK: frames written so far
};

}  // namespace lodestone
