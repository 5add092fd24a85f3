// Particle generators (engine/bodies/generator.hpp): determinism, random and lattice placement, size
// distributions, orientations, and the mass, inertia and moment each particle gets.
//
// Statistical checks use a fixed seed, so they are deterministic; their tolerances are still set
// from the sampling error (5 standard errors) so that any seed would pass and a real change of the
// distribution (a few standard errors or more) would not.

#include "engine/bodies/generator.hpp"
#include "engine/scene/preset_io.hpp"
#include "tests/engine/bitwise.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace lodestone;
using lodestone::testing::require_identical_particles;
using lodestone::testing::same_bits;

namespace {

// A magnetised material in a closed 20 mm box; the generator fills it unless a test says otherwise.
Preset scene(GeneratorKind kind, int count) {
  Preset p;
  p.materials = {Material{}};
  p.materials[0].name = "iron";
  p.materials[0].density = 7500.0;
  p.materials[0].magnetization = 1e5;
  p.box.min = Vec3::Zero();
  p.box.max = Vec3::Constant(0.02);
  p.particles.kind = kind;
  p.particles.count = count;
  p.particles.seed = 42;
  p.particles.diameter = 1e-3;
  validate_preset(p);
  return p;
}

Particles generate(const Preset& p) {
  validate_preset(p);
  return generate_particles(p);
}

// generate_particles must throw; returns the error.
PresetError generator_error(const Preset& p) {
  try {
    const Particles particles = generate_particles(p);
    FAIL("no PresetError; generated " << particles.size() << " particles");
  } catch (const PresetError& e) {
    return e;
  }
  throw std::logic_error("unreachable");
}

// generate_particles must refuse p with a PresetError at `path` whose message names each of `named`.
void check_generator_refuses(const Preset& p, const std::string& path, const std::vector<std::string>& named) {
  const PresetError e = generator_error(p);
  INFO(e.what());
  CHECK(e.path() == path);
  for (const std::string& text : named) CHECK_THAT(e.message(), Catch::Contains(text));
}

void require_ids_in_order(const Particles& p) {
  for (size_t i = 0; i < p.size(); ++i) REQUIRE(p.id[i] == i);
}

}  // namespace

TEST_CASE("the same seed gives bit-identical particles, another seed a different scene", "[generator]") {
  for (GeneratorKind kind : {GeneratorKind::Random, GeneratorKind::Lattice}) {
    INFO("kind " << static_cast<int>(kind));
    Preset p = scene(kind, 200);
    p.particles.size_distribution = SizeDistribution::LogNormal;
    p.particles.size_spread = 0.2;
    p.particles.spacing = 3e-3;
    p.particles.velocity_spread = 0.01;
    const Particles a = generate(p);
    const Particles b = generate(p);
    REQUIRE(a.size() == 200);
    REQUIRE(b.size() == 200);
    require_identical_particles(a, b);

    p.particles.seed = 43;
    const Particles c = generate(p);
    REQUIRE(c.size() == a.size());
    size_t differing_radii = 0, differing_orientations = 0, differing_positions = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      differing_radii += !same_bits(a.radius[i], c.radius[i]);
      differing_orientations += !same_bits(a.orientation[i], c.orientation[i]);
      differing_positions += !same_bits(a.position[i], c.position[i]);
    }
    CHECK(differing_radii > 190);
    CHECK(differing_orientations > 190);
    if (kind == GeneratorKind::Random) CHECK(differing_positions > 190);
  }
}

