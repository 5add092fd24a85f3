#pragma once
// --clusters: the cluster-size distribution n_s(t) in long format (step, time, size, count) at
// each time-series row, and at the end the two power-law fits of [Dominik-Nubold] Sec. 3.2-3.3: the
// accretional remanence |sum m| ~ s^b (eq. 16) and the dynamic exponent of S(t) ~ t^z (eq. 18).

#include "engine/analysis/clusters.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace lodestone::runner {

class ClusterOutput {
 public:
  // Opens the file and writes the header; false when it cannot be written.
  bool open(const std::string& path);
  bool is_open() const { return out_.is_open(); }
  // One block of rows for the clusters at this step; keeps (t, S) for the fit of z.
  void record(std::int64_t step, double time, const Clusters& clusters);
  bool flush() { return static_cast<bool>(out_.flush()); }
  // Prints the final statistics and both fits (what was fitted, over which range) to `to`.
  void print_fits(std::FILE* to, double time, const Clusters& final_clusters) const;

 private:
  std::ofstream out_;
  std::vector<double> times_, mean_sizes_;
};

}  // namespace lodestone::runner
