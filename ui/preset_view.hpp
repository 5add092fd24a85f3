#pragma once
// A preset's `view` section in the app (engine/core/parameters.hpp, ViewParameters): what a load applies
// (colour mode, arrow length, plots; the camera and pace are the 3-D view's and the simulation thread's)
// and what a save writes (the view as it is then). No physics reads it.

#include "render/colors.hpp"
#include "ui/ui_state.hpp"

#include <optional>
#include <string>

namespace lodestone::ui {

// The colour mode a preset's view asks for; `auto` picks by the scene: easy axis vs field when the field
// program ever applies a field, else the moment's direction when particles carry moments, else speed.
render::ColorMode color_mode_for(const Preset& scene, ViewColorMode mode, bool particles_have_moments);
// The preset's name for a colour mode ("alignment", "moment", "direction", ...), and back (nullopt: unknown).
const char* color_mode_key(render::ColorMode mode);
std::optional<render::ColorMode> color_mode_from_key(const std::string& key);
// The keys allowed, for messages: "alignment, moment, direction, speed, contacts, cluster".
std::string color_mode_keys();
// True when the field program applies a field at some time (a strength, an amplitude, a step or a gradient).
bool scene_has_field(const Preset& scene);

// Applies a newly loaded scene's view to the panels: colour mode, arrow length, the Plots window.
void apply_preset_view(UiState& state, const Preset& scene, bool particles_have_moments);
// The view as it is now, for a save: colour mode, arrow length, camera angles, pace, Plots window; keeps
// start_paused from the scene as loaded.
ViewParameters current_view(const UiState& state);

}  // namespace lodestone::ui