TEST_CASE("random placement: exact count, ids in order, inside the region, no overlaps", "[generator]") {
  Preset p = scene(GeneratorKind::Random, 400);
  p.particles.size_distribution = SizeDistribution::LogNormal;
  p.particles.size_spread = 0.3;
  Region region;
  region.min = Vec3(0.002, 0.001, 0.004);
  region.max = Vec3(0.015, 0.019, 0.012);  // 13 x 18 x 8 mm: volume fraction about 0.12
  p.particles.region = region;
  const Particles particles = generate(p);
  REQUIRE(particles.size() == 400);
  require_ids_in_order(particles);
  for (size_t i = 0; i < particles.size(); ++i) {
    INFO("particle " << i << " at " << particles.position[i].transpose() << " radius " << particles.radius[i]);
    const Vec3& x = particles.position[i];
    const double r = particles.radius[i];
    REQUIRE(r > 0.0);
    for (int a = 0; a < 3; ++a) {
      REQUIRE(x[a] - r >= region.min[a]);
      REQUIRE(x[a] + r <= region.max[a]);
    }
  }
  size_t overlaps = 0;
  double closest = 1e9;  // smallest gap relative to the sum of radii
  for (size_t i = 0; i < particles.size(); ++i)
    for (size_t j = i + 1; j < particles.size(); ++j) {
      const double reach = particles.radius[i] + particles.radius[j];
      const double distance = (particles.position[i] - particles.position[j]).norm();
      if (distance < reach) ++overlaps;
      closest = std::min(closest, distance / reach);
    }
  CHECK(overlaps == 0);
  CHECK(closest >= 1.0);
  // The whole box is used when no region is given.
  p.particles.region.reset();
  p.particles.count = 300;
  const Particles whole = generate(p);
  REQUIRE(whole.size() == 300);
  Vec3 lo = Vec3::Constant(1.0), hi = Vec3::Constant(-1.0);
  for (size_t i = 0; i < whole.size(); ++i) {
    for (int a = 0; a < 3; ++a) {
      REQUIRE(whole.position[i][a] - whole.radius[i] >= 0.0);
      REQUIRE(whole.position[i][a] + whole.radius[i] <= 0.02);
    }
    lo = lo.cwiseMin(whole.position[i]);
    hi = hi.cwiseMax(whole.position[i]);
  }
  CHECK(lo.maxCoeff() < 0.003);  // spread over the box, not bunched in a corner
  CHECK(hi.minCoeff() > 0.017);
}

TEST_CASE("random placement in a region too full for the count names particles.count", "[generator]") {
  Preset p = scene(GeneratorKind::Random, 100);
  p.particles.region = Region{Vec3::Zero(), Vec3::Constant(0.003)};  // 27 mm^3; 100 beads need 52 mm^3
  p.particles.max_attempts = 50;
  check_generator_refuses(p, "$.particles.count", {"of 100", "enlarge the region"});

  // A particle larger than the region along one axis cannot be placed at all.
  Preset q = scene(GeneratorKind::Random, 3);
  q.particles.region = Region{Vec3::Zero(), Vec3(0.01, 0.01, 0.0008)};
  check_generator_refuses(q, "$.particles.region", {"along z"});
}

