#include "ui/ui_state.hpp"

#include "engine/output/export_frames.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "ui/plain_labels.hpp"
#include "ui/preset_view.hpp"

#include <algorithm>
#include <filesystem>

namespace lodestone::ui {

void PlotHistory::clear() {
  *this = PlotHistory{};
}

void PlotHistory::add(const Snapshot& s) {
  if (s.step == last_step) return;
  if (s.step < last_step) {  // a rewind, a reset or a new scene: the plots go back with the run
    const size_t keep =
        static_cast<size_t>(std::lower_bound(time.begin(), time.end(), static_cast<float>(s.time)) - time.begin());
    for (std::vector<float>* series :
         {&time, &alignment, &kinetic, &potential, &balance, &contacts, &mean_cluster_size})
      series->resize(std::min(keep, series->size()));
    if (time.empty()) clear();
    skipped = stride - 1;  // this snapshot is kept
  }
  last_step = s.step;
  if (++skipped < stride) return;
  skipped = 0;
  const Observables& o = s.observables;
  time.push_back(static_cast<float>(s.time));
  alignment.push_back(static_cast<float>(o.alignment));
  kinetic.push_back(static_cast<float>(o.kinetic()));
  potential.push_back(static_cast<float>(o.potential()));
  balance.push_back(static_cast<float>(o.energy_balance()));
  contacts.push_back(static_cast<float>(o.particle_contacts));
  mean_cluster_size.push_back(static_cast<float>(o.clusters.mean_cluster_size));
  if (time.size() >= kCapacity) {
    for (std::vector<float>* series :
         {&time, &alignment, &kinetic, &potential, &balance, &contacts, &mean_cluster_size}) {
      for (size_t i = 0; 2 * i < series->size(); ++i) (*series)[i] = (*series)[2 * i];
      series->resize((series->size() + 1) / 2);
    }
    stride *= 2;
  }
}

void adopt_snapshot(UiState& state, const Snapshot& s) {
  if (s.in_force && s.scene_revision != state.adopted_revision && s.acknowledged_edit == state.last_edit_id) {
    state.edited = *s.in_force;
    state.document = s.scene;
    state.adopted_revision = s.scene_revision;
    state.field_errors.clear();
    if (s.scene) {
      if (s.scene_loads != state.saved_load) {  // a scene just loaded: as its file has it
        state.saved_load = s.scene_loads;
        // A restored autosave is in no file yet: unsaved until saved, so that quitting asks.
        state.saved_document = s.restored ? nullptr : s.scene;
        state.as_loaded = s.scene;
        state.as_loaded_source = s.scene_source;
      }
      state.unsaved = !state.saved_document || !same_document(*s.scene, *state.saved_document);
    }
  }
  if (s.message_revision != state.seen_message_revision) {
    state.seen_message_revision = s.message_revision;
    state.notice = plain_notice(s.message);  // "Field, strength: ...", "undone: Field, strength: 5 mT -> 30 mT"
    state.notice_is_error = s.message_is_error;
    state.notice_from_refusal = s.message_is_error;
    state.refused_edit = s.acknowledged_edit;
  } else if (state.notice_from_refusal && s.acknowledged_edit == state.last_edit_id && s.health.ok &&
             s.acknowledged_edit > state.refused_edit) {
    // A later edit was accepted and the run is healthy: the refusal's cause is gone.
    state.notice.clear();
    state.notice_from_refusal = false;
  }
  if (s.reply.request == state.last_touch_request && state.last_touch_request != state.seen_touch_request) {
    state.seen_touch_request = state.last_touch_request;
    state.notice = s.reply.text;
    state.notice_is_error = !s.reply.ok;
  }
  state.pace = s.pace;
  finish_export(state, s);
  state.history.add(s);
  if (state.selected && s.particles.index_of(*state.selected) < 0) state.selected.reset();
}

void send_parameters(UiState& state, const CommandSink& send) {
  std::vector<ParameterChange> changes;
  for (const std::string& path : state.changed_paths) changes.push_back({path, value_at(state.edited, path)});
  state.changed_paths.clear();
  if (!changes.empty()) send(ApplyParameters{std::move(changes), ++state.last_edit_id});
}

void load_preset(UiState& state, const std::string& path, const CommandSink& send) {
  if (std::optional<Preset> preset = read_scene_file(state, path)) send_scene(state, std::move(*preset), path, send);
}

std::optional<Preset> read_scene_file(UiState& state, const std::string& path) {
  try {
    return load_preset_file(path);
  } catch (const PresetError& e) {
    state.notice = std::string("not loaded (the current scene is kept): ") + e.what();
    state.notice_is_error = true;
    return std::nullopt;
  }
}

namespace {
// 200000 -> "200 000": a count read at a glance.
std::string grouped(long long n) {
  std::string digits = std::to_string(n), out;
  for (size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (digits.size() - k) % 3 == 0) out += ' ';
    out += digits[k];
  }
  return out;
}
}  // namespace

