#pragma once
// The systems the periodic sums are built from for a model's particles. The force pass (magnetics.cpp) and the
// field view (field_evaluation.cpp) must sum the same moments in the same box with the same parameters, so both
// build them here. The systems refer to the particles' arrays (spans): they must outlive the system's use.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/magnetic/dlc.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/magnetic/p3m.hpp"

#include <optional>

namespace lodestone {

// Whether the P3M sum takes its real-space pairs from the neighbour module's dipole Verlet list, built to the
// real-space cutoff plus the skin: when every pair within that range meets only its nearest image, i.e. the range
// is at most half the period along each axis of ewald_box (a slab's z period is twice its height, and its particles
// stay within the height). In smaller boxes the cutoff reaches further images, and the sum walks cells of its own.
inline bool p3m_pairs_from_list(const Model& m) {
  return m.magnetics.method == DipoleMethod::P3M && m.p3m.real_cutoff > 0.0 &&
         2.0 * (m.p3m.real_cutoff + m.skin) <= ewald_box(m).minCoeff();
}

// The centre distance the dipole Verlet list is built to (the skin is added to it): the cutoff method's cutoff, or
// P3M's real-space cutoff when it uses the list; none for the other methods.
inline std::optional<double> dipole_list_cutoff(const Model& m) {
  if (m.magnetics.method == DipoleMethod::Cutoff) return m.dipole_cutoff;
  if (p3m_pairs_from_list(m)) return m.p3m.real_cutoff;
  return std::nullopt;
}

// The Ewald sum of the particles' moments in ewald_box (the periodic box, or a slab's box with its gap). Clumps are
// left to the caller: the force pass takes pebbles of one clump out of each other's nearest images, the field view
// does not (engine/magnetic/field_evaluation.hpp).
inline EwaldSystem ewald_system_of(const Model& model, const Particles& p) {
  return {.position = p.position,
          .moment = p.moment,
          .box_length = ewald_box(model),
          .split = model.ewald,
          .surroundings = model.magnetics.ewald_surroundings};
}

// The P3M sum, likewise (prepare_model refuses p3m with clumps).
inline P3MSystem p3m_system_of(const Model& model, const Particles& p) {
  return {.position = p.position,
          .moment = p.moment,
          .box_length = ewald_box(model),
          .tuning = model.p3m,
          .surroundings = model.magnetics.ewald_surroundings};
}

// A slab's layer correction (engine/magnetic/dlc.hpp), truncated at 1 % of the 3-D method's accuracy.
inline DlcSystem layer_correction_system_of(const Model& model, const Particles& p) {
  const double accuracy =
      model.magnetics.method == DipoleMethod::P3M ? model.magnetics.p3m_accuracy : model.magnetics.ewald_accuracy;
  return {.position = p.position,
          .moment = p.moment,
          .box_length = ewald_box(model),
          .accuracy = layer_correction_accuracy(accuracy)};
}

}  // namespace lodestone
