#pragma once
// The State: what changes every step. Particles are a structure of arrays indexed by a dense
// index, with a stable id beside them; contact history is keyed by the (id, id) pair at
// neighbour-list rebuilds and stored beside the pair list in between.

#include "engine/core/bond_state.hpp"
#include "engine/core/clump_state.hpp"
#include "engine/core/hold.hpp"
#include "engine/core/image_flags.hpp"
#include "engine/core/math.hpp"
#include "engine/core/pair_bands.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace lodestone {

class ThreadTeam;

struct Particles {
  std::vector<Vec3> position;          // [m]      (N x 3)
  std::vector<Vec3> velocity;          // [m/s]
  std::vector<Quat> orientation;       // body -> world, unit
  std::vector<Vec3> angular_velocity;  // [rad/s]  world frame
  std::vector<Vec3> force;             // [N]
  std::vector<Vec3> torque;            // [N m]
  std::vector<double> radius;          // [m]
  std::vector<double> mass;            // [kg]
  std::vector<double> inertia;         // [kg m^2] sphere: 2/5 m R^2
  std::vector<int> material;           // index into Model::materials
  std::vector<Vec3> easy_axis_body;    // unit, body frame
  std::vector<Vec3> moment_body;       // [A m^2] body frame (rigid dipole)
  std::vector<Vec3> moment;            // [A m^2] world frame, refreshed every step from the body frame
  std::vector<std::uint64_t> id;       // stable id
  std::vector<int> clump;              // index into State::clumps; -1: a free sphere (engine/bodies/clumps.hpp)
  std::vector<Vec3> clump_offset;      // [m] centre relative to the clump's centre of mass, clump frame
  std::vector<std::uint8_t> hold;      // HoldKind bits: kept still (engine/step/integrator.hpp); free spheres only
  std::vector<ImageFlags> image;       // periodic images crossed (engine/core/image_flags.hpp); not in the state hash

  size_t size() const { return position.size(); }
  void clear() { resize(0); }
  void resize(size_t n);
  // Appends a sphere at rest with identity orientation; returns its index.
  size_t add(std::uint64_t particle_id, const Vec3& x, double r, double m, int material_index);
  // Reorders every array: the particle at old index order[k] moves to index k; with a team, each array's moves split
  // over it (the same result).
  void permute(const std::vector<int>& order);
  void permute(const std::vector<int>& order, ThreadTeam& team);
  Vec3 easy_axis(size_t i) const { return orientation[i] * easy_axis_body[i]; }
  bool holds_position(size_t i) const { return (hold[i] & static_cast<std::uint8_t>(HoldKind::Position)) != 0; }
  bool holds_orientation(size_t i) const { return (hold[i] & static_cast<std::uint8_t>(HoldKind::Orientation)) != 0; }
};

// Rolling and twisting springs of the linear and Hertz-Mindlin laws (engine/contact/law_rolling.hpp).
struct RollingHistory {
  Vec3 rolling = Vec3::Zero();         // [rad] relative rolling rotation of the first body, in the contact plane
  double twisting = 0.0;               // [rad] relative rotation of the first body about the normal
  Vec3 dashpot_couple = Vec3::Zero();  // [N m] dashpot torque on the first body at the last evaluation
  double rolling_stiffness = 0.0;      // [N m/rad] at the last evaluation
  double twisting_stiffness = 0.0;     // [N m/rad] at the last evaluation
};

// Contact pointers of the sand law (engine/contact/law_sand.hpp, [Dominik-Nubold] App. A.5): P1 = c - r_i, P2 = c - r_j
// and a unit vector Q normal to the line of centres, each stored in its own body's frame (rotated by
// the inverse orientation). A wall's frame is the world: p2 is then the wall's material point
// itself (absolute position) and q2 a world vector.
struct SandPointers {
  Vec3 p1 = Vec3::Zero();  // [m] body frame of the first body
  Vec3 p2 = Vec3::Zero();  // [m] body frame of the second body (a wall: world position of the contact point)
  Vec3 q1 = Vec3::Zero();  // unit, body frame of the first body
  Vec3 q2 = Vec3::Zero();  // unit, body frame of the second body (a wall: world)
};

