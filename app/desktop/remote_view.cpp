#include "app/desktop/remote_view.hpp"

#include "engine/scene/units.hpp"
#include "ui/panels.hpp"
#include "ui/preset_view.hpp"

#include <cstdio>
#include <sstream>
#include <string>

namespace lodestone::desktop {
namespace {

const char* field_view_key(const render::ViewOptions& v) {
  if (v.show_field_slice && v.show_field_lines) return "both";
  if (v.show_field_slice) return "slice";
  return v.show_field_lines ? "lines" : "off";
}

}  // namespace

bool execute_view_verb(const std::string& verb, const std::string& rest, const std::string& line, const Snapshot& s,
                       ui::UiState& state) {
  auto refuse = [&](const std::string& why) { std::printf("refused: %s: %s\n", line.c_str(), why.c_str()); };
  if (verb == "view") {
    char pace[48] = "fastest";
    if (s.pace.mode == PaceMode::RealTime) std::snprintf(pace, sizeof pace, "%.6g", s.pace.value);
    if (s.pace.mode == PaceMode::StepsPerFrame) std::snprintf(pace, sizeof pace, "%.6gsteps", s.pace.value);
    const std::string sidebar =
        state.sidebar_hidden ? std::string("hidden") : std::to_string(static_cast<int>(state.sidebar_width));
    const bool hint = !s.running && s.step == 0 && s.scene && s.scene->view.start_paused;
    std::printf(
        "view color=%s legend=%s arrow=%.3g yaw=%.4g pitch=%.4g pace=%s sidebar=%s plots=%d follows=%d "
        "paused_hint=%d field_view=%s field_updates=%.3g\n",
        ui::color_mode_key(state.view.color_mode), state.legend_title.c_str(),
        static_cast<double>(state.view.arrow_length), static_cast<double>(state.camera_yaw_degrees),
        static_cast<double>(state.camera_pitch_degrees), pace, sidebar.c_str(), state.plots_open ? 1 : 0,
        state.camera_follows ? 1 : 0, hint ? 1 : 0, field_view_key(state.view), state.field_view.updates_per_second);
  } else if (verb == "field-view") {
    // field-view off|slice|lines|both [x|y|z [AT]]
    std::istringstream words(rest);
    std::string what, axis, at;
    words >> what >> axis >> at;
    const bool known = what == "off" || what == "slice" || what == "lines" || what == "both";
    const std::string axes = "xyz";
    if (!known || (!axis.empty() && (axis.size() != 1 || axes.find(axis[0]) == std::string::npos))) {
      refuse("usage: field-view off|slice|lines|both [x|y|z [AT]] (AT the slice's position, e.g. 1mm)");
      return true;
    }
    ui::FieldViewTool& f = state.field_view;
    if (!at.empty()) {
      double value = 0.0;
      std::string error;
      if (!parse_quantity_or_si(at, Quantity::Length, value, error)) {
        refuse("position '" + at + "': allowed a length (metres, or with a unit: 1mm, 20um)" +
               (error.empty() ? "" : "; " + error));
        return true;
      }
      f.at = value;
      f.at_set = true;
    }
    if (!axis.empty()) f.axis = static_cast<int>(axes.find(axis[0]));
    state.view.show_field_slice = what == "slice" || what == "both";
    state.view.show_field_lines = what == "lines" || what == "both";
    f.settings_changed = true;
    std::printf("ok field-view %s\n", rest.c_str());
  } else if (verb == "color") {
    const auto mode = ui::color_mode_from_key(rest);
    if (!mode) {
      refuse("colour mode '" + rest + "' is unknown; allowed: " + ui::color_mode_keys());
    } else {
      state.view.color_mode = *mode;
      std::printf("ok color %s\n", rest.c_str());
    }
  } else if (verb == "frame") {
    if (rest.empty() || rest == "all") {
      state.camera_request = ui::UiState::CameraRequest::FrameAll;
    } else if (rest == "selection") {
      if (!state.selected) {
        refuse("nothing is selected (select ID first)");
        return true;
      }
      state.camera_request = ui::UiState::CameraRequest::FrameSelection;
    } else {
      refuse("usage: frame [all|selection]");
      return true;
    }
    std::printf("ok frame %s\n", rest.empty() ? "all" : rest.c_str());
  } else if (verb == "select") {
    try {
      const std::uint64_t id = std::stoull(rest);
      if (s.particles.index_of(id) < 0) {
        refuse("no particle has id " + rest + " (ids 0.." + std::to_string(s.particles.size()) + " in this scene)");
        return true;
      }
      state.selected = id;
      std::printf("ok select %s\n", rest.c_str());
    } catch (const std::exception&) {
      refuse("usage: select ID (a particle id, 0 or more)");
    }
  } else if (verb == "sidebar") {
    if (rest == "show" || rest == "hide") {
      state.sidebar_hidden = rest == "hide";
    } else {
      try {
        const float width = std::stof(rest);
        if (!(width >= ui::kSidebarMinWidth && width <= ui::kSidebarMaxWidth)) {
          refuse("width " + rest + " is outside [" + std::to_string(static_cast<int>(ui::kSidebarMinWidth)) + ", " +
                 std::to_string(static_cast<int>(ui::kSidebarMaxWidth)) + "]");
          return true;
        }
        state.sidebar_width = width;
        state.sidebar_hidden = false;
      } catch (const std::exception&) {
        refuse("usage: sidebar show|hide|WIDTH");
        return true;
      }
    }
    std::printf("ok sidebar %s\n", rest.c_str());
  } else if (verb == "help" || verb == "about") {
    (verb == "help" ? state.help_open : state.about_open) = true;
    std::printf("ok %s\n", verb.c_str());
  } else {
    return false;
  }
  std::fflush(stdout);
  return true;
}

}  // namespace lodestone::desktop
