#include "engine/session/protocol.hpp"

#include "engine/magnetic/field.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

namespace lodestone {

const char* phase_end_name(PhaseEnd until) {
  static const char* names[] = {"time", "no overlap", "settled", "aligned"};
  return names[static_cast<int>(until)];
}

double max_overlap_ratio(const Model& model, const State& state) {
  const Particles& p = state.particles;
  double worst = 0.0;
  for (const IndexPair& pr : state.neighbors.contact_pairs) {
    const auto i = static_cast<size_t>(pr.i), j = static_cast<size_t>(pr.j);
    const double overlap = p.radius[i] + p.radius[j] - minimum_image(model, p.position[i] - p.position[j]).norm();
    worst = std::max(worst, overlap / std::min(p.radius[i], p.radius[j]));
  }
  return worst;
}

double max_speed(const State& state) {
  double fastest = 0.0;
  for (const Vec3& v : state.particles.velocity) fastest = std::max(fastest, v.squaredNorm());
  return std::sqrt(fastest);
}

bool phase_condition_met(const ProtocolPhase& phase, const Model& model, const State& state) {
  switch (phase.until) {
    case PhaseEnd::Time: return false;
    case PhaseEnd::NoOverlap: return max_overlap_ratio(model, state) <= phase.threshold;
    case PhaseEnd::Settled: return max_speed(state) < phase.threshold;
    case PhaseEnd::Aligned: {
      const Vec3 b = field_direction(model.field, state.time);
      const Particles& p = state.particles;
      double sum = 0.0;
      for (size_t i = 0; i < p.size(); ++i) sum += std::abs(p.easy_axis(i).dot(b));
      return p.size() > 0 && sum / static_cast<double>(p.size()) >= phase.threshold;
    }
  }
  return false;
}

}  // namespace lodestone
