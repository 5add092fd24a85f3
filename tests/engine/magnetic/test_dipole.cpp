// Two-dipole force, torques and energy against the closed form and against finite differences
// of the energy ([PFC-dipole] eqs. 8-10, [Dominik-Nubold] eqs. 34-39).

#include "engine/core/random.hpp"
#include "engine/magnetic/dipole.hpp"

#include <catch2/catch.hpp>

using namespace lodestone;

namespace {

// Energy of the pair with i displaced by dx and both moments rotated by small rotation vectors.
double pair_energy(const Vec3& separation, const Vec3& mi, const Vec3& mj) {
  return dipole_pair(separation, mi, mj, 0.0).energy;
}

Vec3 rotated(const Vec3& v, const Vec3& rotation) {
  return rotate_by(Quat::Identity(), rotation) * v;
}

}  // namespace

TEST_CASE("two dipoles head to tail attract with 6 c m^2 / r^4", "[dipole]") {
  const double m = 2.5e-3, r = 3e-3;
  // i above j on the z axis, both moments along +z.
  const DipolePair d = dipole_pair(Vec3(0, 0, r), Vec3(0, 0, m), Vec3(0, 0, m), 0.0);
  const double expected = 6.0 * 1e-7 * m * m / std::pow(r, 4);
  CHECK(d.force_i.z() == Approx(-expected).epsilon(1e-12));  // pulled down, towards j
  CHECK(d.force_i.head<2>().norm() == Approx(0.0).margin(1e-20));
  CHECK(d.energy == Approx(-2.0 * 1e-7 * m * m / (r * r * r)).epsilon(1e-12));
  CHECK(d.torque_i.norm() == Approx(0.0).margin(1e-20));
  CHECK(d.torque_j.norm() == Approx(0.0).margin(1e-20));
}

TEST_CASE("two dipoles side by side and parallel repel with 3 c m^2 / r^4", "[dipole]") {
  const double m = 1e-3, r = 2e-3;
  const DipolePair d = dipole_pair(Vec3(r, 0, 0), Vec3(0, 0, m), Vec3(0, 0, m), 0.0);
  CHECK(d.force_i.x() == Approx(3.0 * 1e-7 * m * m / std::pow(r, 4)).epsilon(1e-12));
  CHECK(d.energy == Approx(1e-7 * m * m / (r * r * r)).epsilon(1e-12));
}

TEST_CASE("a perpendicular pair: torque from the field of the other dipole", "[dipole]") {
  // j at the origin with moment +z; i on the x axis with moment +x. The field of j at i is
  // -c m / r^3 z, so T_i = m_i x B = c m^2 / r^3 (x cross -z) = c m^2/r^3 y.
  const double m = 1e-3, r = 2e-3, c = 1e-7;
  const DipolePair d = dipole_pair(Vec3(r, 0, 0), Vec3(m, 0, 0), Vec3(0, 0, m), 0.0);
  CHECK(d.torque_i.y() == Approx(c * m * m / (r * r * r)).epsilon(1e-12));
  CHECK(d.torque_i.x() == Approx(0.0).margin(1e-18));
  CHECK(d.torque_i.z() == Approx(0.0).margin(1e-18));
  // Field of i at j: n = -x, B = c/r^3 (3 (-x)(-m) - m x) = 2 c m / r^3 x; T_j = m z x 2cm/r^3 x = 2 c m^2/r^3 y.
  CHECK(d.torque_j.y() == Approx(2.0 * c * m * m / (r * r * r)).epsilon(1e-12));
  CHECK(dipole_field(Vec3(r, 0, 0), Vec3(0, 0, m)).z() == Approx(-c * m / (r * r * r)).epsilon(1e-12));
}

TEST_CASE("dipole force and torques are minus the gradients of the pair energy", "[dipole]") {
  Random rng(42);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3 separation = (rng.orientation() * Vec3::UnitZ()) * rng.uniform(2e-3, 5e-3);
    const Vec3 mi = (rng.orientation() * Vec3::UnitZ()) * rng.uniform(1e-4, 1e-3);
    const Vec3 mj = (rng.orientation() * Vec3::UnitZ()) * rng.uniform(1e-4, 1e-3);
    const DipolePair d = dipole_pair(separation, mi, mj, 0.0);
    // Central differences; step small against the length scales (errors O(h^2) ~ 1e-8 relative).
    const double h = 1e-7, a = 1e-5;
    for (int k = 0; k < 3; ++k) {
      Vec3 e = Vec3::Zero();
      e[k] = 1.0;
      const double force_fd =
          -(pair_energy(separation + h * e, mi, mj) - pair_energy(separation - h * e, mi, mj)) / (2 * h);
      const double torque_i_fd =
          -(pair_energy(separation, rotated(mi, a * e), mj) - pair_energy(separation, rotated(mi, -a * e), mj)) /
          (2 * a);
      const double torque_j_fd =
          -(pair_energy(separation, mi, rotated(mj, a * e)) - pair_energy(separation, mi, rotated(mj, -a * e))) /
          (2 * a);
      const double f_scale = d.force_i.norm(), t_scale = std::max(d.torque_i.norm(), d.torque_j.norm());
      CHECK(d.force_i[k] == Approx(force_fd).margin(1e-6 * f_scale));
      CHECK(d.torque_i[k] == Approx(torque_i_fd).margin(1e-6 * t_scale));
      CHECK(d.torque_j[k] == Approx(torque_j_fd).margin(1e-6 * t_scale));
    }
    // Newton's third law for the angular part: r x F_i + T_i + T_j = 0 (rotational invariance).
    const Vec3 total = separation.cross(d.force_i) + d.torque_i + d.torque_j;
    CHECK(total.norm() == Approx(0.0).margin(1e-10 * separation.norm() * d.force_i.norm()));
  }
}

TEST_CASE("the capping distance replaces smaller distances", "[dipole]") {
  const Vec3 mi(0, 0, 1e-3), mj(0.3e-3, 0, 0.8e-3);
  const double cap = 1e-3;
  const Vec3 direction = Vec3(0.2, -0.4, 1.0).normalized();
  const DipolePair inside = dipole_pair(0.4e-3 * direction, mi, mj, cap);
  const DipolePair at_cap = dipole_pair(cap * direction, mi, mj, 0.0);
  CHECK((inside.force_i - at_cap.force_i).norm() == Approx(0.0).margin(1e-12 * at_cap.force_i.norm()));
  CHECK((inside.torque_i - at_cap.torque_i).norm() == Approx(0.0).margin(1e-12 * at_cap.torque_i.norm()));
  CHECK(inside.energy == Approx(at_cap.energy).epsilon(1e-12));
  // Beyond the cap nothing changes.
  const DipolePair outside = dipole_pair(2e-3 * direction, mi, mj, cap);
  CHECK(outside.energy == Approx(dipole_pair(2e-3 * direction, mi, mj, 0.0).energy).epsilon(1e-15));
}
