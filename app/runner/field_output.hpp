#pragma once
// --field-probe FILE and --field-slice SPEC OUT: the total field B (engine/magnetic/field_evaluation.hpp) at
// listed points and on a plane, at each frame of the run (the frame interval), full precision:
//   probes:  one CSV (--field-probe-out, default FILE's name with .field.csv), one row per point and frame
//   slice:   OUT.csv (one row per grid point and frame), and per frame OUT_000000.vti... (VTK ImageData) with
//            the collection OUT.pvd for ParaView
// Columns and the SPEC syntax: docs/outputs.md, engine/output/field_slice.hpp, engine/output/field_probe.hpp.

#include "app/runner/run_options.hpp"
#include "engine/magnetic/field_evaluation.hpp"
#include "engine/output/export_vtk.hpp"
#include "engine/output/field_slice.hpp"
#include "engine/session/session.hpp"

#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace lodestone::runner {

class FieldOutput {
 public:
  // Reads the probe file and opens the CSV files the options name. Returns the exit code and prints the
  // message (naming the option) when an input is bad or a file cannot be written.
  std::optional<int> open(const RunOptions& options);
  bool is_open() const { return probes_out_.is_open() || slice_out_.is_open(); }
  // The rows and files of the session's current state.
  void record(const Session& session);
  // Flushes the files and writes the .pvd; false (with a message on stderr) when something failed.
  bool finish();

 private:
  FieldEvaluationSettings settings_;
  std::vector<Vec3> probes_;
  std::ofstream probes_out_;
  std::optional<FieldSlice> slice_;
  bool slice_fitted_ = false;
  std::string slice_stem_;
  std::ofstream slice_out_;
  std::vector<PvdEntry> slice_frames_;
  bool failed_ = false;
};

// The stem of --field-slice's OUT (a .csv, .vti or .pvd extension taken off).
std::string field_slice_stem(const std::string& out);
// The default --field-probe-out for a probe file: "dir/points.txt" -> "dir/points.field.csv".
std::string default_probe_output(const std::string& probe_file);

}  // namespace lodestone::runner
