#pragma once
// A fixed team of threads that runs the parallel parts of a step (issue 7). The work of a stage is
// split into contiguous parts, always the same way for the same scene and team size, and partial
// results (forces on other threads' particles, energies, events) are combined in part order: two runs
// with the same thread count give bit-identical results, and runs with different counts agree to
// round-off (the sums are grouped differently).
//
// Which thread runs which part does not matter for the result, so the parts are handed out as they
// are claimed (issue 26): a partner the scheduler has descheduled (another program busy on the machine)
// costs at most the parts it had begun, never a wait for it to be scheduled again. Each thread claims the
// parts of its own block first, the t-th of the team's size runs of consecutive parts (the caller's begins
// with part 0, which it runs first), so that from stage to stage a thread works on the same particles and
// finds them in its own core's cache; then it takes the parts left in the others' blocks, from their ends
// (issue 38). Waiting threads poll for
// 0.1 ms, then block on a futex (std::atomic wait/notify): no busy-wait on a partner that is
// not running. A team of one runs everything on the calling thread, with no thread at all.
// Plain std::thread and atomics, so ThreadSanitizer sees every hand-over.

#include "engine/core/math.hpp"
#include "engine/core/pair_bands.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace lodestone {

class ThreadTeam {
 public:
  // threads >= 1 (values below are taken as 1).
  explicit ThreadTeam(int threads);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // Most parts one run() takes (more parts than threads balance the load when a thread is held up).
  static constexpr int kMaxParts = 256;
  // Parts per thread of a pair loop (run_pair_parts). Each part beyond the first has force and torque
  // arrays of its own to add up at the end (over its band only), so pair loops are cut less finely than the
  // others; two a thread even out the cost of the list's halves, which differ by up to 8 % (the pairs near the
  // periodic faces are imaged; docs/performance.md).
  static constexpr int kPairPartsPerThread = 2;
  // Calls task(part) for part = 0 .. parts - 1 (parts <= kMaxParts), each exactly once, on the team's
  // threads (part 0 on the calling thread, the others on whichever thread claims them first); returns
  // when all are done. An exception thrown by a part is rethrown here (the first, by part order).
  void run(int parts, const std::function<void(int)>& task);

  // The team of one that stages use when no team is given (tests, tools): runs inline, holds no
  // state, safe to share between threads.
  static ThreadTeam& serial();

  // Force and torque arrays of part `part` >= 1 of a pair loop (part 0 adds to the real arrays), kept
  // between steps so that no step allocates. Only a team's own parts use them.
  struct PartialForces {
    std::vector<Vec3> force, torque;
  };
  PartialForces& partial_forces(int part) { return partials_[static_cast<size_t>(part)]; }

 private:
  // The loop of worker `self` (1 .. size - 1).
  void work(int self);
  // Claims and runs parts of the current round, as thread `self` (0: the caller), until none is left unclaimed.
  void run_claimed_parts(int self);
  // The next part thread `self` claims from the blocks of round `generation` (its own, then with `steal` the others'),
  // or -1 when none is left.
  int claim_from_blocks(int self, std::uint32_t generation, bool steal);
  // Runs part `part` of the current round and counts it done; true when it was the last part not done.
  bool run_part(int part);

  std::vector<std::thread> workers_;
  // The round being handed out: generation (bits 32-63), parts (16-31), next unclaimed part (0-15).
  // task_ is written before the round is published here (release) and read after a claim (acquire).
  std::atomic<std::uint64_t> round_{0};
  // Moves on with each round; the workers wait on it (a futex), the caller notifies.
  std::atomic<std::uint32_t> generation_{0};
  // Parts of the current round other than part 0 not finished yet; the caller waits on it.
  std::atomic<std::uint32_t> pending_{0};
  std::atomic<bool> stopping_{false};
  // Thread t's block of the current round: generation (bits 32-63), end (16-31), next part (0-15). Its
  // owner claims the next part, another thread the last one; one cache line each, so that the owners'
  // claims do not contend. Written by the caller before the round is published.
  struct alignas(64) Block {
    std::atomic<std::uint64_t> word{0};
  };
  std::unique_ptr<Block[]> blocks_;
  const std::function<void(int)>* task_ = nullptr;
  std::vector<std::exception_ptr> errors_;
  std::vector<PartialForces> partials_;
};

// Splits [0, n) into `parts` contiguous ranges of nearly equal length: range k is
// [bounds[k], bounds[k + 1]).
std::vector<size_t> split_evenly(size_t n, int parts);

// How many parts a loop over n items is worth: one per `grain` items, at most the team's size. Small
// scenes stay on one thread, where waking the others would cost more than it saves.
int parts_for(const ThreadTeam& team, size_t n, size_t grain);

// Like parts_for, but up to `per_thread` parts per thread (for loops whose parts cost nothing to add
// up): finer parts let the threads that are running take over the work of one that is held up.
int fine_parts_for(const ThreadTeam& team, size_t n, size_t grain, int per_thread);

