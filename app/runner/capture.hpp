#pragma once
// The two-body capture experiment of [Dominik-Nubold] (Dominik & Nubold), Sec. 3.1 and 4.1: one magnetised
// grain shot at an identical one at rest, with impact parameter b and relative speed v, random
// initial orientations; a collision is the first contact. Run many times per (b, v), the fraction
// that collide is the orientation-averaged collision probability P(b, v) of the paper's Fig. 3, and
// sigma(v) = 2 pi int P(b) b db is compared with the central-potential cross section (eqs. 10-14);
// the correction factor c of eq. 27 is fitted over the speeds (fit_correction_factor).
//
// The closed forms, re-derived from eq. 10 ([Dominik-Nubold]'s eq. 13 is printed as b_max where it is
// b_max^2; docs/references.md, known slips). With the potential parameter alpha = (mu0/4pi) 2 mu^2 (eq. 7)
// and the reduced mass mbar = m/2 (eq. 8), U_eff(r) = mbar b^2 v^2 / (2 r^2) - alpha / r^3 has its
// maximum at r* = 3 alpha / (mbar b^2 v^2), of height U0 = (mbar b^2 v^2)^3 / (54 alpha^2) (eq. 11).
// Capture needs the energy mbar v^2 / 2 to exceed U0 (eq. 12):
//   b_max^2 = 3 (alpha / (mbar v^2))^(2/3),   sigma_m = pi b_max^2 = 3 pi (alpha / (mbar v^2))^(2/3) (eq. 14).
//
// Each shot is an ordinary engine Simulation (velocity Verlet, direct dipole sum, open box, no
// damping). Its time step is chosen anew as the pair moves (engine steps are fixed; the shot changes
// integrator.time_step between steps through Simulation::set_model, in powers of two): a fixed step
// small enough for the approach to contact (relative speeds of tens of v_th there) would spend
// 1e5 steps on the slow approach from several b_max away.

#include "engine/core/math.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lodestone {

// [SECTION] Closed forms ([Dominik-Nubold] eqs. 1-2, 7-14)

// alpha = (mu0/4pi) 2 mu^2 [J m^3], eq. 7: U_min = -alpha / d^3 for two moments mu head to tail.
double dipole_potential_parameter(double moment);
// Height of the barrier of U_eff (eq. 11), U0 = (mbar b^2 v^2)^3 / (54 alpha^2) [J], at r* = 3 alpha / (mbar b^2 v^2).
double capture_barrier_height(double alpha, double reduced_mass, double impact_parameter, double speed);
double capture_barrier_radius(double alpha, double reduced_mass, double impact_parameter, double speed);
// b_max = sqrt(3) (alpha / (mbar v^2))^(1/3) [m]: the impact parameter at which U0 = mbar v^2 / 2 (eq. 12).
double capture_impact_parameter(double alpha, double reduced_mass, double speed);
// sigma_m = pi b_max^2 = 3 pi (alpha / (mbar v^2))^(2/3) [m^2] (eq. 14).
double capture_cross_section(double alpha, double reduced_mass, double speed);
// R_m = (2 mu0 mu^2 / (pi kT))^(1/3) [m] (eq. 2).
double magnetic_interaction_radius(double moment, double temperature);

// [SECTION] The grains and one shot

// Two identical magnetised spheres ([Dominik-Nubold] Sec. 4.1). Defaults: the paper's Fig. 2 grains, iron
// spheres of 20 nm with 200 A m^2/kg at 100 K.
struct CaptureGrains {
  double diameter = 20e-9;         // [m]
  double density = 7874.0;         // [kg/m^3] iron
  double specific_moment = 200.0;  // [A m^2/kg] moment per mass ([Dominik-Nubold] Fig. 2)
  double temperature = 100.0;      // [K] sets v_th = sqrt(kT/m) and the thermal spins
  double youngs_modulus = 211e9;   // [Pa] iron (sand contact law; a shot stops at first contact)
  double poisson_ratio = 0.29;     // [-]
  double surface_energy = 2.0;     // [J/m^2] iron, order of magnitude (sticking contacts)

  double radius() const { return 0.5 * diameter; }
  double mass() const { return density * sphere_volume(radius()); }      // [kg]
  double moment() const { return specific_moment * mass(); }             // [A m^2]
  double reduced_mass() const { return 0.5 * mass(); }                   // [kg] eq. 8
  double alpha() const { return dipole_potential_parameter(moment()); }  // [J m^3] eq. 7
  double thermal_speed() const;                                          // [m/s] sqrt(kT/m)
  double lambda() const;                                                 // [-] eq. 1 with d = 2R
  double b_max(double speed) const { return capture_impact_parameter(alpha(), reduced_mass(), speed); }
};

enum class SpinStart : int { Thermal, None };  // initial angular velocities: Maxwellian at T, or zero

struct Shot {
  double impact_parameter = 0.0;  // [m] b
  double speed = 0.0;             // [m/s] v, relative, at the start
  // Start of the projectile: `start_distance` upstream of the target along the approach, offset by b
  // across it (separation sqrt(X^2 + b^2)).
  double start_distance = 0.0;  // [m] X
  std::uint64_t seed = 1;       // orientations and spins
  SpinStart spin = SpinStart::Thermal;
  // Moment directions at the start (world, unit); unset: uniform on the sphere (a random rotation).
  std::optional<Vec3> target_moment, projectile_moment;
  double accuracy = 0.02;         // [-] eta of the step control (below)
  double time_limit_factor = 20;  // the shot gives up after this many start separations / v
};

