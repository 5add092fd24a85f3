#include "engine/magnetic/p3m.hpp"

#include "engine/core/simd.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/magnetic/p3m_mesh.hpp"

#include <fftw3.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

namespace lodestone {
namespace {

using p3m_detail::axis_tables;
using p3m_detail::AxisTables;
using p3m_detail::kMaxOrder;

constexpr double kSqrtPi = 1.7724538509055160273;
// Particles per thread below which a per-target pass stays on one thread.
constexpr size_t kTargetGrain = 256;
// Listed real-space pairs per thread below which the pass stays on one thread.
constexpr size_t kPairGrain = 10000;

// The cardinal B-spline weights of order P for a point at mesh coordinate u: the P mesh points first..first+P-1
// (first = floor(u - P/2) + 1) get weight[0..P-1], which sum to 1.
int bspline_weights(double u, int order, double* weight) {
  const int first = static_cast<int>(std::floor(u - 0.5 * order)) + 1;
  // x in [0, 1): the point's offset, w[j] = M_p(x + j) by the recursion
  // M_p(z) = [z M_{p-1}(z) + (p - z) M_{p-1}(z - 1)] / (p - 1), M_1 = indicator of [0, 1).
  const double x = u + 0.5 * order - first - (order - 1);
  double w[kMaxOrder];
  w[0] = 1.0;
  for (int p = 2; p <= order; ++p) {
    w[p - 1] = 0.0;
    for (int j = p - 1; j >= 0; --j) {
      const double z = x + j;
      const double left = w[j] * z;
      const double right = j > 0 ? w[j - 1] * (p - z) : 0.0;
      w[j] = (left + right) / (p - 1);
    }
  }
  // Point first + k lies at distance u - first - k, i.e. argument x + (P - 1 - k) of M_P.
  for (int k = 0; k < order; ++k) weight[k] = w[order - 1 - k];
  return first;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------------
// The plan: FFTW plans, influence functions and the self-energy correction for one (box, mesh, order, alpha).

struct P3MSum::Plan {
  int n[3] = {0, 0, 0};
  int nzc = 0;  // complex points along z: n[2]/2 + 1
  size_t real_size = 0, complex_size = 0;
  fftw_plan forward = nullptr, backward = nullptr;
  std::vector<double> g_energy, g_force;  // per complex slot
  std::vector<double> dx, dy, dz;         // differential operator per axis
  Vec3 self_correction = Vec3::Zero();    // 2 (T_mesh - T_ewald) diagonal [T / (A m^2)]
  ~Plan() {
    if (forward) fftw_destroy_plan(forward);
    if (backward) fftw_destroy_plan(backward);
  }
};

namespace {

std::mutex& fftw_mutex() {
  static std::mutex m;  // FFTW's planner is not thread-safe; fftw_execute_dft_* on new arrays is
  return m;
}

using PlanKey = std::tuple<int, int, int, int, double, double, double, double>;

// Mesh arrays recycled between passes by the thread that frees them. A pass at a 96^3 mesh writes some 130 MB of mesh
// arrays; fresh ones each pass cost a page fault per 4 KiB page at the first write and an unmap at the free, which the
// kernel serialises between threads: at 100 000 particles 11 % of the pass on one thread, and most of what
// stayed serial on 16 (docs/performance.md, "The mesh arrays kept"). Each thread keeps a few arrays of each kind that
// its passes freed, for its next pass; a recycled array holds the last pass's values, which no pass reads before it
// writes them.
template <class T>
class RecycledArrays {
 public:
  ~RecycledArrays() {
    for (const auto& [n, p] : kept_) fftw_free(p);
  }
  // An array of n values kept by this thread, or nullptr.
  T* take(size_t n) {
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (it->first == n) {
        T* p = it->second;
        kept_.erase(it);
        return p;
      }
    return nullptr;
  }
  void give(T* p, size_t n) {
    if (kept_.size() >= kMost) {  // the oldest goes (a pass at another mesh size)
      fftw_free(kept_.front().second);
      kept_.erase(kept_.begin());
    }
    kept_.emplace_back(n, p);
  }

 private:
  // The most arrays of one kind a pass frees on one thread: three spread components and three spectra, the moment
  // divergence, and a backward part's spectrum and output.
  static constexpr size_t kMost = 8;
  std::vector<std::pair<size_t, T*>> kept_;
};

template <class T>
RecycledArrays<T>& recycled_arrays() {
  thread_local RecycledArrays<T> arrays;
  return arrays;
}

// n values of T in memory from FFTW's allocator for T (aligned for its SIMD code, as the plans were made with), from
// this thread's recycled arrays when it has one of that size; recycled by the thread that frees it.
template <class T, T* (*allocate)(size_t)>
struct FftwBuffer {
  T* p = nullptr;
  size_t n = 0;
  explicit FftwBuffer(size_t size) : n(size) {
    p = recycled_arrays<T>().take(n);
    if (!p) p = allocate(n);
  }
  ~FftwBuffer() {
    if (p) recycled_arrays<T>().give(p, n);
  }
  FftwBuffer(const FftwBuffer&) = delete;
  FftwBuffer& operator=(const FftwBuffer&) = delete;
};
using FftwReal = FftwBuffer<double, fftw_alloc_real>;
using FftwComplex = FftwBuffer<fftw_complex, fftw_alloc_complex>;

// The mesh field's array (9 values a mesh point: 63 MB at 96^3), recycled as the FFTW arrays are: a P3MSum is made for
// each pass, and takes this thread's kept array when it is built and leaves its own when it goes.
std::vector<double>& kept_mesh_field() {
  thread_local std::vector<double> kept;
  return kept;
}

// The Ewald sum's own k-space self-interaction of a unit dipole along each axis, T_ewald (diagonal for a
// rectangular box): the lattice energy of one dipole per box (an Ewald sum of one particle, converged) minus the
// Ewald self term and the real-space images.
Vec3 ewald_k_self(const Vec3& length, double alpha) {
  const Vec3 origin = Vec3::Zero();
  Vec3 t = Vec3::Zero();
  const double self = mu0_over_4pi * 2.0 * alpha * alpha * alpha / (3.0 * kSqrtPi);
  for (int a = 0; a < 3; ++a) {
    const Vec3 m = Vec3::Unit(a);
    EwaldSystem s;
    s.position = std::span<const Vec3>(&origin, 1);
    s.moment = std::span<const Vec3>(&m, 1);
    s.box_length = length;
    s.split = choose_ewald_splitting(1e-14, length, 1);
    EwaldSum sum;
    sum.build(s);
    const double lattice = sum.add_particle_terms(nullptr, nullptr, ThreadTeam::serial());
    // Real-space images of the dipole at splitting alpha: 1/2 sum_{n != 0} c [B(r) - C(r) r_a^2].
    double images = 0.0;
    const int reach = 4;
    for (int i = -reach; i <= reach; ++i)
      for (int j = -reach; j <= reach; ++j)
        for (int k = -reach; k <= reach; ++k) {
          if (i == 0 && j == 0 && k == 0) continue;
          const Vec3 r = length.cwiseProduct(Vec3(i, j, k));
          const double rsq = r.squaredNorm(), dist = std::sqrt(rsq);
          const double g = std::exp(-alpha * alpha * rsq) / (alpha * kSqrtPi);
          const double b = (std::erfc(alpha * dist) / dist + 2.0 * alpha * alpha * g) / rsq;
          const double c = (3.0 * b + 4.0 * alpha * alpha * alpha * alpha * g) / rsq;
          images += 0.5 * mu0_over_4pi * (b - c * r[a] * r[a]);
        }
    t[a] = lattice - (-self) - images;
  }
  return t;
}

std::shared_ptr<const P3MSum::Plan> make_plan(const int mesh[3], const Vec3& length, int order, double alpha) {
  auto plan = std::make_shared<P3MSum::Plan>();
  for (int a = 0; a < 3; ++a) plan->n[a] = mesh[a];
  plan->nzc = mesh[2] / 2 + 1;
  plan->real_size = static_cast<size_t>(mesh[0]) * mesh[1] * mesh[2];
  plan->complex_size = static_cast<size_t>(mesh[0]) * mesh[1] * plan->nzc;
  {
    std::lock_guard<std::mutex> lock(fftw_mutex());
    FftwReal r(plan->real_size);
    FftwComplex c(plan->complex_size);
    plan->forward = fftw_plan_dft_r2c_3d(mesh[0], mesh[1], mesh[2], r.p, c.p, FFTW_ESTIMATE);
    plan->backward = fftw_plan_dft_c2r_3d(mesh[0], mesh[1], mesh[2], c.p, r.p, FFTW_ESTIMATE);
  }
  AxisTables ax[3];
  for (int a = 0; a < 3; ++a) ax[a] = axis_tables(mesh[a], length[a], order);
  plan->dx = ax[0].d;
  plan->dy = ax[1].d;
  plan->dz = ax[2].d;
  plan->g_energy.assign(plan->complex_size, 0.0);
  plan->g_force.assign(plan->complex_size, 0.0);
  const double inv4a2 = 1.0 / (4.0 * alpha * alpha);
  const double volume = length.x() * length.y() * length.z();
  Vec3 t_mesh = Vec3::Zero();
  for (int ix = 0; ix < mesh[0]; ++ix)
    for (int iy = 0; iy < mesh[1]; ++iy)
      for (int iz = 0; iz < plan->nzc; ++iz) {
        const size_t slot = (static_cast<size_t>(ix) * mesh[1] + iy) * plan->nzc + iz;
        const double d[3] = {ax[0].d[ix], ax[1].d[iy], ax[2].d[iz]};
        const double dsq = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (dsq == 0.0) continue;
        double num_e = 0.0, num_f = 0.0, u2sum = 0.0;
        for (int mx = 0; mx < 3; ++mx)
          for (int my = 0; my < 3; ++my)
            for (int mz = 0; mz < 3; ++mz) {
              const double km[3] = {ax[0].k[ix][mx], ax[1].k[iy][my], ax[2].k[iz][mz]};
              const double kmsq = km[0] * km[0] + km[1] * km[1] + km[2] * km[2];
              const double u2 = ax[0].u2[ix][mx] * ax[1].u2[iy][my] * ax[2].u2[iz][mz];
              const double phi = std::exp(-kmsq * inv4a2) / kmsq;
              const double dk = d[0] * km[0] + d[1] * km[1] + d[2] * km[2];
              num_e += u2 * dk * dk * phi;
              num_f += u2 * dk * dk * dk * phi;
              u2sum += u2;
            }
        const double ge = 4.0 * pi * num_e / (dsq * dsq * u2sum * u2sum);
        const double gf = 4.0 * pi * num_f / (dsq * dsq * dsq * u2sum * u2sum);
        plan->g_energy[slot] = ge;
        plan->g_force[slot] = gf;
        // The mean mesh self-interaction (CBLH Sec. IV): c/(2V) sum_k G_E D_a D_b sum_m U^2(k_m), over the full k
        // space (the half-space slots iz in (0, nz/2) stand for two).
        const double mult = (iz == 0 || 2 * iz == mesh[2]) ? 1.0 : 2.0;
        for (int a = 0; a < 3; ++a) t_mesh[a] += mult * mu0_over_4pi / (2.0 * volume) * ge * d[a] * d[a] * u2sum;
      }
  plan->self_correction = 2.0 * (t_mesh - ewald_k_self(length, alpha));
  return plan;
}

std::shared_ptr<const P3MSum::Plan> cached_plan(const int mesh[3], const Vec3& length, int order, double alpha) {
  static std::mutex mutex;
  static std::map<PlanKey, std::shared_ptr<const P3MSum::Plan>> cache;
  const PlanKey key{mesh[0], mesh[1], mesh[2], order, length.x(), length.y(), length.z(), alpha};
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  auto plan = make_plan(mesh, length, order, alpha);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 8) cache.clear();  // a few boxes at a time; plans in use stay alive through their owners
  cache.emplace(key, plan);
  return plan;
}

// The real-space pair kernel (the Ewald sum's erfc-screened pair) for one target and a block of sources, arranged
// for SIMD as engine/magnetic/dipole_kernel.cpp. erfc by Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7,
// i.e. 1.5e-7 of the bare pair term), so one exp per pair.
constexpr int kBlock = 64;

// exp(y) for y <= 0, branch-free so that the pair loop vectorises (std::exp is a library call the loop cannot
// inline): y = n ln 2 + r with n the nearest integer to y / ln 2 (the shifter 1.5 x 2^52 rounds it, and its low
// bits hold n), |r| <= ln 2 / 2, exp(r) by its Taylor series to r^11 (truncation < 1e-14 relative), 2^n from the
// bits. y is clamped at -700 (exp(-700) ~ 1e-304: the pair terms it multiplies are long negligible there). The
// multiply-adds fused (std::fma), as in real_block, which alone calls it.
inline double exp_nonpositive(double y) {
  y = y < -700.0 ? -700.0 : y;
  constexpr double kShifter = 0x1.8p52;
  const double big = std::fma(y, 1.4426950408889634074, kShifter);
  const double n = big - kShifter;
  const double r = std::fma(-n, 1.90821492927058770002e-10, std::fma(-n, 6.93147180369123816490e-01, y));
  double s = 1.0 / 39916800.0;  // written out, not a loop over the coefficients: the pair loop must vectorise
  s = std::fma(s, r, 1.0 / 3628800.0);
  s = std::fma(s, r, 1.0 / 362880.0);
  s = std::fma(s, r, 1.0 / 40320.0);
  s = std::fma(s, r, 1.0 / 5040.0);
  s = std::fma(s, r, 1.0 / 720.0);
  s = std::fma(s, r, 1.0 / 120.0);
  s = std::fma(s, r, 1.0 / 24.0);
  s = std::fma(s, r, 1.0 / 6.0);
  s = std::fma(s, r, 0.5);
  s = std::fma(s, r, 1.0);
  s = std::fma(s, r, 1.0);
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(big) - 0x4338000000000000ULL + 1023ULL;
  return s * std::bit_cast<double>(bits << 52);
}

// A block's pairs are padded to a whole number of the widest vectors, so its slots run that far past the last pair.
constexpr int kLanes = kWidestLanes;
constexpr int kSlots = kBlock + kLanes;

struct RealBlock {
  alignas(64) double dx[kSlots], dy[kSlots], dz[kSlots];
  alignas(64) double mx[kSlots], my[kSlots], mz[kSlots];
  alignas(64) double bx[kSlots], by[kSlots], bz[kSlots];
  alignas(64) double fx[kSlots], fy[kSlots], fz[kSlots];
  alignas(64) double cx[kSlots], cy[kSlots], cz[kSlots];  // the field of m_i at the source (pairs met once)
  int slot[kBlock];
  int count = 0;

  // Appends the source `source` at separation d = target - source with moment m. It stays in the block only within
  // the cutoff and not at zero separation (the target itself), without a branch. Returns whether the block is full.
  bool push(const double d[3], const double m[3], int source, double rc_sq) {
    dx[count] = d[0];
    dy[count] = d[1];
    dz[count] = d[2];
    mx[count] = m[0];
    my[count] = m[1];
    mz[count] = m[2];
    slot[count] = source;
    const double rsq = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    count += static_cast<int>((rsq <= rc_sq) & (rsq > 0.0));
    return count == kBlock;
  }
};

// The multiply-adds fused where written (std::fma) and nowhere else: the same bits from every clone
// (engine/core/simd.hpp), and shorter chains through the exponential's and erfc's polynomials.
LODESTONE_FMA_CLONES void real_block(const double mi[3], RealBlock& b, int count, double alpha) {
  const double a2 = alpha * alpha;
  const double two_a2 = 2.0 * a2, four_a4 = 4.0 * a2 * a2, eight_a6 = 8.0 * a2 * a2 * a2;
  const double inv_a_sqrt_pi = 1.0 / (alpha * kSqrtPi);
  const double c = mu0_over_4pi;
  const double mix = mi[0], miy = mi[1], miz = mi[2];
  if (count == 0) return;
  // The slots from count to the next multiple of kLanes get the last pair's separation and a zero moment (outputs never
  // read), so that no pair falls to a four-lane or scalar remainder loop (as engine/magnetic/dipole_kernel.cpp).
  const double last_x = b.dx[count - 1], last_y = b.dy[count - 1], last_z = b.dz[count - 1];
#pragma omp simd
  for (int k = count; k < count + kLanes; ++k) {
    b.dx[k] = last_x;
    b.dy[k] = last_y;
    b.dz[k] = last_z;
    b.mx[k] = b.my[k] = b.mz[k] = 0.0;
  }
  const int padded = (count + kLanes - 1) / kLanes * kLanes;
#pragma omp simd
  for (int k = 0; k < padded; ++k) {
    const double dx = b.dx[k], dy = b.dy[k], dz = b.dz[k];
    const double rsq = fused_dot(dx, dy, dz, dx, dy, dz);
    const double r = std::sqrt(rsq);
    const double inv_r = 1.0 / r;  // one division for 1 / r and 1 / r^2: the divider is what the loop waits for
    const double inv_rsq = inv_r * inv_r;
    const double x = alpha * r;
    const double e = exp_nonpositive(-a2 * rsq);
    const double t = 1.0 / std::fma(0.3275911, x, 1.0);
    double poly = 1.061405429;
    poly = std::fma(poly, t, -1.453152027);
    poly = std::fma(poly, t, 1.421413741);
    poly = std::fma(poly, t, -0.284496736);
    poly = std::fma(poly, t, 0.254829592);
    const double erfc_x = t * poly * e;
    const double g = e * inv_a_sqrt_pi;
    const double bb = std::fma(two_a2, g, erfc_x * inv_r) * inv_rsq;
    const double cc = std::fma(four_a4, g, 3.0 * bb) * inv_rsq;
    const double dd = std::fma(eight_a6, g, 5.0 * cc) * inv_rsq;
    const double mjx = b.mx[k], mjy = b.my[k], mjz = b.mz[k];
    const double mj_r = fused_dot(mjx, mjy, mjz, dx, dy, dz);
    const double mi_r = fused_dot(mix, miy, miz, dx, dy, dz);
    const double mi_mj = fused_dot(mix, miy, miz, mjx, mjy, mjz);
    const double cc_mj_r = cc * mj_r, cc_mi_r = cc * mi_r;
    b.bx[k] = c * fused_mul_sub(cc_mj_r, dx, bb, mjx);
    b.by[k] = c * fused_mul_sub(cc_mj_r, dy, bb, mjy);
    b.bz[k] = c * fused_mul_sub(cc_mj_r, dz, bb, mjz);
    const double radial = std::fma(-(dd * mi_r), mj_r, cc * mi_mj);  // cc mi.mj - dd (mi.r)(mj.r)
    b.fx[k] = c * std::fma(radial, dx, cc * std::fma(mj_r, mix, mi_r * mjx));
    b.fy[k] = c * std::fma(radial, dy, cc * std::fma(mj_r, miy, mi_r * mjy));
    b.fz[k] = c * std::fma(radial, dz, cc * std::fma(mj_r, miz, mi_r * mjz));
    b.cx[k] = c * fused_mul_sub(cc_mi_r, dx, bb, mix);
    b.cy[k] = c * fused_mul_sub(cc_mi_r, dy, bb, miy);
    b.cz[k] = c * fused_mul_sub(cc_mi_r, dz, bb, miz);
  }
}

// Runs the kernel over the block for the target moment mi and adds, in block order, each pair's force and field to
// the target's sums and, through to_source(source, force on the target, field of mi at the source), to the source;
// empties the block.
template <class ToSource>
void flush_block(const double mi[3], RealBlock& b, double alpha, Vec3& force, Vec3& field, ToSource&& to_source) {
  real_block(mi, b, b.count, alpha);
  for (int q = 0; q < b.count; ++q) {
    const Vec3 fq(b.fx[q], b.fy[q], b.fz[q]);
    force += fq;
    field += Vec3(b.bx[q], b.by[q], b.bz[q]);
    to_source(b.slot[q], fq, Vec3(b.cx[q], b.cy[q], b.cz[q]));
  }
  b.count = 0;
}

// Step 2, forward: the three forward FFTs of the spread moments M^ and dm = D.M^ per complex slot. The FFTs of
// different components are independent, so they are split between the threads; each runs whole on one thread, and
// every loop writes only its own slots, so the bits do not depend on the split.
void moment_divergence_spectrum(const P3MSum::Plan& plan, FftwReal (&spread)[3], ThreadTeam& threads,
                                std::complex<double>* dm) {
  const int ny = plan.n[1];
  FftwComplex mk[3] = {FftwComplex(plan.complex_size), FftwComplex(plan.complex_size), FftwComplex(plan.complex_size)};
  for_each_range(threads, 3, 1, [&](size_t begin, size_t end) {
    for (size_t a = begin; a < end; ++a) fftw_execute_dft_r2c(plan.forward, spread[a].p, mk[a].p);
  });
  const auto n0 = static_cast<size_t>(plan.n[0]);
  const size_t plane = static_cast<size_t>(ny) * plan.nzc;  // complex slots per x plane
  // dm = D.M^ per slot.
  for_each_range(threads, n0, 4, [&](size_t ix_begin, size_t ix_end) {
    for (size_t ix = ix_begin; ix < ix_end; ++ix)
      for (int iy = 0; iy < ny; ++iy)
        for (int iz = 0; iz < plan.nzc; ++iz) {
          const size_t slot = ix * plane + static_cast<size_t>(iy) * plan.nzc + iz;
          const double d[3] = {plan.dx[ix], plan.dy[iy], plan.dz[iz]};
          std::complex<double> v = 0.0;
          for (int a = 0; a < 3; ++a) v += d[a] * std::complex<double>(mk[a].p[slot][0], mk[a].p[slot][1]);
          dm[slot] = v;
        }
  });
}

// Step 2, backward: each output's spectrum from dm in turn and its backward FFT, into mesh_field (9 values a mesh
// point). Each output runs whole on one thread and writes only its own values, so the bits do not depend on the split.
void field_and_gradient_on_mesh(const P3MSum::Plan& plan, const std::complex<double>* dm, double volume,
                                ThreadTeam& threads, std::vector<double>& mesh_field) {
  const int ny = plan.n[1];
  const auto n0 = static_cast<size_t>(plan.n[0]);
  const size_t plane = static_cast<size_t>(ny) * plan.nzc;  // complex slots per x plane
  const double pre = -mu0_over_4pi / volume;
  // Output q: field b (q = 0..2: G_E D_b), gradient ab (q = 3..8: i G_F D_a D_b).
  static constexpr int kA[9] = {0, 1, 2, 0, 1, 2, 0, 0, 1};
  static constexpr int kB[9] = {-1, -1, -1, 0, 1, 2, 1, 2, 2};
  mesh_field.resize(plan.real_size * 9);
  for_each_range(threads, 9, 1, [&](size_t q_begin, size_t q_end) {
    FftwComplex spectrum(plan.complex_size);
    FftwReal out(plan.real_size);
    for (auto q = static_cast<int>(q_begin); q < static_cast<int>(q_end); ++q) {
      for (size_t ix = 0; ix < n0; ++ix)
        for (int iy = 0; iy < ny; ++iy)
          for (int iz = 0; iz < plan.nzc; ++iz) {
            const size_t slot = ix * plane + static_cast<size_t>(iy) * plan.nzc + iz;
            const double d[3] = {plan.dx[ix], plan.dy[iy], plan.dz[iz]};
            std::complex<double> v;
            if (q < 3)
              v = (pre * plan.g_energy[slot] * d[q]) * dm[slot];
            else
              v = std::complex<double>(0.0, pre * plan.g_force[slot] * d[kA[q]] * d[kB[q]]) * dm[slot];
            spectrum.p[slot][0] = v.real();
            spectrum.p[slot][1] = v.imag();
          }
      fftw_execute_dft_c2r(plan.backward, spectrum.p, out.p);
      for (size_t slot = 0; slot < plan.real_size; ++slot) mesh_field[slot * 9 + static_cast<size_t>(q)] = out.p[slot];
    }
  });
}

}  // namespace

P3MSum::P3MSum() = default;
P3MSum::~P3MSum() {
  std::vector<double>& kept = kept_mesh_field();
  if (kept.empty()) kept = std::move(mesh_field_);
}
P3MSum::P3MSum(P3MSum&&) noexcept = default;
P3MSum& P3MSum::operator=(P3MSum&&) noexcept = default;

void P3MSum::stencil_of(const Vec3& x, int* index, double* weight) const {
  const int p = tuning_.order;
  for (int a = 0; a < 3; ++a) {
    const int n = tuning_.mesh[a];
    const double u = x[a] / length_[a] * n;
    int first = bspline_weights(u, p, weight + a * p);
    first %= n;
    if (first < 0) first += n;
    for (int k = 0; k < p; ++k) {
      int m = first + k;
      if (m >= n) m -= n;
      index[a * p + k] = m;
    }
  }
}

// The moments spread onto the mesh (step 1). The particles are grouped by the x plane their stencil starts on, into
// blocks of planes at least P wide, each spread in cell order by one thread: into the mesh for its own planes, and into
// a spill buffer of its own for the P - 1 planes its stencils reach into the next block. The spills are then added to
// the mesh. Every mesh point so gets its terms in the same order whatever the number of threads (the blocks depend on
// the mesh and the order alone). Blocks of at least 2P planes, up to 8: wider blocks keep the spills smaller, but at
// 48^3 and order 6 blocks of 4P planes made two, which held the spreading to two threads (a sixth of the pass on 16
// rehearsed threads); blocks of 2P cost nothing measurable on one thread (docs/performance.md, "The mesh arrays kept").
void P3MSum::spread_moments(ThreadTeam& threads, double* const spread[3]) const {
  const Plan& plan = *plan_;
  const size_t n = position_.size();
  const int p = tuning_.order;
  const int nx = plan.n[0], ny = plan.n[1], nz = plan.n[2];
  const size_t plane_size = static_cast<size_t>(ny) * nz;
  const int blocks = std::clamp(nx / (2 * p), 1, 8);  // each block at least 2P planes wide
  std::vector<int> block_of_plane(static_cast<size_t>(nx)), block_begin(static_cast<size_t>(blocks) + 1);
  for (int b = 0; b <= blocks; ++b) block_begin[static_cast<size_t>(b)] = b * nx / blocks;
  for (int b = 0; b < blocks; ++b)
    for (int m = block_begin[static_cast<size_t>(b)]; m < block_begin[static_cast<size_t>(b) + 1]; ++m)
      block_of_plane[static_cast<size_t>(m)] = b;
  std::vector<int> block_start(static_cast<size_t>(blocks) + 1, 0), block_of(n);
  for (size_t slot_i = 0; slot_i < n; ++slot_i) {
    const double u = position_[static_cast<size_t>(sorted_index_[slot_i])].x() / length_.x() * nx;
    int first = (static_cast<int>(std::floor(u - 0.5 * p)) + 1) % nx;  // as stencil_of finds it
    if (first < 0) first += nx;
    block_of[slot_i] = block_of_plane[static_cast<size_t>(first)];
    ++block_start[static_cast<size_t>(block_of[slot_i]) + 1];
  }
  for (int b = 0; b < blocks; ++b) block_start[static_cast<size_t>(b) + 1] += block_start[static_cast<size_t>(b)];
  std::vector<int> by_block(n);  // cell-order slots, block by block
  {
    std::vector<int> fill(block_start.begin(), block_start.end() - 1);
    for (size_t slot_i = 0; slot_i < n; ++slot_i)
      by_block[static_cast<size_t>(fill[static_cast<size_t>(block_of[slot_i])]++)] = static_cast<int>(slot_i);
  }
  // Spill buffers, zeroed here: P - 1 planes of the three components per block (one block: none, it wraps onto
  // itself).
  const size_t spill_planes = blocks > 1 ? static_cast<size_t>(p - 1) : 0;
  std::vector<double> spill(static_cast<size_t>(blocks) * 3 * spill_planes * plane_size);
  for_each_range(threads, static_cast<size_t>(blocks), 1, [&](size_t begin, size_t end) {
    int index[3 * kMaxOrder];
    double weight[3 * kMaxOrder];
    double* row_x[kMaxOrder][3];  // per x point of the stencil: where its plane of each component lies
    for (size_t b = begin; b < end; ++b) {
      const int own_begin = block_begin[b], own_end = block_begin[b + 1];
      const int next_begin = block_begin[(b + 1) % static_cast<size_t>(blocks)];
      double* const own_spill = spill.data() + b * 3 * spill_planes * plane_size;  // zero from its allocation
      std::fill(spread[0] + own_begin * plane_size, spread[0] + own_end * plane_size, 0.0);
      std::fill(spread[1] + own_begin * plane_size, spread[1] + own_end * plane_size, 0.0);
      std::fill(spread[2] + own_begin * plane_size, spread[2] + own_end * plane_size, 0.0);
      for (int k = block_start[b]; k < block_start[b + 1]; ++k) {
        const auto i = static_cast<size_t>(sorted_index_[static_cast<size_t>(by_block[static_cast<size_t>(k)])]);
        stencil_of(position_[i], index, weight);
        for (int a = 0; a < p; ++a) {
          const int m = index[a];
          const bool own = blocks == 1 || (m >= own_begin && m < own_end);
          for (int c = 0; c < 3; ++c)
            row_x[a][c] = own ? spread[c] + static_cast<size_t>(m) * plane_size
                              : own_spill + (static_cast<size_t>(c) * spill_planes +
                                             static_cast<size_t>((m - next_begin + nx) % nx)) *
                                                plane_size;
        }
        const Vec3& mo = moment_[i];
        for (int a = 0; a < p; ++a) {
          double* const sx = row_x[a][0];
          double* const sy = row_x[a][1];
          double* const sz = row_x[a][2];
          for (int bb = 0; bb < p; ++bb) {
            const double wab = weight[a] * weight[p + bb];
            const size_t row = static_cast<size_t>(index[p + bb]) * nz;
            for (int c = 0; c < p; ++c) {
              const double w = wab * weight[2 * p + c];
              const size_t slot = row + index[2 * p + c];
              sx[slot] += w * mo.x();
              sy[slot] += w * mo.y();
              sz[slot] += w * mo.z();
            }
          }
        }
      }
    }
  });
  // Each block's spill into the first planes of the next block (distinct planes for distinct blocks).
  for_each_range(threads, static_cast<size_t>(blocks) * spill_planes, 1, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const size_t b = k / spill_planes, q = k % spill_planes;
      const size_t plane =
          (static_cast<size_t>(block_begin[(b + 1) % static_cast<size_t>(blocks)]) + q) % static_cast<size_t>(nx);
      for (size_t c = 0; c < 3; ++c) {
        const double* from = spill.data() + ((b * 3 + c) * spill_planes + q) * plane_size;
        double* to = spread[c] + plane * plane_size;
        for (size_t t = 0; t < plane_size; ++t) to[t] += from[t];
      }
    }
  });
}

