#pragma once
// A hand on the particles (issue 22): the drag spring, adding a particle or a clump, removing one. The
// Session (engine/session/session.hpp) applies these between steps and records each in the timeline, so a
// saved session replays them; here is what they do to a State.
//
// Drag: a damped spring F = -k (x - target) - c v on the grabbed particle (a pebble pulls its clump, the
// force acting at the pebble's centre, so the clump also turns). It is an outside force, like the user's
// hand: all its work on the particles, sum of F . dx over the steps (the trapezoid of the old and new force
// times the step's displacement, as the damping is booked), goes to EnergyLedger::drag_work, a source term
// of the energy balance. The spring stores no energy of its own in the balance.
//
// Stiffness follows the particle so that a drag feels the same for a 20 nm grain and a 10 mm magnet: with
// inertia (velocity Verlet) k = s M omega^2 and critical damping c = 2 sqrt(k M), M the mass pulled (the
// clump's for a pebble) and omega = 2 pi / (kDragPeriodSteps dt), i.e. the free spring's period is
// kDragPeriodSteps / sqrt(s) time steps whatever the scale; overdamped (v = F / gamma), k = s gamma omega,
// a relaxation over kDragPeriodSteps / (2 pi s) steps. s is the user's relative stiffness (1: default).

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace lodestone {

inline constexpr double kDragPeriodSteps = 200.0;  // [steps] the spring's period at relative stiffness 1
inline constexpr double kDragMinScale = 0.01;      // [-] relative stiffness allowed
inline constexpr double kDragMaxScale = 50.0;      // [-] (overdamped: stable up to 200 / (2 pi) ~ 63)

// Dense index of a particle id, or -1.
long index_of_id(const Particles& particles, std::uint64_t particle_id);

// [SECTION] Drag

struct DragConstants {
  double stiffness = 0.0;  // [N/m]
  double damping = 0.0;    // [N s/m]
};
// The mass a drag on particle i pulls [kg]: its clump's, or its own.
double dragged_mass(const State& state, size_t i);
// Stiffness and damping for relative stiffness `scale` on particle i (see above).
DragConstants drag_constants(const Model& model, const State& state, size_t i, double scale);
// The force stage: adds the spring force to the grabbed particle and, with dt > 0, books its work over the
// step. Nothing when no drag is active.
void apply_drag_spring(const Model& model, State& state, double dt);

// [SECTION] Add and remove

// An add may overlap a neighbour by this fraction of the radii's sum: a contact, not a placement error (a
// deleted particle put back where it was, pressed into its neighbours).
inline constexpr double kAddOverlapTolerance = 0.01;
// The first particle (index) a sphere at x of radius r would overlap (centre distance below the sum of the
// radii times 1 - tolerance, minimum image across periodic sides), or -1.
long first_overlap(const Model& model, const Particles& particles, const Vec3& x, double r, double tolerance = 0.0);

// What a removal took away.
struct Removal {
  std::vector<std::uint64_t> ids;  // the particles removed (a clump's pebbles, or one particle)
  std::uint64_t broken_bonds = 0;  // intact beam bonds to them, now broken (added to State::broken_bonds)
  bool clump = false;              // the particle was a pebble: its whole clump went
};
// Removes the particle with this id, or the whole clump it belongs to: its bonds break (counted), its
// contact records go, every array kept per particle index is compacted, the drag on it is released.
// Re-prepare the simulation afterwards (Simulation::reinitialize). Nothing when the id is absent.
Removal remove_body(State& state, std::uint64_t particle_id);

}  // namespace lodestone
