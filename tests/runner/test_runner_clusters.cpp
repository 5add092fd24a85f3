// lodestone-run --clusters: the cluster-size distribution file against the time series, and the
// two fits it prints at the end, recomputed here from the files the run wrote.

#include "../test_process.hpp"
#include "../text_fields.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace lodestone::test::runner_tests;

namespace {

// A CSV file as rows of column name -> number; '#' lines before the header (the writer's version) skipped, and
// empty fields (not defined: reduced_time) left out.
std::vector<std::map<std::string, double>> read_cluster_csv(const fs::path& path) {
  return lodestone::test::csv_numbers(read_file(path), true);
}

// Least-squares slope of ln y against ln x, written out here independently of the engine's fitter.
double log_log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double mu = 0, mv = 0;
  const auto n = static_cast<double>(x.size());
  for (size_t k = 0; k < x.size(); ++k) {
    mu += std::log(x[k]) / n;
    mv += std::log(y[k]) / n;
  }
  double suu = 0, suv = 0;
  for (size_t k = 0; k < x.size(); ++k) {
    suu += (std::log(x[k]) - mu) * (std::log(x[k]) - mu);
    suv += (std::log(x[k]) - mu) * (std::log(y[k]) - mv);
  }
  return suv / suu;
}

}  // namespace

TEST_CASE("option --clusters writes n_s at every series row, consistent with the series columns",
          "[runner][clusters]") {
  // Two dipoles 1 mm apart touch between steps 400 and 500 (0.56-0.71 ms): with 800 steps the
  // join falls in the second half of the run, so S(t) of that half is not constant.
  Workdir dir;
  const Result r = dir.run(preset_argument("two-dipoles.json") +
                           " --steps 800 --series-every 10 --series s.csv --clusters c.csv --quiet --table 0");
  REQUIRE(r.code == 0);
  // The writer first (docs/outputs.md: every output names it), then the header.
  CHECK(read_file(dir.path() / "c.csv").rfind("# written by Lodestone", 0) == 0);
  CHECK(read_file(dir.path() / "c.csv").find("\nstep,time,size,count\n") != std::string::npos);
  const auto series = read_cluster_csv(dir.path() / "s.csv");
  const auto sizes = read_cluster_csv(dir.path() / "c.csv");
  REQUIRE(series.size() == 81);

  // Group n_s by step; every series row has its block, each block accounts for both particles,
  // and eq. 17 computed here from n_s gives the series' mean_cluster_size.
  std::map<long, std::vector<std::pair<double, double>>> by_step;
  std::map<long, double> time_of;
  for (const auto& row : sizes) {
    by_step[std::lround(row.at("step"))].push_back({row.at("size"), row.at("count")});
    time_of[std::lround(row.at("step"))] = row.at("time");
  }
  REQUIRE(by_step.size() == series.size());
  for (const auto& row : series) {
    const long step = std::lround(row.at("step"));
    INFO("step " << step);
    REQUIRE(by_step.count(step) == 1);
    double particles = 0, s2 = 0, clusters = 0, largest = 0;
    for (const auto& [s, n] : by_step[step]) {
      CHECK(n > 0);
      particles += s * n;
      s2 += s * s * n;
      clusters += n;
      largest = std::max(largest, s);
    }
    CHECK(particles == 2);
    CHECK(row.at("mean_cluster_size") == Approx(s2 / particles).epsilon(1e-9));  // %.10g in both files
    CHECK(row.at("clusters") == clusters);
    CHECK(row.at("largest_cluster") == largest);
    CHECK(time_of[step] == Approx(row.at("time")).epsilon(1e-9));
  }
  // Before: two single spheres. After: one chain of two.
  CHECK(series.front().at("clusters") == 2);
  CHECK(series.front().at("chains") == 0);
  CHECK(series.back().at("clusters") == 1);
  CHECK(series.back().at("chains") == 1);
  CHECK(series.back().at("mean_chain_length") == 2);

  // z over the second half: recomputed from the series rows with t >= t_end / 2 (step 400 of 800
  // included: the runner allows for the rounding of a time summed step by step).
  std::vector<double> t, S;
  const double end = series.back().at("time");
  for (const auto& row : series)
    if (row.at("time") >= 0.5 * end * (1.0 - 1e-9)) {
      t.push_back(row.at("time"));
      S.push_back(row.at("mean_cluster_size"));
    }
  REQUIRE(t.size() == 41);    // steps 400, 410, ..., 800
  REQUIRE(S.front() == 1.0);  // the join happens inside the fitted range
  REQUIRE(S.back() == 2.0);
  const double z = log_log_slope(t, S);
  std::smatch m;
  REQUIRE(std::regex_search(r.output, m,
                            std::regex("second half of the run, (\\d+) rows with t from ([0-9.e+-]+) to "
                                       "([0-9.e+-]+) s: z = ([0-9.e+-]+) \\+- ([0-9.e+-]+)")));
  CHECK(std::stoul(m[1]) == t.size());
  CHECK(std::stod(m[2]) == Approx(t.front()).epsilon(1e-5));  // printed with 6 digits
  CHECK(std::stod(m[3]) == Approx(end).epsilon(1e-5));
  CHECK(std::stod(m[4]) == Approx(z).margin(1e-4));  // printed with 4 decimals
  CHECK(std::stod(m[5]) > 0.0);
  CHECK_THAT(r.output, Catch::Contains("Accretional remanence: no fit"));  // one cluster, one size
}

