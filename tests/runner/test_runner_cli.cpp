#include <catch2/catch.hpp>
// lodestone-run as a user meets it: options, exit codes, messages, and the files it writes.
// Each test starts the binary (LODESTONE_RUNNER) in a fresh temporary directory.

#include "../test_process.hpp"
#include "../text_fields.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace lodestone::test::runner_tests;
using lodestone::test::lines_of;
using lodestone::test::split;
using lodestone::test::words;

TEST_CASE("option --help exits 0 and documents the options and the exit codes", "[runner]") {
  Workdir dir;
  const Result r = dir.run("--help");
  CHECK(r.code == 0);
  for (const char* option :
       {"PRESET", "--steps", "--time", "--dt", "--series", "--series-every", "--frames", "--frames-every", "--table",
        "--quiet", "--progress-every", "--check", "--save-preset", "--preset-docs"})
    CHECK_THAT(r.output, Catch::Contains(option));
  CHECK_THAT(r.output, Catch::Contains("Exit codes"));
  for (const char* code : {"0 done", "1 bad command-line arguments", "2 bad preset", "3 the simulation stopped",
                           "4 an output file could not be written"})
    CHECK_THAT(r.output, Catch::Contains(code));
  CHECK_THAT(r.output, Catch::Contains("names the JSON path"));
  CHECK_THAT(r.output, Catch::Contains("names the particle"));
}

TEST_CASE("bad command-line arguments exit 1 with a message", "[runner]") {
  Workdir dir;
  check_exit(dir, "--bogus-option", 1, {"--bogus-option", "--help"});
  check_exit(dir, "no-such-preset.json --check", 1, {"no-such-preset.json"});
  check_exit(dir, preset_argument("two-dipoles.json") + " --steps 0", 1);
  check_exit(dir, preset_argument("two-dipoles.json") + " --steps 5 --time 1ms", 1);
  check_exit(dir, preset_argument("two-dipoles.json") + " --dt fast", 1, {"fast"});
}

TEST_CASE("a preset with a bad value exits 2 and the message names the file and the JSON path", "[runner]") {
  Workdir dir;
  write_file(dir.path() / "bad.json", R"({"version": 1, "materials": [{"name": "a", "poisson_ratio": 0.6}]})");
  check_exit(dir, "bad.json --check", 2, {"bad.json", "$.materials[0].poisson_ratio", "[-1, 0.5)"});

  write_file(dir.path() / "unit.json", R"({"version": 1, "box": {"max": ["3 parsecs", 0.01, 0.01]}})");
  check_exit(dir, "unit.json --steps 1", 2, {"$.box.max[0]", "parsecs"});

  write_file(dir.path() / "broken.json", "{\n  \"version\": 1,\n  \"box\": {\n}\n");
  check_exit(dir, "broken.json --check", 2, {"broken.json", "line"});

  // A scene the generator cannot build is a bad preset too.
  write_file(dir.path() / "full.json",
             R"({"version": 1, "particles": {"count": 5, "diameter": "1 mm", "max_attempts": 20},
                 "box": {"max": ["1 mm", "1 mm", "1 mm"]}})");
  check_exit(dir, "full.json --check", 2, {"$.particles.count"});
}

TEST_CASE("a number too large for a double in a preset exits 2, not with a crash", "[runner]") {
  Workdir dir;
  write_file(dir.path() / "huge.json", R"({"version": 1, "materials": [{"name": "a", "density": 1e400}]})");
  const Result r = check_exit(dir, "huge.json --check", 2, {"huge.json"});
  CHECK_THAT(r.output, !Catch::Contains("terminate called"));
}

TEST_CASE("option --check accepts every preset in presets/", "[runner]") {
  Workdir dir;
  const auto files = preset_files();
  REQUIRE(files.size() >= 4);
  for (const auto& file : files) {
    const Result r = dir.run(quoted(file.string()) + " --check");
    CHECK(r.code == 0);
    CHECK_THAT(r.output, Catch::Contains("Lodestone: " + file.string()));
    CHECK_THAT(r.output, Catch::Contains("time step"));
    CHECK_THAT(r.output, !Catch::Contains("WARNING"));
  }
  CHECK(fs::is_empty(dir.path()));  // --check writes nothing
}

