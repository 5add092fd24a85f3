#pragma once
// What fuzz/fuzz_set.cpp does with one input: the edit path of Python's `set` (python/session_handle.cpp,
// SessionHandle::set: Session::prepare_edit, its edit_warning, then Session::apply_prepared) on a small scene, with the
// invariants every edit keeps; fuzz/fuzz_remote_harness.hpp applies the remote's `set` and `lid` edits through the same
// apply_edit. In a header so that tests/engine/scene/test_fuzz_regressions.cpp replays the saved inputs through the
// same code (docs/reliability.md "Fuzzing").
//
// A refusal (PresetError naming the field, the value and what is allowed) is the expected outcome of most inputs.
// A bug is a crash, a sanitizer report, another exception, or a broken invariant (std::logic_error):
// - a refused edit changes nothing: the parameters in force, the document and the state hash are as before;
// - an edit that changes something can be undone to exactly that session, and redone to the edited one (on a
//   healthy run at its furthest step: see apply_edit);
// - a path that was set can be read back (what Python's get() and the remote's `get` do).

#include "engine/core/state_hash.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/session.hpp"
#include "fuzz/fuzz_harness.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace lodestone::fuzz {

// The scene the edits are made on: the built-in default (a walled box, a field, a protocol of phases, the sand
// contact law) with 12 particles instead of 300, so that building it for every input is cheap.
inline const Preset& edit_scene() {
  static const Preset scene = [] {
    Preset p = default_preset();
    p.particles.count = 12;
    return p;
  }();
  return scene;
}

// What a refused edit must leave alone and an undo must restore. The JSON is dumped with invalid UTF-8 replaced:
// the print itself must not throw on a string the engine took.
struct SessionPrint {
  std::string parameters;
  std::string document;
  std::uint64_t hash = 0;
  bool operator==(const SessionPrint&) const = default;
};

inline SessionPrint print_of(const Session& s) {
  const auto text = [](const Preset& p) {
    return preset_to_json(p).dump(-1, ' ', false, json::error_handler_t::replace);
  };
  return {text(s.parameters()), text(s.document()), state_hash(s.state())};
}

// Applies `changes` as set(..., confirm=True) does: worked out, the warning asked for (and ignored), then made. Returns
// whether it applied; checks the invariants above.
inline bool apply_edit(Session& session, const std::vector<ParameterChange>& changes) {
  const SessionPrint before = print_of(session);
  const bool exact_undo = session.state().health.ok && session.state().step >= session.head_step();
  std::optional<PreparedEdit> prepared;  // refused already when it is worked out: nothing may change
  try {
    prepared = session.prepare_edit(changes);
    (void)session.edit_warning(*prepared);
  } catch (const PresetError&) {
    require(print_of(session) == before, "working an edit out changed the session");
    return false;
  }
  const bool changes_nothing = prepared->changes_nothing();
  try {
    session.apply_prepared(std::move(*prepared));
  } catch (const PresetError&) {
    require(print_of(session) == before, "a refused edit changed the session");
    return false;
  }
  for (const ParameterChange& c : changes) {
    try {
      (void)session.value_at(c.path).dump(-1, ' ', false, json::error_handler_t::replace);
    } catch (const PresetError& e) {
      require(false, "a path that was set does not read back: " + std::string(e.what()));
    }
  }
  const SessionPrint edited = print_of(session);
  // An edit on a run stopped by a failed check first takes the run back, and one after a rewind drops the run's old
  // future: neither is undone to the session before it (by design), so the undo is checked on a healthy head only.
  if (!exact_undo) return true;
  if (changes_nothing) {
    require(edited == before, "an edit that changes nothing changed the session");
    return true;
  }
  require(session.undo().has_value(), "an edit that changed something cannot be undone");
  require(print_of(session) == before, "undo did not restore the session before the edit");
  require(session.redo().has_value(), "an undone edit cannot be redone");
  require(print_of(session) == edited, "redo did not restore the edited session");
  return true;
}

// A value as Python passes it: JSON when the text is JSON, a float for nan and inf (Python floats that JSON cannot
// write), else the text as a string ("40 mT"). json::exception, not only parse_error: a number beyond a double
// ("8e888") throws out_of_range, which escaped the harness (CI's fuzz_set, 2026-12-01); it goes as text, as the
// remote's `set` sends it (app/desktop/remote_parse.cpp).
inline json python_value(const std::string& text) {
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (text == "inf" || text == "-inf") return (text[0] == '-' ? -1.0 : 1.0) * std::numeric_limits<double>::infinity();
  try {
    return json::parse(text);
  } catch (const json::exception&) {
    return text;
  }
}

// True when `text` is valid UTF-8: a Python str always is (pybind11 refuses to encode a lone surrogate).
inline bool valid_utf8(const std::string& text) {
  try {
    (void)json(text).dump();
    return true;
  } catch (const json::type_error&) {
    return false;
  }
}

// One input: lines PATH, VALUE, PATH, VALUE... (at most 4 pairs): set(PATH, VALUE), or set({PATH: VALUE, ...}) with
// several pairs; a PATH without its VALUE line gets None. Returns whether the edit applied; an applied edit is then
// run for a step.
inline bool set_input(const std::uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (!valid_utf8(text)) return false;  // not a Python str
  std::vector<std::string> lines;
  for (size_t begin = 0; begin <= text.size() && lines.size() < 8;) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  std::vector<ParameterChange> changes;
  for (size_t k = 0; k < lines.size(); k += 2)
    changes.push_back({lines[k], k + 1 < lines.size() ? python_value(lines[k + 1]) : json(nullptr)});
  Session session(edit_scene());
  if (!apply_edit(session, changes)) return false;
  session.step();  // the edited model runs (a value that blows the run up stops it with its health message)
  (void)session.observe();
  return true;
}

}  // namespace lodestone::fuzz