TEST_CASE("option --clusters prints the remanence exponent 1 for aligned chains", "[runner][clusters]") {
  // Chains of 2, 3, 4 and 6 spheres along z with moments along z, spheres overlapping by 5 um;
  // incremental linear contacts (no force at creation), no dipole forces, no gravity: nothing
  // moves, |sum m| = s m exactly ([Dominik-Nubold] eq. 15), and S stays (4 + 9 + 16 + 36) / 15 = 13/3.
  std::string particles;
  const int lengths[] = {2, 3, 4, 6};
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < lengths[c]; ++k) {
      char entry[160];
      std::snprintf(entry, sizeof entry, R"(%s{"position": ["%g mm", "0 mm", "%g mm"], "radius": "0.5 mm"})",
                    particles.empty() ? "" : ", ", -6.0 + 4.0 * c, -3.0 + 0.995 * k);
      particles += entry;
    }
  Workdir dir;
  write_file(dir.path() / "chains.json",
             R"({"version": 1,
                 "materials": [{"name": "m", "magnetization": "100 kA/m"}],
                 "contact": {"law": "linear", "linear": {"lin_mode": 1}},
                 "magnetics": {"method": "off"},
                 "environment": {"gravity": [0, 0, 0]},
                 "box": {"min": ["-10 mm", "-10 mm", "-10 mm"], "max": ["10 mm", "10 mm", "10 mm"]},
                 "particles": {"kind": "list", "particles": [)" +
                 particles + "]}}");
  const Result r = dir.run("chains.json --steps 20 --series-every 5 --clusters c.csv --quiet --table 0");
  REQUIRE(r.code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(r.output, m,
                            std::regex("over the (\\d+) clusters with s >= 2 .*\\(sizes 2 to 6\\): b = ([0-9.e+-]+) "
                                       "\\+- ([0-9.e+-]+), prefactor ([0-9.e+-]+) A m\\^2")));
  CHECK(m[1] == "4");
  CHECK(std::stod(m[2]) == Approx(1.0).margin(1e-4));  // exact data, printed with 4 decimals
  CHECK(std::stod(m[3]) == Approx(0.0).margin(1e-4));
  const double moment = 1e5 * 4.0 / 3.0 * M_PI * std::pow(0.5e-3, 3);  // M V of one sphere
  CHECK(std::stod(m[4]) == Approx(moment).epsilon(1e-3));              // printed with 4 digits
  CHECK_THAT(r.output, Catch::Contains("S = 4.333"));
  CHECK_THAT(r.output, Catch::Contains("z = 0.0000"));  // S constant
  // n_s at each of the 5 rows: sizes 2, 3, 4, 6 once each.
  const auto sizes = read_cluster_csv(dir.path() / "c.csv");
  REQUIRE(sizes.size() == 5 * 4);
  for (size_t k = 0; k < sizes.size(); ++k) {
    CHECK(sizes[k].at("size") == lengths[k % 4]);
    CHECK(sizes[k].at("count") == 1);
  }
}

TEST_CASE("an unwritable --clusters path exits 4, --clusters is refused in a sweep", "[runner][clusters]") {
  Workdir dir;
  const std::string two = preset_argument("two-dipoles.json");
  check_exit(dir, two + " --steps 2 --quiet --clusters missing/dir/c.csv", 4, {"missing/dir/c.csv"});
  check_exit(dir, two + " --sweep field.strength=1mT,2mT --sweep-dir runs --clusters c.csv", 1, {"--clusters"});
}
