#include "app/runner/cluster_output.hpp"

#include "engine/analysis/power_law.hpp"
#include "engine/output/frame_fields.hpp"
#include "engine/output/series.hpp"

namespace lodestone::runner {

bool ClusterOutput::open(const std::string& path) {
  out_.open(path, std::ios::trunc);
  if (!out_) return false;
  out_ << csv_version_comment() << "step,time,size,count\n";
  return true;
}

void ClusterOutput::record(std::int64_t step, double time, const Clusters& clusters) {
  std::string head = std::to_string(step) + ',';
  append_number(head, time);  // shortest round-trip form, as the series
  head += ',';
  for (const SizeCount& n : size_distribution(clusters)) out_ << head << n.size << ',' << n.count << '\n';
  // A row repeated at the same step (a phase change on a regular row) enters the fit once.
  if (!times_.empty() && times_.back() == time) return;
  times_.push_back(time);
  mean_sizes_.push_back(cluster_statistics(clusters).mean_cluster_size);
}

void ClusterOutput::print_fits(std::FILE* to, double time, const Clusters& final_clusters) const {
  const ClusterStatistics s = cluster_statistics(final_clusters);
  std::fprintf(to,
               "\nClusters at t = %.6g s: %lld (largest %lld), S = %.4g ([Dominik-Nubold] eq. 17), %lld chains of mean "
               "length %.3g, %lld rings\n",
               time, static_cast<long long>(s.clusters), static_cast<long long>(s.largest_cluster), s.mean_cluster_size,
               static_cast<long long>(s.chains), s.mean_chain_length, static_cast<long long>(s.rings));

  const PowerLawFit remanence = remanence_fit(final_clusters);
  if (remanence.ok) {
    std::fprintf(to,
                 "Accretional remanence |sum m| ~ s^b (eq. 16) over the %d clusters with s >= 2 at t = %.6g s "
                 "(sizes %g to %g): b = %.4f +- %.4f, prefactor %.4g A m^2\n",
                 remanence.points, time, remanence.x_min, remanence.x_max, remanence.exponent, remanence.exponent_error,
                 remanence.prefactor);
    if (remanence.skipped > 0) std::fprintf(to, "  (%d clusters with zero total moment left out)\n", remanence.skipped);
  } else {
    std::fprintf(to,
                 "Accretional remanence: no fit (%d clusters with s >= 2 and a moment; it needs two different "
                 "sizes)\n",
                 remanence.points);
  }

  // z over the second half of the run: S(t) ~ t^z is asymptotic (eq. 18), the early rows are the
  // transient. The time is a sum of steps, so the row at exactly half the steps can fall a rounding
  // error short of half the end time: the relative margin keeps it in.
  std::vector<double> t, S;
  const double end = times_.empty() ? 0.0 : times_.back();
  for (size_t k = 0; k < times_.size(); ++k)
    if (times_[k] >= 0.5 * end * (1.0 - 1e-9) && times_[k] > 0.0) {
      t.push_back(times_[k]);
      S.push_back(mean_sizes_[k]);
    }
  const PowerLawFit dynamic = fit_power_law(t, S);
  if (dynamic.ok)
    std::fprintf(to,
                 "Dynamic exponent S(t) ~ t^z (eq. 18) over the second half of the run, %d rows with t from %.6g "
                 "to %.6g s: z = %.4f +- %.4f\n",
                 dynamic.points, dynamic.x_min, dynamic.x_max, dynamic.exponent, dynamic.exponent_error);
  else
    std::fprintf(to, "Dynamic exponent: no fit (%d rows in the second half of the run; it needs two)\n",
                 dynamic.points);
}

}  // namespace lodestone::runner