TEST_CASE("lattice: sites on a simple cubic grid with the spacing, x fastest", "[generator]") {
  Preset p = scene(GeneratorKind::Lattice, 30);
  const double spacing = 1.5e-3;
  p.particles.spacing = spacing;
  const Vec3 origin(0.001, 0.002, 0.003);
  // Room for 4 x 3 x 3 = 36 sites (plus a little that holds no further site).
  p.particles.region = Region{origin, origin + Vec3(4.4 * spacing, 3.9 * spacing, 3.2 * spacing)};
  const Particles particles = generate(p);
  REQUIRE(particles.size() == 30);
  require_ids_in_order(particles);
  std::set<std::tuple<long, long, long>> sites;
  for (size_t i = 0; i < particles.size(); ++i) {
    INFO("particle " << i << " at " << particles.position[i].transpose());
    const Vec3 cell = (particles.position[i] - origin) / spacing - Vec3::Constant(0.5);
    const Vec3 rounded = cell.array().round().matrix();
    REQUIRE((cell - rounded).cwiseAbs().maxCoeff() < 1e-9);
    const long ix = std::lround(rounded.x()), iy = std::lround(rounded.y()), iz = std::lround(rounded.z());
    REQUIRE(ix >= 0);
    REQUIRE(ix < 4);
    REQUIRE(iy >= 0);
    REQUIRE(iy < 3);
    REQUIRE(iz >= 0);
    REQUIRE(iz < 3);
    // Filled in order: x fastest, then y, then z.
    CHECK(ix + 4 * iy + 12 * iz == static_cast<long>(i));
    CHECK(sites.insert({ix, iy, iz}).second);
    CHECK(particles.radius[i] == 0.5e-3);
  }
  CHECK((particles.position[1] - particles.position[0]).norm() == Approx(spacing).epsilon(1e-12));
  CHECK((particles.position[4] - particles.position[0]).norm() == Approx(spacing).epsilon(1e-12));
  CHECK((particles.position[12] - particles.position[0]).norm() == Approx(spacing).epsilon(1e-12));

  // Without a spacing the sites touch: the spacing is the largest diameter.
  Preset q = scene(GeneratorKind::Lattice, 8);
  const Particles touching = generate(q);
  REQUIRE(touching.size() == 8);
  CHECK(touching.position[0].x() == Approx(0.5e-3).epsilon(1e-12));
  CHECK((touching.position[1] - touching.position[0]).norm() == Approx(1e-3).epsilon(1e-12));
}

TEST_CASE("lattice: a region too small for count names particles.count and its capacity", "[generator]") {
  Preset p = scene(GeneratorKind::Lattice, 28);
  p.particles.spacing = 1e-3;
  p.particles.region = Region{Vec3::Zero(), Vec3(3.5e-3, 3e-3, 3.9e-3)};  // 3 x 3 x 3 = 27 sites
  check_generator_refuses(p, "$.particles.count", {"27 lattice sites", "3 x 3 x 3", "count = 28"});
  // One fewer fits exactly.
  p.particles.count = 27;
  CHECK(generate(p).size() == 27);

  // A spacing below the largest diameter would make neighbours overlap.
  Preset q = scene(GeneratorKind::Lattice, 5);
  q.particles.spacing = 0.8e-3;
  check_generator_refuses(q, "$.particles.spacing", {"overlap"});
}

TEST_CASE("lattice: bcc sites, their volume fraction, and the jitter bound", "[generator]") {
  // 3 x 3 x 3 bcc cells of edge a: 54 sites, corner sites at (i + 1/4) a and centres at (i + 3/4) a.
  Preset p = scene(GeneratorKind::Lattice, 54);
  p.particles.lattice = LatticeKind::BodyCentredCubic;
  const double d = 1e-3;
  const double a = std::cbrt(2.0 * M_PI / 6.0 / 0.55) * d;  // volume fraction 2 (pi/6) d^3 / a^3 = 0.55
  p.particles.spacing = a;
  p.box.min = Vec3::Zero();
  p.box.max = Vec3::Constant(3 * a);
  const Particles particles = generate(p);
  REQUIRE(particles.size() == 54);
  double volume = 0.0, nearest = INFINITY;
  for (size_t i = 0; i < particles.size(); ++i) {
    volume += sphere_volume(particles.radius[i]);
    const Vec3 f = particles.position[i] / a - Vec3::Constant(i % 2 == 0 ? 0.25 : 0.75);
    CHECK((f - f.array().round().matrix()).cwiseAbs().maxCoeff() < 1e-12);
    for (size_t j = 0; j < i; ++j) nearest = std::min(nearest, (particles.position[i] - particles.position[j]).norm());
  }
  CHECK(volume / std::pow(3 * a, 3) == Approx(0.55).epsilon(1e-12));
  CHECK(nearest == Approx(0.5 * std::sqrt(3.0) * a).epsilon(1e-12));

  // Auto spacing: the nearest sites touch.
  Preset q = p;
  q.particles.spacing.reset();
  q.particles.count = 2;
  const Particles touching = generate(q);
  CHECK((touching.position[1] - touching.position[0]).norm() == Approx(d).epsilon(1e-12));

  // Jitter moves each coordinate by at most its value, and the sites' order and count stay.
  Preset j = p;
  j.particles.jitter = 0.02 * d;
  const Particles jittered = generate(j);
  REQUIRE(jittered.size() == 54);
  double largest = 0.0;
  for (size_t i = 0; i < jittered.size(); ++i)
    largest = std::max(largest, (jittered.position[i] - particles.position[i]).cwiseAbs().maxCoeff());
  CHECK(largest <= 0.02 * d);
  CHECK(largest > 0.01 * d);  // 162 uniform draws on [-0.02, 0.02] d: the largest is above 0.01 d but for 2^-162

  // A jitter that could make neighbours overlap is refused, naming the field.
  j.particles.jitter = 0.05 * d;  // gap 0.0734 d < 2 sqrt(3) 0.05 d = 0.173 d
  check_generator_refuses(j, "$.particles.jitter", {"overlap"});
}

