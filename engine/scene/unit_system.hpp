#pragma once
// The unit systems a preset file and a run's outputs may be written in (units.system): SI, or reduced
// Lennard-Jones-style dipolar units ("lj": LAMMPS `units lj`, ESPResSo) with length sigma, mass m, energy
// epsilon and mu0/4pi = 1. The engine stays in SI; this file holds the scale of every quantity and the
// number conversions the preset reader and writer (preset_io.cpp) and the outputs (output_units.hpp) use.
// Derivation of each unit: docs/physics.md, "Reduced (LJ-style dipolar) units". Not to be confused with
// [Erokhin-Berkov]'s App. B scaling (engine/analysis/reduced_units.hpp), which only reports.

#include "engine/core/parameters.hpp"
#include "engine/scene/schema.hpp"
#include "engine/scene/units.hpp"

#include <string>

namespace lodestone {

// The lj system's derived units in SI, all from sigma, m, epsilon and mu0/4pi (docs/physics.md).
struct LjUnits {
  double length = 1.0;            // [m]      sigma
  double mass = 1.0;              // [kg]     m
  double energy = 1.0;            // [J]      epsilon
  double time = 1.0;              // [s]      tau = sigma sqrt(m / epsilon)
  double moment = 1.0;            // [A m^2]  sqrt(sigma^3 epsilon / (mu0/4pi))
  double flux_density = 1.0;      // [T]      sqrt((mu0/4pi) epsilon / sigma^3), so moment x flux_density = epsilon
  double momentum = 1.0;          // [kg m/s] m sigma / tau
  double angular_momentum = 1.0;  // [kg m^2/s] epsilon tau

  explicit LjUnits(const LjScales& scales);
  // SI per lj unit of a preset quantity: value_si = value_lj * of(q). 1 for dimensionless values and angles
  // (radians in both systems).
  double of(Quantity q) const;
};

// The system's name as a preset writes it ("si", "lj").
const char* unit_system_name(UnitSystem system);

// What an output's header says about its units: "" for SI (the outputs as they always were), else e.g.
// "lj: sigma = 0.001 m, mass = 4.2e-06 kg, energy = 1e-09 J, mu0/4pi = 1 (docs/physics.md)".
std::string unit_system_note(const DisplayUnits& units);

// The number converters of a preset file in system lj. To SI: value * unit. From SI: the lj number that
// reads back as exactly the same double; where no double does (x / unit rounds, and x / unit * unit need not
// give x again), the SI value as a string with its SI unit ("0.04 T", which the reader takes in any system),
// so that loading a saved preset reproduces the scene bit for bit (a saved session replays exactly).
ConvertNumber lj_to_si(const LjUnits& units);
ConvertNumber si_to_lj(const LjUnits& units);

}  // namespace lodestone
