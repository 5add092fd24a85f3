// Inputs the fuzzers found (tests/data/fuzz-regressions/, docs/reliability.md "Fuzzing"), replayed
// through the fuzz targets' own code (fuzz/fuzz_harness.hpp, fuzz/fuzz_edit_harness.hpp) in the normal build,
// and the bug behind each one checked directly. Under scripts/test.sh --sanitize these also run with ASan +
// UBSan. The remote target's inputs need the app's parser: tests/desktop/test_remote_parse.cpp replays them.

#include "engine/analysis/angles.hpp"
#include "engine/scene/checkpoint.hpp"
#include "fuzz/fuzz_edit_harness.hpp"
#include "fuzz/fuzz_harness.hpp"
#include "tests/engine/test_support.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;
namespace fs = std::filesystem;

namespace {

const fs::path kRegressions = fs::path(LODESTONE_SOURCE_DIR) / "tests/data/fuzz-regressions";

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

fuzz::Outcome replay(const std::string& target, const std::string& name) {
  const std::string bytes = file_bytes(kRegressions / target / name);
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  if (target == "set") {
    fuzz::Outcome out;
    out.loaded = fuzz::set_input(data, bytes.size());  // the edit applied (and its invariants held)
    out.error = out.loaded ? "" : "refused";
    return out;
  }
  return target == "preset" ? fuzz::preset_input(data, bytes.size()) : fuzz::checkpoint_input(data, bytes.size());
}

}  // namespace

TEST_CASE("fuzz regressions: every saved input replays through the fuzz targets without a crash", "[fuzz]") {
  int replayed = 0;
  for (const std::string target : {"preset", "checkpoint", "set"}) {
    std::vector<fs::path> files;
    if (!fs::is_directory(kRegressions / target)) continue;  // git keeps no empty directory
    for (const auto& entry : fs::directory_iterator(kRegressions / target))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      INFO(target << ": " << file.filename().string());
      fuzz::Outcome outcome;
      REQUIRE_NOTHROW(outcome = replay(target, file.filename().string()));
      CHECK((outcome.loaded || !outcome.error.empty()));  // loaded, or refused with the loader's message
      ++replayed;
    }
  }
  REQUIRE(replayed > 0);
}

// Python's set() with a number beyond a double ("8e888"): the harness's JSON reading threw nlohmann's out_of_range,
// which it did not catch (only parse_error); the value now goes as text, and the field's reader refuses it.
TEST_CASE("fuzz regression: set() with a number beyond a double is refused with the field's message", "[fuzz]") {
  const fuzz::Outcome outcome = replay("set", "number-beyond-double.txt");
  REQUIRE_FALSE(outcome.loaded);
  REQUIRE(fuzz::python_value("8e888").is_string());
  Session session(fuzz::edit_scene());
  REQUIRE_THROWS_AS(session.prepare_edit({{"field.strength", fuzz::python_value("8e888")}}), PresetError);
}

// A checkpoint whose particles lie ~1e43 cell sizes apart: the neighbour grid's cell count per axis was
// cast from double to int (undefined behaviour) and multiplied into an int. Now it is capped first.
TEST_CASE(
    "fuzz regression: a checkpoint with particles 1e43 cell sizes apart continues (neighbour grid overflowed an int)",
    "[fuzz]") {
  const fuzz::Outcome outcome = replay("checkpoint", "cell-grid-int-overflow.ckpt");
  INFO(outcome.error);
  REQUIRE(outcome.loaded);
  REQUIRE(outcome.simulated);
}

TEST_CASE("fuzz regression: spheres 1e30 m apart in an open box get a neighbour grid and step", "[fuzz]") {
  Preset p = bare_preset();
  p.particles.particles = {sphere(Vec3(0, 0, 0), 1e-3), sphere(Vec3(1e30, -1e30, 1e30), 1e-3),
                           sphere(Vec3(2e-3, 0, 0), 1e-3)};
  Session session(p);
  run_checked(session, 3);
  REQUIRE(session.state().particles.size() == 3);
}

