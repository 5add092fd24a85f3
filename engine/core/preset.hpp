#pragma once
// A preset: one whole scene, as one JSON file declares it (reading and writing: engine/scene/preset_io.hpp;
// every field: docs/presets.md). SI throughout; units are converted when a file is read.

#include "engine/core/clump_parameters.hpp"
#include "engine/core/parameters.hpp"
#include "engine/core/preset_error.hpp"

#include <string>
#include <vector>

namespace lodestone {

inline constexpr int kPresetVersion = 1;
// The most particles a preset's scene may have: the generator's particles and the clumps' pebbles in all.
// A bigger scene is refused at load, before anything is allocated (ten million particles already need gigabytes).
inline constexpr int kMaxParticles = 10'000'000;

// The physics sections (PhysicsParameters, shared with the Model) and what only a scene file has: how the
// particles are made, the protocol, the session's timeline, the runner's and the app's settings (`run`, `view`).
struct Preset : PhysicsParameters {
  int version = kPresetVersion;
  std::string description;
  DisplayUnits units;
  GeneratorParameters particles;
  std::vector<ClumpEntry> clumps;  // rigid bodies of pebbles ([PFC-dipole]), added to the particles
  std::vector<ProtocolPhase> protocol;
  std::vector<TimelineEntry> timeline;  // session log: changes by step number (engine/scene/preset_edits.hpp)
  RunParameters run;
  ViewParameters view;  // the app's colours, camera, pace and plots for this scene; never the physics
};

// Index of a material by name; -1 when absent. Empty name: 0.
int material_index(const std::vector<Material>& materials, const std::string& name);

}  // namespace lodestone
