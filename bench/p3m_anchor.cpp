// Our dipolar P3M on a scene LAMMPS reads too (issue 38, "P3M against its anchor"; docs/performance.md "P3M
// against LAMMPS pppm/dipole"). Run on demand by bench/p3m-vs-lammps.sh, never in CI.
//
//   lodestone-p3m-anchor N PHI OUTDIR [THREADS=1] [REPEATS=5] [REFERENCE_ACCURACY=1e-8]
//
// Places about N spheres of 1 mm in a periodic cube at volume fraction PHI (bench/scenes.hpp, the scene of
// lodestone-p3m-bench), moments 8e5 A/m x V in random directions, and writes into OUTDIR:
//   scene.data      a LAMMPS data file (atom_style hybrid sphere dipole) in lj units: lengths in diameters d,
//                   moments in m0 = |m| (all equal), so that forces are in F0 = c m0^2 / d^4 (c = mu0/4pi; LAMMPS's
//                   lj units take c = 1 for dipoles);
//   reference.txt   "id fx fy fz" (ids from 1, as LAMMPS numbers them) in F0: the dipolar Ewald sum
//                   (engine/magnetic/ewald.hpp) with every dropped term below REFERENCE_ACCURACY relative to its pair;
//                   kept when OUTDIR holds one for the same N, PHI and accuracy (its first line says which), as
//                   the sum takes minutes at 100 000.
// Then times the engine's dipole pass with magnetics.method p3m at its default accuracy (compute_dipole_forces: the
// mesh part and the real-space pairs; the tuning and the Verlet list made once before, untimed), medians of REPEATS,
// for each thread count in THREADS (a comma list), and prints one line per count:
//   ours threads T ns_per_particle X pass_ms Y rms_error E mesh M order P alpha_d A cutoff_d R
// where E is the RMS force error relative to the RMS force, sqrt(sum |F - F_ref|^2 / sum |F_ref|^2), the measure
// bench/p3m-vs-lammps.sh applies to LAMMPS's forces too.

#include "dipole_pass.hpp"
#include "engine/core/model.hpp"
#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/magnetic/magnetics.hpp"
#include "engine/step/model_preparation.hpp"
#include "engine/step/neighbor.hpp"
#include "scenes.hpp"
#include "timing.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace lodestone;
using namespace lodestone::bench;

