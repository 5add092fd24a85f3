#pragma once
// The time series of the headless runner as CSV. Particle frames are written by
// engine/io/export_frames.hpp. Columns and units are documented in docs/outputs.md.

#include "engine/analysis/observables.hpp"

#include <string>

namespace lodestone {

// One CSV header line and one row per call, all SI.
std::string series_header();
std::string series_row(const Observables& o);

}  // namespace lodestone
