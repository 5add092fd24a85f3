#include "ui/preset_view.hpp"

#include <cmath>

namespace lodestone::ui {
namespace {

// The preset's key of each render::ColorMode, in the enum's order.
constexpr const char* kColorModeKeys[render::kColorModeCount] = {"alignment", "moment",  "speed",
                                                                 "contacts",  "cluster", "direction"};

bool sets_field(const json& set) {
  for (auto it = set.begin(); it != set.end(); ++it)
    if (it.key().rfind("field.", 0) == 0) return true;
  return false;
}

}  // namespace

bool scene_has_field(const Preset& scene) {
  const FieldParameters& f = scene.field;
  if (f.strength != 0.0 || f.start_strength != 0.0 || f.gradient.norm() != 0.0) return true;
  for (const ProtocolPhase& phase : scene.protocol)
    if (sets_field(phase.set)) return true;
  for (const TimelineEntry& entry : scene.timeline)
    if (sets_field(entry.set)) return true;
  return false;
}

render::ColorMode color_mode_for(const Preset& scene, ViewColorMode mode, bool particles_have_moments) {
  switch (mode) {
    case ViewColorMode::FieldAlignment: return render::ColorMode::FieldAlignment;
    case ViewColorMode::MomentAlignment: return render::ColorMode::MomentAlignment;
    case ViewColorMode::MomentDirection: return render::ColorMode::MomentDirection;
    case ViewColorMode::Speed: return render::ColorMode::Speed;
    case ViewColorMode::Contacts: return render::ColorMode::Contacts;
    case ViewColorMode::Cluster: return render::ColorMode::Cluster;
    case ViewColorMode::Automatic: break;
  }
  if (scene_has_field(scene)) return render::ColorMode::FieldAlignment;
  return particles_have_moments ? render::ColorMode::MomentDirection : render::ColorMode::Speed;
}

const char* color_mode_key(render::ColorMode mode) {
  return kColorModeKeys[static_cast<size_t>(mode)];
}

std::optional<render::ColorMode> color_mode_from_key(const std::string& key) {
  for (int k = 0; k < render::kColorModeCount; ++k)
    if (key == kColorModeKeys[k]) return static_cast<render::ColorMode>(k);
  return std::nullopt;
}

std::string color_mode_keys() {
  std::string keys;
  for (const char* key : kColorModeKeys) keys += (keys.empty() ? "" : ", ") + std::string(key);
  return keys;
}

void apply_preset_view(UiState& state, const Preset& scene, bool particles_have_moments) {
  state.view.color_mode = color_mode_for(scene, scene.view.color_mode, particles_have_moments);
  state.view.arrow_length = static_cast<float>(scene.view.arrow_length);
  state.plots_open_request = scene.view.plots_open;
  state.camera_yaw_degrees = static_cast<float>(scene.view.camera_yaw * 180.0 / pi);
  state.camera_pitch_degrees = static_cast<float>(scene.view.camera_pitch * 180.0 / pi);
  state.camera_request = UiState::CameraRequest::Load;
  state.touch.placing = false;  // a click in a new scene selects, whatever the last one's add tool was doing
  // The plots start afresh with the new scene (not when a load is asked for: the simulation thread may refuse it,
  // and the scene kept keeps its plots).
  state.history.clear();
  // The field view's slice through the new box's middle, its colours fitted anew.
  state.field_view.at_set = false;
  state.field_view.settings_changed = true;
  state.view.field_low = state.view.field_high = 0.0f;
}

ViewParameters current_view(const UiState& state) {
  ViewParameters v;
  if (state.as_loaded) v = state.as_loaded->view;
  // The preset's choice names follow ViewColorMode: Automatic first, then the render modes by key.
  const std::string key = color_mode_key(state.view.color_mode);
  const char* names[] = {"auto", "alignment", "moment", "direction", "speed", "contacts", "cluster"};
  for (int k = 0; k < 7; ++k)
    if (key == names[k]) v.color_mode = static_cast<ViewColorMode>(k);
  v.arrow_length = static_cast<double>(state.view.arrow_length);
  v.camera_yaw = std::remainder(static_cast<double>(state.camera_yaw_degrees), 360.0) * pi / 180.0;
  v.camera_pitch = static_cast<double>(state.camera_pitch_degrees) * pi / 180.0;
  v.pace = state.pace.mode == PaceMode::RealTime ? std::optional<double>(state.pace.value) : std::nullopt;
  v.plots_open = state.plots_open;
  return v;
}

}  // namespace lodestone::ui
