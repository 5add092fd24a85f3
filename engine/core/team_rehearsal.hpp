#pragma once
// A rehearsal of the thread team on more cores than this machine has (issue 38: what a step would take on 16
// cores, measured on 2). With LODESTONE_THREAD_PARTS=rehearse in the environment (read once), a team of T threads
// cuts every round into the parts it would give T threads but runs them all on the calling thread, one after
// another, timing each; the results are the same bits as on T threads (which thread runs a part never matters).
// A round's time on T cores is then taken as the parts handed out in order to whichever of T threads is free first
// (the caller starting with part 0), each part taking the time it took alone. What runs outside the rounds runs on
// one thread either way. So the projection counts the serial code, the parts' imbalance and the extra work of many
// parts (their own force arrays), but not the memory bandwidth the cores share nor waking the threads: an upper
// bound on the speed-up, whose distance from a measured one is what the shared memory costs.

#include <vector>

namespace lodestone {

// True when LODESTONE_THREAD_PARTS=rehearse.
bool team_rehearsal_enabled();

// Called by a rehearsed round: the seconds each part took, in part order, on a team of `threads`.
void record_rehearsed_round(const std::vector<double>& part_seconds, int threads);

// Charges what T threads would have saved in the rounds rehearsed on this thread since the last charge (the
// rounds' time one after another less their time on T threads) to slot `stage` (0 .. kRehearsalSlots - 1). The step
// charges at each stage's end, so that a stage's projected time is its measured time less its slot.
inline constexpr int kRehearsalSlots = 32;
void charge_rehearsal_savings(int stage);
// The seconds charged to slot `stage` on this thread so far.
double rehearsal_savings(int stage);
// The seconds the rounds charged to slot `stage` took one after another: the rest of the stage's time ran outside
// the rounds, on one thread.
double rehearsal_seconds_in_rounds(int stage);

// The time on T cores by handing the parts out in order to whichever thread is free first: the makespan. The
// first part goes to the caller, the next T - 1 to the others, each later one to the thread that finishes first.
double makespan_on_threads(const std::vector<double>& part_seconds, int threads);

}  // namespace lodestone