TEST_CASE("lattice: a region with a huge number of sites still takes count particles", "[generator]") {
  // 10 m / 4.2 um = 2380952 sites per axis: 1.3e19 sites, more than a signed 64-bit count holds;
  // 10 m / 1 nm = 1e10 sites per axis, more than an int holds. Both regions have room for 8.
  for (const double d : {4.2e-6, 1e-9}) {
    INFO("diameter " << d);
    Preset p = scene(GeneratorKind::Lattice, 8);
    p.box.max = Vec3::Constant(10.0);
    p.particles.diameter = d;
    try {
      const Particles particles = generate(p);
      CHECK(particles.size() == 8);
      if (particles.size() == 8) CHECK((particles.position[1] - particles.position[0]).norm() == Approx(d));
    } catch (const PresetError& e) {
      FAIL_CHECK("PresetError for a region with room to spare: " << e.what());
    }
  }
}

TEST_CASE("lognormal sizes keep the mean diameter and have size_spread as the sigma of ln d", "[generator]") {
  // N = 20000 on a lattice (cheap to generate). With sigma = 0.3 the relative standard deviation
  // of d is sqrt(exp(sigma^2) - 1) = 0.307, so the mean diameter has a standard error of
  // 0.307 / sqrt(N) = 0.22 %; 5 standard errors = 1.1 %. Drawing ln d ~ N(ln D, sigma^2) without
  // the -sigma^2/2 shift would raise the mean by exp(sigma^2/2) - 1 = 4.6 %, 21 standard errors.
  // The sample standard deviation of ln d has a standard error sigma / sqrt(2N) = 0.0015.
  const int n = 20000;
  const double sigma = 0.3, d = 1e-3;
  Preset p = scene(GeneratorKind::Lattice, n);
  p.box.max = Vec3::Constant(0.2);  // >= 28^3 sites even if the largest diameter is 7 d
  p.particles.size_distribution = SizeDistribution::LogNormal;
  p.particles.size_spread = sigma;
  p.particles.diameter = d;
  p.particles.orientation = OrientationKind::Aligned;
  const Particles particles = generate(p);
  REQUIRE(particles.size() == static_cast<size_t>(n));
  double sum_d = 0.0, sum_ln = 0.0, sum_ln2 = 0.0;
  for (size_t i = 0; i < particles.size(); ++i) {
    const double di = 2.0 * particles.radius[i];
    sum_d += di;
    sum_ln += std::log(di / d);
    sum_ln2 += std::log(di / d) * std::log(di / d);
  }
  const double mean_d = sum_d / n;
  const double mean_ln = sum_ln / n;
  const double sd_ln = std::sqrt((sum_ln2 - n * mean_ln * mean_ln) / (n - 1));
  const double se_mean = std::sqrt(std::exp(sigma * sigma) - 1.0) / std::sqrt(static_cast<double>(n));
  CHECK(std::abs(mean_d / d - 1.0) < 5.0 * se_mean);
  CHECK(std::abs(mean_ln - (-0.5 * sigma * sigma)) < 5.0 * sigma / std::sqrt(static_cast<double>(n)));
  CHECK(std::abs(sd_ln - sigma) < 5.0 * sigma / std::sqrt(2.0 * n));
}

