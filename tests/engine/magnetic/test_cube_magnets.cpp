// Square-magnet verification ([PFC-dipole], 'Usage and Verification': "compares the analytic response of the
// attractive forces/moments of a square magnet with increasing levels of discretization of a cube with
// dipoles"). Two cubes of edge a, uniformly magnetised along z (M), face to face on the z axis at gap g.
// Each is a clump of n^3 pebbles carrying M (a/n)^3 at the centres of its n^3 cells; the force between
// them converges to the force between the uniformly magnetised cubes as n grows
// (docs/verification-magnets.md).
//
// Two independent references for the continuum force, implemented here:
//  1. magnetic surface charges: a cube magnetised along z is equivalent to charges sigma = +-M on its top
//     and bottom faces. The field of a uniformly charged square at a point at height h above its plane is
//     H_z = sigma Omega / (4 pi) with Omega the solid angle it subtends (closed form, four arctangents), and
//     the force on the other cube is mu0 sum sigma2 * integral of H_z over its faces; that last 2-D integral
//     is done by composite Gauss-Legendre quadrature, converged by refinement (checked below).
//  2. the closed form of Akoun & Yonnet (IEEE Trans. Magn. 20, 1962, 1984) for parallel cuboid magnets
//     magnetised along z.
// They agree to 1e-10; the point-dipole limit holds at large distance.

#include "engine/bodies/clumps.hpp"
#include "engine/magnetic/dipole.hpp"
#include "tests/engine/test_support.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Gauss-Legendre nodes and weights on [-1, 1], 8 points.
constexpr std::array<double, 8> kNodes = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290,
                                          -0.1834346424956498, 0.1834346424956498,  0.5255324099163290,
                                          0.7966664774136267,  0.9602898564975363};
constexpr std::array<double, 8> kWeights = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873,
                                            0.3626837833783620, 0.3626837833783620, 0.3137066458778873,
                                            0.2223810344533745, 0.1012285362903763};

// Solid angle of the square [-s, s]^2 (in the plane z = 0) seen from (px, py, h), h > 0.
double square_solid_angle(double s, double px, double py, double h) {
  auto f = [h](double x, double y) { return std::atan(x * y / (h * std::sqrt(x * x + y * y + h * h))); };
  const double x1 = -s - px, x2 = s - px, y1 = -s - py, y2 = s - py;
  return f(x2, y2) - f(x1, y2) - f(x2, y1) + f(x1, y1);
}

// Integral of that solid angle over a square [-s, s]^2 at height h: composite Gauss-Legendre, `panels` per side.
double solid_angle_integral(double s, double h, int panels) {
  const double w = 2.0 * s / panels;
  double sum = 0.0;
  for (int px = 0; px < panels; ++px)
    for (int py = 0; py < panels; ++py)
      for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b) {
          const double x = -s + w * (px + 0.5 + 0.5 * kNodes[static_cast<size_t>(a)]);
          const double y = -s + w * (py + 0.5 + 0.5 * kNodes[static_cast<size_t>(b)]);
          sum += kWeights[static_cast<size_t>(a)] * kWeights[static_cast<size_t>(b)] * square_solid_angle(s, x, y, h);
        }
  return sum * 0.25 * w * w;
}

// z force on the upper cube (edge a, gap g), both magnetised along +z with M: surface charges.
double cube_force_surface_charges(double a, double g, double m, int panels) {
  const double s = 0.5 * a;
  // Faces: lower cube bottom (-M) at -a/2, top (+M) at a/2; upper cube bottom (-M) at a/2 + g, top (+M) at 3a/2 + g.
  const std::array<std::pair<double, double>, 2> lower = {{{-0.5 * a, -m}, {0.5 * a, m}}};
  const std::array<std::pair<double, double>, 2> upper = {{{0.5 * a + g, -m}, {1.5 * a + g, m}}};
  double f = 0.0;
  for (const auto& [z1, s1] : lower)
    for (const auto& [z2, s2] : upper) f += s1 * s2 * solid_angle_integral(s, z2 - z1, panels);
  return mu0 / (4.0 * pi) * f;  // H_z = sigma Omega / 4 pi above a sheet; force mu0 sigma2 H_z dA
}

