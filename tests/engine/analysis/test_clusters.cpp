// Clusters (engine/analysis/clusters.hpp): hand-built scenes whose components, shapes, sizes and moments
// are known from their geometry, built through the real engine (the contacts are those the force
// pass activated), and the statistics of [Dominik-Nubold] eq. 17 worked out by hand.

#include "engine/analysis/clusters.hpp"
#include "engine/analysis/observables.hpp"
#include "engine/live/snapshot.hpp"
#include "engine/live/snapshot_capture.hpp"
#include "engine/output/series.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/test_support.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <sstream>
#include <string>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double kBeadRadius = 1e-3;                         // [m]
constexpr double kOverlap = 1e-5;                            // [m] 1 % of the radius: active contacts, small forces
constexpr double kBeadSpacing = 2 * kBeadRadius - kOverlap;  // centre distance of touching neighbours
constexpr double kMagnetization = 1e5;                       // [A/m]

double single_moment() {
  return kMagnetization * sphere_volume(kBeadRadius);
}

// A sphere with its easy axis (and moment) along `axis`.
ParticleEntry magnet(const Vec3& position, const Vec3& axis) {
  ParticleEntry e = sphere(position, kBeadRadius);
  e.axis = axis;
  return e;
}

Preset magnetic_preset() {
  Preset p = bare_preset();
  p.materials[0].magnetization = kMagnetization;
  return p;
}

// Adds `count` touching spheres in a straight line from `start` along `direction`, moments along `axis`.
void add_line(Preset& p, const Vec3& start, const Vec3& direction, int count, const Vec3& axis) {
  for (int k = 0; k < count; ++k) p.particles.particles.push_back(magnet(start + k * kBeadSpacing * direction, axis));
}

// The cluster holding the particle with this id.
const Cluster& cluster_of_id(const Session& session, const Clusters& c, std::uint64_t id) {
  const auto& ids = session.state().particles.id;
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == id) return c.clusters[static_cast<size_t>(c.cluster_of[i])];
  FAIL("no particle with id " << id);
  return c.clusters.front();
}

// Scene A: a straight chain of 5 (ids 0-4, moments along +z), a triangle of 3 (ids 5-7, moments
// at 0, 120 and 240 degrees in the xy plane), and 2 single spheres (ids 8, 9, moments along +x).
Preset chain_triangle_singles() {
  Preset p = magnetic_preset();
  add_line(p, Vec3(-0.03, 0, 0), Vec3::UnitX(), 5, Vec3::UnitZ());
  const Vec3 centre(0.02, 0.02, 0.0);
  const double circumradius = kBeadSpacing / std::sqrt(3.0);  // equilateral triangle of side kBeadSpacing
  for (int k = 0; k < 3; ++k) {
    const double a = 2.0 * pi * k / 3.0;
    const Vec3 direction(std::cos(a), std::sin(a), 0.0);
    p.particles.particles.push_back(magnet(centre + circumradius * direction, direction));
  }
  p.particles.particles.push_back(magnet(Vec3(0.0, -0.03, 0.0), Vec3::UnitX()));
  p.particles.particles.push_back(magnet(Vec3(0.0, 0.03, 0.03), Vec3::UnitX()));
  return p;
}

std::map<std::string, std::string> csv_row(const std::string& header, const std::string& row) {
  std::map<std::string, std::string> out;
  std::istringstream h(header), r(row);
  std::string name, value;
  while (std::getline(h, name, ',') && std::getline(r, value, ',')) {
    if (!name.empty() && name.back() == '\n') name.pop_back();
    if (!value.empty() && value.back() == '\n') value.pop_back();
    out[name] = value;
  }
  return out;
}

// The remanence fit of the clusters a scene starts with, of which there must be `count`; the fit must succeed.
PowerLawFit starting_remanence_fit(const Preset& p, size_t count) {
  Session session(p);
  const Clusters c = find_clusters(session.state());
  REQUIRE(c.clusters.size() == count);
  const PowerLawFit fit = remanence_fit(c);
  REQUIRE(fit.ok);
  return fit;
}

}  // namespace