// The law-specific part of a contact's history: the rolling springs (linear and Hertz-Mindlin with
// contact.rolling.enabled) or the sand pointers, which never coexist. Empty until such a law first evaluates the
// contact; a law that finds the other's state starts afresh. Kept beside the records (NeighborLists::contact_law,
// State::wall_law) and only when the law keeps one: inside each record it took 104 of 184 bytes that every other law
// carried through the contact pass and the trial's backup unused (docs/performance.md, "The law's own state beside
// the records").
using LawState = std::variant<std::monostate, RollingHistory, SandPointers>;

// History of one contact (particle-particle or particle-wall): the shear spring of the linear and
// Hertz-Mindlin laws, the last dashpot force and the flags, 80 bytes. The flags come first.
struct ContactHistory {
  bool active = false;
  bool slipping = false;
  Vec3 shear = Vec3::Zero();  // [m] shear displacement of the first body relative to the second, in the contact plane
  double normal_force = 0.0;  // [N] incremental linear mode: the elastic normal force
  double gap = 0.0;           // [m] surface gap at the last evaluation (incremental mode)
  Vec3 dashpot_force = Vec3::Zero();  // [N] dashpot force on the first body at the last evaluation
  double shear_stiffness = 0.0;       // [N/m] shear stiffness at the last evaluation
};

// The same contact seen with its two bodies swapped (the pair list orders a pair by index, and
// indices change when large scenes are reordered): displacements and forces "of the first body"
// change sign, the sand pointers change places. Walls are always second and never swap.
void swap_bodies(ContactHistory& h);
void swap_bodies(LawState& law);

// The law states beside a table of `records` histories: one per record when the law keeps them (`kept`), none
// otherwise (a law switched off drops them: switched on again, its contacts start afresh). A table of the wrong
// length is made afresh.
void fit_law_states(std::vector<LawState>& law, size_t records, bool kept);

struct IndexPair {
  int i = 0, j = 0;
};

struct NeighborLists {
  std::vector<IndexPair> contact_pairs;         // pairs that may touch before the next rebuild
  std::vector<ContactHistory> contact_history;  // beside contact_pairs
  std::vector<LawState> contact_law;            // empty, or beside contact_history (LawState)
  // contact_history[k].active again, a byte a pair: the contact pass tests it for every listed pair, most of them
  // beyond reach, and read from the (then 184-byte) records it was half of that pass on a dense scene. Whatever writes
  // the histories keeps it in step (mark_active_contacts); the contact pass makes it again when its length is wrong.
  std::vector<std::uint8_t> contact_active;
  std::vector<IndexPair> dipole_pairs;  // pairs within the dipole cutoff (or P3M's real-space cutoff) + skin
  // The particles each chunk of dipole_pairs names (engine/core/pair_bands.hpp), made with the list, so that a part of
  // a pass finds its window without reading its pairs an extra time each step. Derived: not saved, made again when a
  // checkpoint is read (mark_dipole_bands); a pass reads the pairs instead when these do not describe the list.
  PairListBands dipole_bands;
  std::vector<Vec3> reference_position;  // positions at the last build
  bool valid = false;                    // false: rebuild before the next use
  std::uint64_t builds = 0;
};

// Sets contact_active from the histories' flags (after the histories were replaced or moved as a whole).
void mark_active_contacts(NeighborLists& lists);

// Sets dipole_bands from dipole_pairs over `particles` particles, as of the lists' build (after the pairs were
// replaced as a whole; the neighbour build fills the chunks on its team instead).
void mark_dipole_bands(NeighborLists& lists, size_t particles);

// The lists' dipole_bands when they describe its dipole_pairs over `particles` particles (valid lists of this build),
// else nullptr: then a pass reads the pairs for its windows.
const PairListBands* current_dipole_bands(const NeighborLists& lists, size_t particles);

