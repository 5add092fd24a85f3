// lodestone-run --angles: the theta and psi distributions file (one block of bins per time-series
// row), its first block against angles worked out by hand, and the error on an unwritable path.

#include "../test_process.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace lodestone::test::runner_tests;

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, ',');) out.push_back(field);
  return out;
}

// A CSV file as its header and rows of fields (text); '#' lines before the header (the writer's version) skipped.
std::pair<std::string, std::vector<std::vector<std::string>>> read_angle_rows(const fs::path& path) {
  std::istringstream in(read_file(path));
  std::string header, line;
  while (std::getline(in, header) && header.rfind('#', 0) == 0) {
  }
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(split(line));
  return {header, rows};
}

constexpr double kDeg = M_PI / 180.0;

}  // namespace

TEST_CASE("option --angles writes a block of theta and psi bins at every series row", "[runner][angles]") {
  // Field 0.3 H_K along z (H_K = 2K/Ms of Sr-ferrite). Three grains far apart, no gravity:
  //   a Stoner-Wohlfarth grain with its axis along x: theta = 90 deg (bin 85-90), sin psi = 0.3,
  //     psi = 17.46 deg (bin 15-20) ([Erokhin-Berkov] eq. 2 at theta = 90 deg);
  //   a rigid dipole with its axis 62 deg from z: theta 62 (bin 60-65), psi 0 (bin 0-5);
  //   a grain without a moment: not counted.
  // Two protocol phases of 10 us, 1 us steps (the grains turn by less than a degree), a row every 5
  // steps.
  const double hk = 2.0 * 3.5e5 / 3.8e5;  // [T] mu0 H_K
  char field[64];
  std::snprintf(field, sizeof field, "\"%.10g T\"", 0.3 * hk);
  Workdir dir;
  const std::string head = R"({"version": 1,
      "materials": [{"name": "sw", "magnetization": "380 kA/m", "moment_model": "stoner_wohlfarth",
                     "anisotropy": "350 kJ/m^3"},
                    {"name": "rigid", "magnetization": "100 kA/m"},
                    {"name": "plain", "magnetization": 0}],
      "magnetics": {"method": "off"},
      "field": {"direction": [0, 0, 1], "strength": )";
  const std::string rest = R"(},
      "environment": {"gravity": [0, 0, 0]},
      "integrator": {"time_step": "1 us"},
      "box": {"min": ["-10 mm", "-10 mm", "-10 mm"], "max": ["10 mm", "10 mm", "10 mm"]},
      "particles": {"kind": "list", "particles": [
        {"position": ["-5 mm", "0 mm", "0 mm"], "radius": "1 mm", "material": "sw", "axis": [1, 0, 0]},
        {"position": ["0 mm", "0 mm", "0 mm"], "radius": "1 mm", "material": "rigid",
         "axis": [0.8829475928589269, 0, 0.4694715627858908]},
        {"position": ["5 mm", "0 mm", "0 mm"], "radius": "1 mm", "material": "plain", "axis": [0, 0, 1]}]},
      "protocol": [{"name": "one", "duration": "10 us"}, {"name": "two", "duration": "10 us"}]})";
  write_file(dir.path() / "grains.json", head + field + rest);
  const Result r = dir.run("grains.json --series-every 5 --series s.csv --angles a.csv --quiet --table 0");
  INFO(r.output);
  REQUIRE(r.code == 0);

  const auto [header, rows] = read_angle_rows(dir.path() / "a.csv");
  CHECK(header == "step,time,stage,quantity,bin_low_deg,bin_high_deg,fraction,count");
  const auto [series_header, series] = read_angle_rows(dir.path() / "s.csv");
  const std::vector<std::string> names = split(series_header);
  const auto column = [&](const std::string& name) {
    for (size_t k = 0; k < names.size(); ++k)
      if (names[k] == name) return k;
    FAIL("no column " << name);
    return size_t{0};
  };
  const size_t step_col = column("step"), time_col = column("time"), phase_col = column("stage");
  REQUIRE(series.size() >= 5);

  // One block of 18 theta bins then 36 psi bins per series row, in the same order, with its step,
  // time and stage; each quantity's fractions sum to 1 over the 2 particles with a moment.
  const size_t block = 18 + 36;
  REQUIRE(rows.size() == block * series.size());
  for (size_t b = 0; b < series.size(); ++b) {
    INFO("series row " << b << " (step " << series[b][step_col] << ")");
    double theta_sum = 0.0, psi_sum = 0.0;
    for (size_t k = 0; k < block; ++k) {
      const std::vector<std::string>& row = rows[b * block + k];
      REQUIRE(row.size() == 8);
      CHECK(row[0] == series[b][step_col]);
      CHECK(std::stod(row[1]) == Approx(std::stod(series[b][time_col])).epsilon(1e-9));
      CHECK(row[2] == series[b][phase_col]);
      const bool theta = k < 18;
      const size_t bin = theta ? k : k - 18;
      CHECK(row[3] == (theta ? "theta" : "psi"));
      CHECK(std::stod(row[4]) == 5.0 * static_cast<double>(bin));
      CHECK(std::stod(row[5]) == 5.0 * static_cast<double>(bin + 1));
      const double fraction = std::stod(row[6]);
      CHECK(fraction * 2.0 == Approx(std::stod(row[7])).margin(1e-12));
      (theta ? theta_sum : psi_sum) += fraction;
    }
    CHECK(theta_sum == Approx(1.0).epsilon(1e-9));
    CHECK(psi_sum == Approx(1.0).epsilon(1e-9));
  }
  // Both phases appear.
  CHECK(series.front()[phase_col] == "0");
  CHECK(series.back()[phase_col] == "1");

  // Step 0, before any motion: the bins worked out above.
  std::map<std::pair<std::string, int>, double> first;
  for (size_t k = 0; k < block; ++k) first[{rows[k][3], std::stoi(rows[k][4])}] = std::stod(rows[k][6]);
  CHECK(rows[0][0] == "0");
  CHECK(std::floor(std::asin(0.3) / kDeg / 5.0) == 3.0);  // psi = 17.46 deg lies in 15-20
  CHECK(first[{"theta", 85}] == 0.5);
  CHECK(first[{"theta", 60}] == 0.5);
  CHECK(first[{"psi", 15}] == 0.5);
  CHECK(first[{"psi", 0}] == 0.5);

  // The end summary: the means over the final state (the grains have turned a little by then).
  CHECK_THAT(r.output, Catch::Contains("over the 2 particles with a moment"));
}

TEST_CASE("an unwritable --angles path exits 4, --angles is refused in a sweep", "[runner][angles]") {
  Workdir dir;
  const std::string two = preset_argument("two-dipoles.json");
  check_exit(dir, two + " --steps 2 --quiet --angles missing/dir/a.csv", 4,
             {"cannot write the angle distributions to missing/dir/a.csv"});
  check_exit(dir, two + " --sweep field.strength=1mT,2mT --sweep-dir runs --angles a.csv", 1, {"--angles"});
}
