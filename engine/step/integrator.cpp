#include "engine/step/integrator.hpp"

#include "engine/bodies/clumps.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

namespace {

// Particles per thread below which an update stays on one thread.
constexpr size_t kParticleGrain = 1000;
// Parts per thread of these loops: the thread that ends its share of a round first waits out the other's last part,
// and one that waits past its poll (0.1 ms, engine/core/thread_team.cpp) sleeps and pays a wake-up in the next
// round. At 100 000 particles on two threads a part of the first half of the integration took about 190 µs at 4
// parts a thread; parts of 16 a thread keep the wait inside the poll (that stage 9 % faster, clearing the forces
// 22 %; docs/performance.md, "Each thread's own parts first").
constexpr int kParticlePartsPerThread = 16;

constexpr auto kHoldPosition = static_cast<std::uint8_t>(HoldKind::Position);
constexpr auto kHoldOrientation = static_cast<std::uint8_t>(HoldKind::Orientation);

// LAMMPS's fix nve/sphere (update dipole) turns a dipole by mu + dt w x mu, renormalised: by atan(|w_perp| dt)
// where the exact rotation turns it by |w_perp| dt, (w dt)^3 / 3 less a step. In the LAMMPS contact conventions
// (contact.linear.convention "lammps", "gran/hooke/history", which must match LAMMPS exactly) a sphere with a rigid
// moment is turned the same way: by the least rotation that takes its moment's direction to LAMMPS's (its spin about
// the moment, which nothing of such a sphere depends on, is dropped as LAMMPS drops it). Strong dipoles spin
// spheres fast, and the two updates told apart a bouncing scene by 1e-4 of its displacement within a dipolar time.
Quat rotate_as_lammps_dipole(const Quat& q, const Vec3& moment_body, const Vec3& w, double dt) {
  const Vec3 mu = q * moment_body.normalized();
  const Vec3 turned = (mu + dt * w.cross(mu)).normalized();
  return rotation_between(mu, turned) * q;
}

// rotate_by (engine/core/math.hpp) without its square root, three divisions, sine and cosine for the small angles
// of a step: with a the angle, cos(a/2) and sin(a/2)/a by their series to the a^4 terms, whose next terms are below
// 1e-22 for a < 1e-3: the same rotation to round-off. Larger angles take rotate_by. The sine and cosine were a
// third of the first half of the integration. Inlined by force: g++ called it for every particle (the first half
// 9 % faster at 100 000 particles, 20 % at 10 000; docs/performance.md).
[[gnu::always_inline]] inline Quat rotate_by_step(const Quat& q, const Vec3& rotation_vector) {
  const double a2 = rotation_vector.squaredNorm();
  if (!(a2 < 1e-6)) return rotate_by(q, rotation_vector);
  const double c = 1.0 - a2 * (1.0 / 8.0) + a2 * a2 * (1.0 / 384.0);
  const double s = 0.5 - a2 * (1.0 / 48.0) + a2 * a2 * (1.0 / 3840.0);
  return Quat(c, s * rotation_vector.x(), s * rotation_vector.y(), s * rotation_vector.z()) * q;
}

// q back to unit length. After a rotation |q|^2 - 1 is of the order of the round-off, and one Newton step for
// 1 / |q|, q (3 - |q|^2) / 2, leaves an error of 3/8 (|q|^2 - 1)^2: below 1e-18 while |q|^2 is within 1e-9 of 1,
// without the square root and four divisions of normalize(), which ended the longest chain of the loop.
void renormalize(Quat& q) {
  const double n2 = q.squaredNorm();
  if (std::abs(n2 - 1.0) < 1e-9)
    q.coeffs() *= 0.5 * (3.0 - n2);
  else
    q.normalize();
}

}  // namespace

