#include "app/desktop/remote_parse.hpp"

#include "engine/output/field_probe.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/unit_values.hpp"
#include "engine/scene/units.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <sstream>

namespace lodestone::remote {
namespace {

// A particle id: a non-negative integer, named in the error.
std::uint64_t parse_id(const std::string& text, const std::string& what) {
  const auto refused = [&] {
    return PresetError(what, "'" + text +
                                 "' is not a particle id; allowed: a non-negative integer (the inspector shows a "
                                 "particle's id)");
  };
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) throw refused();
  try {
    return std::stoull(text);
  } catch (const std::out_of_range&) {
    throw refused();  // beyond 2^64 - 1: no particle has it
  }
}

// A simulated time above 0 ("2 ms", 0.5 s) [s].
double read_simulated_time(const std::string& text) {
  std::string error;
  double seconds = 0.0;
  if (parse_quantity_or_si(text, Quantity::Time, seconds, error) && seconds > 0.0) return seconds;
  throw Refusal("time '" + text + "': allowed a simulated time above 0 (e.g. 2 ms, 0.5 s)" +
                (error.empty() ? "" : "; " + error));
}

// A whole number, all of `text`; false when it is not one (or out of range).
bool read_whole(const std::string& text, long long& value) {
  std::size_t used = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size();
}

// The words of `text`, split at white space.
std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Text that is not JSON, as a JSON string ("40 mT", read by the field's reader). Refused when it is not UTF-8: a
// JSON string must be, and the field's reader would fail to quote it in its refusal (nlohmann's dump throws
// type_error 316, which the simulation thread, catching PresetError only, did not survive: found by fuzz_remote).
json text_value(const std::string& text) {
  json value = text;
  try {
    (void)value.dump();
  } catch (const json::type_error&) {
    throw Refusal("the value is not UTF-8 text; allowed: JSON, or text such as 40 mT");
  }
  return value;
}

// [SECTION] The verbs with arguments, one reader each: `r.rest` in, the members of its verb out.
using Reader = void (*)(Request& r, const Preset& in_force);

void read_set(Request& r, const Preset&) {
  std::istringstream words(r.rest);
  std::string path, value_text;
  words >> path;
  std::getline(words >> std::ws, value_text);
  if (path.empty() || value_text.empty())
    throw Refusal("usage: set PATH VALUE (VALUE as JSON, or text: set field.strength 40 mT)");
  // JSON (0.04, "40 mT", [0, 0, 1], true); other text is taken as a string, as a preset would write it,
  // so that `set field.strength 40 mT` works and a bad value is refused by the schema, which names the
  // field, the value and what is allowed (not by the JSON parser). The simulation thread reads it with the
  // field's reader. json::exception, not only parse_error: a number beyond a double (1e999) throws out_of_range,
  // which reached the user as nlohmann's own text (found by fuzz_remote); it goes to the reader as text too.
  json value;
  try {
    value = json::parse(value_text);
  } catch (const json::exception&) {
    value = text_value(value_text);
  }
  r.edit = {{path, value}};
}

void read_step(Request& r, const Preset&) {
  long long steps = 1;
  if (!r.rest.empty() && !read_whole(r.rest, steps))
    throw Refusal("steps '" + r.rest + "': allowed a whole number, 1 to 1000000000");
  if (steps < 1 || steps > 1000000000) throw Refusal("steps " + r.rest + ": allowed 1 to 1000000000");
  r.command = StepOnce{static_cast<int>(steps), 0.0, 0};
}

// A span of simulated time: with its unit ("2ms"), or a bare number in the scene's unit of time, seconds or, in a
// preset in reduced units, lj (as the panels read it; issue 42).
double read_span(const std::string& text, const Preset& in_force) {
  const double seconds = read_simulated_time(text);
  return typed_unit_of(json(text)).empty() ? shown_to_si(seconds, Quantity::Time, in_force.units) : seconds;
}

void read_advance(Request& r, const Preset& in_force) {
  r.command = StepOnce{1, read_span(r.rest, in_force), 0};
}

void read_rewind(Request& r, const Preset&) {
  long long target = 0;
  if (!read_whole(r.rest, target)) throw Refusal("step '" + r.rest + "': allowed a whole number (see `history`)");
  r.command = Rewind{target, false, 0};
}

void read_back(Request& r, const Preset& in_force) {
  r.command = GoBack{read_span(r.rest, in_force), 0};
}

void read_field_at(Request& r, const Preset&) {
  std::vector<std::string> words = split_words(r.rest);
  const bool exact = !words.empty() && words.back() == "exact";
  if (exact) words.pop_back();
  r.command = EvaluateField{0, {parse_point(words, "field-at")}, exact};
}

void read_drag(Request& r, const Preset&) {
  const std::vector<std::string> words = split_words(r.rest);
  if (words.size() != 4 && words.size() != 5)
    throw Refusal(
        "usage: drag ID X Y Z [STIFFNESS] (coordinates in metres or with units, STIFFNESS relative, 1 the default)");
  DragParticle d;
  d.particle_id = parse_id(words[0], "drag.id");
  d.target = parse_point({words[1], words[2], words[3]}, "drag");
  if (words.size() == 5) {
    std::size_t used = 0;
    try {
      d.relative_stiffness = std::stod(words[4], &used);
    } catch (const std::exception&) {
    }
    if (used == 0 || used != words[4].size())
      throw Refusal("drag.stiffness: '" + words[4] + "' is not a number; allowed 0.01 to 50 (1: the default feel)");
  }
  r.command = d;
}

// The `add` verb's JSON: a particle, a copy of one, or a clump; PresetError names the key, the value and what is
// allowed.
void read_add(Request& r, const Preset&) {
  if (r.rest.empty())
    throw Refusal("usage: add JSON, e.g. add {\"position\": [0, 0, \"2 mm\"], \"radius\": \"0.5 mm\"}");
  json j;
  try {
    j = json::parse(r.rest);
  } catch (const json::exception& e) {
    throw PresetError("add", "'" + r.rest + "' is not JSON (" + e.what() +
                                 "); e.g. {\"position\": [\"1 mm\", 0, \"2 mm\"], \"radius\": \"0.5 mm\"}");
  }
  detail::expect_object(j, "add");
  if (j.contains("shape")) {
    AddClump c;
    read_object(c.clump, j, "add", clump_schema());
    r.command = c;
    return;
  }
  AddParticle a;
  if (j.contains("copy")) {
    a.copy_of = detail::read_unsigned(j["copy"], "add.copy");
    if (!j.contains("position")) throw PresetError("add.position", "missing; a copy needs a position");
    j.erase("copy");
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() != "position")
        throw PresetError("add." + it.key(), "a copy takes only a position (the rest is the copied particle's)");
  }
  read_object(a.particle, j, "add", particle_entry_schema());
  r.command = a;
}

void read_delete(Request& r, const Preset&) {
  r.command = DeleteBody{0, parse_id(r.rest, "delete.id")};
}

// `hold ID [position|orientation|both|none]` (both when left out; none lets go).
void read_hold(Request& r, const Preset&) {
  const std::vector<std::string> words = split_words(r.rest);
  if (words.empty() || words.size() > 2)
    throw Refusal("usage: hold ID [position|orientation|both|none] (both when left out; none lets it go)");
  HoldParticle h{0, parse_id(words[0], "hold.id"), HoldKind::Both};
  if (words.size() == 2) {
    const auto* found = std::find(std::begin(kHoldNames), std::end(kHoldNames), words[1]);
    if (found == std::end(kHoldNames))
      throw PresetError("hold.fixed", "'" + words[1] +
                                          "' is not what can be held; allowed: position, orientation, "
                                          "both, none (none lets the particle go)");
    h.hold = static_cast<HoldKind>(found - std::begin(kHoldNames));
  }
  r.command = h;
}

// `lid PRESSURE | off`: an edit of the pressure section (and a closed top) through the panels' path.
void read_lid(Request& r, const Preset& in_force) {
  const std::string& argument = r.rest;
  if (argument.empty()) throw Refusal("usage: lid PRESSURE | off (PRESSURE with units: 0.5 atm, 2 bar, 500 Pa)");
  Preset edited = in_force;
  if (argument == "off") {
    if (edited.pressure.method != PressureMethod::Lid) throw PresetError("lid", "there is no lid to take off");
    edited.pressure.method = PressureMethod::None;
  } else {
    json value = text_value(argument);  // "0.5 atm"; a bare number is in pascals
    if (argument.find_first_not_of("0123456789.eE+-") == std::string::npos) {
      try {
        value = json::parse(argument);
      } catch (const json::exception&) {  // not a number nlohmann reads (1e999: out_of_range): the text's reader says
      }
    }
    const double pressure = detail::read_real(value, Quantity::Pressure, ranges::non_negative(), "lid.pressure");
    if (edited.box.z_max == SideKind::Periodic)
      throw PresetError("lid",
                        "the box is periodic along z (box.z_max \"periodic\"): a lid needs a top side that is "
                        "a wall or open");
    edited.box.z_max = SideKind::Wall;  // the lid replaces the top side
    edited.pressure.method = PressureMethod::Lid;
    edited.pressure.pressure = pressure;
  }
  for (const char* path : {"box.z_max", "pressure.method", "pressure.pressure"})
    r.edit.push_back({path, value_at(edited, path)});
}

void read_key(Request& r, const Preset&) {
  for (std::size_t k = 0; k < kKeyNames.size(); ++k)
    if (r.rest == kKeyNames[k]) r.key = static_cast<int>(k);
  if (r.key < 0) throw Refusal("key '" + r.rest + "': allowed space, escape, delete, r, f, tab, f1");
}

void read_field_view(Request& r, const Preset&) {
  std::istringstream words(r.rest);
  std::string what, axis, at;
  words >> what >> axis >> at;
  const bool known = what == "off" || what == "slice" || what == "lines" || what == "both";
  const std::string axes = "xyz";
  if (!known || (!axis.empty() && (axis.size() != 1 || axes.find(axis[0]) == std::string::npos)))
    throw Refusal("usage: field-view off|slice|lines|both [x|y|z [AT]] (AT the slice's position, e.g. 1mm)");
  FieldViewArguments& f = r.field_view;
  if (!at.empty()) {
    double value = 0.0;
    std::string error;
    if (!parse_quantity_or_si(at, Quantity::Length, value, error))
      throw Refusal("position '" + at + "': allowed a length (metres, or with a unit: 1mm, 20um)" +
                    (error.empty() ? "" : "; " + error));
    f.at = value;
  }
  if (!axis.empty()) f.axis = static_cast<int>(axes.find(axis[0]));
  f.slice = what == "slice" || what == "both";
  f.lines = what == "lines" || what == "both";
}

void read_select(Request& r, const Preset&) {
  try {
    r.select_id = std::stoull(r.rest);
  } catch (const std::exception&) {
    throw Refusal("usage: select ID (a particle id, 0 or more)");
  }
}

void read_sidebar(Request& r, const Preset&) {
  if (r.rest == "show" || r.rest == "hide") return;
  try {
    r.sidebar_width = std::stof(r.rest);
  } catch (const std::exception&) {
    throw Refusal("usage: sidebar show|hide|WIDTH");
  }
}

}  // namespace

