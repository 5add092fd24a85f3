#pragma once
// Output files of the headless runner (and later the app's export): the time series as CSV and
// particle frames as extended XYZ (OVITO). Columns and units are documented in docs/outputs.md.

#include "engine/model.hpp"
#include "engine/observables.hpp"
#include "engine/state.hpp"

#include <ostream>
#include <string>

namespace lodestone {

// One CSV header line and one row per call, all SI.
std::string series_header();
std::string series_row(const Observables& o);

// One extended-XYZ frame. Properties: id, radius, pos, velo, orientation (x y z w, OVITO's
// order), easy_axis, moment, force, torque; the comment line carries Lattice, Origin, pbc, Time
// and Step.
void write_xyz_frame(std::ostream& out, const Model& model, const State& state);

}  // namespace lodestone
