// Angle distributions (engine/analysis/angles.hpp): theta of the easy axes to the field and psi of the
// moments to the easy axes, against bins worked out by hand, the Stoner-Wohlfarth closed form at
// theta = 90 deg (sin psi = h, [Erokhin-Berkov] eq. 2), and the alignment the observables compute apart.

#include "engine/analysis/angles.hpp"
#include "engine/analysis/observables.hpp"
#include "engine/magnetic/stoner_wohlfarth.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>
#include <numeric>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double deg = pi / 180.0;

// Unit vector at `a` degrees from +z towards +x (the xz plane), or towards +y.
Vec3 in_xz(double a) {
  return Vec3(std::sin(a * deg), 0.0, std::cos(a * deg));
}
Vec3 in_yz(double a) {
  return Vec3(0.0, std::sin(a * deg), std::cos(a * deg));
}

// A hand-made particle set: identity orientations, so the easy axis is easy_axis_body.
struct Handmade {
  Particles p;
  void add(const Vec3& n, const Vec3& m) {
    const size_t i = p.add(p.size(), Vec3::Zero(), 1e-3, 1e-6, 0);
    p.easy_axis_body[i] = n;
    p.moment[i] = m;
  }
};

template <size_t N>
double sum(const std::array<double, N>& a) {
  return std::accumulate(a.begin(), a.end(), 0.0);
}

}  // namespace

TEST_CASE("angles: one particle's theta is folded to 0..90 deg, psi measured from the field-side pole", "[angles]") {
  const Vec3 b(0, 0, 2.5);  // not unit: only directions count
  // Axis at 62 deg, moment 22 deg from it towards the field (at 40 deg from z).
  AxisAngles a = axis_angles(in_xz(62), 3e-9 * in_xz(40), b);
  CHECK(a.theta / deg == Approx(62.0).epsilon(1e-12));
  CHECK(a.psi / deg == Approx(22.0).epsilon(1e-12));
  // The same axis written the other way round: the same theta, and the same psi (headless axis).
  a = axis_angles(-in_xz(62), 3e-9 * in_xz(40), b);
  CHECK(a.theta / deg == Approx(62.0).epsilon(1e-12));
  CHECK(a.psi / deg == Approx(22.0).epsilon(1e-12));
  // A moment on the pole away from the field: psi = 180 - 22 deg.
  a = axis_angles(in_xz(62), -3e-9 * in_xz(40), b);
  CHECK(a.psi / deg == Approx(158.0).epsilon(1e-12));
  // Axis across the field (n.b = 0): the pole nearer the moment, psi <= 90 either way.
  a = axis_angles(Vec3(1, 0, 0), Vec3(-std::cos(12 * deg), 0, std::sin(12 * deg)), b);
  CHECK(a.theta / deg == Approx(90.0).epsilon(1e-12));
  CHECK(a.psi / deg == Approx(12.0).epsilon(1e-12));
  a = axis_angles(Vec3(1, 0, 0), Vec3(std::cos(12 * deg), 0, std::sin(12 * deg)), b);
  CHECK(a.psi / deg == Approx(12.0).epsilon(1e-12));
  // Exact ends.
  a = axis_angles(Vec3(0, 0, 1), Vec3(0, 0, 1), b);
  CHECK(a.theta == 0.0);
  CHECK(a.psi == 0.0);
  a = axis_angles(Vec3(0, 0, -1), Vec3(0, 0, -1), b);  // axis antiparallel, moment with it: theta 0, psi 180
  CHECK(a.theta == 0.0);
  CHECK(a.psi == pi);
}

TEST_CASE("angles: bins of 5 deg, lower edge in, the top end in the last bin", "[angles]") {
  CHECK(angle_bin(0.0, kThetaBins) == 0);
  CHECK(angle_bin(4.999, kThetaBins) == 0);
  CHECK(angle_bin(5.0, kThetaBins) == 1);
  CHECK(angle_bin(47.0, kThetaBins) == 9);
  CHECK(angle_bin(90.0, kThetaBins) == 17);
  CHECK(angle_bin(90.0, kPsiBins) == 18);
  CHECK(angle_bin(180.0, kPsiBins) == 35);
  CHECK(AngleHistograms::bin_low(9) == 45.0);
  CHECK(AngleHistograms::bin_high(9) == 50.0);
  CHECK(AngleHistograms::bin_high(kThetaBins - 1) == 90.0);
  CHECK(AngleHistograms::bin_high(kPsiBins - 1) == 180.0);
}

