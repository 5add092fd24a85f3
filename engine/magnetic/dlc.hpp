#pragma once
// Dipolar layer correction (issue 25; docs/physics.md, "Layer correction for slabs"): dipoles in a slab, periodic
// along x and y and finite along z, summed by a 3-D method (Ewald or P3M, conducting surroundings) in a box of
// height Lz that leaves an empty gap above the slab, plus this correction, which takes off the image layers the 3-D
// sum adds at z shifts n Lz (n != 0) and adds the planar (Yeh-Berkowitz) surface term. After Brodka, Chem. Phys.
// Lett. 400, 62 (2004) and the ELC of Arnold, de Joannis & Holm, J. Chem. Phys. 117, 2496 (2002), in our own
// derivation (docs/physics.md). SI, c = mu0/4pi, A = Lx Ly, V = A Lz, M = sum_i m_i:
//   U_2D = U_3D,tin foil + c 2 pi Mz^2 / V - c U_img
//   U_img = -(pi/A) sum_{k != 0} sum_{s = +1,-1} w(k) P_s(k) Q_s(k),   w(k) = 1 / (k (exp(k Lz) - 1))
//   P_s(k) = sum_i (m_i.g_s) exp(i k.rho_i + s k z_i),  Q_s(k) = sum_j (m_j.g_s) exp(-i k.rho_j - s k z_j),
//   g_s = (i kx, i ky, s k), k = 2 pi (nx/Lx, ny/Ly) in the plane, rho = (x, y), z measured from the slab's middle.
// U_img is the interaction of every dipole with all the image layers of all dipoles (its own included); forces and
// fields follow by differentiating it.
//
// Truncation: a mode k carries the factor k^2 exp(-k (Lz - h)) in the forces and fields (h the slab thickness), and
// the modes of a ring of radius k number ~k; the sum stops at the k_c where (k_c/k1)^3 exp(-(k_c - k1)(Lz - h))
// falls to `accuracy` (k1 = 2 pi / max(Lx, Ly), the first mode): the modes dropped are that fraction of the first
// (docs/physics.md).

#include "engine/core/math.hpp"
#include "engine/core/model.hpp"

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

namespace lodestone {

// A slab: periodic along x and y, not along z (walls or open sides). The Ewald and P3M methods then sum the
// particles in the 3-D periodic box (Lx, Ly, 2 H), H the box's height (a gap of at least H above any slab of
// particles inside it), and add the layer correction.
inline bool is_slab(const Model& m) {
  return m.box.periodic(0) && m.box.periodic(1) && !m.box.periodic(2);
}
// The 3-D periodic box the Ewald and P3M sums run in: the periodic lengths, or the slab's box above.
inline Vec3 ewald_box(const Model& m) {
  if (!is_slab(m)) return m.periodic_length;
  return Vec3(m.periodic_length.x(), m.periodic_length.y(), 2.0 * (m.box.max.z() - m.box.min.z()));
}
// The layer correction's truncation bound for a method accuracy: 1 % of it (the correction is cheap: a few
// hundred modes when the gap is about the box's width).
inline double layer_correction_accuracy(double method_accuracy) {
  return 1e-2 * method_accuracy;
}

struct DlcSystem {
  std::span<const Vec3> position;  // [m]
  std::span<const Vec3> moment;    // [A m^2]
  Vec3 box_length = Vec3::Zero();  // [m] Lx, Ly (periodic) and Lz, the 3-D method's period along z (slab + gap)
  double accuracy = 1e-6;          // the truncation bound above
};

// The mode cutoff k_c [1/m] of the bound; infinite if the slab has no gap (h >= Lz).
double dlc_mode_cutoff(const DlcSystem& system);

class LayerCorrection;
// build and add_particle_terms in one call.
double add_dlc_correction(const DlcSystem& system, Vec3* force, Vec3* field);

class LayerCorrection {
 public:
  // The modes within the cutoff and their sums P_s, Q_s over the particles.
  void build(const DlcSystem& system);
  // Adds the correction's force [N] and field [T] (either may be nullptr) and returns its energy [J]: add these to
  // a 3-D Ewald or P3M result with conducting surroundings in the box (Lx, Ly, Lz).
  double add_particle_terms(Vec3* force, Vec3* field) const;
  // The correction's field [T] at a free point x (a probe's interaction with the image layers, and the planar
  // surface field).
  Vec3 field_at(const Vec3& x) const;
  size_t mode_count() const { return modes_.size(); }

 private:
  struct Mode {
    double kx = 0.0, ky = 0.0, k = 0.0;
    double w = 0.0;                   // -(2 pi / A) / (k (exp(k Lz) - 1))
    std::complex<double> p[2], q[2];  // s = +1, -1
  };
  std::vector<Vec3> position_, moment_;
  std::vector<Mode> modes_;
  double z_mid_ = 0.0, volume_ = 0.0, mz_ = 0.0;
};

}  // namespace lodestone
