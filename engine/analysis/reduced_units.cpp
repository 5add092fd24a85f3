#include "engine/analysis/reduced_units.hpp"

#include "engine/magnetic/stoner_wohlfarth.hpp"

#include <cmath>
#include <utility>

namespace lodestone {
namespace {

bool is_magnetic(const Material& m) {
  switch (m.moment_model) {
    case MomentModel::Rigid:
    case MomentModel::StonerWohlfarth: return m.magnetization > 0.0;
    case MomentModel::Induced: return m.susceptibility > 0.0;
  }
  return false;
}

ReducedUnits undefined(std::string reason) {
  ReducedUnits u;
  u.reason = "not defined: " + std::move(reason);
  return u;
}

}  // namespace

ReducedUnits reduced_units(const Model& model, const Particles& particles) {
  if (particles.size() == 0) return undefined("no particles");
  if (model.integrator.scheme != IntegratorScheme::OverdampedHeun)
    return undefined("App. B scales the overdamped equations (integrator.scheme = overdamped_heun)");
  if (model.contact.law == ContactLaw::Linear) return undefined("the linear contact law has no Young's modulus");
  const double gamma = model.environment.translational_damping;
  if (!(gamma > 0.0)) return undefined("environment.translational_damping is 0");

  // The material: the first magnetic one in use, else the first in use.
  int first_used = -1, first_magnetic = -1;
  double radius_sum = 0.0;
  for (size_t i = 0; i < particles.size(); ++i) {
    const int k = particles.material[i];
    if (first_used < 0 || k < first_used) first_used = k;
    if (is_magnetic(model.materials[static_cast<size_t>(k)]) && (first_magnetic < 0 || k < first_magnetic))
      first_magnetic = k;
    radius_sum += particles.radius[i];
  }
  const int material = first_magnetic >= 0 ? first_magnetic : first_used;
  const Material& mat = model.materials[static_cast<size_t>(material)];
  if (!(mat.youngs_modulus > 0.0)) return undefined("materials[" + std::to_string(material) + "].youngs_modulus is 0");

  ReducedUnits u;
  u.defined = true;
  u.material = material;
  u.youngs_modulus = mat.youngs_modulus;
  u.length = radius_sum / static_cast<double>(particles.size());
  const double e = mat.youngs_modulus, r = u.length;
  u.time = gamma / (e * r);
  u.gravity = 4.0 / 3.0 * pi * mat.density * model.environment.gravity.norm() * r / e;
  u.pressure = model.pressure.method == PressureMethod::None ? 0.0 : pi * model.pressure.pressure / e;
  u.anisotropy = 8.0 * pi * mat.anisotropy / (3.0 * e);
  const double b_k = anisotropy_field_tesla(mat.anisotropy, mat.magnetization);
  u.field = b_k > 0.0 ? model.field.strength / b_k : 0.0;
  u.damping_ratio = model.environment.rotational_damping / gamma;
  return u;
}

}  // namespace lodestone
