// lodestone-run's --set PATH=VALUE (preset values overridden for one run) and --version of the programs.

#include "../test_process.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

using namespace lodestone::test::runner_tests;
namespace test = lodestone::test;

namespace {

nlohmann::json read_json(const Workdir& dir, const std::string& name) {
  return nlohmann::json::parse(read_file(dir.path() / name));
}

}  // namespace

TEST_CASE("option --set overrides preset values for the run, with units, later ones winning", "[runner][set]") {
  Workdir dir;
  const Result saved =
      dir.run(preset_argument("two-dipoles.json") +
              " --set field.strength=10mT --set materials.0.friction=0.3 --set 'field.direction=[1,0,0]'"
              " --set field.strength='40 mT' --save-preset overridden.json");
  REQUIRE(saved.code == 0);
  const nlohmann::json preset = read_json(dir, "overridden.json");
  CHECK(preset["field"]["strength"].get<double>() == 0.04);
  CHECK(preset["field"]["direction"] == nlohmann::json::array({1.0, 0.0, 0.0}));
  CHECK(preset["materials"][0]["friction"].get<double>() == 0.3);

  // The run with the overrides is the run of the preset holding those values, to the last digit.
  REQUIRE(dir.run(preset_argument("two-dipoles.json") +
                  " --set field.strength=40mT --set materials.0.friction=0.3 --set 'field.direction=[1,0,0]'"
                  " --steps 60 --series-every 20 --series set.csv --threads 1 --quiet")
              .code == 0);
  REQUIRE(dir.run("overridden.json --steps 60 --series-every 20 --series file.csv --threads 1 --quiet").code == 0);
  CHECK(read_file(dir.path() / "set.csv") == read_file(dir.path() / "file.csv"));
}

TEST_CASE("option --set reads a bare number in the preset's unit system, as the file and a sweep do", "[runner][set]") {
  // two-dipoles-lj.json is in reduced units (units.system "lj"): a field of 0.5 there is 0.5 of its field unit,
  // sqrt(mu0 epsilon / (4 pi sigma^3)) = 44.72 mT, i.e. 22.36 mT; it was read as 0.5 T (issue 42).
  Workdir dir;
  const Result checked = dir.run(preset_argument("two-dipoles-lj.json") + " --set field.strength=0.5 --check");
  REQUIRE(checked.code == 0);
  // The summary speaks the preset's units first, then SI (or the display unit); no word of [Erokhin-Berkov]'s App. B
  // scaling, another kind of reduced units that a reader would take for these.
  CHECK(checked.output.find("field constant, 0.5 (lj) = 22.36 mT") != std::string::npos);
  CHECK(checked.output.find(" (lj) = 1.41") != std::string::npos);  // the time step: 0.003162 tau = 1.414e-06 s
  CHECK(checked.output.find("Erokhin-Berkov") == std::string::npos);
  // A unit typed with the value means that unit, whatever the preset's system.
  const Result typed = dir.run(preset_argument("two-dipoles-lj.json") + " --set field.strength=40mT --check");
  REQUIRE(typed.code == 0);
  CHECK(typed.output.find("40 mT") != std::string::npos);
  // The preset saved with the override holds the number as typed, in its own units.
  REQUIRE(dir.run(preset_argument("two-dipoles-lj.json") + " --set field.strength=0.5 --save-preset lj.json").code ==
          0);
  const nlohmann::json saved = read_json(dir, "lj.json");
  CHECK(std::abs(saved["field"]["strength"].get<double>() - 0.5) < 1e-12);
  // And the run with the override is the run of that file, to the last digit.
  REQUIRE(dir.run(preset_argument("two-dipoles-lj.json") +
                  " --set field.strength=0.5 --steps 60 --series-every 20 --series set.csv --threads 1 --quiet")
              .code == 0);
  REQUIRE(dir.run("lj.json --steps 60 --series-every 20 --series file.csv --threads 1 --quiet").code == 0);
  CHECK(read_file(dir.path() / "set.csv") == read_file(dir.path() / "file.csv"));
}

TEST_CASE("option --set with a bad value exits 2 with the preset loader's message", "[runner][set]") {
  Workdir dir;
  check_exit(dir, preset_argument("two-dipoles.json") + " --set field.strength=40furlongs --check", 2,
             {"$.field.strength", "furlongs", "--set"});
  check_exit(dir, preset_argument("two-dipoles.json") + " --set materials.0.density=-5 --check", 2,
             {"$.materials[0].density"});
  // The message names the keys that are there.
  check_exit(dir, preset_argument("two-dipoles.json") + " --set field.strenght=1 --check", 2,
             {"--set field.strenght", "strength"});
}

TEST_CASE("option --set refuses what is not PATH=VALUE, and a restart", "[runner][set]") {
  Workdir dir;
  check_exit(dir, preset_argument("two-dipoles.json") + " --set field.strength --check", 1, {"PATH=VALUE"});
  write_file(dir.path() / "some.ckpt", "refused before it is read");
  check_exit(dir, "--restart some.ckpt --set field.strength=1mT", 1, {"--set cannot be used with --restart"});
}

TEST_CASE("option --version of every program prints the project version", "[runner][version]") {
  for (const char* program : {LODESTONE_RUNNER, LODESTONE_CAPTURE, LODESTONE_SW_CURVES}) {
    test::Workdir dir(program);
    const Result r = dir.run("--version");
    CHECK(r.code == 0);
    CHECK_THAT(r.output, Catch::Contains(LODESTONE_VERSION));
    CHECK_THAT(r.output, Catch::Contains("GPL-3.0-or-later") && Catch::Contains("CITATION.cff"));
  }
}

TEST_CASE("the repository carries its licence and a citation file of the project's version", "[runner][version]") {
  const std::string license = read_file(std::filesystem::path(LODESTONE_SOURCE_DIR) / "LICENSE");
  CHECK(license.find("GNU GENERAL PUBLIC LICENSE") != std::string::npos);
  CHECK(license.find("Version 3, 29 June 2007") != std::string::npos);
  const std::string citation = read_file(std::filesystem::path(LODESTONE_SOURCE_DIR) / "CITATION.cff");
  CHECK(citation.find("cff-version: 1.2.0") != std::string::npos);
  CHECK(citation.find("license: GPL-3.0-or-later") != std::string::npos);
  // A release bumps project(VERSION) and this line together.
  CHECK(citation.find(std::string("\nversion: \"") + LODESTONE_VERSION + "\"\n") != std::string::npos);
}

TEST_CASE("option --set is refused in a sweep, saying to sweep the key with one value instead", "[runner][set]") {
  Workdir dir;
  const Result r = dir.run(preset_argument("two-dipoles.json") +
                           " --sweep field.strength=1mT,2mT --set materials.0.friction=0.3 --sweep-dir sweep");
  CHECK(r.code == 1);
  CHECK_THAT(r.output, Catch::Contains("--set cannot be used with --sweep") && Catch::Contains("--sweep PATH=VALUE"));
}
