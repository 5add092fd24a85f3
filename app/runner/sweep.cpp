#include "app/runner/sweep.hpp"

#include "app/runner/overrides.hpp"
#include "app/runner/sweep_templates.hpp"
#include "engine/scene/atomic_file.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace lodestone::runner {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr double kDefaultTauThreshold = 0.95;

// Anything that ends a sweep before or between its steps, with the exit code to use.
struct SweepError : std::runtime_error {
  SweepError(int exit_code, const std::string& message) : std::runtime_error(message), code(exit_code) {}
  int code;
};

// One job: its name (job_NNN), the value text of each swept key, and its preset.
struct Job {
  std::string name;
  std::vector<std::string> values;
  json preset;
};

// [SECTION] Small helpers

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at; (at = s.find(sep, start)) != std::string::npos; start = at + 1)
    parts.push_back(s.substr(start, at - start));
  parts.push_back(s.substr(start));
  return parts;
}

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", v);
  return buffer;
}

// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180): swept values such as
// [0,0,1] or 0.5 atm stay one field.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// `s` single-quoted for bash.
std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Writes `text` atomically (engine/scene/atomic_file.hpp), so a reader (a collect running
// while jobs finish, a job starting) never sees half a file.
void write_atomic(const fs::path& path, const std::string& text, bool executable = false) {
  try {
    write_file_atomically(path.string(), text, executable);
  } catch (const FileWriteError& e) {
    throw SweepError(kExitOutputError, e.what());
  }
}

// job_000 ... job_NNN, at least three digits and as many as the largest index needs, so names sort.
int name_width(size_t job_count) {
  return std::max<int>(3, static_cast<int>(std::to_string(job_count > 0 ? job_count - 1 : 0).size()));
}
std::string job_name(size_t index, int width) {
  const std::string digits = std::to_string(index);
  return "job_" + std::string(static_cast<size_t>(std::max(0, width - static_cast<int>(digits.size()))), '0') + digits;
}

// What a failed job said: its last "lodestone-run: ..." line (a job runs with --quiet, so its log
// holds only the runner's errors and warnings), else the last line of its log.
std::string failure_line(const fs::path& log) {
  std::ifstream in(log, std::ios::binary);
  std::string line, last, message;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty()) continue;
    last = line;
    if (line.rfind("lodestone-run: ", 0) == 0) message = line;
  }
  return message.empty() ? last : message;
}

// [SECTION] --sweep KEY=V1,V2,...

// Splits at commas that are not inside brackets, braces or a JSON string.
std::vector<std::string> split_values(const std::string& text) {
  std::vector<std::string> values;
  std::string current;
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\' && i + 1 < text.size())
        current += text[i++];
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      values.push_back(trim(current));
      current.clear();
      continue;
    }
    current += c;
  }
  values.push_back(trim(current));
  return values;
}

std::vector<SweepAxis> parse_axes(const std::vector<std::string>& specs) {
  std::vector<SweepAxis> axes;
  for (const std::string& spec : specs) {
    SweepAxis axis;
    if (std::string error = parse_sweep_spec(spec, axis); !error.empty())
      throw SweepError(kExitBadArguments, "--sweep " + spec + ": " + error);
    for (const SweepAxis& other : axes)
      if (other.key == axis.key)
        throw SweepError(kExitBadArguments, "--sweep " + axis.key + " is given twice; list all its values in one");
    axes.push_back(std::move(axis));
  }
  return axes;
}

// [SECTION] Dotted paths into the preset JSON

// The value at a dotted key ("materials.0.friction", "protocol.2.set.field.strength"): the
// engine's json_at_path, with a missing path as a bad-preset error of the sweep.
json& value_at(json& root, const std::string& key) {
  try {
    return json_at_path(root, key, "--sweep " + key);
  } catch (const PresetError& e) {
    throw SweepError(kExitBadPreset, e.what());
  }
}

// [SECTION] Building and validating the jobs

// Parses a job preset as a run would, including each protocol phase's changes (which a plain
// parse leaves until the phase starts): a bad value must fail here, before any job runs.
void check_preset(const json& j) {
  const Preset preset = document_from_file_json(j);  // the file's units.system, as a job will read it
  for (size_t k = 0; k < preset.protocol.size(); ++k) phase_preset(preset, static_cast<int>(k));
}

