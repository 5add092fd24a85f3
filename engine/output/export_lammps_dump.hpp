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

#include "engine/output/frame_fields.hpp"

#include <ostream>
#include <string>

namespace lodestone {

// The BOX BOUNDS flags, one pair (low side, high side) per axis: a periodic axis "pp", a wall
// "f" (fixed), an open side "s" (shrink-wrapped: the bound is moved out to enclose every sphere
// that has left the box, as LAMMPS's own dumps of shrink-wrapped boxes do).
std::string lammps_boundary_flags(const FrameFields& frame);

// One frame (one TIMESTEP block).
void write_lammps_dump_frame(std::ostream& out, const FrameFields& frame);

// Bonds (engine/bodies/bonds.hpp), the way OVITO reads them beside a dump: a LAMMPS data file with the
// topology (open it first) and a `dump local` file with the bonds of each frame (OVITO's Load trajectory
// modifier). A dump has no comment syntax; the data file's title line names the program and its version.
//
// The data file of one frame: title line, counts (atoms, atom types = materials, bonds, 2 bond types), box
// bounds as in the dump, "Atoms # bond" (atom-ID molecule-ID atom-type x y z; ids and types from 1, molecule 0)
// and "Bonds" (bond-ID type atom1 atom2, type 1 intact, 2 broken). Read by LAMMPS's read_data with
// atom_style bond (masses to be set by the input) and by OVITO.
std::string lammps_data_text(const FrameFields& frame);
// One frame of the intact bonds as LAMMPS writes `dump local` with `dump_modify label BONDS`:
//   ITEM: TIMESTEP / ITEM: NUMBER OF BONDS / ITEM: BOX BOUNDS / ITEM: BONDS index batom1 batom2 btype stretch
// batom1, batom2 the atom ids (Lodestone id + 1), btype 1, stretch (|d| - L0) / L0. OVITO: map batom1 and
// batom2 to Topology.A and .B, btype to Bond Type (docs/outputs.md).
void write_lammps_bond_dump_frame(std::ostream& out, const FrameFields& frame);
// The side files of a dump at `dump_path` in a scene with bonds: "run.dump" -> "run.data" and "run.bonds.dump".
std::string lammps_data_path(const std::string& dump_path);
std::string lammps_bond_dump_path(const std::string& dump_path);

}  // namespace lodestone
