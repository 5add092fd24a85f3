#pragma once
// A colour and a continuous colour scale with its labels: what a legend shows. Plain data, no engine, no GL.

#include <array>
#include <string>
#include <vector>

namespace lodestone::render {

using Rgb = std::array<float, 3>;

// A continuous colour scale for the legend: colour at 0 .. 1 through `stops`, labelled lo .. hi.
struct ColorScale {
  std::string title;
  std::string low_label, high_label;
  std::vector<Rgb> stops;            // evenly spaced
  bool categorical = false;          // the stops are separate categories (draw swatches, not a gradient)
  std::string note{};                // a second line under the bar ("lighter: pointing up"), may be empty
  std::vector<std::string> ticks{};  // labels spread evenly under the bar (replacing low/high when given)
  Rgb at(float t) const;             // render/colors.cpp
};

}  // namespace lodestone::render