void P3MSum::sort_into_cells() {
  const size_t n = position_.size();
  // Cells for the real-space part: at least rc/3 wide; a target visits the cells of 7^3 that come within rc of it.
  const double rc = tuning_.real_cutoff;
  int total_cells = 1;
  for (int a = 0; a < 3; ++a) {
    cells_[a] = std::clamp(static_cast<int>(std::floor(length_[a] / (rc / 3.0))), 1, 256);
    cell_size_[a] = length_[a] / cells_[a];
    reach_[a] = static_cast<int>(std::ceil(rc / cell_size_[a]));
    total_cells *= cells_[a];
    wrapped_cell_[a].resize(static_cast<size_t>(cells_[a] + 2 * reach_[a]));
    image_shift_[a].resize(wrapped_cell_[a].size());
    for (int u = -reach_[a]; u < cells_[a] + reach_[a]; ++u) {
      const int c = ((u % cells_[a]) + cells_[a]) % cells_[a];
      wrapped_cell_[a][static_cast<size_t>(u + reach_[a])] = c;
      image_shift_[a][static_cast<size_t>(u + reach_[a])] = (u - c) / cells_[a] * length_[a];
    }
  }
  std::vector<int> cell_of(n);
  cell_start_.assign(static_cast<size_t>(total_cells) + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    int c[3];
    for (int a = 0; a < 3; ++a) {
      const double u = position_[i][a] / length_[a];
      c[a] = static_cast<int>(std::floor((u - std::floor(u)) * cells_[a]));
      c[a] = std::clamp(c[a], 0, cells_[a] - 1);
    }
    cell_of[i] = (c[0] * cells_[1] + c[1]) * cells_[2] + c[2];
    ++cell_start_[static_cast<size_t>(cell_of[i]) + 1];
  }
  for (int c = 0; c < total_cells; ++c) cell_start_[static_cast<size_t>(c) + 1] += cell_start_[static_cast<size_t>(c)];
  std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
  sorted_index_.assign(n, 0);
  sx_.resize(n);
  sy_.resize(n);
  sz_.resize(n);
  smx_.resize(n);
  smy_.resize(n);
  smz_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const int slot = fill[static_cast<size_t>(cell_of[i])]++;
    sorted_index_[static_cast<size_t>(slot)] = static_cast<int>(i);
    // Positions wrapped into the box, so that a cell's particles lie inside it.
    for (int a = 0; a < 3; ++a) {
      const double u = position_[i][a] / length_[a];
      const double w = (u - std::floor(u)) * length_[a];
      (a == 0 ? sx_ : a == 1 ? sy_ : sz_)[static_cast<size_t>(slot)] = w;
    }
    smx_[static_cast<size_t>(slot)] = moment_[i].x();
    smy_[static_cast<size_t>(slot)] = moment_[i].y();
    smz_[static_cast<size_t>(slot)] = moment_[i].z();
  }
}

