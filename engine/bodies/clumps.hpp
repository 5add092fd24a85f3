#pragma once
// Clumps ([PFC-dipole]: "one can discretize a body into multiple clump pebbles to simulate non-spherical
// magnet geometries"): rigid groups of pebbles moving as one body.
//
// Design: a pebble is an ordinary particle (so contacts, neighbour lists, dipoles, walls, checks and
// drawing work per pebble) tagged with its clump and a fixed offset in the clump's principal frame. Each
// force pass ends by summing the pebbles' forces and torques into the clump's (torque about the centre
// of mass includes offset x force; gravity acts on the clump's own mass at its centre of mass). The
// clump moves as a rigid body under velocity Verlet: half kicks of the momentum and of the angular
// momentum L (world frame), a drift of the centre of mass, and the free rotation by dt in between done by
// the symplectic splitting of Dullweber, Leimkuhler & McLachlan (J. Chem. Phys. 107, 5840, 1997; the
// rotation sequence of NO_SQUISH, Miller et al., J. Chem. Phys. 116, 8649, 2002): exact rotations about
// the principal axes x, y, z, y, x for dt/2, dt/2, dt, dt/2, dt/2. Each is the exact flow of one term of
// the kinetic energy, so the scheme is symplectic and time-reversible, keeps |L| and, without torques,
// L itself exactly, and keeps the energy to O(dt^2) without drift. The pebbles are then placed from the
// clump: x = X + R offset, orientation = the clump's, v = V + w x (R offset), angular velocity w.
// Pebble moments and easy axes are stored in the clump's frame, so they turn with it.
//
// Pairs of pebbles of the same clump are left out of the contact and dipole lists (their forces are
// internal to a rigid body). Only velocity Verlet moves clumps; a preset combining clumps with the
// overdamped scheme is refused.

#include "engine/bodies/mass_properties.hpp"
#include "engine/core/model.hpp"
#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace lodestone {

// Pebbles i, j belong to the same clump.
inline bool same_clump(const Particles& p, size_t i, size_t j) {
  return p.clump[i] >= 0 && p.clump[i] == p.clump[j];
}

// Pebble centres of a cube or bar in the shape frame, centred on the origin.
std::vector<Vec3> clump_shape_offsets(const ClumpEntry& entry);

// Free rotation of a rigid body by dt at constant world angular momentum L (the splitting above).
void free_rotation(Quat& orientation, const Vec3& angular_momentum, const Vec3& principal_inertia, double dt);

// Makes a clump of existing particles (indices): mass properties of their union with the densities of
// their materials (engine/bodies/mass_properties.hpp), principal frame, pebble offsets; each pebble gets an equal
// share of the mass (used by contact dashpots and time-step advice only). Sets the rigid velocity from
// `velocity` (centre of mass) and `angular_velocity`. Returns the clump index.
size_t make_clump(const std::vector<Material>& materials, State& state, const std::vector<size_t>& pebbles,
                  const Vec3& velocity, const Vec3& angular_velocity);

// After an edit of material densities (`before` -> `after`), keeping each clump's velocity and angular
// velocity: a clump whose pebbles' densities all changed by one factor has its mass and inertia scaled by it;
// otherwise mass, inertia, principal frame and pebble offsets are recomputed from where its pebbles are.
void refresh_clump_mass_properties(const std::vector<Material>& before, const std::vector<Material>& after,
                                   Particles& particles, Clumps& clumps);

// Appends the pebbles of the preset's `clumps` to the particles (ids after the generator's) and forms the
// clumps. Throws PresetError naming the entry.
void add_preset_clumps(const Preset& preset, State& state);

// Appends the pebbles of one clump entry (ids first_id, first_id + 1, ...) and forms the clump; returns its
// index (the app's "add a magnet", engine/bodies/touch.hpp). The entry's material names must exist.
size_t add_clump(const Preset& preset, const ClumpEntry& entry, std::uint64_t first_id, State& state);
// The spheres (centre [m], radius [m]) a clump entry's pebbles would occupy.
std::vector<std::pair<Vec3, double>> clump_spheres(const Preset& preset, const ClumpEntry& entry);

// Cross-field checks of the `clumps` section (called by validate_preset).
void validate_clumps(const Preset& preset);

// Pebble positions (with `positions`), orientations, velocities and angular velocities from the clumps; on the team,
// the same bits at any number of threads (each pebble written on its own).
void place_pebbles(const Model& model, State& state, bool positions = true, ThreadTeam& team = ThreadTeam::serial());
// Where each clump's pebbles lie among the particles, from Particles::clump, found again only when that changes (a
// reordering of large scenes at a list rebuild, an added magnet, a load), and the clumps' force sums' scratch. Kept
// between force passes by the Simulation (sum_clump_forces). The clumps with pebbles are numbered in the order of
// their first pebbles ("places"): those whose first pebbles lie in one range of particles have consecutive places.
class ClumpPebbles {
 public:
  // Brings the spans up to date with p.clump (compared whole: 4 bytes a particle) for `clumps` clumps.
  void refresh(const std::vector<int>& clump_of_particle, size_t clumps);

  // Clump k's first pebble and place, read together for each pebble.
  struct Span {
    int first, place;
  };
  const Span& span(size_t k) const { return span_[k]; }
  // By place: the clump, its first and last pebble (particle indices).
  struct Placed {
    int clump, first, last;
  };
  const std::vector<Placed>& placed() const { return placed_; }
  // The places of the clumps whose first pebbles lie in [begin, end).
  std::pair<size_t, size_t> places_starting_in(size_t begin, size_t end) const;
  // The clumps without pebbles (none, unless a preset or an edit made one).
  const std::vector<size_t>& without_pebbles() const { return without_pebbles_; }

  // The sums, by place, so that threads summing different ranges of particles write different cache lines.
  struct Sums {
    Vec3 force, torque, first_moment;
    double pebble_mass;
  };
  std::vector<Sums> sums;

 private:
  std::vector<int> clump_of_;  // p.clump when the spans were found
  std::vector<Span> span_;
  std::vector<Placed> placed_;
  std::vector<size_t> without_pebbles_;
};

// End of a force pass: clump force and torque from the pebbles, on the team (each clump from its own pebbles, in
// particle order: the same bits at any number of threads).
void sum_clump_forces(const Model& model, State& state, ClumpPebbles& pebbles, ThreadTeam& team = ThreadTeam::serial());
// Velocity Verlet for the clumps, after integrate_first_half / integrate_second_half moved the pebbles
// (whose motion is then replaced by the clumps'); on the team, the same bits at any number of threads.
void integrate_clumps_first_half(const Model& model, State& state, double dt, ThreadTeam& team = ThreadTeam::serial());
void integrate_clumps_second_half(const Model& model, State& state, double dt, ThreadTeam& team = ThreadTeam::serial());

// Kinetic energy of clump c: 1/2 M V^2 and 1/2 w.L.
double clump_translational_energy(const Clumps& clumps, size_t c);
double clump_rotational_energy(const Clumps& clumps, size_t c);

}  // namespace lodestone
