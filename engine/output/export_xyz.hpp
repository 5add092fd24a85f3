#pragma once
// Particle frames as extended XYZ (OVITO, ASE): one frame = a count line, a comment line with
// Lattice, Origin, pbc, Properties, Time, Step, (scenes with bonds) bonds and broken_bonds, the particle ids in
// pairs, and Program (the writer and its version, "Lodestone 0.1.0"), then one line per particle. Columns and units:
// docs/outputs.md.

#include "engine/output/frame_fields.hpp"

#include <ostream>

namespace lodestone {

// One frame. Properties: id, radius, pos, velo, orientation, easy_axis, moment, force, torque.
// The orientation quaternion (body -> world) is written in the order x y z w, w the scalar part:
// OVITO's Orientation.X/Y/Z/W.
void write_xyz_frame(std::ostream& out, const FrameFields& frame);

}  // namespace lodestone
