#pragma once
// The Model: everything that changes only by command (a preset load, a panel edit), plus tables
// derived from it once (pair coefficients, time step, cutoffs) so the force loops never mix
// material properties per contact. [PFC-dipole] eqs. 11-12 (inheritance), [Erokhin-Berkov] eq. 9 (moduli).

#include "engine/core/parameters.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace lodestone {

struct Particles;
struct Preset;

// Coefficients of one (material, material) pair; symmetric.
struct PairCoefficients {
  double kn = 0.0;         // [N/m] linear normal stiffness, materials in series
  double ks = 0.0;         // [N/m] linear shear stiffness, materials in series
  double friction = 0.0;   // [-]   the smaller coefficient
  double e_star = 0.0;     // [Pa]  1/E* = (1-nu1^2)/E1 + (1-nu2^2)/E2
  double g_star = 0.0;     // [Pa]  1/G* = 2(2-nu1)(1+nu1)/E1 + 2(2-nu2)(1+nu2)/E2 (Mindlin)
  double g_torsion = 0.0;  // [Pa]  1/G = 1/G1 + 1/G2, G = E / (2 (1 + nu)): twisting of a bonded contact (sand law)
  double surface_energy = 0.0;  // [J/m^2] sqrt(gamma1 gamma2) (sand law)
};

// What the suggested time step was limited by (shown to the user).
struct TimeStepAdvice {
  double suggested = 0.0;  // [s] 1/(2 pi omega_max)
  double omega_max = 0.0;  // [rad/s]
  std::string limited_by;  // "contact stiffness", "field torque", ...
};

// The Ewald method's splitting and cutoffs (engine/magnetic/ewald.hpp), chosen from magnetics.ewald_accuracy.
struct EwaldSplitting {
  double alpha = 0.0;        // [1/m] splitting parameter: real-space terms fall as erfc(alpha r)
  double real_cutoff = 0.0;  // [m] real-space pairs (all images) up to this centre distance
  double k_cutoff = 0.0;     // [1/m] reciprocal vectors k = 2 pi (nx/Lx, ny/Ly, nz/Lz) with |k| up to this
};

// The P3M method's parameters (engine/magnetic/p3m.hpp), tuned from magnetics.p3m_accuracy.
struct P3MTuning {
  int mesh[3] = {0, 0, 0};       // mesh points per axis
  int order = 0;                 // charge-assignment order P (points per axis of a particle's stencil)
  double alpha = 0.0;            // [1/m] Ewald splitting parameter
  double real_cutoff = 0.0;      // [m] real-space pairs (all images) up to this centre distance
  double estimated_error = 0.0;  // a-priori RMS force error relative to F0 (p3m_force_scale)
};

// The preset's physics sections (PhysicsParameters) and what is derived from them.
struct Model : PhysicsParameters {
  // The preset's particles.seed: the key of the thermal noise (engine/step/thermal.hpp), so that a run continued
  // from a checkpoint draws the same noise, and a sweep over the seed gives independent realisations.
  std::uint64_t noise_seed = 1;

  // Derived by prepare_model(); read-only for the stages.
  int wall_material = 0;
  std::vector<PairCoefficients> pair_table;  // material_count x material_count, row-major
  double time_step = 0.0;                    // [s] the one in use
  TimeStepAdvice advice;
  double skin = 0.0;                    // [m] Verlet skin
  double contact_reach = 0.0;           // [m] largest surface gap at which a contact can be active
  double dipole_cutoff = 0.0;           // [m] centre distance (cutoff method)
  EwaldSplitting ewald;                 // ewald method only
  P3MTuning p3m;                        // p3m method only
  double max_radius = 0.0;              // [m] of the particles the model was prepared for
  Vec3 periodic_length = Vec3::Zero();  // [m] box length along periodic axes, 0 elsewhere
  double lid_damping = 0.0;             // [N s/m] pressure.method = lid

  const PairCoefficients& pair(int a, int b) const {
    return pair_table[static_cast<size_t>(a) * materials.size() + static_cast<size_t>(b)];
  }
};

// Minimum-image separation along the periodic axes. Within half a box length the division is skipped: there
// |fl(d / L)| <= 0.5, which round_to_integer takes to +0 (its ties go to even), and d - L * 0 is d to the bit, so
// both ways give the same bits (NaN and infinities take the division, as before). Most pairs a step images are
// close, and the division was most of the cost.
inline Vec3 minimum_image(const Model& m, Vec3 d) {
  for (int a = 0; a < 3; ++a) {
    const double length = m.periodic_length[a];
    if (length > 0.0 && !(std::abs(d[a]) <= 0.5 * length)) d[a] -= length * round_to_integer(d[a] / length);
  }
  return d;
}

// Puts the positions of particles [begin, end) on periodic axes back into the box, adding the box lengths taken
// off to their image flags (Particles::image: a jump over several boxes counts all of them); all particles with
// the second form.
void wrap_periodic(const Model& model, Particles& p, size_t begin, size_t end);
void wrap_periodic(const Model& model, Particles& p);
// Puts x back into [lo, lo + length) and returns the box lengths taken off (x_before = x_after + n length, to
// rounding): the change of its image flag.
int wrap_coordinate(double& x, double lo, double length);

// Copies the scene parameters of a preset; prepare_model (engine/step/model_preparation.hpp) derives the rest.
Model make_model(const Preset& preset);
// Writes the model's parameters back into a preset (for saving an edited scene).
void store_model(const Model& model, Preset& preset);
// Mixing rules, exposed for tests.
PairCoefficients mix_materials(const Material& a, const Material& b);

}  // namespace lodestone
