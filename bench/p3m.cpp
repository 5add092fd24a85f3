// Long-range dipoles in a periodic box: one P3M force pass (magnetics.method p3m at its default accuracy) against
// the cutoff method's dipole pass at a 4-diameter cutoff (docs/performance.md "Dipolar P3M against the cutoff
// pass"). Run on demand, never in CI.
//
//   lodestone-p3m-bench [REPEATS=3] [THREADS=1] [SIZES=10000,30000,100000,300000] [ACCURACY=default] [PHI=0.1]
//
// For each N: spheres of 1 mm placed without overlap by random sequential addition in a periodic cube at volume
// fraction PHI (up to 0.35 by random sequential addition, which jams near 0.38; above, up to 0.7, on a face-centred
// cubic lattice of 4 k^3 spheres with random offsets, N rounded to the nearest such count), moments 8e5 A/m x V in
// random directions. Times, as medians of REPEATS runs, the engine's dipole pass (compute_dipole_forces) with method
// p3m (the mesh assignment, FFTs, interpolation and real-space pairs; the tuning is done once by prepare_model and not
// timed) and with method cutoff (the pair kernel over the Verlet list); each method's Verlet list (P3M's holds its
// real-space pairs) is built once before and not timed. Prints ns per particle, the ratio, P3M's cost per N log2 N, the
// tuned parameters and P3M's parts (spread, FFTs, real-space pairs, mesh gather) from one extra pass.

#include "engine/magnetic/p3m.hpp"

#include "dipole_pass.hpp"
#include "engine/core/model.hpp"
#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"
#include "engine/magnetic/magnetics.hpp"
#include "engine/magnetic/periodic_systems.hpp"
#include "engine/step/model_preparation.hpp"
#include "engine/step/neighbor.hpp"
#include "scenes.hpp"
#include "timing.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace lodestone;
using namespace lodestone::bench;

namespace {

constexpr double kDiameter = 1e-3;

Preset periodic_preset(double side, DipoleMethod method) {
  Preset p;
  p.materials = {Material{}};
  p.materials[0].name = "bench";
  p.materials[0].magnetization = 8e5;
  p.magnetics.method = method;
  p.box.min = Vec3::Zero();
  p.box.max = Vec3::Constant(side);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Periodic;
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  std::vector<size_t> sizes = {10000, 30000, 100000, 300000};
  if (argc > 3) {
    sizes.clear();
    const std::string list = argv[3];
    for (size_t pos = 0; pos < list.size();) {
      const size_t comma = std::min(list.find(',', pos), list.size());
      sizes.push_back(std::strtoull(list.substr(pos, comma - pos).c_str(), nullptr, 10));
      pos = comma + 1;
    }
  }
  const double accuracy =
      argc > 4 && std::string(argv[4]) != "default" ? std::atof(argv[4]) : MagneticParameters{}.p3m_accuracy;
  const double phi = argc > 5 ? std::atof(argv[5]) : 0.1;
  if (!(phi > 0.0 && phi <= 0.7)) {
    std::fprintf(stderr, "PHI (volume fraction) must be in (0, 0.7], got '%s'\n", argv[5]);
    return 2;
  }
  ThreadTeam team(threads);
  std::printf("# dipole pass: p3m (accuracy %.2g) vs cutoff (4 d); medians of %d; %d thread(s); phi %.3g\n", accuracy,
              repeats, threads, phi);
  std::printf("# %7s %10s %10s %7s %12s | %-22s | %s\n", "N", "p3m_ns/p", "cut_ns/p", "ratio", "p3m_ns/NlogN",
              "mesh order alpha*d rc/d", "parts ns/p: spread fft real gather");
  for (size_t n : sizes) {
    double side = 0.0;
    State state;
    state.particles = periodic_scene(n, phi, kDiameter, 11 + n, side);
    n = state.particles.size();

    Model cutoff = make_model(periodic_preset(side, DipoleMethod::Cutoff));
    cutoff.magnetics.cutoff = 4.0 * kDiameter;
    prepare_model(cutoff, state.particles);
    build_neighbor_lists(cutoff, state, team);
    std::vector<double> cutoff_times;
    for (int k = 0; k < repeats; ++k) cutoff_times.push_back(timed_dipole_pass(cutoff, state, team));

    Model mesh = make_model(periodic_preset(side, DipoleMethod::P3M));
    mesh.magnetics.p3m_accuracy = accuracy;
    prepare_model(mesh, state.particles);
    build_neighbor_lists(mesh, state, team);  // the real-space pairs' Verlet list, as the step keeps it
    std::vector<double> p3m_times;
    for (int k = 0; k < repeats; ++k) p3m_times.push_back(timed_dipole_pass(mesh, state, team));
    // The parts, from one more pass through P3MSum directly.
    P3MSystem system;
    system.position = state.particles.position;
    system.moment = state.particles.moment;
    system.box_length = mesh.periodic_length;
    system.tuning = mesh.p3m;
    if (p3m_pairs_from_list(mesh)) system.pairs = &state.neighbors.dipole_pairs;
    P3MSum sum;
    sum.build(system, &team);
    std::vector<Vec3> force(n, Vec3::Zero()), field(n, Vec3::Zero());
    sum.add_particle_terms(force.data(), field.data(), team);
    const P3MTimings& t = sum.timings();

    const double nn = static_cast<double>(n);
    const double p3m_s = median(p3m_times), cutoff_s = median(cutoff_times);
    std::printf("  %7zu %10.0f %10.0f %7.1f %12.1f | %3d^3 %d %8.2f %6.2f | %6.0f %6.0f %6.0f %6.0f\n", n,
                1e9 * p3m_s / nn, 1e9 * cutoff_s / nn, p3m_s / cutoff_s, 1e9 * p3m_s / (nn * std::log2(nn)),
                mesh.p3m.mesh[0], mesh.p3m.order, mesh.p3m.alpha * kDiameter, mesh.p3m.real_cutoff / kDiameter,
                1e9 * t.spread / nn, 1e9 * t.fft / nn, 1e9 * t.real_space / nn, 1e9 * t.mesh_gather / nn);
    std::fflush(stdout);
  }
  return 0;
}
