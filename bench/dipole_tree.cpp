// Long-range dipoles: the Barnes-Hut tree against the direct sum (magnetics.method tree vs direct;
// docs/performance.md "Long-range dipoles: tree vs direct", docs/physics.md). Run on demand, never in CI.
//
//   lodestone-dipole-tree [REPEATS=3] [THETA=default] [SUBSET=2000] [SIZES=1000,10000,100000]
//
// For each N: a random dilute scene (spheres of radius 0.5 to 1.5 mm placed without overlap by random
// sequential addition in a cube, volume fraction 0.15; moments 8e5 A/m x V in random directions). Times, as
// medians of REPEATS runs, the engine's dipole pass (compute_dipole_forces) with method tree (build and
// evaluation) and, up to N = 10 000, with method direct (every pair once, N(N-1)/2 pairs). Above that the
// direct pass is estimated: SUBSET random targets each sum the exact force over all N - 1 others (the pair
// formula of engine/magnetic/dipole.hpp with the direct pass's checks), and the pass is that time x N / (2 SUBSET)
// (the pass evaluates each pair once for both particles). Where both exist the two direct figures are
// printed side by side, which checks the estimate. The RMS relative error sqrt(sum |F_tree - F|^2 / sum |F|^2)
// of force and torque is over all particles where the direct pass ran, else over the SUBSET targets. The tree's
// process CPU time is printed beside its wall time (on a shared machine the CPU time is the steadier figure),
// and the last line gives the spread of the cost per N log2 N over the sizes (largest / smallest).

#include "engine/core/model.hpp"
#include "engine/core/random.hpp"
#include "engine/core/state.hpp"
#include "engine/magnetic/dipole.hpp"
#include "engine/magnetic/magnetics.hpp"
#include "scenes.hpp"
#include "timing.hpp"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace lodestone;
using namespace lodestone::bench;