// Akoun & Yonnet (1984): z force between cuboids of half-sizes (a, b, c) and (A, B, C), both magnetised
// along z with polarisations J = mu0 M, the second centred at (alpha, beta, gamma) from the first.
double akoun_yonnet_fz(double a, double b, double c, double big_a, double big_b, double big_c, double alpha,
                       double beta, double gamma, double j1, double j2) {
  double sum = 0.0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l)
          for (int p = 0; p < 2; ++p)
            for (int q = 0; q < 2; ++q) {
              const double u = alpha + (j ? -big_a : big_a) - (i ? -a : a);
              const double v = beta + (l ? -big_b : big_b) - (k ? -b : b);
              const double w = gamma + (q ? -big_c : big_c) - (p ? -c : c);
              const double r = std::sqrt(u * u + v * v + w * w);
              // r - x without cancellation; x log(r - x) -> 0 where r - x = 0 (then x's partner terms vanish).
              auto r_minus = [&](double x) { return x > 0.0 ? (r * r - x * x) / (r + x) : r - x; };
              auto xlog = [](double factor, double arg) { return factor == 0.0 ? 0.0 : factor * std::log(arg); };
              const double phi = -xlog(u * w, r_minus(u)) - xlog(v * w, r_minus(v)) +
                                 (u * v == 0.0 ? 0.0 : u * v * std::atan(u * v / (r * w))) - r * w;
              sum += ((i + j + k + l + p + q) % 2 ? -1.0 : 1.0) * phi;
            }
  return j1 * j2 / (4.0 * pi * mu0) * sum;
}

double cube_force_closed_form(double a, double g, double m) {
  const double h = 0.5 * a;
  return akoun_yonnet_fz(h, h, h, h, h, h, 0.0, 0.0, a + g, mu0 * m, mu0 * m);
}

// The discretised cubes: n^3 point dipoles M (a/n)^3 at the cell centres, the double sum of [PFC-dipole] eq. 8.
double cube_force_dipoles(double a, double g, double m, int n) {
  const double cell = a / n, moment = m * cell * cell * cell;
  std::vector<Vec3> lower, upper;
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y)
      for (int z = 0; z < n; ++z) {
        const Vec3 c = cell * Vec3(x - 0.5 * (n - 1), y - 0.5 * (n - 1), z - 0.5 * (n - 1));
        lower.push_back(c);
        upper.push_back(c + Vec3(0.0, 0.0, a + g));
      }
  const Vec3 mz(0.0, 0.0, moment);
  double f = 0.0;
  for (const Vec3& xu : upper)
    for (const Vec3& xl : lower) f += dipole_pair(xu - xl, mz, mz, 0.0).force_i.z();
  return f;
}

constexpr double kEdge = 0.01;     // [m] a
constexpr double kMagnet = 1.0e6;  // [A/m] M (a strong ferrite / weak NdFeB)

}  // namespace

TEST_CASE("Cube magnets, the surface-charge reference is converged and agrees with Akoun and Yonnet", "[magnets]") {
  for (double gap_ratio : {0.05, 0.25, 1.0, 3.0}) {
    const double g = gap_ratio * kEdge;
    const int panels = gap_ratio < 0.1 ? 40 : 10;
    const double coarse = cube_force_surface_charges(kEdge, g, kMagnet, panels);
    const double fine = cube_force_surface_charges(kEdge, g, kMagnet, 2 * panels);
    const double closed = cube_force_closed_form(kEdge, g, kMagnet);
    INFO("g/a " << gap_ratio << ": surface charges " << fine << " N (" << coarse
                << " with half the panels), Akoun-Yonnet " << closed << " N");
    CHECK(fine < 0.0);  // attraction
    CHECK(std::abs(coarse / fine - 1.0) < 1e-10);
    CHECK(std::abs(closed / fine - 1.0) < 1e-10);
  }
}

TEST_CASE("Cube magnets, the reference tends to the point-dipole force far apart", "[magnets]") {
  // Coaxial dipoles m = M a^3 at distance d attract with 3 mu0 m^2 / (2 pi d^4). A cube's second moments are
  // isotropic (as a sphere's, whose field is exactly a dipole's), so its corrections start at O((a/d)^4):
  // the relative difference falls by 16 when d doubles.
  double previous = 0.0;
  for (double d_ratio : {10.0, 20.0, 40.0}) {
    const double d = d_ratio * kEdge;
    const double m = kMagnet * kEdge * kEdge * kEdge;
    const double dipoles = -3.0 * mu0 * m * m / (2.0 * pi * std::pow(d, 4));
    const double cube = cube_force_closed_form(kEdge, d - kEdge, kMagnet);
    const double difference = std::abs(cube / dipoles - 1.0);
    INFO("d/a " << d_ratio << ": relative difference " << difference);
    CHECK(difference < 2.0 / std::pow(d_ratio, 4));
    if (previous > 0.0) CHECK(previous / difference == Approx(16.0).epsilon(0.05));
    previous = difference;
  }
}

