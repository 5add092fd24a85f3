#pragma once
// A uniform grid of cells over particle centres, for the questions of the field evaluation
// (engine/magnetic/field_evaluation.hpp) about one free point: which particles lie within a distance of it
// (the cutoff sum) and which sphere holds it. The step's neighbour lists answer the same for pairs of
// particles, but live a layer above (engine/step/) and are built for a moving scene; this grid is built once
// per evaluation from a copy of the centres.
//
// Cells are at least `reach` wide, so every particle within `reach` of a point lies in the 3 x 3 x 3 cells
// around the point's cell. Periodic axes (model.periodic_length) wrap: centres and points are taken into
// the box, the cells cover it exactly, and a neighbour cell index wraps; with fewer than 3 cells along a
// periodic axis each cell is visited once. Open axes span the centres' bounding box. The cell count is
// bounded by about 4 per particle (cells widen for sparse scenes), so memory stays linear in the particles.

#include "engine/core/math.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace lodestone {

class PointGrid {
 public:
  // `periodic_length` [m] 0 on open axes; `box_min` [m] the box's lower corner (used on periodic axes).
  void build(std::span<const Vec3> centre, double reach, const Vec3& periodic_length, const Vec3& box_min);

  // Calls visit(j) for every particle j in the cells around x (a superset of those within `reach`), in a
  // fixed order (cells by z, y, x index, particles by index inside a cell).
  template <class Visit>
  void for_each_near(const Vec3& x, Visit&& visit) const {
    std::array<int, 3> lo{}, hi{};
    if (!cell_range(x, lo, hi)) return;
    for (int cz = lo[2]; cz <= hi[2]; ++cz)
      for (int cy = lo[1]; cy <= hi[1]; ++cy)
        for (int cx = lo[0]; cx <= hi[0]; ++cx) {
          const size_t cell = cell_index(wrap(cx, 0), wrap(cy, 1), wrap(cz, 2));
          for (std::uint32_t k = start_[cell]; k < start_[cell + 1]; ++k) visit(static_cast<size_t>(members_[k]));
        }
  }

  size_t size() const { return members_.size(); }

 private:
  // The cell indices to visit along each axis (unwrapped on periodic axes); false when none.
  bool cell_range(const Vec3& x, std::array<int, 3>& lo, std::array<int, 3>& hi) const;
  int wrap(int c, int axis) const {
    const int n = count_[static_cast<size_t>(axis)];
    return periodic_[static_cast<size_t>(axis)] ? ((c % n) + n) % n : c;
  }
  size_t cell_index(int cx, int cy, int cz) const {
    return static_cast<size_t>(cx) +
           static_cast<size_t>(count_[0]) * (static_cast<size_t>(cy) + static_cast<size_t>(count_[1]) * cz);
  }

  Vec3 origin_ = Vec3::Zero();  // [m] lower corner of cell (0, 0, 0)
  Vec3 width_ = Vec3::Ones();   // [m] cell width per axis (>= reach)
  Vec3 length_ = Vec3::Zero();  // [m] periodic length per axis, 0 on open axes
  std::array<int, 3> count_{1, 1, 1};
  std::array<bool, 3> periodic_{false, false, false};
  std::vector<std::uint32_t> start_;    // cell -> first entry in members_ (cells + 1 entries)
  std::vector<std::uint32_t> members_;  // particle indices, cell by cell
};

}  // namespace lodestone
