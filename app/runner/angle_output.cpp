#include "app/runner/angle_output.hpp"

#include <cmath>

namespace lodestone::runner {

bool AngleOutput::open(const std::string& path) {
  out_.open(path, std::ios::trunc);
  if (!out_) return false;
  out_ << "step,time,stage,quantity,bin_low_deg,bin_high_deg,fraction,count\n";
  return true;
}

void AngleOutput::record(const Observables& o) {
  const AngleHistograms& a = o.angles;
  char head[80];
  std::snprintf(head, sizeof head, "%lld,%.10g,%d,", static_cast<long long>(o.step), o.time, o.phase);
  auto rows = [&](const char* quantity, const auto& fractions) {
    for (size_t k = 0; k < fractions.size(); ++k) {
      const int bin = static_cast<int>(k);
      char line[160];
      std::snprintf(line, sizeof line, "%s%s,%g,%g,%.10g,%lld\n", head, quantity, AngleHistograms::bin_low(bin),
                    AngleHistograms::bin_high(bin), fractions[k],
                    std::llround(fractions[k] * static_cast<double>(a.particles)));
      out_ << line;
    }
  };
  rows("theta", a.theta);
  rows("psi", a.psi);
}

void AngleOutput::print_summary(std::FILE* to, const Observables& o) {
  const AngleHistograms& a = o.angles;
  if (a.particles == 0) {
    std::fprintf(to, "\nAngles at t = %.6g s: no particle carries a moment\n", o.time);
    return;
  }
  std::fprintf(
      to,
      "\nAngles at t = %.6g s over the %lld particles with a moment ([Erokhin-Berkov] Fig. 2): <theta> = %.4g deg "
      "(easy axis to field), <psi> = %.4g deg (moment to easy axis)\n",
      o.time, static_cast<long long>(a.particles), a.mean_theta, a.mean_psi);
}

}  // namespace lodestone::runner