TEST_CASE("angles: histograms of known axes and moments give the bins worked out by hand", "[angles]") {
  // Field along z. theta, psi (deg) and their bins, by hand:
  //   axis along z, moment along it                          theta  0 (bin  0), psi   0 (bin  0)
  //   axis at 62 deg, moment at 40 deg (22 towards the field) theta 62 (bin 12), psi  22 (bin  4)
  //   axis -(47 deg), moment with it, away from the field     theta 47 (bin  9), psi 180 (bin 35)
  //   axis x, moment 12 deg off -x towards +z                 theta 90 (bin 17), psi  12 (bin  2)
  //   axis at 87 deg in yz, moment 133 deg from it            theta 87 (bin 17), psi 133 (bin 26)
  //   axis along z, no moment                                 not counted
  Handmade h;
  h.add(Vec3(0, 0, 1), 2e-9 * Vec3(0, 0, 1));
  h.add(in_xz(62), 5e-10 * in_xz(40));
  h.add(-in_xz(47), -1e-9 * in_xz(47));
  h.add(Vec3(1, 0, 0), 1e-9 * Vec3(-std::cos(12 * deg), 0, std::sin(12 * deg)));
  h.add(in_yz(87), 1e-9 * in_yz(87 + 133));
  h.add(Vec3(0, 0, 1), Vec3::Zero());

  auto check = [](const AngleHistograms& a) {
    CHECK(a.particles == 5);
    std::array<double, kThetaBins> theta{};
    theta[0] = theta[12] = theta[9] = 0.2;
    theta[17] = 0.4;
    std::array<double, kPsiBins> psi{};
    psi[0] = psi[4] = psi[35] = psi[2] = psi[26] = 0.2;
    for (int k = 0; k < kThetaBins; ++k) {
      INFO("theta bin " << k);
      CHECK(a.theta[static_cast<size_t>(k)] == Approx(theta[static_cast<size_t>(k)]).margin(1e-15));
    }
    for (int k = 0; k < kPsiBins; ++k) {
      INFO("psi bin " << k);
      CHECK(a.psi[static_cast<size_t>(k)] == Approx(psi[static_cast<size_t>(k)]).margin(1e-15));
    }
    CHECK(sum(a.theta) == Approx(1.0).epsilon(1e-14));
    CHECK(sum(a.psi) == Approx(1.0).epsilon(1e-14));
    CHECK(a.mean_theta == Approx((0.0 + 62 + 47 + 90 + 87) / 5).epsilon(1e-12));
    CHECK(a.mean_psi == Approx((0.0 + 22 + 180 + 12 + 133) / 5).epsilon(1e-12));
  };
  check(angle_histograms(h.p, Vec3(0, 0, 1)));

  // The whole scene turned (orientations, not the body vectors): the same histograms.
  const Quat turn = Quat(Eigen::AngleAxisd(1.1, Vec3(0.3, -0.7, 0.2).normalized()));
  Handmade turned = h;
  for (size_t i = 0; i < turned.p.size(); ++i) {
    turned.p.orientation[i] = turn;
    turned.p.moment[i] = turn * h.p.moment[i];
  }
  check(angle_histograms(turned.p, turn * Vec3(0, 0, 1)));
}

TEST_CASE("angles: no moments, no counts", "[angles]") {
  Handmade h;
  h.add(Vec3(0, 0, 1), Vec3::Zero());
  const AngleHistograms a = angle_histograms(h.p, Vec3(0, 0, 1));
  CHECK(a.particles == 0);
  CHECK(sum(a.theta) == 0.0);
  CHECK(sum(a.psi) == 0.0);
  CHECK(a.mean_psi == 0.0);
}

TEST_CASE("angles: a Stoner-Wohlfarth grain across the field has sin psi = h (Erokhin-Berkov eq. 2 at theta = 90 deg)",
          "[angles]") {
  // At theta = 90 deg eq. 2 reads h cos psi = sin psi cos psi: sin psi = h for h < 1, psi = 90 deg
  // (moment along the field) for h >= 1. One grain, axis along x, field along z.
  const double ms = 3.8e5, k = 3.5e5;  // Sr-ferrite ([Erokhin-Berkov])
  struct Case {
    double h;
    int bin;  // floor(asin(h) / 5 deg), by hand
  };
  for (const Case c : {Case{0.3, 3}, Case{0.7, 8}, Case{0.95, 14}}) {
    Preset p = bare_preset();
    p.materials[0].moment_model = MomentModel::StonerWohlfarth;
    p.materials[0].magnetization = ms;
    p.materials[0].anisotropy = k;
    p.field.direction = Vec3(0, 0, 1);
    p.field.strength = c.h * anisotropy_field_tesla(k, ms);
    ParticleEntry e = sphere(Vec3::Zero(), 5e-7);
    e.axis = Vec3(1, 0, 0);
    p.particles.particles = {e};
    Session session(p);
    const AngleHistograms a = session.observe().angles;
    INFO("h = " << c.h);
    REQUIRE(a.particles == 1);
    CHECK(a.mean_theta == Approx(90.0).epsilon(1e-12));
    CHECK(a.mean_psi == Approx(std::asin(c.h) / deg).epsilon(1e-9));
    CHECK(a.theta[kThetaBins - 1] == 1.0);
    CHECK(a.psi[static_cast<size_t>(c.bin)] == 1.0);
    CHECK(sum(a.psi) == 1.0);
  }
}

