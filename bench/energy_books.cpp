// Do the energy books close as the time step shrinks, for every contact law and convention? (issue 40; docs/physics.md
// "Energy bookkeeping"). Run on demand, never in CI.
//
//   lodestone-energy-books PRESET [SECONDS=0.05]
//
// Runs PRESET for SECONDS of simulated time with each contact law (the linear law in its three conventions, then
// Hertz-Mindlin and Hertz-Coulomb) at the preset's time step dt (or the one suggested for the law), dt/2 and dt/4,
// and prints how
// far the energy balance (kinetic + potential + stored + dissipated - the work of the field, the model and the drag:
// engine/analysis/observables.hpp) moved over the run, as a fraction of the largest kinetic energy seen, and the
// ratios between successive halvings (second order: 4). A law the preset cannot take is reported as refused.

#include "engine/analysis/observables.hpp"
#include "engine/core/preset_error.hpp"
#include "engine/scene/document.hpp"
#include "engine/session/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

using namespace lodestone;

namespace {

struct Law {
  const char* name;
  ContactLaw law;
  LinearConvention convention;
};

Preset with_law(Preset p, const Law& law) {
  p.contact.law = law.law;
  p.contact.linear.convention = law.convention;
  return p;
}

// The balance's drift over `seconds` at time step dt, over the largest kinetic energy seen (sampled every step).
double balance_drift(Preset p, double dt, double seconds) {
  p.integrator.time_step = dt;
  Session session(p);
  const double balance0 = session.observe().energy_balance();
  double kinetic = session.observe().kinetic();
  const auto steps = static_cast<std::int64_t>(std::llround(seconds / dt));
  for (std::int64_t k = 0; k < steps && session.state().health.ok; ++k) {
    session.run(1);
    kinetic = std::max(kinetic, session.observe().kinetic());
  }
  if (!session.state().health.ok) return NAN;
  return (session.observe().energy_balance() - balance0) / kinetic;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: lodestone-energy-books PRESET [SECONDS=0.05]\n");
    return 2;
  }
  try {
    const Preset preset = load_preset_file(argv[1]);
    const double seconds = argc > 2 ? std::atof(argv[2]) : 0.05;
    if (!(seconds > 0.0)) {
      std::fprintf(stderr, "lodestone-energy-books: SECONDS must be a positive number\n");
      return 2;
    }
    std::printf("%s, %g s of simulated time: balance drift / largest kinetic energy at dt, dt/2, dt/4 (ratios)\n",
                argv[1], seconds);
    const Law laws[] = {{"linear, pfc", ContactLaw::Linear, LinearConvention::Pfc},
                        {"linear, lammps", ContactLaw::Linear, LinearConvention::Lammps},
                        {"linear, gran/hooke/history", ContactLaw::Linear, LinearConvention::GranHookeHistory},
                        {"hertz_mindlin", ContactLaw::HertzMindlin, LinearConvention::Pfc},
                        {"hertz_coulomb", ContactLaw::HertzCoulomb, LinearConvention::Pfc}};
    for (const Law& law : laws) {
      try {
        const Preset p = with_law(preset, law);
        // The preset's step, or the one suggested for this law (a Hertz contact is stiffer than a linear one).
        const double dt = p.integrator.time_step ? *p.integrator.time_step : Session(p).model().time_step;
        double drift[3];
        for (int k = 0; k < 3; ++k) drift[k] = balance_drift(p, dt / (1 << k), seconds);
        std::printf("%-28s dt %9.3e s: %10.3e %10.3e %10.3e   (%.1f, %.1f)\n", law.name, dt, drift[0], drift[1],
                    drift[2], std::abs(drift[0] / drift[1]), std::abs(drift[1] / drift[2]));
      } catch (const PresetError& e) {
        std::printf("%-28s refused: %s\n", law.name, e.what());
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lodestone-energy-books: %s\n", e.what());
    return 1;
  }
  return 0;
}