void P3MSum::build(const P3MSystem& system, ThreadTeam* team) {
  assert(system.position.size() == system.moment.size());
  position_.assign(system.position.begin(), system.position.end());
  moment_.assign(system.moment.begin(), system.moment.end());
  length_ = system.box_length;
  tuning_ = system.tuning;
  surroundings_ = system.surroundings;
  pairs_ = system.pairs;
  pair_bands_ = system.pair_bands;
  volume_ = length_.x() * length_.y() * length_.z();
  plan_ = cached_plan(tuning_.mesh, length_, tuning_.order, tuning_.alpha);
  const Plan& plan = *plan_;
  total_moment_ = Vec3::Zero();
  for (const Vec3& m : moment_) total_moment_ += m;
  sort_into_cells();

  const auto spread_start = std::chrono::steady_clock::now();
  // 1. Spread the moments.
  ThreadTeam& threads = team ? *team : ThreadTeam::serial();
  FftwReal spread[3] = {FftwReal(plan.real_size), FftwReal(plan.real_size), FftwReal(plan.real_size)};
  double* const spread_arrays[3] = {spread[0].p, spread[1].p, spread[2].p};
  spread_moments(threads, spread_arrays);
  const auto fft_start = std::chrono::steady_clock::now();
  timings_.spread = std::chrono::duration<double>(fft_start - spread_start).count();
  // 2. Forward FFTs, the products, nine backward FFTs.
  // The moment divergence per slot (every slot written), in FFTW's complex layout, which std::complex shares.
  FftwComplex dm(plan.complex_size);
  auto* const divergence = reinterpret_cast<std::complex<double>*>(dm.p);
  moment_divergence_spectrum(plan, spread, threads, divergence);
  if (mesh_field_.empty()) std::swap(mesh_field_, kept_mesh_field());  // every value is written below
  field_and_gradient_on_mesh(plan, divergence, volume_, threads, mesh_field_);
  timings_.fft = std::chrono::duration<double>(std::chrono::steady_clock::now() - fft_start).count();
}

