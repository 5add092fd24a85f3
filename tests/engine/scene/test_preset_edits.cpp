// Changes of a preset by dotted path (engine/scene/preset_edits.hpp): a change walks down the field tables to its
// one field instead of writing the whole preset as JSON, setting the value and reading everything back. The old
// JSON route is still there (preset_to_json, set_json_path, preset_from_json): it is the independent reference
// here, for every leaf of every shipped preset, with the value kept, changed and made invalid.

#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "tests/engine/test_support.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Every leaf under `value` (objects and lists walked into) with its dotted path.
void collect_leaves(const json& value, const std::string& path, std::vector<std::pair<std::string, json>>& out) {
  if (value.is_object() && !value.empty()) {
    for (auto it = value.begin(); it != value.end(); ++it)
      collect_leaves(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
  } else if (value.is_array() && !value.empty() && value.front().is_object()) {
    for (size_t k = 0; k < value.size(); ++k) collect_leaves(value[k], path + "." + std::to_string(k), out);
  } else {
    out.emplace_back(path, value);
  }
}

// Another value of the same kind: numbers scaled (and shifted off zero), flags flipped, numbers in lists scaled;
// words left as they are (a choice changed by name is covered by the listed cases below).
json changed(const json& value) {
  if (value.is_number_integer()) return value.get<long long>() + 1;
  if (value.is_number()) return 1.5 * value.get<double>() + 0.25;
  if (value.is_boolean()) return !value.get<bool>();
  if (value.is_array()) {
    json out = json::array();
    for (const json& x : value) out.push_back(changed(x));
    return out;
  }
  return value;
}

// The old route: the whole preset written as JSON, the value set at its path, everything read back.
std::optional<json> by_json(const Preset& preset, const std::string& path, const json& value) {
  json j = preset_to_json(preset);
  j.erase("timeline");
  try {
    set_json_path(j, path, value, "$");
    return preset_to_json(preset_from_json(j));
  } catch (const PresetError&) {
    return std::nullopt;
  }
}

std::optional<json> by_path(const Preset& preset, const std::string& path, const json& value) {
  try {
    return preset_to_json(apply_changes(preset, json::object({{path, value}}), "$"));
  } catch (const PresetError&) {
    return std::nullopt;
  }
}

bool changeable(const std::string& path) {
  const std::string top = path.substr(0, path.find('.'));
  return top != "particles" && top != "protocol" && top != "timeline" && top != "version";
}

}  // namespace

TEST_CASE("a change by path gives the preset the JSON route gives, for every leaf of every preset", "[preset]") {
  size_t compared = 0, refused = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(LODESTONE_SOURCE_DIR) + "/presets")) {
    const Preset document = load_preset_file(entry.path().string());
    const Preset preset = phase_preset(document, 0);
    json written = preset_to_json(preset);
    written.erase("timeline");
    std::vector<std::pair<std::string, json>> leaves;
    collect_leaves(written, "", leaves);
    for (const auto& [path, value] : leaves) {
      if (!changeable(path)) continue;
      for (const json& v : {value, changed(value), json("not a value")}) {
        INFO(entry.path().filename().string() << ": " << path << " = " << v.dump());
        const std::optional<json> expected = by_json(preset, path, v);
        const std::optional<json> got = by_path(preset, path, v);
        REQUIRE(got.has_value() == expected.has_value());
        if (got) CHECK(*got == *expected);
        ++(got ? compared : refused);
      }
    }
  }
  // Whole sections and list items given at once, and words of choices.
  const Preset p = default_preset();
  for (const auto& [path, v] :
       std::vector<std::pair<std::string, json>>{{"field", json::object({{"strength", "30 mT"}})},
                                                 {"materials.0", json::object({{"name", "iron"}, {"friction", 0.2}})},
                                                 {"field.program", "rotating"},
                                                 {"magnetics.method", "tree"},
                                                 {"contact.law", "hertz_mindlin"},
                                                 {"box.z_max", "open"},
                                                 {"materials.0.name", "renamed"},
                                                 {"field.direction", json::array({0.5, 0, 1})}}) {
    INFO(path << " = " << v.dump());
    const std::optional<json> expected = by_json(p, path, v);
    const std::optional<json> got = by_path(p, path, v);
    REQUIRE(got.has_value() == expected.has_value());
    if (got) CHECK(*got == *expected);
  }
  INFO(compared << " compared, " << refused << " refused by both");
  CHECK(compared > 500);
  CHECK(refused > 100);
}

TEST_CASE("a path that leaves the field tables is refused naming what is there", "[preset]") {
  const Preset p = default_preset();
  CHECK_THROWS_WITH(apply_changes(p, json::object({{"field.strenght", 1}}), "$.timeline[2].set"),
                    Catch::Contains("$.timeline[2].set.field.strenght") && Catch::Contains("keys there: program"));
  CHECK_THROWS_WITH(apply_changes(p, json::object({{"materials.3.friction", 1}}), "$"), Catch::Contains("list of 1"));
  CHECK_THROWS_WITH(apply_changes(p, json::object({{"field.strength.x", 1}}), "$"), Catch::Contains("is a value"));
  CHECK_THROWS_WITH(apply_changes(p, json::object({{"field.strength", "40 kg"}}), "$.x"),
                    Catch::Contains("$.x.field.strength"));
  CHECK_THROWS_WITH(apply_changes(p, json::object({{"particles.count", 3}}), "$"), Catch::Contains("cannot change"));
  // A cross-field check of the touched section, put on the key that broke it.
  CHECK_THROWS_WITH(apply_changes(p, json::object({{"box.wall_material", "unobtainium"}}), "$.t"),
                    Catch::Contains("$.t.box.wall_material") && Catch::Contains("no material named"));
}

TEST_CASE("value_at reads one value as a save writes it, also inside a phase's changes", "[preset]") {
  Preset p = default_preset();
  p.field.strength = 0.04;
  CHECK(value_at(p, "field.strength") == json(0.04));
  CHECK(value_at(p, "materials.0") == preset_to_json(p)["materials"][0]);
  ProtocolPhase phase;
  phase.set = json::object({{"field.strength", "2 mT"}});
  p.protocol = {phase};
  CHECK(value_at(p, "protocol.0.set.field.strength") == "2 mT");
  CHECK_THROWS_WITH(value_at(p, "field.strength.x", "$"), Catch::Contains("is a value"));
  CHECK_THROWS_WITH(value_at(p, "nothing", "$"), Catch::Contains("has no key 'nothing'"));
}

TEST_CASE("changes_made names what changed at the finest level, with the values before", "[preset]") {
  const Preset p = default_preset();
  json before;
  const std::vector<ParameterChange> made = changes_made(
      p, {{"field.strength", "40 mT"}, {"materials.0", value_at(p, "materials.0")}, {"field.strength", 0.05}}, "$",
      &before);
  // The whole material given unchanged changes nothing; the strength set twice keeps its first place and old value.
  REQUIRE(made.size() == 1);
  CHECK(made[0].path == "field.strength");
  CHECK(made[0].value == json(0.05));
  CHECK(before["field.strength"] == value_at(p, "field.strength"));
  json materials = value_at(p, "materials.0");
  materials["friction"] = 0.125;
  const std::vector<ParameterChange> one = changes_made(p, {{"materials.0", materials}}, "$");
  REQUIRE(one.size() == 1);
  CHECK(one[0].path == "materials.0.friction");
  CHECK(changes_made(p, {{"field.strength", value_at(p, "field.strength")}}, "$").empty());
}
