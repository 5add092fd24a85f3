#pragma once
// What fuzz/fuzz_remote.cpp does with one input: up to 8 lines of `lodestone --remote` (app/desktop/remote_control.hpp
// lists the verbs), each read by remote::parse_remote_line, the function RemoteControl::execute reads every line with
// (app/desktop/remote_parse.cpp, compiled into the target; no Qt, no window), and what it yields carried out on a
// small session as the simulation thread's handlers do (engine/live/simulation_thread.cpp). In a header so that
// tests/desktop/test_remote_parse.cpp replays the saved inputs through the same code (docs/reliability.md "Fuzzing").
//
// Expected: a line refused with remote::Refusal, PresetError or FieldInputError (what the remote prints as
// "refused: LINE: why"), and an engine refusal (PresetError) of what was sent. A bug: a crash, a sanitizer report,
// any other exception (the app would print its bare what(), or, thrown on the simulation thread, which catches
// PresetError only, terminate), or a broken invariant of an edit (fuzz/fuzz_edit_harness.hpp).
//
// Work is bounded by the request, never by the values: a step or advance runs at most 2 steps, a clump of more than
// 64 pebbles is not added, a reset to more than 64 particles is not made (each a legitimate slow request), and `load`
// and `save` touch no file (a fuzzed name may be /dev/zero or the source tree).

#include "app/desktop/remote_parse.hpp"
#include "engine/magnetic/field_evaluation.hpp"
#include "engine/output/field_probe.hpp"
#include "fuzz/fuzz_edit_harness.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <variant>

namespace lodestone::fuzz {

inline constexpr int kMaxRemoteLines = 8;
inline constexpr int kMaxRemoteSteps = 2;

// [SECTION] The commands a line yields, carried out as SimulationThread::handle does (its PresetError is a refusal).

inline void carry_out(Session& s, const StepOnce& c) {
  (void)s.run(std::min(c.steps, kMaxRemoteSteps));  // an advance: its first step or two
}
inline void carry_out(Session& s, const Rewind& c) {
  s.rewind(c.step);  // bounded by the steps this input ran
}
inline void carry_out(Session& s, const GoBack& c) {
  if (c.seconds > 0.0)
    (void)s.go_back(c.seconds);
  else
    (void)s.go_back_before_last_edit();
}
inline void carry_out(Session& s, const EvaluateField& c) {
  const FieldEvaluator evaluator(s.model(), s.state(), {.sum = c.exact ? FieldSum::Exact : FieldSum::AsForces});
  for (const Vec3& x : c.points) (void)evaluator.at(x);
}
inline void carry_out(Session& s, const DragParticle& c) {
  (void)s.drag(c.particle_id, c.target, c.relative_stiffness);
}
inline void carry_out(Session& s, const AddParticle& c) {
  (void)(c.copy_of ? s.add_copy(*c.copy_of, c.particle.position) : s.add_particle(c.particle));
}
inline void carry_out(Session& s, const AddClump& c) {
  Preset one;
  one.particles.kind = GeneratorKind::List;
  one.clumps = {c.clump};
  if (planned_particles(one) > static_cast<long long>(kMaxSimulatedParticles)) return;
  (void)s.add_clump(c.clump);
}
inline void carry_out(Session& s, const DeleteBody& c) {
  (void)s.delete_body(c.particle_id);
}
template <class Other>
inline void carry_out(Session&, const Other&) {}  // not sent by the remote's parser

// The verbs without arguments that reach the engine.
inline void carry_out_verb(std::unique_ptr<Session>& session, const std::string& verb) {
  Session& s = *session;
  if (verb == "undo") (void)s.undo();
  if (verb == "redo") (void)s.redo();
  if (verb == "recover") (void)s.go_back_before_last_edit();
  if (verb == "release") (void)s.release();
  if (verb == "hash") (void)state_hash(s.state());
  if (verb == "reset") {  // SimulationThread: a new session from the folded document
    const Preset folded = s.folded_document();
    const long long n = planned_particles(folded);
    if (n >= 0 && n <= static_cast<long long>(kMaxSimulatedParticles)) {
      auto fresh = std::make_unique<Session>(folded);
      fresh->enable_history();
      session = std::move(fresh);
    }
  }
}

// `get PATH` as RemoteControl::verb_get prints it (the list of particles is the document's).
inline void get(const Session& s, const std::string& path) {
  const bool listed = path.rfind("particles.particles", 0) == 0;
  (void)value_at(listed ? s.document() : s.parameters(), path, "$").dump();
}

// One line: read, then carried out. Returns whether the line was read (not refused).
inline bool remote_line(std::unique_ptr<Session>& session, const std::string& line) {
  remote::Request r;
  try {
    r = remote::parse_remote_line(line, session->parameters());
  } catch (const remote::Refusal&) {
    return false;
  } catch (const PresetError&) {
    return false;
  } catch (const FieldInputError&) {
    return false;
  }
  try {
    if (r.verb == "get") get(*session, r.rest);
    if (!r.edit.empty()) (void)apply_edit(*session, r.edit);
    if (r.command) std::visit([&](const auto& c) { carry_out(*session, c); }, *r.command);
    carry_out_verb(session, r.verb);
  } catch (const PresetError&) {
    // refused by the engine, as the simulation thread answers it
  }
  return true;
}

// One input: its lines (at most kMaxRemoteLines) on a fresh session of edit_scene() with a history, as the app keeps
// one. Returns the lines read.
inline int remote_input(const std::uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto session = std::make_unique<Session>(edit_scene());
  session->enable_history();
  int read = 0;
  size_t begin = 0;
  for (int k = 0; k < kMaxRemoteLines && begin < text.size(); ++k) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    read += remote_line(session, text.substr(begin, end - begin)) ? 1 : 0;
    begin = end + 1;
  }
  return read;
}

}  // namespace lodestone::fuzz
