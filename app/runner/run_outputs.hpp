#pragma once
// What a single run of lodestone-run writes as it goes: the CSV time series, the particle frames,
// the field probes and slices (field_output.hpp, at the frame interval),
// the cluster sizes (cluster_output.hpp), the angle distributions (angle_output.hpp) and the table on
// stdout, each at its own interval, from one cluster pass per row.

#include "app/runner/angle_output.hpp"
#include "app/runner/cluster_output.hpp"
#include "app/runner/field_output.hpp"
#include "app/runner/run_options.hpp"
#include "app/trajectory/gsd_writer.hpp"
#include "app/trajectory/h5md_writer.hpp"
#include "engine/output/export_frames.hpp"
#include "engine/session/session.hpp"

#include <cstdint>
#include <fstream>
#include <optional>

namespace lodestone::runner {

// Steps between the rows of each output.
struct OutputIntervals {
  int series = 1;          // time series, cluster sizes, angle distributions
  int frames = 100;        // particle frames, field probes and slices
  std::int64_t table = 0;  // rows of the table on stdout; 0: no table
};

class RunOutputs {
 public:
  // Opens the files the options name. Returns the exit code when one cannot be written (its
  // message is on stderr). The series and the frames are written in `units.system` (the preset's). `preset_json`:
  // the scene document, which an H5MD file keeps in its parameters group.
  std::optional<int> open(const RunOptions& options, const OutputIntervals& intervals, const DisplayUnits& units,
                          const std::string& preset_json);
  // The headers, and the rows of step 0, before any motion.
  void start(const Session& session);
  // The rows due at the session's step; with `force` every output writes one (a phase begins, the
  // run ends, a check failed).
  void write(const Session& session, bool force);
  // Flushes the files and closes the frame series; false when any output failed (a message each on
  // stderr, also for frames that stopped during the run).
  bool finish();
  // The final statistics of --clusters and --angles on stdout, for the state `end` was observed in.
  void print_final_statistics(const Session& session, const Observables& end) const;

 private:
  void write_frame(const Session& session, const Clusters& clusters);
  std::optional<int> open_frames(const RunOptions& options, const std::string& preset_json);

  OutputIntervals every_;
  DisplayUnits units_;
  std::ofstream series_;
  std::optional<FrameSeriesWriter> frames_;
  std::optional<trajectory::H5mdWriter> h5md_;  // --frames FILE.h5md (the frames' other writers)
  std::optional<trajectory::GsdWriter> gsd_;    // --frames FILE.gsd
  bool frames_failed_ = false;
  ClusterOutput clusters_;
  AngleOutput angles_;
  FieldOutput field_;
};

}  // namespace lodestone::runner
