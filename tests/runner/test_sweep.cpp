#include <catch2/catch.hpp>
// lodestone-run --sweep / --collect-sweep / --cluster-script (docs/sweeps.md): the jobs it writes
// and runs, the results CSV, tau recomputed here from each job's own series, and the errors.
// Each test starts the binary (LODESTONE_RUNNER) in a fresh temporary directory.

#include "../test_process.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using lodestone::test::check_exit;
using lodestone::test::quoted;
using lodestone::test::read_file;
using lodestone::test::Result;
using lodestone::test::write_file;

namespace {

const std::string kRunner = LODESTONE_RUNNER;

// Six magnets in a viscous fluid, no contacts or dipole pairs: they turn to the field within a
// millisecond or two. Two phases, so tau must be taken in the last one, from its start.
const char* kTinyPreset = R"({
  "version": 1,
  "description": "Sweep test: a few magnets in a viscous fluid turn to the field.",
  "materials": [{"name": "bead", "density": "5000 kg/m^3", "magnetization": "100 kA/m"}],
  "magnetics": {"method": "off"},
  "field": {"strength": "10 mT", "direction": [1, 0, 0]},
  "environment": {"translational_damping": "1e-3 N s/m", "rotational_damping": "1e-3 N s/m"},
  "box": {"min": [0, 0, 0], "max": ["10 mm", "10 mm", "10 mm"]},
  "integrator": {"scheme": "overdamped_heun", "time_step": "20 us"},
  "particles": {"kind": "random", "count": 6, "seed": 1, "diameter": "1 mm", "orientation": "random"},
  "protocol": [
    {"name": "sideways", "duration": "1 ms"},
    {"name": "upright", "duration": "4 ms", "set": {"field.direction": [0, 0, 1]}}
  ],
  "run": {"series_interval": 5}
})";

const std::string kSweep = "tiny.json --sweep field.strength=10mT,20mT --sweep particles.seed=1,2";

struct SweepWorkdir : lodestone::test::RunnerWorkdir {
  SweepWorkdir() { write_file(path() / "tiny.json", kTinyPreset); }
};

// One CSV line; fields may be quoted ("a,b", "" for a quote).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted_field = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted_field && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
      fields.back() += line[i++];
    else if (c == '"')
      quoted_field = !quoted_field;
    else if (c == ',' && !quoted_field)
      fields.emplace_back();
    else if (c != '\r')
      fields.back() += c;
  }
  return fields;
}

// A CSV file as rows of column name -> text ('#' lines before the header, the writer's version, skipped).
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& path) {
  std::istringstream in(read_file(path));
  std::string line;
  std::vector<std::map<std::string, std::string>> rows;
  do {
    if (!std::getline(in, line)) return rows;
  } while (line.rfind('#', 0) == 0);
  const std::vector<std::string> header = csv_fields(line);
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = csv_fields(line);
    REQUIRE(fields.size() == header.size());
    auto& row = rows.emplace_back();
    for (size_t c = 0; c < header.size(); ++c) row[header[c]] = fields[c];
  }
  return rows;
}

double number(const std::string& text) {
  return std::strtod(text.c_str(), nullptr);
}

// tau from a job's series, written independently of the runner: rows of the highest phase, the
// first whose alignment reaches the threshold, phase_time interpolated from the row before it.
std::optional<double> tau_from_series(const fs::path& series, double threshold) {
  const auto rows = read_csv(series);
  REQUIRE(!rows.empty());
  double last_phase = 0.0;
  for (const auto& r : rows) last_phase = std::max(last_phase, number(r.at("stage")));
  std::vector<std::pair<double, double>> phase;  // (phase_time, alignment) in the last phase
  for (const auto& r : rows)
    if (number(r.at("stage")) == last_phase) phase.emplace_back(number(r.at("stage_time")), number(r.at("alignment")));
  for (size_t k = 0; k < phase.size(); ++k) {
    if (phase[k].second < threshold) continue;
    if (k == 0) return phase[0].first;
    const auto [t0, a0] = phase[k - 1];
    const auto [t1, a1] = phase[k];
    return t0 + (t1 - t0) * (threshold - a0) / (a1 - a0);
  }
  return std::nullopt;
}