void send_scene(UiState& state, Preset preset, const std::string& path, const CommandSink& send) {
  const double particles = scene_particle_count(preset);
  send(LoadScene{std::move(preset), path});
  ++state.loads_sent;
  state.notice = "loaded " + path;
  if (particles >= 50000.0)
    state.notice += " (building " + std::to_string(static_cast<long long>(particles)) +
                    " particles: the old scene stays until the new one is ready)";
  state.notice_is_error = false;
  state.selected
      .reset();  // the plots' history goes when the scene arrives (apply_preset_view): a refused load keeps it
}

std::optional<std::string> big_scene_warning(const Preset& preset, double frames_per_second_now, size_t particles_now) {
  constexpr double kSlowest = 5.0;  // [frames/s] below this the view stops feeling live
  const double n = scene_particle_count(preset);
  if (!(n > 0.0)) return std::nullopt;
  const bool measured = frames_per_second_now > 0.0 && particles_now >= 1000;
  const double sphere_frames =
      measured ? frames_per_second_now * static_cast<double>(particles_now) : kSphereFramesPerSecond;
  const double expected = sphere_frames / n;
  if (expected >= kSlowest) return std::nullopt;
  const std::string basis = measured ? std::to_string(static_cast<int>(frames_per_second_now + 0.5)) +
                                           " frames/s now with " + grouped(static_cast<long long>(particles_now)) +
                                           " particles"
                                     : std::string("estimated");
  char text[512];
  std::snprintf(text, sizeof text,
                "This scene has %s particles. On this machine the view would draw about %.2g frames a second "
                "(%s), so keys and the mouse would answer only every %.1f s, and building it takes a while.\n\n"
                "Load it anyway? The headless runner (lodestone-run) runs it without drawing.",
                grouped(static_cast<long long>(n)).c_str(), expected, basis.c_str(), 1.0 / expected);
  return std::string(text);
}

namespace {

// Every section of a document but the view, and the generator without its list of particles (compared in place:
// written as JSON, a list of 20 000 would cost the window tens of milliseconds at every edit).
json document_sections(const Preset& document) {
  json j = json::object();
  for (const auto& f : preset_schema())
    if (f.key != "view" && f.key != "particles") j[f.key] = f.write(document);
  for (const auto& f : generator_schema())
    if (f.key != "particles") j["particles"][f.key] = f.write(document.particles);
  return j;
}

bool same_entries(const std::vector<ParticleEntry>& a, const std::vector<ParticleEntry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const ParticleEntry& x, const ParticleEntry& y) {
    return x.position == y.position && x.radius == y.radius && x.velocity == y.velocity &&
           x.angular_velocity == y.angular_velocity && x.axis == y.axis && x.material == y.material &&
           x.moment == y.moment;
  });
}

}  // namespace

