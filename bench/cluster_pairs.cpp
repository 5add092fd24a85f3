// Would cluster-pair dipole kernels pay here? (issue 38, part 2; docs/performance.md "Cluster pairs: measured").
// Run on demand, never in CI.
//
//   lodestone-cluster-pairs PRESET [REPEATS=20] [WARM_STEPS=5]
//
// Runs PRESET (a cutoff-method scene; the lists are built by brute force, so keep it near 10 000 particles) for
// WARM_STEPS steps, then, on its particles:
//  - times the engine's kernel over its Verlet list (thread CPU time, median of REPEATS) and the pair formula alone
//    (the kernel's step 2 on full blocks): what the gathering and scattering around the formula cost;
//  - groups the particles into clusters of C = 2, 4, 8 as GROMACS's nbnxm scheme does (columns in x-y about as
//    wide as a cluster is tall, sorted along z, cut into runs of C) and counts, for a list of cluster pairs (C x C)
//    and for a list of particle-to-cluster pairs (1 x C) whose bounding boxes come within the list range, the
//    fraction of the computed pairs that lie inside the cutoff;
//  - times a C x C kernel that computes every pair of a cluster pair and masks those outside the cutoff (the i
//    cluster's sums kept over its pairs, the j cluster's written once per pair), checked against the engine's energy.
// Prints, for each, nanoseconds per pair inside the cutoff and the bound "formula alone / fraction": what a masked
// kernel would cost if loading and storing were free.

#include "bench/timing.hpp"
#include "engine/core/simd.hpp"
#include "engine/magnetic/dipole_block.hpp"
#include "engine/magnetic/dipole_kernel.hpp"
#include "engine/scene/document.hpp"
#include "engine/session/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <vector>

using namespace lodestone;
using namespace lodestone::bench;

namespace {

// Median thread CPU time of `repeats` calls of fn.
double median_cpu_seconds(int repeats, const std::function<void()>& fn) {
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const double start = thread_seconds();
    fn();
    times.push_back(thread_seconds() - start);
  }
  return median(times);
}

struct Scene {
  std::vector<Vec3> position, moment;
  Vec3 periodic_length = Vec3::Zero();
  double cutoff = 0.0, list_range = 0.0;

  Vec3 minimum_image(Vec3 d) const {
    for (int a = 0; a < 3; ++a)
      if (periodic_length[a] > 0.0) d[a] -= periodic_length[a] * std::nearbyint(d[a] / periodic_length[a]);
    return d;
  }
  // The shift s that brings the point `to` nearest `from` (to + s), per axis.
  Vec3 image_shift(const Vec3& from, const Vec3& to) const {
    Vec3 s = Vec3::Zero();
    for (int a = 0; a < 3; ++a)
      if (periodic_length[a] > 0.0) s[a] = -periodic_length[a] * std::nearbyint((to[a] - from[a]) / periodic_length[a]);
    return s;
  }
};

// Particles in clusters of C: slot_particle[c * C + l] is lane l of cluster c (-1: padding).
struct Clusters {
  int size = 0;
  std::vector<int> slot_particle;
  std::vector<Vec3> lo, hi;  // bounding boxes
  int count() const { return static_cast<int>(slot_particle.size()) / size; }
};

Clusters make_clusters(const Scene& s, int size) {
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  for (const Vec3& x : s.position) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  const Vec3 extent = (hi - lo).cwiseMax(Vec3::Constant(1e-12));
  const double density = static_cast<double>(s.position.size()) / (extent.x() * extent.y() * extent.z());
  const double side = std::cbrt(size / density);  // a cluster's edge, were it a cube
  const int nx = std::max(1, static_cast<int>(extent.x() / side)),
            ny = std::max(1, static_cast<int>(extent.y() / side));
  std::vector<std::vector<int>> columns(static_cast<size_t>(nx * ny));
  for (size_t i = 0; i < s.position.size(); ++i) {
    const int cx = std::min(nx - 1, static_cast<int>((s.position[i].x() - lo.x()) / extent.x() * nx));
    const int cy = std::min(ny - 1, static_cast<int>((s.position[i].y() - lo.y()) / extent.y() * ny));
    columns[static_cast<size_t>(cx * ny + cy)].push_back(static_cast<int>(i));
  }
  Clusters c;
  c.size = size;
  for (std::vector<int>& column : columns) {
    std::sort(column.begin(), column.end(), [&](int a, int b) {
      return s.position[static_cast<size_t>(a)].z() < s.position[static_cast<size_t>(b)].z();
    });
    for (size_t k = 0; k < column.size(); k += static_cast<size_t>(size))
      for (size_t l = 0; l < static_cast<size_t>(size); ++l)
        c.slot_particle.push_back(k + l < column.size() ? column[k + l] : -1);
  }
  for (int k = 0; k < c.count(); ++k) {
    Vec3 a = Vec3::Constant(INFINITY), b = Vec3::Constant(-INFINITY);
    for (int l = 0; l < size; ++l)
      if (const int p = c.slot_particle[static_cast<size_t>(k * size + l)]; p >= 0) {
        a = a.cwiseMin(s.position[static_cast<size_t>(p)]);
        b = b.cwiseMax(s.position[static_cast<size_t>(p)]);
      }
    c.lo.push_back(a);
    c.hi.push_back(b);
  }
  return c;
}