TEST_CASE("uniform sizes stay within (1 +/- spread) d and monodisperse ones are exact", "[generator]") {
  // Uniform on [0.8 d, 1.2 d]: standard deviation 0.2 d / sqrt(3); N = 5000 gives a standard error
  // of the mean of 0.0016 d. The extremes come within 0.01 d of the bounds with probability
  // 1 - 0.975^5000 (certain).
  const int n = 5000;
  const double spread = 0.2, d = 1e-3;
  Preset p = scene(GeneratorKind::Lattice, n);
  p.box.max = Vec3::Constant(0.03);
  p.particles.size_distribution = SizeDistribution::Uniform;
  p.particles.size_spread = spread;
  const Particles particles = generate(p);
  REQUIRE(particles.size() == static_cast<size_t>(n));
  double lo = 1.0, hi = 0.0, sum = 0.0;
  for (size_t i = 0; i < particles.size(); ++i) {
    const double di = 2.0 * particles.radius[i];
    lo = std::min(lo, di);
    hi = std::max(hi, di);
    sum += di;
  }
  CHECK(lo >= (1.0 - spread) * d);
  CHECK(hi <= (1.0 + spread) * d);
  CHECK(lo < (1.0 - spread + 0.01) * d);
  CHECK(hi > (1.0 + spread - 0.01) * d);
  CHECK(std::abs(sum / n / d - 1.0) < 5.0 * spread / std::sqrt(3.0 * n));

  p.particles.size_distribution = SizeDistribution::Monodisperse;
  p.particles.count = 100;
  const Particles mono = generate(p);
  for (size_t i = 0; i < mono.size(); ++i) REQUIRE(mono.radius[i] == 0.5 * d);
}

TEST_CASE("aligned orientation turns the body z axis onto `axis`", "[generator]") {
  const std::vector<Vec3> axes = {Vec3(1, 2, 2) / 3.0, Vec3(0, 0, 1), Vec3(0, 0, -1), Vec3(-1, 0, 0),
                                  Vec3(0.6, -0.8, 0.0)};
  for (const Vec3& axis : axes) {
    INFO("axis " << axis.transpose());
    Preset p = scene(GeneratorKind::Lattice, 20);
    p.particles.orientation = OrientationKind::Aligned;
    p.particles.axis = axis;
    const Particles particles = generate(p);
    REQUIRE(particles.size() == 20);
    for (size_t i = 0; i < particles.size(); ++i) {
      CHECK(particles.orientation[i].norm() == Approx(1.0).epsilon(1e-14));
      CHECK((particles.orientation[i] * Vec3::UnitZ() - axis).norm() < 1e-12);
      CHECK((particles.easy_axis(i) - axis).norm() < 1e-12);
      CHECK((particles.moment[i].normalized() - axis).norm() < 1e-12);
    }
  }
}

