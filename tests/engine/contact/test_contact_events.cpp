// Contact callback events ([PFC-dipole], 'Callback Events': contact_activated when a contact becomes
// active, slip_change with mode 0 'slip has initiated' / 1 'slip has ended'). The engine counts
// them in State::events (EventLog) and keeps the most recent ones with the step and the two ids;
// walls appear as id_b = kWallIdBase + side, side = 2 axis + upper.
//
// The expected counts come from the motion itself: the overlap sign, read from the positions after
// each step (the positions the contact stage saw in that step), and closed forms for the bounce
// period and the sliding time.

#include "engine/core/state.hpp"
#include "engine/step/simulation.hpp"
#include "tests/engine/test_support.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double kSphereRadius = 1e-3;  // [m]

std::uint64_t wall_id(int axis, int upper) {
  return kWallIdBase + static_cast<std::uint64_t>(2 * axis + upper);
}

// The session's event log must count `activated` contact activations, `started` slips started and `ended` slips
// ended, and hold just those events; they are returned in order.
std::vector<Event> counted_events(const Session& session, std::uint64_t activated, std::uint64_t started,
                                  std::uint64_t ended) {
  const EventLog& log = session.state().events;
  CHECK(log.total(EventKind::ContactActivated) == activated);
  CHECK(log.total(EventKind::SlipStarted) == started);
  CHECK(log.total(EventKind::SlipEnded) == ended);
  std::vector<Event> events = log.recent_in_order();
  REQUIRE(events.size() == activated + started + ended);
  return events;
}

void check_observed_counts(const Session& session) {
  const Observables o = session.observe();
  for (int k = 0; k < kEventKinds; ++k)
    CHECK(o.events[static_cast<size_t>(k)] == session.state().events.count[static_cast<size_t>(k)]);
}

}  // namespace

TEST_CASE("contact_activated: once per collision of two spheres, with both ids", "[events]") {
  // Two equal frictional spheres, head-on (no tangential motion, so no slip), damped (beta 0.3):
  // one collision, one activation, recorded at the first step with positive overlap.
  Preset p = bare_preset();
  p.contact.linear.dp_nratio = 0.3;
  const double m = p.materials[0].density * sphere_volume(kSphereRadius);
  const double w0 = std::sqrt(0.5 * p.materials[0].kn / (0.5 * m));
  const double t_c = pi / (w0 * std::sqrt(1.0 - 0.09));
  const double dt = t_c / 200.0;
  p.integrator.time_step = dt;
  const double v0 = 0.2, gap = 20.0 * v0 * dt;
  // Sphere ids follow the list order: 0 on the left, 1 on the right.
  p.particles.particles = {sphere(Vec3(-kSphereRadius - 0.5 * gap, 0, 0), kSphereRadius, Vec3(0.5 * v0, 0, 0)),
                           sphere(Vec3(kSphereRadius + 0.5 * gap, 0, 0), kSphereRadius, Vec3(-0.5 * v0, 0, 0))};
  Session session(p);
  std::int64_t first_overlap_step = -1;
  int intervals = 0;
  bool inside = false;
  for (int n = 0; n < 1000; ++n) {  // 5 contact times: the spheres are far apart again at the end
    run_checked(session, 1);
    const Particles& s = session.state().particles;
    const bool overlap = (s.position[1] - s.position[0]).norm() < 2.0 * kSphereRadius;
    if (overlap && !inside) {
      ++intervals;
      if (first_overlap_step < 0) first_overlap_step = session.state().step;
    }
    inside = overlap;
  }
  REQUIRE(intervals == 1);
  REQUIRE_FALSE(inside);
  const std::vector<Event> events = counted_events(session, 1, 0, 0);
  CHECK(events[0].kind == EventKind::ContactActivated);
  CHECK(events[0].step == first_overlap_step);
  CHECK(events[0].id_a == 0);
  CHECK(events[0].id_b == 1);
  check_observed_counts(session);
}

