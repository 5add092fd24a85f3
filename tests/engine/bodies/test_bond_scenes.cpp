// The [Voxel-beams] scenes of presets/ (issue 6) do what their descriptions say: run headless from the
// preset files, shortened, checking the behaviour each description promises.

#include "tests/engine/test_support.hpp"

#include <cmath>
#include <filesystem>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Largest distance of a particle from the line through the first and the last particle [m].
double bow(const Session& session) {
  const auto& x = session.state().particles.position;
  const Vec3 a = x.front(), chord = (x.back() - a).normalized();
  double most = 0.0;
  for (const Vec3& q : x) most = std::max(most, (q - a - (q - a).dot(chord) * chord).norm());
  return most;
}

}  // namespace

TEST_CASE("scene magnetic-filament-rotating: the filament follows the turning field, lagging and bent", "[scenes]") {
  Session session(repository_preset("magnetic-filament-rotating.json"));
  const size_t bonds = session.state().bonds.size();
  REQUIRE(bonds == 19);
  run_until(session, 1.0);  // the field has turned by 90 degrees
  const auto& x = session.state().particles.position;
  const Vec3 d = x.back() - x.front();
  const double angle = std::atan2(d.y(), d.x()) * 180.0 / pi;
  const double field_angle = 90.0 * session.state().time;
  INFO("filament at " << angle << " deg, field at " << field_angle << " deg, bow " << bow(session) << " m");
  CHECK(field_angle - angle > 5.0);       // lags
  CHECK(field_angle - angle < 45.0);      // but follows
  CHECK(bow(session) > 0.01 * d.norm());  // bent by the drag
  CHECK(session.observe().bonds == static_cast<std::int64_t>(bonds));
}

TEST_CASE("scene magnetic-filament-buckling: straight in a weak perpendicular field, an arch in a strong one",
          "[scenes]") {
  Session session(repository_preset("magnetic-filament-buckling.json"));
  run_until(session, 1.6);  // 20 mT: below Euler's critical load
  CHECK(bow(session) < 1e-4);
  run_until(session, 5.0);  // 50 mT
  INFO("bow " << bow(session) << " m");
  CHECK(bow(session) > 1.5e-3);
  CHECK(session.observe().broken_bonds == 0);
}

TEST_CASE("scene magnetic-walker: the strip curls up and its feet stick and slip on the floor", "[scenes]") {
  Session session(repository_preset("magnetic-walker.json"));
  REQUIRE(session.state().bonds.size() == 28);  // 9 x 2 along, 10 across
  double highest = 0.0;
  while (session.state().time < 0.5) {
    run_checked(session, 100);
    for (const Vec3& q : session.state().particles.position) highest = std::max(highest, q.z());
  }
  CHECK(highest > 2e-3);  // curled up
  const EventLog& events = session.state().events;
  CHECK(events.total(EventKind::SlipStarted) > 0);
  CHECK(events.total(EventKind::SlipEnded) > 0);
  CHECK(session.observe().broken_bonds == 0);
}
