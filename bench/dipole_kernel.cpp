// The cost of one dipole pair in the cutoff pass (issue 26; docs/performance.md "Dipole pair kernel").
// Run on demand, never in CI.
//
//   lodestone-dipole-kernel PRESET [REPEATS=200] [WARM_STEPS=5]
//
// Runs PRESET (a cutoff-method scene, e.g. bench/workloads/a-dilute-10k.json) for WARM_STEPS steps on one
// thread so that the dipole Verlet list is built, then times the pass's kernel (dipole_cutoff_kernel over
// the whole list, one thread, into zeroed force and torque arrays) REPEATS times, alternating with the same kernel
// imaging every pair (what it skips where that changes nothing: the minimum image's cost). Prints the list's
// pairs, the pairs within the cutoff (the ones the kernel evaluates; the rest lie in the skin), the median
// time of a pass (wall clock and this thread's CPU time, which a loaded machine disturbs less), and nanoseconds per
// pair within the cutoff and per list pair. For perf stat: instructions and cycles of the whole program divided by
// REPEATS x pairs, with REPEATS large, approach the kernel's.

#include "engine/magnetic/dipole_kernel.hpp"

#include "bench/timing.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/session.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

using namespace lodestone;
using namespace lodestone::bench;

int main(int argc, char** argv) {
  KernelBenchArguments args;
  if (!read_kernel_bench_arguments(argc, argv, "lodestone-dipole-kernel", 200, args)) return 2;
  try {
    const int repeats = args.repeats, warm = args.warm_steps;
    Session session(load_preset_file(args.preset));
    if (session.model().magnetics.method != DipoleMethod::Cutoff) {
      std::fprintf(stderr, "lodestone-dipole-kernel: %s does not use magnetics.method cutoff\n", args.preset);
      return 2;
    }
    session.run(warm);
    const State& s = session.state();
    const Particles& p = s.particles;
    const std::vector<IndexPair>& pairs = s.neighbors.dipole_pairs;
    const Model& model = session.model();
    DipoleKernelInput in{pairs.data(),        p.position.data(),          p.moment.data(),
                         model.dipole_cutoff, model.magnetics.dipole_cap, model.periodic_length};
    in.box_min = model.box.min;
    in.positions_in_box = positions_in_periodic_box(p.position.data(), p.size(), model.box.min, model.periodic_length);
    // Pairs within the cutoff, counted as the kernel counts them (minimum image, 0 < r^2 <= cutoff^2).
    size_t within = 0;
    for (const IndexPair& q : pairs) {
      Vec3 d = p.position[static_cast<size_t>(q.i)] - p.position[static_cast<size_t>(q.j)];
      for (int a = 0; a < 3; ++a)
        if (model.periodic_length[a] > 0.0)
          d[a] -= model.periodic_length[a] * std::nearbyint(d[a] / model.periodic_length[a]);
      const double rsq = d.squaredNorm();
      within += static_cast<size_t>(rsq > 0.0 && rsq <= model.dipole_cutoff * model.dipole_cutoff);
    }
    // Two ways, alternating: as the engine runs the pass, and with every pair imaged (the kernel's way before the
    // image was skipped where it changes nothing; the same bits).
    DipoleKernelInput every_pair_imaged = in;
    every_pair_imaged.positions_in_box = false;
    const DipoleKernelInput* ways[2] = {&in, &every_pair_imaged};
    const char* names[2] = {"pass", "every pair imaged"};
    std::vector<Vec3> force(p.size()), torque(p.size());
    std::vector<double> times[2], cpu_times[2];
    double energy[2] = {0.0, 0.0};
    for (int r = 0; r < repeats; ++r) {
      for (int w = 0; w < 2; ++w) {
        for (size_t i = 0; i < p.size(); ++i) {
          force[i].setZero();
          torque[i].setZero();
        }
        const Clock::time_point start = Clock::now();
        const double cpu_start = thread_seconds();
        energy[w] = dipole_cutoff_kernel(*ways[w], 0, pairs.size(), force.data(), torque.data());
        cpu_times[w].push_back(thread_seconds() - cpu_start);
        times[w].push_back(seconds_since(start));
      }
    }
    std::printf("%zu particles, %zu list pairs, %zu within the cutoff (%.1f %%), energy %.17g J (%s)\n", p.size(),
                pairs.size(), within, 100.0 * static_cast<double>(within) / static_cast<double>(pairs.size()),
                energy[0], energy[0] == energy[1] ? "the same both ways" : "NOT the same both ways");
    for (int w = 0; w < 2; ++w) {
      const double t = median(times[w]), cpu = median(cpu_times[w]);
      std::printf("%s, wall clock %.4g ms (median of %d): %.3g ns per pair within the cutoff, %.3g ns per list pair\n",
                  names[w], t * 1e3, repeats, t * 1e9 / static_cast<double>(within),
                  t * 1e9 / static_cast<double>(pairs.size()));
      std::printf(
          "%s, thread CPU time %.4g ms (median of %d): %.3g ns per pair within the cutoff, %.3g ns per list pair\n",
          names[w], cpu * 1e3, repeats, cpu * 1e9 / static_cast<double>(within),
          cpu * 1e9 / static_cast<double>(pairs.size()));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lodestone-dipole-kernel: %s\n", e.what());
    return 1;
  }
  return 0;
}
