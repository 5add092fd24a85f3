#include "render/colors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace lodestone::render {

Rgb ColorScale::at(float t) const {
  if (stops.empty()) return {1.0f, 1.0f, 1.0f};
  if (stops.size() == 1) return stops.front();
  t = std::clamp(t, 0.0f, 1.0f) * static_cast<float>(stops.size() - 1);
  const size_t k = std::min(static_cast<size_t>(t), stops.size() - 2);
  const float f = t - static_cast<float>(k);
  Rgb out;
  for (int c = 0; c < 3; ++c)
    out[static_cast<size_t>(c)] =
        (1.0f - f) * stops[k][static_cast<size_t>(c)] + f * stops[k + 1][static_cast<size_t>(c)];
  return out;
}

namespace {

// Blue across the field to dark red along it, through a light grey (a diverging map, like the
// [Erokhin-Berkov] figures).
const std::vector<Rgb> kAlignmentStops = {{0.16f, 0.32f, 0.85f}, {0.86f, 0.86f, 0.86f}, {0.55f, 0.02f, 0.02f}};
const std::vector<Rgb> kSignedStops = {{0.16f, 0.32f, 0.85f}, {0.80f, 0.80f, 0.80f}, {0.80f, 0.10f, 0.08f}};
// Perceptually ordered (viridis-like) for magnitudes.
const std::vector<Rgb> kMagnitudeStops = {
    {0.27f, 0.00f, 0.33f}, {0.23f, 0.32f, 0.55f}, {0.13f, 0.57f, 0.55f}, {0.37f, 0.79f, 0.38f}, {0.99f, 0.91f, 0.14f}};
const std::vector<Rgb> kCountStops = {{0.35f, 0.35f, 0.38f}, {0.20f, 0.45f, 0.85f}, {0.15f, 0.70f, 0.55f},
                                      {0.55f, 0.80f, 0.20f}, {0.95f, 0.75f, 0.15f}, {0.95f, 0.40f, 0.10f},
                                      {0.85f, 0.10f, 0.10f}};

// HSV with s, v in [0, 1] and the hue in turns.
Rgb from_hsv(float hue, float saturation, float value) {
  const float h = 6.0f * (hue - std::floor(hue));
  const int sector = std::min(static_cast<int>(h), 5);
  const float f = h - static_cast<float>(sector);
  const float p = value * (1.0f - saturation), q = value * (1.0f - saturation * f),
              t = value * (1.0f - saturation * (1.0f - f));
  switch (sector) {
    case 0: return {value, t, p};
    case 1: return {q, value, p};
    case 2: return {p, value, t};
    case 3: return {p, q, value};
    case 4: return {t, p, value};
    default: return {value, p, q};
  }
}

std::string number(double v, const char* unit) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.3g %s", v, unit);
  return buffer;
}

}  // namespace

// The hue steps by the golden ratio from one label to the next, so labels close together (and
// any few labels) get hues far apart; saturated and bright, never the grey of single particles. A
// cluster keeps its label, hence its colour, while others join it. The label is reduced modulo
// 2^20 first so that the product stays exact in double.
Rgb cluster_color(std::uint64_t label) {
  constexpr double kGoldenRatioConjugate = 0.6180339887498949;
  const double turns = static_cast<double>(label & 0xFFFFF) * kGoldenRatioConjugate;
  return from_hsv(static_cast<float>(turns - std::floor(turns)), 0.75f, 0.92f);
}

Rgb field_map_color(float t) {
  // viridis at 0, 0.25, 0.5, 0.75, 1
  static constexpr Rgb kStops[] = {{0.267f, 0.005f, 0.329f},
                                   {0.229f, 0.322f, 0.546f},
                                   {0.128f, 0.567f, 0.551f},
                                   {0.369f, 0.789f, 0.383f},
                                   {0.993f, 0.906f, 0.144f}};
  const float x = std::clamp(t, 0.0f, 1.0f) * 4.0f;
  const int k = std::min(static_cast<int>(x), 3);
  const float f = x - static_cast<float>(k);
  Rgb out;
  for (size_t c = 0; c < 3; ++c) out[c] = kStops[k][c] + f * (kStops[k + 1][c] - kStops[k][c]);
  return out;
}

float field_map_position(float b, float low, float high, bool log_scale) {
  float t = 0.0f;
  if (log_scale && low > 0.0f && high > low)
    t = std::log(std::max(b, low) / low) / std::log(high / low);
  else if (high > low)
    t = (b - low) / (high - low);
  return std::clamp(t, 0.0f, 1.0f);
}