// A checkpoint whose particle has a non-finite moment or easy axis: the angle histogram cast a NaN
// angle to int (undefined behaviour). Such a particle has no angle and is not counted.
TEST_CASE("fuzz regression: a checkpoint with a non-finite moment is observed (angle bin of NaN)", "[fuzz]") {
  const fuzz::Outcome outcome = replay("checkpoint", "angle-bin-nan.ckpt");
  INFO(outcome.error);
  REQUIRE(outcome.loaded);
  REQUIRE(outcome.simulated);
}

TEST_CASE("fuzz regression: angle histograms skip a particle whose angles are not finite", "[fuzz]") {
  CHECK(angle_bin(std::nan(""), kThetaBins) == 0);
  CHECK(angle_bin(-5.0, kThetaBins) == 0);
  CHECK(angle_bin(1e300, kThetaBins) == kThetaBins - 1);
  Particles p;
  p.add(0, Vec3::Zero(), 1e-3, 1e-6, 0);
  p.add(1, Vec3(1, 0, 0), 1e-3, 1e-6, 0);
  p.easy_axis_body[0] = p.easy_axis_body[1] = Vec3::UnitZ();
  p.moment[0] = Vec3(0, 0, 1e-3);
  p.moment[1] = Vec3(std::nan(""), 0, 1e-3);
  const AngleHistograms h = angle_histograms(p, Vec3::UnitZ());
  CHECK(h.particles == 1);
  CHECK(h.mean_theta == 0.0);
  CHECK(h.mean_psi == 0.0);
}

// Not an engine bug, an invariant of the harness that was too strict: a damaged checkpoint (angular
// velocities of 10^6 rad/s on 10 nm grains) blows up in its first step after the restart. The health
// check stops the run with its message, as it should; a checkpoint of that state holds NaN and is
// refused at load, so the harness checks the write -> read round trip of healthy states only.
TEST_CASE("fuzz regression: a checkpoint that blows up after the restart stops with a health message", "[fuzz]") {
  const fuzz::Outcome outcome = replay("checkpoint", "blows-up-after-restart.ckpt");
  INFO(outcome.error);
  REQUIRE(outcome.loaded);
  REQUIRE(outcome.simulated);
}

// A preset with touching bonds and a sphere ~1e82 m away: the bond hash grid cast its cell index from
// double to int64 (undefined behaviour). The index is clamped in double first.
TEST_CASE("fuzz regression: touching bonds with a sphere 1e82 m away (bond cell index overflowed)", "[fuzz]") {
  const fuzz::Outcome outcome = replay("preset", "bond-cell-far-sphere.json");
  INFO(outcome.error);
  REQUIRE(outcome.loaded);
}

TEST_CASE("fuzz regression: touching bonds form between neighbours while another sphere is 1e80 m away", "[fuzz]") {
  Preset p = bare_preset();
  p.bonds.create = BondCreation::Touching;
  p.particles.particles = {sphere(Vec3(0, 0, 0), 1e-3), sphere(Vec3(2e-3, 0, 0), 1e-3), sphere(Vec3(1e80, 0, 0), 1e-3)};
  Session session(p);
  REQUIRE(session.state().bonds.size() == 1);
}

// A checkpoint with an angular velocity of 7e274 rad/s: the orientation became NaN while the position,
// velocity and force stayed finite, so the health check passed and the NaN spread through the moments.
// The check now covers the orientation: the run stops with a message naming the particle.
TEST_CASE("fuzz regression: a NaN orientation fails the health check (angular velocity 7e274 rad/s)", "[fuzz]") {
  const std::string bytes = file_bytes(kRegressions / "checkpoint/nan-orientation-unnoticed.ckpt");
  const fuzz::Outcome outcome = replay("checkpoint", "nan-orientation-unnoticed.ckpt");
  INFO(outcome.error);
  REQUIRE(outcome.loaded);
  REQUIRE(outcome.simulated);
  std::string repaired = bytes;
  const std::uint64_t sum = checkpoint_checksum(repaired.data(), repaired.size() - 8);
  std::memcpy(repaired.data() + repaired.size() - 8, &sum, 8);
  Session session(checkpoint_from_bytes(repaired));
  session.run(2);
  REQUIRE_FALSE(session.state().health.ok);
  CHECK_THAT(session.state().health.message, Catch::Contains("orientation"));
}