TEST_CASE("random_hemisphere orientations are uniform on the half sphere around `axis`", "[generator]") {
  // Uniform on a half sphere: cos(theta) to the pole is uniform on [0, 1] (mean 1/2, variance 1/12),
  // the azimuth uniform (the perpendicular components have mean 0). N = 4000: standard errors 0.0046
  // (mean of cos) and below 0.011 (perpendicular components); bounds are 5 of them. A full-sphere
  // draw fails the first (mean 0), an unfolded hemisphere made by |cos| alone would pass it but
  // the all-positive check catches a wrong fold direction.
  const int n = 4000;
  const Vec3 pole = Vec3(1, -2, 2) / 3.0;
  Preset p = scene(GeneratorKind::Lattice, n);
  p.particles.orientation = OrientationKind::RandomHemisphere;
  p.particles.axis = pole;
  const Particles particles = generate(p);
  REQUIRE(particles.size() == static_cast<size_t>(n));
  const Vec3 u = pole.unitOrthogonal(), w = pole.cross(u);
  double cos_sum = 0.0, cos_sq = 0.0, u_sum = 0.0, w_sum = 0.0;
  for (size_t i = 0; i < particles.size(); ++i) {
    REQUIRE(particles.orientation[i].norm() == Approx(1.0).epsilon(1e-12));
    const Vec3 e = particles.easy_axis(i);
    REQUIRE(e.dot(pole) >= 0.0);
    REQUIRE((particles.moment[i].normalized() - e).norm() < 1e-12);
    cos_sum += e.dot(pole);
    cos_sq += e.dot(pole) * e.dot(pole);
    u_sum += e.dot(u);
    w_sum += e.dot(w);
  }
  CHECK(cos_sum / n == Approx(0.5).margin(5 * 0.0046));
  CHECK(cos_sq / n == Approx(1.0 / 3.0).margin(5 * std::sqrt(4.0 / 45.0 / n)));
  CHECK(std::abs(u_sum / n) < 5 * std::sqrt(1.0 / 3.0 / n));
  CHECK(std::abs(w_sum / n) < 5 * std::sqrt(1.0 / 3.0 / n));
}

TEST_CASE("random orientations are isotropic", "[generator]") {
  // For easy axes uniform on the sphere each component has mean 0 and variance 1/3, and its square
  // has mean 1/3 and variance 1/5 - 1/9 = 4/45. With N = 4000 the standard errors are 0.0091 and
  // 0.0047; the bounds are 5 of them. An axis drawn uniformly in each quaternion component, or
  // aligned to z, fails them.
  const int n = 4000;
  Preset p = scene(GeneratorKind::Lattice, n);
  p.particles.orientation = OrientationKind::Random;
  p.particles.velocity_spread = 0.05;
  const Particles particles = generate(p);
  REQUIRE(particles.size() == static_cast<size_t>(n));
  Vec3 mean = Vec3::Zero(), mean_sq = Vec3::Zero();
  double v_sum = 0.0, v_sq = 0.0;
  for (size_t i = 0; i < particles.size(); ++i) {
    REQUIRE(particles.orientation[i].norm() == Approx(1.0).epsilon(1e-12));
    const Vec3 e = particles.easy_axis(i);
    mean += e;
    mean_sq += e.cwiseProduct(e);
    for (int a = 0; a < 3; ++a) {
      v_sum += particles.velocity[i][a];
      v_sq += particles.velocity[i][a] * particles.velocity[i][a];
    }
  }
  mean /= n;
  mean_sq /= n;
  INFO("mean easy axis " << mean.transpose() << ", mean squares " << mean_sq.transpose());
  const double se = 1.0 / std::sqrt(3.0 * n), se_sq = std::sqrt(4.0 / 45.0 / n);
  for (int a = 0; a < 3; ++a) {
    CHECK(std::abs(mean[a]) < 5.0 * se);
    CHECK(std::abs(mean_sq[a] - 1.0 / 3.0) < 5.0 * se_sq);
  }
  // Each velocity component is normal with standard deviation velocity_spread (3N samples: the
  // sample standard deviation has a standard error 0.05 / sqrt(6N) = 3.2e-4).
  const double m = 3.0 * n;
  const double v_sd = std::sqrt(v_sq / m - (v_sum / m) * (v_sum / m));
  CHECK(std::abs(v_sd - 0.05) < 5.0 * 0.05 / std::sqrt(2.0 * m));
  CHECK(std::abs(v_sum / m) < 5.0 * 0.05 / std::sqrt(m));
}

