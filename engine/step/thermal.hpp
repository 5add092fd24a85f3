#pragma once
// Brownian motion at temperature T (environment.temperature): [Dominik-Nubold] Sec. 3 weighs thermal agitation
// against dipole coupling (eqs. 1-2). The noise is matched by the fluctuation-dissipation theorem to the
// engine's viscous damping, force -gamma v and torque -zeta_r omega with zeta_r = R^2 gamma* ([Erokhin-Berkov]
// eqs. 5-6, engine/magnetic/field.cpp):
//  - velocity Verlet: a Langevin force sqrt(2 gamma kT / dt) xi and torque sqrt(2 zeta_r kT / dt) xi'
//    added to the damping in the force pass, so the step's two half kicks both apply it (as LAMMPS's
//    fix langevin does); free spheres then have <1/2 m v^2> = <1/2 I w^2> = 3/2 kT;
//  - overdamped Heun: Brownian velocities sqrt(2 kT / (gamma dt)) xi and sqrt(2 kT / (zeta_r dt)) xi' added
//    to both of Heun's slopes, the same numbers in predictor and corrector (the noise is additive), so a
//    step moves F / gamma dt + sqrt(2 D dt) xi with D = kT / gamma, and turns by sqrt(2 D_r dt) xi' with
//    D_r = kT / zeta_r.
// xi, xi' are standard normal vectors, a pure function of (model.noise_seed, step, particle id) drawn with
// Philox (engine/core/random.hpp): independent of the order of the particle arrays and of how often a step's
// forces are computed, and continued bit for bit from a checkpoint without any generator state to save.
// docs/physics.md "Brownian motion" states the conventions, the energy books and what the tests check.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/step/integrator.hpp"

#include <cstdint>

namespace lodestone {

inline constexpr double boltzmann = 1.380649e-23;  // [J/K] k_B, exact in the 2019 SI

inline bool thermal_noise_on(const Model& model) {
  return model.environment.temperature > 0.0;
}

// Standard normal vectors (six independent numbers) of one particle at one step.
struct ThermalNormals {
  Vec3 translation = Vec3::Zero();
  Vec3 rotation = Vec3::Zero();
};
// Distinct for every (seed, step, id) with id < 2^32 (ids above fold their high half into the key).
ThermalNormals thermal_normals(std::uint64_t seed, std::int64_t step, std::uint64_t particle_id);

// Velocity Verlet: the Langevin force and torque on particle i in the force pass of step state.step,
// for the model's time step (zero at T = 0). A force pass repeated at the same step gets the same ones.
struct LangevinNoise {
  Vec3 force = Vec3::Zero();   // [N]   sqrt(2 gamma kT / dt) xi
  Vec3 torque = Vec3::Zero();  // [N m] sqrt(2 R^2 gamma* kT / dt) xi'
};
LangevinNoise langevin_noise(const Model& model, const State& state, size_t i);

// Overdamped Heun: the Brownian slopes of the step being made (number state.step, length dt): velocity
// sqrt(2 kT / (gamma dt)) xi and angular velocity sqrt(2 kT / (R^2 gamma* dt)) xi'; lid velocity 0.
void brownian_slopes(const Model& model, const State& state, double dt, OverdampedSlopes& out,
                     ThreadTeam& team = ThreadTeam::serial());
// to += add, particle by particle (the lid and max_speed are left alone).
void add_slopes(const OverdampedSlopes& add, OverdampedSlopes& to, ThreadTeam& team = ThreadTeam::serial());

// [Dominik-Nubold] eqs. 1-2 in SI: the interaction parameter lambda = mu0 mu^2 / (4 pi d^3 kT) (dipole coupling of
// two touching grains over kT) and the interaction radius R_m = (2 mu0 mu^2 / (pi kT))^(1/3) = 2 d lambda^(1/3)
// (the distance inside which the dipole energy beats the thermal spin-up). mu and d = 2R are the means over
// the particles that carry a moment ([Dominik-Nubold] uses d = R_i + R_j for unequal grains).
struct ThermalCoupling {
  bool defined = false;             // T > 0 and at least one particle carries a moment
  int magnetic_particles = 0;       // particles with a moment
  double kT = 0.0;                  // [J]
  double moment = 0.0;              // [A m^2] mean |m|
  double diameter = 0.0;            // [m] mean 2R
  double lambda = 0.0;              // [-] eq. 1
  double interaction_radius = 0.0;  // [m] R_m, eq. 2
};
ThermalCoupling thermal_coupling(const Model& model, const Particles& particles);

}  // namespace lodestone
