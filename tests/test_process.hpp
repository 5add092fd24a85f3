#pragma once
// Shared by tests that start one of our programs: a fresh temporary directory per test, the
// program run in it through the shell, its exit code and output; whole-file reads and writes; a
// scene whose field has a closed form, for the programs asked for the field at a point.
// Header-only. With the targets' compile definitions also the presets of the source tree
// (LODESTONE_SOURCE_DIR) and work directories for lodestone-run (LODESTONE_RUNNER) and
// lodestone-capture (LODESTONE_CAPTURE).

#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace lodestone::test {

// `s` single-quoted for /bin/sh.
inline std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

struct Result {
  int code = -1;       // exit status; 128 + signal when killed by a signal
  std::string output;  // stdout and stderr
};

// Runs a shell command line; its output (what the command line sends to stdout) and exit status.
inline Result run_shell(const std::string& command) {
  Result r;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.output.append(buffer, n);
  const int status = ::pclose(pipe);
  if (WIFEXITED(status))
    r.code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.code = 128 + WTERMSIG(status);
  return r;
}

// A fresh temporary directory (mkdtemp) for one test, removed with what it holds afterwards.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "lodestone-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A fresh working directory for one test, removed afterwards, in which `program` runs.
class Workdir : public TempDir {
 public:
  explicit Workdir(std::string program) : program_(std::move(program)) {}

  // Runs the program with `arguments` (already quoted for the shell) in this directory.
  Result run(const std::string& arguments) const {
    const Result r = run_shell("cd " + quoted(path().string()) + " && " + quoted(program_) + " " + arguments + " 2>&1");
    UNSCOPED_INFO("$ " << std::filesystem::path(program_).filename().string() << " " << arguments << "\nexit " << r.code
                       << "\n"
                       << r.output);
    return r;
  }

 private:
  std::string program_;
};

// Runs the program of `dir` with `arguments` and checks its exit code and that its output names each of `named` (a
// refusal's message: the option, the value, what is allowed); the result, for what else a test checks.
inline Result check_exit(const Workdir& dir, const std::string& arguments, int code,
                         const std::vector<std::string>& named = {}) {
  const Result r = dir.run(arguments);
  CHECK(r.code == code);
  for (const std::string& text : named) CHECK_THAT(r.output, Catch::Contains(text));
  return r;
}

// [SECTION] Two dipoles in a uniform field: the field at any point has a closed form.

// Two spheres of 0.5 mm at z = -1 mm and +1 mm, 900 kA/m along z, in an applied 10 mT along x; direct sum. `more`
// adds members to the preset's object (", " and a key with its value).
inline std::string two_dipoles_in_field(const std::string& more = "") {
  return R"({
  "version": 1,
  "materials": [{ "name": "NdFeB", "density": "7500 kg/m^3", "kn": "1e5 N/m", "ks": "8e4 N/m",
                  "magnetization": "900 kA/m" }],
  "magnetics": { "method": "direct" },
  "field": { "strength": "10 mT", "direction": [1, 0, 0] },
  "box": { "min": ["-5 mm", "-5 mm", "-5 mm"], "max": ["5 mm", "5 mm", "5 mm"],
           "x_min": "open", "x_max": "open", "y_min": "open", "y_max": "open", "z_min": "open", "z_max": "open" },
  "particles": { "kind": "list", "particles": [
    { "position": ["0 mm", "0 mm", "-1 mm"], "radius": "0.5 mm", "axis": [0, 0, 1] },
    { "position": ["0 mm", "0 mm", "1 mm"], "radius": "0.5 mm", "axis": [0, 0, 1] } ] })" +
         more + "\n}";
}

// A point or a field as the programs print it: three numbers in SI units.
struct Vector3 {
  double x, y, z;
};

// The field of a point dipole m_z along z at `centre`, at `at` ([PFC-dipole] eq. 6).
inline Vector3 dipole_field(Vector3 at, Vector3 centre, double m_z) {
  const double rx = at.x - centre.x, ry = at.y - centre.y, rz = at.z - centre.z;
  const double r = std::sqrt(rx * rx + ry * ry + rz * rz);
  const double r3 = r * r * r, r5 = r3 * r * r, m_r = m_z * rz;
  return {1e-7 * 3.0 * m_r * rx / r5, 1e-7 * 3.0 * m_r * ry / r5, 1e-7 * (3.0 * m_r * rz / r5 - m_z / r3)};
}

// The field of two_dipoles_in_field() at `at` at step 0: both dipoles and the applied 10 mT along x.
inline Vector3 two_dipoles_field(Vector3 at) {
  constexpr double kPi = 3.14159265358979323846;
  const double m = 900e3 * (4.0 / 3.0 * kPi * 0.5e-3 * 0.5e-3 * 0.5e-3);
  const Vector3 a = dipole_field(at, {0, 0, -1e-3}, m), b = dipole_field(at, {0, 0, 1e-3}, m);
  return {0.01 + a.x + b.x, a.y + b.y, a.z + b.z};
}

// |got - want| / |want|.
inline double relative_error(Vector3 got, Vector3 want) {
  const double e = std::sqrt(std::pow(got.x - want.x, 2) + std::pow(got.y - want.y, 2) + std::pow(got.z - want.z, 2));
  return e / std::sqrt(want.x * want.x + want.y * want.y + want.z * want.z);
}

#ifdef LODESTONE_SOURCE_DIR
// A preset shipped in presets/.
inline std::filesystem::path preset_path(const std::string& name) {
  return std::filesystem::path(LODESTONE_SOURCE_DIR) / "presets" / name;
}
// The same, quoted for the shell: an argument of a program's command line.
inline std::string preset_argument(const std::string& name) {
  return quoted(preset_path(name).string());
}
// The folder of the shipped presets.
inline std::filesystem::path preset_directory() {
  return std::filesystem::path(LODESTONE_SOURCE_DIR) / "presets";
}
// Every preset shipped in presets/, in name order.
inline std::vector<std::filesystem::path> preset_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(preset_directory()))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}
#endif

#ifdef LODESTONE_RUNNER
// lodestone-run in a fresh working directory: what the runner and LAMMPS tests start.
struct RunnerWorkdir : Workdir {
  RunnerWorkdir() : Workdir(LODESTONE_RUNNER) {}
};

#ifdef LODESTONE_SOURCE_DIR
// What the tests of lodestone-run use, declared once for their `using namespace lodestone::test::runner_tests;`
// rather than a list of using-declarations in each: the helpers above, and lodestone-run's directory as Workdir.
namespace runner_tests {
using lodestone::test::check_exit;
using lodestone::test::preset_argument;
using lodestone::test::preset_files;
using lodestone::test::preset_path;
using lodestone::test::quoted;
using lodestone::test::read_file;
using lodestone::test::Result;
using lodestone::test::write_file;
using Workdir = RunnerWorkdir;
}  // namespace runner_tests
#endif
#endif

#ifdef LODESTONE_CAPTURE
// lodestone-capture in a fresh working directory.
struct CaptureWorkdir : Workdir {
  CaptureWorkdir() : Workdir(LODESTONE_CAPTURE) {}
};
#endif

}  // namespace lodestone::test