bool executable(const fs::path& path) {
  struct stat s {};
  return ::stat(path.c_str(), &s) == 0 && (s.st_mode & S_IXUSR) != 0;
}

int run_bash(const fs::path& dir, const std::string& command) {
  const int status = std::system(("cd " + quoted(dir.string()) + " && " + command + " > bash.log 2>&1").c_str());
  UNSCOPED_INFO("$ " << command << "\n" << read_file(dir / "bash.log"));
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The job script of a --cluster-script run (sweep.sh, its jobs in `jobs`) before any job ran: an executable bash
// script that runs this runner's jobs and then collects them. Its text, for the checks of its format.
std::string check_job_script(const SweepWorkdir& dir, const std::string& jobs) {
  const fs::path script = dir.path() / "sweep.sh";
  REQUIRE(fs::is_regular_file(script));
  CHECK(executable(script));
  const std::string text = read_file(script);
  CHECK_THAT(text, Catch::StartsWith("#!/bin/bash\n"));
  CHECK_THAT(text, Catch::Contains(quoted(fs::canonical(kRunner).string())));
  CHECK_THAT(text, Catch::Contains("--collect-sweep"));
  CHECK(fs::is_regular_file(dir.path() / jobs / "job_003.json"));
  CHECK(!fs::exists(dir.path() / jobs / "job_000.csv"));  // nothing ran
  return text;
}

// The results of the sweep run in `jobs` are those of the same sweep run directly (in direct/), row by row.
void check_results_match_direct(const SweepWorkdir& dir, const std::string& jobs) {
  const auto direct = read_csv(dir.path() / "direct" / "results.csv");
  const auto other = read_csv(dir.path() / jobs / "results.csv");
  REQUIRE(direct.size() == 4);
  REQUIRE(other.size() == 4);
  for (size_t k = 0; k < 4; ++k) {
    INFO("row " << k);
    for (const char* column :
         {"job", "field.strength", "particles.seed", "status", "tau", "final_alignment", "final_time", "exit_code"})
      CHECK(other[k].at(column) == direct[k].at(column));
  }
}

}  // namespace

TEST_CASE("a sweep of 2 field strengths x 2 seeds runs 4 jobs and collects tau from their series", "[runner][sweep]") {
  SweepWorkdir dir;
  const Result r = dir.run(kSweep + " --sweep-dir runs --jobs 2");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("4/4 jobs done"));

  const auto rows = read_csv(dir.path() / "runs" / "results.csv");
  REQUIRE(rows.size() == 4);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"10mT", "1"}, {"10mT", "2"}, {"20mT", "1"}, {"20mT", "2"}};  // the first --sweep varies slowest
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto& row = rows[k];
    const std::string job = "job_00" + std::to_string(k);
    INFO(job);
    CHECK(row.at("job") == job);
    CHECK(row.at("field.strength") == expected[k].first);
    CHECK(row.at("particles.seed") == expected[k].second);
    CHECK(row.at("status") == "ok");
    CHECK(row.at("exit_code") == "0");
    CHECK(number(row.at("wall_seconds")) >= 0.0);

    // The job preset holds the swept values, as typed (units kept).
    const std::string preset = read_file(dir.path() / "runs" / (job + ".json"));
    CHECK_THAT(preset, Catch::Contains("\"strength\": \"" + expected[k].first + "\""));
    CHECK_THAT(preset, Catch::Contains("\"seed\": " + expected[k].second));

    const fs::path series = dir.path() / "runs" / (job + ".csv");
    const auto tau = tau_from_series(series, 0.95);
    REQUIRE(tau);
    REQUIRE(!row.at("tau").empty());
    CHECK(number(row.at("tau")) == Approx(*tau).epsilon(1e-8));
    CHECK(*tau > 0.0);
    CHECK(*tau < 0.004);
    const auto series_rows = read_csv(series);
    CHECK(number(row.at("final_alignment")) == Approx(number(series_rows.back().at("alignment"))));
    CHECK(number(row.at("final_time")) == Approx(0.005));
  }
  // A stronger field turns the same scene faster.
  CHECK(number(rows[2].at("tau")) < number(rows[0].at("tau")));
  CHECK(number(rows[3].at("tau")) < number(rows[1].at("tau")));

  // Collecting again with another threshold: tau from the same series, earlier.
  const Result c = dir.run("--collect-sweep runs --sweep-out tau80.csv --tau-threshold 0.8");
  REQUIRE(c.code == 0);
  const auto rows80 = read_csv(dir.path() / "tau80.csv");
  REQUIRE(rows80.size() == 4);
  for (size_t k = 0; k < 4; ++k) {
    const auto tau = tau_from_series(dir.path() / "runs" / ("job_00" + std::to_string(k) + ".csv"), 0.8);
    REQUIRE(tau);
    CHECK(number(rows80[k].at("tau")) == Approx(*tau).epsilon(1e-8));
    CHECK(number(rows80[k].at("tau")) < number(rows[k].at("tau")));
  }
}