namespace {

// The radii are drawn first (uniform in 0.5 to 1.5 mm), the cube sized for the volume fraction phi.
Particles random_scene(size_t n, double phi, std::uint64_t seed) {
  Random rng(seed);
  std::vector<double> radii(n);
  double volume = 0.0;
  for (double& r : radii) {
    r = rng.uniform(0.5e-3, 1.5e-3);
    volume += sphere_volume(r);
  }
  return random_sequential_addition(radii, std::cbrt(volume / phi), 3e-3, false, rng);
}

// CPU time of this process [s]: on a shared machine (more runnable jobs than cores) the one-thread pass's CPU
// time is far steadier than its wall time.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// One dipole pass of the engine; returns the wall time [s] and adds the CPU time to *cpu.
double timed_pass(const Model& model, State& state, double* cpu = nullptr) {
  for (size_t i = 0; i < state.particles.size(); ++i) {
    state.particles.force[i].setZero();
    state.particles.torque[i].setZero();
  }
  const double cpu_start = cpu_seconds();
  const auto start = Clock::now();
  compute_dipole_forces(model, state);
  const double wall = seconds_since(start);
  if (cpu) *cpu = cpu_seconds() - cpu_start;
  return wall;
}

// The command line (usage at the top of the file).
struct Options {
  int repeats = 3;
  double theta = 0.0;
  size_t subset = 2000;
  std::vector<size_t> sizes = {1000, 10000, 100000};
};

// REPEATS, THETA, SUBSET and SIZES from the arguments; the defaults where they are missing.
Options parse_options(int argc, char** argv) {
  Options options;
  options.repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  options.theta =
      argc > 2 && std::string(argv[2]) != "default" ? std::atof(argv[2]) : MagneticParameters{}.tree_opening_angle;
  options.subset = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 2000;
  if (argc > 4) {
    options.sizes.clear();
    std::string list = argv[4];
    for (size_t pos = 0; pos < list.size();) {
      const size_t comma = std::min(list.find(',', pos), list.size());
      options.sizes.push_back(std::strtoull(list.substr(pos, comma - pos).c_str(), nullptr, 10));
      pos = comma + 1;
    }
  }
  return options;
}

// The tree pass: the medians of its wall and CPU times, and the forces, torques and energy it found.
struct TreePass {
  double wall_s = 0.0, cpu_s = 0.0;
  std::vector<Vec3> force, torque;
  double energy = 0.0;
};

TreePass time_tree(const Model& tree_model, State& state, int repeats) {
  std::vector<double> tree_times, tree_cpu;
  for (int k = 0; k < repeats; ++k) {
    double cpu = 0.0;
    tree_times.push_back(timed_pass(tree_model, state, &cpu));
    tree_cpu.push_back(cpu);
  }
  TreePass tree;
  tree.cpu_s = median(tree_cpu);
  tree.force = state.particles.force;
  tree.torque = state.particles.torque;
  tree.energy = state.energy.dipole;
  tree.wall_s = median(tree_times);
  return tree;
}

// The tree's errors: RMS relative error of force and torque, relative error of the energy (NAN: not known).
struct TreeErrors {
  double force = 0, torque = 0, energy = NAN;
};

// The direct pass over the n particles: returns the median of its times [s] and sets the tree's errors against it.
double time_direct(const Model& direct_model, State& state, size_t n, int repeats, const TreePass& tree,
                   TreeErrors& errors) {
  const Particles& p = state.particles;
  std::vector<double> times;
  for (int k = 0; k < repeats; ++k) times.push_back(timed_pass(direct_model, state));
  const double direct_s = median(times);
  double df = 0, f = 0, dt = 0, t = 0;
  for (size_t i = 0; i < n; ++i) {
    df += (tree.force[i] - p.force[i]).squaredNorm();
    f += p.force[i].squaredNorm();
    dt += (tree.torque[i] - p.torque[i]).squaredNorm();
    t += p.torque[i].squaredNorm();
  }
  errors.energy = std::abs(tree.energy - state.energy.dipole) / std::abs(state.energy.dipole);
  errors.force = std::sqrt(df / f), errors.torque = std::sqrt(dt / t);
  return direct_s;
}

// The subset estimate of the direct pass [s] and the tree's errors on the subset's targets (force and torque).
struct SubsetEstimate {
  double seconds = NAN;
  TreeErrors errors;
};

SubsetEstimate estimate_direct(const Model& direct_model, const Particles& p, size_t n, const TreePass& tree,
                               const Options& options) {
  Random rng(99);
  std::vector<size_t> targets(std::min(options.subset, n));
  for (size_t& i : targets) i = static_cast<size_t>(rng.uniform() * static_cast<double>(n)) % n;
  std::vector<double> times;
  double df = 0, f = 0, dt = 0, t = 0;
  for (int k = 0; k < options.repeats; ++k) {
    const auto start = Clock::now();
    df = f = dt = t = 0;
    for (size_t i : targets) {
      Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
      for (size_t j = 0; j < n; ++j) {
        if (j == i || p.moment[j].squaredNorm() == 0.0) continue;
        const Vec3 separation = minimum_image(direct_model, p.position[i] - p.position[j]);
        if (separation.squaredNorm() == 0.0) continue;
        const DipolePair d = dipole_pair(separation, p.moment[i], p.moment[j], direct_model.magnetics.dipole_cap);
        force += d.force_i;
        torque += d.torque_i;
      }
      df += (tree.force[i] - force).squaredNorm();
      f += force.squaredNorm();
      dt += (tree.torque[i] - torque).squaredNorm();
      t += torque.squaredNorm();
    }
    times.push_back(seconds_since(start));
  }
  SubsetEstimate estimate;
  estimate.seconds = median(times) * static_cast<double>(n) / (2.0 * static_cast<double>(targets.size()));
  estimate.errors.force = std::sqrt(df / f), estimate.errors.torque = std::sqrt(dt / t);
  return estimate;
}

// One size N: prints its row and appends the tree's cost per N log2 N (wall and CPU) to per_wall and per_cpu.
void bench_size(size_t n, const Options& options, std::vector<double>& per_wall, std::vector<double>& per_cpu) {
  State state;
  state.particles = random_scene(n, 0.15, 7 + n);
  Model tree_model, direct_model;
  tree_model.magnetics.method = DipoleMethod::Tree;
  tree_model.magnetics.tree_opening_angle = options.theta;
  direct_model.magnetics.method = DipoleMethod::Direct;
  const TreePass tree = time_tree(tree_model, state, options.repeats);

  double direct_s = NAN;
  TreeErrors errors;
  if (n <= 10000) direct_s = time_direct(direct_model, state, n, options.repeats, tree, errors);
  // The subset estimate (and, above 10 000, the error on the subset).
  const SubsetEstimate estimate = estimate_direct(direct_model, state.particles, n, tree, options);
  const double estimate_s = estimate.seconds;
  if (n > 10000) errors.force = estimate.errors.force, errors.torque = estimate.errors.torque;
  const double reference_s = std::isnan(direct_s) ? estimate_s : direct_s;
  const double n_log_n = static_cast<double>(n) * std::log2(static_cast<double>(n));
  std::printf("  %8zu %12.3f %14.1f %14.1f %9.1f %12.3g %12.3g %12.3g %14.2f %12.3f %14.2f\n", n, 1e3 * tree.wall_s,
              1e3 * direct_s, 1e3 * estimate_s, reference_s / tree.wall_s, errors.force, errors.torque, errors.energy,
              1e9 * tree.wall_s / n_log_n, 1e3 * tree.cpu_s, 1e9 * tree.cpu_s / n_log_n);
  std::fflush(stdout);
  per_wall.push_back(1e9 * tree.wall_s / n_log_n);
  per_cpu.push_back(1e9 * tree.cpu_s / n_log_n);
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  std::printf("# dipole pass, tree (theta %.3g) vs direct; medians of %d; phi 0.15, random moments\n", options.theta,
              options.repeats);
  std::printf("# %8s %12s %14s %14s %9s %12s %12s %12s %14s %12s %14s\n", "N", "tree_ms", "direct_ms", "direct_est_ms",
              "speedup", "force_err", "torque_err", "energy_err", "tree_ns/NlogN", "tree_cpu_ms", "cpu_ns/NlogN");
  std::vector<double> per_wall, per_cpu;  // tree ns per N log2 N, by size
  for (const size_t n : options.sizes) bench_size(n, options, per_wall, per_cpu);
  if (per_wall.size() > 1) {
    auto spread = [](const std::vector<double>& v) {
      return *std::max_element(v.begin(), v.end()) / *std::min_element(v.begin(), v.end());
    };
    std::printf("# tree cost per N log2 N, largest / smallest over the sizes: wall %.2f, cpu %.2f\n", spread(per_wall),
                spread(per_cpu));
  }
  return 0;
}