TEST_CASE("Cube magnets made of n^3 dipole pebbles converge to the uniformly magnetised cubes", "[magnets]") {
  for (double gap_ratio : {0.1, 0.5, 1.0}) {
    const double reference = cube_force_closed_form(kEdge, gap_ratio * kEdge, kMagnet);
    double previous = INFINITY, error4 = 0.0, error8 = 0.0;
    for (int n = 1; n <= 8; ++n) {
      const double error = std::abs(cube_force_dipoles(kEdge, gap_ratio * kEdge, kMagnet, n) / reference - 1.0);
      INFO("g/a " << gap_ratio << ", n " << n << ": relative error " << error);
      CHECK(error < previous);
      previous = error;
      if (n == 4) error4 = error;
      if (n == 8) error8 = error;
    }
    // The pebbles are the midpoint rule of the double volume integral of the dipole kernel. Its h^2 error
    // term is proportional to the Laplacian of the kernel, which vanishes (the field is harmonic outside
    // the sources): the error is O((a/n)^4), once a/n is well below the gap.
    INFO("g/a " << gap_ratio << ": error n = 4 / n = 8 " << error4 / error8);
    if (gap_ratio >= 0.5)
      CHECK(error4 / error8 == Approx(16.0).epsilon(0.25));
    else
      CHECK(error4 / error8 > 8.0);
    CHECK(error8 < 0.02);
  }
}

TEST_CASE("Cube magnets as clumps in a simulation feel the pebble sum, and snap together", "[magnets][clumps]") {
  // The same cubes built by the preset's cube generator: the engine's clump force is the dipole double sum.
  const int n = 4;
  const double g = 0.5 * kEdge;
  Preset p = bare_preset();
  p.materials[0].magnetization = kMagnet;
  p.materials[0].density = 5000.0;
  p.materials[0].kn = 1e5;
  p.contact.linear.dp_nratio = 0.3;
  p.magnetics.method = DipoleMethod::Direct;
  p.box.min = Vec3::Constant(-0.05);
  p.box.max = Vec3::Constant(0.05);
  ClumpEntry cube;
  cube.shape = ClumpShape::Cube;
  cube.count = n;
  cube.pebble_radius = 0.5 * kEdge / n;
  cube.position = Vec3(0.0, 0.0, -0.5 * (kEdge + g));
  p.clumps.push_back(cube);
  cube.position = Vec3(0.0, 0.0, 0.5 * (kEdge + g));
  p.clumps.push_back(cube);
  Session session(p);
  const Clumps& c = session.state().clumps;
  const double expected = cube_force_dipoles(kEdge, g, kMagnet, n);
  CHECK(c.force[1].z() == Approx(expected).epsilon(1e-12));
  CHECK(c.force[0].z() == Approx(-expected).epsilon(1e-12));
  CHECK(c.force[1].head<2>().norm() < 1e-9 * std::abs(expected));
  CHECK(c.torque[1].norm() < 1e-9 * std::abs(expected) * kEdge);
  CHECK(c.mass[0] == Approx(5000.0 * n * n * n * sphere_volume(0.5 * kEdge / n)));
  // Released, they close the gap and touch face to face.
  Session run(p);
  const double dt = run.model().time_step;
  run_checked(run, static_cast<std::int64_t>(0.01 / dt));
  const double distance = (run.state().clumps.position[1] - run.state().clumps.position[0]).norm();
  INFO("centre distance " << distance << " m after 10 ms (touching: " << kEdge << " m)");
  CHECK(distance < 1.01 * kEdge);
}

// The table of docs/verification-magnets.md: engine_tests "[.magnets-table]" -s prints it.
TEST_CASE("Cube magnets, convergence table for the docs", "[.magnets-table]") {
  std::printf("| g/a | F_ref [N] |");
  for (int n = 1; n <= 10; ++n) std::printf(" n = %d |", n);
  std::printf("\n|---|---|");
  for (int n = 1; n <= 10; ++n) std::printf("---|");
  std::printf("\n");
  for (double gap_ratio : {0.05, 0.1, 0.25, 0.5, 1.0, 2.0}) {
    const double reference = cube_force_closed_form(kEdge, gap_ratio * kEdge, kMagnet);
    std::printf("| %g | %.5g |", gap_ratio, reference);
    for (int n = 1; n <= 10; ++n)
      std::printf(" %.2e |", cube_force_dipoles(kEdge, gap_ratio * kEdge, kMagnet, n) / reference - 1.0);
    std::printf("\n");
  }
}