TEST_CASE("a chain of 5, a triangle and two single spheres: sizes, shapes, labels and moments", "[clusters]") {
  Session session(chain_triangle_singles());  // the constructor's force pass activates the contacts
  REQUIRE(session.state().health.ok);
  const Clusters c = find_clusters(session.state());

  REQUIRE(c.clusters.size() == 4);
  // Sorted by label = smallest id in the cluster: the chain (0), the triangle (5), the singles (8, 9).
  const std::uint64_t labels[] = {0, 5, 8, 9};
  const int sizes[] = {5, 3, 1, 1};
  const int contacts[] = {4, 3, 0, 0};
  for (size_t k = 0; k < 4; ++k) {
    INFO("cluster " << k);
    CHECK(c.clusters[k].label == labels[k]);
    CHECK(c.clusters[k].size == sizes[k]);
    CHECK(c.clusters[k].contacts == contacts[k]);
  }
  CHECK(c.clusters[0].chain);
  CHECK_FALSE(c.clusters[0].ring);
  CHECK(c.clusters[1].ring);  // a triangle is a cycle of 3
  CHECK_FALSE(c.clusters[1].chain);
  for (size_t k = 2; k < 4; ++k)
    CHECK_FALSE((c.clusters[k].chain || c.clusters[k].ring));  // a single sphere is neither

  for (std::uint64_t id = 0; id < 10; ++id) {
    INFO("particle " << id);
    const std::uint64_t expected = id < 5 ? 0 : id < 8 ? 5 : id;
    CHECK(cluster_of_id(session, c, id).label == expected);
  }

  // Moments: the aligned chain carries 5 m (eq. 15); the triangle's three moments at 120 degrees
  // cancel; a single sphere carries m. Tolerances: round-off of sums of a few terms of size m.
  const double m = single_moment();
  CHECK((c.clusters[0].moment - 5.0 * m * Vec3::UnitZ()).norm() < 1e-12 * m);
  CHECK(c.clusters[1].moment.norm() < 1e-12 * m);
  CHECK((c.clusters[2].moment - m * Vec3::UnitX()).norm() < 1e-12 * m);
}

TEST_CASE("statistics of the chain-triangle-singles scene: n_s, S of eq. 17, chains, rings", "[clusters]") {
  Session session(chain_triangle_singles());
  const Clusters c = find_clusters(session.state());

  const std::vector<SizeCount> n = size_distribution(c);
  REQUIRE(n.size() == 3);
  CHECK((n[0].size == 1 && n[0].count == 2));
  CHECK((n[1].size == 3 && n[1].count == 1));
  CHECK((n[2].size == 5 && n[2].count == 1));

  const ClusterStatistics s = cluster_statistics(c);
  CHECK(s.clusters == 4);
  // S = sum s^2 n_s / sum s n_s = (25 + 9 + 1 + 1) / (5 + 3 + 1 + 1) = 3.6 (exact up to round-off).
  CHECK(s.mean_cluster_size == Approx(3.6).epsilon(1e-15));
  CHECK(s.chains == 1);
  CHECK(s.mean_chain_length == 5.0);
  CHECK(s.rings == 1);
  CHECK(s.largest_cluster == 5);
}

TEST_CASE("the observables and the CSV series row carry the same cluster statistics", "[clusters]") {
  Session session(chain_triangle_singles());
  const Observables o = session.observe();
  CHECK(o.clusters.clusters == 4);
  CHECK(o.clusters.mean_cluster_size == Approx(3.6).epsilon(1e-15));
  CHECK(o.clusters.chains == 1);
  CHECK(o.clusters.mean_chain_length == 5.0);
  CHECK(o.clusters.rings == 1);
  CHECK(o.clusters.largest_cluster == 5);

  // The row, read back by column name (shortest round-trip form: 3.6 reads back as the double it was).
  const auto row = csv_row(series_header(), series_row(o));
  CHECK(row.at("clusters") == "4");
  CHECK(std::stod(row.at("mean_cluster_size")) == Approx(3.6).epsilon(1e-10));
  CHECK(row.at("chains") == "1");
  CHECK(std::stod(row.at("mean_chain_length")) == 5.0);
  CHECK(row.at("rings") == "1");
  CHECK(row.at("largest_cluster") == "5");
  CHECK(row.at("particle_contacts") == "7");  // 4 in the chain + 3 in the triangle
}