TEST_CASE("mass, inertia and moment follow from the material and the radius", "[generator]") {
  const double rho = 7500.0, magnetization = 1e5;
  Preset p = scene(GeneratorKind::Random, 50);
  p.particles.size_distribution = SizeDistribution::Uniform;
  p.particles.size_spread = 0.3;
  const Particles particles = generate(p);
  REQUIRE(particles.size() == 50);
  for (size_t i = 0; i < particles.size(); ++i) {
    INFO("particle " << i);
    const double r = particles.radius[i];
    const double volume = 4.0 / 3.0 * pi * r * r * r;
    CHECK(particles.material[i] == 0);
    CHECK(particles.mass[i] == Approx(rho * volume).epsilon(1e-12));
    CHECK(particles.inertia[i] == Approx(0.4 * rho * volume * r * r).epsilon(1e-12));
    CHECK((particles.easy_axis_body[i] - Vec3::UnitZ()).norm() < 1e-15);
    CHECK((particles.moment_body[i] - magnetization * volume * Vec3::UnitZ()).norm() < 1e-12 * magnetization * volume);
    CHECK((particles.moment[i] - magnetization * volume * particles.easy_axis(i)).norm() <
          1e-12 * magnetization * volume);
    CHECK(particles.velocity[i].norm() == 0.0);
    CHECK(particles.angular_velocity[i].norm() == 0.0);
  }
}

TEST_CASE("list generator: entries as given, with their own material and moment", "[generator]") {
  Preset p = scene(GeneratorKind::List, 0);
  Material steel;
  steel.name = "steel";
  steel.density = 8000.0;
  steel.magnetization = 2e5;
  p.materials.push_back(steel);
  p.particles.material = "steel";  // entries without a material use this one
  ParticleEntry a;
  a.position = Vec3(0.005, 0.006, 0.007);
  a.radius = 0.4e-3;
  a.velocity = Vec3(0.1, -0.2, 0.3);
  a.angular_velocity = Vec3(1, 2, 3);
  a.axis = Vec3(0, 1, 0);
  ParticleEntry b;
  b.position = Vec3(0.01, 0.01, 0.01);
  b.radius = 0.7e-3;
  b.material = "iron";
  b.axis = Vec3(0, 0, -1);
  b.moment = 2e-3;  // "2 emu": overrides M V
  ParticleEntry c;
  c.position = Vec3(0.015, 0.01, 0.01);
  c.radius = 0.5e-3;
  c.material = "iron";
  c.moment = 0.0;  // an unmagnetised bead of a magnetic material
  p.particles.particles = {a, b, c};
  const Particles particles = generate(p);
  REQUIRE(particles.size() == 3);
  require_ids_in_order(particles);

  const double va = 4.0 / 3.0 * pi * std::pow(0.4e-3, 3), vb = 4.0 / 3.0 * pi * std::pow(0.7e-3, 3);
  CHECK(same_bits(particles.position[0], a.position));
  CHECK(particles.radius[0] == a.radius);
  CHECK(same_bits(particles.velocity[0], a.velocity));
  CHECK(same_bits(particles.angular_velocity[0], a.angular_velocity));
  CHECK(particles.material[0] == 1);  // the generator's material, steel
  CHECK(particles.mass[0] == Approx(8000.0 * va).epsilon(1e-12));
  CHECK(particles.inertia[0] == Approx(0.4 * 8000.0 * va * 0.16e-6).epsilon(1e-12));
  CHECK((particles.moment[0] - 2e5 * va * Vec3::UnitY()).norm() < 1e-12 * 2e5 * va);

  CHECK(particles.material[1] == 0);  // iron
  CHECK(particles.mass[1] == Approx(7500.0 * vb).epsilon(1e-12));
  CHECK((particles.moment[1] - Vec3(0, 0, -2e-3)).norm() < 1e-15);
  CHECK((particles.easy_axis(1) - Vec3(0, 0, -1)).norm() < 1e-12);

  CHECK(particles.moment[2].norm() == 0.0);
  CHECK(particles.mass[2] > 0.0);
}