TEST_CASE("contact_activated: a sphere between two walls, one event per bounce, wall ids alternate", "[events]") {
  // No damping, no friction, no gravity: the sphere flies between the x walls. Each contact lasts
  // t_c = pi / w0 (k = kn/2 for the wall of the same material, m* = m) and returns the speed v0,
  // so activations happen at t_k = t_1 + k P with t_1 = gap / v0 and P = t_c + 2 gap / v0 (the
  // centre travels 2 gap between the two walls' contact points). Running to t_1 + (N - 1/2) P
  // gives exactly N activations (half a period of margin on both sides for the O(dt) timing).
  Preset p = bare_preset();
  p.materials[0].friction = 0.0;
  p.box.x_min = p.box.x_max = SideKind::Wall;
  const double gap = 2e-5;  // surface to each wall
  p.box.min.x() = -kSphereRadius - gap;
  p.box.max.x() = kSphereRadius + gap;
  const double m = p.materials[0].density * sphere_volume(kSphereRadius);
  const double t_c = pi / std::sqrt(0.5 * p.materials[0].kn / m);
  const double dt = t_c / 200.0;
  p.integrator.time_step = dt;
  const double v0 = 0.2;
  p.particles.particles = {sphere(Vec3::Zero(), kSphereRadius, Vec3(-v0, 0, 0))};  // to x_min first
  Session session(p);
  const int bounces = 12;
  const double period = t_c + 2.0 * gap / v0;
  const auto steps = static_cast<std::int64_t>((gap / v0 + (bounces - 0.5) * period) / dt);
  std::vector<std::int64_t> activation_steps;
  std::vector<int> activation_sides;
  bool touching[2] = {false, false};
  for (std::int64_t n = 0; n < steps; ++n) {
    run_checked(session, 1);
    const double x = session.state().particles.position[0].x();
    const bool now[2] = {x - p.box.min.x() <= kSphereRadius, p.box.max.x() - x <= kSphereRadius};
    for (int side = 0; side < 2; ++side) {
      if (now[side] && !touching[side]) {
        activation_steps.push_back(session.state().step);
        activation_sides.push_back(side);
      }
      touching[side] = now[side];
    }
  }
  REQUIRE(activation_steps.size() == static_cast<size_t>(bounces));
  const std::vector<Event> events = counted_events(session, static_cast<std::uint64_t>(bounces), 0, 0);
  for (int k = 0; k < bounces; ++k) {
    INFO("event " << k);
    CHECK(events[static_cast<size_t>(k)].kind == EventKind::ContactActivated);
    CHECK(events[static_cast<size_t>(k)].id_a == 0);
    CHECK(activation_sides[static_cast<size_t>(k)] == k % 2);  // x_min, x_max, x_min, ...
    CHECK(events[static_cast<size_t>(k)].id_b == wall_id(0, k % 2));
    CHECK(events[static_cast<size_t>(k)].step == activation_steps[static_cast<size_t>(k)]);
  }
  check_observed_counts(session);
}

