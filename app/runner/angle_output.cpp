#include "app/runner/angle_output.hpp"

#include "engine/output/frame_fields.hpp"
#include "engine/output/series.hpp"

#include <cmath>

namespace lodestone::runner {

bool AngleOutput::open(const std::string& path) {
  out_.open(path, std::ios::trunc);
  if (!out_) return false;
  out_ << csv_version_comment() << "step,time,stage,quantity,bin_low_deg,bin_high_deg,fraction,count\n";
  return true;
}

void AngleOutput::record(const Observables& o) {
  const AngleHistograms& a = o.angles;
  // Time and fractions in shortest round-trip form, as the series (engine/output/frame_fields.hpp).
  std::string head = std::to_string(o.step) + ',';
  append_number(head, o.time);
  head += ',' + std::to_string(o.phase) + ',';
  auto rows = [&](const char* quantity, const auto& fractions) {
    for (size_t k = 0; k < fractions.size(); ++k) {
      const int bin = static_cast<int>(k);
      char bins[64];
      std::snprintf(bins, sizeof bins, ",%g,%g,", AngleHistograms::bin_low(bin), AngleHistograms::bin_high(bin));
      std::string line = head + quantity + bins;
      append_number(line, fractions[k]);
      line += ',' + std::to_string(std::llround(fractions[k] * static_cast<double>(a.particles))) + '\n';
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
  std::fprintf(to,
               "\nAngles at t = %.6g s over the %lld particles with a moment: <theta> = %.4g deg "
               "(easy axis to field), <psi> = %.4g deg (moment to easy axis)\n",
               o.time, static_cast<long long>(a.particles), a.mean_theta, a.mean_psi);
}

}  // namespace lodestone::runner