// The base preset as JSON (kept as written: units, key order), after checking it is valid alone.
json load_base(const std::string& preset_path, std::string& source) {
  std::string text;
  if (preset_path.empty()) {
    text = default_preset_text();
    source = "built-in default preset";
  } else {
    std::ifstream in(preset_path, std::ios::binary);
    if (!in) throw SweepError(kExitBadPreset, "bad preset: " + preset_path + ": cannot open the file for reading");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
    source = fs::absolute(preset_path).lexically_normal().string();
  }
  try {
    parse_preset(text, source);  // the reader's messages: line and column of broken JSON, the file and JSON path
  } catch (const PresetError& e) {
    throw SweepError(kExitBadPreset, std::string("bad preset: ") + e.what());
  }
  json j = json::parse(text);
  try {
    check_preset(j);
  } catch (const PresetError& e) {
    throw SweepError(kExitBadPreset, "bad preset: " + source + " " + e.what());
  }
  return j;
}

// Every combination of the axes' values (the first --sweep varies slowest), each checked: first
// each KEY=VALUE alone on the base preset, so that a bad value is named as the user typed it, then
// every combination (values that are only bad together).
std::vector<Job> build_jobs(const json& base, const std::vector<SweepAxis>& axes) {
  for (const SweepAxis& axis : axes) {
    json probe = base;
    value_at(probe, axis.key);  // a bad path is reported once, without a value
    for (const std::string& text : axis.values) {
      value_at(probe, axis.key) = value_from_text(text);
      try {
        check_preset(probe);
      } catch (const PresetError& e) {
        throw SweepError(kExitBadPreset, "--sweep " + axis.key + "=" + text + ": " + e.what());
      }
    }
  }
  size_t total = 1;
  for (const SweepAxis& axis : axes) total *= axis.values.size();
  const int width = name_width(total);
  std::vector<Job> jobs;
  for (size_t n = 0; n < total; ++n) {
    Job job{job_name(n, width), std::vector<std::string>(axes.size()), base};
    size_t rest = n;
    for (size_t a = axes.size(); a-- > 0;) {
      job.values[a] = axes[a].values[rest % axes[a].values.size()];
      rest /= axes[a].values.size();
    }
    std::string assignments;
    for (size_t a = 0; a < axes.size(); ++a) {
      value_at(job.preset, axes[a].key) = value_from_text(job.values[a]);
      assignments += (a > 0 ? " --sweep " : "--sweep ") + axes[a].key + "=" + job.values[a];
    }
    try {
      check_preset(job.preset);
    } catch (const PresetError& e) {
      throw SweepError(kExitBadPreset, assignments + " (" + job.name + "): " + e.what());
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

// Writes the job presets and sweep.json. A sweep written into a used directory replaces the
// outputs of its jobs' names first: a stale job_NNN.exit would otherwise be collected as a result.
void write_sweep_files(const fs::path& dir, const std::string& source, const std::vector<SweepAxis>& axes,
                       const std::vector<Job>& jobs, double threshold) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir))
    throw SweepError(kExitOutputError, "cannot create the sweep directory " + dir.string());
  json description = {{"lodestone_sweep", 1}, {"preset", source}, {"tau_threshold", threshold}};
  description["keys"] = json::array();
  description["values"] = json::array();
  for (const SweepAxis& axis : axes) {
    description["keys"].push_back(axis.key);
    description["values"].push_back(axis.values);
  }
  description["jobs"] = json::array();
  for (const Job& job : jobs) {
    for (const char* extension : {".csv", ".log", ".exit"}) fs::remove(dir / (job.name + extension), error);
    write_atomic(dir / (job.name + ".json"), job.preset.dump(2) + "\n");
    description["jobs"].push_back({{"name", job.name}, {"values", job.values}});
  }
  write_atomic(dir / "sweep.json", description.dump(2) + "\n");
}

// [SECTION] Running the jobs in a local pool

// This binary, so that jobs run the same build as the sweep.
fs::path runner_binary() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) throw SweepError(kExitOutputError, "cannot find this program's path in /proc/self/exe");
  return self;
}

// The command line of one job: the same for the pool and the cluster script.
std::vector<std::string> job_arguments(const fs::path& dir, const std::string& name) {
  // One thread per job: the pool (or the scheduler) runs the jobs side by side.
  return {(dir / (name + ".json")).string(), "--quiet", "--table", "0", "--threads", "1", "--series",
          (dir / (name + ".csv")).string()};
}

