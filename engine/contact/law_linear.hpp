#pragma once
// Linear contact law with dashpot ([PFC-dipole], PFC "linear" model).
// Parameters: kn, ks (materials in series, or deformability emod/kratio), fric (minimum),
// rgap, lin_mode, dp_nratio, dp_sratio, dp_mode. Internal state: shear displacement, the
// incremental normal force, the slip flag.
//
// Sign convention: the engine's normal force fn >= 0 is compressive (PFC writes -F_n).
//  - active when the surface gap g = -overlap is at most rgap
//  - absolute mode: fn = kn (rgap - g); incremental: fn += kn (g_previous - g), starting at 0
//  - no tension in the linear part: fn = max(fn, 0)
//  - dashpot: Fd = -2 beta sqrt(m_c k) v, with the no-tension / slip-cut options of dp_mode
//  - shear, dp_mode 0 and 1 ([PFC-dipole]): Fs = -ks us, |Fs| <= fric fn; beyond it the spring slips (us
//    is shortened) and the full shear dashpot adds to it; with fric = 0 no tangential force at all (the
//    dashpot too: friction 0 means frictionless in every mode)
//  - shear, slip-cut dp_mode 2 and 3: Coulomb's limit on the whole tangential force, |Fs + Fd_s| <=
//    fric (fn + Fd_n) (the normal force acting, >= 0); beyond it the contact slides: the shear dashpot is
//    cut and the spring holds the limit (contact_geometry.hpp, bound_shear_forces)

#include "engine/contact/contact_geometry.hpp"
#include "engine/core/model.hpp"

namespace lodestone {

struct LinearStiffness {
  double kn = 0.0;  // [N/m]
  double ks = 0.0;  // [N/m]
};

// kn, ks of one contact: the pair table, or the deformability rule kn = A E* / L with
// A = pi min(Ri, Rj)^2 and L = Ri + Rj (a wall: A = pi Ri^2, L = Ri), ks = kn / kratio.
LinearStiffness linear_stiffness(const LinearLawParameters& law, const PairCoefficients& pair,
                                 const ContactGeometry& g);

// True when the contact is active at this geometry.
inline bool linear_active(const LinearLawParameters& law, const ContactGeometry& g) {
  return -g.overlap <= law.rgap;
}

// The linear law's dashpot jumps on at the moment the contact forms (c v0 at zero overlap): its first sample is
// weighted by onset_weight (contact_geometry.hpp) with depth = rgap - gap at t_{n+1}. For the contact stage to put
// in ContactGeometry::first_sample_weight when a contact forms in a velocity Verlet step.
double linear_onset_weight(const LinearLawParameters& law, const ContactGeometry& g, double dt);

// The same at the opening: a dashpot that still acts when the contact opens (a normal dashpot that may pull,
// dp_mode 0 and 2; a full shear dashpot, dp_mode 0 and 1) was sampled last at t_n, standing for it until
// t_{n+1/2}, while it acts until t0 = t_n + s' dt (s' from the gap at t_{n+1} and the separation speed).
// Returns the force on body i that makes up the difference at t_{n+1}: (s' - 1/2) times the last dashpot
// force's parts that act until the opening (`h` is the contact's history before it is cleared).
Vec3 linear_exit_dashpot(const LinearLawParameters& law, const ContactGeometry& g, const ContactHistory& h, double dt);

// Evaluates the law; `h.shear` must already hold this step's shear displacement and
// `previous_shear` the one before this step's increment. Updates h.
ContactResponse linear_contact(const LinearLawParameters& law, const PairCoefficients& pair, const ContactGeometry& g,
                               ContactHistory& h, const Vec3& previous_shear, bool newly_active);

}  // namespace lodestone