void integrate_first_half(const Model& model, State& state, double dt, ThreadTeam& team,
                          PredictedVelocities* predicted) {
  Particles& p = state.particles;
  const double half = 0.5 * dt;
  const bool lammps_dipoles = model.contact.law == ContactLaw::Linear && model.contact.linear.lammps_rules();
  if (predicted) {
    predicted->velocity.resize(p.size());
    predicted->angular_velocity.resize(p.size());
  }
  for_each_range(
      team, p.size(), kParticleGrain,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          const std::uint8_t hold = p.hold[i];  // a held part keeps its bits: no drift, no renormalisation
          p.velocity[i] += (half / p.mass[i]) * p.force[i];
          if (hold & kHoldPosition)
            p.velocity[i].setZero();
          else
            p.position[i] += dt * p.velocity[i];
          p.angular_velocity[i] += (half / p.inertia[i]) * p.torque[i];
          if (predicted) {  // predict_and_clear_forces's expressions, on the same values: the same bits
            predicted->velocity[i] =
                (hold & kHoldPosition) ? Vec3::Zero() : Vec3(p.velocity[i] + (half / p.mass[i]) * p.force[i]);
            predicted->angular_velocity[i] = (hold & kHoldOrientation)
                                                 ? Vec3::Zero()
                                                 : Vec3(p.angular_velocity[i] + (half / p.inertia[i]) * p.torque[i]);
          }
          if (hold & kHoldOrientation) {
            p.angular_velocity[i].setZero();
          } else {
            const bool rigid_dipole =
                lammps_dipoles && p.moment_body[i] != Vec3::Zero() &&
                model.materials[static_cast<size_t>(p.material[i])].moment_model == MomentModel::Rigid;
            p.orientation[i] =
                rigid_dipole ? rotate_as_lammps_dipole(p.orientation[i], p.moment_body[i], p.angular_velocity[i], dt)
                             : rotate_by_step(p.orientation[i], dt * p.angular_velocity[i]);
            renormalize(p.orientation[i]);
          }
        }
        wrap_periodic(model, p, begin, end);
      },
      kParticlePartsPerThread);
  state.lid_height += dt * state.lid_velocity;  // the servo lid has no inertia
  state.time += dt;
  ++state.step;
  integrate_clumps_first_half(model, state, dt, team);
}

void integrate_second_half(const Model& model, State& state, double dt, ThreadTeam& team) {
  Particles& p = state.particles;
  const double half = 0.5 * dt;
  // Four parts a thread: its parts are short already (about 25 µs at 100 000 particles on two threads), and 16 a
  // thread made it 7-9 % slower.
  for_each_range(team, p.size(), kParticleGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      p.velocity[i] += (half / p.mass[i]) * p.force[i];
      p.angular_velocity[i] += (half / p.inertia[i]) * p.torque[i];
      if (p.hold[i] & kHoldPosition) p.velocity[i].setZero();
      if (p.hold[i] & kHoldOrientation) p.angular_velocity[i].setZero();
    }
  });
  integrate_clumps_second_half(model, state, dt, team);
}

namespace {

// The clumps' predicted rigid motion at the end of the step, from their own sums (kept): each clump's velocity and
// angular velocity. On the team, each clump written on its own. Empty without clumps.
struct ClumpMotion {
  std::vector<Vec3> velocity, angular_velocity;
};
ClumpMotion predict_clump_motion(const State& state, double dt, ThreadTeam& team) {
  const Clumps& c = state.clumps;
  const double half = 0.5 * dt;
  ClumpMotion m{std::vector<Vec3>(c.size()), std::vector<Vec3>(c.size())};
  // Clumps per part: each costs two rotations and three divisions, some 40 ns.
  constexpr size_t kClumpGrain = 512;
  for_each_range(team, c.size(), kClumpGrain, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      m.velocity[k] = c.velocity[k] + (half / c.mass[k]) * c.force[k];
      const Vec3 body = c.orientation[k].conjugate() * (c.angular_momentum[k] + half * c.torque[k]);
      m.angular_velocity[k] = c.orientation[k] * body.cwiseQuotient(c.inertia[k]);
    }
  });
  return m;
}

// A clump's pebble i moves with its clump's predicted rigid motion (whatever it would have predicted on its own).
inline void predict_pebble(const Particles& p, const Clumps& c, const ClumpMotion& m, size_t i,
                           PredictedVelocities& out) {
  const auto k = static_cast<size_t>(p.clump[i]);
  out.velocity[i] = m.velocity[k] + m.angular_velocity[k].cross(c.orientation[k] * p.clump_offset[i]);
  out.angular_velocity[i] = m.angular_velocity[k];
}

}  // namespace

void clear_forces(State& state, ThreadTeam& team) {
  Particles& p = state.particles;
  constexpr size_t kClearGrain = 4096;  // particles per part: 0.2 MB of forces and torques
  for_each_range(team, p.size(), kClearGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      p.force[i].setZero();
      p.torque[i].setZero();
    }
  });
}

