// Plots: alignment <|cos theta|>, energies and the contact count against time (ImGui lines;
// Debian has no ImPlot).

#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>

namespace lodestone::ui {
namespace {

// ImGui 1.86's PlotLines takes a negative width literally (other widgets read it as "fill the
// row"): a width of -1 drew every plot as an empty sliver. The width is given, and the label is
// hidden (the overlay names the plot and its last value).
void plot(const char* label, const std::vector<float>& values, float lo, float hi) {
  if (values.empty()) return;
  char overlay[96];
  std::snprintf(overlay, sizeof overlay, "%s: %.4g", label, static_cast<double>(values.back()));
  ImGui::PushID(label);
  ImGui::PlotLines("##plot", values.data(), static_cast<int>(values.size()), 0, overlay, lo, hi,
                   ImVec2(ImGui::GetContentRegionAvail().x, 70.0f));
  ImGui::PopID();
}

std::pair<float, float> bounds(const std::vector<float>& a, const std::vector<float>& b = {}) {
  float lo = 0.0f, hi = 0.0f;
  bool first = true;
  for (const std::vector<float>* v : {&a, &b})
    for (float x : *v) {
      lo = first ? x : std::min(lo, x);
      hi = first ? x : std::max(hi, x);
      first = false;
    }
  if (hi - lo < 1e-30f) hi = lo + 1e-30f;
  return {lo, hi};
}

}  // namespace

void plots_window(PanelContext& c) {
  const History& h = c.state.history;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 380.0f, 10.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(370.0f, 330.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Plots")) {
    if (h.time.empty()) {
      ImGui::TextDisabled("no data yet");
    } else {
      ImGui::TextDisabled("t from %.4g to %.4g s (%zu points)", static_cast<double>(h.time.front()),
                          static_cast<double>(h.time.back()), h.time.size());
      plot("<|cos theta|>", h.alignment, 0.0f, 1.0f);
      const Observables& o = c.snapshot.observables;
      if (o.alignment_time >= 0.0)
        ImGui::Text("tau_0.95 = %.4g s in this stage", o.alignment_time);
      else
        ImGui::TextDisabled("<cos theta> = %.3f; tau_0.95: not reached in this stage", o.alignment);
      const auto [elo, ehi] = bounds(h.kinetic);
      plot("kinetic [J]", h.kinetic, elo, ehi);
      const auto [plo, phi] = bounds(h.potential, h.balance);
      plot("potential [J]", h.potential, plo, phi);
      plot("balance [J]", h.balance, plo, phi);
      const auto [clo, chi] = bounds(h.contacts);
      plot("contacts", h.contacts, clo, chi);
    }
  }
  ImGui::End();
}

}  // namespace lodestone::ui
