#include "render/occlusion.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone::render {

void OcclusionGrid::reset(int width, int height) {
  width_ = std::max(width, 0);
  height_ = std::max(height, 0);
  constexpr int tile_pixels = kCellPixels * kTileCells;
  tiles_x_ = (width_ + tile_pixels - 1) / tile_pixels;
  tiles_y_ = (height_ + tile_pixels - 1) / tile_pixels;
  cells_x_ = tiles_x_ * kTileCells;
  cells_y_ = tiles_y_ * kTileCells;
  cells_.assign(static_cast<size_t>(cells_x_) * static_cast<size_t>(cells_y_), INFINITY);
  // Cells wholly past the right or bottom edge show nothing: hidden behind anything.
  for (int j = 0; j < cells_y_; ++j)
    for (int i = 0; i < cells_x_; ++i)
      if (i * kCellPixels >= width_ || j * kCellPixels >= height_) cell(i, j) = -INFINITY;
  tiles_.assign(static_cast<size_t>(tiles_x_) * static_cast<size_t>(tiles_y_), INFINITY);
  open_cells_.assign(tiles_.size(), 0);
  for (int tj = 0; tj < tiles_y_; ++tj)
    for (int ti = 0; ti < tiles_x_; ++ti) {
      for (int j = tj * kTileCells; j < (tj + 1) * kTileCells; ++j)
        for (int i = ti * kTileCells; i < (ti + 1) * kTileCells; ++i)
          open_cells_[static_cast<size_t>(tj) * tiles_x_ + static_cast<size_t>(ti)] += cell(i, j) == INFINITY;
      update_tile(ti, tj);
    }
}

void OcclusionGrid::update_tile(int ti, int tj) {
  float farthest = -INFINITY;
  for (int j = tj * kTileCells; j < (tj + 1) * kTileCells; ++j)
    for (int i = ti * kTileCells; i < (ti + 1) * kTileCells; ++i) farthest = std::max(farthest, cell(i, j));
  tiles_[static_cast<size_t>(tj) * tiles_x_ + static_cast<size_t>(ti)] = farthest;
}

void OcclusionGrid::add_occluder(float x, float y, float radius, float far_depth) {
  if (!(radius > 0.0f) || cells_.empty()) return;
  const float c = static_cast<float>(kCellPixels);
  const int i0 = std::max(static_cast<int>(std::floor((x - radius) / c)), 0);
  const int i1 = std::min(static_cast<int>(std::floor((x + radius) / c)), cells_x_ - 1);
  const int j0 = std::max(static_cast<int>(std::floor((y - radius) / c)), 0);
  const int j1 = std::min(static_cast<int>(std::floor((y + radius) / c)), cells_y_ - 1);
  if (i0 > i1 || j0 > j1) return;
  const float rr = radius * radius;
  for (int j = j0; j <= j1; ++j) {
    // A cell is wholly inside the disc when its corner farthest from the centre is: in row j the farthest
    // corners are dy away in y, so the cells whose both x edges lie within the chord's half width.
    const float dy = std::max(std::abs(y - c * static_cast<float>(j)), std::abs(y - c * static_cast<float>(j + 1)));
    if (dy * dy > rr) continue;
    const float half_chord = std::sqrt(rr - dy * dy);
    const int first = std::max(static_cast<int>(std::ceil((x - half_chord) / c)), i0);
    const int last = std::min(static_cast<int>(std::floor((x + half_chord) / c)) - 1, i1);
    for (int i = first; i <= last; ++i) {
      float& value = cell(i, j);
      if (!(far_depth < value)) continue;
      // A tile's farthest depth changes only when its last open cell closes or its farthest cell comes nearer;
      // occluders come roughly front to back, so a closed tile is seldom looked at again.
      const size_t tile = static_cast<size_t>(j / kTileCells) * tiles_x_ + static_cast<size_t>(i / kTileCells);
      const float old = value;
      value = far_depth;
      if (old == INFINITY) {
        if (--open_cells_[tile] == 0) update_tile(i / kTileCells, j / kTileCells);
      } else if (open_cells_[tile] == 0 && old == tiles_[tile]) {
        update_tile(i / kTileCells, j / kTileCells);
      }
    }
  }
}

bool OcclusionGrid::hidden(float x0, float y0, float x1, float y1, float near_depth) const {
  const float w = static_cast<float>(width_), h = static_cast<float>(height_);
  if (x1 < 0.0f || y1 < 0.0f || x0 > w || y0 > h) return true;  // wholly off screen
  if (tiles_.empty()) return false;
  constexpr float tile_pixels = static_cast<float>(kCellPixels * kTileCells);
  const int ti0 = std::max(static_cast<int>(std::floor(x0 / tile_pixels)), 0);
  const int ti1 = std::min(static_cast<int>(std::floor(x1 / tile_pixels)), tiles_x_ - 1);
  const int tj0 = std::max(static_cast<int>(std::floor(y0 / tile_pixels)), 0);
  const int tj1 = std::min(static_cast<int>(std::floor(y1 / tile_pixels)), tiles_y_ - 1);
  for (int tj = tj0; tj <= tj1; ++tj)
    for (int ti = ti0; ti <= ti1; ++ti)
      if (!(tiles_[static_cast<size_t>(tj) * tiles_x_ + static_cast<size_t>(ti)] < near_depth)) return false;
  return true;
}

}  // namespace lodestone::render
