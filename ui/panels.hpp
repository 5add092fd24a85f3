#pragma once
// The ImGui panels. Each reads the newest snapshot and the GUI's copy of the parameters, and
// changes the simulation only by sending commands. All of them work while it runs.

#include "render/view_options.hpp"
#include "render/visual_scene.hpp"
#include "ui/field_editor.hpp"
#include "ui/ui_state.hpp"

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

namespace lodestone::ui {

// Width of the side bar [logical pixels] at start (UiState::sidebar_width: dragged at its right edge, hidden with
// Tab), and its limits; the 3-D view is centred on the rest of the window.
inline constexpr float kSidebarWidth = 380.0f;
inline constexpr float kSidebarMinWidth = 300.0f;
inline constexpr float kSidebarMaxWidth = 720.0f;

struct PanelContext {
  const Snapshot& snapshot;
  UiState& state;
  const CommandSink& send;
  const render::VisualScene& scene;         // what the view draws: the overlays show its legend
  const render::GizmoLabels& gizmo_labels;  // where the renderer drew the gizmo's axes
  float framebuffer_scale = 1.0f;           // framebuffer pixels per logical pixel
};

// Everything: the side bar (run, view, field, contact, walls, magnetics, presets, export), the plots,
// the inspector, the legend, gizmo labels and messages.
void draw_panels(PanelContext& context);

// [SECTION] one function per panel (panel_*.cpp)
void run_panel(PanelContext& context);
// The Run panel's time slider, replay and stepping controls, and the ways back after a failed check
// (panel_history.cpp); the dialog for an edit held for confirmation.
void history_controls(PanelContext& context);
void recovery_controls(PanelContext& context);
void confirmation_popup(PanelContext& context);
// Dear ImGui 1.86 (Debian 12's) asserts when a window appears and takes focus while a modal popup is open
// (ocornut/imgui#4920, fixed in 1.87; found by scripts/remote_random.py: `help` while "Apply this change?" was up).
// The windows that can open meanwhile (Controls, About, the Inspector, Plots, the side bar) add these flags: they
// appear behind the popup without taking focus.
ImGuiWindowFlags appear_behind_popups();
void view_panel(PanelContext& context);
void field_panel(PanelContext& context);
void contact_panel(PanelContext& context);
void walls_panel(PanelContext& context);
void touch_panel(PanelContext& context);
// The field view (panel_field_view.cpp): its part of the View panel, and the legend of |B| in mT.
void field_view_section(PanelContext& context);
void field_view_legend(PanelContext& context);
void magnetics_panel(PanelContext& context);
void presets_panel(PanelContext& context);
void export_panel(PanelContext& context);
void plots_window(PanelContext& context);
// The plots the Plots window shows, by their view.plots keys: the preset's `first`, and the others into `rest` (folded
// under "more plots"); when `first` is empty, every plot in the usual order (alignment first) and `rest` untouched.
std::vector<std::string> plot_order(const std::vector<std::string>& first, std::vector<std::string>* rest);
void inspector_window(PanelContext& context);
void overlays(PanelContext& context);
// The status line at the bottom of the 3-D view (the last notice; a success goes after kSuccessNoticeSeconds, a
// refusal stays until its cause is fixed, Reset or dismissed) and the "press space to start" hint of a scene
// that opens paused (ui/status_line.cpp).
inline constexpr double kSuccessNoticeSeconds = 6.0;
void status_line(PanelContext& context);
void start_hint(PanelContext& context);
// The "Try this" strip at the top of the 3-D view on the first scene (try_hints_shown): what a hand can do.
void try_hints(PanelContext& context);
// The restore offer across the top of the 3-D view after an unclean exit (UiState::restore_offer): Restore, Discard
// it, Not now (ui/restore_offer.cpp).
void restore_offer(PanelContext& context);
// Where the status line sits [logical pixels]: bottom left of the 3-D view, clear of the legend (bottom
// right) and the Plots window (top right).
ImVec4 status_line_rect(const UiState& state, ImVec2 display);
// The Run panel's top (ui/scene_summary.cpp): the description's plain part, its research detail under "For
// researchers" (a description's text after "For researchers:"), and Reset / Revert to preset.
std::pair<std::string, std::string> split_description(const std::string& description);
void scene_summary(PanelContext& context);
void reset_buttons(PanelContext& context);
// F1 / Help > Controls: every mouse and key control; Help > About: version, build date, contact laws.
void help_windows(PanelContext& context);
std::string version_text();       // "Lodestone 0.1.0, built Nov 27 2026 03:00:00"
std::string contact_laws_text();  // the contact laws this build has: "linear, hertz_mindlin, ..."

// The editor context for the GUI's scene copy.
inline EditorContext editor_context(UiState& state) {
  return EditorContext{state.edited.units, state.field_errors, state.changed_paths};
}

}  // namespace lodestone::ui
