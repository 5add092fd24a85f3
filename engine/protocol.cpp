#include "engine/protocol.hpp"

#include "engine/field.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

namespace lodestone {

json& json_at_path(json& root, const std::string& dotted_path, const std::string& where) {
  std::vector<std::string> segments;
  for (size_t start = 0;;) {
    const size_t dot = dotted_path.find('.', start);
    segments.push_back(dotted_path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
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

Preset stage_preset(const Preset& base, int stage) {
  json j = preset_to_json(base);
  j.erase("timeline");  // a stage's parameters; the timeline applies to them as the run goes
  for (int k = 0; k <= stage && k < static_cast<int>(base.protocol.size()); ++k) {
    const json& set = base.protocol[static_cast<size_t>(k)].set;
    for (auto it = set.begin(); it != set.end(); ++it) {
      const std::string where = "$.protocol[" + std::to_string(k) + "].set." + it.key();
      if (it.key().rfind("protocol", 0) == 0 || it.key().rfind("particles", 0) == 0)
        throw PresetError(where, "a stage cannot change the protocol or the particle generator");
      set_json_path(j, it.key(), it.value(), where);
    }
  }
  try {
    return preset_from_json(j);
  } catch (const PresetError& e) {
    throw PresetError("$.protocol[" + std::to_string(stage) + "]", std::string("with the stage's changes: ") + e.what());
  }
}

const char* stage_end_name(StageEnd until) {
  static const char* names[] = {"time", "no overlap", "settled", "aligned"};
  return names[static_cast<int>(until)];
}

double max_overlap_ratio(const Model& model, const State& state) {
  const Particles& p = state.particles;
  double worst = 0.0;
  for (const IndexPair& pr : state.neighbors.contact_pairs) {
    const auto i = static_cast<size_t>(pr.i), j = static_cast<size_t>(pr.j);
    const double overlap = p.radius[i] + p.radius[j] - minimum_image(model, p.position[i] - p.position[j]).norm();
    worst = std::max(worst, overlap / std::min(p.radius[i], p.radius[j]));
  }
  return worst;
}

double max_speed(const State& state) {
  double fastest = 0.0;
  for (const Vec3& v : state.particles.velocity) fastest = std::max(fastest, v.squaredNorm());
  return std::sqrt(fastest);
}

bool stage_condition_met(const ProtocolStage& stage, const Model& model, const State& state) {
  switch (stage.until) {
    case StageEnd::Time:
      return false;
    case StageEnd::NoOverlap:
      return max_overlap_ratio(model, state) <= stage.threshold;
    case StageEnd::Settled:
      return max_speed(state) < stage.threshold;
    case StageEnd::Aligned: {
      const Vec3 b = field_direction(model.field, state.time);
      const Particles& p = state.particles;
      double sum = 0.0;
      for (size_t i = 0; i < p.size(); ++i) sum += std::abs(p.easy_axis(i).dot(b));
      return p.size() > 0 && sum / static_cast<double>(p.size()) >= stage.threshold;
    }
  }
  return false;
}

}  // namespace lodestone