Rgb direction_color(float x, float y, float z) {
  const float turns = std::atan2(y, x) / (2.0f * 3.14159265f);
  // The hue is only as strong as the part of the direction in the x-y plane: a moment pointing straight up (or
  // down) is white (dark grey) whatever tiny sideways part it has, instead of a pale hue that told two such
  // moments apart (issue 39).
  const float sideways = std::clamp(std::sqrt(x * x + y * y), 0.0f, 1.0f);
  const Rgb base = from_hsv(turns, 0.8f * sideways, 0.9f);
  Rgb out;
  const float up = std::clamp(z, 0.0f, 1.0f), down = std::clamp(-z, 0.0f, 1.0f);
  for (size_t k = 0; k < 3; ++k) out[k] = (base[k] + 0.65f * up * (1.0f - base[k])) * (1.0f - 0.6f * down);
  return out;
}

bool has_moments(const ParticleSnapshot& p) {
  return std::any_of(p.moment.begin(), p.moment.end(), [](float m) { return m != 0.0f; });
}

ColorMode honest_color_mode(const Snapshot& s, ColorMode wanted, bool* fell_back) {
  ColorMode mode = wanted;
  const bool field_mode = wanted == ColorMode::FieldAlignment || wanted == ColorMode::MomentAlignment;
  if (field_mode && s.field.squaredNorm() == 0.0)
    mode = has_moments(s.particles) ? ColorMode::MomentDirection : ColorMode::Speed;
  if (fell_back) *fell_back = mode != wanted;
  return mode;
}

namespace {

// The cluster legend: the colours drawn, those of larger clusters first, after the grey of single particles.
ColorScale cluster_legend(const ParticleSnapshot& p, const std::vector<float>& rgb, bool known) {
  constexpr size_t kMostSwatches = 12;
  std::vector<std::uint64_t> labels;
  std::vector<std::pair<std::uint32_t, Rgb>> colours;  // (largest cluster drawn in it, colour)
  std::uint32_t largest = 0;
  bool singles = false;
  for (size_t i = 0; i < p.size(); ++i) {
    if (!known || p.cluster_size[i] <= 1) {
      singles = true;
      continue;
    }
    labels.push_back(p.cluster[i]);
    largest = std::max(largest, p.cluster_size[i]);
    const Rgb c{rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]};
    const auto same = std::find_if(colours.begin(), colours.end(), [&](const auto& e) { return e.second == c; });
    if (same == colours.end())
      colours.emplace_back(p.cluster_size[i], c);
    else
      same->first = std::max(same->first, p.cluster_size[i]);
  }
  std::sort(labels.begin(), labels.end());
  const auto clusters = static_cast<size_t>(std::unique(labels.begin(), labels.end()) - labels.begin());
  std::stable_sort(colours.begin(), colours.end(), [](const auto& a, const auto& b) { return a.first > b.first; });

  ColorScale scale;
  scale.categorical = true;
  char title[96];
  if (clusters == 0)
    std::snprintf(title, sizeof title, "clusters: none yet (no two beads touch)");
  else
    std::snprintf(title, sizeof title, "clusters of 2 or more: %zu, the largest of %u beads", clusters, largest);
  scale.title = title;
  if (singles) scale.stops.push_back(kSingleParticleGrey);
  for (size_t k = 0; k < colours.size() && scale.stops.size() < kMostSwatches; ++k)
    scale.stops.push_back(colours[k].second);
  scale.low_label = singles ? "grey: single" : "";
  if (clusters > colours.size())
    scale.note = "each cluster its own colour (largest first);\nclusters far apart may share one";
  else if (clusters > 0)
    scale.note = "each cluster its own colour (largest first)";
  return scale;
}

}  // namespace

