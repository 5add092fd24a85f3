#include "app/runner/run_outputs.hpp"

#include "app/trajectory/gzip_stream.hpp"
#include "engine/analysis/clusters.hpp"
#include "engine/output/output_units.hpp"
#include "engine/output/series.hpp"
#include "engine/scene/unit_system.hpp"

#include <cstdio>
#include <iostream>

namespace lodestone::runner {
namespace {

void print_table_header() {
  std::printf("\n%10s %12s %12s %12s %12s %9s %9s %9s\n", "step", "time [s]", "E_kin [J]", "E_pot [J]", "balance [J]",
              "<|n.b|>", "contacts", "Z");
}

void print_table_row(const Observables& o) {
  std::printf("%10lld %12.5g %12.5g %12.5g %12.5g %9.4f %9lld %9.3f\n", static_cast<long long>(o.step), o.time,
              o.kinetic(), o.potential(), o.energy_balance(), o.alignment, static_cast<long long>(o.particle_contacts),
              o.coordination);
}

}  // namespace

// The frames: H5MD or GSD by its extension, else a FrameSeriesWriter of the format the extension (less a .gz) names.
std::optional<int> RunOutputs::open_frames(const RunOptions& options, const std::string& preset_json) {
  const std::string& path = options.frames_path;
  try {
    if (trajectory::is_h5md_path(path)) {
      h5md_.emplace(path, preset_json, unit_system_note(units_));
      return std::nullopt;
    }
    if (trajectory::is_gsd_path(path)) {
      gsd_.emplace(path);
      return std::nullopt;
    }
    const bool gzip = trajectory::is_gzip_path(path);
    frames_.emplace(
        path, *frame_format_of(trajectory::without_gzip_suffix(path)), unit_system_note(units_),
        vtk_encoding_of(options.vtk_encoding).value_or(VtkEncoding::Ascii),
        gzip ? FrameSeriesWriter::StreamOpener(trajectory::open_gzip_output) : FrameSeriesWriter::StreamOpener());
  } catch (const ExportError& e) {
    std::cerr << "lodestone-run: " << e.what() << "\n";
    return kExitOutputError;
  }
  return std::nullopt;
}

std::optional<int> RunOutputs::open(const RunOptions& options, const OutputIntervals& intervals,
                                    const DisplayUnits& units, const std::string& preset_json) {
  every_ = intervals;
  units_ = units;
  if (!options.series_path.empty()) {
    series_.open(options.series_path, std::ios::trunc);
    if (!series_) {
      std::cerr << "lodestone-run: cannot write the time series to " << options.series_path << "\n";
      return kExitOutputError;
    }
  }
  // The format follows the extension (checked with the options); a VTK series also keeps a .pvd.
  if (!options.frames_path.empty())
    if (auto code = open_frames(options, preset_json)) return code;
  if (!options.clusters_path.empty() && !clusters_.open(options.clusters_path)) {
    std::cerr << "lodestone-run: cannot write the cluster sizes to " << options.clusters_path << "\n";
    return kExitOutputError;
  }
  if (!options.angles_path.empty() && !angles_.open(options.angles_path)) {
    std::cerr << "lodestone-run: cannot write the angle distributions to " << options.angles_path << "\n";
    return kExitOutputError;
  }
  if (auto code = field_.open(options)) return code;
  return std::nullopt;
}

void RunOutputs::start(const Session& session) {
  if (series_.is_open()) series_ << csv_version_comment() << series_header(unit_system_note(units_));
  if (every_.table > 0) print_table_header();
  write(session, true);  // step 0, before any motion
}

void RunOutputs::write(const Session& session, bool force) {
  const State& state = session.state();
  const std::int64_t step = state.step;
  // One cluster pass and one set of observables per row, shared by the outputs that need them.
  std::optional<Clusters> clusters;
  std::optional<Observables> observed;
  auto observables = [&]() -> const Observables& {
    if (!observed) {
      clusters = find_clusters(state);
      observed = observe(session.model(), state, *clusters);
    }
    return *observed;
  };
  const bool row = force || step % every_.series == 0;
  if (series_.is_open() && row) series_ << series_row(observables_in_units(observables(), units_));
  if (clusters_.is_open() && row) {
    observables();
    clusters_.record(step, state.time, *clusters);
  }
  if (angles_.is_open() && row) angles_.record(observables());
  if ((frames_ || h5md_ || gsd_) && (force || step % every_.frames == 0)) {
    observables();  // the frame's cluster ids come from the same pass
    write_frame(session, *clusters);
  }
  if (field_.is_open() && (force || step % every_.frames == 0)) field_.record(session);
  if (every_.table > 0 && (force || step % every_.table == 0)) print_table_row(observables());
}

// A frame that cannot be written ends the frames, not the run; the exit code says so at the end.
void RunOutputs::write_frame(const Session& session, const Clusters& clusters) {
  try {
    const FrameFields frame = frame_in_units(frame_fields(session.model(), session.state(), clusters), units_);
    if (frames_) frames_->write(frame);
    if (h5md_) h5md_->write(frame);
    if (gsd_) gsd_->write(frame);
  } catch (const ExportError& e) {
    std::cerr << "lodestone-run: " << e.what() << "; no more frames are written\n";
    frames_.reset();
    h5md_.reset();
    gsd_.reset();
    frames_failed_ = true;
  }
}

bool RunOutputs::finish() {
  bool ok = true;
  if ((series_.is_open() && !series_.flush()) || (clusters_.is_open() && !clusters_.flush()) ||
      (angles_.is_open() && !angles_.flush())) {
    std::cerr << "lodestone-run: writing an output file failed (disk full?)\n";
    ok = false;
  }
  if (frames_ || h5md_ || gsd_) {
    try {
      if (frames_) frames_->finish();
      if (h5md_) h5md_->finish();
      if (gsd_) gsd_->finish();
    } catch (const ExportError& e) {
      std::cerr << "lodestone-run: " << e.what() << "\n";
      frames_failed_ = true;
    }
  }
  if (field_.is_open() && !field_.finish()) ok = false;
  return ok && !frames_failed_;
}

void RunOutputs::print_final_statistics(const Session& session, const Observables& end) const {
  if (clusters_.is_open()) clusters_.print_fits(stdout, end.time, find_clusters(session.state()));
  if (angles_.is_open()) AngleOutput::print_summary(stdout, end);
}

}  // namespace lodestone::runner
