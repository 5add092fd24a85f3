#pragma once
// Particle frames as a GSD file (HOOMD-blue's General Simulation Data: file layer 2.0, schema "hoomd" 1.4), what HOOMD
// users load into OVITO, MDAnalysis, freud and the `gsd` Python package (Debian's python3-gsd; issue 42). Written
// here without a library (the format is a header, raw data chunks, an index and a list of names):
//
//   configuration/step, configuration/box [Lx Ly Lz 0 0 0], configuration/dimensions 3 (first frame)
//   particles/N, types ("1".."K": the materials, as LAMMPS types; first frame), typeid, position (centred on the box's
//   middle, as HOOMD's box is), velocity, image, diameter, orientation (w x y z): float32 / int32 / uint32 as the
//   schema has them
//   log/particles/id (uint64), log/particles/moment (float64 N x 3), log/time (float64): ours, under the schema's log/
//
// Frames hold the particles in the state's order (log/particles/id names them). The index and the names are written
// at finish(): a run that is killed leaves a file without them, which readers refuse.

#include "engine/output/frame_fields.hpp"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace lodestone::trajectory {

// True when a frames path names a GSD file (the extension .gsd, case-insensitive).
bool is_gsd_path(const std::string& path);

class GsdWriter {
 public:
  // Creates (truncates) `path`; throws ExportError (engine/output/export_frames.hpp) naming it when it cannot.
  explicit GsdWriter(const std::string& path);
  ~GsdWriter();  // finishes a file not finished (errors are then lost: call finish())
  GsdWriter(const GsdWriter&) = delete;
  GsdWriter& operator=(const GsdWriter&) = delete;

  // Appends one frame's chunks; throws ExportError when writing fails.
  void write(const FrameFields& frame);
  // Writes the index, the names and the header; throws ExportError when that fails. Further frames are refused.
  void finish();

 private:
  struct Entry {
    std::uint64_t frame, rows;
    std::int64_t location;
    std::uint32_t columns;
    std::string name;
    std::uint8_t type;
  };
  template <class T>
  void chunk(const std::string& name, const std::vector<T>& data, std::uint32_t columns);

  std::string path_;
  std::ofstream out_;
  std::vector<Entry> entries_;
  std::uint64_t frames_ = 0;
  bool finished_ = false;
};

}  // namespace lodestone::trajectory
