#pragma once
// Command-line options of lodestone-run, parsed with CLI11.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lodestone::runner {

// Exit codes (also listed in --help).
enum ExitCode : int {
  kExitOk = 0,
  kExitBadArguments = 1,
  kExitBadPreset = 2,
  kExitSimulationStopped = 3,
  kExitOutputError = 4,
};

// The script --cluster-script writes (app/runner/sweep.cpp, docs/sweeps.md).
enum class ClusterFormat : int { Slurm, Parallel };

struct RunOptions {
  std::string preset_path;            // empty: the built-in default preset
  std::optional<std::int64_t> steps;  // run this many steps
  std::optional<double> duration;     // [s] or this much simulated time
  std::optional<double> time_step;    // [s] overrides the preset's
  std::string series_path;            // CSV time series ("" = none)
  std::optional<int> series_every;    // [steps]
  std::string frames_path;          // particle frames, format by extension (engine/output/export_frames.hpp; "" = none)
  std::optional<int> frames_every;  // [steps]
  std::string vtk_encoding =
      "ascii";                    // --vtk-encoding of .vtp frames: ascii, base64 or raw (engine/output/export_vtk.hpp)
  std::string clusters_path;      // cluster-size distribution, long CSV at each series row ("" = none)
  std::string angles_path;        // theta and psi distributions, long CSV at each series row ("" = none)
  std::string field_probe_path;   // --field-probe: points at which B is written at each frame ("" = none)
  std::string field_probe_out;    // their CSV ("" = the probe file's name with .field.csv)
  std::string field_slice_spec;   // --field-slice SPEC OUT: the plane (engine/output/field_slice.hpp; "" = none)
  std::string field_slice_out;    // OUT: stem of OUT.csv, OUT_000000.vti..., OUT.pvd
  bool field_exact = false;       // probes and slices sum every moment (default: as the forces do)
  int table_rows = 10;            // rows of the summary table on stdout (--quiet without --table: 0)
  bool quiet = false;             // only errors, warnings and what was asked for (docs in --help)
  bool timing = false;            // the time per step and per stage at the end, also with --quiet
  double progress_seconds = 2.0;  // wall time between progress lines
  bool check_only = false;        // validate, print the summary, exit
  std::string save_preset_path;   // write the loaded preset (SI, every key) and exit
  bool preset_docs = false;       // print the preset reference (docs/presets.md) and exit
  std::string restart_path;       // continue this checkpoint (with its own preset)
  std::string checkpoint_path;    // write a checkpoint here at the end ("" = none)
  bool print_hash = false;        // print "hash HEX" of the end state (the app's remote verb `hash`)
  std::optional<std::int64_t> checkpoint_every;  // [steps] also every this many steps (same file, replaced)
  std::string stop_at_phase;                     // stop when this protocol phase (name or number from 1) begins
  std::optional<int> threads;                    // engine threads (default: the hardware threads; sweep jobs: 1)
  std::string lammps_export_dir;                 // write DIR/in.lodestone and DIR/data.lodestone and exit ("" = no)
  bool lammps_approximate = false;               // --approximate: export what LAMMPS can only approximate

  // --set PATH=VALUE: preset values overridden for this run, applied in order (overrides.hpp).
  std::vector<std::string> overrides;

  // Parameter sweeps (sweep.hpp, docs/sweeps.md).
  std::vector<std::string> sweeps;                      // "KEY=V1,V2,..." per --sweep
  std::string sweep_dir;                                // job presets, series, logs, sweep.json
  std::optional<int> jobs;                              // jobs at a time (default: hardware threads)
  std::string sweep_out;                                // results CSV ("" = <dir>/results.csv)
  std::optional<double> tau_threshold;                  // <|n.b|> that defines tau (default: sweep.json's, else 0.95)
  std::string collect_dir;                              // --collect-sweep: only collect the results of this directory
  std::string cluster_script;                           // write a SLURM/bash script instead of running the jobs
  ClusterFormat cluster_format = ClusterFormat::Slurm;  // --cluster-format: slurm or parallel (GNU parallel)
  std::vector<std::string> sbatch_lines;                // --sbatch: the site's #SBATCH options (--time=2:00:00)
  std::vector<std::string> cluster_extra;               // --cluster-extra: header lines as given ('#SBATCH --mem=4G')
};

// Parses argv. On --help or a bad argument prints to stdout/stderr and returns the exit code to
// use; otherwise returns std::nullopt and fills `options`.
std::optional<int> parse_run_options(int argc, char** argv, RunOptions& options);

}  // namespace lodestone::runner
