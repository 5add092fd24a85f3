#pragma once
// Particle frames as an H5MD 1.1 file (https://nongnu.org/h5md/h5md.html; HDF5 through its C library, which the
// engine does not link): what ESPResSo writes and OVITO, MDAnalysis and h5py scripts read. Layout
// (docs/outputs.md, "H5MD"):
//
//   h5md                 version [1, 1]; author (name), creator (name, version)
//   particles/all/box    dimension 3, boundary [3] "periodic" | "none", edges [3] (the box's lengths)
//   particles/all/position, image, velocity, force, moment, radius, species, id
//                        time-dependent elements: value [frame][N][3] (or [frame][N]), step [frame], time [frame];
//                        every element's step and time are hard links to position's
//   parameters           preset (the scene as JSON text), units ("SI" or the lj note), box_min [3], program
//
// Particles in ascending id order; unwrapped position = position + image * edges on periodic axes. A frame with
// fewer particles than an earlier one (a particle deleted) leaves the rest of its rows at the fill values (id -1,
// NaN), as the specification allows for a varying particle number.

#include "app/trajectory/hdf5_objects.hpp"
#include "engine/output/frame_fields.hpp"

#include <memory>
#include <string>

namespace lodestone::trajectory {

// True when a frames path names an H5MD file: the extension .h5md or .h5 (case-insensitive).
bool is_h5md_path(const std::string& path);

class H5mdWriter {
 public:
  // Creates (truncates) `path` and writes the metadata and the parameters; `preset_json` the scene document,
  // `units_note` "" for SI or the unit-system note of the frames (FrameFields::units). Throws ExportError
  // (engine/output/export_frames.hpp) naming the path when the file cannot be made.
  H5mdWriter(const std::string& path, const std::string& preset_json, const std::string& units_note);
  ~H5mdWriter();
  H5mdWriter(H5mdWriter&&) noexcept;
  H5mdWriter& operator=(H5mdWriter&&) noexcept;

  // Appends one frame; throws ExportError when writing fails.
  void write(const FrameFields& frame);
  // Flushes the file to disk (it stays open); throws ExportError when that fails.
  void finish();
  std::int64_t frames() const;

 private:
  struct Elements;
  void start_particles(const FrameFields& frame);

  std::string path_;
  bool si_ = true;
  Hdf5Id file_;
  std::unique_ptr<Elements> elements_;  // made at the first frame (its box and particle count)
};

}  // namespace lodestone::trajectory
