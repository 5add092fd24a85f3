#pragma once
// Barnes-Hut octree for the long-range dipole-dipole sum (magnetics.method = tree; docs/physics.md,
// "Long-range dipoles: the Barnes-Hut tree"). The exact all-pairs sum (method direct) is the reference.
//
// Why an octree of the particles' bounding boxes: a cell is split at the centre of the box that holds its
// particles (not of a fixed grid), so thin scenes (chains, monolayers) give cells that hug the particles and
// no empty levels. A cell far from a target acts through a multipole expansion about its expansion centre c
// (the centre of that box):
//   M = sum_k m_k                      [A m^2]    net moment (a point dipole at c)
//   Q = sum_k m_k (x_k - c)^T          [A m^3]    first-order correction, Q_ab = sum_k m_a,k d_b,k
//   S_bfg = sum_k m_b,k d_f,k d_g,k    [A m^4]    second-order correction
// With R = x - c, c0 = mu0/4pi and D_a..(R) the derivatives of 1/|R|,
//   B_a(x)  = c0 [ D_ab M_b - D_abf Q_bf + D_abfg S_bfg / 2 ] + O(c0 |M| rho^3 / R^6)
//   F_e     = d_e (m . B) = c0 m_a [ D_abe M_b - D_abef Q_bf + D_abefg S_bfg / 2 ]
// (a Taylor series of the point-dipole field in the source offsets d_k, rho = the cell's radius), so the
// relative error of a cell's contribution falls as (rho/R)^3 < theta^3. Torque m x B and energy -m.B follow
// from the field. A cell is used as a whole ("far") when
//   rho < theta |R|,  |R| - rho > dipole_cap,  and it holds no pebble of the target's clump
// (when same-clump pairs are to be skipped); otherwise it is opened, down to leaves of at most
// `leaf_size` particles, whose pairs use the exact point-dipole formula of engine/magnetic/dipole.hpp with the cap.
// theta -> 0 opens every cell: the result is the direct sum up to round-off.
//
// The force pass makes its lists per target cell in one descent of the tree (add_forces: the group traversal,
// docs/physics.md).
// Determinism: the tree depends only on positions, moments and clumps; a target's result is a fixed
// traversal of it (or of its leaf) summed in a fixed order, written only to the target's own slot, so it
// does not depend on how targets are split into ranges. Open boundaries only: periodic axes are refused at load
// (validate_preset), because a cell's expansion cannot take the minimum image of each of its particles.

#include "engine/core/math.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace lodestone {

struct GroupLists;   // dipole_tree.cpp: interaction lists of a target cell and its ancestors
struct TreeDescent;  // dipole_tree.cpp: the state of one force pass

struct DipoleTreeSettings {
  double opening_angle = 0.5;  // theta (dimensionless, (0, 1]): a cell of radius rho acts as a whole beyond rho/theta
  double cap = 0.0;            // [m] magnetics.dipole_cap: distances below it are replaced by it (exact pairs)
  int leaf_size = 8;           // particles in a cell that is not split further
};

// What the other moments do at one target particle.
struct DipoleTreeTarget {
  Vec3 field = Vec3::Zero();  // [T]   B of the other moments at the target
  Vec3 force = Vec3::Zero();  // [N]   grad(m . B) on the target's moment (zero when only the field was asked)
};

class DipoleTree {
 public:
  // Builds the tree over particles 0..n-1. `clump` (index of the particle's clump, -1 for none) may be empty:
  // no clumps. The arrays are copied; the tree does not refer to them afterwards.
  void build(std::span<const Vec3> position, std::span<const Vec3> moment, std::span<const int> clump,
             const DipoleTreeSettings& settings);

  // Field of all other particles at particle i, and the force on its moment. `skip_same_clump`: pebbles of
  // i's own clump are left out (the force pass; their forces cancel inside a rigid body). Reads the tree only.
  DipoleTreeTarget evaluate(size_t i, bool skip_same_clump) const;
  // The field only (induced moments), all other particles included, as add_dipole_fields does.
  Vec3 field(size_t i) const;
  // The field of every particle at an arbitrary point x [m] (engine/magnetic/field_evaluation.hpp): the same
  // traversal with no target particle; a particle at exactly x is skipped, as the field at its own centre.
  Vec3 field_at(const Vec3& x) const;