TEST_CASE("slip_change: a sphere launched sliding starts slipping on landing and stops once", "[events]") {
  // The 5/7 scene (see test_contact_laws.cpp): a sphere moving at v0 along x lands 1e-12 m below its
  // start on a frictional floor (dp_mode 3: the shear dashpot is off while slipping). Expected
  // events, in this order, all with ids (0, z_min wall):
  //   contact_activated at landing; slip started in the same step (the spring is loaded beyond
  //   mu fn at once by v0 dt); slip ended after t_s = 2 v0 / (7 mu g) of sliding; nothing more
  //   while it rolls on (the spring relaxes to zero through the shear dashpot without overshoot).
  const double v0 = 0.2, mu = 0.4;
  Preset p = bare_preset();
  p.materials[0].kn = 1e5;
  p.materials[0].ks = 1e3;
  p.materials[0].friction = mu;
  p.contact.linear.dp_nratio = 0.7;
  p.contact.linear.dp_sratio = 0.5;
  p.contact.linear.dp_mode = 3;
  p.environment.gravity = Vec3(0, 0, -kGravity);
  p.box.z_min = SideKind::Wall;
  p.integrator.time_step = 5e-6;
  p.particles.particles = {sphere(Vec3(0, 0, p.box.min.z() + kSphereRadius + 1e-12), kSphereRadius, Vec3(v0, 0, 0))};
  Session session(p);
  const double dt = p.integrator.time_step.value();
  const double t_s = 2.0 * v0 / (7.0 * mu * kGravity);
  std::int64_t landing_step = -1;
  const auto steps = static_cast<std::int64_t>((t_s + 0.01) / dt);
  for (std::int64_t n = 0; n < steps; ++n) {
    run_checked(session, 1);
    if (landing_step < 0 && session.state().particles.position[0].z() - p.box.min.z() <= kSphereRadius)
      landing_step = session.state().step;
  }
  REQUIRE(landing_step > 0);
  const std::vector<Event> events = counted_events(session, 1, 1, 1);
  CHECK(events[0].kind == EventKind::ContactActivated);
  CHECK(events[1].kind == EventKind::SlipStarted);
  CHECK(events[2].kind == EventKind::SlipEnded);
  CHECK(events[0].step == landing_step);
  CHECK(events[1].step == landing_step);
  for (const Event& e : events) {
    CHECK(e.id_a == 0);
    CHECK(e.id_b == wall_id(2, 0));
  }
  // The slip ends after t_s of sliding; 1 % covers the landing transient (the normal dashpot
  // carries part of the weight while the sphere sinks in, lengthening the slide by 0.24 %) and the
  // one-step resolution; test_contact_laws.cpp checks the time to 0.3 % with that correction.
  // A slip that never started or ended at once would be off by 100 %.
  const double t_slide = static_cast<double>(events[2].step - events[1].step) * dt;
  INFO("sliding time " << t_slide << " s vs 2 v0 / (7 mu g) = " << t_s << " s");
  CHECK(std::abs(t_slide - t_s) < 0.01 * t_s);
  check_observed_counts(session);
}

TEST_CASE("EventLog keeps counts of all events and the most recent ones in order", "[events]") {
  // The ring buffer holds kRecentCapacity events; recent_in_order() returns them oldest first,
  // before and after it wraps around; count keeps everything.
  EventLog log;
  const size_t total = EventLog::kRecentCapacity + 44;
  for (size_t k = 0; k < total; ++k) {
    Event e;
    e.step = static_cast<std::int64_t>(k);
    e.kind = static_cast<EventKind>(k % kEventKinds);
    e.id_a = k;
    e.id_b = kWallIdBase + k % 6;
    log.record(e);
    if (k + 1 == 100) {
      const std::vector<Event> early = log.recent_in_order();
      REQUIRE(early.size() == 100);
      for (size_t i = 0; i < early.size(); ++i) CHECK(early[i].step == static_cast<std::int64_t>(i));
    }
  }
  std::uint64_t sum = 0;
  for (int k = 0; k < kEventKinds; ++k) sum += log.count[static_cast<size_t>(k)];
  CHECK(sum == total);
  CHECK(log.total(EventKind::ContactActivated) == (total + 2) / 3);
  const std::vector<Event> recent = log.recent_in_order();
  REQUIRE(recent.size() == EventLog::kRecentCapacity);
  for (size_t i = 0; i < recent.size(); ++i) {
    const size_t k = total - EventLog::kRecentCapacity + i;
    INFO("slot " << i);
    CHECK(recent[i].step == static_cast<std::int64_t>(k));
    CHECK(recent[i].kind == static_cast<EventKind>(k % kEventKinds));
    CHECK(recent[i].id_a == k);
    CHECK(recent[i].id_b == kWallIdBase + k % 6);
  }
}
