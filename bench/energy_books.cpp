// Do the energy books close as the time step shrinks, for every contact law and convention? (issue 40; docs/physics.md
// "Energy bookkeeping"). Run on demand, never in CI.
//
//   lodestone-energy-books PRESET [SECONDS=0.05] [--as-is] [--ledger] [--set PATH=VALUE ...]
//
// Runs PRESET for SECONDS of simulated time with each contact law (the linear law in its three conventions, then
// Hertz-Mindlin and Hertz-Coulomb) at the preset's time step dt (or the one suggested for the law), dt/2 and dt/4,
// and prints how
// far the energy balance (kinetic + potential + stored + dissipated - the work of the field, the model and the drag:
// engine/analysis/observables.hpp) moved over the run, as a fraction of the largest kinetic energy seen, and the
// ratios between successive halvings (second order: 4). A law the preset cannot take is reported as refused.
// --as-is runs one row instead: the preset with its own law and features (bonds, clumps, the sand law, walls,
// induced moments). --set PATH=VALUE changes the preset first, as lodestone-run's --set does (a shorter scene, a
// wall in place of an open side, another law): e.g. --set contact.law=sand --set particles.count=20. --ledger prints
// how far each term of the balance moved in each run, in J.

#include "app/runner/overrides.hpp"
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
#include <vector>

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

bool g_ledger = false;  // --ledger: print how each term of the balance moved

void print_ledger(const Observables& a, const Observables& b) {
  std::printf(
      "    kinetic %+.4e elastic %+.4e dipole %+.4e zeeman %+.4e gravity %+.4e | friction %+.4e dashpot %+.4e "
      "viscous %+.4e | field %+.4e stiffness %+.4e drag %+.4e hold %+.4e | balance %+.4e J\n",
      b.kinetic() - a.kinetic(), b.elastic - a.elastic, b.dipole - a.dipole, b.zeeman - a.zeeman,
      b.gravitational - a.gravitational, b.dissipated_friction - a.dissipated_friction,
      b.dissipated_dashpot - a.dissipated_dashpot, b.dissipated_viscous - a.dissipated_viscous,
      b.field_work - a.field_work, b.stiffness_work - a.stiffness_work, b.drag_work - a.drag_work,
      b.hold_work - a.hold_work, b.energy_balance() - a.energy_balance());
}

// The balance's drift over `seconds` at time step dt, over the largest kinetic energy seen (sampled every step).
double balance_drift(Preset p, double dt, double seconds) {
  p.integrator.time_step = dt;
  Session session(p);
  const Observables start = session.observe();
  const double balance0 = start.energy_balance();
  double kinetic = session.observe().kinetic();
  const auto steps = static_cast<std::int64_t>(std::llround(seconds / dt));
  for (std::int64_t k = 0; k < steps && session.state().health.ok; ++k) {
    session.run(1);
    kinetic = std::max(kinetic, session.observe().kinetic());
  }
  if (!session.state().health.ok) return NAN;
  if (g_ledger) print_ledger(start, session.observe());
  return (session.observe().energy_balance() - balance0) / kinetic;
}

// One row: the drift at dt (the preset's step, or the one suggested for its law: a Hertz contact is stiffer than a
// linear one), dt/2 and dt/4.
void print_row(const char* name, const Preset& p, double seconds) {
  const double dt = p.integrator.time_step ? *p.integrator.time_step : Session(p).model().time_step;
  double drift[3];
  for (int k = 0; k < 3; ++k) drift[k] = balance_drift(p, dt / (1 << k), seconds);
  std::printf("%-28s dt %9.3e s: %10.3e %10.3e %10.3e   (%.1f, %.1f)\n", name, dt, drift[0], drift[1], drift[2],
              std::abs(drift[0] / drift[1]), std::abs(drift[1] / drift[2]));
  std::fflush(stdout);
}

const char* law_name(ContactLaw law) {
  switch (law) {
    case ContactLaw::Linear: return "linear";
    case ContactLaw::HertzMindlin: return "hertz_mindlin";
    case ContactLaw::HertzCoulomb: return "hertz_coulomb";
    case ContactLaw::Sand: return "sand";
  }
  return "?";
}

struct Arguments {
  std::string preset;
  double seconds = 0.05;
  bool as_is = false;
  std::vector<std::string> overrides;
};

// Returns false (after saying why) on a bad command line.
bool parse_arguments(int argc, char** argv, Arguments& a) {
  std::vector<std::string> positional;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--as-is") {
      a.as_is = true;
    } else if (arg == "--ledger") {
      g_ledger = true;
    } else if (arg == "--set" && k + 1 < argc) {
      a.overrides.emplace_back(argv[++k]);
    } else if (arg.rfind("--", 0) == 0) {
      std::fprintf(stderr, "lodestone-energy-books: unknown option %s\n", arg.c_str());
      return false;
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.empty() || positional.size() > 2) {
    std::fprintf(stderr,
                 "usage: lodestone-energy-books PRESET [SECONDS=0.05] [--as-is] [--ledger] [--set PATH=VALUE ...]\n");
    return false;
  }
  a.preset = positional[0];
  if (positional.size() > 1) a.seconds = std::atof(positional[1].c_str());
  if (!(a.seconds > 0.0)) {
    std::fprintf(stderr, "lodestone-energy-books: SECONDS must be a positive number\n");
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Arguments a;
  if (!parse_arguments(argc, argv, a)) return 2;
  try {
    const Preset preset = runner::apply_overrides(load_preset_file(a.preset), a.overrides);
    std::printf("%s, %g s of simulated time: balance drift / largest kinetic energy at dt, dt/2, dt/4 (ratios)\n",
                a.preset.c_str(), a.seconds);
    if (a.as_is) {
      print_row(law_name(preset.contact.law), preset, a.seconds);
      return 0;
    }
    const Law laws[] = {{"linear, pfc", ContactLaw::Linear, LinearConvention::Pfc},
                        {"linear, lammps", ContactLaw::Linear, LinearConvention::Lammps},
                        {"linear, gran/hooke/history", ContactLaw::Linear, LinearConvention::GranHookeHistory},
                        {"hertz_mindlin", ContactLaw::HertzMindlin, LinearConvention::Pfc},
                        {"hertz_coulomb", ContactLaw::HertzCoulomb, LinearConvention::Pfc}};
    for (const Law& law : laws) {
      try {
        print_row(law.name, with_law(preset, law), a.seconds);
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
