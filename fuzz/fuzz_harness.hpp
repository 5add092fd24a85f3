#pragma once
// What the fuzz targets do with one input (fuzz/fuzz_preset.cpp, fuzz/fuzz_checkpoint.cpp), kept in
// a header so that tests/engine/scene/test_fuzz_regressions.cpp replays the saved inputs through the very
// same code in the normal build (docs/reliability.md "Fuzzing").
//
// An input may be refused with the loader's own error (PresetError, CheckpointError): that is the
// expected outcome for almost every input. Anything else is a bug: a crash, a sanitizer report, an
// exception of another type, a hang or runaway memory, or a broken invariant below (thrown as
// std::logic_error, which libFuzzer reports as a crash).
//
// A loaded scene is also built and stepped, but only when it is small: a valid preset may ask for
// ten million particles, which is a legitimate (slow) run, not a bug. The budget is on the work
// the scene asks for, never on the values in it.

#include "engine/scene/checkpoint.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/session.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lodestone::fuzz {

// Scenes with at most this many particles are built and stepped.
inline constexpr size_t kMaxSimulatedParticles = 64;
// Random placement tries count x max_attempts positions at most; more is slow, not wrong.
inline constexpr long long kMaxPlacementAttempts = 100'000;
inline constexpr int kSteps = 2;

struct Outcome {
  bool loaded = false;     // the loader accepted the input
  bool simulated = false;  // the scene was small enough to build and step
  std::string error;       // the loader's message when it refused the input
};

inline void require(bool condition, const std::string& what) {
  if (!condition) throw std::logic_error("fuzz invariant broken: " + what);
}

// Particles a preset's scene will have, or -1 when it comes from a file (not opened by the fuzz targets:
// a fuzzed path may name /dev/zero).
inline long long planned_particles(const Preset& p) {
  const GeneratorParameters& g = p.particles;
  long long n = 0;
  switch (g.kind) {
    case GeneratorKind::Lattice: n = g.count; break;
    case GeneratorKind::Random:
      if (static_cast<long long>(g.count) * g.max_attempts > kMaxPlacementAttempts) return -1;
      n = g.count;
      break;
    case GeneratorKind::List: n = static_cast<long long>(g.particles.size()); break;
    case GeneratorKind::Checkpoint: return -1;
  }
  for (const ClumpEntry& c : p.clumps) {
    const long long k = c.count;
    n += c.shape == ClumpShape::List   ? static_cast<long long>(c.pebbles.size())
         : c.shape == ClumpShape::Cube ? k * k * k
                                       : k;
  }
  return n;
}

// Steps a built scene, then checks that its checkpoint reads back (what --checkpoint then --restart do).
inline void exercise(Session& session) {
  for (int k = 0; k < kSteps; ++k) session.step();
  (void)session.observe();
  // A run that blew up stops with its health message; its checkpoint holds NaN and is refused at load
  // with a CheckpointError saying what is not finite or not a unit quaternion. That is by design.
  if (!session.state().health.ok) return;
  const std::string bytes = checkpoint_to_bytes(session.document(), session.state());
  try {
    const Checkpoint back = checkpoint_from_bytes(bytes);
    require(back.state.particles.size() == session.state().particles.size(),
            "a checkpoint read back changed the particle count");
  } catch (const CheckpointError& e) {
    require(false, std::string("a checkpoint the engine wrote does not read back: ") + e.what());
  }
}

// Preset text, as a preset file is loaded (parse_preset is load_preset_file's parser).
inline Outcome preset_input(const std::uint8_t* data, size_t size) {
  Outcome out;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Preset preset;
  try {
    preset = parse_preset(text, "fuzz input");
  } catch (const PresetError& e) {
    out.error = e.what();
    return out;
  }
  out.loaded = true;
  // Load -> save -> load gives the same scene (the app's save and the checkpoints rely on it).
  const std::string saved = preset_to_text(preset);
  try {
    require(preset_to_text(parse_preset(saved, "saved fuzz input")) == saved,
            "load -> save -> load changed the preset");
  } catch (const PresetError& e) {
    require(false, std::string("a saved preset does not load again: ") + e.what());
  }
  const long long n = planned_particles(preset);
  if (n < 0 || n > static_cast<long long>(kMaxSimulatedParticles)) return out;
  try {
    Session session(preset);
    out.simulated = true;
    exercise(session);
  } catch (const PresetError& e) {
    out.error = e.what();  // a scene that cannot be built (no room for the particles, ...): a clear refusal
  }
  return out;
}

// Checkpoint bytes, as --restart loads a file. A mutated file almost never keeps its checksum, so the
// last 8 bytes are replaced by the right one first: the fuzzer then reaches the reader's other checks.
inline Outcome checkpoint_input(const std::uint8_t* data, size_t size) {
  Outcome out;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.size() >= 8) {
    const std::uint64_t sum = checkpoint_checksum(bytes.data(), bytes.size() - 8);
    std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
  }
  Checkpoint checkpoint;
  try {
    checkpoint = checkpoint_from_bytes(bytes);
  } catch (const CheckpointError& e) {
    out.error = e.what();
    return out;
  }
  out.loaded = true;
  // Written again, it reads back (a restart of a restart).
  try {
    (void)checkpoint_from_bytes(checkpoint_to_bytes(checkpoint.preset, checkpoint.state));
  } catch (const CheckpointError& e) {
    require(false, std::string("a loaded checkpoint, written again, does not read back: ") + e.what());
  }
  if (checkpoint.state.particles.size() > kMaxSimulatedParticles) return out;
  try {
    Session session(checkpoint);
    out.simulated = true;
    exercise(session);
  } catch (const PresetError& e) {
    out.error = e.what();  // e.g. saved in a protocol phase the preset does not have
  }
  return out;
}

}  // namespace lodestone::fuzz