// Distance between the boxes [alo, ahi] and [blo, bhi].
double box_distance(const Vec3& alo, const Vec3& ahi, const Vec3& blo, const Vec3& bhi) {
  return (alo - bhi).cwiseMax(blo - ahi).cwiseMax(Vec3::Zero()).norm();
}

struct ClusterPair {
  int i, j;
  double shift[3];  // added to the j cluster's positions
};

// Cluster pairs (i <= j) whose boxes come within the list range, at the nearest image of j's box centre.
std::vector<ClusterPair> cluster_pairs(const Scene& s, const Clusters& c) {
  std::vector<ClusterPair> out;
  for (int i = 0; i < c.count(); ++i)
    for (int j = i; j < c.count(); ++j) {
      const Vec3 shift = s.image_shift(0.5 * (c.lo[i] + c.hi[i]), 0.5 * (c.lo[j] + c.hi[j]));
      if (box_distance(c.lo[i], c.hi[i], c.lo[j] + shift, c.hi[j] + shift) < s.list_range)
        out.push_back({i, j, {shift.x(), shift.y(), shift.z()}});
    }
  return out;
}

// Lanes a 1 x C list computes: for each particle, the clusters at or after its own whose boxes come within the
// list range of it, C lanes each.
size_t particle_cluster_lanes(const Scene& s, const Clusters& c) {
  size_t lanes = 0;
  for (int k = 0; k < c.count(); ++k)
    for (int l = 0; l < c.size; ++l) {
      const int p = c.slot_particle[static_cast<size_t>(k * c.size + l)];
      if (p < 0) continue;
      const Vec3& x = s.position[static_cast<size_t>(p)];
      for (int j = k; j < c.count(); ++j) {
        const Vec3 shift = s.image_shift(x, 0.5 * (c.lo[j] + c.hi[j]));
        lanes += box_distance(x, x, c.lo[j] + shift, c.hi[j] + shift) < s.list_range ? static_cast<size_t>(c.size) : 0;
      }
    }
  return lanes;
}

// Positions and moments in slot order, structure of arrays, and the outputs per slot.
struct Packed {
  std::vector<double> x, y, z, mx, my, mz, fx, fy, fz, tx, ty, tz;
};

Packed pack(const Scene& s, const Clusters& c) {
  Packed p;
  for (size_t k = 0; k < c.slot_particle.size(); ++k) {
    const int q = c.slot_particle[k];
    const Vec3 x = q >= 0 ? s.position[static_cast<size_t>(q)] : Vec3::Constant(1e30);  // padding: out of reach
    const Vec3 m = q >= 0 ? s.moment[static_cast<size_t>(q)] : Vec3::Zero();
    p.x.push_back(x.x()), p.y.push_back(x.y()), p.z.push_back(x.z());
    p.mx.push_back(m.x()), p.my.push_back(m.y()), p.mz.push_back(m.z());
  }
  for (auto* v : {&p.fx, &p.fy, &p.fz, &p.tx, &p.ty, &p.tz}) v->assign(c.slot_particle.size(), 0.0);
  return p;
}