// Energies in J. Potentials are those of the current configuration (set by the force pass);
// dissipated and work terms accumulate from t = 0 ([PFC-dipole] 'energy partitions').
struct EnergyLedger {
  double elastic = 0.0;              // contact springs (normal and shear)
  double dipole = 0.0;               // dipole-dipole
  double zeeman = 0.0;               // -sum m.B, plus -K V (m.n)^2 for Stoner-Wohlfarth moments
  double dissipated_friction = 0.0;  // Coulomb slip
  double dissipated_dashpot = 0.0;   // contact dashpots
  double dissipated_viscous = 0.0;   // global damping
  double field_work = 0.0;           // work of a time-varying field on the moments (source term)
  double stiffness_work = 0.0;       // energy the model gives shear springs (stiffness changes, LAMMPS convention)
  double drag_work = 0.0;            // work of the user's drag spring on the particles (source term, DragSpring)
  double hold_work = 0.0;            // kinetic energy taken by holding moving particles still (source term, <= 0)
};

enum class EventKind : int { ContactActivated = 0, SlipStarted = 1, SlipEnded = 2 };
inline constexpr int kEventKinds = 3;
// Walls appear in events as id_b = kWallIdBase + side (side = 2 axis + upper).
inline constexpr std::uint64_t kWallIdBase = 0xFFFF'FFFF'FFFF'FF00ull;

struct Event {
  std::int64_t step = 0;
  EventKind kind = EventKind::ContactActivated;
  std::uint64_t id_a = 0, id_b = 0;
};

// Counts every event since t = 0 and keeps the most recent ones ([PFC-dipole] callback events).
struct EventLog {
  static constexpr size_t kRecentCapacity = 256;
  std::array<std::uint64_t, kEventKinds> count{};
  std::vector<Event> recent;  // ring buffer, oldest overwritten
  size_t next_slot = 0;

  void record(const Event& e);
  std::uint64_t total(EventKind k) const { return count[static_cast<int>(k)]; }
  std::vector<Event> recent_in_order() const;
};

// Multiple time steps for the dipole pass (magnetics.force_interval = k > 1; [Dominik-Nubold] App. A.8,
// engine/magnetic/magnetics.hpp): the dipole forces, torques and energy of the last two full passes, from which
// the passes in between are extrapolated to first order in time. Indexed like the particles and
// permuted with them when large scenes are reordered. Empty with k = 1; cleared by parameter edits,
// protocol phases and edited particles, after which the next two passes are full.
struct DipoleHistory {
  int stored = 0;                // full passes held: 0, 1 or 2
  int passes_since_full = 0;     // force passes since the newer one (Heun's trial passes not counted)
  double time_previous = 0.0;    // [s] time of the older full pass
  double time_last = 0.0;        // [s] time of the newer one
  double energy_previous = 0.0;  // [J] dipole energy of the older full pass
  double energy_last = 0.0;      // [J] of the newer one

  std::vector<Vec3> force_previous, force_last;    // [N] dipole force per particle
  std::vector<Vec3> torque_previous, torque_last;  // [N m] dipole torque per particle

  void clear() { *this = DipoleHistory{}; }
};

// Set by the checks stage when the run must stop: names the particle and a likely cause.
struct Health {
  bool ok = true;
  std::string message;
  std::uint64_t particle_id = 0;
};

// The energy check of the checks stage (engine/step/health.hpp): the balance at a reference step and
// what it is compared with. Not saved in checkpoints: a restored run takes a new reference.
struct EnergyWatch {
  bool valid = false;     // false: the next check takes the reference (after a load or an edit)
  std::int64_t step = 0;  // the reference step
  double balance = 0.0;   // [J] Observables::energy_balance() there
  double scale = 0.0;     // [J] the energies' magnitudes there (kinetic + |each potential|)
  std::array<double, 7>
      exchanged{};  // [J] dissipated (friction, dashpots, damping), work (field, stiffness, drag, hold)
};