TEST_CASE("a short run writes the CSV time series and extended-XYZ frames from step 0", "[runner]") {
  Workdir dir;
  const Result r = dir.run(preset_argument("two-dipoles.json") +
                           " --steps 40 --series out.csv --series-every 10 --frames out.xyz "
                           "--frames-every 20 --quiet");
  REQUIRE(r.code == 0);

  // CSV: the writer's version, a header and one row per 10 steps, step 0 included.
  CHECK_THAT(read_file(dir.path() / "out.csv"), Catch::StartsWith("# written by Lodestone "));
  const auto csv = lodestone::test::csv_lines(read_file(dir.path() / "out.csv"));
  REQUIRE(csv.size() == 6);
  const auto header = split(csv[0], ',');
  CHECK(header.size() > 10);
  CHECK(header[0] == "step");
  CHECK(header[1] == "time");
  for (size_t k = 1; k < csv.size(); ++k) {
    INFO("row " << csv[k]);
    const auto fields = split(csv[k], ',');
    CHECK(fields.size() == header.size());
    CHECK(fields[0] == std::to_string(10 * (k - 1)));
    for (const auto& f : fields) CHECK(std::isfinite(std::strtod(f.c_str(), nullptr)));
  }

  // Extended XYZ: frames at steps 0, 20, 40; each a count line, a comment line, N particle lines.
  const auto xyz = lines_of(read_file(dir.path() / "out.xyz"));
  REQUIRE(xyz.size() == 3 * (2 + 2));
  for (int frame = 0; frame < 3; ++frame) {
    const size_t at = static_cast<size_t>(frame) * 4;
    INFO("frame " << frame << ": " << xyz[at + 1]);
    CHECK(xyz[at] == "2");
    CHECK_THAT(xyz[at + 1], Catch::Contains(" Step=" + std::to_string(20 * frame)));
    CHECK_THAT(xyz[at + 1], Catch::Contains("Properties=id:I:1:radius:R:1:pos:R:3:"));
    CHECK_THAT(xyz[at + 1], Catch::Contains(":orientation:R:4:"));
    CHECK_THAT(xyz[at + 1], Catch::Contains("Lattice=\""));
    // Columns: id 1, radius 1, pos 3, velo 3, orientation 4, easy_axis 3, moment 3, force 3, torque 3, image 3.
    for (size_t p = 0; p < 2; ++p) {
      const auto w = words(xyz[at + 2 + p]);
      INFO("particle line " << xyz[at + 2 + p]);
      REQUIRE(w.size() == 27);
      CHECK(w[0] == std::to_string(p));
      double q2 = 0.0;
      for (int c = 8; c < 12; ++c) q2 += std::pow(std::strtod(w[static_cast<size_t>(c)].c_str(), nullptr), 2);
      CHECK(std::abs(q2 - 1.0) < 1e-9);
    }
  }
  CHECK_THAT(xyz[1], Catch::Contains("Time=0 "));
  // Step 0 is before any motion: the positions and velocities of the preset.
  const auto first = words(xyz[2]);
  CHECK(std::strtod(first[4].c_str(), nullptr) == Approx(-0.001).epsilon(1e-12));
  CHECK(std::strtod(first[7].c_str(), nullptr) == 0.0);
  const auto later = words(xyz[4 + 2]);
  CHECK(std::strtod(later[7].c_str(), nullptr) > 0.0);  // particle 0 moves up towards particle 1
}

TEST_CASE("a run with an absurd time step exits 3 and names the particle", "[runner]") {
  Workdir dir;
  SECTION("1 ms: the collision overlaps the spheres") {
    const Result r = dir.run(preset_argument("two-dipoles.json") + " --dt 1e-3 --steps 50 --quiet --table 0");
    CHECK(r.code == 3);
    CHECK_THAT(r.output, Catch::Contains("simulation stopped"));
    CHECK(std::regex_search(r.output, std::regex("particle [01] ")));
  }
  SECTION("10 ms: the spheres jump through each other in one step") {
    // 10 ms is 7000 times the suggested step: the run is meaningless (energy grows by orders of
    // magnitude), so it must not finish with exit 0.
    const Result r = dir.run(preset_argument("two-dipoles.json") + " --dt 1e-2 --steps 50 --quiet --table 0");
    CHECK(r.code == 3);
    CHECK(std::regex_search(r.output, std::regex("particle [01] ")));
  }
}

TEST_CASE("option --save-preset writes a preset that --check accepts", "[runner]") {
  Workdir dir;
  const Result r = dir.run(preset_argument("chains-suspension.json") + " --save-preset saved.json");
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("saved.json"));
  REQUIRE(fs::is_regular_file(dir.path() / "saved.json"));
  const std::string saved = read_file(dir.path() / "saved.json");
  CHECK_THAT(saved, Catch::Contains("\"version\": 1"));
  CHECK_THAT(saved, Catch::Contains("\"density\": 5000.0"));  // every key in SI
  const Result c = dir.run("saved.json --check");
  CHECK(c.code == 0);
  // The --dt override is part of what is saved.
  const Result d = dir.run(preset_argument("two-dipoles.json") + " --dt 2us --save-preset dt.json");
  CHECK(d.code == 0);
  CHECK_THAT(read_file(dir.path() / "dt.json"), Catch::Contains("\"time_step\": 2e-06"));
  CHECK(dir.run("dt.json --check").code == 0);
  // Nothing else (no temporary file) is left in the directory.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"dt.json", "saved.json"});
}

