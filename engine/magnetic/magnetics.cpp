#include "engine/magnetic/magnetics.hpp"

#include "engine/bodies/clumps.hpp"
#include "engine/magnetic/dipole.hpp"
#include "engine/magnetic/dipole_kernel.hpp"
#include "engine/magnetic/dipole_tree.hpp"
#include "engine/magnetic/dlc.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/magnetic/p3m.hpp"
#include "engine/magnetic/periodic_systems.hpp"
#include "engine/magnetic/stoner_wohlfarth.hpp"

#include <algorithm>
#include <utility>

namespace lodestone {
namespace {

// Applied field at a particle (uniform program plus the constant gradient).
Vec3 applied_field(const Model& model, const Vec3& b_uniform, const Vec3& x) {
  return b_uniform + model.field.gradient * (x - model.field.gradient_origin);
}

DipoleTreeSettings tree_settings(const Model& model) {
  DipoleTreeSettings s;
  s.opening_angle = model.magnetics.tree_opening_angle;
  s.cap = model.magnetics.dipole_cap;
  return s;
}

// The Ewald sum of the state's moments (prepare_model refuses it unless the box is periodic along all three axes or
// a slab), pebbles of one clump taken out of each other's nearest images.
EwaldSystem ewald_system(const Model& model, const Particles& p) {
  EwaldSystem s = ewald_system_of(model, p);
  if (p.clump.size() == p.size()) s.clump = p.clump;
  return s;
}

// In a slab (engine/magnetic/dlc.hpp): adds the layer correction's force (if force is given) and field to the 3-D
// sum's; returns its energy (0 in a fully periodic box).
double add_layer_correction(const Model& model, const Particles& p, Vec3* force, Vec3* field) {
  if (!is_slab(model)) return 0.0;
  return add_dlc_correction(layer_correction_system_of(model, p), force, field);
}

// The Ewald or P3M sum of the particles (Sum: EwaldSum or P3MSum) plus, in a slab, the layer correction: adds the
// forces (if force is given) and the fields; returns the energy. Per target, as the sums are
// (engine/magnetic/ewald.hpp, p3m.hpp): the same bits for any number of threads.
template <class Sum, class System>
double add_periodic_sum(const Model& model, const Particles& p, const System& system, Vec3* force, Vec3* field,
                        ThreadTeam& team) {
  Sum sum;
  sum.build(system, &team);
  const double energy = sum.add_particle_terms(force, field, team);
  return energy + add_layer_correction(model, p, force, field);
}

// The P3M system of the state, with the real-space pairs from the dipole Verlet list when the list holds them.
P3MSystem p3m_system(const Model& model, const State& state) {
  P3MSystem s = p3m_system_of(model, state.particles);
  if (p3m_pairs_from_list(model)) {
    s.pairs = &state.neighbors.dipole_pairs;
    s.pair_bands = current_dipole_bands(state.neighbors, state.particles.size());
  }
  return s;
}

// Dipole fields of all other moments at each particle (cutoff list, direct sum, tree or Ewald sum).
void add_dipole_fields(const Model& model, const State& state, std::vector<Vec3>& b, ThreadTeam& team) {
  const Particles& p = state.particles;
  auto pair = [&](size_t i, size_t j, double cutoff_sq) {
    const Vec3 r = minimum_image(model, p.position[i] - p.position[j]);
    const double rsq = r.squaredNorm();
    if (rsq > cutoff_sq || rsq == 0.0) return;
    // The pairs the force pass leaves out (activity distance) do not polarise each other either.
    const auto& activity = model.magnetics.activity_distance;
    if (activity && std::sqrt(rsq) - p.radius[i] - p.radius[j] > *activity) return;
    const double cap = model.magnetics.dipole_cap;
    const Vec3 rc = rsq < cap * cap ? Vec3(r * (cap / std::sqrt(rsq))) : r;
    b[i] += dipole_field(rc, p.moment[j]);
    b[j] += dipole_field(-rc, p.moment[i]);
  };
  if (model.magnetics.method == DipoleMethod::Cutoff) {
    const double cutoff_sq = model.dipole_cutoff * model.dipole_cutoff;
    for (const IndexPair& pr : state.neighbors.dipole_pairs)
      pair(static_cast<size_t>(pr.i), static_cast<size_t>(pr.j), cutoff_sq);
  } else if (model.magnetics.method == DipoleMethod::Direct) {
    for (size_t i = 0; i < p.size(); ++i)
      for (size_t j = i + 1; j < p.size(); ++j) pair(i, j, INFINITY);
  } else if (model.magnetics.method == DipoleMethod::Tree) {
    // Open boundaries and no activity distance (validate_preset refuses both with the tree).
    DipoleTree tree;
    tree.build(p.position, p.moment, p.clump, tree_settings(model));
    for (size_t i = 0; i < p.size(); ++i) b[i] += tree.field(i);
  } else if (model.magnetics.method == DipoleMethod::Ewald) {
    add_periodic_sum<EwaldSum>(model, p, ewald_system(model, p), nullptr, b.data(), team);
  } else if (model.magnetics.method == DipoleMethod::P3M) {
    add_periodic_sum<P3MSum>(model, p, p3m_system(model, state), nullptr, b.data(), team);
  }
}

bool any_induced_material(const Model& model) {
  return std::any_of(model.materials.begin(), model.materials.end(),
                     [](const Material& m) { return m.moment_model == MomentModel::Induced; });
}

}  // namespace

bool books_moment_work(const Model& model) {
  return model.magnetics.method != DipoleMethod::Off && any_induced_material(model);
}

void book_moment_work(const Model& model, State& state, const std::vector<Vec3>& before, double dt, ThreadTeam& team) {
  Particles& p = state.particles;
  if (dt <= 0.0 || before.size() != p.size()) return;
  // The midpoint of the step: x_n = x_n+1 - dt v_n+1/2 in velocity Verlet; the functional is quadratic in the
  // moments, so their mean is its midpoint value. The state is moved there for the field pass and put back.
  const std::vector<Vec3> position = p.position, moment = p.moment;
  for (size_t i = 0; i < p.size(); ++i) {
    p.position[i] -= 0.5 * dt * p.velocity[i];
    p.moment[i] = 0.5 * (moment[i] + before[i]);
  }
  const double t = state.time - 0.5 * dt;
  std::vector<Vec3> b(p.size());
  for (size_t i = 0; i < p.size(); ++i) b[i] = applied_field(model, uniform_field(model.field, t), p.position[i]);
  add_dipole_fields(model, state, b, team);
  double work = 0.0;
  for (size_t i = 0; i < p.size(); ++i) {
    const Material& mat = model.materials[static_cast<size_t>(p.material[i])];
    if (mat.moment_model != MomentModel::Induced || mat.susceptibility <= 0.0) continue;  // chi = 0: m = 0 always
    const Vec3 residual = p.moment[i] * (mu0 / (mat.susceptibility * sphere_volume(p.radius[i]))) - b[i];
    work += residual.dot(moment[i] - before[i]);
  }
  p.position = position;
  p.moment = moment;
  state.energy.field_work += work;
}

void update_moments(const Model& model, State& state, ThreadTeam& team) {
  Particles& p = state.particles;
  const Vec3 b_uniform = uniform_field(model.field, state.time);
  // Each particle's moment is its own: the particles are split between the threads, in parts of up to 16 a thread
  // (as the integration's sweeps: a thread that ends its share first then waits at most a short part, inside its
  // poll; one part a thread held the stage to 1.67x on two).
  // Parts of 2 000 particles at least, a rotation each; of 500 where a moment may follow the field (Stoner-Wohlfarth),
  // its minimum found each time (70 ns or so): parts of 2 000 left 10 000 of them five parts, 3.7x on 16 threads in
  // the rehearsal.
  const bool turning = std::any_of(model.materials.begin(), model.materials.end(),
                                   [](const Material& m) { return m.moment_model == MomentModel::StonerWohlfarth; });
  const int parts = fine_parts_for(team, p.size(), turning ? 500 : 2000, 16);
  const std::vector<size_t> bounds = split_evenly(p.size(), parts);
  std::vector<char> induced_in_part(static_cast<size_t>(parts), 0);
  team.run(parts, [&](int part) {
    for (size_t i = bounds[static_cast<size_t>(part)]; i < bounds[static_cast<size_t>(part) + 1]; ++i) {
      const Material& mat = model.materials[static_cast<size_t>(p.material[i])];
      switch (mat.moment_model) {
        case MomentModel::Rigid: p.moment[i] = p.orientation[i] * p.moment_body[i]; break;
        case MomentModel::StonerWohlfarth: {
          // The previous direction picks the branch; a particle starts with its moment on the easy axis.
          const Vec3 n = p.easy_axis(i);
          const double m_norm = p.moment[i].norm();
          const Vec3 previous = m_norm > 0.0 ? Vec3(p.moment[i] / m_norm) : n;
          const Vec3 b = applied_field(model, b_uniform, p.position[i]);
          const double scale = anisotropy_field_tesla(mat.anisotropy, mat.magnetization);
          p.moment[i] = mat.magnetization * sphere_volume(p.radius[i]) * sw_moment_direction(n, b, scale, previous);
          break;
        }
        case MomentModel::Induced:
          p.moment[i] =
              (mat.susceptibility * sphere_volume(p.radius[i]) / mu0) * applied_field(model, b_uniform, p.position[i]);
          induced_in_part[static_cast<size_t>(part)] = 1;
          break;
      }
    }
  });
  const bool any_induced = std::find(induced_in_part.begin(), induced_in_part.end(), 1) != induced_in_part.end();
  if (!any_induced || model.magnetics.method == DipoleMethod::Off) return;
  // Induced moments in the applied field plus their neighbours' fields: Jacobi fixed-point passes.
  std::vector<Vec3> b(p.size());
  for (int pass = 0; pass < model.magnetics.induced_iterations; ++pass) {
    for (size_t i = 0; i < p.size(); ++i) b[i] = applied_field(model, b_uniform, p.position[i]);
    add_dipole_fields(model, state, b, team);
    for (size_t i = 0; i < p.size(); ++i) {
      const Material& mat = model.materials[static_cast<size_t>(p.material[i])];
      if (mat.moment_model == MomentModel::Induced)
        p.moment[i] = (mat.susceptibility * sphere_volume(p.radius[i]) / mu0) * b[i];
    }
  }
}

namespace {

inline bool moment_is_induced(const Model& model, const Particles& p, size_t i) {
  return model.materials[static_cast<size_t>(p.material[i])].moment_model == MomentModel::Induced;
}

// Adds the pair (i, j) to `force` and `torque` (per particle) if it is within reach; returns its energy.
// The general pair: clumps, activity distance and induced moments.
inline double add_dipole_pair(const Model& model, const Particles& p, size_t i, size_t j, double cutoff_sq, Vec3* force,
                              Vec3* torque) {
  const Vec3& mi = p.moment[i];
  const Vec3& mj = p.moment[j];
  if (mi.squaredNorm() == 0.0 || mj.squaredNorm() == 0.0) return 0.0;
  if (same_clump(p, i, j)) return 0.0;  // forces inside a rigid clump cancel (engine/bodies/clumps.hpp)
  const Vec3 separation = minimum_image(model, p.position[i] - p.position[j]);
  const double rsq = separation.squaredNorm();
  if (rsq > cutoff_sq || rsq == 0.0) return 0.0;
  if (model.magnetics.activity_distance) {
    const double gap = std::sqrt(rsq) - p.radius[i] - p.radius[j];
    if (gap > *model.magnetics.activity_distance) return 0.0;
  }
  const DipolePair d = dipole_pair(separation, mi, mj, model.magnetics.dipole_cap);
  force[i] += d.force_i;
  force[j] -= d.force_i;
  // An induced moment is not attached to the body: it turns with the field, the sphere does not.
  if (!moment_is_induced(model, p, i)) torque[i] += d.torque_i;
  if (!moment_is_induced(model, p, j)) torque[j] += d.torque_j;
  return d.energy;
}

// The SIMD kernels' view of the scene (engine/magnetic/dipole_kernel.hpp).
DipoleKernelInput plain_kernel_input(const Model& model, const Particles& p, const IndexPair* pairs, double cutoff) {
  DipoleKernelInput in{pairs,  p.position.data(),          p.moment.data(),
                       cutoff, model.magnetics.dipole_cap, model.periodic_length};
  in.box_min = model.box.min;
  return in;
}

// The cutoff kernel's view: with whether every position is in the periodic box (so that particles far from its faces
// may skip the minimum image), the sweep split over the team.
DipoleKernelInput cutoff_kernel_input(const Model& model, const Particles& p, const IndexPair* pairs,
                                      ThreadTeam& team) {
  DipoleKernelInput in = plain_kernel_input(model, p, pairs, model.dipole_cutoff);
  const std::vector<char> in_box = results_of_parts<char>(team, p.size(), 4096, [&](size_t begin, size_t end) {
    return static_cast<char>(
        positions_in_periodic_box(p.position.data() + begin, end - begin, model.box.min, model.periodic_length));
  });
  in.positions_in_box = std::find(in_box.begin(), in_box.end(), char{0}) == in_box.end();
  return in;
}

// Pairs per thread below which a pass stays on one thread.
constexpr size_t kPairGrain = 10000;

// The pair sum, added to `force` and `torque`; returns the dipole energy. The cutoff list is split
// between the team's threads (engine/core/thread_team.hpp).
double dipole_pass(const Model& model, const State& state, Vec3* force, Vec3* torque, ThreadTeam& team) {
  const Particles& p = state.particles;
  double energy = 0.0;
  switch (model.magnetics.method) {
    case DipoleMethod::Off: break;
    case DipoleMethod::Cutoff: {
      const double cutoff_sq = model.dipole_cutoff * model.dipole_cutoff;
      const std::vector<IndexPair>& pairs = state.neighbors.dipole_pairs;
      // The common case (no clumps, no activity distance, no induced moments) runs the SIMD kernel.
      const bool plain = state.clumps.id.empty() && !model.magnetics.activity_distance && !any_induced_material(model);
      const DipoleKernelInput kernel = plain ? cutoff_kernel_input(model, p, pairs.data(), team) : DipoleKernelInput{};
      const std::vector<double> energies = run_pair_parts<double>(
          team, pairs.size(), kPairGrain, p.size(), force, torque,
          [&, bands = current_dipole_bands(state.neighbors, p.size())](size_t begin, size_t end) {
            return pair_list_window(bands, pairs.data(), begin, end, p.size());
          },
          [&](int, size_t begin, size_t end, Vec3* f, Vec3* t) {
            if (plain) return dipole_cutoff_kernel(kernel, begin, end, f, t);
            double e = 0.0;
            for (size_t k = begin; k < end; ++k)
              e += add_dipole_pair(model, p, static_cast<size_t>(pairs[k].i), static_cast<size_t>(pairs[k].j),
                                   cutoff_sq, f, t);
            return e;
          });
      for (double e : energies) energy += e;
      break;
    }
    case DipoleMethod::Direct: {
      const size_t n = p.size();
      const bool plain = state.clumps.id.empty() && !model.magnetics.activity_distance && !any_induced_material(model);
      if (!plain) {
        for (size_t i = 0; i < n; ++i)
          for (size_t j = i + 1; j < n; ++j) energy += add_dipole_pair(model, p, i, j, INFINITY, force, torque);
        break;
      }
      // The SIMD kernel over all pairs, split between the threads by equal numbers of pairs: particle i
      // (pairs (i, j > i), of which there are before it c(i) = i n - i (i + 1) / 2) goes to the part whose
      // range of pair numbers holds c(i).
      const auto pairs_before = [n](size_t i) { return i * n - i * (i + 1) / 2; };
      const auto first_particle_from = [&](size_t pair) {
        size_t lo = 0, hi = n;  // the smallest i with c(i) >= pair
        while (lo < hi) {
          const size_t mid = (lo + hi) / 2;
          if (pairs_before(mid) >= pair)
            hi = mid;
          else
            lo = mid + 1;
        }
        return lo;
      };
      const DipoleKernelInput kernel = plain_kernel_input(model, p, nullptr, 0.0);
      // A part's pairs (i, j > i) touch the particles from its first i on.
      const auto window = [&](size_t begin, size_t) { return ParticleWindow{first_particle_from(begin), n}; };
      const std::vector<double> energies = run_pair_parts<double>(
          team, pairs_before(n), kPairGrain, n, force, torque, window,
          [&](int, size_t begin, size_t end, Vec3* f, Vec3* t) {
            return dipole_all_pairs_kernel(kernel, n, first_particle_from(begin), first_particle_from(end), f, t);
          });
      for (double e : energies) energy += e;
      break;
    }
    case DipoleMethod::Tree: {
      // Per target (engine/magnetic/dipole_tree.hpp): each particle gets its own force, torque and half of its pair
      // energies; the shares are summed in index order, so the result does not depend on a split of targets.
      const size_t n = p.size();
      DipoleTree tree;
      tree.build(p.position, p.moment, p.clump, tree_settings(model));
      std::vector<unsigned char> torque_free(n);
      for (size_t i = 0; i < n; ++i) torque_free[i] = moment_is_induced(model, p, i) ? 1 : 0;
      std::vector<double> share(n);
      // Targets write only their own slots: split between the threads, the result is the same bits.
      for_each_range(team, n, 256, [&](size_t begin, size_t end) {
        tree.add_forces(begin, end, torque_free, force, torque, share.data());
      });
      for (size_t i = 0; i < n; ++i) energy += share[i];
      break;
    }
    case DipoleMethod::Ewald:
    case DipoleMethod::P3M: {
      std::vector<Vec3> b(p.size(), Vec3::Zero());
      energy = model.magnetics.method == DipoleMethod::Ewald
                   ? add_periodic_sum<EwaldSum>(model, p, ewald_system(model, p), force, b.data(), team)
                   : add_periodic_sum<P3MSum>(model, p, p3m_system(model, state), force, b.data(), team);
      for (size_t i = 0; i < p.size(); ++i)
        if (!moment_is_induced(model, p, i)) torque[i] += p.moment[i].cross(b[i]);
      break;
    }
  }
  return energy;
}

}  // namespace

void compute_dipole_forces(const Model& model, State& state, ThreadTeam& team) {
  Particles& p = state.particles;
  state.energy.dipole = dipole_pass(model, state, p.force.data(), p.torque.data(), team);
}

// [Dominik-Nubold] App. A.8 with a first-order series (eq. 51, m = 1), the derivative taken from the last two
// full passes (engine/magnetic/magnetics.hpp). Force passes are counted, not steps, so that Heun's trial pass
// (made before the step counter moves) and the pass after it agree on whether they are full.
void apply_dipole_forces(const Model& model, State& state, bool trial, ThreadTeam& team) {
  const int k = model.magnetics.force_interval;
  if (k <= 1 || model.magnetics.method == DipoleMethod::Off) {
    compute_dipole_forces(model, state, team);  // the single-step path, untouched
    return;
  }
  Particles& p = state.particles;
  DipoleHistory& h = state.dipole_history;
  const size_t n = p.size();
  if (h.stored > 0 && h.force_last.size() != n) h.clear();  // particles added or removed without a reset
  const bool full = h.stored < 2 || h.passes_since_full + 1 >= k;
  if (trial) {
    // Heun's predictor: full with the pass that follows it, extrapolated to the same time otherwise.
    if (full) {
      compute_dipole_forces(model, state, team);
      return;
    }
  } else if (full) {
    // A second full pass at the same time (forces recomputed in place) replaces the newer one, so that
    // t_b - t_a never vanishes.
    if (h.stored == 0 || state.time != h.time_last) {
      std::swap(h.force_previous, h.force_last);
      std::swap(h.torque_previous, h.torque_last);
      h.time_previous = h.time_last;
      h.energy_previous = h.energy_last;
      h.stored = std::min(h.stored + 1, 2);
    }
    h.force_last.assign(n, Vec3::Zero());
    h.torque_last.assign(n, Vec3::Zero());
    h.energy_last = dipole_pass(model, state, h.force_last.data(), h.torque_last.data(), team);
    h.time_last = state.time;
    h.passes_since_full = 0;
    for (size_t i = 0; i < n; ++i) {
      p.force[i] += h.force_last[i];
      p.torque[i] += h.torque_last[i];
    }
    state.energy.dipole = h.energy_last;
    return;
  } else {
    ++h.passes_since_full;
  }
  // F(t) = F_b + w (F_b - F_a), w = (t - t_b) / (t_b - t_a).
  const double w = (state.time - h.time_last) / (h.time_last - h.time_previous);
  for (size_t i = 0; i < n; ++i) {
    p.force[i] += h.force_last[i] + w * (h.force_last[i] - h.force_previous[i]);
    p.torque[i] += h.torque_last[i] + w * (h.torque_last[i] - h.torque_previous[i]);
  }
  state.energy.dipole = h.energy_last + w * (h.energy_last - h.energy_previous);
}

}  // namespace lodestone
