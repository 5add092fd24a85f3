// lodestone-run: runs a preset headless, writes the time series and particle frames, reports
// progress, and exits non-zero with a clear message on a bad preset or a failed check.

#include "app/runner/lammps_export.hpp"
#include "app/runner/overrides.hpp"
#include "app/runner/progress.hpp"
#include "app/runner/run_options.hpp"
#include "app/runner/run_outputs.hpp"
#include "app/runner/sweep.hpp"
#include "engine/analysis/reduced_units.hpp"
#include "engine/core/state_hash.hpp"
#include "engine/core/team_rehearsal.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/scene/checkpoint.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/unit_system.hpp"
#include "engine/scene/units.hpp"
#include "engine/session/protocol.hpp"
#include "engine/session/session.hpp"
#include "engine/step/thermal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
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
    case DipoleMethod::Ewald: return "Ewald sum (all periodic images)";
    case DipoleMethod::P3M: return "P3M (Ewald sum with its reciprocal part on a mesh)";
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

// A value as the summary shows it (`shown`, SI or the display unit), led in a preset in reduced units by its number
// in those units, as the preset's file and --set read it: "0.5 (lj) = 22.36 mT".
std::string spoken(double si, Quantity q, const DisplayUnits& u, const std::string& shown) {
  if (u.system != UnitSystem::Lj) return shown;
  char text[128];
  std::snprintf(text, sizeof text, "%.4g (lj) = %s", si / LjUnits(u.lj).of(q), shown.c_str());
  return text;
}

std::string number_with_unit(double value, const std::string& unit) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4g %s", value, unit.c_str());
  return text;
}

