// Plots: alignment <|cos theta|>, energies, the contact count and the mean cluster size S against
// time (ImGui lines; Debian has no ImPlot), and the distributions of theta and psi now ([Erokhin-Berkov]
// Fig. 2; histograms, when particles carry moments).

#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstdio>

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

// A distribution of angles in 5 deg bins (engine/analysis/angles.hpp) as bars from 0 to the tallest, same
// width rule as plot(). The overlay names the angle, its range and mean.
template <size_t N>
void histogram(const char* label, const std::array<double, N>& fractions, double mean_degrees) {
  std::array<float, N> values{};
  float top = 0.0f;
  for (size_t k = 0; k < N; ++k) {
    values[k] = static_cast<float>(fractions[k]);
    top = std::max(top, values[k]);
  }
  char overlay[96];
  std::snprintf(overlay, sizeof overlay, "%s 0-%.0f deg: mean %.1f deg", label, AngleHistograms::bin_high(N - 1),
                mean_degrees);
  ImGui::PushID(label);
  ImGui::PlotHistogram("##histogram", values.data(), static_cast<int>(N), 0, overlay, 0.0f, std::max(top, 1e-6f),
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
  const PlotHistory& h = c.state.history;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 380.0f, 10.0f), ImGuiCond_FirstUseEver);
  // As tall as the plots need, but clear of the legend (bottom right, about 90 px).
  ImGui::SetNextWindowSize(ImVec2(370.0f, std::clamp(io.DisplaySize.y - 110.0f, 200.0f, 740.0f)),
                           ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(!c.plots_open_at_start, ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Plots")) {
    if (h.time.empty()) {
      ImGui::TextDisabled("no data yet");
    } else {
      ImGui::TextDisabled("t from %.4g to %.4g s (%zu points)", static_cast<double>(h.time.front()),
                          static_cast<double>(h.time.back()), h.time.size());
      plot("<|cos theta|>", h.alignment, 0.0f, 1.0f);
      const Observables& o = c.snapshot.observables;
      if (o.alignment_time >= 0.0)
        ImGui::Text("tau_0.95 = %.4g s in this phase", o.alignment_time);
      else {
        // Wrapped: the line is wider than the window.
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("<cos theta> = %.3f; tau_0.95: not reached in this phase", o.alignment);
        ImGui::PopStyleColor();
      }
      // Now, not against time: theta of the easy axes to the field (folded to 0-90 deg, as
      // <|cos theta|>) and psi of the moments to their axes (> 90 deg: on the pole away from the
      // field), with the alignment they explain ([Erokhin-Berkov] Fig. 2).
      const AngleHistograms& a = o.angles;
      if (a.particles > 0) {
        ImGui::TextDisabled("angles now, %lld particles with a moment, 5 deg bins",
                            static_cast<long long>(a.particles));
        histogram("theta (axis to field)", a.theta, a.mean_theta);
        histogram("psi (moment to axis)", a.psi, a.mean_psi);
        ImGui::Separator();
      }
      const auto [elo, ehi] = bounds(h.kinetic);
      plot("kinetic [J]", h.kinetic, elo, ehi);
      const auto [plo, phi] = bounds(h.potential, h.balance);
      plot("potential [J]", h.potential, plo, phi);
      plot("balance [J]", h.balance, plo, phi);
      const auto [clo, chi] = bounds(h.contacts);
      plot("contacts", h.contacts, clo, chi);
      // S(t) from 1 (nothing touches) up; the dynamic exponent z of S ~ t^z ([Dominik-Nubold] eq. 18) is
      // fitted by the runner (--clusters), the plot shows the growth.
      const auto [slo, shi] = bounds(h.mean_cluster_size);
      plot("mean cluster size S", h.mean_cluster_size, std::min(slo, 1.0f), std::max(shi, 1.0f + 1e-3f));
      const ClusterStatistics& cs = o.clusters;
      ImGui::TextDisabled("%lld clusters, the largest of %lld", static_cast<long long>(cs.clusters),
                          static_cast<long long>(cs.largest_cluster));
      ImGui::TextDisabled("%lld chains of mean length %.3g, %lld rings", static_cast<long long>(cs.chains),
                          cs.mean_chain_length, static_cast<long long>(cs.rings));
    }
  }
  ImGui::End();
}

}  // namespace lodestone::ui
