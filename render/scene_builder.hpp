#pragma once
// Turns a snapshot into what the renderer draws (render/visual_scene.hpp), as the view options ask: the colour of
// each sphere and the legend (render/colors.hpp), the selection, moment arrows, easy axes, the box, bonds, the
// field view and the drag spring. Pure CPU, no GL; the one place where the renderer's input meets the engine's.

#include "engine/live/snapshot.hpp"
#include "render/camera.hpp"
#include "render/colors.hpp"
#include "render/view_options.hpp"
#include "render/visual_scene.hpp"

#include <cstdint>
#include <optional>

namespace lodestone::render {

class SceneBuilder {
 public:
  // Fills scene() from `snapshot` (the arrays reused from call to call) and returns it.
  const VisualScene& update(const Snapshot& snapshot, const ViewOptions& options);
  const VisualScene& scene() const { return scene_; }

 private:
  ClusterPalette cluster_palette_;  // cluster colours kept from frame to frame
  VisualScene scene_;
};

// The particle whose sphere the ray hits first, if any (double precision, all particles).
std::optional<std::uint64_t> pick_particle(const Snapshot& snapshot, const Ray& ray);

}  // namespace lodestone::render