void print_summary(const std::string& source, const Preset& preset, const Session& session, std::int64_t steps) {
  const Model& m = session.model();
  const DisplayUnits& u = preset.units;
  std::printf("Lodestone: %s\n", source.c_str());
  if (!preset.description.empty()) std::printf("  %s\n", preset.description.c_str());
  std::printf("  %zu particles on %d thread%s, contact law %s, dipoles %s", session.state().particles.size(),
              session.threads(), session.threads() == 1 ? "" : "s", law_name(m.contact.law),
              dipole_name(m.magnetics.method));
  if (m.magnetics.method == DipoleMethod::Cutoff)
    std::printf(" (cutoff %.4g %s)", si_to_unit(m.dipole_cutoff, Quantity::Length, u.length), u.length.c_str());
  if (m.magnetics.method == DipoleMethod::Tree) std::printf(" (opening angle %.3g)", m.magnetics.tree_opening_angle);
  if (m.magnetics.method == DipoleMethod::Ewald)
    std::printf(" (accuracy %.3g, %s surroundings: alpha %.4g /%s, real-space cutoff %.4g %s, k cutoff %.4g /%s)",
                m.magnetics.ewald_accuracy,
                m.magnetics.ewald_surroundings == EwaldSurroundings::Vacuum ? "vacuum" : "conducting",
                1.0 / si_to_unit(1.0 / m.ewald.alpha, Quantity::Length, u.length), u.length.c_str(),
                si_to_unit(m.ewald.real_cutoff, Quantity::Length, u.length), u.length.c_str(),
                1.0 / si_to_unit(1.0 / m.ewald.k_cutoff, Quantity::Length, u.length), u.length.c_str());
  if (m.magnetics.method == DipoleMethod::P3M)
    std::printf(
        " (accuracy %.3g, %s surroundings: mesh %dx%dx%d, order %d, alpha %.4g /%s, real-space cutoff %.4g %s, "
        "estimated RMS force error %.2g F0)",
        m.magnetics.p3m_accuracy, m.magnetics.ewald_surroundings == EwaldSurroundings::Vacuum ? "vacuum" : "conducting",
        m.p3m.mesh[0], m.p3m.mesh[1], m.p3m.mesh[2], m.p3m.order,
        1.0 / si_to_unit(1.0 / m.p3m.alpha, Quantity::Length, u.length), u.length.c_str(),
        si_to_unit(m.p3m.real_cutoff, Quantity::Length, u.length), u.length.c_str(), m.p3m.estimated_error);
  if (m.magnetics.force_interval > 1 && m.magnetics.method != DipoleMethod::Off)
    std::printf(", computed every %d steps and extrapolated in between (magnetics.force_interval)",
                m.magnetics.force_interval);
  const std::string field = number_with_unit(si_to_unit(m.field.strength, Quantity::FluxDensity, u.field), u.field);
  std::printf("\n  field %s, %s\n", program_name(m.field.program),
              spoken(m.field.strength, Quantity::FluxDensity, u, field).c_str());
  std::printf("  time step %s (suggested %.4g s, limited by %s)%s\n",
              spoken(m.time_step, Quantity::Time, u, number_with_unit(m.time_step, "s")).c_str(), m.advice.suggested,
              m.advice.limited_by.c_str(), m.time_step > m.advice.suggested ? "  WARNING: above the suggestion" : "");
  if (steps > 0) {
    const double duration = static_cast<double>(steps) * m.time_step;
    std::printf("  running %lld steps = %s of simulated time\n", static_cast<long long>(steps),
                spoken(duration, Quantity::Time, u, number_with_unit(duration, "s")).c_str());
  }
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

void print_timings(const StageTimings& t) {
  double total = 0.0;
  for (double s : t.total_seconds) total += s;
  if (t.steps == 0 || total <= 0.0) return;
  // Each stage's wall time per step and its share, so that runs on different thread counts compare stage by stage.
  const double steps = static_cast<double>(t.steps);
  std::printf("\nTime per step %.3g us:", 1e6 * total / steps);
  for (int s = 0; s < kStageCount; ++s) {
    const double seconds = t.total_seconds[static_cast<size_t>(s)];
    std::printf(" %s %.3g us (%.0f%%)%s", std::string(stage_name(static_cast<Stage>(s))).c_str(), 1e6 * seconds / steps,
                100.0 * seconds / total, s + 1 < kStageCount ? "," : "\n");
  }
  if (!team_rehearsal_enabled()) return;
  // LODESTONE_THREAD_PARTS=rehearse: the times above are the parts one after another on this thread; each stage's
  // time on the team's threads, had each part run as fast as it did alone (engine/core/team_rehearsal.hpp).
  double projected = 0.0;
  for (int s = 0; s < kStageCount; ++s) projected += t.total_seconds[static_cast<size_t>(s)] - rehearsal_savings(s);
  std::printf("Rehearsed on as many cores as threads (shared memory not counted): %.3g us per step, %.2fx the above:",
              1e6 * projected / steps, total / projected);
  for (int s = 0; s < kStageCount; ++s) {
    const double seconds = t.total_seconds[static_cast<size_t>(s)];
    const double rehearsed = seconds - rehearsal_savings(s);
    const double serial = seconds - rehearsal_seconds_in_rounds(s);  // outside the rounds
    std::printf(" %s %.3g us (%.2fx; serial %.3g us)%s", std::string(stage_name(static_cast<Stage>(s))).c_str(),
                1e6 * rehearsed / steps, rehearsed > 0.0 ? seconds / rehearsed : 1.0, 1e6 * serial / steps,
                s + 1 < kStageCount ? "," : "\n");
  }
}

// [Erokhin-Berkov]'s reduced units (App. B) of the parameters in force, and of each protocol phase's. Shown
// when defined (overdamped, Hertz-type law, gamma > 0, E > 0); with `explain`, why not otherwise.
void print_reduced_units(const Preset& preset, const Session& session, bool explain) {
  const Particles& p = session.state().particles;
  const ReducedUnits now = reduced_units(session.model(), p);
  if (!now.defined) {
    // Not said in a preset in units lj: its reduced units are another thing, and the line would read as about them.
    if (explain && preset.units.system == UnitSystem::Si)
      std::printf("  reduced units ([Erokhin-Berkov] App. B): %s\n", now.reason.c_str());
    return;
  }
  const DisplayUnits& u = preset.units;
  std::printf(
      "  reduced units ([Erokhin-Berkov] App. B): R_av = %.4g %s, E = %.4g Pa (%s), t_char = gamma / (E R_av)\n",
      si_to_unit(now.length, Quantity::Length, u.length), u.length.c_str(), now.youngs_modulus,
      session.model().materials[static_cast<size_t>(now.material)].name.c_str());
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
void print_thermal_coupling(const Preset& preset, const Session& session) {
  const ThermalCoupling c = thermal_coupling(session.model(), session.state().particles);
  if (!(c.kT > 0.0)) return;
  std::printf("  temperature %.4g K (kT = %.4g J)", session.model().environment.temperature, c.kT);
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

// [SECTION] Loading the scene

// What a single run runs: the preset, its session, and where they came from.
struct Scene {
  std::string source;                // named in the summary and in a bad preset's message
  Preset preset;                     // with --dt applied
  std::unique_ptr<Session> session;  // from the checkpoint of --restart, else built from the preset
  std::optional<int> stop_phase;     // --stop-at-phase as a phase index
};

std::string scene_source(const RunOptions& options) {
  if (!options.restart_path.empty()) return "checkpoint " + options.restart_path;
  return options.preset_path.empty() ? "built-in default preset" : options.preset_path;
}

// Reads the checkpoint (--restart: its preset and its session) or the preset, applies --dt, and
// writes --save-preset. Returns the exit code when the program ends here.
std::optional<int> load_preset(const RunOptions& options, Scene& scene) {
  try {
    if (!options.restart_path.empty()) {
      Checkpoint saved = load_checkpoint(options.restart_path);
      scene.preset = saved.preset;
      scene.session = std::make_unique<Session>(saved);
    } else {
      scene.preset = options.preset_path.empty() ? default_preset() : load_preset_file(options.preset_path);
      scene.preset = apply_overrides(scene.preset, options.overrides);
    }
    if (options.time_step) scene.preset.integrator.time_step = *options.time_step;
    if (!options.save_preset_path.empty()) {
      save_preset_file(scene.preset, options.save_preset_path);
      if (!options.quiet) std::printf("wrote %s\n", options.save_preset_path.c_str());
      return kExitOk;
    }
  } catch (const CheckpointError& e) {
    std::cerr << "lodestone-run: bad checkpoint: " << e.what() << "\n";
    return kExitBadPreset;
  } catch (const PresetError& e) {
    std::cerr << "lodestone-run: bad preset: " << e.what() << "\n";
    return kExitBadPreset;
  }
  return std::nullopt;
}

// --stop-at-phase as a phase index. A phase the preset does not have ends the program (exit 1),
// naming the phases it has.
std::optional<int> find_stop_phase(const RunOptions& options, Scene& scene) {
  if (options.stop_at_phase.empty()) return std::nullopt;
  const Preset& preset = scene.preset;
  scene.stop_phase = find_phase(preset, options.stop_at_phase);
  if (scene.stop_phase) return std::nullopt;
  std::string names;
  for (size_t k = 0; k < preset.protocol.size(); ++k)
    names += (k ? ", " : "") + std::to_string(k + 1) + " '" + preset.protocol[k].name + "'";
  std::cerr << "lodestone-run: --stop-at-phase " << options.stop_at_phase << ": "
            << (preset.protocol.empty() ? "the preset has no protocol" : "no such phase; the phases are " + names)
            << "\n";
  return kExitBadArguments;
}

// The session of a preset (a restart has its own already). Returns the exit code when the scene
// cannot be built.
std::optional<int> build_session(Scene& scene) {
  try {
    if (!scene.session) scene.session = std::make_unique<Session>(scene.preset);
  } catch (const PresetError& e) {
    // Raised while building the scene (generator, model): the path is in the preset, name the file.
    std::cerr << "lodestone-run: bad preset: " << scene.source << " " << e.what() << "\n";
    return kExitBadPreset;
  }
  return std::nullopt;
}

// The preset, the stop phase and the session, on as many threads as asked (default: the hardware's).
// Returns the exit code when the program ends here (an error, or --save-preset done).
std::optional<int> load_scene(const RunOptions& options, Scene& scene) {
  scene.source = scene_source(options);
  if (auto code = load_preset(options, scene)) return code;
  if (auto code = find_stop_phase(options, scene)) return code;
  if (auto code = build_session(scene)) return code;
  scene.session->set_threads(
      options.threads.value_or(static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))));
  return std::nullopt;
}

// [SECTION] Run length and output intervals

// How long the run goes. A protocol runs until its last phase ends (at most the sum of the phase
// durations, or --time); otherwise the run is a number of steps.
struct RunLength {
  bool protocol = false;
  double duration = 0.0;    // [s] of simulated time
  double start_time = 0.0;  // [s] a restart runs --time (or the rest of its protocol) from here
  std::int64_t steps = 0;   // 0: the run ends by time (a protocol)

  bool reached(std::int64_t steps_done, const Session& session) const {
    if (steps > 0) return steps_done >= steps;
    return session.protocol_finished() || session.state().time - start_time >= duration * (1.0 - 1e-12);
  }
};

RunLength run_length(const RunOptions& options, const Preset& preset, const Session& session) {
  RunLength length;
  length.protocol = session.phase_count() > 0;
  double protocol_time = 0.0;
  for (const ProtocolPhase& s : preset.protocol) protocol_time += s.duration;
  const double dt = session.model().time_step;
  length.duration = options.duration.value_or(length.protocol ? protocol_time : preset.run.duration);
  length.start_time = session.state().time;
  length.steps = options.steps.value_or(
      length.protocol ? 0
                      : std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(length.duration / dt - 1e-9))));
  return length;
}