// Starts one job with stdin from /dev/null and stdout + stderr into its log. Returns the pid, or
// -1 with `error` set.
pid_t spawn_job(const fs::path& runner, const fs::path& dir, const std::string& name, int& error) {
  std::vector<std::string> arguments = job_arguments(dir, name);
  arguments.insert(arguments.begin(), runner.string());
  std::vector<char*> argv;
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string log = (dir / (name + ".log")).string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  error = ::posix_spawn(&pid, runner.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return error == 0 ? pid : -1;
}

// "<exit code> <wall seconds>": what the collection reads; the cluster script writes the same.
void write_exit_file(const fs::path& dir, const std::string& name, int code, double wall_seconds) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%d %.3f\n", code, wall_seconds);
  write_atomic(dir / (name + ".exit"), buffer);
}

std::string duration_text(double seconds) {
  char buffer[32];
  if (seconds < 10.0)
    std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
  else if (seconds < 120.0)
    std::snprintf(buffer, sizeof buffer, "%.0f s", seconds);
  else if (seconds < 7200.0)
    std::snprintf(buffer, sizeof buffer, "%.1f min", seconds / 60.0);
  else
    std::snprintf(buffer, sizeof buffer, "%.1f h", seconds / 3600.0);
  return buffer;
}

// Runs every job as a child process of this binary, at most `parallel` at a time; a failed job
// is reported and the others go on. Each job's exit code and wall time go to job_NNN.exit.
void run_pool(const fs::path& dir, const std::vector<Job>& jobs, int parallel, bool quiet) {
  const fs::path runner = runner_binary();
  struct Running {
    size_t job;
    Clock::time_point start;
  };
  std::map<pid_t, Running> running;
  const auto start = Clock::now();
  size_t next = 0, done = 0, failed = 0;
  auto finished = [&](size_t job, int code, double wall) {
    write_exit_file(dir, jobs[job].name, code, wall);
    ++done;
    if (code != kExitOk) {
      ++failed;
      std::fprintf(stderr, "sweep: %s %s (exit %d): %s\n", jobs[job].name.c_str(),
                   code == kExitSimulationStopped ? "stopped" : "failed", code,
                   failure_line(dir / (jobs[job].name + ".log")).c_str());
    }
    if (quiet) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const double left = elapsed / static_cast<double>(done) * static_cast<double>(jobs.size() - done);
    std::fprintf(stderr, "sweep: %zu/%zu jobs done%s, %s elapsed", done, jobs.size(),
                 failed > 0 ? (", " + std::to_string(failed) + " not ok").c_str() : "", duration_text(elapsed).c_str());
    if (done < jobs.size()) std::fprintf(stderr, ", about %s left", duration_text(left).c_str());
    std::fprintf(stderr, "\n");
  };

  if (!quiet)
    std::fprintf(stderr, "sweep: %zu jobs, %d at a time, in %s\n", jobs.size(), parallel, dir.string().c_str());
  while (done < jobs.size()) {
    while (running.size() < static_cast<size_t>(parallel) && next < jobs.size()) {
      int error = 0;
      const pid_t pid = spawn_job(runner, dir, jobs[next].name, error);
      if (pid > 0) {
        running[pid] = {next, Clock::now()};
      } else {
        std::ofstream(dir / (jobs[next].name + ".log"))
            << "lodestone-run: cannot start " << runner.string() << ": " << std::strerror(error) << "\n";
        finished(next, 127, 0.0);  // 127: the shell's code for a command that cannot run
      }
      ++next;
    }
    if (running.empty()) continue;
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw SweepError(kExitOutputError, std::string("waiting for the jobs failed: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);  // as bash reports it
    const double wall = std::chrono::duration<double>(Clock::now() - it->second.start).count();
    const size_t job = it->second.job;
    running.erase(it);
    finished(job, code, wall);
  }
}

// [SECTION] Collecting the results

struct SweepDescription {
  std::vector<std::string> keys;
  std::vector<std::pair<std::string, std::vector<std::string>>> jobs;  // name, value texts
  double tau_threshold = kDefaultTauThreshold;
};

SweepDescription read_sweep_json(const fs::path& dir) {
  const fs::path path = dir / "sweep.json";
  std::ifstream in(path);
  if (!in) throw SweepError(kExitBadArguments, dir.string() + " is not a sweep directory: it has no sweep.json");
  SweepDescription d;
  try {
    const json j = json::parse(in);
    d.keys = j.at("keys").get<std::vector<std::string>>();
    d.tau_threshold = j.value("tau_threshold", kDefaultTauThreshold);
    for (const json& job : j.at("jobs"))
      d.jobs.emplace_back(job.at("name").get<std::string>(), job.at("values").get<std::vector<std::string>>());
  } catch (const json::exception& e) {
    throw SweepError(kExitBadArguments, path.string() + " is not a sweep description: " + e.what());
  }
  return d;
}

// Writes one row per job and returns the exit code: 0 when every job finished ok, else 3. Says where
// the results are unless `quiet`.
int collect(const fs::path& dir, const fs::path& out, std::optional<double> threshold_option, bool quiet) {
  const SweepDescription sweep = read_sweep_json(dir);
  const double threshold = threshold_option.value_or(sweep.tau_threshold);
  // Rows are built as field lists and joined once, so every field goes through csv_field.
  std::vector<std::vector<std::string>> rows{{"job"}};
  for (const std::string& key : sweep.keys) rows[0].push_back(key);
  for (const char* column : {"status", "tau", "final_alignment", "final_time", "wall_seconds", "exit_code", "message"})
    rows[0].push_back(column);
  std::map<std::string, int> counts;
  for (const auto& [name, values] : sweep.jobs) {
    // No .exit file: the job has not run, is still running, or was killed with its script.
    std::string status = "missing", exit_code, wall, message;
    if (std::ifstream exit_file(dir / (name + ".exit")); exit_file) {
      int code = -1;
      double seconds = 0.0;
      if (exit_file >> code >> seconds) {
        status = code == kExitOk ? "ok" : code == kExitSimulationStopped ? "stopped" : "failed";
        exit_code = std::to_string(code);
        wall = number(seconds);
        if (code != kExitOk) message = failure_line(dir / (name + ".log"));
      }
    }
    ++counts[status];
    // A job that has not finished has at most part of a series: leave its values empty.
    const SeriesSummary series =
        status == "missing" ? SeriesSummary{} : summarize_series((dir / (name + ".csv")).string(), threshold);
    std::vector<std::string>& row = rows.emplace_back(1, name);
    row.insert(row.end(), values.begin(), values.end());
    row.push_back(status);
    row.push_back(series.tau ? number(*series.tau) : "");
    row.push_back(series.read ? number(series.final_alignment) : "");
    row.push_back(series.read ? number(series.final_time) : "");
    for (const std::string* field : {&wall, &exit_code, &message}) row.push_back(*field);
  }
  std::string csv;
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) csv += ',';
      csv += csv_field(row[c]);
    }
    csv += '\n';
  }
  write_atomic(out, csv);
  std::string summary;
  for (const auto& [status, count] : counts) {
    if (!summary.empty()) summary += ", ";
    summary += std::to_string(count) + " " + status;
  }
  if (!quiet)
    std::printf("sweep: %zu job%s (%s); results in %s\n", sweep.jobs.size(), sweep.jobs.size() == 1 ? "" : "s",
                summary.c_str(), out.string().c_str());
  return counts["ok"] == static_cast<int>(sweep.jobs.size()) ? kExitOk : kExitSimulationStopped;
}

