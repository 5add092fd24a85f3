// The run's history (issue 21, docs/history.md): how long the time slider takes to show an earlier moment
// of a 10 000-particle scene (target: within 0.3 s), how long an exact rewind to any step takes, and
// whether memory stays within the history's budget on a long run (peak resident memory). Run on demand,
// never in CI; figures in docs/performance.md "History: scrubbing and memory".
//
//   lodestone-history-bench [PRESET=bench/workloads/a-dilute-10k.json] [STEPS=6000] [BUDGET_MIB=512] [SAMPLES=15]
//
// Runs STEPS steps with history kept within BUDGET_MIB, then times SAMPLES scrubs (Session::rewind_to_kept,
// what the slider does while dragged: the nearest kept moment) and SAMPLES exact rewinds (Session::rewind,
// `rewind STEP`: the nearest kept moment, then steps forward) to steps spread over the run, in a shuffled
// order, and prints medians and maxima, the kept points, their spacing and memory, and the peak resident
// memory against the memory before the run.

#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/session.hpp"
#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace lodestone;
using namespace lodestone::bench;

namespace {

double mib(double bytes) {
  return bytes / (1024.0 * 1024.0);
}

// Resident memory now and at its peak [bytes] (Linux /proc/self/status).
double resident_bytes(const char* key) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(key, 0) == 0) return 1024.0 * std::atof(line.c_str() + std::string(key).size());
  return 0.0;
}

// The times of `rewind` to each of `targets` [s].
template <class Rewind>
std::vector<double> time_rewinds(const std::vector<std::int64_t>& targets, Rewind rewind) {
  std::vector<double> seconds;
  for (std::int64_t target : targets) {
    const auto start = Clock::now();
    rewind(target);
    seconds.push_back(seconds_since(start));
  }
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "bench/workloads/a-dilute-10k.json";
  const std::int64_t steps = argc > 2 ? std::atoll(argv[2]) : 6000;
  const std::size_t budget = (argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 512) << 20;
  const int samples = argc > 4 ? std::atoi(argv[4]) : 15;

  Session session(load_preset_file(path));
  session.run(1);
  const double before = resident_bytes("VmRSS:");
  session.enable_history(budget);
  const auto run_start = Clock::now();
  for (std::int64_t done = 0; done < steps;) {
    done += session.run(std::min<std::int64_t>(1000, steps - done));
    if (!session.state().health.ok) {
      std::fprintf(stderr, "history-bench: the run stopped: %s\n", session.state().health.message.c_str());
      return 1;
    }
    std::fprintf(stderr, "\r%lld / %lld steps", static_cast<long long>(done), static_cast<long long>(steps));
  }
  const double run_seconds = seconds_since(run_start);
  const History& h = *session.history();
  const double per_point = static_cast<double>(h.bytes()) / static_cast<double>(h.size());
  std::fprintf(stderr, "\n");
  std::printf("%s: %zu particles, %lld steps with history in %.1f s (%.2f ms/step)\n", path.c_str(),
              session.state().particles.size(), static_cast<long long>(steps), run_seconds,
              1e3 * run_seconds / static_cast<double>(steps));
  std::printf("history: %zu points every %lld steps, %.1f MiB each, %.1f MiB of a %.0f MiB budget\n", h.size(),
              static_cast<long long>(h.spacing()), mib(per_point), mib(static_cast<double>(h.bytes())),
              mib(static_cast<double>(budget)));
  std::printf("resident memory: %.0f MiB before the history, peak %.0f MiB (growth %.0f MiB, budget %.0f MiB)\n",
              mib(before), mib(resident_bytes("VmHWM:")), mib(resident_bytes("VmHWM:") - before),
              mib(static_cast<double>(budget)));

  // Targets spread over the kept run, shuffled so that no rewind starts next to its target.
  std::vector<std::int64_t> targets;
  const std::int64_t first = h.first_step(), last = session.head_step();
  for (int k = 0; k < samples; ++k) targets.push_back(first + (last - first) * (2 * k + 1) / (2 * samples));
  std::shuffle(targets.begin(), targets.end(), std::mt19937(7));
  const std::vector<double> scrub = time_rewinds(targets, [&](std::int64_t t) { session.rewind_to_kept(t); });
  const std::vector<double> exact = time_rewinds(targets, [&](std::int64_t t) { session.rewind(t); });
  std::printf("scrub (slider, nearest kept moment): median %.3f s, max %.3f s over %d moments\n", median(scrub),
              *std::max_element(scrub.begin(), scrub.end()), samples);
  std::printf("exact rewind (rewind STEP): median %.3f s, max %.3f s (up to %lld steps from a kept moment)\n",
              median(exact), *std::max_element(exact.begin(), exact.end()), static_cast<long long>(h.spacing() - 1));
  return 0;
}
