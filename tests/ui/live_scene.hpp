#pragma once
// What the panels draw from in the UI tests: a snapshot as the simulation thread publishes it, the UiState that
// adopted it, the scene builder (the legend the overlays draw; update() before each use) and the gizmo's labels
// (no renderer here: they stay hidden).

#include "engine/live/snapshot.hpp"
#include "render/scene_builder.hpp"
#include "render/visual_scene.hpp"
#include "ui/ui_state.hpp"

namespace lodestone::ui::test {

struct LiveScene {
  Snapshot snapshot;
  UiState state;
  render::SceneBuilder scene;
  render::GizmoLabels gizmo_labels;
};

}  // namespace lodestone::ui::test