TEST_CASE("a failed job does not stop the sweep and is recorded with its exit code and message", "[runner][sweep]") {
  SweepWorkdir dir;
  // 5000 beads do not fit the box: the generator refuses when the job builds its scene (exit 2),
  // which parsing the preset before the sweep cannot know.
  const Result r = dir.run("tiny.json --sweep particles.count=5000,6 --sweep-dir runs --jobs 1");
  CHECK(r.code == 3);
  CHECK_THAT(r.output, Catch::Contains("job_000 failed (exit 2)"));
  const auto rows = read_csv(dir.path() / "runs" / "results.csv");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("status") == "failed");
  CHECK(rows[0].at("exit_code") == "2");
  CHECK_THAT(rows[0].at("message"), Catch::Contains("$.particles.count"));
  CHECK(rows[0].at("tau").empty());
  CHECK(rows[1].at("status") == "ok");
  CHECK(!rows[1].at("tau").empty());
}

TEST_CASE("a sweep key that is not in the preset exits 2 and names the path and the keys there", "[runner][sweep]") {
  SweepWorkdir dir;
  check_exit(dir, "tiny.json --sweep field.strenght=10mT,20mT --sweep-dir runs", 2,
             {"field.strenght", "strength, direction"});
  check_exit(dir, "tiny.json --sweep materials.2.friction=0.1 --sweep-dir runs", 2, {"materials.2.friction"});
  CHECK(!fs::exists(dir.path() / "runs"));  // nothing is written before every job checks out
}

TEST_CASE("a sweep value the preset refuses exits 2 naming the key and the value, before any job runs",
          "[runner][sweep]") {
  SweepWorkdir dir;
  check_exit(dir, "tiny.json --sweep particles.seed=1,2 --sweep field.strength=10mT,-5mT --sweep-dir runs", 2,
             {"--sweep field.strength=-5mT: ", "$.field.strength"});
  CHECK(!fs::exists(dir.path() / "runs"));
}

TEST_CASE("a malformed --sweep exits 1", "[runner][sweep]") {
  SweepWorkdir dir;
  for (const char* arguments : {"tiny.json --sweep foo --sweep-dir runs", "tiny.json --sweep foo= --sweep-dir runs",
                                "tiny.json --sweep field.strength=1mT,,2mT --sweep-dir runs",
                                "tiny.json --sweep field.strength=1mT",  // no --sweep-dir
                                "tiny.json --sweep field.strength=1mT --sweep field.strength=2mT --sweep-dir runs"})
    check_exit(dir, arguments, 1, {"--sweep"});
  CHECK(!fs::exists(dir.path() / "runs"));
}

