// lodestone-capture (app/runner/capture_main.cpp): the CSV it writes, the numbers it prints, and its
// exit codes for bad arguments and unwritable outputs.

#include "../test_process.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using lodestone::test::CaptureWorkdir;
using lodestone::test::read_file;
using lodestone::test::Result;

namespace {

std::vector<std::vector<std::string>> read_capture_rows(const fs::path& path) {
  std::istringstream in(read_file(path));
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# written by Lodestone", 0) == 0) continue;  // the writer's line (docs/outputs.md)
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string f; std::getline(cells, f, ',');) fields.push_back(f);
    rows.push_back(fields);
  }
  return rows;
}

}  // namespace

TEST_CASE("lodestone-capture: a small map, its CSV and the cross sections", "[capture]") {
  CaptureWorkdir w;
  // No spins: the head-on cell always collides, the one at 1.5 b_max never (the map of the reproduction
  // shows the edge at 0.97 b_max for this start distance).
  const Result r = w.run("--speeds 1,3 --b-list 0,1.5 --runs 3 --spin none --jobs 2 -q -o map.csv --summary s.csv");
  REQUIRE(r.code == 0);
  const auto rows = read_capture_rows(w.path() / "map.csv");
  REQUIRE(rows.size() == 5);
  const std::vector<std::string> head(rows[0].begin(), rows[0].begin() + 7);
  CHECK(head == std::vector<std::string>{"b", "v", "b_over_bmax", "v_over_vth", "runs", "collisions", "probability"});
  for (size_t k = 1; k < rows.size(); ++k) {
    INFO("row " << k);
    CHECK(rows[k][4] == "3");
    const bool head_on = std::stod(rows[k][2]) == 0.0;
    CHECK(std::stod(rows[k][5]) == (head_on ? 3.0 : 0.0));
    CHECK(std::stod(rows[k][6]) == (head_on ? 1.0 : 0.0));
  }
  const auto summary = read_capture_rows(w.path() / "s.csv");
  REQUIRE(summary.size() == 3);
  CHECK(summary[0][0] == "v");
  CHECK(summary[0][4] == "sigma_error");
  CHECK(summary[0][6] == "c");
  CHECK(summary[0][7] == "c_error");
  // No spins and the same start in b_max: the shots at 1 and 3 v_th are the same up to scale, so every
  // repetition gives the same sigma / sigma_m (no error) and the eq. 27 fit has no scatter.
  CHECK(std::stod(summary[1][6]) == Approx(std::stod(summary[2][6])).epsilon(1e-9));
  CHECK(std::stod(summary[1][4]) == 0.0);
  CHECK(rows[0].back() == "probability_error");
  CHECK(std::stod(rows[1].back()) == 0.0);  // P = 0 or 1: no binomial error
  CHECK(r.output.find("Eq. 27 fit over the 2 speeds: c = ") != std::string::npos);
  CHECK(r.output.find("sigma ~ v^-1.333") != std::string::npos);          // eq. 14, exact for scaled shots
  CHECK(r.output.find("b_max at v_th = 403.1 nm") != std::string::npos);  // [Dominik-Nubold] Fig. 2 grains
  CHECK(r.output.find("sigma(v_th)") != std::string::npos);
}

TEST_CASE("lodestone-capture: bad arguments exit 1, unwritable outputs 4", "[capture]") {
  CaptureWorkdir w;
  for (const char* args : {"--runs 0", "--runs -3", "--spin sideways", "--speeds 0", "--speeds 1,-2",
                           "--b-step 2 --b-top 1", "--diameter -20nm", "--diameter 20parsec", "--temperature 0",
                           "--accuracy 0.9", "--jobs 0", "--no-such-option", "surplus"}) {
    const Result r = w.run(std::string(args) + " -q -o map.csv");
    INFO(args);
    CHECK(r.code == 1);
    CHECK_FALSE(fs::exists(w.path() / "map.csv"));
  }
  CHECK(w.run("--help").code == 0);
  CHECK(w.run("--speeds 1 --b-list 0 --runs 1 --spin none -q -o no/such/dir/map.csv").code == 4);
  CHECK(w.run("--speeds 1 --b-list 0 --runs 1 --spin none -q -o map.csv --summary no/such/dir/s.csv").code == 4);
}