Request parse_remote_line(const std::string& line, const Preset& in_force) {
  Request r;
  std::istringstream in(line);
  in >> r.verb;
  std::getline(in >> std::ws, r.rest);
  if (r.verb.empty()) return r;
  // Every verb of remote_control.hpp and remote_view.hpp; null: it takes no arguments (any text after it is ignored),
  // or reads them against the app's state itself (get, load, save, color, frame, hints).
  static const std::map<std::string, Reader> readers = {
      {"set", read_set},         {"confirm", nullptr},      {"get", nullptr},
      {"run", nullptr},          {"pause", nullptr},        {"reset", nullptr},
      {"step", read_step},       {"advance", read_advance}, {"hash", nullptr},
      {"history", nullptr},      {"rewind", read_rewind},   {"undo", nullptr},
      {"redo", nullptr},         {"recover", nullptr},      {"back", read_back},
      {"load", nullptr},         {"save", nullptr},         {"restore", nullptr},
      {"status", nullptr},       {"ids", nullptr},          {"field-at", read_field_at},
      {"drag", read_drag},       {"release", nullptr},      {"add", read_add},
      {"delete", read_delete},   {"hold", read_hold},       {"lid", read_lid},
      {"quit", nullptr},         {"sync", nullptr},         {"cancel", nullptr},
      {"key", read_key},         {"view", nullptr},         {"field-view", read_field_view},
      {"color", nullptr},        {"frame", nullptr},        {"select", read_select},
      {"sidebar", read_sidebar}, {"help", nullptr},         {"about", nullptr},
      {"hints", nullptr},        {"go", nullptr},           {"gallery", nullptr},
  };
  const auto found = readers.find(r.verb);
  if (found == readers.end())
    throw Refusal(
        "unknown command '" + r.verb +
        "'; commands: set, confirm, get, run, pause, reset, step, advance, hash, history, rewind, undo, "
        "redo, recover, back, load, save, restore, status, field-at, drag, release, add, delete, lid, go, sync, "
        "cancel, key, view, field-view, color, frame, select, sidebar, hints, gallery, help, about, quit");
  if (found->second) found->second(r, in_force);
  return r;
}

}  // namespace lodestone::remote
