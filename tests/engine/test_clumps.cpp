// Clumps (seed 000: rigid groups of pebbles moving as one body). Mass properties of a union of spheres
// (engine/mass_properties.*) against closed forms.

#include "engine/mass_properties.hpp"
#include "test_support.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Two equal spheres of radius R, density rho, centres at +-d/2 on the x axis.
SphereUnion pair_on_x(double radius, double distance, double density) {
  SphereUnion s;
  s.centre = {Vec3(-0.5 * distance, 0.0, 0.0), Vec3(0.5 * distance, 0.0, 0.0)};
  s.radius = {radius, radius};
  s.density = {density, density};
  return s;
}

// Union of two equal spheres at centre distance d < 2R: the lens (two caps of height hc = R - d/2) is
// counted once. Volume of the lens pi (4R + d)(2R - d)^2 / 12; moment of inertia of one cap about the
// axis through both centres pi rho / 2 * int_{R-hc}^{R} (R^2 - z^2)^2 dz (discs of radius^2 R^2 - z^2).
double union_volume(double r, double d) { return 2.0 * sphere_volume(r) - pi * (4.0 * r + d) * (2.0 * r - d) * (2.0 * r - d) / 12.0; }
double union_axial_inertia(double r, double d, double rho) {
  const double hc = r - 0.5 * d;
  auto primitive = [r](double z) { return std::pow(r, 4) * z - 2.0 * r * r * z * z * z / 3.0 + std::pow(z, 5) / 5.0; };
  const double cap = 0.5 * pi * rho * (primitive(r) - primitive(r - hc));
  const double sphere = 0.4 * rho * sphere_volume(r) * r * r;
  return 2.0 * sphere - 2.0 * cap;
}

}  // namespace

TEST_CASE("Clump mass properties, two touching equal spheres against the closed form", "[clumps]") {
  const double r = 1e-3, rho = 7500.0;
  const SphereUnion s = pair_on_x(r, 2.0 * r, rho);
  const double m = rho * sphere_volume(r);
  // Closed form (parallel axes): about the line of centres 2 x 2/5 m R^2; across it 2 (2/5 m R^2 + m R^2).
  const double axial = 0.8 * m * r * r, transverse = 2.0 * (0.4 * m * r * r + m * r * r);

  const MassProperties exact = sphere_union_mass_properties(s);
  CHECK_FALSE(exact.overlapping);
  CHECK(exact.mass == Approx(2.0 * m).epsilon(1e-14));
  CHECK(exact.centre.norm() < 1e-18);
  CHECK(exact.inertia(0, 0) == Approx(axial).epsilon(1e-14));
  CHECK(exact.inertia(1, 1) == Approx(transverse).epsilon(1e-14));
  CHECK(exact.inertia(2, 2) == Approx(transverse).epsilon(1e-14));
  CHECK(std::abs(exact.inertia(0, 1)) + std::abs(exact.inertia(0, 2)) + std::abs(exact.inertia(1, 2)) < 1e-20);

  // The column integration (what overlapping pebbles use) on the same shape: errors shrink with the grid.
  double previous = INFINITY, first = INFINITY;
  for (int cells : {16, 32, 64, 128}) {
    const MassProperties c = sphere_union_mass_properties(s, cells, /*force_columns=*/true);
    const double error = std::max({std::abs(c.mass / (2.0 * m) - 1.0), std::abs(c.inertia(0, 0) / axial - 1.0),
                                   std::abs(c.inertia(1, 1) / transverse - 1.0),
                                   std::abs(c.inertia(2, 2) / transverse - 1.0)});
    INFO("cells per diameter " << cells << ": largest relative error " << error);
    // The midpoint rule across the silhouettes' edges converges as about h^1.5, not monotonically.
    if (cells == 64) CHECK(error < 0.1 * first);
    CHECK(c.centre.norm() < 1e-6 * r);
    if (cells == 16) first = error;
    previous = error;
  }
  CHECK(previous < 3e-4);  // 128 cells per diameter
}

TEST_CASE("Clump mass properties, an overlapping pair converges to the lens-corrected closed form", "[clumps]") {
  const double r = 1e-3, d = 1.2e-3, rho = 2000.0;
  const SphereUnion s = pair_on_x(r, d, rho);
  const double mass = rho * union_volume(r, d), axial = union_axial_inertia(r, d, rho);
  double previous_mass = INFINITY, previous_axial = INFINITY, last_mass = INFINITY, last_axial = INFINITY;
  for (int cells : {16, 32, 64, 128}) {
    const MassProperties c = sphere_union_mass_properties(s, cells);
    CHECK(c.overlapping);
    const double mass_error = std::abs(c.mass / mass - 1.0), axial_error = std::abs(c.inertia(0, 0) / axial - 1.0);
    INFO("cells " << cells << ": mass error " << mass_error << ", axial inertia error " << axial_error);
    CHECK(c.overlapping);
    if (cells == 64) {  // about h^1.5 (the midpoint rule across the silhouettes' edges), not monotonic
      CHECK(mass_error < 0.1 * previous_mass);
      CHECK(axial_error < 0.1 * previous_axial);
    }
    if (cells == 16) {
      previous_mass = mass_error;
      previous_axial = axial_error;
    }
    last_mass = mass_error;
    last_axial = axial_error;
  }
  CHECK(last_mass < 2e-4);
  CHECK(last_axial < 3e-4);
  // Counted once: far below the plain sum of the two spheres.
  CHECK(mass < 0.9 * 2.0 * rho * sphere_volume(r));
}

TEST_CASE("Clump principal axes of a turned pair, non-diagonal inertia tensor", "[clumps]") {
  const double r = 1e-3, rho = 1000.0;
  SphereUnion s = pair_on_x(r, 2.0 * r, rho);
  s.radius[1] = 0.5 * r;  // unequal pair: the centre of mass moves towards the big sphere
  s.centre[1] = Vec3(1.5 * r, 0.0, 0.0);
  const Quat turn(Eigen::AngleAxisd(0.7, Vec3(1.0, 2.0, 3.0).normalized()));
  SphereUnion turned = s;
  for (Vec3& c : turned.centre) c = turn * c + Vec3(0.01, -0.02, 0.03);
  const MassProperties a = sphere_union_mass_properties(s), b = sphere_union_mass_properties(turned);
  CHECK((b.centre - (turn * a.centre + Vec3(0.01, -0.02, 0.03))).norm() < 1e-15);
  const Mat3 rotated = turn.toRotationMatrix() * a.inertia * turn.toRotationMatrix().transpose();
  CHECK((b.inertia - rotated).norm() < 1e-12 * a.inertia.norm());
  CHECK(std::abs(b.inertia(0, 1)) > 1e-3 * b.inertia.norm());  // genuinely non-diagonal
  const PrincipalAxes axes = principal_axes(b.inertia);
  CHECK(axes.moments(0) == Approx(a.inertia(0, 0)).epsilon(1e-12));  // smallest: about the line of centres
  CHECK(std::abs((axes.rotation * Vec3::UnitX()).dot(turn * Vec3::UnitX())) == Approx(1.0).epsilon(1e-12));
  CHECK(axes.rotation.toRotationMatrix().determinant() == Approx(1.0));
  const Mat3 back = axes.rotation.toRotationMatrix() * axes.moments.asDiagonal() *
                    axes.rotation.toRotationMatrix().transpose();
  CHECK((back - b.inertia).norm() < 1e-12 * b.inertia.norm());
}