template <class Visit>
void P3MSum::for_each_cell_within(const Vec3& x, double reach_sq, Visit&& visit) const {
  int home[3];
  for (int a = 0; a < 3; ++a)
    home[a] = std::clamp(static_cast<int>(std::floor(x[a] / cell_size_[a])), 0, cells_[a] - 1);
  auto gap_sq = [&](int a, int u) {  // squared distance from x to the unwrapped slab u along axis a
    const double lo = u * cell_size_[a], hi = (u + 1) * cell_size_[a];
    const double g = std::max({0.0, lo - x[a], x[a] - hi});
    return g * g;
  };
  for (int ux = home[0] - reach_[0]; ux <= home[0] + reach_[0]; ++ux) {
    const double gx = gap_sq(0, ux);
    if (gx > reach_sq) continue;
    const auto kx = static_cast<size_t>(ux + reach_[0]);
    for (int uy = home[1] - reach_[1]; uy <= home[1] + reach_[1]; ++uy) {
      const double gxy = gx + gap_sq(1, uy);
      if (gxy > reach_sq) continue;
      const auto ky = static_cast<size_t>(uy + reach_[1]);
      const int row = (wrapped_cell_[0][kx] * cells_[1] + wrapped_cell_[1][ky]) * cells_[2];
      for (int uz = home[2] - reach_[2]; uz <= home[2] + reach_[2]; ++uz) {
        if (gxy + gap_sq(2, uz) > reach_sq) continue;
        const auto kz = static_cast<size_t>(uz + reach_[2]);
        visit(row + wrapped_cell_[2][kz], Vec3(image_shift_[0][kx], image_shift_[1][ky], image_shift_[2][kz]));
      }
    }
  }
}