// The user's hand on a particle (the app's Ctrl+drag, the remote verb `drag`; engine/bodies/touch.hpp): a
// damped spring pulling the particle with this id (a clump pebble pulls its clump) toward `target`,
// F = -stiffness (x - target) - damping v. It is an outside force: all its work on the particles is booked
// as EnergyLedger::drag_work (a source term), so the energy check sees where the energy came from.
struct DragSpring {
  bool active = false;  // false after a release, until the next force pass books the last force's share
  std::uint64_t particle_id = 0;
  Vec3 target = Vec3::Zero();  // [m]
  double stiffness = 0.0;      // [N/m]
  double damping = 0.0;        // [N s/m]
  Vec3 force = Vec3::Zero();   // [N] on the particle at the last force pass (the work's trapezoid)
  Vec3 anchor = Vec3::Zero();  // [m] the particle's centre at the last force pass (drawn as the spring's end)
};

struct State {
  Particles particles;
  NeighborLists neighbors;
  // N x 6, [i * 6 + side], side = 2 axis + upper; empty when no side of the box is a wall (80 bytes a
  // record: 480 bytes per particle that a periodic or open box never uses).
  std::vector<ContactHistory> wall_history;
  std::vector<LawState> wall_law;  // empty, or beside wall_history (LawState)
  // wall_history[6 i + side].active again, a byte a particle (bit `side`): the wall pass tests every particle against
  // each wall side, most of them far from it, and read from the (then 184-byte) records that test was 13 % of a powder
  // step (docs/performance.md, "The walls' flags beside their histories"). Whatever replaces or reorders wall_history
  // keeps it in step (mark_active_walls); the wall and floor passes make it again when its length is wrong. Not saved.
  std::vector<std::uint8_t> wall_active;
  double time = 0.0;  // [s]
  std::int64_t step = 0;
  EnergyLedger energy;
  EventLog events;
  Health health;
  EnergyWatch energy_watch;
  Vec3 total_moment = Vec3::Zero();  // [A m^2] at the last force pass (field work bookkeeping)
  // Viscous damping force and torque of the last force pass, per particle (empty without damping), the
  // Langevin noise included at T > 0: the dissipation of a step is booked with the trapezoid of the old and
  // new forces.
  std::vector<Vec3> damping_force;   // [N]
  std::vector<Vec3> damping_torque;  // [N m]
  bool forces_current = false;       // forces match the positions (set by a force pass)
  // The model changed (an edit, Simulation::set_model with ModelRefresh::Deferred) and what depends on it in this
  // state (forces, moments, the lid, the energy reference) waits for the next step, which brings it up to date first.
  bool model_change_pending = false;
  // Force the particles exert on each wall side at the last force pass [N], side = 2 axis + upper.
  std::array<Vec3, 6> wall_force{};
  double lid_height = 0.0;    // [m] z of the lid (pressure.method = lid)
  double lid_velocity = 0.0;  // [m/s] of the lid, set by the last force pass
  bool lid_placed = false;    // the lid sits on the packing (placed when switched on)
  // Protocol: the phase running (0 without a protocol), when it began, and whether all phases ran.
  int phase = 0;
  double phase_start_time = 0.0;  // [s]
  bool protocol_finished = false;
  bool overlaps_expected = false;  // a phase is removing overlaps: the overlap check is off
  double last_time_step = 0.0;     // [s] the step just made (overdamped steps may be shortened)
  // First time since the phase began at which <cos theta> of the easy axes reached 0.95 (tau_0.95).
  std::optional<double> alignment_time;  // [s]
  DipoleHistory dipole_history;          // magnetics.force_interval > 1
  // Beam bonds ([Voxel-beams], engine/bodies/bonds.hpp) and how many have broken since t = 0.
  std::vector<Bond> bonds;
  std::uint64_t broken_bonds = 0;
  Clumps clumps;    // rigid clumps of pebbles ([PFC-dipole], engine/bodies/clumps.hpp)
  DragSpring drag;  // the user's drag spring, when active
};

// Sets wall_active from the wall histories' flags (after wall_history was replaced, resized or reordered as a whole):
// one byte a particle, or none when there are no wall histories.
void mark_active_walls(State& state);

// The heap memory a copy of `state` takes (its arrays, at their sizes), in bytes: what the history of a
// session (engine/session/history.hpp) counts against its budget.
size_t memory_bytes(const State& state);

}  // namespace lodestone
