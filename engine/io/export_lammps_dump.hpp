#pragma once
// Particle frames as a LAMMPS text dump in the `dump custom` layout, readable by LAMMPS's
// read_dump / rerun and by OVITO. Columns and units: docs/outputs.md.
//
//   ITEM: TIMESTEP / ITEM: NUMBER OF ATOMS / ITEM: BOX BOUNDS xx yy zz / ITEM: ATOMS id type x y z
//   vx vy vz radius mux muy muz fx fy fz tqx tqy tqz omegax omegay omegaz quatw quati quatj quatk
//
// The column names are LAMMPS's own per-atom attributes (dump custom, compute property/atom),
// which OVITO maps to Position, Velocity, Radius, Dipole Orientation, Force, Torque, Angular
// Velocity and Orientation. id = Lodestone id + 1 and type = material index + 1 (LAMMPS atom ids
// and types count from 1; read_dump refuses id 0). The quaternion
// is written w i j k, quatw the scalar part (LAMMPS's order; the XYZ and VTK frames write x y z w).
// Values are SI: read with `units si`.

#include "engine/io/frame_fields.hpp"

#include <ostream>
#include <string>

namespace lodestone {

// The BOX BOUNDS flags, one pair (low side, high side) per axis: a periodic axis "pp", a wall
// "f" (fixed), an open side "s" (shrink-wrapped: the bound is moved out to enclose every sphere
// that has left the box, as LAMMPS's own dumps of shrink-wrapped boxes do).
std::string lammps_boundary_flags(const FrameFields& frame);

// One frame (one TIMESTEP block).
void write_lammps_dump_frame(std::ostream& out, const FrameFields& frame);

}  // namespace lodestone
