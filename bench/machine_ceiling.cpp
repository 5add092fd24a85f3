// What N threads can give on this machine at all (issue 38: "every stage at 2 threads at least 1.8x faster than at
// 1"): the speed-up of two kinds of work that have nothing serial in them and share nothing, as a ceiling for the
// engine's stages. Run on demand, never in CI.
//
//   lodestone-machine-ceiling [THREADS=2] [ROUNDS=5]
//
// - arithmetic: each thread multiplies and adds in registers (8 independent chains, no memory), the same amount of
//   work per thread; speed-up = THREADS x (time of one thread alone) / (time of THREADS threads together). Below
//   THREADS when the virtual CPUs share physical cores (SMT siblings) or the host takes time from them.
// - memory: a triad a[i] = b[i] + s c[i] over three arrays of 32 MiB each (far beyond the caches), split evenly
//   between the threads; speed-up = time on one thread / time on THREADS. Below THREADS when one core already
//   draws most of the memory bandwidth the cores share.
// Rounds alternate 1 and THREADS threads; medians. A stage of the engine that streams particle arrays (clearing
// forces, the half-step integrations) cannot scale better than the memory line; a compute-bound one (the dipole
// pairs) not better than the arithmetic line.

#include "bench/timing.hpp"

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace lodestone::bench;

namespace {

constexpr long kArithmeticSteps = 100'000'000;

// 8 chains of x = x * a + b (no fused multiply-add at the baseline target): about 1.6e9 floating-point operations.
double arithmetic() {
  double x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (long k = 0; k < kArithmeticSteps; ++k)
    for (double& v : x) v = v * 0.999999 + 1e-6;
  double sum = 0.0;
  for (double v : x) sum += v;
  return sum;
}

void triad(double* a, const double* b, const double* c, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) a[i] = b[i] + 0.5 * c[i];
}

// Runs `work(t)` on `threads` threads at once (thread 0 is the caller); returns the wall time [s].
template <class Work>
double together(int threads, Work work) {
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> others;
  for (int t = 1; t < threads; ++t) others.emplace_back(work, t);
  work(0);
  for (std::thread& o : others) o.join();
  return seconds_since(start);
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  if (threads < 2 || rounds < 1) {
    std::fprintf(stderr, "usage: lodestone-machine-ceiling [THREADS=2 (at least 2)] [ROUNDS=5]\n");
    return 2;
  }
  const size_t n = (size_t{32} << 20) / sizeof(double);
  std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
  std::vector<double> sinks(static_cast<size_t>(threads));
  std::vector<double> arithmetic_one, arithmetic_all, memory_one, memory_all;
  const auto arithmetic_work = [&](int t) { sinks[static_cast<size_t>(t)] = arithmetic(); };
  const auto memory_work = [&](int parts) {
    return [&, parts](int t) {
      const size_t begin = n * static_cast<size_t>(t) / static_cast<size_t>(parts);
      const size_t end = n * static_cast<size_t>(t + 1) / static_cast<size_t>(parts);
      for (int pass = 0; pass < 10; ++pass) triad(a.data(), b.data(), c.data(), begin, end);
    };
  };
  for (int r = 0; r < rounds; ++r) {
    arithmetic_one.push_back(together(1, arithmetic_work));
    arithmetic_all.push_back(together(threads, arithmetic_work));
    memory_one.push_back(together(1, memory_work(1)));
    memory_all.push_back(together(threads, memory_work(threads)));
  }
  const double a1 = median(arithmetic_one), an = median(arithmetic_all);
  const double m1 = median(memory_one), mn = median(memory_all);
  const double bytes = 10.0 * 3.0 * static_cast<double>(n) * sizeof(double);
  std::printf("what %d threads can give on this machine (medians of %d alternating rounds):\n", threads, rounds);
  std::printf("arithmetic in registers: 1 thread %.3f s, %d threads (each the same work) %.3f s: speed-up %.2f\n", a1,
              threads, an, threads * a1 / an);
  std::printf("memory triad over 96 MiB: 1 thread %.3f s (%.1f GB/s), %d threads %.3f s (%.1f GB/s): speed-up %.2f\n",
              m1, bytes / m1 * 1e-9, threads, mn, bytes / mn * 1e-9, m1 / mn);
  std::printf("(checksum %.6g)\n", sinks[0] + a[n / 2]);
  return 0;
}