enum class ShotOutcome : int { Collision, Escape, TimeLimit, Failed };
std::string shot_outcome_name(ShotOutcome o);

struct ShotResult {
  ShotOutcome outcome = ShotOutcome::Failed;
  double time = 0.0;  // [s] simulated
  std::int64_t steps = 0;
  std::int64_t step_changes = 0;  // changes of the time step (each a Simulation::set_model)
  double closest_gap = 0.0;       // [m] smallest surface gap seen (<= 0: touched)
  // |E_end - E_start| / E_start with E the total energy (kinetic + dipole) over the initial kinetic
  // energy (translation + spin); the scheme is not symplectic with a changing step, so this checks the
  // step control.
  double energy_error = 0.0;
  std::string message;  // Failed: the engine's health message
};

// Runs one shot. The step is dt = eta min(r / |v_rel|, sqrt(r / |a_rel|), 1 / max|omega|,
// sqrt(I / max|T|)), and at most 0.1 R / max|v|, rounded down to a power of two times the first one.
// Stops at first contact (centre distance <= 2R), when the pair is receding beyond its start separation,
// or after time_limit_factor start separations / v.
ShotResult run_shot(const CaptureGrains& grains, const Shot& shot);

// [SECTION] Probability maps and cross sections

// The seed of repetition `run` of a map: the same for every cell, so each (b, v) sees the same set
// of initial orientations (common random numbers: P(b) is smoother than with independent draws).
std::uint64_t shot_seed(std::uint64_t base_seed, int run);

// From P at impact parameters b (ascending, b[0] >= 0) at one speed:
struct CrossSectionEstimate {
  double sigma = 0.0;         // [m^2] 2 pi int P(b) b db, trapezoid, P = 0 beyond the last b
  double white_radius = 0.0;  // [m] R_w: the largest b up to which every P is 1 (the paper's white disc)
  double half_radius = 0.0;   // [m] where P falls through 1/2 (linear interpolation); 0 if never
  bool tail_open = false;     // P at the last b is not 0: sigma is a lower bound
};
CrossSectionEstimate estimate_cross_section(const std::vector<double>& b, const std::vector<double>& probability);

// The weights w_k of that integral, sigma = sum_k w_k P_k [m^2] (P linear between the b[k], constant
// below b[0]): sigma is linear in the P, so one repetition's own outcomes give its own sigma.
std::vector<double> cross_section_weights(const std::vector<double>& b);

// Standard error of sigma [m^2] from the repetitions: hits[r][k] is 1 when repetition r collided at
// b[k], 0 when not, any other value when the shot failed (the repetition is then left out). With
// common random numbers (shot_seed) the cells of one repetition are correlated, so the error is the
// spread of the repetitions' own sigma_r = sum_k w_k hits[r][k] over sqrt(n) (sigma is their mean),
// not binomial errors of the cells added as if independent. 0 with fewer than two repetitions.
double cross_section_error(const std::vector<double>& b, const std::vector<std::vector<int>>& hits);

// [SECTION] The correction factor c of eq. 27

// [Dominik-Nubold] eq. 27: sigma(v) = c 3 pi (alpha / (mbar v^2))^(2/3), c constant ("We do not see a strong
// velocity dependence"). The paper reads c = 0.8-0.9 off Fig. 3 as (R_w / b_max)^2, R_w the edge of
// the region where every orientation collided; here c is fitted to the measured cross sections:
//   c = sum_k w_k q_k / sum_k w_k,  q_k = sigma_k / sigma_m(v_k),  w_k = (sigma_m(v_k) / e_k)^2,
// the least-squares fit of sigma_k = c sigma_m(v_k) with the errors e_k of sigma_k (weighted mean of
// the ratios; an unweighted fit of sigma would be ruled by the slowest speeds, where sigma_m is
// largest). Without usable errors (any e_k <= 0 or none given) the q_k are averaged with equal
// weights and the error is their standard error of the mean.
struct CorrectionFactorFit {
  bool ok = false;  // at least one speed with sigma_m > 0
  int points = 0;   // speeds used
  double c = 0.0;   // [-]
  // Standard error of c: from the e_k, scaled up by sqrt(chi2/dof) when the ratios scatter more than
  // their errors allow (a velocity dependence of c shows there).
  double c_error = 0.0;
  double chi2_per_dof = 0.0;        // of the ratios about c (0 with one speed or without errors)
  double c_min = 0.0, c_max = 0.0;  // smallest and largest q_k
  // Free power law sigma ~ v^exponent over the speeds (eq. 14: -4/3), unweighted in log-log.
  double exponent = 0.0, exponent_error = 0.0;
};
CorrectionFactorFit fit_correction_factor(const std::vector<double>& speeds, const std::vector<double>& sigma,
                                          const std::vector<double>& sigma_error, double alpha, double reduced_mass);

}  // namespace lodestone
