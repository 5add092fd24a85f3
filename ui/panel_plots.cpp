// Plots: alignment <|cos theta|> (with a field), energies, the contact count and the mean cluster size S
// against time (ui/time_plot.hpp: time axis, ticks, hover, Save CSV), and the distributions of theta and psi
// now (histograms over the particles of the angles of [Erokhin-Berkov] eq. 1, when particles carry moments
// and there is a field; the paper's Fig. 2 is the single-grain relation psi(theta), lodestone-sw-curves).

#include "ui/panels.hpp"
#include "ui/preset_view.hpp"
#include "ui/time_plot.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

namespace lodestone::ui {
namespace {

// A distribution of angles in 5 deg bins (engine/analysis/angles.hpp) as bars from 0 to the tallest, same
// width rule as plot(). The title above names the angle, its range and mean (drawn over the bars it hid them).
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
  ImGui::TextWrapped("%s", overlay);
  ImGui::PlotHistogram("##histogram", values.data(), static_cast<int>(N), 0, nullptr, 0.0f, std::max(top, 1e-6f),
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
  // A flat series (no contacts yet, a constant energy): half its size either side, or +-1 at zero, so that the axis
  // reads 0 .. 2e-8 or -1 .. 1 instead of ticks 1e-30 apart.
  if (!(hi - lo > 1e-6f * std::max(std::abs(lo), std::abs(hi)))) {
    const float pad = lo != 0.0f ? 0.5f * std::abs(lo) : 1.0f;
    lo -= pad;
    hi += pad;
  }
  return {lo, hi};
}

// [SECTION] One function per plot, by the key a preset's view.plots names it with
bool scene_field(const PanelContext& c) {
  // The field plots only when the scene has a field: without one, "along the field" means nothing.
  return c.snapshot.scene && scene_has_field(*c.snapshot.scene);
}

void plot_alignment(PanelContext& c) {
  const PlotHistory& h = c.state.history;
  time_plot({"alignment <|cos theta|>", "alignment",
             "How well the easy axes line up with the field: 1 all along it, 0.5 random in 3-D.", "plot-alignment.csv"},
            h.time, h.alignment, 0.0f, 1.0f, c.state);
  const Observables& o = c.snapshot.observables;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", alignment_time_text(o.alignment_time, o.alignment, c.snapshot.time_step).c_str());
  ImGui::PopStyleColor();
}

// Now, not against time: theta of the easy axes to the field (folded to 0-90 deg, as <|cos theta|>) and psi of the
// moments to their axes (> 90 deg: on the pole away from the field), with the alignment they explain (the angles of
// [Erokhin-Berkov] eq. 1).
void plot_angles(PanelContext& c) {
  const AngleHistograms& a = c.snapshot.observables.angles;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("angles now, %lld particles with a moment, in 5 deg bins", static_cast<long long>(a.particles));
  ImGui::PopStyleColor();
  histogram("theta (axis to field)", a.theta, a.mean_theta);
  if (moments_can_turn(c.snapshot))
    histogram("psi (moment to axis)", a.psi, a.mean_psi);
  else
    note("psi: none, the moments are fixed along their axes (rigid dipoles)");
}

void plot_kinetic(PanelContext& c) {
  const PlotHistory& h = c.state.history;
  const auto [lo, hi] = bounds(h.kinetic);
  time_plot({"kinetic energy [J]", "kinetic_J", "Energy of motion: translation and rotation of every particle.",
             "plot-kinetic.csv"},
            h.time, h.kinetic, lo, hi, c.state);
}

void plot_potential(PanelContext& c) {
  const PlotHistory& h = c.state.history;
  const auto [lo, hi] = bounds(h.potential, h.balance);  // one axis with the balance, so the two compare
  time_plot(
      {"stored energy [J]", "potential_J",
       "Energy stored in the contact springs, between the magnets, in the field and in gravity.", "plot-potential.csv"},
      h.time, h.potential, lo, hi, c.state);
}

void plot_balance(PanelContext& c) {
  const PlotHistory& h = c.state.history;
  const auto [lo, hi] = bounds(h.potential, h.balance);
  time_plot({"energy balance [J]", "balance_J",
             "Total energy plus what was lost to friction and damping, minus the work of a changing field: it "
             "stays flat when every joule is accounted for. A drift means energy from nowhere (a time step "
             "too large, or a source not yet counted).",
             "plot-balance.csv"},
            h.time, h.balance, lo, hi, c.state);
}

void plot_contacts(PanelContext& c) {
  const PlotHistory& h = c.state.history;
  const auto [lo, hi] = bounds(h.contacts);
  time_plot({"contacts", "contacts", "Pairs of particles touching now.", "plot-contacts.csv"}, h.time, h.contacts, lo,
            hi, c.state);
}

// S(t) from 1 (nothing touches) up; the dynamic exponent z of S ~ t^z ([Dominik-Nubold] eq. 18) is fitted by the
// runner (--clusters), the plot shows the growth.
void plot_cluster_size(PanelContext& c) {
  const PlotHistory& h = c.state.history;
  const auto [lo, hi] = bounds(h.mean_cluster_size);
  time_plot({"mean cluster size S", "mean_cluster_size",
             "How big the groups of touching particles are, weighted by size (1: nothing touches; "
             "[Dominik-Nubold] eq. 17).",
             "plot-cluster-size.csv"},
            h.time, h.mean_cluster_size, std::min(lo, 1.0f), std::max(hi, 1.0f + 1e-3f), c.state);
  const ClusterStatistics& cs = c.snapshot.observables.clusters;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "%lld clusters counting single particles, the largest of %lld; %lld chains of mean length %.3g, "
      "%lld rings",
      static_cast<long long>(cs.clusters), static_cast<long long>(cs.largest_cluster),
      static_cast<long long>(cs.chains), cs.mean_chain_length, static_cast<long long>(cs.rings));
  ImGui::PopStyleColor();
}

bool always(const PanelContext&) {
  return true;
}
bool with_angles(const PanelContext& c) {
  return scene_field(c) && c.snapshot.observables.angles.particles > 0;
}

struct PlotKind {
  const char* key;  // as view.plots names it (engine/scene/preset_schema.cpp)
  bool (*shown)(const PanelContext&);
  void (*draw)(PanelContext&);
};
// In the order shown when the preset names none.
constexpr PlotKind kPlots[] = {
    {"alignment", scene_field, plot_alignment},  {"angles", with_angles, plot_angles},
    {"kinetic", always, plot_kinetic},           {"potential", always, plot_potential},
    {"balance", always, plot_balance},           {"contacts", always, plot_contacts},
    {"cluster_size", always, plot_cluster_size},
};

}  // namespace

