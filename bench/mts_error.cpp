// Error of multiple time steps for the dipole forces (magnetics.force_interval = k, [Dominik-Nubold] App. A.8;
// docs/physics.md, docs/performance.md). Run on demand by bench/multiple_time_steps.sh, never in CI.
//
//   lodestone-mts-error PRESET K STEPS [SEED] [ROWS]
//
// Runs PRESET with force_interval K (and particles.seed SEED if given) for STEPS steps. After every step
// whose dipole pass was extrapolated it computes the exact dipole pass at the same state and prints, over
// those passes, the RMS force error relative to the RMS exact force (per pass, then the mean and the
// largest over the run), the same for the torques, and the dipole energy's error relative to its size
// (mean |error| / mean |energy|, and the largest of each pass's |error| / the largest |energy|: the energy
// passes through zero while random moments turn to the field). ROWS rows
// of observables (time, mean cluster size S, dipole energy, energy balance, contacts) follow, for the
// drift against k = 1.

#include "engine/magnetic/magnetics.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/session.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace lodestone;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s PRESET K STEPS [SEED] [ROWS]\n", argv[0]);
    return 1;
  }
  Preset preset = load_preset_file(argv[1]);
  preset.magnetics.force_interval = std::atoi(argv[2]);
  const long long steps = std::atoll(argv[3]);
  if (argc > 4) preset.particles.seed = std::strtoull(argv[4], nullptr, 10);
  const long long rows = argc > 5 ? std::atoll(argv[5]) : 10;
  Session session(preset);
  const Model& model = session.model();

  State exact;  // the scratch state of the exact pass: particles and dipole pairs copied in
  double sum_f = 0, max_f = 0, sum_t = 0, max_t = 0, sum_de = 0, sum_e = 0, max_de = 0, max_e = 0;
  long long passes = 0;
  std::printf("# %s, force_interval %d, seed %llu, dt %.4g s\n", argv[1], preset.magnetics.force_interval,
              static_cast<unsigned long long>(preset.particles.seed), model.time_step);
  std::printf("# time_s S dipole_J balance_J contacts alignment\n");
  auto row = [&]() {
    const Observables o = session.observe();
    std::printf("%.6g %.6g %.8g %.8g %lld %.6g\n", o.time, o.clusters.mean_cluster_size, o.dipole, o.energy_balance(),
                static_cast<long long>(o.particle_contacts), o.moment_alignment);
  };
  row();
  for (long long n = 1; n <= steps; ++n) {
    if (session.run(1) != 1) {
      std::fprintf(stderr, "stopped: %s\n", session.state().health.message.c_str());
      return 3;
    }
    if (rows > 0 && n % std::max(1LL, steps / rows) == 0) row();
    const State& s = session.state();
    const DipoleHistory& h = s.dipole_history;
    if (preset.magnetics.force_interval <= 1 || h.passes_since_full == 0) continue;
    // The dipole force the step applied: the engine's extrapolation from the stored passes.
    const double w = (s.time - h.time_last) / (h.time_last - h.time_previous);
    exact.particles = s.particles;
    exact.neighbors.dipole_pairs = s.neighbors.dipole_pairs;
    for (size_t i = 0; i < exact.particles.size(); ++i) {
      exact.particles.force[i].setZero();
      exact.particles.torque[i].setZero();
    }
    compute_dipole_forces(model, exact);
    double df = 0, f = 0, dtq = 0, tq = 0;
    for (size_t i = 0; i < exact.particles.size(); ++i) {
      const Vec3 fe = h.force_last[i] + w * (h.force_last[i] - h.force_previous[i]);
      const Vec3 te = h.torque_last[i] + w * (h.torque_last[i] - h.torque_previous[i]);
      df += (fe - exact.particles.force[i]).squaredNorm();
      f += exact.particles.force[i].squaredNorm();
      dtq += (te - exact.particles.torque[i]).squaredNorm();
      tq += exact.particles.torque[i].squaredNorm();
    }
    const double ef = f > 0 ? std::sqrt(df / f) : 0.0, et = tq > 0 ? std::sqrt(dtq / tq) : 0.0;
    const double de = std::abs(s.energy.dipole - exact.energy.dipole), e = std::abs(exact.energy.dipole);
    sum_f += ef, sum_t += et, sum_de += de, sum_e += e;
    max_f = std::max(max_f, ef), max_t = std::max(max_t, et), max_de = std::max(max_de, de), max_e = std::max(max_e, e);
    ++passes;
  }
  std::printf("# neighbour-list builds %llu\n", static_cast<unsigned long long>(session.state().neighbors.builds));
  if (passes > 0)
    std::printf(
        "# extrapolated passes %lld: force rms error mean %.3g max %.3g; torque mean %.3g max %.3g; "
        "dipole energy mean %.3g max %.3g\n",
        passes, sum_f / passes, max_f, sum_t / passes, max_t, sum_e > 0 ? sum_de / sum_e : 0.0,
        max_e > 0 ? max_de / max_e : 0.0);
  return 0;
}