  // The per-target loop of the force pass, for the targets i = order(s) with s in [begin, end) (tree order:
  // a cell's targets are neighbours, so they share its lists; 0..size() covers every particle): adds the
  // force on i to force[i] and, unless torque_free[i] (an induced moment, which turns with the field and not
  // with the body), m_i x B_i to torque[i]; sets energy_share[i] = -m_i . B_i / 2 (the pair energy counted
  // once over both targets). Group traversal: a descent of the target cells gives the near particles and far
  // cells of all of a cell's targets (an opening test against the cell's bounding sphere, so every target meets
  // the per-particle test), which its leaves inherit; each target then sums its leaf's lists in SIMD loops and
  // in list order. Writes only slot i of each array, and a target's lists depend only on its leaf's ancestry,
  // so ranges can run on different threads with identical results.
  void add_forces(size_t begin, size_t end, std::span<const unsigned char> torque_free, Vec3* force, Vec3* torque,
                  double* energy_share) const;

  size_t size() const { return slot_of_.size(); }
  size_t node_count() const { return nodes_.size(); }

 private:
  struct Node {
    Vec3 centre = Vec3::Zero();  // [m] expansion centre: centre of the box holding the cell's particles
    double radius = 0.0;         // [m] rho: largest distance of a particle from the centre
    Vec3 moment = Vec3::Zero();  // [A m^2] M
    Mat3 spread = Mat3::Zero();  // [A m^3] Q (row: moment component, column: offset component)
    std::array<Mat3, 3> second = {Mat3::Zero(), Mat3::Zero(), Mat3::Zero()};  // [A m^4] S_b = sum_k m_b,k d_k d_k^T
    int begin = 0, end = 0;                                                   // particle slots [begin, end)
    int first_child = -1;                                                     // children are contiguous; -1: a leaf
    int child_count = 0;
    int clump_lo = -1, clump_hi = -1;  // range of clump indices inside (-1: no clump pebble)
  };

  void build_node(int node, int begin, int end, int depth);
  // The walk for a target at x with moment m: `self` its slot (-1: a free point), `own_clump` the clump whose
  // pebbles are left out (-1: none).
  template <bool kForce>
  DipoleTreeTarget traverse(const Vec3& x, const Vec3& m, int self, int own_clump) const;

  DipoleTreeSettings settings_;
  std::vector<Node> nodes_;
  // Particles in tree order (slots): a leaf's particles are contiguous.
  std::vector<Vec3> position_, moment_;
  std::vector<int> clump_;
  std::vector<int> order_;    // slot -> particle index
  std::vector<int> slot_of_;  // particle index -> slot
  // The same data as structures of arrays, which the group traversal gathers into its lists:
  std::vector<double> particle_soa_[7];  // by slot: x, y, z [m], m_x, m_y, m_z [A m^2], clump (-1: none)
  static constexpr size_t kCellArrays = 33;
  // kCellArrays per node, node by node: centre (3) [m], M (3) [A m^2], Q row by row (9) [A m^3], S_0..S_2 upper
  // triangles (18) [A m^4]
  std::vector<double> cell_data_;
  // What the group traversal's walk reads of a node, in one cache line.
  struct alignas(64) WalkNode {
    double centre[3];  // [m]
    double radius;     // [m]
    int begin, end, first_child, child_count, clump_lo, clump_hi;
  };
  std::vector<WalkNode> walk_;
  // The force pass (dipole_tree.cpp, "The force pass").
  bool accepts(const WalkNode& group, const WalkNode& source, double gap) const;
  void descend(int target, const std::vector<int>& inherited, size_t begin, size_t end, TreeDescent& d) const;
  void append_leaf(const WalkNode& source, GroupLists& lists) const;
  void append_cell(int node, GroupLists& lists) const;
  void evaluate_leaf(const WalkNode& group, size_t begin, size_t end, TreeDescent& d) const;
  std::vector<unsigned char> octant_scratch_;  // build only: the octant of each slot of the cell being split
};

}  // namespace lodestone