// Runs fn(part, begin, end, force, torque) -> Result over [0, items) split evenly into parts (one per
// `grain` items, at most the team's size) and returns the parts' results in part order. Part 0 adds its
// forces and torques to `force` and `torque` (n particles) directly, the other parts to their own arrays,
// which are then added in part order: with a fixed team size the sums are always grouped the same way.
// window(begin, end) -> ParticleWindow bounds the particles the items [begin, end) touch: a part's own arrays are
// cleared and added up over its window only (a part of a pair list ordered by i touches a band of particles, not
// all of them; clearing and adding whole arrays cost as much as the pairs on many threads). Outside its window a part
// would add +0.0, which changes no sum begun at +0.0 (none is -0.0): the result is the same as with whole arrays.
template <class Result, class Window, class Fn>
std::vector<Result> run_pair_parts(ThreadTeam& team, size_t items, size_t grain, size_t n, Vec3* force, Vec3* torque,
                                   Window window, Fn&& fn) {
  const int parts = fine_parts_for(team, items, grain, ThreadTeam::kPairPartsPerThread);
  const std::vector<size_t> bounds = split_evenly(items, parts);
  std::vector<Result> results(static_cast<size_t>(parts));
  std::vector<ParticleWindow> windows(static_cast<size_t>(parts));
  team.run(parts, [&](int k) {
    Vec3* f = force;
    Vec3* t = torque;
    const size_t begin = bounds[static_cast<size_t>(k)], end = bounds[static_cast<size_t>(k) + 1];
    if (k > 0) {
      ThreadTeam::PartialForces& own = team.partial_forces(k);
      own.force.resize(n);
      own.torque.resize(n);
      const ParticleWindow w = window(begin, end);
      windows[static_cast<size_t>(k)] = w;
      for_each_band(w, 0, n, [&](size_t lo, size_t hi) {
        std::fill(own.force.begin() + static_cast<std::ptrdiff_t>(lo),
                  own.force.begin() + static_cast<std::ptrdiff_t>(hi), Vec3::Zero());
        std::fill(own.torque.begin() + static_cast<std::ptrdiff_t>(lo),
                  own.torque.begin() + static_cast<std::ptrdiff_t>(hi), Vec3::Zero());
      });
      f = own.force.data();
      t = own.torque.data();
    }
    results[static_cast<size_t>(k)] = fn(k, begin, end, f, t);
  });
  if (parts > 1) {
    const std::vector<size_t> rows = split_evenly(n, parts);
    team.run(parts, [&](int k) {
      const size_t row_lo = rows[static_cast<size_t>(k)], row_hi = rows[static_cast<size_t>(k) + 1];
      for (int q = 1; q < parts; ++q) {  // each particle's parts in part order
        const ThreadTeam::PartialForces& own = team.partial_forces(q);
        for_each_band(windows[static_cast<size_t>(q)], row_lo, row_hi, [&](size_t lo, size_t hi) {
          for (size_t i = lo; i < hi; ++i) {
            force[i] += own.force[i];
            torque[i] += own.torque[i];
          }
        });
      }
    });
  }
  return results;
}

// Runs fn(begin, end) -> Result over [0, n) split evenly into parts (one per `grain` items, at most `per_thread` a
// thread) and returns the parts' results in part order: for per-item loops that also sum something (an energy), which
// the caller adds up in that order, so that a given team size always groups the sum the same way. More than one part
// a thread where a part would outlast the workers' poll (0.1 ms): a thread that ends its share first would sleep.
template <class Result, class Fn>
std::vector<Result> results_of_parts(ThreadTeam& team, size_t n, size_t grain, Fn&& fn, int per_thread = 1) {
  const int parts = fine_parts_for(team, n, grain, per_thread);
  const std::vector<size_t> bounds = split_evenly(n, parts);
  std::vector<Result> results(static_cast<size_t>(parts));
  team.run(parts, [&](int k) {
    const auto part = static_cast<size_t>(k);
    results[part] = fn(bounds[part], bounds[part + 1]);
  });
  return results;
}

// Runs fn(begin, end) over [0, n) split evenly into parts (one per `grain` items, at most `per_thread` a thread).
// For loops whose iterations write only their own items: the result does not depend on the split.
// Several parts per thread, handed out as claimed: a held-up thread leaves less work behind.
template <class Fn>
void for_each_range(ThreadTeam& team, size_t n, size_t grain, Fn&& fn, int per_thread = 4) {
  const int parts = fine_parts_for(team, n, grain, per_thread);
  const std::vector<size_t> bounds = split_evenly(n, parts);
  team.run(parts, [&](int k) { fn(bounds[static_cast<size_t>(k)], bounds[static_cast<size_t>(k) + 1]); });
}

// to = from, the elements copied in ranges on the team (a copy of several megabytes is bound by memory, which two
// cores read faster than one): the same contents. `to` keeps its storage when it is large enough.
template <class T>
void copy_on_team(ThreadTeam& team, const std::vector<T>& from, std::vector<T>& to) {
  to.resize(from.size());
  constexpr size_t kBytesPerPart = 64 * 1024;
  const size_t grain = std::max<size_t>(1, kBytesPerPart / sizeof(T));
  for_each_range(team, from.size(), grain, [&](size_t begin, size_t end) {
    std::copy(from.begin() + static_cast<std::ptrdiff_t>(begin), from.begin() + static_cast<std::ptrdiff_t>(end),
              to.begin() + static_cast<std::ptrdiff_t>(begin));
  });
}

}  // namespace lodestone
