#include "engine/session/protocol.hpp"

#include "engine/magnetic/field.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>
#include <vector>

namespace lodestone {

const char* phase_end_name(PhaseEnd until) {
  static const char* names[] = {"time", "no overlap", "settled", "aligned"};
  return names[static_cast<int>(until)];
}

namespace {

// Scans of every particle or pair between steps: parts of this many items (a part costs a few microseconds).
constexpr size_t kScanGrain = 4096;

// The largest of fn(begin, end) over the parts of [0, n): the same on any team.
template <class Fn>
double largest_over_parts(ThreadTeam& team, size_t n, Fn&& fn) {
  const std::vector<double> parts = results_of_parts<double>(team, n, kScanGrain, std::forward<Fn>(fn), 4);
  double largest = 0.0;
  for (double x : parts) largest = std::max(largest, x);
  return largest;
}

}  // namespace

double max_overlap_ratio(const Model& model, const State& state, ThreadTeam& team) {
  const Particles& p = state.particles;
  const std::vector<IndexPair>& pairs = state.neighbors.contact_pairs;
  return largest_over_parts(team, pairs.size(), [&](size_t begin, size_t end) {
    double worst = 0.0;
    for (size_t k = begin; k < end; ++k) {
      const auto i = static_cast<size_t>(pairs[k].i), j = static_cast<size_t>(pairs[k].j);
      const double overlap = p.radius[i] + p.radius[j] - minimum_image(model, p.position[i] - p.position[j]).norm();
      worst = std::max(worst, overlap / std::min(p.radius[i], p.radius[j]));
    }
    return worst;
  });
}

double max_speed(const State& state, ThreadTeam& team) {
  const std::vector<Vec3>& v = state.particles.velocity;
  return std::sqrt(largest_over_parts(team, v.size(), [&](size_t begin, size_t end) {
    double fastest = 0.0;
    for (size_t i = begin; i < end; ++i) fastest = std::max(fastest, v[i].squaredNorm());
    return fastest;
  }));
}

double mean_easy_axis_alignment(const Particles& p, const Vec3& b, ThreadTeam& team) {
  if (p.size() == 0) return 0.0;
  const std::vector<double> sums = results_of_parts<double>(
      team, p.size(), kScanGrain,
      [&](size_t begin, size_t end) {
        double sum = 0.0;
        for (size_t i = begin; i < end; ++i) sum += std::abs(p.easy_axis(i).dot(b));
        return sum;
      },
      4);
  double sum = 0.0;
  for (double part : sums) sum += part;  // in part order
  return sum / static_cast<double>(p.size());
}

bool phase_condition_met(const ProtocolPhase& phase, const Model& model, const State& state, ThreadTeam& team) {
  switch (phase.until) {
    case PhaseEnd::Time: return false;
    case PhaseEnd::NoOverlap: return max_overlap_ratio(model, state, team) <= phase.threshold;
    case PhaseEnd::Settled: return max_speed(state, team) < phase.threshold;
    case PhaseEnd::Aligned:
      return state.particles.size() > 0 &&
             mean_easy_axis_alignment(state.particles, field_direction(model.field, state.time), team) >=
                 phase.threshold;
  }
  return false;
}

}  // namespace lodestone
