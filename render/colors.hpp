#pragma once
// How spheres are coloured, and the legend that explains it. Pure CPU, no GL.

#include "engine/live/snapshot.hpp"
#include "render/color_scale.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lodestone::render {

enum class ColorMode : int {
  FieldAlignment,  // |easy axis . field direction|: dark red along the field, blue perpendicular ([Erokhin-Berkov] Fig.
                   // 4)
  MomentAlignment,  // moment . field direction / |m|: red along, grey across, blue against
  Speed,            // |v| from 0 to the largest speed in the snapshot
  Contacts,         // number of contacts, 0 .. 6+
  Cluster,          // each cluster of touching particles its own colour, single particles grey
  MomentDirection,  // the moment's direction: hue from its azimuth about z, lighter up (+z), darker down
};
inline constexpr const char* kColorModeNames[] = {"easy axis vs field", "moment vs field", "speed",
                                                  "contacts",           "cluster",         "moment direction"};
inline constexpr int kColorModeCount = 6;

// Cluster mode: the colour of single particles, and of the cluster with this label (the smallest
// particle id in it; engine/analysis/clusters.hpp).
inline constexpr Rgb kSingleParticleGrey = {0.50f, 0.50f, 0.52f};
Rgb cluster_color(std::uint64_t label);

// The colour of a moment direction (unit vector): the hue turns with the azimuth about z (+x red, +y
// yellow-green, -x cyan, -y violet), lighter toward +z and darker toward -z.
Rgb direction_color(float x, float y, float z);

// Cluster colours that neighbours can tell apart: a palette of well-separated hues, each cluster given one
// that no cluster near it (a surface gap under a diameter) has, and keeping it from frame to frame while
// that stays true. Lives as long as the view (SceneRenderer).
class ClusterPalette {
 public:
  static constexpr int kSize = 10;
  static Rgb color(int index);  // index in [0, kSize)
  // Fills rgb for the snapshot's clusters (single particles grey); returns the number of pairs of
  // neighbouring clusters that had to share a colour (0 unless more than kSize clusters crowd together).
  int assign(const ParticleSnapshot& particles, std::vector<float>& rgb);

 private:
  std::vector<std::pair<std::uint64_t, int>> kept_;  // (cluster label, palette index), sorted by label
};

// The field view's |B| colour map (issue 22): t in [0, 1], low to high, through dark blue, teal, green and yellow
// (viridis' stops: perceptually ordered, readable on the dark background and in grey). And the position of a
// value on it between `low` and `high` [T], logarithmic (low > 0) or linear, clamped to [0, 1].
Rgb field_map_color(float t);
float field_map_position(float b, float low, float high, bool log_scale);

// What the colours can honestly show: the mode asked for, unless it compares with a field that is zero now
// (then the moment's direction, or speed when nothing carries a moment). `fell_back` says when it changed.
ColorMode honest_color_mode(const Snapshot& snapshot, ColorMode wanted, bool* fell_back = nullptr);
// True when some particle carries a moment (a magnetic scene).
bool has_moments(const ParticleSnapshot& particles);

// Fills `rgb` (3 floats per particle) for the mode, and returns the legend. Field modes with no applied field
// fall back as honest_color_mode says, and the legend's title says so. Cluster colours come from `palette`
// when one is given (neighbours differ), else from cluster_color(label).
ColorScale color_particles(const Snapshot& snapshot, ColorMode mode, std::vector<float>& rgb,
                           ClusterPalette* palette = nullptr);

}  // namespace lodestone::render
