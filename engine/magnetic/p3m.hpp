#pragma once
// Dipolar P3M (issue 25; docs/physics.md, "Dipolar P3M"): the Ewald sum of engine/magnetic/ewald.hpp with its
// reciprocal part computed on a mesh with FFTs, for boxes periodic along x, y and z. Cerda, Ballenegger, Lenz &
// Holm, J. Chem. Phys. 129, 234104 (2008) ("CBLH" below), with ik-differentiation:
//   1. the moments are spread onto a mesh of Nx x Ny x Nz points by the charge-assignment function of order P
//      (the cardinal B-spline: P points per axis), M(r_m) = sum_i m_i W(r_m - x_i);
//   2. three forward FFTs give M^(k); the field and its gradient on the mesh are
//        B^_b(k)        = -(c/V) G_E(k) D_b (D.M^),      D(k) = k (Nyquist components 0)
//        (d_a B_b)^(k)  = -(c/V) G_F(k) i D_a D_b (D.M^)
//      with the influence functions optimal for the energy/torque (G_E) and the force (G_F) (CBLH eqs. 31, 32):
//        G_E = 4 pi sum_m U^2(k_m) (D.k_m)^2 phi(k_m) / (|D|^4 [sum_m U^2(k_m)]^2)
//        G_F = 4 pi sum_m U^2(k_m) (D.k_m)^3 phi(k_m) / (|D|^6 [sum_m U^2(k_m)]^2)
//      phi(k) = exp(-k^2/4 alpha^2)/k^2, U(k) = prod_a [sin(k_a h_a/2)/(k_a h_a/2)]^P, k_m = k + 2 pi m_a N_a/L_a
//      (aliases m in {-1,0,1}^3); nine backward FFTs;
//   3. back-interpolation with the same W: the field B_i (torque m_i x B_i) and the force
//      F_i,a = sum_b m_i,b d_a B_b(x_i);
//   4. the real-space part of the Ewald sum over pairs (and images) within the real-space cutoff (the neighbour
//      module's Verlet list when it can hold them, P3MSystem::pairs; else a cell list of the sum's own),
//      the Ewald self term, the mean mesh self-interaction replaced by the Ewald one (CBLH Sec. IV: the energy
//      correction), and the surface term of vacuum surroundings.
// Energy U = -1/2 sum_i m_i.B_i. Units SI, c = mu0/4pi.
//
// The a-priori error estimate and the choice of mesh, order, alpha and cutoff: engine/magnetic/p3m_tuning.hpp.
//
// Determinism: the FFTW plans are made with FFTW_ESTIMATE, which picks the same algorithm every time; each FFT runs
// whole on one thread. The mesh assignment is split between the threads by blocks of x planes that cannot write
// into each other's planes (build), so every mesh point gets its terms in the same order and the mesh part is the
// same bits for any number of threads; the interpolation is per target. The real-space part
// meets each pair once and adds it to both particles: the targets (or the listed pairs) are split between the
// threads, each part adding into its own arrays, summed in part order. So a run is the same bits for a given number
// of threads, and runs on different numbers agree to round-off.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"
#include "engine/magnetic/p3m_tuning.hpp"

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace lodestone {

// Wall-clock seconds of the parts of the last build and add_particle_terms (for the bench; not used otherwise).
struct P3MTimings {
  double spread = 0.0;       // moments onto the mesh
  double fft = 0.0;          // 3 forward FFTs, the products, 9 backward FFTs
  double real_space = 0.0;   // the pairs within the real-space cutoff
  double mesh_gather = 0.0;  // the mesh values back at the particles
};

struct P3MSystem {
  std::span<const Vec3> position;  // [m] (N)
  std::span<const Vec3> moment;    // [A m^2] (N)
  Vec3 box_length = Vec3::Zero();  // [m] periodic lengths, all > 0
  P3MTuning tuning;
  EwaldSurroundings surroundings = EwaldSurroundings::Conducting;
  // The real-space pairs from a Verlet list: every pair (i < j, ordered by (i, j)) within the real-space cutoff at
  // its nearest image, and no pair meeting another image (or a particle its own) within the cutoff (the neighbour
  // module's dipole list, engine/magnetic/periodic_systems.hpp). The pass then runs the pair kernel over the list
  // instead of walking the cells around every particle. nullptr: the sum finds the pairs and images itself.
  const std::vector<IndexPair>* pairs = nullptr;
  // The particles each chunk of `pairs` names (engine/core/pair_bands.hpp), when the list keeps them current; nullptr:
  // each part reads its pairs for them.
  const PairListBands* pair_bands = nullptr;
};

class P3MSum {
 public:
  P3MSum();
  ~P3MSum();
  P3MSum(P3MSum&&) noexcept;
  P3MSum& operator=(P3MSum&&) noexcept;

  struct Plan;  // FFTW plans, influence functions, self-energy correction (shared between passes; p3m.cpp)

  // Copies the particles, spreads the moments and runs the FFTs (the plan and influence functions of a given box,
  // mesh, order and alpha are made once and kept for later passes), and sorts the particles into cells for the
  // real-space part.
  void build(const P3MSystem& system, ThreadTeam* team = nullptr);

  // Adds to force[i] [N] and field[i] [T] (either may be nullptr) as EwaldSum::add_particle_terms does; returns
  // the energy [J]. The real-space pairs and the mesh gather are split between the team's threads.
  double add_particle_terms(Vec3* force, Vec3* field, ThreadTeam& team) const;

  // The field [T] at a free point x (the mesh field interpolated there plus the real-space pairs); a centre
  // exactly at x is left out.
  Vec3 field_at(const Vec3& x) const;

  const P3MTimings& timings() const { return timings_; }

 private:
  void stencil_of(const Vec3& x, int* index, double* weight) const;
  // The particles sorted into the real-space part's cells (the cell list below), for build.
  void sort_into_cells();
  // Step 1: the moments spread onto the mesh, into spread[component] (real-space layout of the plan).
  void spread_moments(ThreadTeam& threads, double* const spread[3]) const;
  // The real-space pairs into force and field (per particle, by index): from the cell walk or from the list.
  void add_real_space_from_cells(Vec3* force, Vec3* field, ThreadTeam& team) const;
  void add_real_space_from_list(Vec3* force, Vec3* field, ThreadTeam& team) const;
  // Real-space sum for target x (self: its own index or -1): adds the force on m_target (if given) and the field.
  void real_space(const Vec3& x, const Vec3* m_target, long self, Vec3& force, Vec3& field) const;
  // Calls visit(cell, shift) for every unwrapped cell with a point within sqrt(reach_sq) of x (wrapped into the
  // box): each image of each particle lies in exactly one of them; shift is the image's offset [m].
  template <class Visit>
  void for_each_cell_within(const Vec3& x, double reach_sq, Visit&& visit) const;

  std::shared_ptr<const Plan> plan_;
  mutable P3MTimings timings_;
  std::vector<Vec3> position_, moment_;
  Vec3 length_ = Vec3::Zero();
  P3MTuning tuning_;
  EwaldSurroundings surroundings_ = EwaldSurroundings::Conducting;
  const std::vector<IndexPair>* pairs_ = nullptr;
  const PairListBands* pair_bands_ = nullptr;
  double volume_ = 0.0;
  Vec3 total_moment_ = Vec3::Zero();
  // Mesh results: the field (3) and its gradient (6: xx yy zz xy xz yz) at each mesh point (9 values a point),
  // points row-major (z fastest).
  std::vector<double> mesh_field_;
  // Cell list for the real-space part: particles sorted by cell, as structure of arrays.
  int cells_[3] = {1, 1, 1};
  int reach_[3] = {1, 1, 1};
  Vec3 cell_size_ = Vec3::Zero();
  std::vector<int> cell_start_;  // cells + 1
  // Per axis, for the unwrapped cell u in [-reach, cells + reach): its cell in the box and the image's offset [m]
  // (index u + reach); so the walk needs no integer division.
  std::vector<int> wrapped_cell_[3];
  std::vector<double> image_shift_[3];
  std::vector<int> sorted_index_;
  std::vector<double> sx_, sy_, sz_, smx_, smy_, smz_;
};

}  // namespace lodestone