// The masked C x C kernel: every pair of each cluster pair is computed on the j lanes, those outside the cutoff
// (or repeated inside one cluster) multiplied by zero. Returns the energy.
template <int C>
LODESTONE_SIMD_CLONES double masked_cluster_kernel(Packed& p, const std::vector<ClusterPair>& pairs, double cutoff) {
  const double cutoff_sq = cutoff * cutoff;
  double energy[C] = {};
  double sum_i[C][6][C] = {};  // the i cluster's sums per particle, component and lane
  auto write_i = [&](int cluster) {
    double* out[6] = {p.fx.data(), p.fy.data(), p.fz.data(), p.tx.data(), p.ty.data(), p.tz.data()};
    for (int a = 0; a < C; ++a)
      for (int q = 0; q < 6; ++q) {
        out[q][cluster * C + a] += lane_sum(sum_i[a][q], C);
        for (int l = 0; l < C; ++l) sum_i[a][q][l] = 0.0;
      }
  };
  for (size_t k = 0; k < pairs.size(); ++k) {
    const ClusterPair& pr = pairs[k];
    if (k > 0 && pairs[k - 1].i != pr.i) write_i(pairs[k - 1].i);
    const int ib = pr.i * C, jb = pr.j * C;
    double xj[C], yj[C], zj[C], mxj[C], myj[C], mzj[C];
    double sum_j[6][C] = {};
    for (int l = 0; l < C; ++l) {
      xj[l] = p.x[static_cast<size_t>(jb + l)] + pr.shift[0];
      yj[l] = p.y[static_cast<size_t>(jb + l)] + pr.shift[1];
      zj[l] = p.z[static_cast<size_t>(jb + l)] + pr.shift[2];
      mxj[l] = p.mx[static_cast<size_t>(jb + l)], myj[l] = p.my[static_cast<size_t>(jb + l)];
      mzj[l] = p.mz[static_cast<size_t>(jb + l)];
    }
    for (int a = 0; a < C; ++a) {
      const auto ia = static_cast<size_t>(ib + a);
      const double xi = p.x[ia], yi = p.y[ia], zi = p.z[ia], mix = p.mx[ia], miy = p.my[ia], miz = p.mz[ia];
      const int first_lane = pr.i == pr.j ? a + 1 : 0;
#pragma omp simd
      for (int l = 0; l < C; ++l) {
        const double dx = xi - xj[l], dy = yi - yj[l], dz = zi - zj[l];
        const double rsq = dx * dx + dy * dy + dz * dz;
        const bool in = (rsq <= cutoff_sq) & (rsq > 0.0) & (l >= first_lane);
        const double inv_r = 1.0 / std::sqrt(in ? rsq : 1.0);
        const double nx = dx * inv_r, ny = dy * inv_r, nz = dz * inv_r;
        const double inv_r3 = in ? mu0_over_4pi * inv_r * inv_r * inv_r : 0.0;
        const double inv_r4 = 3.0 * inv_r3 * inv_r;
        const double mi_n = mix * nx + miy * ny + miz * nz, mj_n = mxj[l] * nx + myj[l] * ny + mzj[l] * nz;
        const double mi_mj = mix * mxj[l] + miy * myj[l] + miz * mzj[l];
        const double radial = mi_mj - 5.0 * mi_n * mj_n;
        const double f[3] = {inv_r4 * (radial * nx + mj_n * mix + mi_n * mxj[l]),
                             inv_r4 * (radial * ny + mj_n * miy + mi_n * myj[l]),
                             inv_r4 * (radial * nz + mj_n * miz + mi_n * mzj[l])};
        const double cx = miy * mzj[l] - miz * myj[l], cy = miz * mxj[l] - mix * mzj[l],
                     cz = mix * myj[l] - miy * mxj[l];
        sum_i[a][0][l] += f[0], sum_i[a][1][l] += f[1], sum_i[a][2][l] += f[2];
        sum_i[a][3][l] += inv_r3 * (3.0 * mj_n * (miy * nz - miz * ny) - cx);
        sum_i[a][4][l] += inv_r3 * (3.0 * mj_n * (miz * nx - mix * nz) - cy);
        sum_i[a][5][l] += inv_r3 * (3.0 * mj_n * (mix * ny - miy * nx) - cz);
        sum_j[0][l] -= f[0], sum_j[1][l] -= f[1], sum_j[2][l] -= f[2];
        sum_j[3][l] += inv_r3 * (3.0 * mi_n * (myj[l] * nz - mzj[l] * ny) + cx);
        sum_j[4][l] += inv_r3 * (3.0 * mi_n * (mzj[l] * nx - mxj[l] * nz) + cy);
        sum_j[5][l] += inv_r3 * (3.0 * mi_n * (mxj[l] * ny - myj[l] * nx) + cz);
        energy[l] -= inv_r3 * (3.0 * mi_n * mj_n - mi_mj);
      }
    }
    double* out[6] = {p.fx.data(), p.fy.data(), p.fz.data(), p.tx.data(), p.ty.data(), p.tz.data()};
    for (int q = 0; q < 6; ++q)
      for (int l = 0; l < C; ++l) out[q][jb + l] += sum_j[q][l];
  }
  if (!pairs.empty()) write_i(pairs.back().i);
  return lane_sum(energy, C);
}

