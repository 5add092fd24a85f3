#pragma once
// The ImGui panels. Each reads the newest snapshot and the GUI's copy of the parameters, and
// changes the simulation only by sending commands. All of them work while it runs.

#include "render/scene_renderer.hpp"
#include "ui/field_editor.hpp"
#include "ui/ui_state.hpp"

namespace lodestone::ui {

// Width of the side bar [logical pixels]; the 3-D view is centred on the rest of the window.
inline constexpr float kSidebarWidth = 380.0f;

struct PanelContext {
  const Snapshot& snapshot;
  UiState& state;
  const CommandSink& send;
  const render::SceneRenderer& renderer;
  float framebuffer_scale = 1.0f;    // framebuffer pixels per logical pixel
  bool plots_open_at_start = false;  // the Plots window's first state (desktop --plots); collapsed otherwise
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
void view_panel(PanelContext& context);
void field_panel(PanelContext& context);
void contact_panel(PanelContext& context);
void walls_panel(PanelContext& context);
void magnetics_panel(PanelContext& context);
void presets_panel(PanelContext& context);
void export_panel(PanelContext& context);
void plots_window(PanelContext& context);
void inspector_window(PanelContext& context);
void overlays(PanelContext& context);

// The editor context for the GUI's scene copy.
inline EditorContext editor_context(UiState& state) {
  return EditorContext{state.edited.units, state.field_errors};
}

}  // namespace lodestone::ui