// [SECTION] Cluster script

// A bash script that runs a sweep's jobs outside lodestone-run: SLURM (also a plain bash script: under
// sbatch each array task runs the job of its index; with bash every job in turn, then the collection)
// or GNU parallel (parallel runs the jobs, then the collection). Both run the same command line as the
// pool and leave the same job_NNN.exit files, so --collect-sweep reads both. The scripts are the
// templates assets/sweep/slurm.sh.in and parallel.sh.in (embedded at build time), each with the job
// runner assets/sweep/run_job.sh.in at its @RUN_JOB@ line; the @NAME@ markers are filled in here.
// `extra_lines`: the user's lines for the header (header_extra()), at the template's @HEADER_EXTRA@ line.
std::string cluster_script(ClusterFormat format, const fs::path& runner, const fs::path& dir,
                           const std::vector<Job>& jobs, const std::vector<SweepAxis>& axes, const std::string& source,
                           const std::string& out_option, const std::string& extra_lines) {
  std::string keys;
  for (const SweepAxis& axis : axes) keys += (keys.empty() ? "" : ", ") + axis.key;
  // The job command line with the paths as "$DIR/$name.json": double-quoted, so bash expands them.
  std::string arguments;
  for (const std::string& a : job_arguments("$DIR", "$name"))
    arguments += " " + (a.find('$') != std::string::npos ? "\"" + a + "\"" : a);
  const std::vector<std::pair<std::string, std::string>> fields = {
      // First: the fragment holds markers of its own. The marker's whole line, as the fragment file
      // ends with its own line break.
      {"@RUN_JOB@\n", sweep_run_job_template()},
      {"@JOBS@", std::to_string(jobs.size())},
      {"@LAST@", std::to_string(jobs.size() - 1)},
      {"@PRESET@", source},
      {"@KEYS@", keys},
      {"@COLLECT@", shell_quoted(runner.string()) + " --collect-sweep " + shell_quoted(dir.string()) + out_option},
      {"@DIR_TEXT@", dir.string()},  // #SBATCH lines are not shell: no quotes
      {"@RUNNER@", shell_quoted(runner.string())},
      {"@DIR@", shell_quoted(dir.string())},
      {"@WIDTH@", std::to_string(name_width(jobs.size()))},
      {"@ARGUMENTS@", arguments},
      {"@HEADER_EXTRA@", extra_lines},  // last: the user's text is not searched for markers
  };
  std::string script = format == ClusterFormat::Parallel ? sweep_parallel_template() : sweep_slurm_template();
  for (const auto& [marker, text] : fields)
    for (size_t at = 0; (at = script.find(marker, at)) != std::string::npos; at += text.size())
      script.replace(at, marker.size(), text);
  return script;
}