TEST_CASE("option --cluster-script writes a SLURM array script whose results match a direct sweep", "[runner][sweep]") {
  SweepWorkdir dir;
  const Result direct = dir.run(kSweep + " --sweep-dir direct --jobs 2 --quiet");
  REQUIRE(direct.code == 0);
  // --quiet: the sweep reports only failed jobs, and each job (run with --quiet) logs only its errors and warnings
  // (here the time step above the suggestion), no summary or timing (issue 42).
  CHECK(direct.output.empty());
  std::istringstream log(read_file(dir.path() / "direct" / "job_000.log"));
  for (std::string line; std::getline(log, line);) CHECK_THAT(line, Catch::StartsWith("lodestone-run: warning: "));
  CHECK(dir.run(kSweep + " --sweep-dir quiet --cluster-script quiet.sh --quiet").output.empty());
  CHECK(fs::is_regular_file(dir.path() / "quiet.sh"));

  const Result w = dir.run(kSweep + " --sweep-dir cluster --cluster-script sweep.sh --sbatch --time=0:10:00 --sbatch " +
                           "--partition=short");
  REQUIRE(w.code == 0);
  const std::string text = check_job_script(dir, "cluster");
  CHECK_THAT(text, Catch::Contains("#SBATCH --array=0-3\n"));
  // The site's lines (issue 42), after ours and before the first command.
  CHECK_THAT(text, Catch::Contains("#SBATCH --time=0:10:00\n#SBATCH --partition=short\n"));
  CHECK(text.find("#SBATCH --partition=short") < text.find("run_job()"));
  const Result bad = dir.run(kSweep + " --sweep-dir other --cluster-script other.sh --sbatch time=1");
  CHECK(bad.code != 0);
  CHECK_THAT(bad.output, Catch::Contains("'time=1' is not an sbatch option"));
  const Result parallel =
      dir.run(kSweep + " --sweep-dir other --cluster-script other.sh --cluster-format parallel --sbatch --time=1");
  CHECK(parallel.code == 1);
  CHECK_THAT(parallel.output, Catch::Contains("--sbatch: the GNU parallel script"));
  CHECK_THAT(text, Catch::Contains("#SBATCH --output=" + (dir.path() / "cluster" / "slurm_%a.log").string()));

  // As SLURM array task 1: only job_001 runs; collecting now reports the others as missing.
  CHECK(run_bash(dir.path(), "SLURM_ARRAY_TASK_ID=1 bash sweep.sh") == 0);
  CHECK(fs::is_regular_file(dir.path() / "cluster" / "job_001.csv"));
  CHECK(!fs::exists(dir.path() / "cluster" / "job_000.csv"));
  const Result partial = dir.run("--collect-sweep cluster --sweep-out partial.csv");
  CHECK(partial.code == 3);
  const auto some = read_csv(dir.path() / "partial.csv");
  REQUIRE(some.size() == 4);
  CHECK(some[0].at("status") == "missing");
  CHECK(some[0].at("tau").empty());
  CHECK(some[1].at("status") == "ok");

  // Without SLURM: every job in turn, then the collection.
  CHECK(run_bash(dir.path(), "bash sweep.sh") == 0);
  const Result c = dir.run("--collect-sweep cluster");
  REQUIRE(c.code == 0);
  check_results_match_direct(dir, "cluster");
}

TEST_CASE("option --cluster-format parallel writes a GNU parallel script whose results match a direct sweep",
          "[runner][sweep]") {
  SweepWorkdir dir;
  REQUIRE(dir.run(kSweep + " --sweep-dir direct --jobs 2 --quiet").code == 0);

  const Result w = dir.run(kSweep + " --sweep-dir gnu --cluster-script sweep.sh --cluster-format parallel");
  REQUIRE(w.code == 0);
  CHECK_THAT(w.output, Catch::Contains("run it with: bash sweep.sh   (GNU parallel"));
  const std::string text = check_job_script(dir, "gnu");
  CHECK_THAT(text, Catch::Contains("parallel --jobs \"${PARALLEL_JOBS:-100%}\""));
  CHECK_THAT(text, !Catch::Contains("#SBATCH"));

  // One job by its index, as parallel runs it.
  CHECK(run_bash(dir.path(), "bash sweep.sh 2") == 0);
  CHECK(fs::is_regular_file(dir.path() / "gnu" / "job_002.exit"));
  CHECK(!fs::exists(dir.path() / "gnu" / "job_000.csv"));

  if (std::system("command -v parallel > /dev/null 2>&1") != 0) {
    WARN("GNU parallel is not installed (Debian: apt-get install parallel): the script is not run");
    return;
  }
  CHECK(run_bash(dir.path(), "PARALLEL_JOBS=2 bash sweep.sh") == 0);
  CHECK(fs::is_regular_file(dir.path() / "gnu" / "parallel.log"));
  check_results_match_direct(dir, "gnu");
}

