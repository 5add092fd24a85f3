#pragma once
// Bit-for-bit comparisons of values and states, for the tests that promise identical runs (checkpoints,
// thread counts, timelines, multiple time steps, refactorings). NaN equals NaN here and -0 differs from 0:
// the bits, not the values.

#include "engine/core/state.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace lodestone::testing {

inline bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
inline bool same_bits(const Vec3& a, const Vec3& b) {
  return same_bits(a.x(), b.x()) && same_bits(a.y(), b.y()) && same_bits(a.z(), b.z());
}
inline bool same_bits(const Quat& a, const Quat& b) {
  return same_bits(a.w(), b.w()) && same_bits(a.x(), b.x()) && same_bits(a.y(), b.y()) && same_bits(a.z(), b.z());
}
// A contact's law state (state.hpp, LawState): the same kind, and that kind's fields to the bit.
inline bool same_bits(const LawState& a, const LawState& b) {
  if (a.index() != b.index()) return false;
  if (const SandPointers* x = std::get_if<SandPointers>(&a)) {
    const SandPointers& y = std::get<SandPointers>(b);
    return same_bits(x->p1, y.p1) && same_bits(x->p2, y.p2) && same_bits(x->q1, y.q1) && same_bits(x->q2, y.q2);
  }
  if (const RollingHistory* x = std::get_if<RollingHistory>(&a)) {
    const RollingHistory& y = std::get<RollingHistory>(b);
    return same_bits(x->rolling, y.rolling) && same_bits(x->twisting, y.twisting) &&
           same_bits(x->dashpot_couple, y.dashpot_couple) && same_bits(x->rolling_stiffness, y.rolling_stiffness) &&
           same_bits(x->twisting_stiffness, y.twisting_stiffness);
  }
  return true;
}
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  // memcmp must not see the null data() of an empty vector, even with a zero length.
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// The same step, and equal positions, velocities, orientations and angular velocities (values: -0 == 0).
inline bool same_trajectory(const State& a, const State& b) {
  const Particles& p = a.particles;
  const Particles& q = b.particles;
  if (a.step != b.step || p.size() != q.size()) return false;
  for (size_t i = 0; i < p.size(); ++i)
    if (p.position[i] != q.position[i] || p.velocity[i] != q.velocity[i] ||
        p.orientation[i].coeffs() != q.orientation[i].coeffs() || p.angular_velocity[i] != q.angular_velocity[i])
      return false;
  return true;
}

// Requires particle i of p and q to carry the same id and bit-identical motion and moment: what the comparisons of
// particle sets and of states below both check.
inline void require_same_motion(const Particles& p, const Particles& q, size_t i) {
  REQUIRE(p.id[i] == q.id[i]);
  REQUIRE(same_bits(p.position[i], q.position[i]));
  REQUIRE(same_bits(p.velocity[i], q.velocity[i]));
  REQUIRE(same_bits(p.orientation[i], q.orientation[i]));
  REQUIRE(same_bits(p.angular_velocity[i], q.angular_velocity[i]));
  REQUIRE(same_bits(p.moment[i], q.moment[i]));
}

// Requires the two particle sets to be bit-identical in everything the generator sets.
inline void require_identical_particles(const Particles& a, const Particles& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    INFO("particle index " << i);
    require_same_motion(a, b, i);
    REQUIRE(a.material[i] == b.material[i]);
    REQUIRE(same_bits(a.radius[i], b.radius[i]));
    REQUIRE(same_bits(a.mass[i], b.mass[i]));
    REQUIRE(same_bits(a.inertia[i], b.inertia[i]));
    REQUIRE(same_bits(a.moment_body[i], b.moment_body[i]));
  }
}

// Requires everything a run changes to be bit-identical: step, time, protocol phase, every particle's
// motion, forces and moments, the energy ledger, the event counts and the dipole extrapolation history.
inline void require_same_state(const State& a, const State& b) {
  REQUIRE(a.step == b.step);
  REQUIRE(same_bits(a.time, b.time));
  REQUIRE(a.phase == b.phase);
  const Particles& p = a.particles;
  const Particles& q = b.particles;
  REQUIRE(p.size() == q.size());
  for (size_t i = 0; i < p.size(); ++i) {
    INFO("step " << a.step << ", particle index " << i);
    require_same_motion(p, q, i);
    REQUIRE(same_bits(p.force[i], q.force[i]));
    REQUIRE(same_bits(p.torque[i], q.torque[i]));
  }
  const EnergyLedger& e = a.energy;
  const EnergyLedger& f = b.energy;
  REQUIRE(same_bits(e.elastic, f.elastic));
  REQUIRE(same_bits(e.dipole, f.dipole));
  REQUIRE(same_bits(e.zeeman, f.zeeman));
  REQUIRE(same_bits(e.dissipated_friction, f.dissipated_friction));
  REQUIRE(same_bits(e.dissipated_dashpot, f.dissipated_dashpot));
  REQUIRE(same_bits(e.dissipated_viscous, f.dissipated_viscous));
  REQUIRE(same_bits(e.field_work, f.field_work));
  REQUIRE(same_bits(e.stiffness_work, f.stiffness_work));
  REQUIRE(a.events.count == b.events.count);
  const DipoleHistory& g = a.dipole_history;  // multiple time steps (magnetics.force_interval > 1)
  const DipoleHistory& h = b.dipole_history;
  REQUIRE(g.stored == h.stored);
  REQUIRE(g.passes_since_full == h.passes_since_full);
  REQUIRE(same_bits(g.time_last, h.time_last));
  REQUIRE(same_bits(g.force_last, h.force_last));
  REQUIRE(same_bits(g.torque_last, h.torque_last));
  REQUIRE(same_bits(g.force_previous, h.force_previous));
}

}  // namespace lodestone::testing
