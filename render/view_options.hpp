#pragma once
// What the renderer is asked to show (render/scene_renderer.hpp): colours, arrows, lines, the box, the gizmo, the
// selection and the field view. A plain struct, apart from the renderer, so that the panels and the app's state
// (ui/ui_state.hpp) hold it without Qt's OpenGL headers.

#include "render/colors.hpp"

#include <cstdint>
#include <optional>

namespace lodestone::render {

struct ViewOptions {
  ColorMode color_mode = ColorMode::FieldAlignment;
  bool show_moments = true;     // moment arrows
  bool show_easy_axes = false;  // easy axes as lines (where they differ from the moment)
  bool show_bonds = true;       // beam bonds as lines between centres, drawn over the spheres
  bool show_box = true;
  bool show_gizmo = true;
  float arrow_length = 2.0f;              // half length of an arrow, in radii (1 = just the surface)
  int gizmo_left = 8;                     // [framebuffer pixels] left edge of the gizmo
  std::optional<std::uint64_t> selected;  // highlighted particle
  // The field view (issue 22; Snapshot::field_view): |B| on the slice as a colour map, the field lines.
  bool show_field_slice = false;
  bool show_field_lines = false;
  bool field_log_scale = true;  // the colour map logarithmic in |B| (else linear)
  // [T] the |B| colour map's range, held by the UI (ui/ui_state.hpp FieldViewTool) so that a colour keeps its
  // meaning from one update to the next; field_high 0: each field view's own range.
  float field_low = 0.0f, field_high = 0.0f;
};

}  // namespace lodestone::render