// Steps between frames: --frames-every, else run.frame_interval, else 100 (also the dump interval
// of --lammps-export).
int frame_interval(const RunOptions& options, const Preset& preset) {
  return options.frames_every.value_or(preset.run.frame_interval > 0 ? preset.run.frame_interval : 100);
}

// Steps between rows: the series and the frames as the options or the preset say; the table so
// that it has --table rows over the run.
OutputIntervals output_intervals(const RunOptions& options, const Preset& preset, const RunLength& length, double dt) {
  OutputIntervals every;
  every.series = options.series_every.value_or(preset.run.series_interval);
  every.frames = frame_interval(options, preset);
  const std::int64_t steps = length.steps > 0 ? length.steps : static_cast<std::int64_t>(length.duration / dt);
  every.table = options.table_rows > 0 ? std::max<std::int64_t>(1, steps / options.table_rows) : 0;
  return every;
}

// [SECTION] Before, during and after the run

// What will run, on stdout (with --check also the thermal coupling; with --quiet nothing but --check's report,
// and a time step above the suggestion as a warning on stderr). Ends the program when the initial state fails
// a check (exit 3), and after the summary with --check (exit 0).
std::optional<int> print_summary_and_check(const RunOptions& options, const Scene& scene, std::int64_t steps) {
  const Session& session = *scene.session;
  const Model& m = session.model();
  if (!options.quiet || options.check_only) {
    print_summary(scene.source, scene.preset, session, steps);
    print_reduced_units(scene.preset, session, options.check_only);
    if (options.check_only) print_thermal_coupling(scene.preset, session);
  } else if (m.time_step > m.advice.suggested) {
    std::fprintf(stderr, "lodestone-run: warning: the time step %.4g s is above the suggested %.4g s (limited by %s)\n",
                 m.time_step, m.advice.suggested, m.advice.limited_by.c_str());
  }
  if (!session.state().health.ok) {
    std::cerr << "lodestone-run: the initial state fails a check: " << session.state().health.message << "\n";
    return kExitSimulationStopped;
  }
  if (options.check_only) return kExitOk;
  return std::nullopt;
}