// The user's lines for the script's header, after ours: each --sbatch as an #SBATCH line, then each
// --cluster-extra as given (checked with the options: one line starting with '#').
std::string header_extra(const RunOptions& options) {
  std::string text;
  for (const std::string& line : options.sbatch_lines) text += "#SBATCH " + line + "\n";
  for (const std::string& line : options.cluster_extra) text += line + "\n";
  return text;
}

// What --cluster-script wrote and how to run and collect it, on stdout.
void print_cluster_script_use(const RunOptions& options, size_t jobs, const fs::path& dir, const fs::path& runner,
                              const std::string& out_option) {
  const std::string& script = options.cluster_script;
  std::printf("wrote %zu job presets to %s and the script %s\n", jobs, dir.string().c_str(), script.c_str());
  if (options.cluster_format == ClusterFormat::Parallel)
    std::printf("run it with: bash %s   (GNU parallel, PARALLEL_JOBS=N bash %s for N at a time)\n", script.c_str(),
                script.c_str());
  else
    std::printf("run it with: sbatch %s   (SLURM array 0-%zu), or: bash %s\n", script.c_str(), jobs - 1,
                script.c_str());
  std::printf("then collect with: %s --collect-sweep %s%s\n", runner.string().c_str(), dir.string().c_str(),
              out_option.c_str());
}

}  // namespace

// [SECTION] Public functions

std::string parse_sweep_spec(const std::string& text, SweepAxis& axis) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos) return "'" + text + "' is not KEY=V1,V2,... (e.g. field.strength=20mT,40mT)";
  axis.key = trim(text.substr(0, equals));
  if (axis.key.empty()) return "the key before '=' is empty";
  for (const std::string& segment : split(axis.key, '.'))
    if (segment.empty() || segment.find_first_of(" \t") != std::string::npos)
      return "'" + axis.key + "' is not a dotted key (e.g. field.strength, materials.0.friction)";
  axis.values = split_values(text.substr(equals + 1));
  for (const std::string& value : axis.values)
    if (value.empty()) return "empty value in '" + text.substr(equals + 1) + "' (values are separated by commas)";
  return {};
}

