#pragma once
// Particle frames as CSV, long format: one header line, then one row per particle per frame, each
// row carrying its frame's step and time (pandas, R, a spreadsheet). Columns and units:
// docs/outputs.md.

#include "engine/output/frame_fields.hpp"

#include <ostream>
#include <string>

namespace lodestone {

// The header line (with its newline): step, time, id, material, radius, x, y, z, vx, vy, vz,
// qx, qy, qz, qw (body -> world, w the scalar part), omega_x..z, easy_axis_x..z, moment_x..z,
// force_x..z, torque_x..z, alignment, cluster.
// With a unit-system note (FrameFields::units), a first line "# units: NOTE" says the values are not SI.
std::string frame_csv_header(const std::string& units = "");

// The rows of one frame (no header).
void write_csv_frame(std::ostream& out, const FrameFields& frame);

}  // namespace lodestone
