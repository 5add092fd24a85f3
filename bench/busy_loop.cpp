// A competing CPU-bound process for the contention bench (issue 26; bench/contention.sh): spins on
// arithmetic for the given number of seconds, optionally pinned to one CPU, and never sleeps.
//
// Usage: lodestone-busy-loop SECONDS [CPU]
//   CPU (0, 1, ...) pins the loop to that CPU (sched_setaffinity); without it the scheduler moves it.
#include <sched.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: lodestone-busy-loop SECONDS [CPU]\n");
    return 2;
  }
  char* end = nullptr;
  const double seconds = std::strtod(argv[1], &end);
  if (*end != '\0' || !(seconds > 0.0)) {
    std::fprintf(stderr, "lodestone-busy-loop: SECONDS must be a positive number, got '%s'\n", argv[1]);
    return 2;
  }
  if (argc == 3) {
    const long cpu = std::strtol(argv[2], &end, 10);
    if (*end != '\0' || cpu < 0 || cpu >= CPU_SETSIZE) {
      std::fprintf(stderr, "lodestone-busy-loop: CPU must be a CPU number (0, 1, ...), got '%s'\n", argv[2]);
      return 2;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(static_cast<int>(cpu), &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0) {
      std::perror("lodestone-busy-loop: sched_setaffinity");
      return 1;
    }
  }
  const auto stop = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  volatile double sink = 0.0;
  double x = 1.0;
  unsigned long long rounds = 0;
  while (std::chrono::steady_clock::now() < stop) {
    for (int k = 0; k < 100000; ++k) x = x * 0.9999999 + 1e-7;  // dependent arithmetic (x stays near 1)
    sink = x;
    ++rounds;
  }
  std::printf("busy loop: %llu rounds in %.3g s\n", rounds, seconds);
  return sink == 0.0 ? 1 : 0;
}
