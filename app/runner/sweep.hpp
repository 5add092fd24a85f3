#pragma once
// Parameter sweeps of lodestone-run (docs/sweeps.md): one preset, some keys each given a list of
// values, the Cartesian product run as independent jobs of this same binary, and one CSV with a
// row per job (status, tau, final alignment).
//
// A sweep directory holds, per job NNN: job_NNN.json (the preset), job_NNN.csv (its time series),
// job_NNN.log (its stdout and stderr) and job_NNN.exit ("<exit code> <wall seconds>", written when
// it ends); and sweep.json (keys, values and jobs), which is all --collect-sweep needs. Jobs run in
// a local process pool or from a generated SLURM/bash script; both leave the same files, so the
// collection step is the same for both.

#include "app/runner/run_options.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lodestone::runner {

// One --sweep KEY=V1,V2,...: the dotted key and the value texts as given.
struct SweepAxis {
  std::string key;                  // "materials.0.friction"
  std::vector<std::string> values;  // {"0.2", "0.5"}
};

// Parses "KEY=V1,V2,...": commas inside [...], {...} or "..." do not split values, so
// `field.direction=[0,0,1],[1,0,0]` gives two values. Returns "" and fills `axis`, or the message.
std::string parse_sweep_spec(const std::string& text, SweepAxis& axis);

// --sweep: write the job presets and sweep.json into --sweep-dir, then run the jobs (or write
// --cluster-script) and collect. Returns the exit code.
int run_sweep(const RunOptions& options);

// --collect-sweep DIR: only the collection step. Returns the exit code.
int collect_sweep(const RunOptions& options);

// What a job's time series says. tau: the first phase_time in the last phase at which the
// `alignment` column reaches `threshold`, interpolated linearly between the two rows around the
// crossing; without `phase`/`phase_time` columns, phase 0 and `time`.
struct SeriesSummary {
  bool read = false;             // false: no file, or no row with the needed columns
  std::optional<double> tau;     // [s]
  double final_alignment = 0.0;  // <|n.b|> of the last row
  double final_time = 0.0;       // [s] time of the last row
};
SeriesSummary summarize_series(const std::string& csv_path, double threshold);

}  // namespace lodestone::runner