ColorScale color_particles(const Snapshot& s, ColorMode wanted, std::vector<float>& rgb, ClusterPalette* palette) {
  const ParticleSnapshot& p = s.particles;
  const size_t n = p.size();
  rgb.resize(3 * n);
  bool fell_back = false;
  const ColorMode mode = n == 0 ? wanted : honest_color_mode(s, wanted, &fell_back);
  const std::string because = fell_back ? "no applied field: " : "";
  const float bx = static_cast<float>(s.field_direction.x()), by = static_cast<float>(s.field_direction.y()),
              bz = static_cast<float>(s.field_direction.z());
  ColorScale scale;
  std::vector<float> value(n);
  switch (mode) {
    case ColorMode::FieldAlignment:
      scale = {"easy axis vs field |cos theta|", "0 (across)", "1 (along)", kAlignmentStops};
      for (size_t i = 0; i < n; ++i)
        value[i] = std::abs(p.easy_axis[3 * i] * bx + p.easy_axis[3 * i + 1] * by + p.easy_axis[3 * i + 2] * bz);
      break;
    case ColorMode::MomentAlignment:
      scale = {"moment vs field cos", "-1 (against)", "1 (along)", kSignedStops};
      for (size_t i = 0; i < n; ++i) {
        const float mx = p.moment[3 * i], my = p.moment[3 * i + 1], mz = p.moment[3 * i + 2];
        const float norm = std::sqrt(mx * mx + my * my + mz * mz);
        value[i] = norm > 0.0f ? 0.5f * (1.0f + (mx * bx + my * by + mz * bz) / norm) : 0.5f;
      }
      break;
    case ColorMode::MomentDirection: {
      scale = {because + "moment direction", "", "", {}};
      for (int k = 0; k <= 12; ++k) {
        const float a = 2.0f * 3.14159265f * static_cast<float>(k) / 12.0f;
        scale.stops.push_back(direction_color(std::cos(a), std::sin(a), 0.0f));
      }
      scale.ticks = {"+x", "+y", "-x", "-y", "+x"};
      scale.note = "lighter up (+z), white straight up;\ndarker down, grey straight down";
      for (size_t i = 0; i < n; ++i) {
        const float mx = p.moment[3 * i], my = p.moment[3 * i + 1], mz = p.moment[3 * i + 2];
        const float norm = std::sqrt(mx * mx + my * my + mz * mz);
        const Rgb c = norm > 0.0f ? direction_color(mx / norm, my / norm, mz / norm) : kSingleParticleGrey;
        for (size_t k = 0; k < 3; ++k) rgb[3 * i + k] = c[k];
      }
      return scale;
    }
    case ColorMode::Speed: {
      float top = 0.0f;
      for (size_t i = 0; i < n; ++i) {
        const float vx = p.velocity[3 * i], vy = p.velocity[3 * i + 1], vz = p.velocity[3 * i + 2];
        value[i] = std::sqrt(vx * vx + vy * vy + vz * vz);
        top = std::max(top, value[i]);
      }
      for (float& v : value) v = top > 0.0f ? v / top : 0.0f;
      scale = {because + "speed", "0", number(top, "m/s"), kMagnitudeStops};
      break;
    }
    case ColorMode::Contacts:
      scale = {"contacts", "0", "6+", kCountStops};
      for (size_t i = 0; i < n; ++i) value[i] = std::min(static_cast<float>(p.contacts[i]), 6.0f) / 6.0f;
      break;
    case ColorMode::Cluster: {
      // Categorical, not a scale: each particle gets its cluster's colour directly, and the legend shows the
      // colours drawn (issue 39: six fixed swatches "single ... largest" matched nothing on screen).
      const bool known = p.cluster.size() == n && p.cluster_size.size() == n;
      if (known && palette) {
        palette->assign(p, rgb);
      } else {
        for (size_t i = 0; i < n; ++i) {
          const Rgb colour = known && p.cluster_size[i] > 1 ? cluster_color(p.cluster[i]) : kSingleParticleGrey;
          for (size_t k = 0; k < 3; ++k) rgb[3 * i + k] = colour[k];
        }
      }
      return cluster_legend(p, rgb, known);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const Rgb c = scale.at(value[i]);
    rgb[3 * i] = c[0];
    rgb[3 * i + 1] = c[1];
    rgb[3 * i + 2] = c[2];
  }
  return scale;
}

// [SECTION] cluster palette

namespace {
// ColorBrewer's Set1 and a few more: saturated, well apart in hue or lightness, none near the singles' grey.
constexpr Rgb kPalette[ClusterPalette::kSize] = {
    {0.89f, 0.10f, 0.11f}, {0.22f, 0.49f, 0.85f}, {0.30f, 0.75f, 0.29f}, {0.62f, 0.31f, 0.75f}, {1.00f, 0.55f, 0.00f},
    {1.00f, 0.92f, 0.20f}, {0.60f, 0.32f, 0.12f}, {0.97f, 0.51f, 0.75f}, {0.10f, 0.80f, 0.80f}, {0.70f, 0.95f, 0.40f}};
}  // namespace

Rgb ClusterPalette::color(int index) {
  return kPalette[static_cast<size_t>(std::clamp(index, 0, kSize - 1))];
}

int ClusterPalette::assign(const ParticleSnapshot& p, std::vector<float>& rgb) {
  const size_t n = p.size();
  rgb.resize(3 * n);
  // The clusters (two or more particles) and their members.
  std::unordered_map<std::uint64_t, int> cluster_of_label;
  std::vector<std::uint64_t> labels;
  std::vector<int> cluster_of(n, -1);
  std::vector<std::uint32_t> sizes;
  float largest_radius = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    if (p.cluster_size[i] <= 1) continue;
    const auto [it, added] = cluster_of_label.emplace(p.cluster[i], static_cast<int>(labels.size()));
    if (added) {
      labels.push_back(p.cluster[i]);
      sizes.push_back(p.cluster_size[i]);
    }
    cluster_of[i] = it->second;
    largest_radius = std::max(largest_radius, p.radius[i]);
  }
  const int count = static_cast<int>(labels.size());
  // Neighbouring clusters: two of their particles closer than 2 (ri + rj) centre to centre, found on a grid of
  // cells 4 largest radii wide.
  std::vector<std::vector<int>> neighbours(static_cast<size_t>(count));
  if (count > 1 && largest_radius > 0.0f) {
    const float cell = 4.0f * largest_radius;
    auto key = [](long long x, long long y, long long z) {
      return (static_cast<std::uint64_t>(x) * 73856093ULL) ^ (static_cast<std::uint64_t>(y) * 19349663ULL) ^
             (static_cast<std::uint64_t>(z) * 83492791ULL);
    };
    auto cell_of = [&](size_t i, int a) { return static_cast<long long>(std::floor(p.position[3 * i + a] / cell)); };
    std::unordered_multimap<std::uint64_t, size_t> grid;
    for (size_t i = 0; i < n; ++i)
      if (cluster_of[i] >= 0) grid.emplace(key(cell_of(i, 0), cell_of(i, 1), cell_of(i, 2)), i);
    for (size_t i = 0; i < n; ++i) {
      if (cluster_of[i] < 0) continue;
      for (long long dx = -1; dx <= 1; ++dx)
        for (long long dy = -1; dy <= 1; ++dy)
          for (long long dz = -1; dz <= 1; ++dz) {
            const auto range = grid.equal_range(key(cell_of(i, 0) + dx, cell_of(i, 1) + dy, cell_of(i, 2) + dz));
            for (auto it = range.first; it != range.second; ++it) {
              const size_t j = it->second;
              if (j <= i || cluster_of[j] == cluster_of[i]) continue;
              float d2 = 0.0f;
              for (int a = 0; a < 3; ++a) {
                const float d = p.position[3 * i + a] - p.position[3 * j + a];
                d2 += d * d;
              }
              const float reach = 2.0f * (p.radius[i] + p.radius[j]);
              if (d2 < reach * reach) {
                neighbours[static_cast<size_t>(cluster_of[i])].push_back(cluster_of[j]);
                neighbours[static_cast<size_t>(cluster_of[j])].push_back(cluster_of[i]);
              }
            }
          }
    }
  }
  // Larger clusters choose first; each keeps its colour unless a neighbour already has it, else takes the
  // least used colour no neighbour has.
  std::vector<int> order(static_cast<size_t>(count));
  for (int k = 0; k < count; ++k) order[static_cast<size_t>(k)] = k;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const auto ua = static_cast<size_t>(a), ub = static_cast<size_t>(b);
    return sizes[ua] != sizes[ub] ? sizes[ua] > sizes[ub] : labels[ua] < labels[ub];
  });
  std::vector<int> colour(static_cast<size_t>(count), -1);
  std::array<int, kSize> used{};
  int shared = 0;
  for (const int k : order) {
    std::array<bool, kSize> taken{};
    for (const int other : neighbours[static_cast<size_t>(k)])
      if (colour[static_cast<size_t>(other)] >= 0)
        taken[static_cast<size_t>(colour[static_cast<size_t>(other)])] = true;
    const auto kept = std::lower_bound(kept_.begin(), kept_.end(), std::make_pair(labels[static_cast<size_t>(k)], -1));
    int choice = -1;
    if (kept != kept_.end() && kept->first == labels[static_cast<size_t>(k)] &&
        !taken[static_cast<size_t>(kept->second)])
      choice = kept->second;
    if (choice < 0)
      for (int d = 0; d < kSize; ++d)
        if (!taken[static_cast<size_t>(d)] &&
            (choice < 0 || used[static_cast<size_t>(d)] < used[static_cast<size_t>(choice)]))
          choice = d;
    if (choice < 0) {  // every colour is next door: share the least used one
      choice = static_cast<int>(std::min_element(used.begin(), used.end()) - used.begin());
      ++shared;
    }
    colour[static_cast<size_t>(k)] = choice;
    ++used[static_cast<size_t>(choice)];
  }
  kept_.clear();
  for (int k = 0; k < count; ++k) kept_.emplace_back(labels[static_cast<size_t>(k)], colour[static_cast<size_t>(k)]);
  std::sort(kept_.begin(), kept_.end());
  for (size_t i = 0; i < n; ++i) {
    const Rgb c = cluster_of[i] >= 0 ? kPalette[static_cast<size_t>(colour[static_cast<size_t>(cluster_of[i])])]
                                     : kSingleParticleGrey;
    for (size_t k = 0; k < 3; ++k) rgb[3 * i + k] = c[k];
  }
  return shared;
}

}  // namespace lodestone::render
