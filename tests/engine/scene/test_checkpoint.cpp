// Checkpoints: a run continued from a checkpoint is bit-identical to the run that never stopped;
// other parameters on a saved state act as a panel edit at that moment; damaged files are refused.

#include "engine/core/state_hash.hpp"
#include "engine/core/version.hpp"
#include "engine/scene/checkpoint.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Overdamped grains with overlaps removed, then a phase that switches a field on ([Erokhin-Berkov] style).
Preset phased_scene() {
  Preset p = overdamped_grains_in_walled_box();
  p.materials[0].magnetization = 1e5;
  p.materials[0].anisotropy = 2e4;
  p.materials[0].moment_model = MomentModel::StonerWohlfarth;
  ProtocolPhase field;
  field.name = "field";
  field.duration = 1.0;
  field.set = json::object({{"field.strength", "50 mT"}});
  p.protocol = {overlap_removal_phase(), field};
  return p;
}

struct TemporaryFile {
  std::string path;
  explicit TemporaryFile(const std::string& name)
      : path((std::filesystem::temp_directory_path() / ("lodestone-test-" + std::to_string(::getpid()) + "-" + name))
                 .string()) {}
  ~TemporaryFile() { std::remove(path.c_str()); }
};

// The bytes of a checkpoint with the trailing checksum recomputed (to test the checks behind it).
std::string with_checksum(std::string bytes) {
  bytes.resize(bytes.size() - 8);
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a 64, as the format documents
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  bytes.append(reinterpret_cast<const char*>(&h), 8);
  return bytes;
}

}  // namespace

TEST_CASE("a run continued from a checkpoint is bit-identical to the run that never stopped", "[checkpoint]") {
  // Each law keeps a different state in the contact record: shear springs only, shear and rolling
  // springs, the sand law's contact pointers. Variant 3: dipole forces every 4th step, extrapolated in
  // between from the two full passes the state keeps.
  Preset preset = magnets_in_walled_box();
  const int variant = GENERATE(0, 1, 2, 3);
  if (variant == 1) preset.contact.rolling.enabled = true;
  if (variant == 3) preset.magnetics.force_interval = 4;
  if (variant == 2) {
    preset.contact.law = ContactLaw::Sand;
    preset.materials[0].surface_energy = 0.05;
  }
  INFO("law variant " << variant);
  Session straight(preset);
  Session first_half(preset);
  run_checked(first_half, 1500);  // contacts form and slide, lists are rebuilt on the way
  REQUIRE(first_half.state().neighbors.builds > 1);
  REQUIRE(first_half.observe().particle_contacts + first_half.observe().wall_contacts > 0);
  if (variant == 3) REQUIRE(first_half.state().dipole_history.passes_since_full > 0);  // saved between full passes

  TemporaryFile file("restart.ckpt");
  save_checkpoint(file.path, first_half.document(), first_half.state());
  Session resumed(load_checkpoint(file.path));
  run_checked(resumed, 1500);
  run_checked(straight, 3000);
  require_same_state(straight.state(), resumed.state());
}

TEST_CASE("an overdamped protocol continues bit-identically across a phase boundary", "[checkpoint]") {
  Preset preset = phased_scene();
  const int force_interval = GENERATE(1, 3);  // 3: dipoles on, computed every third step (Heun's trial pass too)
  if (force_interval > 1) {
    preset.magnetics.method = DipoleMethod::Cutoff;
    preset.magnetics.force_interval = force_interval;
  }
  INFO("force_interval " << force_interval);
  Session straight(preset);
  Session part(preset);
  while (part.state().phase == 0 && part.state().health.ok) part.step();
  INFO(part.state().health.message);
  REQUIRE(part.state().health.ok);
  part.run(50);  // into the field phase: Stoner-Wohlfarth moments are turning
  const std::int64_t at = part.state().step;
  if (force_interval > 1) {  // saved between full passes, with dipole forces at work
    REQUIRE(part.state().dipole_history.passes_since_full > 0);
    REQUIRE(part.state().energy.dipole != 0.0);
  }

  const std::string bytes = checkpoint_to_bytes(part.document(), part.state());
  Session resumed(checkpoint_from_bytes(bytes));
  CHECK(resumed.phase_label() == "2/2 field");
  CHECK(resumed.model().field.strength == Approx(0.05));
  resumed.run(400);
  straight.run(at + 400);
  require_same_state(straight.state(), resumed.state());
  // Writing what was read gives the same bytes: every field makes the round trip.
  CHECK(checkpoint_to_bytes(part.document(), checkpoint_from_bytes(bytes).state) == bytes);
}