void P3MSum::real_space(const Vec3& x_in, const Vec3* m_target, long self, Vec3& force, Vec3& field) const {
  RealBlock b;
  const double rc_sq = tuning_.real_cutoff * tuning_.real_cutoff;
  Vec3 x;
  for (int a = 0; a < 3; ++a) {
    const double u = x_in[a] / length_[a];
    x[a] = (u - std::floor(u)) * length_[a];
  }
  const double mi[3] = {m_target ? m_target->x() : 0.0, m_target ? m_target->y() : 0.0, m_target ? m_target->z() : 0.0};
  Vec3 coincident = Vec3::Zero();  // moments centred exactly at a free point x
  auto flush = [&] { flush_block(mi, b, tuning_.alpha, force, field, [](int, const Vec3&, const Vec3&) {}); };
  // Cells whose nearest point is beyond the cutoff are skipped (the margin covers rounding of the shifted
  // coordinates).
  for_each_cell_within(x, rc_sq * (1.0 + 1e-9), [&](int cell, const Vec3& shift) {
    const int begin = cell_start_[static_cast<size_t>(cell)], end = cell_start_[static_cast<size_t>(cell) + 1];
    for (int s = begin; s < end; ++s) {
      const auto ss = static_cast<size_t>(s);
      const double d[3] = {x.x() - (sx_[ss] + shift.x()), x.y() - (sy_[ss] + shift.y()), x.z() - (sz_[ss] + shift.z())};
      const double m[3] = {smx_[ss], smy_[ss], smz_[ss]};
      if (b.push(d, m, s, rc_sq)) flush();
      if (!m_target && d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) coincident += Vec3(m[0], m[1], m[2]);
    }
  });
  flush();
  // A centre exactly at a free point: the field of the others there, as at a particle (the mesh holds the
  // moment's own smeared field, which the self terms take off).
  if (!m_target && coincident.squaredNorm() > 0.0) {
    const double a = tuning_.alpha;
    field += (mu0_over_4pi * 4.0 * a * a * a / (3.0 * kSqrtPi)) * coincident +
             plan_->self_correction.cwiseProduct(coincident);
  }
  (void)self;
}

