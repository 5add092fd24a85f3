#include "engine/core/team_rehearsal.hpp"

#include <queue>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>

namespace lodestone {
namespace {

const bool rehearse = [] {
  const char* v = std::getenv("LODESTONE_THREAD_PARTS");
  return v != nullptr && std::strcmp(v, "rehearse") == 0;
}();

// Per thread: a simulation thread's rounds are its own (the app's and a test's teams never mix their counts).
thread_local double savings = 0.0, in_rounds = 0.0;
thread_local double charged[kRehearsalSlots] = {}, charged_rounds[kRehearsalSlots] = {};

}  // namespace

bool team_rehearsal_enabled() {
  return rehearse;
}

double makespan_on_threads(const std::vector<double>& part_seconds, int threads) {
  // Finishing times of the threads, earliest on top.
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (int t = 0; t < std::max(threads, 1); ++t) free_at.push(0.0);
  double makespan = 0.0;
  for (double d : part_seconds) {
    const double finish = free_at.top() + d;
    free_at.pop();
    free_at.push(finish);
    makespan = std::max(makespan, finish);
  }
  return makespan;
}

void record_rehearsed_round(const std::vector<double>& part_seconds, int threads) {
  const double one_after_another = std::accumulate(part_seconds.begin(), part_seconds.end(), 0.0);
  savings += one_after_another - makespan_on_threads(part_seconds, threads);
  in_rounds += one_after_another;
}

void charge_rehearsal_savings(int stage) {
  if (stage >= 0 && stage < kRehearsalSlots) {
    charged[stage] += savings;
    charged_rounds[stage] += in_rounds;
  }
  savings = 0.0;
  in_rounds = 0.0;
}

double rehearsal_savings(int stage) {
  return stage >= 0 && stage < kRehearsalSlots ? charged[stage] : 0.0;
}

double rehearsal_seconds_in_rounds(int stage) {
  return stage >= 0 && stage < kRehearsalSlots ? charged_rounds[stage] : 0.0;
}

}  // namespace lodestone
