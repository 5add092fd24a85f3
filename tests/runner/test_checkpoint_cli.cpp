// lodestone-run's checkpoints as a user meets them: --checkpoint, --restart, --stop-at-phase and a
// preset whose particles come from a checkpoint.

#include "../test_process.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace lodestone::test::runner_tests;

namespace {

// The header and rows of a series ('#' lines before the header, the writer's version, left out).
std::vector<std::string> csv_rows(const std::string& text) {
  std::vector<std::string> rows;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    if (!(rows.empty() && text[start] == '#')) rows.push_back(text.substr(start, end - start));
  return rows;
}

}  // namespace

TEST_CASE("a restarted run writes the same time series as the run that never stopped", "[runner][checkpoint]") {
  Workdir dir;
  REQUIRE(dir.run(preset_argument("default.json") + " --steps 400 --series-every 50 --series whole.csv --quiet").code ==
          0);
  const auto first = dir.run(preset_argument("default.json") + " --steps 200 --checkpoint half.ckpt");
  REQUIRE(first.code == 0);
  CHECK(first.output.find("checkpoint: half.ckpt (step 200") != std::string::npos);
  const auto second = dir.run("--restart half.ckpt --steps 200 --series-every 50 --series rest.csv --quiet");
  INFO(second.output);
  REQUIRE(second.code == 0);

  const auto whole = csv_rows(read_file(dir.path() / "whole.csv"));
  const auto rest = csv_rows(read_file(dir.path() / "rest.csv"));
  REQUIRE(whole.size() == 10);  // header, steps 0, 50, ..., 400
  REQUIRE(rest.size() == 6);    // header, steps 200, 250, ..., 400
  CHECK(rest[0] == whole[0]);
  for (size_t k = 1; k < rest.size(); ++k) CHECK(rest[k] == whole[k + 4]);  // the same text, digit for digit
}

TEST_CASE(
    "stopping at a phase (--stop-at-stage, the older name of --stop-at-phase) saves a prepared state that a preset "
    "continues with other parameters",
    "[runner][checkpoint]") {
  Workdir dir;
  // A small version of the powder preset: 60 grains, short phases.
  const std::string base = read_file(preset_path("powder-alignment.json"));
  std::string text = base;
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  };
  replace("\"count\": 1000", "\"count\": 60");
  replace("\"max\": [\"10 um\", \"10 um\", \"30 um\"]", "\"max\": [\"4 um\", \"4 um\", \"12 um\"]");
  replace("\"duration\": \"20 s\"", "\"duration\": \"0.2 s\"");
  replace("\"duration\": \"5 s\"", "\"duration\": \"0.1 s\"");
  replace("\"duration\": \"150 s\"", "\"duration\": \"0.05 s\"");
  write_file(dir.path() / "small.json", text);

  const auto prepare = dir.run("small.json --table 0 --stop-at-stage alignment --checkpoint packed.ckpt");
  INFO(prepare.output);
  REQUIRE(prepare.code == 0);
  CHECK(prepare.output.find("stopped as phase 4/4 alignment began") != std::string::npos);

  // The same preset at a weaker field, continuing the packing: a relative path is found next to the preset.
  fs::create_directory(dir.path() / "sub");
  std::string continued = text;
  const size_t at = continued.find("\"kind\": \"random\"");
  REQUIRE(at != std::string::npos);
  continued.replace(at, 16, "\"kind\": \"checkpoint\", \"file\": \"../packed.ckpt\"");
  const size_t field = continued.rfind("\"field.strength\": \"40 kOe\"");
  REQUIRE(field != std::string::npos);
  continued.replace(field, 26, "\"field.strength\": \"10 kOe\"");
  write_file(dir.path() / "sub" / "weaker.json", continued);
  const auto run = dir.run("sub/weaker.json --table 0 --series weaker.csv");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto rows = csv_rows(read_file(dir.path() / "weaker.csv"));
  REQUIRE(rows.size() > 2);
  // It starts where the packing stopped (phase index 3, the alignment), not at t = 0.
  CHECK(rows[1].rfind("0,", 0) != 0);
  CHECK(run.output.find("protocol done") != std::string::npos);

  // Bad uses are refused with the reason.
  CHECK(
      dir.run("small.json --stop-at-phase nonsense").output.find("no such phase; the phases are 1 'overlap removal'") !=
      std::string::npos);
  CHECK(dir.run("--restart packed.ckpt --dt 1ms").code == 1);
  write_file(dir.path() / "broken.ckpt", "LODESTONE-CHECKPOINT\nxx");
  const auto broken = dir.run("--restart broken.ckpt");
  CHECK(broken.code == 2);
  CHECK(broken.output.find("bad checkpoint") != std::string::npos);
  CHECK(dir.run("small.json --steps 3 --checkpoint /nonexistent-dir/x.ckpt").code == 4);
}
