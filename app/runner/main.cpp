// lodestone-run: runs a preset headless, writes the time series and particle frames, reports
// progress, and exits non-zero with a clear message on a bad preset or a failed check.

#include "app/runner/progress.hpp"
#include "app/runner/run_options.hpp"
#include "app/runner/sweep.hpp"
#include "engine/field.hpp"
#include "engine/output.hpp"
#include "engine/preset.hpp"
#include "engine/simulation.hpp"
#include "engine/units.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

using namespace lodestone;
using namespace lodestone::runner;

namespace {

const char* law_name(ContactLaw law) {
  switch (law) {
    case ContactLaw::Linear: return "linear";
    case ContactLaw::HertzMindlin: return "Hertz-Mindlin";
    case ContactLaw::HertzCoulomb: return "Hertz-Coulomb";
    case ContactLaw::Sand:
      return "sand (contact pointers, seed 002)";
  }
  return "?";
}
const char* dipole_name(DipoleMethod m) {
  return m == DipoleMethod::Off ? "off" : m == DipoleMethod::Cutoff ? "cutoff" : "direct sum";
}
const char* program_name(FieldProgram p) {
  switch (p) {
    case FieldProgram::Constant: return "constant";
    case FieldProgram::Ramp: return "ramp";
    case FieldProgram::Rotating: return "rotating";
    case FieldProgram::Oscillating: return "oscillating";
  }
  return "?";
}

void print_summary(const std::string& source, const Preset& preset, const Simulation& sim, std::int64_t steps) {
  const Model& m = sim.model();
  const DisplayUnits& u = preset.units;
  std::printf("Lodestone: %s\n", source.c_str());
  if (!preset.description.empty()) std::printf("  %s\n", preset.description.c_str());
  std::printf("  %zu particles, contact law %s, dipoles %s", sim.state().particles.size(), law_name(m.contact.law),
              dipole_name(m.magnetics.method));
  if (m.magnetics.method == DipoleMethod::Cutoff)
    std::printf(" (cutoff %.4g %s)", si_to_unit(m.dipole_cutoff, Quantity::Length, u.length), u.length.c_str());
  std::printf("\n  field %s, %.4g %s\n", program_name(m.field.program),
              si_to_unit(m.field.strength, Quantity::FluxDensity, u.field), u.field.c_str());
  std::printf("  time step %.4g s (suggested %.4g s, limited by %s)%s\n", m.time_step, m.advice.suggested,
              m.advice.limited_by.c_str(), m.time_step > m.advice.suggested ? "  WARNING: above the suggestion" : "");
  if (steps > 0)
    std::printf("  running %lld steps = %.4g s of simulated time\n", static_cast<long long>(steps),
                static_cast<double>(steps) * m.time_step);
  for (size_t k = 0; k < preset.protocol.size(); ++k) {
    const ProtocolStage& s = preset.protocol[k];
    static const char* until[] = {"time", "no overlap", "settled", "aligned"};
    std::printf("  stage %zu/%zu %-18s up to %.4g s", k + 1, preset.protocol.size(), s.name.c_str(), s.duration);
    if (s.until != StageEnd::Time) std::printf(", until %s (%.4g)", until[static_cast<int>(s.until)], s.threshold);
    std::printf("\n");
  }
}

void print_table_header() {
  std::printf("\n%10s %12s %12s %12s %12s %9s %9s %9s\n", "step", "time [s]", "E_kin [J]", "E_pot [J]",
              "balance [J]", "<|n.b|>", "contacts", "Z");
}

void print_table_row(const Observables& o) {
  std::printf("%10lld %12.5g %12.5g %12.5g %12.5g %9.4f %9lld %9.3f\n", static_cast<long long>(o.step), o.time,
              o.kinetic(), o.potential(), o.energy_balance(), o.alignment, static_cast<long long>(o.particle_contacts),
              o.coordination);
}

void print_timings(const StageTimings& t) {
  double total = 0.0;
  for (double s : t.total_seconds) total += s;
  if (t.steps == 0 || total <= 0.0) return;
  std::printf("\nTime per step %.3g us:", 1e6 * total / static_cast<double>(t.steps));
  for (int s = 0; s < kStageCount; ++s)
    std::printf(" %s %.0f%%%s", std::string(stage_name(static_cast<Stage>(s))).c_str(),
                100.0 * t.total_seconds[static_cast<size_t>(s)] / total, s + 1 < kStageCount ? "," : "\n");
}

}  // namespace