// The pebbles' predictions are made in the same sweep as the other particles' (one round of the team over the
// particles, after one over the clumps), each written on its own: the same bits at any number of threads.
void predict_and_clear_forces(State& state, double dt, PredictedVelocities& out, ThreadTeam& team) {
  Particles& p = state.particles;
  const Clumps& c = state.clumps;
  const double half = 0.5 * dt;
  out.velocity.resize(p.size());
  out.angular_velocity.resize(p.size());
  const ClumpMotion clumps = predict_clump_motion(state, dt, team);
  for_each_range(
      team, p.size(), kParticleGrain,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          out.velocity[i] = p.velocity[i] + (half / p.mass[i]) * p.force[i];
          out.angular_velocity[i] = p.angular_velocity[i] + (half / p.inertia[i]) * p.torque[i];
          if (p.hold[i] & kHoldPosition) out.velocity[i].setZero();
          if (p.hold[i] & kHoldOrientation) out.angular_velocity[i].setZero();
          if (p.clump[i] >= 0) predict_pebble(p, c, clumps, i, out);
          p.force[i].setZero();
          p.torque[i].setZero();
        }
      },
      kParticlePartsPerThread);
}

void clear_forces_after_prediction(State& state, double dt, PredictedVelocities& out, ThreadTeam& team) {
  if (state.clumps.size() == 0) {
    clear_forces(state, team);
    return;
  }
  Particles& p = state.particles;
  const ClumpMotion clumps = predict_clump_motion(state, dt, team);
  for_each_range(team, p.size(), kParticleGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      p.force[i].setZero();
      p.torque[i].setZero();
      if (p.clump[i] >= 0) predict_pebble(p, state.clumps, clumps, i, out);
    }
  });
}

void overdamped_slopes(const Model& model, const State& state, OverdampedSlopes& out, ThreadTeam& team) {
  const Particles& p = state.particles;
  const double gamma = model.environment.translational_damping;
  const double gamma_rot = model.environment.rotational_damping;
  out.velocity.resize(p.size());
  out.angular_velocity.resize(p.size());
  const std::vector<double> fastest = results_of_parts<double>(
      team, p.size(), kParticleGrain,
      [&](size_t begin, size_t end) {
        double max_speed = 0.0;
        for (size_t i = begin; i < end; ++i) {
          out.velocity[i] = p.force[i] / gamma;
          out.angular_velocity[i] = p.torque[i] / (p.radius[i] * p.radius[i] * gamma_rot);
          if (p.hold[i] & kHoldPosition) out.velocity[i].setZero();
          if (p.hold[i] & kHoldOrientation) out.angular_velocity[i].setZero();
          max_speed = std::max(max_speed, out.velocity[i].norm());
        }
        return max_speed;
      },
      kParticlePartsPerThread);
  out.max_speed = 0.0;
  for (double v : fastest) out.max_speed = std::max(out.max_speed, v);
  out.lid_velocity = state.lid_velocity;
}

void mean_slopes(const OverdampedSlopes& k0, OverdampedSlopes& k1, ThreadTeam& team) {
  for_each_range(
      team, k1.velocity.size(), kParticleGrain,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          k1.velocity[i] = 0.5 * (k0.velocity[i] + k1.velocity[i]);
          k1.angular_velocity[i] = 0.5 * (k0.angular_velocity[i] + k1.angular_velocity[i]);
        }
      },
      kParticlePartsPerThread);
  k1.lid_velocity = 0.5 * (k0.lid_velocity + k1.lid_velocity);
}

void save_origin(const State& state, StepOrigin& origin, ThreadTeam& team) {
  copy_on_team(team, state.particles.position, origin.position);
  copy_on_team(team, state.particles.orientation, origin.orientation);
  copy_on_team(team, state.particles.image, origin.image);
  origin.lid_height = state.lid_height;
}

void advance_from(const Model& model, const StepOrigin& origin, const std::vector<Vec3>& velocity,
                  const std::vector<Vec3>& angular_velocity, double lid_velocity, double dt, State& state,
                  ThreadTeam& team) {
  Particles& p = state.particles;
  for_each_range(
      team, p.size(), kParticleGrain,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          // A held part stays where the step began, whatever the slope (the Brownian noise included).
          if (p.hold[i] & kHoldPosition) {
            p.position[i] = origin.position[i];
            p.velocity[i].setZero();
          } else {
            p.position[i] = origin.position[i] + dt * velocity[i];
            p.velocity[i] = velocity[i];
          }
          if (p.hold[i] & kHoldOrientation) {
            p.orientation[i] = origin.orientation[i];
            p.angular_velocity[i].setZero();
          } else {
            p.orientation[i] = rotate_by_step(origin.orientation[i], dt * angular_velocity[i]);
            renormalize(p.orientation[i]);
            p.angular_velocity[i] = angular_velocity[i];
          }
          // Both of Heun's stages start from the origin: its images, then the boxes crossed (the wrap below).
          p.image[i] = origin.image[i];
        }
        wrap_periodic(model, p, begin, end);
      },
      kParticlePartsPerThread);
  state.lid_height = origin.lid_height + dt * lid_velocity;
}

}  // namespace lodestone
