// lodestone-run: runs a preset headless, writes the time series and particle frames, reports
// progress, and exits non-zero with a clear message on a bad preset or a failed check.

#include "app/runner/angle_output.hpp"
#include "app/runner/cluster_output.hpp"
#include "app/runner/lammps_export.hpp"
#include "app/runner/progress.hpp"
#include "app/runner/run_options.hpp"
#include "app/runner/sweep.hpp"
#include "engine/analysis/clusters.hpp"
#include "engine/analysis/reduced_units.hpp"
#include "engine/io/checkpoint.hpp"
#include "engine/io/export_frames.hpp"
#include "engine/io/output.hpp"
#include "engine/io/preset_edits.hpp"
#include "engine/io/preset_io.hpp"
#include "engine/io/units.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/session/protocol.hpp"
#include "engine/session/session.hpp"
#include "engine/step/thermal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

using namespace lodestone;
using namespace lodestone::runner;

namespace {

const char* law_name(ContactLaw law) {
  switch (law) {
    case ContactLaw::Linear: return "linear";
    case ContactLaw::HertzMindlin: return "Hertz-Mindlin";
    case ContactLaw::HertzCoulomb: return "Hertz-Coulomb";
    case ContactLaw::Sand: return "sand (contact pointers, [Dominik-Nubold])";
  }
  return "?";
}
const char* dipole_name(DipoleMethod m) {
  switch (m) {
    case DipoleMethod::Off: return "off";
    case DipoleMethod::Cutoff: return "cutoff";
    case DipoleMethod::Direct: return "direct sum";
    case DipoleMethod::Tree: return "Barnes-Hut tree (approximation of the direct sum)";
  }
  return "?";
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

void print_summary(const std::string& source, const Preset& preset, const Session& sim, std::int64_t steps) {
  const Model& m = sim.model();
  const DisplayUnits& u = preset.units;
  std::printf("Lodestone: %s\n", source.c_str());
  if (!preset.description.empty()) std::printf("  %s\n", preset.description.c_str());
  std::printf("  %zu particles on %d thread%s, contact law %s, dipoles %s", sim.state().particles.size(), sim.threads(),
              sim.threads() == 1 ? "" : "s", law_name(m.contact.law), dipole_name(m.magnetics.method));
  if (m.magnetics.method == DipoleMethod::Cutoff)
    std::printf(" (cutoff %.4g %s)", si_to_unit(m.dipole_cutoff, Quantity::Length, u.length), u.length.c_str());
  if (m.magnetics.method == DipoleMethod::Tree) std::printf(" (opening angle %.3g)", m.magnetics.tree_opening_angle);
  if (m.magnetics.force_interval > 1 && m.magnetics.method != DipoleMethod::Off)
    std::printf(", computed every %d steps and extrapolated in between (magnetics.force_interval)",
                m.magnetics.force_interval);
  std::printf("\n  field %s, %.4g %s\n", program_name(m.field.program),
              si_to_unit(m.field.strength, Quantity::FluxDensity, u.field), u.field.c_str());
  std::printf("  time step %.4g s (suggested %.4g s, limited by %s)%s\n", m.time_step, m.advice.suggested,
              m.advice.limited_by.c_str(), m.time_step > m.advice.suggested ? "  WARNING: above the suggestion" : "");
  if (steps > 0)
    std::printf("  running %lld steps = %.4g s of simulated time\n", static_cast<long long>(steps),
                static_cast<double>(steps) * m.time_step);
  for (size_t k = 0; k < preset.protocol.size(); ++k) {
    const ProtocolPhase& s = preset.protocol[k];
    std::printf("  phase %zu/%zu %-18s up to %.4g s", k + 1, preset.protocol.size(), s.name.c_str(), s.duration);
    if (s.until != PhaseEnd::Time) std::printf(", until %s (%.4g)", phase_end_name(s.until), s.threshold);
    std::printf("\n");
  }
  if (!preset.timeline.empty())
    std::printf("  timeline: %zu recorded change%s from step %llu to %llu, replayed (docs/session-log.md)\n",
                preset.timeline.size(), preset.timeline.size() == 1 ? "" : "s",
                static_cast<unsigned long long>(preset.timeline.front().step),
                static_cast<unsigned long long>(preset.timeline.back().step));
}

// A protocol phase by name or by its number from 1 (as the progress shows it).
std::optional<int> find_phase(const Preset& preset, const std::string& text) {
  for (size_t k = 0; k < preset.protocol.size(); ++k)
    if (preset.protocol[k].name == text || std::to_string(k + 1) == text) return static_cast<int>(k);
  return std::nullopt;
}

void print_table_header() {
  std::printf("\n%10s %12s %12s %12s %12s %9s %9s %9s\n", "step", "time [s]", "E_kin [J]", "E_pot [J]", "balance [J]",
              "<|n.b|>", "contacts", "Z");
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

// [Erokhin-Berkov]'s reduced units (App. B) of the parameters in force, and of each protocol phase's. Shown
// when defined (overdamped, Hertz-type law, gamma > 0, E > 0); with `explain`, why not otherwise.
void print_reduced_units(const Preset& preset, const Session& sim, bool explain) {
  const Particles& p = sim.state().particles;
  const ReducedUnits now = reduced_units(sim.model(), p);
  if (!now.defined) {
    if (explain) std::printf("  reduced units ([Erokhin-Berkov] App. B): %s\n", now.reason.c_str());
    return;
  }
  const DisplayUnits& u = preset.units;
  std::printf(
      "  reduced units ([Erokhin-Berkov] App. B): R_av = %.4g %s, E = %.4g Pa (%s), t_char = gamma / (E R_av)\n",
      si_to_unit(now.length, Quantity::Length, u.length), u.length.c_str(), now.youngs_modulus,
      sim.model().materials[static_cast<size_t>(now.material)].name.c_str());
  auto row = [](const ReducedUnits& r) {
    if (!r.defined) return std::printf("%s\n", r.reason.c_str());
    return std::printf("t_char %.4g s  g~ %.4g  p~ %.4g  K~ %.4g  h %.4g  gamma*/gamma %.4g\n", r.time, r.gravity,
                       r.pressure, r.anisotropy, r.field, r.damping_ratio);
  };
  if (preset.protocol.empty()) {
    std::printf("    ");
    row(now);
    return;
  }
  for (size_t k = 0; k < preset.protocol.size(); ++k) {
    std::printf("    phase %zu %-18s ", k + 1, preset.protocol[k].name.c_str());
    try {
      row(reduced_units(make_model(phase_preset(preset, static_cast<int>(k))), p));
    } catch (const PresetError& e) {
      std::printf("(phase parameters: %s)\n", e.what());
    }
  }
}

// Brownian motion (environment.temperature > 0): [Dominik-Nubold]'s interaction parameter lambda (eq. 1) and
// interaction radius R_m (eq. 2) for the mean moment and diameter of the particles that carry one.
void print_thermal_coupling(const Preset& preset, const Session& sim) {
  const ThermalCoupling c = thermal_coupling(sim.model(), sim.state().particles);
  if (!(c.kT > 0.0)) return;
  std::printf("  temperature %.4g K (kT = %.4g J)", sim.model().environment.temperature, c.kT);
  if (!c.defined) {
    std::printf(": no particle carries a moment ([Dominik-Nubold]'s lambda and R_m not defined)\n");
    return;
  }
  const std::string& unit = preset.units.length;
  std::printf(", [Dominik-Nubold] over the %d particles with a moment (mean %.4g A m^2, mean diameter d = %.4g %s):\n",
              c.magnetic_particles, c.moment, si_to_unit(c.diameter, Quantity::Length, unit), unit.c_str());
  std::printf(
      "    lambda = mu0 mu^2 / (4 pi d^3 kT) = %.4g (eq. 1), R_m = (2 mu0 mu^2 / (pi kT))^(1/3) = %.4g %s = "
      "%.4g d (eq. 2)\n",
      c.lambda, si_to_unit(c.interaction_radius, Quantity::Length, unit), unit.c_str(),
      c.interaction_radius / c.diameter);
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

  const std::string source = !options.restart_path.empty() ? "checkpoint " + options.restart_path
                             : options.preset_path.empty() ? "built-in default preset"
                                                           : options.preset_path;
  Preset preset;
  std::unique_ptr<Session> sim;
  try {
    if (!options.restart_path.empty()) {
      Checkpoint saved = load_checkpoint(options.restart_path);
      preset = saved.preset;
      sim = std::make_unique<Session>(saved);
    } else {
      preset = options.preset_path.empty() ? default_preset() : load_preset_file(options.preset_path);
    }
    if (options.time_step) preset.integrator.time_step = *options.time_step;
    if (!options.save_preset_path.empty()) {
      save_preset_file(preset, options.save_preset_path);
      std::printf("wrote %s\n", options.save_preset_path.c_str());
      return kExitOk;
    }
  } catch (const CheckpointError& e) {
    std::cerr << "lodestone-run: bad checkpoint: " << e.what() << "\n";
    return kExitBadPreset;
  } catch (const PresetError& e) {
    std::cerr << "lodestone-run: bad preset: " << e.what() << "\n";
    return kExitBadPreset;
  }
  std::optional<int> stop_phase;
  if (!options.stop_at_phase.empty()) {
    stop_phase = find_phase(preset, options.stop_at_phase);
    if (!stop_phase) {
      std::string names;
      for (size_t k = 0; k < preset.protocol.size(); ++k)
        names += (k ? ", " : "") + std::to_string(k + 1) + " '" + preset.protocol[k].name + "'";
      std::cerr << "lodestone-run: --stop-at-phase " << options.stop_at_phase << ": "
                << (preset.protocol.empty() ? "the preset has no protocol" : "no such phase; the phases are " + names)
                << "\n";
      return kExitBadArguments;
    }
  }
  try {
    if (!sim) sim = std::make_unique<Session>(preset);
  } catch (const PresetError& e) {
    // Raised while building the scene (generator, model): the path is in the preset, name the file.
    std::cerr << "lodestone-run: bad preset: " << source << " " << e.what() << "\n";
    return kExitBadPreset;
  }

  sim->set_threads(options.threads.value_or(static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))));

  // A protocol runs until its last phase ends (at most the sum of the phase durations, or --time);
  // otherwise the run is a number of steps.
  const bool protocol = sim->phase_count() > 0;
  double protocol_time = 0.0;
  for (const ProtocolPhase& s : preset.protocol) protocol_time += s.duration;
  const double dt = sim->model().time_step;
  const double duration = options.duration.value_or(protocol ? protocol_time : preset.run.duration);
  const double start_time = sim->state().time;  // a restart runs --time (or the rest of its protocol) from here
  const std::int64_t steps = options.steps.value_or(
      protocol ? 0 : std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(duration / dt - 1e-9))));
  if (!options.lammps_export_dir.empty()) {
    const int frames_every =
        options.frames_every.value_or(preset.run.frame_interval > 0 ? preset.run.frame_interval : 100);
    return write_lammps_export(options.lammps_export_dir, *sim, steps, frames_every);
  }
  print_summary(source, preset, *sim, steps);
  print_reduced_units(preset, *sim, options.check_only);
  if (options.check_only) print_thermal_coupling(preset, *sim);
  if (!sim->state().health.ok) {
    std::cerr << "lodestone-run: the initial state fails a check: " << sim->state().health.message << "\n";
    return kExitSimulationStopped;
  }
  if (options.check_only) return kExitOk;

  std::ofstream series;
  if (!options.series_path.empty()) {
    series.open(options.series_path, std::ios::trunc);
    if (!series) {
      std::cerr << "lodestone-run: cannot write the time series to " << options.series_path << "\n";
      return kExitOutputError;
    }
  }
  // The format follows the extension (checked with the options); a VTK series also keeps a .pvd.
  std::optional<FrameSeriesWriter> frames;
  bool frames_failed = false;
  if (!options.frames_path.empty()) {
    try {
      frames.emplace(options.frames_path, *frame_format_of(options.frames_path));
    } catch (const ExportError& e) {
      std::cerr << "lodestone-run: " << e.what() << "\n";
      return kExitOutputError;
    }
  }
  ClusterOutput cluster_output;
  if (!options.clusters_path.empty() && !cluster_output.open(options.clusters_path)) {
    std::cerr << "lodestone-run: cannot write the cluster sizes to " << options.clusters_path << "\n";
    return kExitOutputError;
  }
  AngleOutput angle_output;
  if (!options.angles_path.empty() && !angle_output.open(options.angles_path)) {
    std::cerr << "lodestone-run: cannot write the angle distributions to " << options.angles_path << "\n";
    return kExitOutputError;
  }
  const int series_every = options.series_every.value_or(preset.run.series_interval);
  const int frames_every =
      options.frames_every.value_or(preset.run.frame_interval > 0 ? preset.run.frame_interval : 100);
  const std::int64_t table_every =
      options.table_rows > 0
          ? std::max<std::int64_t>(1,
                                   (steps > 0 ? steps : static_cast<std::int64_t>(duration / dt)) / options.table_rows)
          : 0;

  auto write_checkpoint = [&]() {
    try {
      save_checkpoint(options.checkpoint_path, sim->folded_document(), sim->state());
      return true;
    } catch (const CheckpointError& e) {
      std::cerr << "lodestone-run: " << e.what() << "\n";
      return false;
    }
  };
  bool checkpoint_failed = false;

  // One cluster pass and one set of observables per row, shared by the outputs that need them.
  auto write_outputs = [&](bool force) {
    const State& state = sim->state();
    const std::int64_t step = state.step;
    std::optional<Clusters> clusters;
    std::optional<Observables> observed;
    auto observables = [&]() -> const Observables& {
      if (!observed) {
        clusters = find_clusters(state);
        observed = observe(sim->model(), state, *clusters);
      }
      return *observed;
    };
    const bool row = force || step % series_every == 0;
    if (series.is_open() && row) series << series_row(observables());
    if (cluster_output.is_open() && row) {
      observables();
      cluster_output.record(step, state.time, *clusters);
    }
    if (angle_output.is_open() && row) angle_output.record(observables());
    if (frames && (force || step % frames_every == 0)) {
      observables();  // the frame's cluster ids come from the same pass
      try {
        frames->write(frame_fields(sim->model(), state, *clusters));
      } catch (const ExportError& e) {
        std::cerr << "lodestone-run: " << e.what() << "; no more frames are written\n";
        frames.reset();
        frames_failed = true;
      }
    }
    if (table_every > 0 && (force || step % table_every == 0)) print_table_row(observables());
  };

  if (series.is_open()) series << series_header();
  if (table_every > 0) print_table_header();
  write_outputs(true);  // step 0, before any motion

  Progress progress(steps, duration, options.progress_seconds, !options.quiet);
  std::int64_t done = 0;
  auto finished = [&] {
    if (steps > 0) return done >= steps;
    return sim->protocol_finished() || sim->state().time - start_time >= duration * (1.0 - 1e-12);
  };
  bool stopped_at_phase = false;
  while (!finished()) {
    const int phase = sim->state().phase;
    sim->step();
    if (!sim->state().health.ok) break;
    ++done;
    stopped_at_phase = stop_phase && sim->state().phase == *stop_phase && phase != *stop_phase;
    const bool last = finished() || stopped_at_phase;
    write_outputs(last || sim->state().phase != phase);  // a row when a phase begins and at the end
    progress.update(done, sim->state().time, sim->phase_label());
    if (options.checkpoint_every && sim->state().step % *options.checkpoint_every == 0 && !last)
      checkpoint_failed |= !write_checkpoint();
    if (stopped_at_phase) break;
  }
  progress.finish(done, sim->state().time);
  std::fflush(stdout);

  int code = kExitOk;
  if (!sim->state().health.ok) {
    write_outputs(true);  // the state the check stopped on
    std::cerr << "lodestone-run: simulation stopped: " << sim->state().health.message << "\n";
    code = kExitSimulationStopped;
  }
  if ((series.is_open() && !series.flush()) || (cluster_output.is_open() && !cluster_output.flush()) ||
      (angle_output.is_open() && !angle_output.flush())) {
    std::cerr << "lodestone-run: writing an output file failed (disk full?)\n";
    code = code == kExitOk ? kExitOutputError : code;
  }
  if (frames) {
    try {
      frames->finish();
    } catch (const ExportError& e) {
      std::cerr << "lodestone-run: " << e.what() << "\n";
      frames_failed = true;
    }
  }
  if (frames_failed) code = code == kExitOk ? kExitOutputError : code;
  if (!options.checkpoint_path.empty()) {
    if (write_checkpoint() && !checkpoint_failed)
      std::printf("checkpoint: %s (step %lld, t = %.6g s%s%s)\n", options.checkpoint_path.c_str(),
                  static_cast<long long>(sim->state().step), sim->state().time, protocol ? ", phase " : "",
                  protocol ? sim->phase_label().c_str() : "");
    else
      code = code == kExitOk ? kExitOutputError : code;
  }
  if (stopped_at_phase) std::printf("stopped as phase %s began\n", sim->phase_label().c_str());
  const Observables end = sim->observe();
  if (protocol) std::printf("\n%s after %.4g s\n", sim->phase_label().c_str(), end.time);
  if (end.alignment_time >= 0.0)
    std::printf("tau_0.95 = %.6g s (first time <cos theta> >= 0.95 in the last phase); final <cos theta> = %.4f\n",
                end.alignment_time, end.alignment);
  else if (uniform_field(sim->model().field, end.time).squaredNorm() > 0.0)
    std::printf("<cos theta> = %.4f: 0.95 not reached in the last phase\n", end.alignment);
  if (cluster_output.is_open()) cluster_output.print_fits(stdout, end.time, find_clusters(sim->state()));
  if (angle_output.is_open()) AngleOutput::print_summary(stdout, end);
  print_timings(sim->timings());
  return code;
}