int main(int argc, char** argv) {
  RunOptions options;
  if (auto code = parse_run_options(argc, argv, options)) return *code;
  if (!options.sweeps.empty()) return run_sweep(options);  // jobs are child processes of this binary
  if (!options.collect_dir.empty()) return collect_sweep(options);
  if (options.preset_docs) {
    std::cout << preset_docs_markdown();
    return kExitOk;
  }

  const std::string source = options.preset_path.empty() ? "built-in default preset" : options.preset_path;
  Preset preset;
  std::unique_ptr<Simulation> sim;
  try {
    preset = options.preset_path.empty() ? default_preset() : load_preset_file(options.preset_path);
    if (options.time_step) preset.integrator.time_step = *options.time_step;
    if (!options.save_preset_path.empty()) {
      save_preset_file(preset, options.save_preset_path);
      std::printf("wrote %s\n", options.save_preset_path.c_str());
      return kExitOk;
    }
  } catch (const PresetError& e) {
    std::cerr << "lodestone-run: bad preset: " << e.what() << "\n";
    return kExitBadPreset;
  }
  try {
    sim = std::make_unique<Simulation>(preset);
  } catch (const PresetError& e) {
    // Raised while building the scene (generator, model): the path is in the preset, name the file.
    std::cerr << "lodestone-run: bad preset: " << source << " " << e.what() << "\n";
    return kExitBadPreset;
  }

  // A protocol runs until its last stage ends (at most the sum of the stage durations, or --time);
  // otherwise the run is a number of steps.
  const bool protocol = sim->stage_count() > 0;
  double protocol_time = 0.0;
  for (const ProtocolStage& s : preset.protocol) protocol_time += s.duration;
  const double dt = sim->model().time_step;
  const double duration = options.duration.value_or(protocol ? protocol_time : preset.run.duration);
  const std::int64_t steps =
      options.steps.value_or(protocol ? 0 : std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(duration / dt - 1e-9))));
  print_summary(source, preset, *sim, steps);
  if (!sim->state().health.ok) {
    std::cerr << "lodestone-run: the initial state fails a check: " << sim->state().health.message << "\n";
    return kExitSimulationStopped;
  }
  if (options.check_only) return kExitOk;

  std::ofstream series, frames;
  if (!options.series_path.empty()) {
    series.open(options.series_path, std::ios::trunc);
    if (!series) {
      std::cerr << "lodestone-run: cannot write the time series to " << options.series_path << "\n";
      return kExitOutputError;
    }
  }
  if (!options.frames_path.empty()) {
    frames.open(options.frames_path, std::ios::trunc);
    if (!frames) {
      std::cerr << "lodestone-run: cannot write frames to " << options.frames_path << "\n";
      return kExitOutputError;
    }
  }
  const int series_every = options.series_every.value_or(preset.run.series_interval);
  const int frames_every =
      options.frames_every.value_or(preset.run.frame_interval > 0 ? preset.run.frame_interval : 100);
  const std::int64_t table_every =
      options.table_rows > 0
          ? std::max<std::int64_t>(1, (steps > 0 ? steps : static_cast<std::int64_t>(duration / dt)) / options.table_rows)
          : 0;

  auto write_outputs = [&](bool force) {
    const std::int64_t step = sim->state().step;
    if (series.is_open() && (force || step % series_every == 0)) series << series_row(sim->observe());
    if (frames.is_open() && (force || step % frames_every == 0)) write_xyz_frame(frames, sim->model(), sim->state());
    if (table_every > 0 && (force || step % table_every == 0)) print_table_row(sim->observe());
  };

  if (series.is_open()) series << series_header();
  if (table_every > 0) print_table_header();
  write_outputs(true);  // step 0, before any motion

  Progress progress(steps, duration, options.progress_seconds, !options.quiet);
  std::int64_t done = 0;
  auto finished = [&] {
    if (steps > 0) return done >= steps;
    return sim->protocol_finished() || sim->state().time >= duration * (1.0 - 1e-12);
  };
  while (!finished()) {
    const int stage = sim->state().stage;
    sim->step();
    if (!sim->state().health.ok) break;
    ++done;
    const bool last = finished();
    write_outputs(last || sim->state().stage != stage);  // a row when a stage begins and at the end
    if (last && table_every > 0 && sim->state().step % table_every != 0) print_table_row(sim->observe());
    progress.update(done, sim->state().time, sim->stage_label());
  }
  progress.finish(done, sim->state().time);
  std::fflush(stdout);

  int code = kExitOk;
  if (!sim->state().health.ok) {
    write_outputs(true);  // the state the check stopped on
    std::cerr << "lodestone-run: simulation stopped: " << sim->state().health.message << "\n";
    code = kExitSimulationStopped;
  }
  if ((series.is_open() && !series.flush()) || (frames.is_open() && !frames.flush())) {
    std::cerr << "lodestone-run: writing an output file failed (disk full?)\n";
    code = code == kExitOk ? kExitOutputError : code;
  }
  const Observables end = sim->observe();
  if (protocol) std::printf("\n%s after %.4g s\n", sim->stage_label().c_str(), end.time);
  if (end.alignment_time >= 0.0)
    std::printf("tau_0.95 = %.6g s (first time <cos theta> >= 0.95 in the last stage); final <cos theta> = %.4f\n",
                end.alignment_time, end.alignment);
  else if (uniform_field(sim->model().field, end.time).squaredNorm() > 0.0)
    std::printf("<cos theta> = %.4f: 0.95 not reached in the last stage\n", end.alignment);
  print_timings(sim->timings());
  return code;
}
