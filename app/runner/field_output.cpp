#include "app/runner/field_output.hpp"

#include "engine/output/field_probe.hpp"
#include "engine/scene/atomic_file.hpp"

#include <filesystem>
#include <iostream>

namespace lodestone::runner {

std::string field_slice_stem(const std::string& out) {
  const std::filesystem::path path(out);
  const std::string extension = path.extension().string();
  if (extension == ".csv" || extension == ".vti" || extension == ".pvd") return path.parent_path() / path.stem();
  return out;
}

std::string default_probe_output(const std::string& probe_file) {
  const std::filesystem::path path(probe_file);
  return (path.parent_path() / path.stem()).string() + ".field.csv";
}

std::optional<int> FieldOutput::open(const RunOptions& options) {
  settings_.sum = options.field_exact ? FieldSum::Exact : FieldSum::AsForces;
  if (!options.field_probe_path.empty()) {
    try {
      probes_ = load_probe_points(options.field_probe_path);
    } catch (const FieldInputError& e) {
      std::cerr << "lodestone-run: --field-probe " << e.what() << "\n";
      return kExitBadArguments;
    }
    const std::string out =
        options.field_probe_out.empty() ? default_probe_output(options.field_probe_path) : options.field_probe_out;
    probes_out_.open(out, std::ios::trunc);
    if (!probes_out_) {
      std::cerr << "lodestone-run: --field-probe: cannot write the probe values to " << out << "\n";
      return kExitOutputError;
    }
    probes_out_ << field_probe_header();
  }
  if (!options.field_slice_spec.empty()) {
    slice_ = parse_field_slice(options.field_slice_spec);  // checked when the options were parsed
    slice_stem_ = field_slice_stem(options.field_slice_out);
    slice_out_.open(slice_stem_ + ".csv", std::ios::trunc);
    if (!slice_out_) {
      std::cerr << "lodestone-run: --field-slice: cannot write " << slice_stem_ << ".csv\n";
      return kExitOutputError;
    }
    slice_out_ << field_slice_header();
  }
  return std::nullopt;
}

void FieldOutput::record(const Session& session) {
  if (!is_open() || failed_) return;
  const State& state = session.state();
  const FieldEvaluator field(session.model(), state, settings_);
  if (probes_out_.is_open()) {
    std::vector<Vec3> b(probes_.size());
    field.evaluate(probes_, b);
    probes_out_ << field_probe_rows(state.step, state.time, probes_, b);
  }
  if (slice_) {
    if (!slice_fitted_) {
      fit_to_box(*slice_, session.model().box);
      slice_fitted_ = true;
    }
    const std::vector<Vec3> points = slice_->points();
    std::vector<Vec3> b(points.size());
    field.evaluate(points, b);
    slice_out_ << field_slice_rows(*slice_, state.step, state.time, b);
    const std::string name = std::filesystem::path(slice_stem_).filename().string();
    const std::string file = vtp_frame_name(name, static_cast<std::int64_t>(slice_frames_.size()));
    const std::string vti = file.substr(0, file.size() - 4) + ".vti";
    try {
      write_file_atomically((std::filesystem::path(slice_stem_).parent_path() / vti).string(),
                            field_slice_vti(*slice_, state.step, state.time, b));
      slice_frames_.push_back({state.time, vti});
    } catch (const FileWriteError& e) {
      std::cerr << "lodestone-run: --field-slice: " << e.what() << "; no more slices are written\n";
      failed_ = true;
    }
  }
}

bool FieldOutput::finish() {
  bool ok = !failed_;
  if ((probes_out_.is_open() && !probes_out_.flush()) || (slice_out_.is_open() && !slice_out_.flush())) {
    std::cerr << "lodestone-run: writing a field output failed (disk full?)\n";
    ok = false;
  }
  if (slice_ && !slice_frames_.empty()) {
    try {
      write_file_atomically(slice_stem_ + ".pvd", pvd_text(slice_frames_));
    } catch (const FileWriteError& e) {
      std::cerr << "lodestone-run: --field-slice: " << e.what() << "\n";
      ok = false;
    }
  }
  return ok;
}

}  // namespace lodestone::runner
