#include "render/colors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

ColorScale color_particles(const Snapshot& s, ColorMode mode, std::vector<float>& rgb) {
  const ParticleSnapshot& p = s.particles;
  const size_t n = p.size();
  rgb.resize(3 * n);
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
    case ColorMode::Speed: {
      float top = 0.0f;
      for (size_t i = 0; i < n; ++i) {
        const float vx = p.velocity[3 * i], vy = p.velocity[3 * i + 1], vz = p.velocity[3 * i + 2];
        value[i] = std::sqrt(vx * vx + vy * vy + vz * vz);
        top = std::max(top, value[i]);
      }
      for (float& v : value) v = top > 0.0f ? v / top : 0.0f;
      scale = {"speed", "0", number(top, "m/s"), kMagnitudeStops};
      break;
    }
    case ColorMode::Contacts:
      scale = {"contacts", "0", "6+", kCountStops};
      for (size_t i = 0; i < n; ++i) value[i] = std::min(static_cast<float>(p.contacts[i]), 6.0f) / 6.0f;
      break;
    case ColorMode::Cluster: {
      // Categorical, not a scale: each particle gets its cluster's colour directly. The legend shows
      // grey and a few cluster colours.
      const ClusterStatistics& c = s.observables.clusters;
      char title[96];
      std::snprintf(title, sizeof title, "clusters: %lld, mean size S %.3g", static_cast<long long>(c.clusters),
                    c.mean_cluster_size);
      scale = {title, "single", "largest " + std::to_string(c.largest_cluster), {kSingleParticleGrey}};
      for (std::uint64_t label = 0; label < 5; ++label) scale.stops.push_back(cluster_color(label));
      scale.categorical = true;
      const bool known = p.cluster.size() == n && p.cluster_size.size() == n;
      for (size_t i = 0; i < n; ++i) {
        const Rgb colour = known && p.cluster_size[i] > 1 ? cluster_color(p.cluster[i]) : kSingleParticleGrey;
        for (size_t k = 0; k < 3; ++k) rgb[3 * i + k] = colour[k];
      }
      return scale;
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

}  // namespace lodestone::render