void P3MSum::add_real_space_from_cells(Vec3* f, Vec3* b, ThreadTeam& team) const {
  const size_t n = position_.size();
  // Real space: each pair (and each pair of images) is met once, from the particle earlier in cell order, and added
  // to both; a particle's own images are met from it alone. The targets are split between the threads; each part
  // adds into its own arrays (indexed by cell-order slot), which are then summed in part order: with a fixed team
  // size every sum is grouped the same way.
  const int parts = parts_for(team, n, kTargetGrain);
  const std::vector<size_t> bounds = split_evenly(n, parts);
  std::vector<std::vector<Vec3>> part_force(static_cast<size_t>(parts)), part_field(static_cast<size_t>(parts));
  const double rc_sq = tuning_.real_cutoff * tuning_.real_cutoff;
  const double prune_sq = rc_sq * (1.0 + 1e-9);
  team.run(parts, [&](int k) {
    std::vector<Vec3>& pf = part_force[static_cast<size_t>(k)];
    std::vector<Vec3>& pb = part_field[static_cast<size_t>(k)];
    pf.assign(n, Vec3::Zero());
    pb.assign(n, Vec3::Zero());
    RealBlock blk;
    for (size_t s = bounds[static_cast<size_t>(k)]; s < bounds[static_cast<size_t>(k) + 1]; ++s) {
      const Vec3 x(sx_[s], sy_[s], sz_[s]);  // wrapped into the box
      const double mi[3] = {smx_[s], smy_[s], smz_[s]};
      Vec3 fi = Vec3::Zero(), bi = Vec3::Zero();
      auto flush = [&] {
        flush_block(mi, blk, tuning_.alpha, fi, bi, [&](int source, const Vec3& f, const Vec3& c) {
          const auto t = static_cast<size_t>(source);
          if (t == s) return;  // the target's own image: met from it alone
          pf[t] -= f;
          pb[t] += c;
        });
      };
      for_each_cell_within(x, prune_sq, [&](int cell, const Vec3& shift) {
        // Sources from the target's own slot on (earlier ones met this pair from their side).
        const int begin = std::max(cell_start_[static_cast<size_t>(cell)], static_cast<int>(s));
        const int end = cell_start_[static_cast<size_t>(cell) + 1];
        for (int t = begin; t < end; ++t) {
          const auto ts = static_cast<size_t>(t);
          const double d[3] = {x.x() - (sx_[ts] + shift.x()), x.y() - (sy_[ts] + shift.y()),
                               x.z() - (sz_[ts] + shift.z())};
          const double m[3] = {smx_[ts], smy_[ts], smz_[ts]};
          if (blk.push(d, m, t, rc_sq)) flush();
        }
      });
      flush();
      pf[s] += fi;
      pb[s] += bi;
    }
  });
  for_each_range(team, n, kTargetGrain, [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      Vec3 ft = part_force[0][t], bt = part_field[0][t];
      for (size_t k = 1; k < part_force.size(); ++k) {
        ft += part_force[k][t];
        bt += part_field[k][t];
      }
      const auto i = static_cast<size_t>(sorted_index_[t]);
      f[i] = ft;
      b[i] = bt;
    }
  });
}

