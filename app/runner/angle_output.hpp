#pragma once
// --angles: the distributions of theta (easy axis to field) and psi (moment to easy axis) of
// [Erokhin-Berkov] eq. 1 (engine/analysis/angles.hpp) over the particles, in long format at each time-series row: one
// row per quantity and 5 deg bin, with the fraction of the particles that carry a moment.

#include "engine/analysis/observables.hpp"

#include <cstdio>
#include <fstream>
#include <string>

namespace lodestone::runner {

class AngleOutput {
 public:
  // Opens the file and writes the header; false when it cannot be written.
  bool open(const std::string& path);
  bool is_open() const { return out_.is_open(); }
  // One block of rows (theta bins, then psi bins) for the observables of this row.
  void record(const Observables& o);
  bool flush() { return static_cast<bool>(out_.flush()); }
  // Prints the mean angles of the final state to `to`.
  static void print_summary(std::FILE* to, const Observables& final_state);

 private:
  std::ofstream out_;
};

}  // namespace lodestone::runner
