#pragma once
// Checkpoints: the whole State of a run and the preset it runs, in one file, so that a run
// continues from it bit-identically (docs/outputs.md "Checkpoints"). Uses: restart a long run,
// share one prepared packing between the jobs of a sweep (`particles.kind: "checkpoint"`).
//
// Format: the line "LODESTONE-CHECKPOINT", a format version, a byte-order mark, (from version 6) the
// program that wrote it as a string ("Lodestone 0.1.0", engine/core/version.hpp), the preset as JSON text (SI, every
// key), then every State field in a fixed order (little-endian IEEE doubles, 64-bit integers, one byte per bool), and
// an FNV-1a checksum of all bytes before it. The reader checks every length against the bytes left before allocating,
// every index against the particle count, and the checksum, so a damaged file gives a CheckpointError, never a crash or
// a silently wrong state.

#include "engine/core/state.hpp"
#include "engine/scene/preset_io.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lodestone {

// 2: contact records carry the rolling or sand law state; 3: the dipole history of multiple time steps;
// 4: beam bonds and the broken-bond count ([Voxel-beams]); rigid clumps (the clump of each particle, its
// offset, and the clumps' state; [PFC-dipole]); 5: the user's drag spring and its work (engine/bodies/touch.hpp;
// version 4 files are still read, without them); 6: the writing program's version after the byte-order mark
// (metadata: the state is the same as in version 5; versions 4 and 5 are still read, with written_by empty); 7: the
// dipole Verlet list of a p3m run holds its real-space pairs (the same fields; in a p3m run from a version 4-6
// file, which kept none there, the lists are marked for a rebuild before the first pass); 8: a model change an
// edit deferred to the next step (State::model_change_pending). A state without one is written as version 7, byte for
// byte as before (and read by older programs); only a state saved between such an edit and the next step needs 8;
// 9: held particles (Particles::hold, EnergyLedger::hold_work; issue 40). A state that holds nothing and never did is
// written as version 7 or 8, as before; older files read with nothing held; 10: periodic image flags (Particles::image,
// Clumps::image; issue 42). A state whose particles never crossed a periodic boundary is written as version 7 to 9,
// as before; older files read with every image 0.
inline constexpr int kCheckpointVersion = 10;

struct CheckpointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Checkpoint {
  Preset preset;  // the scene document the run was started from (its protocol included)
  State state;
  std::string written_by;  // "Lodestone 0.1.0": the program that wrote the file ("" for format versions 4 and 5)
};

// Serialises to bytes / parses bytes (throws CheckpointError naming what is wrong).
std::string checkpoint_to_bytes(const Preset& preset, const State& state);
Checkpoint checkpoint_from_bytes(const std::string& bytes);
// The checksum a checkpoint's last 8 bytes hold: FNV-1a of every byte before them. The fuzz target
// (fuzz/fuzz_harness.hpp) repairs it in mutated files so that the reader's other checks are reached.
std::uint64_t checkpoint_checksum(const char* data, size_t size);

// Atomic save: "<path>.tmp-<pid>" then rename; the old file survives a failure (throws
// CheckpointError saying why). Load throws CheckpointError naming the file.
void save_checkpoint(const std::string& path, const Preset& preset, const State& state);
Checkpoint load_checkpoint(const std::string& path);

}  // namespace lodestone
