#pragma once
// A scene as a LAMMPS input script and data file (units si, atom_style hybrid sphere dipole), for
// runs too big for one machine: `mpirun -np 64 lmp -in in.lodestone`. What maps to what, and what is
// refused: docs/lammps.md.
//
//   linear contact law (absolute, dashpots)  -> pair granular: hooke kn eta_n, tangential linear_history
//                                               kt x_gamma,t mu, damping velocity (one pair_coeff per
//                                               material pair)
//   point dipoles, cutoff or direct sum      -> pair lj/cut/dipole/cut with LJ epsilon 0
//   uniform field B(t) (torque m x B)        -> fix efield on the point dipoles (equal-style variables for
//                                               the ramp, rotating and oscillating programs)
//   walls (box sides)                        -> boundary f, fix wall/gran granular per material and axis
//   gravity, translational damping           -> fix gravity, fix viscous
//   rotational damping                       -> fix langevin at T = 0 with omega yes (a pure drag, scaled per
//                                               type), fix viscous taking the rest of the translational drag
//   no-tension normal dashpot (dp_mode 1, 3) -> limit_damping
//   velocity Verlet, rigid moments           -> fix nve/sphere update dipole
//   protocol phases that end at their         -> one `run N upto` per phase, the field's fix (and the time step)
//   duration and change the field                redefined between them
//
// Moments. LAMMPS's dipole pair styles have the prefactor qqr2e (its Coulomb constant, 8.9876e9 in
// units si) where ours has mu0/4pi = 1e-7. A moment m [A m^2] is written as the dipole p = s m
// [C m] with s = sqrt((mu0/4pi) / qqr2e), so qqr2e p_i p_j = (mu0/4pi) m_i m_j: forces, torques and
// energies are ours. The field B [T] is written as E = B / s [V/m], so p x E = m x B. A dump of the
// LAMMPS run holds p: divide mux muy muz by s (written in the script) for A m^2.
//
// Scenes LAMMPS cannot run as ours does are refused with LammpsExportError, which names the preset
// field, its value and what can be exported; nothing is approximated silently. Some of them LAMMPS can run
// approximately (an uncapped dipole pair, one mass per material, ...): with `approximate` (the runner's
// --approximate) those are exported, each approximation listed in the script's header.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/scene/preset_io.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace lodestone {

// LAMMPS's Coulomb constant in units si (force.cpp: qqr2e = 8.9876e9; five digits, not 1/(4 pi eps0)).
inline constexpr double kLammpsSiCoulombConstant = 8.9876e9;  // [N m^2 / C^2]
// s = sqrt((mu0/4pi) / qqr2e): LAMMPS dipole p = s m, LAMMPS field E = B / s.
double lammps_moment_scale();  // [C m / (A m^2)]

// A preset field LAMMPS cannot express: the message names it, its value and what is exportable.
class LammpsExportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LammpsInput {
  std::string script;  // in.lodestone
  std::string data;    // the data file the script reads
};

// Optional run settings written as the script's defaults (each overridable with lmp -var NAME VALUE).
struct LammpsRunSettings {
  long long steps = 0;         // `run ${steps}`
  long long dump_every = 0;    // [steps] dump custom interval (0: no dump)
  long long thermo_every = 0;  // [steps] 0: steps / 100, at least 1
  bool approximate = false;    // export what LAMMPS can only approximate, listing it (else refuse it)
  // Where the run stands in its protocol (State::phase, phase_start_time, protocol_finished): the script runs the
  // phases still to come, each a `run ... upto` with its field and time step.
  int phase = 0;
  double phase_start_time = 0.0;  // [s]
  bool protocol_finished = false;
};

// The approximations the export of the scene makes, one each (empty: none), for the user to read: those it
// always makes (our default contact convention's dashpots) and, with `approximate`, those it makes only when asked.
std::vector<std::string> lammps_approximations(const Preset& preset, const Model& model, const Particles& particles,
                                               bool approximate);

// Throws LammpsExportError when `preset` uses physics LAMMPS cannot express (checks every field;
// the message lists each refused one); without `approximate` also physics LAMMPS can only approximate. Protocol
// phases from `first_phase` on must end at their duration and change only the field (and the view).
void check_lammps_exportable(const Preset& preset, const Model& model, const Particles& particles,
                             bool approximate = false, int first_phase = 0);

// The script and data file of the scene `preset` built (`model` prepared for `particles`, the state at
// `time` [s]). `data_file` is the name the script reads (relative to where lmp runs). Throws
// LammpsExportError as check_lammps_exportable does.
LammpsInput lammps_input(const Preset& preset, const Model& model, const Particles& particles, double time,
                         const std::string& data_file, const LammpsRunSettings& run);

}  // namespace lodestone