std::vector<std::string> plot_order(const std::vector<std::string>& first, std::vector<std::string>* rest) {
  std::vector<std::string> out = first;
  for (const PlotKind& p : kPlots)
    if (std::find(first.begin(), first.end(), p.key) == first.end()) (first.empty() ? out : *rest).push_back(p.key);
  return out;
}

void plots_window(PanelContext& c) {
  const PlotHistory& h = c.state.history;
  const ImGuiIO& io = ImGui::GetIO();
  const float width = std::min(380.0f, std::max(260.0f, io.DisplaySize.x - sidebar_extent(c.state) - 30.0f));
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - width - 10.0f, 10.0f), ImGuiCond_FirstUseEver);
  // As tall as the plots need, but clear of the legend (bottom right, about 150 px).
  ImGui::SetNextWindowSize(ImVec2(width, std::clamp(io.DisplaySize.y - 180.0f, 200.0f, 740.0f)),
                           ImGuiCond_FirstUseEver);
  // Open or collapsed as the scene's view asks when it loads (or --plots); the user's choice after that.
  if (c.state.plots_open_request)
    ImGui::SetNextWindowCollapsed(!*std::exchange(c.state.plots_open_request, std::nullopt), ImGuiCond_Always);
  else
    ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  const bool expanded = ImGui::Begin("Plots", nullptr, appear_behind_popups());
  c.state.plots_open = expanded;
  // Open at the right edge, it takes that strip from the 3-D view: the camera frames and centres the scene in the
  // rest (issue 39: the Plots window covered a quarter of the scene). Moved away from the edge, it is an overlay.
  const float left_edge = ImGui::GetWindowPos().x, right_edge = left_edge + ImGui::GetWindowWidth();
  c.state.plots_right_extent = expanded && right_edge > io.DisplaySize.x - 40.0f ? io.DisplaySize.x - left_edge : 0.0f;
  if (expanded) {
    if (h.time.empty()) {
      ImGui::TextDisabled("no data yet");
    } else {
      ImGui::TextDisabled("t from %.4g to %.4g s (%zu points)", static_cast<double>(h.time.front()),
                          static_cast<double>(h.time.back()), h.time.size());
      // The scene's own plots first (view.plots: the cluster size for a chains scene), the others folded below.
      std::vector<std::string> folded;
      const std::vector<std::string> shown =
          plot_order(c.snapshot.scene ? c.snapshot.scene->view.plots : std::vector<std::string>{}, &folded);
      auto draw = [&c](const std::string& key) {
        for (const PlotKind& p : kPlots)
          if (key == p.key && p.shown(c)) p.draw(c);
      };
      for (const std::string& key : shown) draw(key);
      if (!folded.empty() && ImGui::CollapsingHeader("more plots"))
        for (const std::string& key : folded) draw(key);
    }
  }
  ImGui::End();
}

}  // namespace lodestone::ui
