#pragma once
// [Erokhin-Berkov]'s reduced units (Appendix B), computed at the edge. The engine integrates in SI, in
// double precision, so the paper's reason for them (stability of its scheme) does not apply; they
// say instead which scenes are the same problem. With lengths in R_av and time in
// t_char = gamma / (E R_av), the overdamped equations ([Erokhin-Berkov] eqs. 5-6 without inertia) become
// App. B's eqs. 15-16, which depend on the scene only through
//   g~ = (4 pi / 3) rho g R_av / E,   p~ = pi P / E,   K~ = 8 pi K / (3 E),
// h = B / B_K (B_K = 2K / Ms, eq. 2), gamma* / gamma, the friction coefficient, the Poisson ratios
// (E* / E), and the radii and positions in units of R_av. docs/physics.md ("Overdamped
// integration") says what was checked and where App. B slips; tests/engine/analysis/test_reduced_units.cpp
// runs two scenes with the same reduced parameters.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

#include <string>

namespace lodestone {

struct ReducedUnits {
  bool defined = false;
  std::string reason;           // why not, when !defined ("environment.translational_damping is 0", ...)
  int material = -1;            // index of the material whose E, rho, K, Ms are used
  double length = 0.0;          // [m]  R_av, the mean particle radius
  double time = 0.0;            // [s]  t_char = gamma / (E R_av)
  double youngs_modulus = 0.0;  // [Pa] E
  double gravity = 0.0;         // [-]  g~ = (4 pi / 3) rho |g| R_av / E
  double pressure = 0.0;        // [-]  p~ = pi P / E (0 without a pressure method)
  double anisotropy = 0.0;      // [-]  K~ = 8 pi K / (3 E)
  double field = 0.0;           // [-]  h = field.strength / B_K, B_K = 2K / Ms (0 unless K, Ms > 0)
  double damping_ratio = 0.0;   // [-]  gamma* / gamma (environment.rotational_damping / translational_damping)
};

// The reduced units of a scene: E, rho, K and Ms of the first magnetic material (rigid or
// Stoner-Wohlfarth with M > 0, induced with chi > 0) that a particle is made of, else of the first
// material a particle is made of; R_av the mean radius; gamma the translational damping. Defined
// only for App. B's setting: particles present, the overdamped scheme, a Hertz-type contact law
// (not the linear law, which has no E), gamma > 0 and E > 0; otherwise `defined` is false, the
// numbers are 0 and `reason` says why.
ReducedUnits reduced_units(const Model& model, const Particles& particles);

}  // namespace lodestone