SeriesSummary summarize_series(const std::string& csv_path, double threshold) {
  SeriesSummary summary;
  std::ifstream in(csv_path);
  std::string line;
  do {  // '#' lines before the header: the writer's version, the unit system (engine/output/series.hpp)
    if (!std::getline(in, line)) return summary;
  } while (line.rfind('#', 0) == 0);
  // Columns by name: the series gains columns over time, and their order is not part of its format.
  const std::vector<std::string> header = split(trim(line), ',');
  auto column = [&](const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  const int alignment = column("alignment"), time = column("time");
  const int phase = column("stage"), phase_time = column("stage_time");  // the CSV keeps its column names
  const bool phased = phase >= 0 && phase_time >= 0;
  if (alignment < 0 || time < 0) return summary;

  struct Row {
    long phase;
    double t, a;  // phase time [s], alignment
  };
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = split(trim(line), ',');
    if (fields.size() != header.size()) continue;  // a line cut short by a killed job
    auto value = [&](int c) { return std::strtod(fields[static_cast<size_t>(c)].c_str(), nullptr); };
    rows.push_back({phased ? std::strtol(fields[static_cast<size_t>(phase)].c_str(), nullptr, 10) : 0,
                    value(phased ? phase_time : time), value(alignment)});
    summary.final_alignment = value(alignment);
    summary.final_time = value(time);
  }
  if (rows.empty()) return summary;
  summary.read = true;

  long last = rows.front().phase;
  for (const Row& r : rows) last = std::max(last, r.phase);
  const Row* previous = nullptr;  // the row before, within the last phase
  for (const Row& r : rows) {
    if (r.phase != last) continue;
    if (r.a >= threshold) {
      summary.tau =
          previous ? previous->t + (threshold - previous->a) / (r.a - previous->a) * (r.t - previous->t) : r.t;
      break;
    }
    previous = &r;
  }
  return summary;
}

// Runs a sweep step; a SweepError or a file-system error becomes a message and an exit code.
template <class Step>
int reporting_errors(Step step) {
  try {
    return step();
  } catch (const SweepError& e) {
    std::cerr << "lodestone-run: " << e.what() << "\n";
    return e.code;
  } catch (const fs::filesystem_error& e) {
    std::cerr << "lodestone-run: " << e.what() << "\n";
    return kExitOutputError;
  }
}

int run_sweep(const RunOptions& options) {
  if (!options.sbatch_lines.empty() && options.cluster_format == ClusterFormat::Parallel) {
    std::fprintf(stderr,
                 "lodestone-run: --sbatch: the GNU parallel script (--cluster-format parallel) has no #SBATCH header; "
                 "allowed with --cluster-format slurm\n");
    return kExitBadArguments;
  }
  return reporting_errors([&]() -> int {
    const std::vector<SweepAxis> axes = parse_axes(options.sweeps);
    std::string source;
    const json base = load_base(options.preset_path, source);
    const std::vector<Job> jobs = build_jobs(base, axes);  // all checked before anything is written

    const fs::path dir = fs::absolute(options.sweep_dir).lexically_normal();
    const fs::path out = options.sweep_out.empty() ? dir / "results.csv" : fs::absolute(options.sweep_out);
    write_sweep_files(dir, source, axes, jobs, options.tau_threshold.value_or(kDefaultTauThreshold));

    if (!options.cluster_script.empty()) {
      const fs::path runner = runner_binary();
      const std::string out_option = options.sweep_out.empty() ? "" : " --sweep-out " + shell_quoted(out.string());
      write_atomic(
          options.cluster_script,
          cluster_script(options.cluster_format, runner, dir, jobs, axes, source, out_option, header_extra(options)),
          true);
      if (!options.quiet) print_cluster_script_use(options, jobs.size(), dir, runner, out_option);
      return kExitOk;
    }

    const unsigned hardware = std::thread::hardware_concurrency();
    const int parallel = std::min<int>(options.jobs.value_or(hardware > 0 ? static_cast<int>(hardware) : 1),
                                       static_cast<int>(jobs.size()));
    run_pool(dir, jobs, parallel, options.quiet);
    return collect(dir, out, options.tau_threshold, options.quiet);
  });
}

int collect_sweep(const RunOptions& options) {
  return reporting_errors([&] {
    const fs::path dir = fs::absolute(options.collect_dir).lexically_normal();
    const fs::path out = options.sweep_out.empty() ? dir / "results.csv" : fs::absolute(options.sweep_out);
    return collect(dir, out, options.tau_threshold, options.quiet);
  });
}

}  // namespace lodestone::runner
