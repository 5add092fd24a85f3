#pragma once
// What the benches time with: a steady clock, seconds since a start, the median of repeated timings.

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace lodestone::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// CPU time of this thread [s]: unlike the wall clock it does not count the time the thread waits for a core, so it
// stays meaningful on a loaded machine (virtual machines often give perf no cycle counter).
inline double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The arguments of the kernel benches, `PROGRAM PRESET [REPEATS] [WARM_STEPS]`: false, after a usage line or an error
// on stderr, when they are missing or not positive.
struct KernelBenchArguments {
  const char* preset = nullptr;
  int repeats = 0;
  int warm_steps = 5;
};
inline bool read_kernel_bench_arguments(int argc, char** argv, const char* program, int default_repeats,
                                        KernelBenchArguments& out) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PRESET [REPEATS=%d] [WARM_STEPS=5]\n", program, default_repeats);
    return false;
  }
  out.preset = argv[1];
  out.repeats = argc > 2 ? std::atoi(argv[2]) : default_repeats;
  out.warm_steps = argc > 3 ? std::atoi(argv[3]) : 5;
  if (out.repeats < 1 || out.warm_steps < 1) {
    std::fprintf(stderr, "%s: REPEATS and WARM_STEPS must be positive integers\n", program);
    return false;
  }
  return true;
}

}  // namespace lodestone::bench
