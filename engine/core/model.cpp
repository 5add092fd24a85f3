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

void wrap_periodic(const Model& model, std::vector<Vec3>& position, size_t begin, size_t end) {
  for (int a = 0; a < 3; ++a) {
    const double length = model.periodic_length[a];
    if (length <= 0.0) continue;
    const double lo = model.box.min[a];
    for (size_t i = begin; i < end; ++i) {
      double& x = position[i][a];
      if (x < lo || x >= lo + length) {
        x -= length * std::floor((x - lo) / length);
        if (x >= lo + length) x = lo;  // x just below lo can round up to lo + length
      }
    }
  }
}

void wrap_periodic(const Model& model, Particles& p) {
  wrap_periodic(model, p.position, 0, p.size());
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
