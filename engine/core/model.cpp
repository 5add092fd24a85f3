#include "engine/core/model.hpp"

#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace lodestone {

PairCoefficients mix_materials(const Material& a, const Material& b) {
  PairCoefficients c;
  c.kn = a.kn * b.kn / (a.kn + b.kn);  // [PFC-dipole] eq. 11
  c.ks = (a.ks > 0.0 && b.ks > 0.0) ? a.ks * b.ks / (a.ks + b.ks) : 0.0;
  c.friction = std::min(a.friction, b.friction);  // [PFC-dipole] eq. 12
  c.e_star = 1.0 / ((1.0 - a.poisson_ratio * a.poisson_ratio) / a.youngs_modulus +
                    (1.0 - b.poisson_ratio * b.poisson_ratio) / b.youngs_modulus);  // [Erokhin-Berkov] eq. 9
  c.g_star = 1.0 / (2.0 * (2.0 - a.poisson_ratio) * (1.0 + a.poisson_ratio) / a.youngs_modulus +
                    2.0 * (2.0 - b.poisson_ratio) * (1.0 + b.poisson_ratio) / b.youngs_modulus);
  // The two bodies' torsional compliances add (each a half-space twisted over the contact disc).
  c.g_torsion =
      1.0 / (2.0 * (1.0 + a.poisson_ratio) / a.youngs_modulus + 2.0 * (1.0 + b.poisson_ratio) / b.youngs_modulus);
  // Work of adhesion 2 sqrt(gamma1 gamma2) between unlike surfaces (geometric mean, Girifalco-Good).
  c.surface_energy = std::sqrt(a.surface_energy * b.surface_energy);
  return c;
}

int wrap_coordinate(double& x, double lo, double length) {
  if (!(x < lo || x >= lo + length)) return 0;  // in the box, or NaN (left for the checks to report)
  const double boxes = std::floor((x - lo) / length);
  x -= length * boxes;
  // A runaway coordinate (the checks stop the run) must not overflow the count.
  const int crossed = std::abs(boxes) < 1e9 ? static_cast<int>(boxes) : 0;
  if (x >= lo + length) {  // x just below lo can round up to lo + length: it is at lo, in the box it was below
    x = lo;
    return crossed + 1;
  }
  return crossed;
}

void wrap_periodic(const Model& model, Particles& p, size_t begin, size_t end) {
  for (int a = 0; a < 3; ++a) {
    const double length = model.periodic_length[a];
    if (length <= 0.0) continue;
    const double lo = model.box.min[a];
    for (size_t i = begin; i < end; ++i)
      p.image[i][static_cast<size_t>(a)] += wrap_coordinate(p.position[i][a], lo, length);
  }
}

void wrap_periodic(const Model& model, Particles& p) {
  wrap_periodic(model, p, 0, p.size());
}

Model make_model(const Preset& p) {
  Model m;
  static_cast<PhysicsParameters&>(m) = p;
  m.noise_seed = p.particles.seed;
  return m;
}

void store_model(const Model& m, Preset& p) {
  static_cast<PhysicsParameters&>(p) = m;
}

}  // namespace lodestone
