#pragma once
// What a script reads besides the particle arrays: the time-series row and the contact clusters, as Python
// values built from the same functions the runner writes its CSV with, so the names are those of the CSV's
// columns (docs/outputs.md) and the numbers the same to the last bit.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

#include <pybind11/pybind11.h>

namespace lodestone::python {

// The series row (engine/output/series.hpp) as {column: value}: counts as int, the rest float (nan for an empty
// cell, reduced_time where t_char is not defined).
pybind11::dict series_row_dict(const Model& model, const State& state);

// The clusters of particles in contact (engine/analysis/clusters.hpp) as numpy arrays, one row per cluster
// in ascending label (a cluster's label is its smallest particle id; single particles are clusters of size 1):
// label (uint64), size, contacts (int64), moment (K, 3) [A m^2], chain, ring (bool); and particle_cluster
// (uint64), the label of each particle's cluster in the id order of the particle arrays.
pybind11::dict cluster_dict(const State& state);

}  // namespace lodestone::python