// The pairs of the Verlet list (ordered by (i, j)): for one particle i, its listed partners within the cutoff are
// gathered into a block (minimum-image separations, as engine/magnetic/dipole_kernel.cpp does), the kernel runs
// over the block, and the results are added in list order to i and to each j. The list is split between the
// threads by pairs (run_pair_parts: each part adds into its own arrays over the band of particles it touches,
// summed in part order).
void P3MSum::add_real_space_from_list(Vec3* force, Vec3* field, ThreadTeam& team) const {
  const std::vector<IndexPair>& pairs = *pairs_;
  const double rc_sq = tuning_.real_cutoff * tuning_.real_cutoff;
  const Vec3 inverse_length = length_.cwiseInverse();
  run_pair_parts<int>(
      team, pairs.size(), kPairGrain, position_.size(), force, field,
      [&](size_t begin, size_t end) {
        return pair_list_window(pair_bands_, pairs.data(), begin, end, position_.size());
      },
      [&](int, size_t begin, size_t end, Vec3* f, Vec3* b) {
        RealBlock blk;
        for (size_t k = begin; k < end;) {
          const auto i = static_cast<size_t>(pairs[k].i);
          const Vec3 xi = position_[i];
          const double mi[3] = {moment_[i].x(), moment_[i].y(), moment_[i].z()};
          Vec3 fi = Vec3::Zero(), bi = Vec3::Zero();
          auto flush = [&] {
            flush_block(mi, blk, tuning_.alpha, fi, bi, [&](int source, const Vec3& fq, const Vec3& c) {
              f[static_cast<size_t>(source)] -= fq;
              b[static_cast<size_t>(source)] += c;
            });
          };
          for (; k < end && static_cast<size_t>(pairs[k].i) == i; ++k) {
            const int j = pairs[k].j;
            const Vec3& xj = position_[static_cast<size_t>(j)];
            double d[3];
            for (int a = 0; a < 3; ++a) {
              d[a] = xi[a] - xj[a];
              d[a] -= length_[a] * round_to_integer(d[a] * inverse_length[a]);
            }
            const Vec3& mj = moment_[static_cast<size_t>(j)];
            const double m[3] = {mj.x(), mj.y(), mj.z()};
            if (blk.push(d, m, j, rc_sq)) flush();
          }
          flush();
          f[i] += fi;
          b[i] += bi;
        }
        return 0;
      });
}

