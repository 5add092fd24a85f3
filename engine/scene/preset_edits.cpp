#include "engine/scene/preset_edits.hpp"

#include "engine/scene/preset_io.hpp"
#include "engine/scene/touch_actions.hpp"

#include <algorithm>
#include <cctype>

namespace lodestone {

json& json_at_path(json& root, const std::string& dotted_path, const std::string& where) {
  const std::vector<std::string> segments = lodestone::dotted_path(dotted_path, where).segments;
  json* node = &root;
  std::string here = "$";
  for (size_t i = 0; i < segments.size();) {
    const std::string& segment = segments[i];
    if (node->is_object()) {
      // The shortest run of segments, joined by dots, that is a key here.
      std::string name = segment;
      size_t used = 1;
      while (!node->contains(name) && i + used < segments.size()) name += "." + segments[i + used++];
      if (!node->contains(name)) {
        std::vector<std::string> keys;
        for (auto k = node->begin(); k != node->end(); ++k) keys.push_back(k.key());
        throw PresetError(where, "'" + dotted_path + "': " + here + " has no key '" + segment + "'" +
                                     (keys.empty() ? " (it is empty)" : "; keys there: " + detail::join(keys, ", ")));
      }
      node = &(*node)[name];
      here += "." + name;
      i += used;
    } else if (node->is_array()) {
      const bool numeric = !segment.empty() && segment.size() < 10 &&
                           std::all_of(segment.begin(), segment.end(), [](unsigned char c) { return std::isdigit(c); });
      const size_t index = numeric ? std::stoul(segment) : node->size();
      if (index >= node->size())
        throw PresetError(where, "'" + dotted_path + "': " + here + " is a list of " + std::to_string(node->size()) +
                                     "; '" + segment + "' is not an index in it");
      node = &(*node)[index];
      here += "[" + segment + "]";
      ++i;
    } else {
      throw PresetError(where, "'" + dotted_path + "': " + here + " is a value (" + node->dump() +
                                   "), not an object or list; it has no '" + segment + "'");
    }
  }
  return *node;
}

void set_json_path(json& root, const std::string& dotted_path, const json& value, const std::string& where) {
  json_at_path(root, dotted_path, where) = value;
}

Preset phase_preset(const Preset& base, int phase) {
  Preset out = base;
  out.timeline.clear();  // a phase's parameters; the timeline applies to them as the run goes
  std::vector<std::string> touched;
  for (int k = 0; k <= phase && k < static_cast<int>(base.protocol.size()); ++k) {
    const json& set = base.protocol[static_cast<size_t>(k)].set;
    for (auto it = set.begin(); it != set.end(); ++it) {
      const std::string where = "$.protocol[" + std::to_string(k) + "].set." + it.key();
      if (it.key().rfind("protocol", 0) == 0 || it.key().rfind("particles", 0) == 0)
        throw PresetError(where, "a phase cannot change the protocol or the particle generator");
      read_at_path(out, preset_schema(), dotted_path(it.key(), where), 0, "$", it.value());
      touched.push_back(it.key().substr(0, it.key().find('.')));
    }
  }
  try {
    validate_sections(out, touched);
  } catch (const PresetError& e) {
    throw PresetError("$.protocol[" + std::to_string(phase) + "]",
                      std::string("with the phase's changes: ") + e.what());
  }
  return out;
}

namespace {

bool same_keys(const json& a, const json& b) {
  if (a.size() != b.size()) return false;
  for (auto it = a.begin(); it != a.end(); ++it)
    if (!b.contains(it.key())) return false;
  return true;
}

void collect_changes(const json& before, const json& after, const std::string& path,
                     std::vector<ParameterChange>& out) {
  if (before == after) return;
  const auto child = [&path](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (before.is_object() && after.is_object() && (path.empty() || same_keys(before, after))) {
    for (auto it = after.begin(); it != after.end(); ++it) {
      if (before.contains(it.key()))
        collect_changes(before[it.key()], it.value(), child(it.key()), out);
      else
        out.push_back({child(it.key()), it.value()});
    }
    return;
  }
  const bool list_of_objects = before.is_array() && after.is_array() && before.size() == after.size() &&
                               !after.empty() && after.front().is_object();
  if (list_of_objects) {
    for (size_t k = 0; k < after.size(); ++k) collect_changes(before[k], after[k], child(std::to_string(k)), out);
    return;
  }
  out.push_back({path, after});
}

std::string top_key(const std::string& path) {
  return path.substr(0, path.find('.'));
}

bool is_within(const std::string& path, const std::string& prefix) {
  return path == prefix || path.rfind(prefix + ".", 0) == 0;
}

// "materials.0.friction" as a reader's error path: "$.materials[0].friction".
std::string error_path(const std::string& dotted) {
  std::string out = "$";
  for (size_t start = 0;;) {
    const size_t dot = dotted.find('.', start);
    const std::string segment = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const bool numeric = !segment.empty() &&
                         std::all_of(segment.begin(), segment.end(), [](unsigned char c) { return std::isdigit(c); });
    out += numeric ? "[" + segment + "]" : "." + segment;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

// The key of `set` that a reader's error at `path` is about, or "" when none is.
std::string blamed_key(const json& set, const std::string& path) {
  for (auto it = set.begin(); it != set.end(); ++it) {
    const std::string p = error_path(it.key());
    if (path == p || path.rfind(p + ".", 0) == 0 || path.rfind(p + "[", 0) == 0) return it.key();
  }
  return {};
}

}  // namespace

std::vector<ParameterChange> parameter_changes(const Preset& before, const Preset& after) {
  json before_json = preset_to_json(before), after_json = preset_to_json(after);
  for (const char* key : {"protocol", "timeline"}) {
    before_json.erase(key);
    after_json.erase(key);
  }
  std::vector<ParameterChange> changes;
  collect_changes(before_json, after_json, "", changes);
  return changes;
}

bool is_document_path(const std::string& path) {
  const std::string top = top_key(path);
  return top == "description" || top == "units" || top == "version" || top == "particles" || top == "run";
}

namespace {

// Puts the values of `set` into `preset` by their paths, then runs again the cross-field checks of the sections
// they touched; a check's error is put on the key of `set` it is about.
void put_values(Preset& preset, const json& set, const std::string& where) {
  std::vector<std::string> touched;
  for (auto it = set.begin(); it != set.end(); ++it) {
    const std::string path = where + "." + it.key();
    read_at_path(preset, preset_schema(), dotted_path(it.key(), path), 0, "$", it.value());
    touched.push_back(top_key(it.key()));
  }
  try {
    validate_sections(preset, touched);
  } catch (const PresetError& e) {
    const std::string key = blamed_key(set, e.path());
    if (!key.empty()) throw PresetError(where + "." + key, e.message());
    throw PresetError(where, "with these changes, " + e.path() + ": " + e.message());
  }
}

}  // namespace

namespace {

// Refuses a path into what a run cannot change (`particles` too unless `document`: the generator is the document's).
void require_changeable(const std::string& path, const std::string& where, bool document) {
  const std::string top = top_key(path);
  if ((top == "particles" && !document) || top == "protocol" || top == "timeline" || top == "version")
    throw PresetError(where + "." + path, "'" + top +
                                              "' cannot change during a run; these changes may set the parameters "
                                              "(materials, contact, magnetics, field, environment, box, integrator, "
                                              "pressure, bonds, floor, clumps, run, description, units)");
}

}  // namespace

Preset apply_changes(const Preset& preset, const json& set, const std::string& where) {
  for (auto it = set.begin(); it != set.end(); ++it) require_changeable(it.key(), where, /*document=*/false);
  Preset out = preset;
  out.timeline.clear();
  put_values(out, set, where);
  return out;
}

Preset apply_document_changes(const Preset& document, const json& set, const std::string& where) {
  for (auto it = set.begin(); it != set.end(); ++it)
    if (!is_document_path(it.key()))
      throw PresetError(where + "." + it.key(),
                        "not a path of the document itself (description, units, "
                        "particles, run)");
  Preset out = document;
  put_values(out, set, where);
  return out;
}

std::vector<ParameterChange> changes_of(const json& set) {
  std::vector<ParameterChange> out;
  for (auto it = set.begin(); it != set.end(); ++it) out.push_back({it.key(), it.value()});
  return out;
}

json value_at(const Preset& preset, const std::string& path, const std::string& where) {
  const std::string top = top_key(path);
  if (top == "protocol" || top == "timeline") {  // their `set` objects hold dotted keys: walked as JSON
    json section = json::object();
    section[top] = write_at_path(preset, preset_schema(), dotted_path(top, where), 0, "$");
    return json_at_path(section, path, where);
  }
  return write_at_path(preset, preset_schema(), dotted_path(path, where), 0, "$");
}

std::vector<ParameterChange> changes_made(const Preset& preset, const std::vector<ParameterChange>& changes,
                                          const std::string& where, json* before) {
  Preset now = preset;
  std::vector<ParameterChange> out;
  for (const ParameterChange& c : changes) {
    require_changeable(c.path, where, /*document=*/true);
    const DottedPath path = dotted_path(c.path, where + "." + c.path);
    json old_value = write_at_path(now, preset_schema(), path, 0, "$");
    read_at_path(now, preset_schema(), path, 0, "$", c.value);
    std::vector<ParameterChange> made;
    collect_changes(old_value, write_at_path(now, preset_schema(), path, 0, "$"), c.path, made);
    for (ParameterChange& m : made) {
      // The old value at m.path, which lies at or below c.path.
      if (before && !before->contains(m.path))
        (*before)[m.path] =
            m.path == c.path ? old_value : json_at_path(old_value, m.path.substr(c.path.size() + 1), path.where);
      // A path changed twice keeps its first place, with the last value.
      auto same = std::find_if(out.begin(), out.end(), [&](const ParameterChange& o) { return o.path == m.path; });
      if (same != out.end())
        same->value = std::move(m.value);
      else
        out.push_back(std::move(m));
    }
  }
  return out;
}

void validate_timeline(const Preset& preset) {
  if (preset.timeline.empty()) return;
  Preset in_force = preset;
  in_force.timeline.clear();
  for (size_t k = 0; k < preset.timeline.size(); ++k) {
    const TimelineEntry& entry = preset.timeline[k];
    const std::string where = "$.timeline[" + std::to_string(k) + "]";
    if (k > 0 && entry.step < preset.timeline[k - 1].step)
      throw PresetError(where + ".step", "value " + std::to_string(entry.step) + " comes before the previous entry's " +
                                             std::to_string(preset.timeline[k - 1].step) +
                                             "; entries must be in non-decreasing step order");
    if (!entry.touch.empty()) {
      if (!entry.set.empty())
        throw PresetError(where + ".touch", "an entry either sets parameters or touches particles, not both");
      read_touch(entry.touch, where + ".touch");  // what it acts on is checked when it applies
      continue;
    }
    if (entry.set.empty()) throw PresetError(where + ".set", "an entry needs at least one {\"dotted.path\": value}");
    in_force = apply_changes(in_force, entry.set, where + ".set");
  }
}

Preset fold_applied_entries(const Preset& document, const std::vector<int>& entry_phases) {
  if (entry_phases.empty()) return document;
  Preset out = document;
  out.timeline.clear();
  std::vector<ProtocolPhase> protocol = document.protocol;
  for (size_t k = 0; k < entry_phases.size() && k < document.timeline.size(); ++k) {
    // A touch acted on the particles of this run, which a restart regenerates (a checkpoint keeps them).
    if (!document.timeline[k].touch.empty()) continue;
    const json& set = document.timeline[k].set;
    const std::string where = "$.timeline[" + std::to_string(k) + "].set";
    if (protocol.empty()) {
      put_values(out, set, where);
      continue;
    }
    const auto phase = static_cast<size_t>(std::clamp(entry_phases[k], 0, static_cast<int>(protocol.size()) - 1));
    json& phase_set = protocol[phase].set;
    for (auto it = set.begin(); it != set.end(); ++it) {
      // The phase's own earlier change of this value (or of a part of it) gives way; keys apply in
      // order, so the entry, added last, also wins over a change of a containing object.
      for (auto s = phase_set.begin(); s != phase_set.end();)
        s = is_within(s.key(), it.key()) ? phase_set.erase(s) : std::next(s);
      phase_set[it.key()] = it.value();
    }
  }
  out.protocol = std::move(protocol);
  out.timeline.assign(
      document.timeline.begin() + static_cast<std::ptrdiff_t>(std::min(entry_phases.size(), document.timeline.size())),
      document.timeline.end());
  return out;
}

}  // namespace lodestone