TEST_CASE("a Brownian run continues bit-identically from a checkpoint", "[checkpoint][thermal]") {
  // The noise is a function of (particles.seed, step, id) and the last Langevin force is kept with the
  // damping force, so a restart needs no generator state. The temperatures are absurd for these millimetre
  // grains on purpose: kT near their kinetic energy (inertial), a Brownian step of about 1 um (overdamped).
  const bool overdamped = GENERATE(false, true);
  INFO((overdamped ? "overdamped protocol" : "velocity Verlet"));
  Preset preset = overdamped ? phased_scene() : magnets_in_walled_box();
  if (!overdamped) {
    preset.environment.translational_damping = 1e-4;  // m / gamma = 0.02 s
    preset.environment.rotational_damping = 1e-4;
  }
  preset.environment.temperature = overdamped ? 3e15 : 7e13;
  const std::int64_t first = overdamped ? 600 : 1500, second = overdamped ? 400 : 1500;
  Session straight(preset);
  Session part(preset);
  run_checked(part, first);
  const std::string bytes = checkpoint_to_bytes(part.document(), part.state());
  Session resumed(checkpoint_from_bytes(bytes));
  run_checked(resumed, second);
  run_checked(straight, first + second);
  require_same_state(straight.state(), resumed.state());
  REQUIRE(straight.state().energy.dissipated_viscous == resumed.state().energy.dissipated_viscous);
  // The noise mattered: without it the run goes elsewhere.
  preset.environment.temperature = 0.0;
  Session cold(preset);
  run_checked(cold, first + second);
  CHECK(cold.state().particles.position != straight.state().particles.position);
}

TEST_CASE("a preset continuing a checkpoint with other parameters acts as an edit at that moment", "[checkpoint]") {
  const Preset preset = magnets_in_walled_box();
  Session original(preset);
  run_checked(original, 800);
  TemporaryFile file("edit.ckpt");
  save_checkpoint(file.path, original.document(), original.state());

  Preset edited = preset;
  edited.field.strength = 20e-3;
  edited.materials[0].friction = 0.1;
  // The same change as a live edit of the running scene...
  original.edit_parameters(edited);
  run_checked(original, 700);
  // ...and as a preset whose particles come from the checkpoint.
  edited.particles.kind = GeneratorKind::Checkpoint;
  edited.particles.file = file.path;
  Session continued(edited);
  CHECK(continued.model().field.strength == Approx(20e-3));
  run_checked(continued, 700);
  require_same_state(original.state(), continued.state());
}

TEST_CASE("damaged or mismatched checkpoints are refused with a reason", "[checkpoint]") {
  const Preset preset = magnets_in_walled_box();
  Session session(preset);
  run_checked(session, 10);
  const std::string good = checkpoint_to_bytes(session.document(), session.state());
  REQUIRE_NOTHROW(checkpoint_from_bytes(good));

  CHECK_THROWS_WITH(checkpoint_from_bytes("{\"version\": 1}"), Catch::Contains("not a Lodestone checkpoint"));
  CHECK_THROWS_WITH(checkpoint_from_bytes(good.substr(0, good.size() / 2)), Catch::Contains("checksum"));
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x20;
  CHECK_THROWS_WITH(checkpoint_from_bytes(flipped), Catch::Contains("checksum"));
  // Truncated with a valid checksum: the reader notices the missing data itself.
  CHECK_THROWS_WITH(checkpoint_from_bytes(with_checksum(good.substr(0, good.size() - 100))),
                    Catch::Contains("ends inside") || Catch::Contains("claims"));

  State bad = session.state();
  bad.neighbors.contact_pairs.push_back({0, 999});
  bad.neighbors.contact_history.emplace_back();
  CHECK_THROWS_WITH(checkpoint_from_bytes(checkpoint_to_bytes(preset, bad)), Catch::Contains("(0, 999)"));
  bad = session.state();
  bad.particles.id[1] = bad.particles.id[0];
  CHECK_THROWS_WITH(checkpoint_from_bytes(checkpoint_to_bytes(preset, bad)), Catch::Contains("appears twice"));
  bad = session.state();
  bad.particles.material[3] = 5;
  CHECK_THROWS_WITH(checkpoint_from_bytes(checkpoint_to_bytes(preset, bad)), Catch::Contains("material index 5"));

  // A preset naming a checkpoint: a missing file and a protocol too short are PresetErrors on the path.
  Preset from_file = preset;
  from_file.particles.kind = GeneratorKind::Checkpoint;
  from_file.particles.file = "/nonexistent/x.ckpt";
  CHECK_THROWS_WITH(Session(from_file), Catch::Contains("$.particles.file") && Catch::Contains("cannot open"));
  Session staged(phased_scene());
  while (staged.state().phase == 0 && staged.state().health.ok) staged.step();
  TemporaryFile file("phase.ckpt");
  save_checkpoint(file.path, staged.document(), staged.state());
  Preset one_phase = phased_scene();
  one_phase.protocol.resize(1);
  one_phase.particles.kind = GeneratorKind::Checkpoint;
  one_phase.particles.file = file.path;
  CHECK_THROWS_WITH(Session(one_phase), Catch::Contains("phase 2") && Catch::Contains("has 1 phases"));
  CHECK_THROWS_WITH(save_checkpoint("/nonexistent-dir/x.ckpt", preset, session.state()),
                    Catch::Contains("cannot write"));
}