TEST_CASE(
    "angles: a Stoner-Wohlfarth grain pointing away from the field keeps psi > 90 deg below the switching "
    "field",
    "[angles]") {
  // Axis 177 deg from the field (theta = 3 deg, the axis is headless), the moment starting on it,
  // i.e. on the pole away from the field. The astroid switching field at 3 deg is h = 0.823. Eq. 2
  // solved by bisection (outside the engine): h = 0.7 keeps the moment 7.121 deg off its pole,
  // psi = 172.879 deg (bin 34); h = 1.2 switches it to the field side, psi = 1.637 deg (bin 0).
  struct Case {
    double h, psi;
    int bin;
  };
  for (const Case c : {Case{0.7, 172.8789371606904, 34}, Case{1.2, 1.636698116888599, 0}}) {
    Preset p = bare_preset();
    p.materials[0].moment_model = MomentModel::StonerWohlfarth;
    p.materials[0].magnetization = 3.8e5;
    p.materials[0].anisotropy = 3.5e5;
    p.field.direction = Vec3(0, 0, 1);
    p.field.strength = c.h * anisotropy_field_tesla(3.5e5, 3.8e5);
    ParticleEntry e = sphere(Vec3::Zero(), 5e-7);
    e.axis = -in_xz(3);
    p.particles.particles = {e};
    Session session(p);
    const AngleHistograms a = session.observe().angles;
    INFO("h = " << c.h);
    CHECK(a.mean_theta == Approx(3.0).epsilon(1e-9));
    CHECK(a.theta[0] == 1.0);
    CHECK(a.mean_psi == Approx(c.psi).epsilon(1e-9));
    CHECK(a.psi[static_cast<size_t>(c.bin)] == 1.0);
  }
}

TEST_CASE("angles: a random half-sphere of axes, fractions sum to 1 and bracket the observed alignment", "[angles]") {
  // Axes uniform on the half sphere around the field: the fraction in [a, b) is cos a - cos b.
  // Rigid dipoles along their axes: psi = 0 for all.
  Preset p = bare_preset();
  p.materials[0].magnetization = 4e5;
  p.field.direction = Vec3(0, 0, 1);
  p.field.strength = 0.1;
  p.particles.kind = GeneratorKind::Random;
  p.particles.count = 4000;
  p.particles.diameter = 1e-4;
  p.particles.orientation = OrientationKind::RandomHemisphere;
  p.particles.axis = Vec3(0, 0, 1);
  p.particles.seed = 7;
  Session session(p);
  const Observables o = session.observe();
  const AngleHistograms& a = o.angles;
  REQUIRE(a.particles == 4000);
  CHECK(sum(a.theta) == Approx(1.0).epsilon(1e-12));
  CHECK(sum(a.psi) == Approx(1.0).epsilon(1e-12));
  CHECK(a.psi[0] == 1.0);
  for (int k = 0; k < kThetaBins; ++k) {
    const double expected = std::cos(AngleHistograms::bin_low(k) * deg) - std::cos(AngleHistograms::bin_high(k) * deg);
    const double sigma = std::sqrt(expected * (1.0 - expected) / 4000.0);
    INFO("theta bin " << k << ": " << a.theta[static_cast<size_t>(k)] << " expected " << expected);
    CHECK(std::abs(a.theta[static_cast<size_t>(k)] - expected) < 4.0 * sigma);
  }
  // <|n.b|> (computed by observe() from the axes) lies between the histogram's bounds on <cos theta>.
  double lower = 0.0, upper = 0.0;
  for (int k = 0; k < kThetaBins; ++k) {
    lower += a.theta[static_cast<size_t>(k)] * std::cos(AngleHistograms::bin_high(k) * deg);
    upper += a.theta[static_cast<size_t>(k)] * std::cos(AngleHistograms::bin_low(k) * deg);
  }
  CHECK(lower <= o.alignment);
  CHECK(o.alignment <= upper);
}
