#pragma once
// The dipolar Ewald sum (issue 25; docs/physics.md, "Dipolar Ewald sum"): the energy, forces and fields of point
// dipoles in a box periodic along all three axes, summed over every periodic image, in SI with c = mu0/4pi.
// Each dipole is split into a screened part summed in real space and a smooth Gaussian part summed over
// reciprocal vectors k = 2 pi (nx/Lx, ny/Ly, nz/Lz) (Wang & Holm, J. Chem. Phys. 115, 6351 (2001), eqs. 2-7,
// Gaussian units there: c = 1):
//   U = U_real + U_k + U_self + U_surface
//   U_real = c/2 sum_i sum_j sum_n' [ (mi.mj) B(r) - (mi.r)(mj.r) C(r) ],  r = xi - xj + n L (n = 0 left out for i = j)
//   U_k    = c 2pi/V sum_{k != 0} exp(-k^2 / 4 alpha^2) / k^2 |S(k)|^2,  S(k) = sum_j (mj.k) exp(i k.xj)
//   U_self = -c 2 alpha^3 / (3 sqrt(pi)) sum_i mi^2
//   U_surface = c 2pi / ((2 mu' + 1) V) |M|^2, M = sum_i mi: vacuum (mu' = 1) only; conducting surroundings: 0
// with B(r) = [erfc(alpha r) + 2 alpha r/sqrt(pi) exp(-alpha^2 r^2)] / r^3,
//      C(r) = [3 erfc(alpha r) + 2 alpha r/sqrt(pi) (3 + 2 alpha^2 r^2) exp(-alpha^2 r^2)] / r^5,
//      D(r) = [15 erfc(alpha r) + 2 alpha r/sqrt(pi) (15 + 10 alpha^2 r^2 + 4 alpha^4 r^4) exp(-alpha^2 r^2)] / r^7
// (B' = -r C, C' = -r D; with alpha = 0 they are 1/r^3, 3/r^5, 15/r^7 and U_real is the bare pair sum).
// Forces are -dU/dxi, fields B_i = -dU/dmi (the torque is mi x B_i); the field at a free point is the same sum
// with a probe in place of mi.
//
// Cost: the real-space part visits all pairs (and the images within the cutoff), the k part N x (number of k):
// the exact reference for up to a few thousand particles, not a fast method. Both parts are per target: each
// particle's force, field and energy share are summed in a fixed order (pairs in index order, k in list order)
// and written to its own slot, so the result is the same bits for any number of threads.

#include "engine/core/model.hpp"
#include "engine/core/thread_team.hpp"

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

namespace lodestone {

// The part of a pair's strongest term (the D(r) term of the force) left beyond alpha r = x, as a fraction of
// the bare term: r^7 D(r) / 15 = erfc(x) + 2x/sqrt(pi) (1 + 2x^2/3 + 4x^4/15) exp(-x^2). Decreasing in x.
double ewald_tail_fraction(double x);

// The cutoffs for a given alpha [1/m] and accuracy: x solves ewald_tail_fraction(x) = accuracy, then
// real_cutoff = x / alpha and k_cutoff = 2 alpha x, so that the first dropped real-space term and the first
// dropped reciprocal term (whose Gaussian factor is exp(-k^2 / 4 alpha^2) = exp(-x^2) at the cutoff) are as
// small relative to their pair.
EwaldSplitting ewald_splitting_for_alpha(double accuracy, double alpha);

// The rule behind magnetics.ewald_accuracy: alpha balances the two parts' costs (pairs within the real-space
// cutoff against k vectors, each ~ (4 pi/3) x^3 N [N / (alpha^3 V)] and (4 pi/3) x^3 N [alpha^3 V / pi^3]):
// alpha = sqrt(pi) (N / V^2)^(1/6), then the cutoffs of ewald_splitting_for_alpha.
EwaldSplitting choose_ewald_splitting(double accuracy, const Vec3& box_length, size_t particle_count);

struct EwaldSystem {
  std::span<const Vec3> position;  // [m] (N)
  std::span<const Vec3> moment;    // [A m^2] (N)
  // Rigid clump of each particle (-1: none), or empty. Two pebbles of one clump do not act on each other
  // through their nearest images (as in the direct sum: engine/bodies/clumps.hpp); other images do.
  std::span<const int> clump = {};
  Vec3 box_length = Vec3::Zero();  // [m] periodic lengths, all > 0
  EwaldSplitting split;
  EwaldSurroundings surroundings = EwaldSurroundings::Conducting;
};

class EwaldSum {
 public:
  // Copies the particles and computes the structure factors S(k), the k vectors split between the team's
  // threads (nullptr: one thread).
  void build(const EwaldSystem& system, ThreadTeam* team = nullptr);

  // Adds to force[i] [N] the force on particle i and to field[i] [T] the field of all other moments and all
  // images there (the torque on i is mi x field[i]); either may be nullptr. Returns the energy [J].
  double add_particle_terms(Vec3* force, Vec3* field, ThreadTeam& team) const;

  // The field [T] at a free point x of all the point dipoles and their images. A centre exactly at x is left
  // out (the field of the others there).
  Vec3 field_at(const Vec3& x) const;

  size_t k_vector_count() const { return k_.size(); }

 private:
  struct KVector {
    int n[3] = {0, 0, 0};
    Vec3 k = Vec3::Zero();  // [1/m]
    double weight = 0.0;    // c 8 pi / V exp(-k^2 / 4 alpha^2) / k^2: the half space counts both k and -k
    double s_re = 0.0;      // S(k) [A m]
    double s_im = 0.0;
  };
  // exp(i k.x) of the k vector from per-axis phase tables (n in [-n_max, n_max] along each axis).
  std::complex<double> phase(const std::complex<double>* table, const KVector& kv) const;
  void fill_phases(const Vec3& x, std::complex<double>* table) const;
  // The real-space sum over j and images for target x (and the self-field correction): adds the force on
  // m_target (if given) and the field. `self` is the target's own index, or -1 for a free point.
  void real_space(const Vec3& x, const Vec3* m_target, long self, Vec3& force, Vec3& field) const;

  std::vector<Vec3> position_, moment_;
  std::vector<int> clump_;
  Vec3 length_ = Vec3::Zero();
  EwaldSplitting split_;
  EwaldSurroundings surroundings_ = EwaldSurroundings::Conducting;
  double volume_ = 0.0;
  int n_max_[3] = {0, 0, 0};                  // largest |n| per axis
  int images_[3] = {0, 0, 0};                 // real-space image shifts per axis (0: the minimum image only)
  size_t table_stride_ = 0;                   // phases per particle: (2 n_max + 1) per axis, the three axes in a row
  std::vector<std::complex<double>> phases_;  // per particle, per axis: exp(i 2 pi n x_a / L_a)
  std::vector<KVector> k_;
  Vec3 total_moment_ = Vec3::Zero();  // [A m^2]
};

}  // namespace lodestone