TEST_CASE("a checkpoint names the program that wrote it, and a version 5 file without the name still loads",
          "[checkpoint]") {
  Session session(magnets_in_walled_box());
  run_checked(session, 10);
  const std::string bytes = checkpoint_to_bytes(session.document(), session.state());
  const Checkpoint read = checkpoint_from_bytes(bytes);
  CHECK(read.written_by == lodestone_version_line());

  // The same file as format version 5 wrote it: no name after the byte-order mark, the same state after it.
  const size_t magic = std::string("LODESTONE-CHECKPOINT\n").size();
  const std::string name = lodestone_version_line();
  REQUIRE(bytes.compare(magic + 8 + 8, name.size(), name) == 0);  // its length (8 bytes), then the text
  std::string v5 = bytes.substr(0, magic) + std::string("\x05\0\0\0", 4) + bytes.substr(magic + 4, 4) +
                   bytes.substr(magic + 8 + 8 + name.size());
  v5 = with_checksum(v5);  // its last 8 bytes, the old checksum, replaced
  const Checkpoint old = checkpoint_from_bytes(v5);
  CHECK(old.written_by.empty());
  CHECK(state_hash(old.state) == state_hash(read.state));
  // A version this program does not know is refused with the versions it reads.
  std::string future = bytes;
  future[magic] = static_cast<char>(kCheckpointVersion + 1);
  CHECK_THROWS_WITH(checkpoint_from_bytes(with_checksum(future)),
                    Catch::Contains("format version " + std::to_string(kCheckpointVersion + 1)) &&
                        Catch::Contains("4 to " + std::to_string(kCheckpointVersion)));
}

TEST_CASE("a p3m run's checkpoint from format 6 has its neighbour lists rebuilt, one from format 7 keeps them",
          "[checkpoint]") {
  // Up to format 6 a p3m run kept no real-space pairs in the dipole Verlet list; from 7 it does (the sum takes
  // them from there when the box is large enough, engine/magnetic/periodic_systems.hpp). An older file's lists
  // are marked for a rebuild, so that its first pass cannot run without the pairs.
  Preset preset = magnets_in_walled_box();
  preset.magnetics.method = DipoleMethod::P3M;
  preset.environment.gravity = Vec3::Zero();
  preset.box.x_min = preset.box.x_max = preset.box.y_min = preset.box.y_max = preset.box.z_min = preset.box.z_max =
      SideKind::Periodic;
  Session session(preset);
  run_checked(session, 5);
  const std::string bytes = checkpoint_to_bytes(session.document(), session.state());
  REQUIRE(session.state().neighbors.valid);
  CHECK(checkpoint_from_bytes(bytes).state.neighbors.valid);
  std::string v6 = bytes;
  v6[std::string("LODESTONE-CHECKPOINT\n").size()] = 6;
  CHECK_FALSE(checkpoint_from_bytes(with_checksum(v6)).state.neighbors.valid);
  // Other methods' lists are kept from a format 6 file (their pairs were there).
  Session cutoff(magnets_in_walled_box());
  run_checked(cutoff, 5);
  std::string cutoff_v6 = checkpoint_to_bytes(cutoff.document(), cutoff.state());
  cutoff_v6[std::string("LODESTONE-CHECKPOINT\n").size()] = 6;
  CHECK(checkpoint_from_bytes(with_checksum(cutoff_v6)).state.neighbors.valid);
}

TEST_CASE("checkpoints keep the periodic image flags, and a state that crossed nothing is written as before",
          "[checkpoint][image]") {
  Preset p = bare_preset();
  p.box.min = Vec3::Zero();
  p.box.max = Vec3::Constant(0.01);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = SideKind::Periodic;
  p.integrator.time_step = 1e-4;
  p.particles.particles = {sphere(Vec3(0.005, 0.005, 0.005), 1e-3, Vec3(2.0, -1.0, 0.0)),
                           sphere(Vec3(0.002, 0.002, 0.002), 1e-3, Vec3(2.0, 0.0, 0.0))};
  auto version_of = [](const std::string& bytes) {
    std::uint32_t v = 0;
    std::memcpy(&v, bytes.data() + std::strlen("LODESTONE-CHECKPOINT\n"), sizeof v);
    return v;
  };
  Session session(p);
  CHECK(version_of(checkpoint_to_bytes(p, session.state())) == 7);  // nothing crossed: byte for byte as before
  run_checked(session, 300);                                        // 6 cm along x: 6 boxes
  const State& state = session.state();
  REQUIRE(state.particles.image[0][0] == 6);
  const std::string bytes = checkpoint_to_bytes(p, state);
  CHECK(version_of(bytes) == 10);
  const Checkpoint read = checkpoint_from_bytes(bytes);
  CHECK(read.state.particles.image == state.particles.image);
  // An older file (here: the same state with the flags cleared, written as version 7) reads with every flag 0.
  State cleared = state;
  for (ImageFlags& f : cleared.particles.image) f = ImageFlags{};
  const std::string old = checkpoint_to_bytes(p, cleared);
  CHECK(version_of(old) == 7);
  CHECK(checkpoint_from_bytes(old).state.particles.image == std::vector<ImageFlags>(2, ImageFlags{}));
}
