// lodestone-run and Brownian motion (environment.temperature): what --check prints ([Dominik-Nubold]'s lambda
// and R_m, eqs. 1-2), and the refusal of a temperature without damping.

#include "../test_process.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <string>

using namespace lodestone::test::runner_tests;

namespace {

// [Dominik-Nubold] Fig. 2's grains: two iron spheres of 20 nm carrying 200 A m^2/kg (6.593e-18 A m^2) at 100 K:
// lambda = 393.6, R_m = 293.1 nm = 14.66 d (tests/engine/step/test_thermal.cpp works them out by hand).
std::string iron_grains(const std::string& temperature, const std::string& damping) {
  return R"({
  "version": 1,
  "units": {"length": "nm"},
  "materials": [{"name": "iron", "density": "7870 kg/m^3"}],
  "magnetics": {"method": "direct"},
  "environment": {"temperature": ")" +
         temperature + R"(", "translational_damping": )" + damping + R"(, "rotational_damping": )" + damping +
         R"(},
  "box": {"min": ["-1 um", "-1 um", "-1 um"], "max": ["1 um", "1 um", "1 um"]},
  "integrator": {"time_step": 1e-12},
  "particles": {"kind": "list", "particles": [
    {"position": ["-100 nm", "0 nm", "0 nm"], "radius": "10 nm", "moment": 6.593155782e-18},
    {"position": ["100 nm", "0 nm", "0 nm"], "radius": "10 nm", "moment": 6.593155782e-18}]}
})";
}

}  // namespace

TEST_CASE("option --check prints Dominik-Nubold's lambda and R_m when the temperature is above zero",
          "[runner][thermal]") {
  Workdir dir;
  write_file(dir.path() / "iron.json", iron_grains("100 K", "1e-12"));
  const Result r = dir.run("iron.json --check");
  INFO(r.output);
  REQUIRE(r.code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(r.output, m,
                            std::regex(R"(lambda = mu0 mu\^2 / \(4 pi d\^3 kT\) = (\S+) \(eq\. 1\), )"
                                       R"(R_m = \(2 mu0 mu\^2 / \(pi kT\)\)\^\(1/3\) = (\S+) nm = (\S+) d)")));
  CHECK(std::stod(m[1]) == Approx(393.6).epsilon(1e-3));
  CHECK(std::stod(m[2]) == Approx(293.1).epsilon(1e-3));
  CHECK(std::stod(m[3]) == Approx(14.66).epsilon(1e-3));
  CHECK_THAT(r.output, Catch::Contains("temperature 100 K") && Catch::Contains("mean diameter d = 20 nm"));

  write_file(dir.path() / "cold.json", iron_grains("0 K", "1e-12"));
  CHECK_THAT(dir.run("cold.json --check").output, !Catch::Contains("lambda"));
}

TEST_CASE("a temperature without damping exits 2 naming environment.temperature", "[runner][thermal]") {
  Workdir dir;
  write_file(dir.path() / "iron.json", iron_grains("100 K", "0"));
  const Result r = dir.run("iron.json --check");
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Catch::Contains("environment.temperature") && Catch::Contains("damping"));
}
