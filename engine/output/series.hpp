#pragma once
// The time series of the headless runner as CSV. Particle frames are written by
// engine/output/export_frames.hpp. Columns and units are documented in docs/outputs.md.

#include "engine/analysis/observables.hpp"

#include <string>

namespace lodestone {

// One CSV header line and one row per call, all SI unless the row went through observables_in_units
// (engine/output/output_units.hpp); then `units` is its unit-system note and a first line "# units: NOTE" says so.
std::string series_header(const std::string& units = "");
// "# written by Lodestone 0.1.0\n": the first line of the series and CSV frame files (engine/core/version.hpp). Readers
// skip lines that start with '#' (pandas: comment="#"; numpy: the default).
std::string csv_version_comment();
std::string series_row(const Observables& o);

}  // namespace lodestone