bool same_document(const Preset& a, const Preset& b) {
  return &a == &b || ((a.particles.particles.shares_items_with(b.particles.particles) ||
                       same_entries(a.particles.particles, b.particles.particles)) &&
                      document_sections(a) == document_sections(b));
}

void save_preset(UiState& state, const std::string& path) {
  try {
    Preset document = state.document ? *state.document : state.edited;
    document.view = current_view(state);
    document.run.real_time_factor = 0.0;  // the pace is view.pace now
    save_preset_file(document, path);
    state.saved_document = std::make_shared<const Preset>(std::move(document));
    state.unsaved = false;
    ++state.saves_done;
    state.notice = "saved " + path;
    state.notice_is_error = false;
  } catch (const PresetError& e) {
    state.notice = std::string("not saved: ") + e.what();
    state.notice_is_error = true;
  }
}

void request_export(UiState& state, const std::string& path, const CommandSink& send) {
  if (!frame_format_of(path)) {
    const std::string extension = std::filesystem::path(path).extension().string();
    state.notice = "not exported: '" + path + "' has " +
                   (extension.empty() ? std::string("no extension") : "the unknown extension '" + extension + "'") +
                   "; the allowed extensions are " + frame_extensions_help();
    state.notice_is_error = true;
    return;
  }
  state.pending_export = UiState::PendingExport{++state.last_export_request, path};
  send(CaptureFrame{state.last_export_request});
}

void finish_export(UiState& state, const Snapshot& s) {
  if (!state.pending_export || !s.frame || s.frame_request != state.pending_export->request) return;
  const std::string path = state.pending_export->path;
  state.pending_export.reset();
  try {
    export_frame(path, *s.frame, static_cast<VtkEncoding>(state.export_vtk_encoding));
    const FrameFormat format = *frame_format_of(path);
    state.notice = "exported step " + std::to_string(s.frame->step) + " (" + std::to_string(s.frame->size()) +
                   " particles, " + frame_format_name(format) + ") to " + path;
    state.notice_is_error = false;
  } catch (const ExportError& e) {
    state.notice = std::string("not exported: ") + e.what();
    state.notice_is_error = true;
  }
}

std::string thumbnail_directory(const std::string& presets_directory) {
  // Installed: share/lodestone/presets beside share/lodestone/thumbnails; the source tree: presets/ beside
  // assets/thumbnails (scripts/make_thumbnails.py writes them).
  const std::filesystem::path presets(presets_directory);
  for (const auto& candidate : {presets / ".." / "thumbnails", presets / ".." / "assets" / "thumbnails"}) {
    std::error_code ec;
    if (std::filesystem::is_directory(candidate, ec)) return candidate.lexically_normal().string();
  }
  return {};
}

void scan_presets(UiState& state, const std::string& directory) {
  state.preset_directory = directory;
  state.presets.clear();
  const std::string thumbnails = thumbnail_directory(directory);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    if (entry.path().extension() != ".json") continue;
    PresetEntry e;
    e.path = entry.path().string();
    e.name = entry.path().stem().string();
    try {
      const Preset preset = load_preset_file(e.path);
      e.description = preset.description;
      e.group = preset.view.group;
      e.title = preset.view.title;
      e.summary = preset.view.summary;
      e.loadable = true;
    } catch (const PresetError& error) {
      e.description = error.what();
    }
    if (e.title.empty()) e.title = e.name;
    const std::filesystem::path png = std::filesystem::path(thumbnails) / (e.name + ".png");
    if (!thumbnails.empty() && std::filesystem::is_regular_file(png, ec)) e.thumbnail = png.string();
    state.presets.push_back(std::move(e));
  }
  std::sort(state.presets.begin(), state.presets.end(),
            [](const PresetEntry& a, const PresetEntry& b) { return a.name < b.name; });
}

