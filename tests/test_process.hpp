#pragma once
// Shared by tests that start one of our programs: a fresh temporary directory per test, the
// program run in it through the shell, its exit code and output; whole-file reads and writes.
// Header-only. With the targets' compile definitions also the presets of the source tree
// (LODESTONE_SOURCE_DIR) and work directories for lodestone-run (LODESTONE_RUNNER) and
// lodestone-capture (LODESTONE_CAPTURE).

#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

// A fresh working directory (mkdtemp) for one test, removed afterwards, in which `program` runs.
class Workdir {
 public:
  explicit Workdir(std::string program) : program_(std::move(program)) {
    std::string pattern = (std::filesystem::temp_directory_path() / "lodestone-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~Workdir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  Workdir(const Workdir&) = delete;
  Workdir& operator=(const Workdir&) = delete;
  const std::filesystem::path& path() const { return path_; }

  // Runs the program with `arguments` (already quoted for the shell) in this directory.
  Result run(const std::string& arguments) const {
    const Result r = run_shell("cd " + quoted(path_.string()) + " && " + quoted(program_) + " " + arguments + " 2>&1");
    UNSCOPED_INFO("$ " << std::filesystem::path(program_).filename().string() << " " << arguments << "\nexit " << r.code
                       << "\n"
                       << r.output);
    return r;
  }

 private:
  std::string program_;
  std::filesystem::path path_;
};

#ifdef LODESTONE_SOURCE_DIR
// A preset shipped in presets/.
inline std::filesystem::path preset_path(const std::string& name) {
  return std::filesystem::path(LODESTONE_SOURCE_DIR) / "presets" / name;
}
// The same, quoted for the shell: an argument of a program's command line.
inline std::string preset_argument(const std::string& name) {
  return quoted(preset_path(name).string());
}
#endif

#ifdef LODESTONE_RUNNER
// lodestone-run in a fresh working directory: what the runner and LAMMPS tests start.
struct RunnerWorkdir : Workdir {
  RunnerWorkdir() : Workdir(LODESTONE_RUNNER) {}
};
#endif

#ifdef LODESTONE_CAPTURE
// lodestone-capture in a fresh working directory.
struct CaptureWorkdir : Workdir {
  CaptureWorkdir() : Workdir(LODESTONE_CAPTURE) {}
};
#endif

}  // namespace lodestone::test