TEST_CASE("option --cluster-extra puts lines into the cluster script's header after ours (issue 42)",
          "[runner][sweep]") {
  SweepWorkdir dir;
  const Result slurm = dir.run(kSweep + " --sweep-dir cluster --cluster-script sweep.sh --sbatch --time=0:10:00" +
                               " --cluster-extra '#SBATCH --mem=1G' --cluster-extra '# site: the test cluster'");
  REQUIRE(slurm.code == 0);
  const std::string text = check_job_script(dir, "cluster");
  // As given, one a line, after our #SBATCH lines and --sbatch's, before the first command.
  const std::string output = "#SBATCH --output=" + (dir.path() / "cluster" / "slurm_%a.log").string() + "\n";
  CHECK_THAT(text, Catch::Contains(output + "#SBATCH --time=0:10:00\n#SBATCH --mem=1G\n# site: the test cluster\n\n"));
  CHECK(text.find("# site: the test cluster") < text.find("run_job()"));
  CHECK(run_bash(dir.path(), "SLURM_ARRAY_TASK_ID=0 bash sweep.sh") == 0);  // still a script that runs its job
  CHECK(read_file(dir.path() / "cluster" / "job_000.exit").rfind("0 ", 0) == 0);

  // The GNU parallel script: at the end of its header comment, where sbatch reads directives of a whole-script job.
  fs::remove(dir.path() / "sweep.sh");
  REQUIRE(dir.run(kSweep + " --sweep-dir gnu --cluster-script sweep.sh --cluster-format parallel" +
                  " --cluster-extra '#SBATCH --cpus-per-task=4'")
              .code == 0);
  const std::string gnu = check_job_script(dir, "gnu");
  CHECK_THAT(gnu, Catch::Contains("--collect-sweep " + quoted((dir.path() / "gnu").string()) +
                                  "\n#SBATCH --cpus-per-task=4\n\n"));
  CHECK(gnu.find("#SBATCH --cpus-per-task=4") < gnu.find("run_job()"));

  // A line that does not start with '#', or that holds a line break, would end the header or add a command.
  check_exit(dir, kSweep + " --sweep-dir bad --cluster-script bad.sh --cluster-extra 'SBATCH --mem=1G'", 1,
             {"--cluster-extra: 'SBATCH --mem=1G' does not start with '#'; allowed: one line starting with '#'"});
  check_exit(dir, kSweep + " --sweep-dir bad --cluster-script bad.sh --cluster-extra " + quoted("#SBATCH -N 1\nrm x"),
             1, {"--cluster-extra: '#SBATCH -N 1", "' holds a line break; allowed: one line starting with '#'"});
  check_exit(dir, kSweep + " --sweep-dir bad --cluster-extra '#SBATCH --mem=1G'", 1,
             {"--cluster-extra requires --cluster-script"});
  CHECK(!fs::exists(dir.path() / "bad"));
  CHECK(!fs::exists(dir.path() / "bad.sh"));
}

TEST_CASE("a bad --cluster-format, or one without --cluster-script, exits 1 naming the option", "[runner][sweep]") {
  SweepWorkdir dir;
  check_exit(dir, kSweep + " --sweep-dir runs --cluster-script sweep.sh --cluster-format pbs", 1,
             {"--cluster-format: 'pbs' is not a script format; the formats are slurm"});
  check_exit(dir, kSweep + " --sweep-dir runs --cluster-format parallel", 1, {"--cluster-format"});
  CHECK(!fs::exists(dir.path() / "runs"));
  CHECK(!fs::exists(dir.path() / "sweep.sh"));
}
