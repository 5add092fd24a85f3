#pragma once
// How spheres are coloured, and the legend that explains it. Pure CPU, no GL.

#include "engine/live/snapshot.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lodestone::render {

using Rgb = std::array<float, 3>;

enum class ColorMode : int {
  FieldAlignment,  // |easy axis . field direction|: dark red along the field, blue perpendicular ([Erokhin-Berkov] Fig.
                   // 4)
  MomentAlignment,  // moment . field direction / |m|: red along, grey across, blue against
  Speed,            // |v| from 0 to the largest speed in the snapshot
  Contacts,         // number of contacts, 0 .. 6+
  Cluster,          // each cluster of touching particles its own colour, single particles grey
};
inline constexpr const char* kColorModeNames[] = {"easy axis vs field", "moment vs field", "speed", "contacts",
                                                  "cluster"};

// Cluster mode: the colour of single particles, and of the cluster with this label (the smallest
// particle id in it; engine/analysis/clusters.hpp).
inline constexpr Rgb kSingleParticleGrey = {0.50f, 0.50f, 0.52f};
Rgb cluster_color(std::uint64_t label);

// A continuous colour scale for the legend: colour at 0 .. 1 through `stops`, labelled lo .. hi.
struct ColorScale {
  std::string title;
  std::string low_label, high_label;
  std::vector<Rgb> stops;    // evenly spaced
  bool categorical = false;  // the stops are separate categories (draw swatches, not a gradient)
  Rgb at(float t) const;
};

// Fills `rgb` (3 floats per particle) for the mode, and returns the legend.
// The field view's |B| colour map (issue 22): t in [0, 1], low to high, through dark blue, teal, green and yellow
// (viridis' stops: perceptually ordered, readable on the dark background and in grey). And the position of a
// value on it between `low` and `high` [T], logarithmic (low > 0) or linear, clamped to [0, 1].
Rgb field_map_color(float t);
float field_map_position(float b, float low, float high, bool log_scale);

ColorScale color_particles(const Snapshot& snapshot, ColorMode mode, std::vector<float>& rgb);

}  // namespace lodestone::render
