#pragma once
// Particle frames as VTK XML PolyData (.vtp, ASCII), one file per frame, and the ParaView
// collection (.pvd) that lists the frames with their times. Each particle is a point with one
// VTK vertex cell (so ParaView draws the points and Glyph filters work) and point data: id,
// material, radius, velocity, angular_velocity, orientation, easy_axis, moment, force, torque,
// alignment, cluster. Field data carries TimeValue [s] and Step. Columns and units: docs/outputs.md.

#include "engine/io/frame_fields.hpp"

#include <string>
#include <vector>

namespace lodestone {

// The .vtp document of one frame.
std::string vtp_text(const FrameFields& frame);

// One frame of a collection: its time [s] and its file, relative to the .pvd.
struct PvdEntry {
  double time = 0.0;
  std::string file;
};
// The .pvd document listing `entries` in order.
std::string pvd_text(const std::vector<PvdEntry>& entries);

// "stem_000123.vtp": frame files numbered by frame (from 0), at least six digits.
std::string vtp_frame_name(const std::string& stem, std::int64_t frame);

}  // namespace lodestone