TEST_CASE("branched clusters are neither chains nor rings", "[clusters]") {
  Preset p = magnetic_preset();
  // A T: a line of 3 along x (ids 0-2) and one sphere on the middle one along y (id 3).
  add_line(p, Vec3(-0.03, 0, 0), Vec3::UnitX(), 3, Vec3::UnitZ());
  p.particles.particles.push_back(magnet(Vec3(-0.03 + kBeadSpacing, kBeadSpacing, 0), Vec3::UnitZ()));
  // A triangle with a tail (ids 4-7): as many contacts as particles (4), like a ring, but one
  // particle touches 3 and the tail's end only 1.
  const Vec3 a(0.02, 0.0, 0.0), b = a + kBeadSpacing * Vec3::UnitX();
  const Vec3 apex = a + kBeadSpacing * Vec3(0.5, std::sqrt(3.0) / 2.0, 0.0);
  p.particles.particles.push_back(magnet(a, Vec3::UnitZ()));
  p.particles.particles.push_back(magnet(b, Vec3::UnitZ()));
  p.particles.particles.push_back(magnet(apex, Vec3::UnitZ()));
  p.particles.particles.push_back(magnet(b + kBeadSpacing * Vec3::UnitX(), Vec3::UnitZ()));
  // A square of 4 (ids 8-11): a ring whose diagonals do not touch.
  const Vec3 corner(0.0, 0.03, 0.0);
  for (const Vec3& offset : {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)})
    p.particles.particles.push_back(magnet(corner + kBeadSpacing * offset, Vec3::UnitZ()));
  Session session(p);
  const Clusters c = find_clusters(session.state());

  // The T is a tree, but branched: no chain. Only the square is a ring.
  struct Expected {
    const char* name;
    std::uint64_t label;
    int size, contacts;
    bool chain, ring;
  };
  const Expected expected[] = {
      {"T", 0, 4, 3, false, false}, {"triangle with a tail", 4, 4, 4, false, false}, {"square", 8, 4, 4, false, true}};
  REQUIRE(c.clusters.size() == 3);
  for (size_t k = 0; k < 3; ++k) {
    const Cluster& cluster = c.clusters[k];
    const Expected& e = expected[k];
    INFO(e.name);
    CHECK(cluster.label == e.label);
    CHECK(cluster.size == e.size);
    CHECK(cluster.contacts == e.contacts);
    CHECK(cluster.chain == e.chain);
    CHECK(cluster.ring == e.ring);
  }

  const ClusterStatistics s = cluster_statistics(c);
  CHECK(s.chains == 0);
  CHECK(s.mean_chain_length == 0.0);
  CHECK(s.rings == 1);
  CHECK(s.mean_cluster_size == Approx(4.0).epsilon(1e-15));  // (16 + 16 + 16) / 12
}

TEST_CASE("spheres in the pair list but not touching are separate clusters", "[clusters]") {
  Preset p = magnetic_preset();
  p.particles.particles.push_back(magnet(Vec3(0, 0, 0), Vec3::UnitZ()));
  p.particles.particles.push_back(magnet(Vec3(2 * kBeadRadius + 1e-6, 0, 0), Vec3::UnitZ()));  // 1 um gap
  Session session(p);
  REQUIRE(session.state().neighbors.contact_pairs.size() == 1);  // a candidate pair whose history is inactive
  REQUIRE_FALSE(session.state().neighbors.contact_history[0].active);
  const ClusterStatistics s = cluster_statistics(find_clusters(session.state()));
  CHECK(s.clusters == 2);
  CHECK(s.mean_cluster_size == 1.0);
  CHECK(s.chains == 0);
  CHECK(s.largest_cluster == 1);
}

