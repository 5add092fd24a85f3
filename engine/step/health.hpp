#pragma once
// The checks stage: a run that blows up stops with a message naming the particle and a likely
// cause, instead of crashing or silently continuing (NaN or infinite values, runaway overlap,
// a particle through a wall, energy growing without a source).

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

#include <optional>

namespace lodestone {

// Overlap beyond this fraction of the smaller radius counts as a runaway; so does a particle that
// moves more than this fraction of its radius in one step (collisions are no longer resolved: two
// spheres can pass through each other between two force evaluations).
inline constexpr double kRunawayOverlapFraction = 0.5;

// Energy growing without a source: every kEnergyCheckInterval steps the energy balance
// (Observables::energy_balance: kinetic + potential + dissipated - work put in, constant up to the
// integrator's error) is compared with its value at a reference step (taken after a load, an edit
// or a phase change). It fails when it has grown by more than everything the system held or
// exchanged since: the magnitudes of the energies at the reference, plus the dissipation and work
// since, plus a floor (the kinetic energy of every particle moving 1 % of its radius per step). A
// stable integration misses the balance by a small fraction of those; an unstable one (a time
// step too large for a stiffness or a magnetic torque) grows it geometrically or diffusively, while
// the particles may stay put and apart, which the other checks would not see. Off where work is
// not booked: overdamped steps (no inertia), a pressure servo, a phase removing overlaps.
inline constexpr int kEnergyCheckInterval = 10;
inline constexpr double kFloorTravelFraction = 0.01;

// Sets state.health (ok = false with a message) when something is wrong; leaves it alone otherwise.
// The scans are split between the team's threads; the particle named is the one a single thread would name.
// `first_too_deep_pair`: the runaway-overlap scan's answer when the contact pass has made it at the current
// positions (RunawayOverlapWatch, engine/contact/contacts.hpp, with kRunawayOverlapFraction); the pairs are not
// scanned again.
void check_health(const Model& model, State& state, ThreadTeam& team = ThreadTeam::serial(),
                  std::optional<size_t> first_too_deep_pair = std::nullopt);

}  // namespace lodestone