// The formula alone on full blocks [ns per pair].
double formula_ns_per_pair(int repeats) {
  detail::DipoleBlock b;
  for (int k = 0; k < detail::kBlock; ++k) {
    b.dx[k] = 1.5 + 0.01 * k, b.dy[k] = 0.3, b.dz[k] = -0.2;
    b.mx[k] = 1e3, b.my[k] = 2e3 - k, b.mz[k] = 3e3;
  }
  const double mi[3] = {3e3, 1e3, -2e3};
  constexpr int kInner = 2000;
  return median_cpu_seconds(repeats,
                            [&] {
                              for (int r = 0; r < kInner; ++r) {
                                detail::dipole_block(mi, b, detail::kBlock, 0.0);
                                asm volatile("" : : "r"(&b) : "memory");  // keep every block
                              }
                            }) *
         1e9 / (kInner * detail::kBlock);
}

template <int C>
void report_clusters(const Scene& s, size_t within, double engine_energy, double formula_ns, int repeats) {
  const Clusters c = make_clusters(s, C);
  const std::vector<ClusterPair> pairs = cluster_pairs(s, c);
  const double computed = static_cast<double>(pairs.size()) * C * C;
  const double lanes_1xc = static_cast<double>(particle_cluster_lanes(s, c));
  Packed p = pack(s, c);
  double energy = 0.0;
  const double t = median_cpu_seconds(repeats, [&] {
    for (auto* v : {&p.fx, &p.fy, &p.fz, &p.tx, &p.ty, &p.tz}) std::fill(v->begin(), v->end(), 0.0);
    energy = masked_cluster_kernel<C>(p, pairs, s.cutoff);
  });
  const double w = static_cast<double>(within);
  std::printf(
      "%dx%d: %d clusters, %zu cluster pairs, inside the cutoff %.3f of computed pairs; masked kernel %.2f ns "
      "per pair inside (%.2f per computed), bound formula/fraction %.2f ns; energy off by %.1e\n",
      C, C, c.count(), pairs.size(), w / computed, t * 1e9 / w, t * 1e9 / computed, formula_ns * computed / w,
      std::fabs(energy - engine_energy) / std::fabs(engine_energy));
  std::printf("1x%d: inside the cutoff %.3f of computed pairs; bound formula/fraction %.2f ns\n", C, w / lanes_1xc,
              formula_ns * lanes_1xc / w);
}

}  // namespace

int main(int argc, char** argv) {
  KernelBenchArguments args;
  if (!read_kernel_bench_arguments(argc, argv, "lodestone-cluster-pairs", 20, args)) return 2;
  try {
    const int repeats = args.repeats, warm = args.warm_steps;
    Session session(load_preset_file(args.preset));
    const Model& model = session.model();
    if (model.magnetics.method != DipoleMethod::Cutoff) {
      std::fprintf(stderr, "lodestone-cluster-pairs: %s does not use magnetics.method cutoff\n", args.preset);
      return 2;
    }
    session.run(warm);
    const State& state = session.state();
    const Scene s{state.particles.position, state.particles.moment, model.periodic_length, model.dipole_cutoff,
                  model.dipole_cutoff + model.skin};
    const std::vector<IndexPair>& list = state.neighbors.dipole_pairs;
    size_t within = 0;
    for (const IndexPair& q : list) {
      const double rsq =
          s.minimum_image(s.position[static_cast<size_t>(q.i)] - s.position[static_cast<size_t>(q.j)]).squaredNorm();
      within += static_cast<size_t>(rsq > 0.0 && rsq <= s.cutoff * s.cutoff);
    }
    const size_t n = s.position.size();
    std::vector<Vec3> force(n), torque(n);
    const DipoleKernelInput in{list.data(), s.position.data(), s.moment.data(), s.cutoff, 0.0, s.periodic_length};
    double energy = 0.0;
    const double t = median_cpu_seconds(repeats, [&] {
      std::fill(force.begin(), force.end(), Vec3::Zero());
      std::fill(torque.begin(), torque.end(), Vec3::Zero());
      energy = dipole_cutoff_kernel(in, 0, list.size(), force.data(), torque.data());
    });
    const double formula = formula_ns_per_pair(repeats);
    std::printf("%zu particles, %zu pairs inside the cutoff (%.3f of the Verlet list's %zu)\n", n, within,
                static_cast<double>(within) / static_cast<double>(list.size()), list.size());
    std::printf("engine kernel (per-pair list): %.2f ns per pair inside; pair formula alone %.2f ns per pair\n",
                t * 1e9 / static_cast<double>(within), formula);
    report_clusters<2>(s, within, energy, formula, repeats);
    report_clusters<4>(s, within, energy, formula, repeats);
    report_clusters<8>(s, within, energy, formula, repeats);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lodestone-cluster-pairs: %s\n", e.what());
    return 1;
  }
  return 0;
}