TEST_CASE("an unwritable output path exits 4", "[runner]") {
  Workdir dir;
  fs::create_directory(dir.path() / "a-directory");
  check_exit(dir, preset_argument("two-dipoles.json") + " --steps 2 --quiet --series a-directory", 4, {"a-directory"});
  check_exit(dir, preset_argument("two-dipoles.json") + " --steps 2 --quiet --frames missing/dir/out.xyz", 4,
             {"missing/dir/out.xyz"});
}

TEST_CASE("without a preset the built-in default scene runs", "[runner]") {
  Workdir dir;
  const std::string text = read_file(preset_path("default.json"));
  std::smatch m;
  REQUIRE(std::regex_search(text, m, std::regex("\"description\": \"([^\"]+)\"")));
  const std::string description = m[1];
  const Result r = dir.run("--steps 2 --table 0");  // the summary: not with --quiet
  CHECK(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("built-in default preset"));
  CHECK_THAT(r.output, Catch::Contains(description));
  CHECK_THAT(r.output, Catch::Contains("300 particles"));
}

TEST_CASE("the summary table has one row per table interval and the final state once", "[runner]") {
  // 41 steps in 4 rows: rows at steps 0, 10, 20, 30, 40 and the final step 41, each once.
  Workdir dir;
  const Result r = dir.run(preset_argument("two-dipoles.json") + " --steps 41 --table 4 --quiet");
  REQUIRE(r.code == 0);
  std::vector<std::string> steps;
  bool in_table = false;  // rows follow the header line
  for (const auto& line : lines_of(r.output)) {
    const auto w = words(line);
    if (in_table && w.size() == 8 && std::regex_match(w[0], std::regex("\\d+"))) steps.push_back(w[0]);
    in_table = in_table || line.find("time [s]") != std::string::npos;
  }
  CHECK(steps == std::vector<std::string>{"0", "10", "20", "30", "40", "41"});
}

namespace {
// The output's lines that are not blank.
std::vector<std::string> printed_lines(const std::string& output) {
  std::vector<std::string> lines;
  for (const auto& line : lines_of(output))
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
  return lines;
}
}  // namespace

TEST_CASE("option --quiet prints nothing but errors, warnings and what was asked for (issue 42)", "[runner]") {
  Workdir dir;
  const std::string two = preset_argument("two-dipoles.json");
  // A plain run, one that writes files, one that saves a preset: nothing at all (stdout and stderr).
  const Result plain = dir.run(two + " --steps 20 -q");
  CHECK(plain.code == 0);
  CHECK(plain.output.empty());
  CHECK(dir.run(two + " --steps 20 --quiet --series s.csv --checkpoint c.ckpt --table 0").output.empty());
  CHECK(fs::is_regular_file(dir.path() / "c.ckpt"));
  CHECK(dir.run(two + " --quiet --save-preset saved.json").output.empty());
  CHECK(fs::is_regular_file(dir.path() / "saved.json"));

  // What was asked for: the timing line (--timing), the hash, an explicit table, --check's report.
  const Result timing = dir.run(two + " --steps 20 -q --timing");
  const auto timing_lines = printed_lines(timing.output);
  REQUIRE(timing_lines.size() == 1);
  CHECK_THAT(timing_lines[0], Catch::StartsWith("Time per step ") && Catch::Contains("us:"));
  // The session's own work after each step counts in the step's time (Simulation::run_after_step).
  CHECK_THAT(timing_lines[0], Catch::Contains("checks ") && Catch::Contains("protocol, alignment "));
  const auto hash = printed_lines(dir.run(two + " --steps 20 -q --hash").output);
  REQUIRE(hash.size() == 1);
  CHECK(std::regex_match(hash[0], std::regex("hash [0-9a-f]+")));
  const auto table = printed_lines(dir.run(two + " --steps 20 -q --table 2").output);
  REQUIRE(table.size() == 4);  // the header, steps 0, 10, 20
  CHECK_THAT(table[0], Catch::Contains("time [s]"));
  const Result check = dir.run(two + " -q --check");
  CHECK(check.code == 0);
  CHECK_THAT(check.output, Catch::Contains("Lodestone: ") && Catch::Contains("time step"));

  // Errors and warnings still come, on stderr.
  const Result stopped = dir.run(two + " --dt 1e-3 --steps 50 -q");
  CHECK(stopped.code == 3);
  const auto error = printed_lines(stopped.output);
  REQUIRE(error.size() == 2);
  CHECK_THAT(error[0], Catch::StartsWith("lodestone-run: warning: the time step 0.001 s is above the suggested"));
  CHECK_THAT(error[1], Catch::StartsWith("lodestone-run: simulation stopped: "));
  const Result stdout_only =
      lodestone::test::run_shell("cd " + quoted(dir.path().string()) + " && " + quoted(LODESTONE_RUNNER) + " " + two +
                                 " --dt 1e-3 --steps 50 -q 2>/dev/null");
  CHECK(stdout_only.code == 3);
  CHECK(stdout_only.output.empty());
  const Result warned = dir.run(two + " --dt 2us --steps 5 -q");
  CHECK(warned.code == 0);
  const auto warning = printed_lines(warned.output);
  REQUIRE(warning.size() == 1);
  CHECK_THAT(warning[0], Catch::StartsWith("lodestone-run: warning: the time step 2e-06 s is above the suggested"));
}

