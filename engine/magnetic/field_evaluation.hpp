#pragma once
// The total magnetic field B(x) [T] at arbitrary points (issue 22, "See the field"; docs/physics.md, "Field
// evaluation"): the applied field program at the state's time (engine/magnetic/field.hpp) plus the field of
// every moment ([PFC-dipole] eqs. 6-7, [Dominik-Nubold] eq. 39 with mu0/4pi restored):
//   B(x) = B_applied(t, x) + sum_j c0/r^3 [3 n (n.m_j) - m_j],   r = x - x_j (minimum image), n = r/|r|, c0 = mu0/4pi
// A point inside a particle (|x - x_j| < R_j) gets, for that particle's own term, the field inside a uniformly
// magnetised sphere, B_in = 2/3 mu0 M = 2 c0 m_j / R_j^3 (Jackson, Classical Electrodynamics, 3rd ed., eq.
// 5.104): outside such a sphere its field is exactly the point dipole's, so the total is the field of
// uniformly magnetised spheres everywhere, finite at the centres, with B.n continuous across each surface.
//
// Which moments are summed follows the force pass (magnetics.method, engine/magnetic/magnetics.hpp), or all of
// them exactly on request:
//   cutoff   the moments whose centre lies within model.dipole_cutoff of x (minimum image on periodic axes)
//   direct   all moments (minimum image on periodic axes)
//   tree     the Barnes-Hut tree of the force pass at the model's opening angle (DipoleTree::field_at; open
//            boundaries only, as for the forces); its relative error falls as theta^3 (docs/physics.md)
//   ewald    the dipolar Ewald sum of the force pass (engine/magnetic/ewald.hpp): all moments and all their periodic
//            images, with the surface term of vacuum surroundings when chosen; boxes periodic along x, y, z only
//   p3m      the P3M sum of the force pass (engine/magnetic/p3m.hpp): the mesh field interpolated at x plus the
//            real-space pairs, as accurate as the forces
//   (ewald and p3m in a slab, periodic along x and y only: plus the layer correction, engine/magnetic/dlc.hpp)
//   off      none: the field the particles feel is the applied one alone
//   exact    (FieldSum::Exact) all moments, whatever the method: the reference
// Left out on purpose: dipole_cap (it caps centre distances between two particles; a point outside every
// sphere is at least R_j from each centre, and inside, the interior field takes over), the activity distance
// (a gap between two surfaces; a point has none) and clumps (each pebble's moment counts: the field of a bar
// magnet is the sum of its pebbles').
//
// The evaluator copies what it needs (positions, moments, radii, the field program at the state's time) and
// builds its tree or cell grid once, so many points (a slice, field lines) cost one build. Each point's sum
// is taken in a fixed order and written only to its own slot: results do not depend on the thread count.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"
#include "engine/magnetic/dipole_tree.hpp"
#include "engine/magnetic/dlc.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/magnetic/p3m.hpp"
#include "engine/magnetic/point_grid.hpp"

#include <span>
#include <vector>

namespace lodestone {

// Which moments are summed: as the force pass does (magnetics.method), or all of them.
enum class FieldSum : int { AsForces, Exact };

struct FieldEvaluationSettings {
  FieldSum sum = FieldSum::AsForces;
  bool applied = true;  // include the applied field program B_applied(t, x)
  bool moments = true;  // include the particles' moments
};

class FieldEvaluator {
 public:
  // Copies the state's particles (positions [m], moments [A m^2], radii [m]) and the applied field at
  // state.time; the model must have been prepared (dipole_cutoff, periodic_length).
  FieldEvaluator(const Model& model, const State& state, const FieldEvaluationSettings& settings = {});

  // B at x [T].
  Vec3 at(const Vec3& x) const;
  // B at x with every particle's term the point dipole's, inside spheres too: the continuation of the field
  // outside them, smooth up to the centres. Field lines are traced through it (engine/analysis/field_lines.hpp),
  // so that the RK4 stages of a step that ends on a surface are not bent by the interior field.
  Vec3 outside_at(const Vec3& x) const;
  // B at each point into field (same length), the points split between the team's threads.
  void evaluate(std::span<const Vec3> points, std::span<Vec3> field, ThreadTeam& team = ThreadTeam::serial()) const;
  // The applied part alone at x [T].
  Vec3 applied_at(const Vec3& x) const;
  // Index of a particle whose sphere holds x (|x - x_j| < R_j, minimum image), or -1; the lowest index when
  // several overlap.
  long particle_at(const Vec3& x) const;

  // The method in use after FieldSum::Exact is applied (Direct for exact).
  DipoleMethod method() const { return method_; }
  size_t particle_count() const { return radius_.size(); }

 private:
  // The moments' part; `interior`: a sphere holding x gives its interior field.
  Vec3 moments_at(const Vec3& x, bool interior) const;

  DipoleMethod method_ = DipoleMethod::Off;
  bool applied_ = true;
  Vec3 b_uniform_ = Vec3::Zero();        // [T] the program's uniform part at the state's time
  Mat3 gradient_ = Mat3::Zero();         // [T/m]
  Vec3 gradient_origin_ = Vec3::Zero();  // [m]
  Vec3 periodic_length_ = Vec3::Zero();  // [m] 0 on open axes
  double cutoff_ = 0.0;                  // [m] cutoff method: centre distance
  double max_radius_ = 0.0;              // [m]
  // Particles as structures of arrays (the summing loops vectorise over them).
  std::vector<double> px_, py_, pz_, mx_, my_, mz_, radius_;
  std::vector<Vec3> position_;
  PointGrid grid_;     // cells >= the cutoff (cutoff method) or >= the largest radius (finding the sphere at x)
  DipoleTree tree_;    // tree method
  EwaldSum ewald_;     // ewald method
  P3MSum p3m_;         // p3m method
  bool slab_ = false;  // ewald or p3m in a slab: plus the layer correction
  LayerCorrection layers_;
};

// B at each point for the state's scene: a FieldEvaluator built and used once.
std::vector<Vec3> evaluate_field(const Model& model, const State& state, std::span<const Vec3> points,
                                 const FieldEvaluationSettings& settings = {}, ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
