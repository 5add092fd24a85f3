#include "engine/scene/unit_system.hpp"

#include "engine/core/math.hpp"
#include "engine/scene/units.hpp"
#include "engine/step/thermal.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

namespace lodestone {

LjUnits::LjUnits(const LjScales& scales)
    : length(scales.sigma),
      mass(scales.mass),
      energy(scales.energy),
      time(scales.sigma * std::sqrt(scales.mass / scales.energy)),
      // mu0/4pi = 1 in lj: the dipole energy (mu0/4pi) m^2 / r^3 is epsilon when m = moment and r = sigma,
      // and the Zeeman energy m B is epsilon when m = moment and B = flux_density.
      moment(std::sqrt(scales.sigma * scales.sigma * scales.sigma * scales.energy / mu0_over_4pi)),
      flux_density(std::sqrt(mu0_over_4pi * scales.energy / (scales.sigma * scales.sigma * scales.sigma))),
      momentum(scales.mass * scales.sigma / time),
      angular_momentum(scales.energy * time) {}

double LjUnits::of(Quantity q) const {
  const double volume = length * length * length;
  switch (q) {
    case Quantity::Dimensionless: return 1.0;
    case Quantity::Length: return length;
    case Quantity::Time: return time;
    case Quantity::Mass: return mass;
    case Quantity::Velocity: return length / time;
    case Quantity::AngularVelocity: return 1.0 / time;  // rad per tau
    case Quantity::Acceleration: return length / (time * time);
    case Quantity::Density: return mass / volume;
    case Quantity::Pressure: return energy / volume;
    case Quantity::Force: return energy / length;
    case Quantity::Stiffness: return energy / (length * length);
    case Quantity::LinearDamping: return mass / time;  // force per velocity; rotational: torque / (R^2 omega)
    case Quantity::FluxDensity: return flux_density;
    case Quantity::FieldGradient: return flux_density / length;
    case Quantity::MagneticMoment: return moment;
    case Quantity::Magnetization: return moment / volume;
    case Quantity::Frequency: return 1.0 / time;
    case Quantity::Angle: return 1.0;
    case Quantity::Energy: return energy;  // also torque and bond bending / torsion stiffness, N m
    case Quantity::EnergyDensity: return energy / volume;
    case Quantity::SurfaceEnergy: return energy / (length * length);
    case Quantity::Temperature: return energy / boltzmann;  // T* = k_B T / epsilon
  }
  return 1.0;
}

const char* unit_system_name(UnitSystem system) {
  return system == UnitSystem::Lj ? "lj" : "si";
}

std::string unit_system_note(const DisplayUnits& units) {
  if (units.system == UnitSystem::Si) return {};
  std::string s = "lj: sigma = ";
  append_number(s, units.lj.sigma);
  s += " m, mass = ";
  append_number(s, units.lj.mass);
  s += " kg, energy = ";
  append_number(s, units.lj.energy);
  s += " J, mu0/4pi = 1 (docs/physics.md)";
  return s;
}

namespace {

// The shortest decimal that reads back as `value`, as the outputs print numbers.
std::string shortest(double value) {
  std::string s;
  append_number(s, value);
  return s;
}

}  // namespace

ConvertNumber lj_to_si(const LjUnits& units) {
  return [units](Quantity q, double value) -> json {
    const double unit = units.of(q);
    if (unit == 1.0) return value;
    return value * unit;
  };
}

ConvertNumber si_to_lj(const LjUnits& units) {
  return [units](Quantity q, double si) -> json {
    const double unit = units.of(q);
    // Zero is zero in any units (and keeps its sign, which the search below, stepping across zero, would not).
    if (unit == 1.0 || si == 0.0) return si;
    // x / unit is the nearest double to the lj value, but where the doubles near x / unit are denser than
    // those near x, a neighbour may read back as x too and print shorter (a value the user typed, 1.5, comes
    // back as 1.5, not 1.5000000000000002). Of the candidates that read back exactly, the shortest wins.
    const double nearest = si / unit;
    std::optional<double> best;
    size_t best_length = 0;
    double candidate = nearest;
    for (int k = 0; k < 2; ++k) candidate = std::nextafter(candidate, -INFINITY);
    for (int k = -2; k <= 2; ++k, candidate = std::nextafter(candidate, INFINITY)) {
      // Bit for bit: a candidate that reads back as -0 where x is +0 would not do.
      if (std::bit_cast<std::uint64_t>(candidate * unit) != std::bit_cast<std::uint64_t>(si)) continue;
      const size_t length = shortest(candidate).size();
      if (!best || length < best_length || (length == best_length && candidate == nearest)) {
        best = candidate;
        best_length = length;
      }
    }
    if (best) return *best;
    return shortest(si) + " " + std::string(si_unit(q));
  };
}

}  // namespace lodestone
