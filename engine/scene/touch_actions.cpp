#include "engine/scene/touch_actions.hpp"

#include "engine/scene/preset_io.hpp"

#include <cstdio>
#include <iterator>

namespace lodestone {
namespace {

constexpr const char* kKinds = "drag, release, add, add_clump, delete, hold, go";

const char* kind_key(TouchKind kind) {
  switch (kind) {
    case TouchKind::Drag: return "drag";
    case TouchKind::Release: return "release";
    case TouchKind::Add: return "add";
    case TouchKind::AddClump: return "add_clump";
    case TouchKind::Delete: return "delete";
    case TouchKind::Hold: return "hold";
    case TouchKind::Go: return "go";
  }
  return "?";
}

// The keys of `j` other than those of `allowed` refused by name.
void only_keys(const json& j, std::initializer_list<const char*> allowed, const std::string& where) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    std::string list;
    for (const char* a : allowed) {
      known = known || it.key() == a;
      list += (list.empty() ? "" : ", ") + std::string(a);
    }
    if (!known) throw PresetError(where + "." + it.key(), "unknown key; allowed here: " + list);
  }
}

const json& required(const json& j, const char* key, const std::string& where) {
  if (!j.contains(key)) throw PresetError(where + "." + key, "missing; it is required here");
  return j.at(key);
}

// An added body (a particle, a clump): its id under `id_key`, returned, and the rest of `j` read into `body` by
// `schema`, as the body's own entry of a preset is read.
template <class S>
std::uint64_t read_added_body(const json& j, const char* id_key, const std::string& where, S& body,
                              const Schema<S>& schema) {
  const std::uint64_t id = detail::read_unsigned(required(j, id_key, where), where + "." + id_key);
  json entry = j;
  entry.erase(id_key);
  read_object(body, entry, where, schema);
  return id;
}

std::string millimetres(const Vec3& x) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.4g, %.4g, %.4g) mm", 1e3 * x.x(), 1e3 * x.y(), 1e3 * x.z());
  return text;
}

std::string hold_description(std::uint64_t id, HoldKind hold) {
  const std::string particle = "particle " + std::to_string(id);
  switch (hold) {
    case HoldKind::None: return "let " + particle + " go (no longer held)";
    case HoldKind::Position: return "hold " + particle + " in place (it may still turn)";
    case HoldKind::Orientation: return "hold " + particle + " from turning (it may move)";
    case HoldKind::Both: break;
  }
  return "hold " + particle + " still";
}

}  // namespace

TouchAction read_touch(const json& touch, const std::string& where) {
  detail::expect_object(touch, where);
  if (touch.size() != 1)
    throw PresetError(where, "expected one key, the kind of touch (" + std::string(kKinds) + "), found " +
                                 std::to_string(touch.size()));
  const std::string key = touch.begin().key();
  const json& j = touch.begin().value();
  const std::string at = where + "." + key;
  detail::expect_object(j, at);
  TouchAction a;
  if (key == "drag") {
    a.kind = TouchKind::Drag;
    only_keys(j, {"id", "target", "stiffness", "damping"}, at);
    a.id = detail::read_unsigned(required(j, "id", at), at + ".id");
    a.target = detail::read_vector3(required(j, "target", at), Quantity::Length, false, at + ".target");
    a.stiffness =
        detail::read_real(required(j, "stiffness", at), Quantity::Stiffness, ranges::positive(), at + ".stiffness");
    a.damping = detail::read_real(j.value("damping", json(0.0)), Quantity::LinearDamping, ranges::non_negative(),
                                  at + ".damping");
  } else if (key == "release") {
    a.kind = TouchKind::Release;
    only_keys(j, {}, at);
  } else if (key == "go") {
    a.kind = TouchKind::Go;
    only_keys(j, {}, at);
  } else if (key == "add") {
    a.kind = TouchKind::Add;
    a.id = read_added_body(j, "id", at, a.particle, particle_entry_schema());
  } else if (key == "add_clump") {
    a.kind = TouchKind::AddClump;
    a.id = read_added_body(j, "first_id", at, a.clump, clump_schema());
  } else if (key == "delete") {
    a.kind = TouchKind::Delete;
    only_keys(j, {"id"}, at);
    a.id = detail::read_unsigned(required(j, "id", at), at + ".id");
  } else if (key == "hold") {
    a.kind = TouchKind::Hold;
    only_keys(j, {"id", "fixed"}, at);
    a.id = detail::read_unsigned(required(j, "id", at), at + ".id");
    a.hold = static_cast<HoldKind>(
        detail::read_choice(required(j, "fixed", at),
                            std::vector<std::string>(std::begin(kHoldNames), std::end(kHoldNames)), at + ".fixed"));
  } else {
    throw PresetError(at, "unknown kind of touch; allowed: " + std::string(kKinds));
  }
  return a;
}

json write_touch(const TouchAction& a) {
  json j = json::object();
  switch (a.kind) {
    case TouchKind::Drag:
      j["id"] = a.id;
      j["target"] = detail::write_vector3(a.target);
      j["stiffness"] = a.stiffness;
      j["damping"] = a.damping;
      break;
    case TouchKind::Release:
    case TouchKind::Go: break;
    case TouchKind::Add:
      j["id"] = a.id;
      j.update(write_object(a.particle, particle_entry_schema()));
      break;
    case TouchKind::AddClump:
      j["first_id"] = a.id;
      j.update(write_object(a.clump, clump_schema()));
      break;
    case TouchKind::Delete: j["id"] = a.id; break;
    case TouchKind::Hold:
      j["id"] = a.id;
      j["fixed"] = hold_name(a.hold);
      break;
  }
  json out = json::object();
  out[kind_key(a.kind)] = std::move(j);
  return out;
}

std::string describe_touch(const TouchAction& a) {
  switch (a.kind) {
    case TouchKind::Drag: return "drag particle " + std::to_string(a.id) + " toward " + millimetres(a.target);
    case TouchKind::Release: return "release the drag";
    case TouchKind::Add: return "add particle " + std::to_string(a.id) + " at " + millimetres(a.particle.position);
    case TouchKind::AddClump:
      return std::string("add a ") +
             (a.clump.shape == ClumpShape::Bar    ? "bar magnet"
              : a.clump.shape == ClumpShape::Cube ? "cube magnet"
                                                  : "clump") +
             " (first pebble " + std::to_string(a.id) + ") at " + millimetres(a.clump.position);
    case TouchKind::Delete: return "delete particle " + std::to_string(a.id);
    case TouchKind::Hold: return hold_description(a.id, a.hold);
    case TouchKind::Go: return "go on to the next protocol phase";
  }
  return "?";
}

}  // namespace lodestone
