#include "ui/time_plot.hpp"

#include "engine/scene/atomic_file.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace lodestone::ui {
namespace {

std::string tick_text(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int most) {
  std::vector<double> ticks;
  if (!(hi > lo) || most < 2) return ticks;
  // The smallest step of 1, 2 or 5 times a power of ten that gives at most `most` ticks.
  const double raw = (hi - lo) / static_cast<double>(most);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10.0 * power;
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (std::floor(hi / (m * power)) - std::ceil(lo / (m * power)) + 1.0 <= most) {
      step = m * power;
      break;
    }
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step)
    ticks.push_back(std::abs(v) < 1e-12 * step ? 0.0 : v);
  return ticks;
}

std::string plot_csv(const std::string& column, const std::vector<float>& time, const std::vector<float>& values) {
  std::string text = "time_s," + column + "\n";
  char buffer[64];
  for (size_t i = 0; i < std::min(time.size(), values.size()); ++i) {
    std::snprintf(buffer, sizeof buffer, "%.9g,%.9g\n", static_cast<double>(time[i]), static_cast<double>(values[i]));
    text += buffer;
  }
  return text;
}

void time_plot(const TimePlot& plot, const std::vector<float>& time, const std::vector<float>& values, float lo,
               float hi, UiState& state) {
  if (values.empty() || time.size() != values.size()) return;
  ImGui::PushID(plot.title);
  ImGui::TextUnformatted(plot.title);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(plot.help);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::SameLine();
  ImGui::TextDisabled("now %.4g", static_cast<double>(values.back()));
  ImGui::SameLine();
  if (ImGui::SmallButton("Save CSV")) {
    try {
      write_file_atomically(plot.file, plot_csv(plot.column, time, values));
      state.notice = std::string("saved the plot '") + plot.title + "' to " + plot.file;
      state.notice_is_error = false;
    } catch (const std::exception& e) {
      state.notice = std::string("plot not saved: ") + e.what();
      state.notice_is_error = true;
    }
  }
  if (time.size() < 2 || !(time.back() > time.front())) {  // one point has no time axis (its ticks read 1e-30)
    ImGui::TextDisabled("(fills in as the run goes)");
    ImGui::PopID();
    return;
  }
  // The frame: room for the value labels on the left and the time labels below.
  const float label_width = ImGui::CalcTextSize("-0.000e+00").x * 0.75f;
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x, height = 78.0f;
  const ImVec2 a(origin.x + label_width, origin.y + 0.5f * line), b(origin.x + width - 4.0f, origin.y + height);
  ImGui::InvisibleButton("plot", ImVec2(width, height + line + 2.0f));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
  const float t0 = time.front(), t1 = std::max(time.back(), time.front() + 1e-30f);
  if (!(hi > lo)) hi = lo + 1e-30f;
  auto x_of = [&](double t) { return a.x + static_cast<float>((t - t0) / (t1 - t0)) * (b.x - a.x); };
  auto y_of = [&](double v) {
    return b.y - static_cast<float>(std::clamp((v - lo) / (hi - lo), 0.0, 1.0)) * (b.y - a.y);
  };
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.35f), text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (const double v : nice_ticks(lo, hi, 4)) {
    const float y = y_of(v);
    draw->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), grid);
    const std::string label = tick_text(v);
    draw->AddText(ImVec2(a.x - ImGui::CalcTextSize(label.c_str()).x - 3.0f, y - 0.5f * line), text, label.c_str());
  }
  for (const double t : nice_ticks(t0, t1, 4)) {
    const float x = x_of(t);
    draw->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), grid);
    const std::string label = tick_text(t);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    draw->AddText(ImVec2(std::clamp(x - 0.5f * w, a.x, b.x - w), b.y + 1.0f), text, label.c_str());
  }
  draw->AddText(ImVec2(origin.x, b.y + 1.0f), text, "t [s]");
  const ImU32 curve = ImGui::GetColorU32(ImGuiCol_PlotLines);
  for (size_t i = 1; i < values.size(); ++i)
    draw->AddLine(ImVec2(x_of(time[i - 1]), y_of(values[i - 1])), ImVec2(x_of(time[i]), y_of(values[i])), curve, 1.5f);
  // Hover: the nearest point in time, its time and value.
  if (ImGui::IsItemHovered()) {
    const float mouse = ImGui::GetIO().MousePos.x;
    const double t = t0 + (std::clamp(mouse, a.x, b.x) - a.x) / (b.x - a.x) * (t1 - t0);
    const auto it = std::lower_bound(time.begin(), time.end(), static_cast<float>(t));
    const size_t i = std::min(static_cast<size_t>(it - time.begin()), time.size() - 1);
    draw->AddLine(ImVec2(x_of(time[i]), a.y), ImVec2(x_of(time[i]), b.y),
                  ImGui::GetColorU32(ImGuiCol_PlotLinesHovered));
    ImGui::SetTooltip("t = %.6g s\n%s = %.6g", static_cast<double>(time[i]), plot.column,
                      static_cast<double>(values[i]));
  }
  ImGui::PopID();
}

std::string alignment_time_text(double alignment_time, double alignment, double time_step) {
  char text[128];
  if (alignment_time >= 0.0 && alignment_time <= 1.5 * time_step)
    std::snprintf(text, sizeof text, "tau_0.95: already aligned (<cos theta> >= 0.95) when this phase began");
  else if (alignment_time >= 0.0)
    std::snprintf(text, sizeof text, "tau_0.95 = %.4g s in this phase", alignment_time);
  else
    std::snprintf(text, sizeof text, "<cos theta> = %.3f; tau_0.95: not reached in this phase", alignment);
  return text;
}

bool moments_can_turn(const Snapshot& s) {
  if (!s.in_force) return true;
  for (const Material& m : s.in_force->materials)
    if (m.moment_model != MomentModel::Rigid) return true;
  return false;
}

}  // namespace lodestone::ui