namespace {

constexpr double kDiameter = 1e-3;
constexpr double kMu0Over4Pi = 1e-7;

Model p3m_model(double side, const Particles& particles) {
  Preset p;
  p.materials = {Material{}};
  p.materials[0].name = "bench";
  p.materials[0].magnetization = 8e5;
  p.magnetics.method = DipoleMethod::P3M;
  p.box.min = Vec3::Zero();
  p.box.max = Vec3::Constant(side);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Periodic;
  Model model = make_model(p);
  prepare_model(model, particles);
  return model;
}

std::vector<Vec3> ewald_forces(const Particles& particles, double side, double accuracy, ThreadTeam& team) {
  EwaldSystem system;
  system.position = particles.position;
  system.moment = particles.moment;
  system.box_length = Vec3::Constant(side);
  system.split = choose_ewald_splitting(accuracy, system.box_length, particles.size());
  EwaldSum sum;
  sum.build(system, &team);
  std::vector<Vec3> force(particles.size(), Vec3::Zero());
  sum.add_particle_terms(force.data(), nullptr, team);
  return force;
}

// sqrt(sum |F_i - F_ref(id_i)|^2 / sum |F_ref|^2): the engine reorders large scenes into cell order, so the
// particles are matched by id.
double relative_rms_error(const Particles& particles, const std::vector<Vec3>& reference) {
  double difference = 0.0, size = 0.0;
  for (size_t i = 0; i < particles.size(); ++i) {
    const Vec3& b = reference[particles.id[i]];
    difference += (particles.force[i] - b).squaredNorm();
    size += b.squaredNorm();
  }
  return std::sqrt(difference / size);
}

void write_lammps_data(const std::string& path, const Particles& particles, double side, double m0) {
  std::ofstream out(path);
  out << "LAMMPS data file: lodestone-p3m-anchor scene, lj units (d = 1, |mu| = 1)\n\n"
      << particles.size() << " atoms\n1 atom types\n\n";
  out.precision(17);
  for (const char* axis : {"x", "y", "z"}) out << "0 " << side / kDiameter << ' ' << axis << "lo " << axis << "hi\n";
  out << "\nAtoms # hybrid sphere dipole\n\n";
  for (size_t i = 0; i < particles.size(); ++i) {
    const Vec3 x = particles.position[i] / kDiameter, m = particles.moment[i] / m0;
    // id type x y z diameter density q mux muy muz (density: any; no dynamics is run)
    out << i + 1 << " 1 " << x.x() << ' ' << x.y() << ' ' << x.z() << " 1 1 0 " << m.x() << ' ' << m.y() << ' ' << m.z()
        << '\n';
  }
}

// The first line of reference.txt: what it is the reference of.
std::string reference_header(size_t n, double phi, double accuracy) {
  char line[160];
  std::snprintf(line, sizeof line, "# Ewald reference: %zu particles, phi %.6g, accuracy %.3g", n, phi, accuracy);
  return line;
}

std::vector<Vec3> read_forces(const std::string& path, const std::string& header, size_t n, double f0) {
  std::ifstream in(path);
  std::string first;
  if (!std::getline(in, first) || first != header) return {};
  std::vector<Vec3> force(n, Vec3::Zero());
  size_t id = 0;
  for (size_t k = 0; k < n; ++k) {
    Vec3 f;
    if (!(in >> id >> f.x() >> f.y() >> f.z()) || id < 1 || id > n) return {};
    force[id - 1] = f * f0;
  }
  return force;
}

void write_forces(const std::string& path, const std::string& header, const std::vector<Vec3>& force, double f0) {
  std::ofstream out(path);
  out << header << '\n';
  out.precision(17);
  for (size_t i = 0; i < force.size(); ++i)
    out << i + 1 << ' ' << force[i].x() / f0 << ' ' << force[i].y() / f0 << ' ' << force[i].z() / f0 << '\n';
}

std::vector<int> parse_counts(const std::string& list) {
  std::vector<int> counts;
  for (size_t pos = 0; pos < list.size();) {
    const size_t comma = std::min(list.find(',', pos), list.size());
    counts.push_back(std::atoi(list.substr(pos, comma - pos).c_str()));
    pos = comma + 1;
  }
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: lodestone-p3m-anchor N PHI OUTDIR [THREADS=1] [REPEATS=5] [REFERENCE_ACCURACY=1e-8]\n");
    return 2;
  }
  const size_t n_asked = std::strtoull(argv[1], nullptr, 10);
  const double phi = std::atof(argv[2]);
  const std::string dir = argv[3];
  const std::vector<int> threads = parse_counts(argc > 4 ? argv[4] : "1");
  const int repeats = argc > 5 ? std::atoi(argv[5]) : 5;
  const double reference_accuracy = argc > 6 ? std::atof(argv[6]) : 1e-8;
  if (n_asked < 2 || !(phi > 0.0 && phi <= 0.7) || repeats < 1) {
    std::fprintf(stderr, "N must be >= 2, PHI in (0, 0.7], REPEATS >= 1\n");
    return 2;
  }

  double side = 0.0;
  State state;
  state.particles = periodic_scene(n_asked, phi, kDiameter, 11 + n_asked, side);
  const size_t n = state.particles.size();
  for (size_t i = 0; i < n; ++i) state.particles.id[i] = i;
  const double m0 = state.particles.moment[0].norm();
  const double f0 = kMu0Over4Pi * m0 * m0 / std::pow(kDiameter, 4);
  write_lammps_data(dir + "/scene.data", state.particles, side, m0);

  const std::string header = reference_header(n, phi, reference_accuracy);
  std::vector<Vec3> reference = read_forces(dir + "/reference.txt", header, n, f0);
  if (reference.empty()) {
    ThreadTeam reference_team(threads.back());
    const auto reference_start = Clock::now();
    reference = ewald_forces(state.particles, side, reference_accuracy, reference_team);
    std::printf("# %zu particles, side %.6g d, phi %.3g; Ewald reference (accuracy %.1e) in %.1f s on %d thread(s)\n",
                n, side / kDiameter, phi, reference_accuracy, seconds_since(reference_start), threads.back());
    write_forces(dir + "/reference.txt", header, reference, f0);
  }

  const Model model = p3m_model(side, state.particles);
  for (const int t : threads) {
    ThreadTeam team(t);
    build_neighbor_lists(model, state, team);  // the real-space pairs' Verlet list, as the step keeps it
    std::vector<double> times;
    for (int k = 0; k < repeats; ++k) times.push_back(timed_dipole_pass(model, state, team));
    const double error = relative_rms_error(state.particles, reference);
    const double pass = median(times);
    std::printf(
        "ours threads %d ns_per_particle %.0f pass_ms %.2f rms_error %.3g mesh %d order %d alpha_d %.3f "
        "cutoff_d %.3f\n",
        t, 1e9 * pass / static_cast<double>(n), 1e3 * pass, error, model.p3m.mesh[0], model.p3m.order,
        model.p3m.alpha * kDiameter, model.p3m.real_cutoff / kDiameter);
    std::fflush(stdout);
  }
  return 0;
}