namespace {

// Workload (a) at 10 000 particles (bench/workloads), quoted for the shell: every stage splits over 3 threads.
// Runner arguments for 20 steps of workload (a) at 10 000 particles on 3 threads, where every stage splits, quiet but
// for what `flags` asks.
std::string dilute_10k_on_3_threads(const std::string& flags) {
  return " " + quoted((std::filesystem::path(LODESTONE_SOURCE_DIR) / "bench/workloads/a-dilute-10k.json").string()) +
         " --steps 20 --threads 3 -q " + flags;
}

// The runner in dir with LODESTONE_THREAD_PARTS=mode in its environment (stdout and stderr together).
Result run_with_thread_parts(const Workdir& dir, const std::string& mode, const std::string& arguments) {
  return lodestone::test::run_shell("cd " + quoted(dir.path().string()) + " && LODESTONE_THREAD_PARTS=" + mode + " " +
                                    quoted(LODESTONE_RUNNER) + arguments + " 2>&1");
}

}  // namespace

TEST_CASE("LODESTONE_THREAD_PARTS=claimed, =blocks and =static hand parts out otherwise, to the same bits (issue 38)",
          "[runner]") {
  // Which thread runs a part must not change a bit: each thread its own third of the parts first, then what the
  // others left (the default), parts claimed in order as threads free up (claimed), each thread its own third only
  // (blocks) and part p to thread p mod 3 (static), workload (a) at 10 000 particles on 3 threads, where every stage
  // splits.
  Workdir dir;
  const std::string arguments = dilute_10k_on_3_threads("--hash");
  const auto home = printed_lines(dir.run(arguments).output);
  REQUIRE(home.size() == 1);
  CHECK_THAT(home[0], Catch::StartsWith("hash "));
  for (const char* mode : {"claimed", "blocks", "static"}) {
    INFO(mode);
    const Result r = run_with_thread_parts(dir, mode, arguments);
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK(printed_lines(r.output) == home);
  }
}

TEST_CASE("LODESTONE_THREAD_PARTS=rehearse runs a team's parts on one thread, to the team's bits (issue 38)",
          "[runner]") {
  // Workload (a) at 10 000 particles: every stage splits over 3 threads. Rehearsed, the parts run one after another
  // on the calling thread; the state must be the real team's to the bit, and the projection printed after the
  // timing must be faster than the parts one after another (three threads share the rounds' parts).
  Workdir dir;
  const std::string arguments = dilute_10k_on_3_threads("--hash --timing");
  const auto real = printed_lines(dir.run(arguments).output);
  const Result rehearsed = run_with_thread_parts(dir, "rehearse", arguments);
  INFO(rehearsed.output);
  CHECK(rehearsed.code == 0);
  const auto lines = printed_lines(rehearsed.output);
  REQUIRE(real.size() == 2);   // the hash, the timing
  REQUIRE(lines.size() == 3);  // the hash, the timing, the projection
  CHECK(lines[0] == real[0]);
  CHECK_THAT(lines[1], Catch::StartsWith("Time per step "));
  std::smatch m;
  REQUIRE(
      std::regex_search(lines[2], m, std::regex("^Rehearsed on as many cores as threads .*, ([0-9.]+)x the above:")));
  CHECK(std::stod(m[1]) > 1.2);
  CHECK_THAT(lines[2], Catch::Contains("dipoles ") && Catch::Contains("serial"));
}