double P3MSum::add_particle_terms(Vec3* force, Vec3* field, ThreadTeam& team) const {
  const size_t n = position_.size();
  const Plan& plan = *plan_;
  std::vector<Vec3> b(n, Vec3::Zero());
  const double self_field = mu0_over_4pi * 4.0 * tuning_.alpha * tuning_.alpha * tuning_.alpha / (3.0 * kSqrtPi);
  const Vec3 surface_field = surroundings_ == EwaldSurroundings::Vacuum
                                 ? Vec3(-mu0_over_4pi * 4.0 * pi / (3.0 * volume_) * total_moment_)
                                 : Vec3::Zero();
  const int p = tuning_.order;
  const int ny = plan.n[1], nz = plan.n[2];
  // Targets in cell order (neighbours in memory share their cells and mesh points); each writes its own slot. The
  // real-space pairs first, then the mesh values (each pass keeps its own data in cache).
  const auto start = std::chrono::steady_clock::now();
  std::vector<Vec3> f(n, Vec3::Zero());
  if (pairs_)
    add_real_space_from_list(f.data(), b.data(), team);
  else
    add_real_space_from_cells(f.data(), b.data(), team);
  const auto real_done = std::chrono::steady_clock::now();
  for_each_range(team, n, kTargetGrain, [&](size_t begin, size_t end) {
    int index[3 * kMaxOrder];
    double weight[3 * kMaxOrder];
    for (size_t s = begin; s < end; ++s) {
      const auto i = static_cast<size_t>(sorted_index_[s]);
      const Vec3& mi = moment_[i];
      stencil_of(position_[i], index, weight);
      double v[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      for (int a = 0; a < p; ++a)
        for (int bb = 0; bb < p; ++bb) {
          const double wab = weight[a] * weight[p + bb];
          const size_t row = (static_cast<size_t>(index[a]) * ny + index[p + bb]) * nz;
          for (int c = 0; c < p; ++c) {
            const double w = wab * weight[2 * p + c];
            const size_t slot = row + index[2 * p + c];
            const double* values = mesh_field_.data() + slot * 9;
            for (int q = 0; q < 9; ++q) v[q] += w * values[q];
          }
        }
      b[i] += Vec3(v[0], v[1], v[2]);
      // F_a = sum_b m_b d_a B_b (gradient slots xx yy zz xy xz yz).
      f[i] += Vec3(mi.x() * v[3] + mi.y() * v[6] + mi.z() * v[7], mi.x() * v[6] + mi.y() * v[4] + mi.z() * v[8],
                   mi.x() * v[7] + mi.y() * v[8] + mi.z() * v[5]);
      b[i] += self_field * mi + plan.self_correction.cwiseProduct(mi) + surface_field;
      if (force) force[i] += f[i];
    }
  });
  const auto mesh_done = std::chrono::steady_clock::now();
  timings_.real_space = std::chrono::duration<double>(real_done - start).count();
  timings_.mesh_gather = std::chrono::duration<double>(mesh_done - real_done).count();
  double energy = 0.0;
  for (size_t i = 0; i < n; ++i) {
    energy -= 0.5 * moment_[i].dot(b[i]);
    if (field) field[i] += b[i];
  }
  return energy;
}

Vec3 P3MSum::field_at(const Vec3& x) const {
  const Plan& plan = *plan_;
  Vec3 unused = Vec3::Zero(), b = Vec3::Zero();
  real_space(x, nullptr, -1, unused, b);
  int index[3 * kMaxOrder];
  double weight[3 * kMaxOrder];
  stencil_of(x, index, weight);
  const int p = tuning_.order;
  for (int a = 0; a < p; ++a)
    for (int bb = 0; bb < p; ++bb)
      for (int c = 0; c < p; ++c) {
        const double w = weight[a] * weight[p + bb] * weight[2 * p + c];
        const size_t slot = (static_cast<size_t>(index[a]) * plan.n[1] + index[p + bb]) * plan.n[2] + index[2 * p + c];
        for (int q = 0; q < 3; ++q) b[q] += w * mesh_field_[slot * 9 + static_cast<size_t>(q)];
      }
  if (surroundings_ == EwaldSurroundings::Vacuum) b -= mu0_over_4pi * 4.0 * pi / (3.0 * volume_) * total_moment_;
  return b;
}

}  // namespace lodestone