TEST_CASE("a contact through a periodic boundary joins the cluster", "[clusters]") {
  Preset p = magnetic_preset();
  p.box.x_min = p.box.x_max = SideKind::Periodic;
  // Touching through x = +-0.05: centres at 0.05 - r and -0.05 + r - overlap (minimum image).
  p.particles.particles.push_back(magnet(Vec3(0.05 - kBeadRadius, 0, 0), Vec3::UnitZ()));
  p.particles.particles.push_back(magnet(Vec3(-0.05 + kBeadRadius - kOverlap, 0, 0), Vec3::UnitZ()));
  p.particles.particles.push_back(magnet(Vec3(-0.05 + kBeadRadius - kOverlap + kBeadSpacing, 0, 0), Vec3::UnitZ()));
  Session session(p);
  const Clusters c = find_clusters(session.state());
  REQUIRE(c.clusters.size() == 1);
  CHECK(c.clusters[0].size == 3);
  CHECK(c.clusters[0].chain);
}

TEST_CASE("labels are the smallest particle id, whatever the order in memory", "[clusters]") {
  // A chain of 3 listed with ids 42, 7, 19 and a single sphere with id 3 after it: the chain is
  // found first but sorts after the single sphere. Small ids take the bucket path of the sort,
  // ids scaled by 10^9 (far above the particle count) the comparison sort; the answer is the same.
  for (const std::uint64_t scale : {std::uint64_t{1}, std::uint64_t{1000000000}}) {
    INFO("ids x " << scale);
    Particles particles;
    const double mass = 7500.0 * sphere_volume(kBeadRadius);
    const std::uint64_t ids[] = {42 * scale, 7 * scale, 19 * scale, 3 * scale};
    for (int k = 0; k < 3; ++k) particles.add(ids[k], Vec3(k * kBeadSpacing, 0, 0), kBeadRadius, mass, 0);
    particles.add(ids[3], Vec3(0.03, 0, 0), kBeadRadius, mass, 0);
    Simulation sim(make_model(bare_preset()), particles);
    const Clusters c = find_clusters(sim.state());
    REQUIRE(c.clusters.size() == 2);
    CHECK(c.clusters[0].label == 3 * scale);  // sorted by label
    CHECK(c.clusters[0].size == 1);
    CHECK(c.clusters[1].label == 7 * scale);
    CHECK(c.clusters[1].size == 3);
    CHECK(c.clusters[1].chain);
    for (size_t i = 0; i < 3; ++i) CHECK(c.label_of(i) == 7 * scale);
    CHECK(c.label_of(3) == 3 * scale);
    CHECK(c.size_of(0) == 3);
  }
}

TEST_CASE("clusters found in a shuffled id order come out sorted, each particle keeping its own", "[clusters]") {
  // 500 separate spheres whose ids are a random permutation: the sort by label moves the clusters
  // along long cycles of that permutation (the in-place path), in the bucket and the comparison sort.
  for (const std::uint64_t scale : {std::uint64_t{1}, std::uint64_t{1000000000}}) {
    INFO("ids x " << scale);
    const int n = 500;
    std::vector<std::uint64_t> ids(n);
    for (int k = 0; k < n; ++k) ids[static_cast<size_t>(k)] = static_cast<std::uint64_t>(k) * scale;
    std::mt19937 rng(7);
    std::shuffle(ids.begin(), ids.end(), rng);
    Particles particles;
    const double mass = 7500.0 * sphere_volume(kBeadRadius);
    for (int k = 0; k < n; ++k)
      particles.add(ids[static_cast<size_t>(k)], Vec3(4 * kBeadRadius * k, 0, 0), kBeadRadius, mass, 0);
    Simulation sim(make_model(bare_preset()), particles);
    const Clusters c = find_clusters(sim.state());
    REQUIRE(c.clusters.size() == static_cast<size_t>(n));
    for (size_t k = 0; k < c.clusters.size(); ++k) CHECK(c.clusters[k].label == k * scale);
    for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
      CHECK(c.label_of(i) == sim.state().particles.id[i]);
      CHECK(c.size_of(i) == 1);
    }
  }
}

