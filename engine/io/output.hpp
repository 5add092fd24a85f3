#pragma once
// The time series of the headless runner as CSV. Particle frames are written by
// engine/io/export_frames.hpp. Columns and units are documented in docs/outputs.md.

#include "engine/analysis/observables.hpp"

#include <string>

namespace lodestone {

// One CSV header line and one row per call, all SI unless the row went through observables_in_units
// (engine/io/output_units.hpp); then `units` is its unit-system note and a first line "# units: NOTE" says so.
std::string series_header(const std::string& units = "");
std::string series_row(const Observables& o);

}  // namespace lodestone