// Saves the whole state for --restart (the file is replaced atomically); false, with the message on
// stderr, when it cannot.
bool write_checkpoint(const std::string& path, const Session& session) {
  try {
    save_checkpoint(path, session.folded_document(), session.state());
    return true;
  } catch (const CheckpointError& e) {
    std::cerr << "lodestone-run: " << e.what() << "\n";
    return false;
  }
}

// How the run loop ended.
struct LoopEnd {
  std::int64_t steps_done = 0;
  bool stopped_at_phase = false;   // the --stop-at-phase phase began
  bool checkpoint_failed = false;  // a --checkpoint-every checkpoint could not be written
};

// Steps until the run is over, a check fails or the --stop-at-phase phase begins, writing the
// outputs, the progress and the --checkpoint-every checkpoints on the way.
LoopEnd run_steps(Session& session, RunOutputs& outputs, const RunOptions& options, const RunLength& length,
                  std::optional<int> stop_phase) {
  Progress progress(length.steps, length.duration, options.progress_seconds, !options.quiet);
  LoopEnd end;
  while (!length.reached(end.steps_done, session)) {
    const int phase = session.state().phase;
    session.step();
    if (!session.state().health.ok) break;
    ++end.steps_done;
    end.stopped_at_phase = stop_phase && session.state().phase == *stop_phase && phase != *stop_phase;
    const bool last = length.reached(end.steps_done, session) || end.stopped_at_phase;
    outputs.write(session, last || session.state().phase != phase);  // a row when a phase begins and at the end
    progress.update(end.steps_done, session.state().time, session.phase_label());
    if (options.checkpoint_every && session.state().step % *options.checkpoint_every == 0 && !last)
      end.checkpoint_failed |= !write_checkpoint(options.checkpoint_path, session);
    if (end.stopped_at_phase) break;
  }
  progress.finish(end.steps_done, session.state().time);
  std::fflush(stdout);
  return end;
}

