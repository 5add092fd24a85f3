#pragma once
// The per-particle values of one exported frame, derived once from the model and state and shared
// by every particle-frame format (extended XYZ, VTK PolyData, LAMMPS dump, CSV; engine/export_*.hpp),
// so the formats cannot disagree on what, say, "alignment" or "cluster" means. A plain value: the
// desktop app's simulation thread fills one on request and hands it to the GUI thread, which
// writes the file (the GUI never reads the live State). Columns and units: docs/outputs.md.

#include "engine/analysis/clusters.hpp"
#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/scene/units.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lodestone {

// One beam bond of a frame (engine/bodies/bonds.hpp), broken ones included (they stay in the state's list).
struct FrameBond {
  std::uint64_t id_a = 0, id_b = 0;  // stable ids of its two particles
  size_t a = 0, b = 0;               // their indices in the frame's per-particle arrays
  bool intact = true;                // false once broken
  double stretch = 0.0;              // (|d| - L0) / L0, d the minimum-image centre distance (dimensionless)
};

// SI as filled here; frame_in_units (engine/output/output_units.hpp) converts the values to the preset's unit system
// and sets `units`, which each format's header then carries.
struct FrameFields {
  std::string units;  // "" for SI, else the unit-system note (engine/scene/unit_system.hpp) the headers carry
  std::int64_t step = 0;
  double time = 0.0;                     // [s]
  Vec3 field_direction = Vec3::UnitZ();  // unit b, the direction alignment is taken against
  // The box: corners and the kind of each side, sides[axis][0 = min, 1 = max].
  Vec3 box_min = Vec3::Zero();  // [m]
  Vec3 box_max = Vec3::Zero();  // [m]
  std::array<std::array<SideKind, 2>, 3> sides{};
  int material_count = 0;  // materials of the model (LAMMPS types 1..material_count)

  // Per particle, in the state's dense order (N each; vectors in the world frame).
  std::vector<std::uint64_t> id;       // stable particle id
  std::vector<int> material;           // index into the model's materials
  std::vector<double> radius;          // [m]
  std::vector<Vec3> position;          // [m] centre (wrapped into the box on periodic axes)
  std::vector<Vec3> velocity;          // [m/s]
  std::vector<Quat> orientation;       // unit, body -> world
  std::vector<Vec3> angular_velocity;  // [rad/s]
  std::vector<Vec3> easy_axis;         // unit
  std::vector<Vec3> moment;            // [A m^2]
  std::vector<Vec3> force;             // [N] total force of the last force pass
  std::vector<Vec3> torque;            // [N m] total torque of the last force pass
  std::vector<double> alignment;       // |n . b|, axis_alignment() of engine/analysis/observables.hpp
  std::vector<std::uint64_t> cluster;  // label of the particle's contact cluster (its smallest id; clusters.hpp)
  std::vector<ImageFlags> image;       // periodic images crossed: unwrapped = position + image * (box_max - box_min)

  std::vector<FrameBond> bonds;  // every bond of the state, in its order (empty: a scene without bonds)

  size_t size() const { return id.size(); }
  bool periodic(int axis) const { return sides[static_cast<size_t>(axis)][0] == SideKind::Periodic; }
};

// Fills a frame from the current state (finds the clusters itself).
FrameFields frame_fields(const Model& model, const State& state);
// The same with the clusters already found (find_clusters(state)).
FrameFields frame_fields(const Model& model, const State& state, const Clusters& clusters);

// Appends x, y, z separated by `separator`, each number as append_number writes it (engine/scene/units.hpp).
void append_vector(std::string& out, const Vec3& v, char separator);
// Appends particle i's radius, position, velocity and orientation (x, y, z, w) separated by `separator`, numbers as
// append_number writes them: the columns the CSV and extended-XYZ frames share, in their order.
void append_radius_and_motion(std::string& out, const FrameFields& f, size_t i, char separator);

}  // namespace lodestone
