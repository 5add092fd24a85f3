#pragma once
// Occlusion culling for big scenes (issue 26): in a box of 100 000 spheres seen from outside, only the
// first few layers show; the rest cost a software rasteriser vertices, triangles and fragments for
// nothing. The renderer goes through the spheres roughly front to back; each drawn sphere marks the
// screen cells lying wholly inside its disc as hidden behind its depth, and a sphere (or moment arrow)
// whose whole screen rectangle lies in cells hidden nearer than its own nearest point is left out.
// Conservative by construction: a cell counts only when one sphere covers it entirely, depths compare
// the occluder's farthest point with the occludee's nearest, and the caller pads the rectangles (the
// perspective silhouette of a sphere off the axis is a little larger than its disc). The order only
// changes how much is culled, never what is visible. Pure CPU; tested in tests/render.

#include <cstddef>
#include <vector>

namespace lodestone::render {

class OcclusionGrid {
 public:
  static constexpr int kCellPixels = 1;  // fine cells (pixels), marked by occluders
  static constexpr int kTileCells = 4;   // tiles of 4 x 4 cells keep their farthest depth, for the tests

  // An empty screen of width x height pixels (origin top-left): nothing hidden.
  void reset(int width, int height);
  // A drawn opaque disc at (x, y) of radius `radius` [pixels], no point of it farther than `far_depth`
  // (view depth [m]): the cells wholly inside it are hidden behind far_depth.
  void add_occluder(float x, float y, float radius, float far_depth);
  // True if everything in the rectangle [x0, x1] x [y0, y1] [pixels] that is on screen lies in cells
  // hidden nearer than `near_depth` (view depth [m]) - or if none of it is on screen.
  bool hidden(float x0, float y0, float x1, float y1, float near_depth) const;

 private:
  float& cell(int i, int j) { return cells_[static_cast<std::size_t>(j) * cells_x_ + static_cast<std::size_t>(i)]; }
  void update_tile(int ti, int tj);

  int width_ = 0, height_ = 0;     // [pixels]
  int cells_x_ = 0, cells_y_ = 0;  // whole tiles: the cells past the screen's edge count as hidden
  int tiles_x_ = 0, tiles_y_ = 0;
  std::vector<float> cells_;               // nearest depth behind which the cell is hidden (+inf: not hidden)
  std::vector<float> tiles_;               // the farthest of its cells
  std::vector<unsigned char> open_cells_;  // per tile: cells not hidden behind anything yet
};

}  // namespace lodestone::render