TEST_CASE("two dipoles that attract and stick become one aligned chain carrying 2 m", "[clusters]") {
  // presets/two-dipoles.json: head to tail on the z axis, 1 mm apart; they touch within 5 ms.
  const Preset preset = load_preset_file(std::string(LODESTONE_SOURCE_DIR) + "/presets/two-dipoles.json");
  Session session(preset);
  const ClusterStatistics before = cluster_statistics(find_clusters(session.state()));
  CHECK(before.clusters == 2);
  CHECK(before.mean_cluster_size == 1.0);
  run_checked(session, static_cast<std::int64_t>(0.01 / session.model().time_step));
  const Clusters c = find_clusters(session.state());
  REQUIRE(c.clusters.size() == 1);
  CHECK(c.clusters[0].chain);
  CHECK(c.clusters[0].size == 2);
  // On the axis there is no torque: the moments stay along z and add up (eq. 15). The moment of
  // one sphere from the preset, M V; tolerance for round-off in the rotation of the moments.
  const double m = 9e5 * sphere_volume(0.5e-3);
  CHECK(c.clusters[0].moment.norm() == Approx(2.0 * m).epsilon(1e-9));
  const PowerLawFit fit = remanence_fit(c);
  CHECK_FALSE(fit.ok);  // one cluster, one size: no slope
  CHECK(fit.points == 1);
}

TEST_CASE("the remanence of aligned chains grows as s^1, of alternating ones not at all", "[clusters]") {
  // Chains of 2, 3, 4 and 6 along x, moments along +z: |sum m| = s m exactly, so the fit gives
  // exponent 1 and prefactor m (eq. 15); single spheres do not enter the fit.
  Preset p = magnetic_preset();
  const int lengths[] = {2, 3, 4, 6};
  for (int k = 0; k < 4; ++k) add_line(p, Vec3(-0.04, -0.04 + 0.02 * k, 0), Vec3::UnitX(), lengths[k], Vec3::UnitZ());
  p.particles.particles.push_back(magnet(Vec3(0.04, 0.04, 0.04), Vec3::UnitZ()));
  const PowerLawFit fit = starting_remanence_fit(p, 5);
  CHECK(fit.points == 4);
  CHECK(fit.skipped == 0);
  CHECK(fit.x_min == 2.0);
  CHECK(fit.x_max == 6.0);
  // Exact data: only round-off in logs and sums of a few terms.
  CHECK(fit.exponent == Approx(1.0).epsilon(1e-12));
  CHECK(fit.prefactor == Approx(single_moment()).epsilon(1e-12));
  CHECK(fit.exponent_error < 1e-12);

  // Chains of 3, 5 and 7 with alternating moments: each sums to one moment, |sum m| = m whatever
  // the size, so the exponent is 0 (up to round-off in the rotated moments, ~1e-16 m).
  Preset q = magnetic_preset();
  const int odd[] = {3, 5, 7};
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < odd[k]; ++j)
      q.particles.particles.push_back(
          magnet(Vec3(-0.04 + j * kBeadSpacing, -0.04 + 0.02 * k, 0), j % 2 ? Vec3(0, 0, -1) : Vec3::UnitZ()));
  const PowerLawFit flat = starting_remanence_fit(q, 3);
  CHECK(flat.points == 3);
  CHECK(flat.exponent == Approx(0.0).margin(1e-12));
  CHECK(flat.prefactor == Approx(single_moment()).epsilon(1e-12));
}

TEST_CASE("a snapshot carries each particle's cluster label and size", "[clusters]") {
  Session session(chain_triangle_singles());
  Snapshot snapshot;
  capture_snapshot(session, snapshot);
  const ParticleSnapshot& s = snapshot.particles;
  REQUIRE(s.cluster.size() == 10);
  REQUIRE(s.cluster_size.size() == 10);
  for (size_t i = 0; i < 10; ++i) {
    const std::uint64_t id = s.id[i];
    INFO("particle " << id);
    CHECK(s.cluster[i] == (id < 5 ? 0u : id < 8 ? 5u : id));
    CHECK(s.cluster_size[i] == (id < 5 ? 5u : id < 8 ? 3u : 1u));
  }
  CHECK(snapshot.observables.clusters.mean_cluster_size == Approx(3.6).epsilon(1e-15));
}