std::optional<Command> add_command(UiState& state, const Vec3& point) {
  const TouchTool& t = state.touch;
  const std::vector<Material>& materials = state.edited.materials;
  const std::string material = t.material >= 0 && static_cast<size_t>(t.material) < materials.size()
                                   ? materials[static_cast<size_t>(t.material)].name
                                   : std::string();
  switch (t.add_kind) {
    case AddKind::CopyOfSelected: {
      if (!state.selected) {
        state.notice = "select a particle to copy first (or add a sphere or a magnet)";
        state.notice_is_error = true;
        return std::nullopt;
      }
      AddParticle a;
      a.copy_of = *state.selected;
      a.particle.position = point;
      return a;
    }
    case AddKind::Sphere: {
      AddParticle a;
      a.particle.position = point;
      a.particle.radius = t.radius;
      a.particle.material = material;
      return a;
    }
    case AddKind::BarMagnet:
    case AddKind::CubeMagnet: {
      AddClump a;
      a.clump.shape = t.add_kind == AddKind::BarMagnet ? ClumpShape::Bar : ClumpShape::Cube;
      a.clump.position = point;
      // It rests on the plane: its lowest pebbles' centres on it (pebbles 2 radii apart, engine/bodies/clumps.cpp
      // clump_shape_offsets). Centred on it, a standing bar reached through the floor and every click in a table
      // scene was refused (issue 39, bug 8).
      const bool standing = t.add_kind == AddKind::CubeMagnet || t.axis == 2;
      if (standing) a.clump.position.z() += t.radius * (t.pebbles - 1);
      a.clump.count = t.pebbles;
      a.clump.pebble_radius = t.radius;
      a.clump.material = material;
      a.clump.axis = Vec3::Unit(t.axis);
      return a;
    }
  }
  return std::nullopt;
}

void hold_field_range(UiState& state, const Snapshot& s) {
  FieldViewTool& f = state.field_view;
  const FieldView* answer = s.field_view.get();
  if (!answer || s.field_view_request == f.ranged_request || !(answer->high > 0.0f)) return;
  f.ranged_request = s.field_view_request;
  render::ViewOptions& v = state.view;
  if ((f.refit_at_request != 0 && s.field_view_request >= f.refit_at_request) || !(v.field_high > 0.0f)) {
    v.field_low = answer->low;
    v.field_high = answer->high;
    f.refit_at_request = 0;
    return;
  }
  if (answer->low > 0.0f) v.field_low = v.field_low > 0.0f ? std::min(v.field_low, answer->low) : answer->low;
  v.field_high = std::max(v.field_high, answer->high);
}

void update_field_view(UiState& state, const Snapshot& s, const CommandSink& send, double now) {
  FieldViewTool& f = state.field_view;
  if (!s.scene) return;
  hold_field_range(state, s);
  if (!f.at_set) {
    f.at = 0.5 * (s.scene->box.min[f.axis] + s.scene->box.max[f.axis]);
    f.at_set = true;
  }
  const bool shown = state.view.show_field_slice || state.view.show_field_lines;
  const bool answered = s.field_view_request >= f.last_request;
  if (!shown || !answered) return;
  const bool moved = s.step != f.requested_step || f.settings_changed;
  if (!moved || now - f.last_sent < 1.0 / FieldViewTool::kFieldViewRate) return;
  ComputeFieldView c;
  c.request = ++f.last_request;
  c.slice = state.view.show_field_slice;
  c.lines = state.view.show_field_lines;
  c.axis = f.axis;
  c.at = f.at;
  c.resolution = f.resolution;
  if (f.settings_changed) f.refit_at_request = c.request;
  send(c);
  // The rate of updates: a request goes only once the last is answered, so requests a second are updates a
  // second (over windows of at least a second).
  if (f.rate_start < 0.0) f.rate_start = now;
  ++f.rate_count;
  if (now - f.rate_start >= 1.0) {
    f.updates_per_second = f.rate_count / (now - f.rate_start);
    f.rate_start = now;
    f.rate_count = 0;
  }
  f.last_sent = now;
  f.requested_step = s.step;
  f.settings_changed = false;
}

}  // namespace lodestone::ui