// `code`, or the output error in place of success: the first failure decides the exit code.
int with_output_error(int code) {
  return code == kExitOk ? kExitOutputError : code;
}

// After the loop: the state a failed check stopped on, the outputs closed, the final --checkpoint,
// and the phase the run stopped at. Returns the exit code.
int finish_run(Session& session, RunOutputs& outputs, const RunOptions& options, bool protocol, const LoopEnd& loop) {
  int code = kExitOk;
  if (!session.state().health.ok) {
    outputs.write(session, true);  // the state the check stopped on
    std::cerr << "lodestone-run: simulation stopped: " << session.state().health.message << "\n";
    code = kExitSimulationStopped;
  }
  if (!outputs.finish()) code = with_output_error(code);
  if (!options.checkpoint_path.empty()) {
    if (!write_checkpoint(options.checkpoint_path, session) || loop.checkpoint_failed)
      code = with_output_error(code);
    else if (!options.quiet)
      std::printf("checkpoint: %s (step %lld, t = %.6g s%s%s)\n", options.checkpoint_path.c_str(),
                  static_cast<long long>(session.state().step), session.state().time, protocol ? ", phase " : "",
                  protocol ? session.phase_label().c_str() : "");
  }
  if (loop.stopped_at_phase && !options.quiet)
    std::printf("stopped as phase %s began\n", session.phase_label().c_str());
  if (options.print_hash) std::printf("hash %s\n", hash_hex(state_hash(session.state())).c_str());
  return code;
}

// Where the run ended, on stdout: the phase reached and the alignment time tau_0.95.
void print_end_state(const Session& session, const Observables& end, bool protocol) {
  if (protocol) std::printf("\n%s after %.4g s\n", session.phase_label().c_str(), end.time);
  if (end.alignment_time >= 0.0)
    std::printf("tau_0.95 = %.6g s (first time <cos theta> >= 0.95 in the last phase); final <cos theta> = %.4f\n",
                end.alignment_time, end.alignment);
  else if (uniform_field(session.model().field, end.time).squaredNorm() > 0.0)
    std::printf("<cos theta> = %.4f: 0.95 not reached in the last phase\n", end.alignment);
}

// The end of the run on stdout: where it ended, the statistics of --clusters and --angles, and the
// time per stage of the step. With --quiet only what was asked for: the statistics, and the time per
// stage with --timing.
void print_final_report(const Session& session, const RunOutputs& outputs, const RunOptions& options, bool protocol) {
  const Observables end = session.observe();
  if (!options.quiet) print_end_state(session, end, protocol);
  outputs.print_final_statistics(session, end);
  if (!options.quiet || options.timing) print_timings(session.timings());
}

// One run of a preset or a checkpoint: load, summarise, open the outputs, step, finish and report.
int run_single(const RunOptions& options) {
  Scene scene;
  if (auto code = load_scene(options, scene)) return *code;
  Session& session = *scene.session;
  const RunLength length = run_length(options, scene.preset, session);
  if (!options.lammps_export_dir.empty())
    return write_lammps_export(options.lammps_export_dir, session, length.steps, frame_interval(options, scene.preset),
                               options.lammps_approximate, options.quiet);
  if (auto code = print_summary_and_check(options, scene, length.steps)) return *code;
  RunOutputs outputs;
  const OutputIntervals every = output_intervals(options, scene.preset, length, session.model().time_step);
  if (auto code = outputs.open(options, every, scene.preset.units, preset_to_text(session.document()))) return *code;
  outputs.start(session);
  const LoopEnd loop = run_steps(session, outputs, options, length, scene.stop_phase);
  const int code = finish_run(session, outputs, options, length.protocol, loop);
  print_final_report(session, outputs, options, length.protocol);
  return code;
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
  return run_single(options);
}
