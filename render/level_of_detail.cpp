#include "render/level_of_detail.hpp"

#include <cmath>

namespace lodestone::render {

float projected_pixels(float size, float depth, float pixels_per_unit) {
  if (!(depth > 0.0f)) return INFINITY;
  return size * pixels_per_unit / depth;
}

SphereDetail sphere_detail(float radius_pixels) {
  return radius_pixels >= kExactDepthRadius ? SphereDetail::RayCast : SphereDetail::Point;
}

ArrowDetail arrow_detail(float length_pixels) {
  if (length_pixels < kMinArrowPixels) return ArrowDetail::Hidden;
  return length_pixels >= kConeArrowPixels ? ArrowDetail::Cone : ArrowDetail::Flat;
}

}  // namespace lodestone::render
