#pragma once
// Level of detail (issue 26, big scenes): how each sphere and moment arrow is drawn, decided from its
// size on screen. A software rasteriser (Mesa llvmpipe) pays per vertex and per triangle as much as per
// pixel, so 100 000 arrows of 30 vertices each cost more than the spheres: an arrow a few pixels long
// is drawn flat (a shaft quad and a flat head, 9 vertices, same outline) and one shorter than
// kMinArrowPixels not at all (it would hide inside its sphere's sprite). Pure functions, tested in
// tests/render/test_camera_colors.cpp against hand-computed projections.

namespace lodestone::render {

// [window pixels] spheres at least this big in radius are ray-cast quads with exact depth;
// smaller ones are point sprites at the depth of their centre.
inline constexpr float kExactDepthRadius = 8.0f;
// [window pixels] arrows at least this long, tail to tip (seen side on), get the shaded cone head.
inline constexpr float kConeArrowPixels = 40.0f;
// [window pixels] arrows shorter than this are not drawn.
inline constexpr float kMinArrowPixels = 3.0f;

// The size in pixels on screen of a length `size` [m] across the line of sight at view depth `depth` [m]
// (distance along the viewing axis, > 0 in front of the camera), for a perspective projection with
// `pixels_per_unit` pixels per metre at unit depth (half the view height over tan(half field of view)).
// Infinite for depth <= 0 (at or behind the eye: nothing to shrink).
float projected_pixels(float size, float depth, float pixels_per_unit);

enum class SphereDetail { RayCast, Point };
enum class ArrowDetail { Hidden, Flat, Cone };

// By the sphere's radius on screen [pixels].
SphereDetail sphere_detail(float radius_pixels);
// By the arrow's length on screen [pixels], tail to tip, as if seen side on (its scale, whatever its
// direction: an arrow pointing at the viewer keeps the detail of its neighbours).
ArrowDetail arrow_detail(float length_pixels);

}  // namespace lodestone::render
