#include "app/desktop/remote_view.hpp"

#include "ui/gallery.hpp"
#include "ui/panels.hpp"
#include "ui/preset_view.hpp"

#include <cstdio>
#include <map>
#include <string>

namespace lodestone::desktop {
namespace {

const char* field_view_key(const render::ViewOptions& v) {
  if (v.show_field_slice && v.show_field_lines) return "both";
  if (v.show_field_slice) return "slice";
  return v.show_field_lines ? "lines" : "off";
}

// A view verb: `r` is the line read (remote_parse.hpp: `r.rest` the line after the verb and the arguments read),
// `line` the whole line (named in a refusal), `s` the newest snapshot. Each prints its answer, "ok VERB ..." or the
// refusal.
using ViewVerbHandler = void (*)(const remote::Request& r, const std::string& line, const Snapshot& s,
                                 ui::UiState& state);

void verb_view(const remote::Request&, const std::string&, const Snapshot& s, ui::UiState& state) {
  char pace[48] = "fastest";
  if (s.pace.mode == PaceMode::RealTime) std::snprintf(pace, sizeof pace, "%.6g", s.pace.value);
  if (s.pace.mode == PaceMode::StepsPerFrame) std::snprintf(pace, sizeof pace, "%.6gsteps", s.pace.value);
  const std::string sidebar =
      state.sidebar_hidden ? std::string("hidden") : std::to_string(static_cast<int>(state.sidebar_width));
  const bool hint = !s.running && s.step == 0 && s.scene && s.scene->view.start_paused;
  std::printf(
      "view color=%s legend=%s arrow=%.3g yaw=%.4g pitch=%.4g pace=%s sidebar=%s plots=%d follows=%d "
      "paused_hint=%d try_hints=%d field_view=%s field_updates=%.3g gallery=%d\n",
      ui::color_mode_key(state.view.color_mode), state.legend_title.c_str(),
      static_cast<double>(state.view.arrow_length), static_cast<double>(state.camera_yaw_degrees),
      static_cast<double>(state.camera_pitch_degrees), pace, sidebar.c_str(), state.plots_open ? 1 : 0,
      state.camera_follows ? 1 : 0, hint ? 1 : 0, ui::try_hints_shown(state) ? 1 : 0, field_view_key(state.view),
      state.field_view.updates_per_second, state.gallery_open ? 1 : 0);
}

// field-view off|slice|lines|both [x|y|z [AT]]
void verb_field_view(const remote::Request& r, const std::string&, const Snapshot&, ui::UiState& state) {
  ui::FieldViewTool& f = state.field_view;
  if (r.field_view.at) {
    f.at = *r.field_view.at;
    f.at_set = true;
  }
  if (r.field_view.axis >= 0) f.axis = r.field_view.axis;
  state.view.show_field_slice = r.field_view.slice;
  state.view.show_field_lines = r.field_view.lines;
  f.settings_changed = true;
  std::printf("ok field-view %s\n", r.rest.c_str());
}

void verb_color(const remote::Request& r, const std::string& line, const Snapshot&, ui::UiState& state) {
  const std::string& rest = r.rest;
  const auto mode = ui::color_mode_from_key(rest);
  if (!mode) return refuse(line, "colour mode '" + rest + "' is unknown; allowed: " + ui::color_mode_keys());
  state.view.color_mode = *mode;
  std::printf("ok color %s\n", rest.c_str());
}

void verb_frame(const remote::Request& r, const std::string& line, const Snapshot&, ui::UiState& state) {
  const std::string& rest = r.rest;
  if (rest.empty() || rest == "all") {
    state.camera_request = ui::UiState::CameraRequest::FrameAll;
  } else if (rest == "selection") {
    if (!state.selected) return refuse(line, "nothing is selected (select ID first)");
    state.camera_request = ui::UiState::CameraRequest::FrameSelection;
  } else {
    return refuse(line, "usage: frame [all|selection]");
  }
  std::printf("ok frame %s\n", rest.empty() ? "all" : rest.c_str());
}

void verb_select(const remote::Request& r, const std::string& line, const Snapshot& s, ui::UiState& state) {
  if (s.particles.index_of(r.select_id) < 0)
    return refuse(
        line, "no particle has id " + r.rest + " (ids 0.." + std::to_string(s.particles.size()) + " in this scene)");
  state.selected = r.select_id;
  std::printf("ok select %s\n", r.rest.c_str());
}

void verb_sidebar(const remote::Request& r, const std::string& line, const Snapshot&, ui::UiState& state) {
  if (!r.sidebar_width) {
    state.sidebar_hidden = r.rest == "hide";  // show or hide (remote::parse_remote_line)
  } else {
    const float width = *r.sidebar_width;
    if (!(width >= ui::kSidebarMinWidth && width <= ui::kSidebarMaxWidth))
      return refuse(line, "width " + r.rest + " is outside [" + std::to_string(static_cast<int>(ui::kSidebarMinWidth)) +
                              ", " + std::to_string(static_cast<int>(ui::kSidebarMaxWidth)) + "]");
    state.sidebar_width = width;
    state.sidebar_hidden = false;
  }
  std::printf("ok sidebar %s\n", r.rest.c_str());
}

void verb_hints(const remote::Request& r, const std::string& line, const Snapshot&, ui::UiState& state) {
  const std::string& rest = r.rest;
  if (rest != "show" && rest != "hide") return refuse(line, "usage: hints show|hide");
  state.try_hints_hidden = rest == "hide";
  std::printf("ok hints %s\n", rest.c_str());
}

// The gallery's state in one line: open or not, the scene shown now, then each group's presets (file names) in the
// order shown, and how many have a thumbnail.
void print_gallery(const Snapshot& s, const ui::UiState& state) {
  std::string groups;
  int thumbnails = 0;
  for (const ui::GalleryGroupView& g : ui::gallery_groups(state.presets)) {
    std::string names;
    for (const ui::PresetEntry* e : g.entries) {
      names += (names.empty() ? "" : ",") + e->name;
      thumbnails += e->thumbnail.empty() ? 0 : 1;
    }
    groups += std::string(" ") + ui::gallery_group_key(g.group) + "=" + names;
  }
  std::printf("gallery open=%d scene=%s%s thumbnails=%d\n", state.gallery_open ? 1 : 0, s.scene_source.c_str(),
              groups.c_str(), thumbnails);
}

// gallery [show|hide|open NAME]: the report, or the gallery opened, closed, or a scene of it chosen as a click would.
void verb_gallery(const remote::Request& r, const std::string& line, const Snapshot& s, ui::UiState& state) {
  const std::string& rest = r.rest;
  if (rest.empty()) return print_gallery(s, state);
  if (rest == "show" || rest == "hide") {
    state.gallery_open = rest == "show";
    std::printf("ok gallery %s\n", rest.c_str());
    return;
  }
  if (rest.rfind("open ", 0) == 0) {
    const std::string name = rest.substr(5);
    if (!ui::choose_gallery_entry(state, name)) {
      std::string names;
      for (const ui::PresetEntry& e : state.presets)
        if (e.loadable) names += (names.empty() ? "" : ", ") + e.name;
      return refuse(line, "no scene named '" + name + "' in the gallery; scenes: " + names);
    }
    std::printf("ok gallery open %s\n", name.c_str());
    return;
  }
  refuse(line, "usage: gallery [show|hide|open NAME]");
}

void verb_help(const remote::Request&, const std::string&, const Snapshot&, ui::UiState& state) {
  state.help_open = true;
  std::printf("ok help\n");
}

void verb_about(const remote::Request&, const std::string&, const Snapshot&, ui::UiState& state) {
  state.about_open = true;
  std::printf("ok about\n");
}

}  // namespace

void refuse(const std::string& line, const std::string& why) {
  std::printf("refused: %s: %s\n", line.c_str(), why.c_str());
  std::fflush(stdout);
}

bool execute_view_verb(const remote::Request& r, const std::string& line, const Snapshot& s, ui::UiState& state) {
  static const std::map<std::string, ViewVerbHandler> handlers = {
      {"view", verb_view},     {"field-view", verb_field_view}, {"color", verb_color}, {"frame", verb_frame},
      {"select", verb_select}, {"sidebar", verb_sidebar},       {"help", verb_help},   {"about", verb_about},
      {"hints", verb_hints},   {"gallery", verb_gallery},
  };
  const auto found = handlers.find(r.verb);
  if (found == handlers.end()) return false;
  found->second(r, line, s, state);
  std::fflush(stdout);
  return true;
}

}  // namespace lodestone::desktop
