// lodestone-run and [Erokhin-Berkov]'s reduced units (App. B; engine/analysis/reduced_units.hpp): what --check prints,
// and the reduced_time column of the time series.

#include "../test_process.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace lodestone::test::runner_tests;

namespace {

// Two Sr-ferrite grains of R = 0.5 um on a floor, overdamped ([Erokhin-Berkov]'s material and damping):
// t_char = 20 / (1.8e11 x 0.5e-6) = 2.222e-4 s.
const char* kTwoGrains = R"({
  "version": 1,
  "materials": [{"name": "grain", "density": "5.1 g/cm^3", "youngs_modulus": "1.8e11 Pa", "poisson_ratio": 0.28,
                 "magnetization": "380 G", "moment_model": "stoner_wohlfarth", "anisotropy": "3.5e6 erg/cm^3"}],
  "contact": {"law": "hertz_coulomb"},
  "magnetics": {"method": "off"},
  "field": {"strength": "10 kOe"},
  "environment": {"gravity": [0, 0, "-2e10 m/s^2"], "translational_damping": "20 N s/m",
                  "rotational_damping": "20 N s/m"},
  "box": {"min": ["0 um", "0 um", "0 um"], "max": ["5 um", "5 um", "5 um"]},
  "integrator": {"scheme": "overdamped_heun", "time_step": "0.05 ms"},
  "particles": {"kind": "list", "particles": [{"position": ["1 um", "1 um", "0.6 um"], "radius": "0.5 um"},
                                              {"position": ["3 um", "3 um", "0.7 um"], "radius": "0.5 um"}]}
})";

// The CSV as a header and rows of text fields (empty fields kept).
std::vector<std::vector<std::string>> read_rows(const fs::path& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) {
    if (rows.empty() && line.rfind('#', 0) == 0) continue;  // the writer's version before the header
    std::vector<std::string> fields(1);
    for (char c : line)
      if (c == ',')
        fields.emplace_back();
      else
        fields.back().push_back(c);
    rows.push_back(fields);
  }
  return rows;
}

size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (size_t k = 0; k < header.size(); ++k)
    if (header[k] == name) return k;
  FAIL("no column " << name);
  return 0;
}

}  // namespace

TEST_CASE("option --check prints Erokhin-Berkov's reduced units for each phase of the powder preset",
          "[runner][reduced]") {
  Workdir dir;
  const Result r = dir.run(preset_argument("powder-alignment.json") + " --check");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("reduced units ([Erokhin-Berkov] App. B)") &&
                           Catch::Contains("t_char = gamma / (E R_av)"));
  // The alignment phase: the paper's t_char (2.2e-4 s for R_av = 0.5 um; the generated grains
  // average a little less), g = 9.81 m/s^2, P = 0.5 atm, K, h = 40 kOe / 18.42 kOe.
  std::smatch m;
  const std::regex line(
      R"(phase 4 alignment +t_char (\S+) s  g~ (\S+)  p~ (\S+)  K~ (\S+)  h (\S+)  gamma\*/gamma (\S+))");
  REQUIRE(std::regex_search(r.output, m, line));
  CHECK(std::stod(m[1]) == Approx(2.2e-4).epsilon(0.03));
  CHECK(std::stod(m[2]) == Approx(5.8e-13).epsilon(0.03));
  CHECK(std::stod(m[3]) == Approx(8.842e-7).epsilon(1e-3));
  CHECK(std::stod(m[4]) == Approx(1.629e-5).epsilon(1e-3));
  CHECK(std::stod(m[5]) == Approx(2.171).epsilon(1e-3));
  CHECK(std::stod(m[6]) == 1.0);
  // The drop phase's strong gravity (2e10 m/s^2) is g~ ~ 1e-3.
  CHECK(std::regex_search(r.output, std::regex(R"(phase 2 drop +t_char \S+ s  g~ 0\.001)")));
}

TEST_CASE("option --check says why reduced units are not defined", "[runner][reduced]") {
  Workdir dir;
  const Result r = dir.run(preset_argument("two-dipoles.json") + " --check");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output,
             Catch::Contains("reduced units ([Erokhin-Berkov] App. B): not defined") && Catch::Contains("overdamped"));
  const Result run = dir.run(preset_argument("two-dipoles.json") + " --steps 2 --table 0");
  CHECK_THAT(run.output, !Catch::Contains("reduced units"));  // an ordinary run is not cluttered with it
}

TEST_CASE("the time series has reduced_time = time / t_char, empty when not defined", "[runner][reduced]") {
  Workdir dir;
  write_file(dir.path() / "grains.json", kTwoGrains);
  REQUIRE(dir.run("grains.json --steps 20 --series-every 5 --series s.csv --quiet --table 0").code == 0);
  const auto rows = read_rows(dir.path() / "s.csv");
  REQUIRE(rows.size() == 6);  // header, steps 0, 5, ..., 20
  const size_t time = column(rows[0], "time"), reduced = column(rows[0], "reduced_time");
  const double t_char = 20.0 / (1.8e11 * 0.5e-6);
  for (size_t k = 1; k < rows.size(); ++k) {
    REQUIRE(rows[k].size() == rows[0].size());
    CHECK(std::stod(rows[k][reduced]) == Approx(std::stod(rows[k][time]) / t_char).epsilon(1e-9));
  }
  CHECK(std::stod(rows.back()[reduced]) == Approx(20 * 0.05e-3 / t_char).epsilon(1e-9));  // 4.5

  REQUIRE(dir.run(preset_argument("two-dipoles.json") + " --steps 4 --series-every 2 --series d.csv --quiet --table 0")
              .code == 0);
  const auto plain = read_rows(dir.path() / "d.csv");
  REQUIRE(plain.size() == 4);  // header, steps 0, 2, 4
  const size_t empty = column(plain[0], "reduced_time");
  for (size_t k = 1; k < plain.size(); ++k) {
    REQUIRE(plain[k].size() == plain[0].size());
    CHECK(plain[k][empty].empty());
  }
}
