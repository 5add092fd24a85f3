#include "engine/core/thread_team.hpp"

#include "engine/core/team_rehearsal.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace lodestone {
namespace {

// Polls `ready` for up to `wait` before giving up (false), pausing between polls. By the clock, not by a count of
// pauses: a pause takes 40-50 ns on recent Intel cores but 18 ns on the development machine's AMD EPYC, where 2000
// of them (the count used before) polled for 37 µs instead of 0.1 ms, and a worker slept through the gaps between
// rounds, each costing a wake-up (docs/performance.md, "Each thread's own parts first").
// No sched_yield in between: the kernel's EEVDF scheduler sends a thread that yields to the back of the
// queue, which on a busy machine can cost a whole time slice per wait (a version that yielded ran two
// threads no faster than one on the loaded development machine). A thread that blocks instead keeps its
// claim to the CPU and runs soon after it is woken.
template <class Ready>
bool spin_until(Ready&& ready, std::chrono::nanoseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (unsigned k = 1;; ++k) {
    if (ready()) return true;
#if defined(__x86_64__)
    _mm_pause();
#endif
    if (k % 64 == 0 && std::chrono::steady_clock::now() >= deadline) return ready();  // a clock read every ~1-3 µs
  }
}

// A worker polls for the next round about 0.1 ms before it blocks: the rounds of a step follow each other
// within tens of microseconds, and waking a blocked thread costs about that much. A worker that is not
// running when a round starts costs nothing but its help: the caller claims the parts it would have run.
constexpr std::chrono::microseconds kWorkerPoll{100};
// The caller waits only for parts other threads have begun; they usually end together with its own. If
// one does not, its thread may have been descheduled, and blocking frees this core for it.
constexpr std::chrono::microseconds kCallerPoll{100};

// LODESTONE_THREAD_PARTS (environment, read once) hands parts out otherwise, for comparing on a given machine; the
// results are the same bits whichever way. By default a thread claims the parts of its own block, then what is left of
// the others' (Home). "claimed": one counter, each thread the lowest part not claimed yet, as from issue 26 to 38 (on
// two cores of the development machine the short per-particle stages then took 1.8-2.8x more CPU time per particle on
// two threads than on one, reading what the other core had just written; docs/performance.md, "Each part's window
// kept with the list"). "blocks": a thread its own block only. "static": part p to thread p mod size, as before issue
// 26 (the caller then waits for a partner that has been descheduled; bench/contention.sh).
enum class HandOut { Home, Claimed, Blocks, Static };
const HandOut hand_out = [] {
  const char* v = std::getenv("LODESTONE_THREAD_PARTS");
  if (v && std::strcmp(v, "claimed") == 0) return HandOut::Claimed;
  if (v && std::strcmp(v, "blocks") == 0) return HandOut::Blocks;
  if (v && std::strcmp(v, "static") == 0) return HandOut::Static;
  return HandOut::Home;
}();

// The last round a worker served, for LODESTONE_THREAD_PARTS=static.
thread_local std::uint32_t served_generation = 0;

// A round's word (parts, next unclaimed part) or a block's (end, next part).
constexpr std::uint64_t round_word(std::uint32_t generation, int parts, int next) {
  return (std::uint64_t{generation} << 32) | (static_cast<std::uint64_t>(parts) << 16) |
         static_cast<std::uint64_t>(next);
}

// LODESTONE_THREAD_PARTS=rehearse: every part of a round on the calling thread, in order, each timed
// (engine/core/team_rehearsal.hpp); the first exception by part order is rethrown, as from a real round.
void run_rehearsed(int parts, const std::function<void(int)>& task, int threads) {
  std::vector<double> seconds(static_cast<size_t>(parts));
  std::exception_ptr first;
  for (int k = 0; k < parts; ++k) {
    const auto start = std::chrono::steady_clock::now();
    try {
      task(k);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
    seconds[static_cast<size_t>(k)] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  record_rehearsed_round(seconds, threads);
  if (first) std::rethrow_exception(first);
}

}  // namespace

ThreadTeam::ThreadTeam(int threads) {
  const int helpers = std::max(threads, 1) - 1;
  errors_.resize(kMaxParts);
  partials_.resize((static_cast<size_t>(helpers) + 1) * kPairPartsPerThread);
  blocks_ = std::make_unique<Block[]>(static_cast<size_t>(helpers) + 1);
  workers_.reserve(static_cast<size_t>(helpers));
  for (int k = 1; k <= helpers; ++k) workers_.emplace_back([this, k] { work(k); });
}

ThreadTeam::~ThreadTeam() {
  stopping_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : workers_) t.join();
}

ThreadTeam& ThreadTeam::serial() {
  static ThreadTeam team(1);
  return team;
}

bool ThreadTeam::run_part(int part) {
  // Claimed: the round cannot end (nor task_ change) before this part is counted as done.
  std::exception_ptr error;
  try {
    (*task_)(part);
  } catch (...) {
    error = std::current_exception();
  }
  // Moved, not copied: this thread keeps no reference to the exception, which the caller may be
  // handling (and destroying) as soon as pending_ reaches zero.
  errors_[static_cast<size_t>(part)] = std::move(error);
  if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    pending_.notify_one();  // the caller may be blocked on it (a no-op unless someone waits)
    return true;
  }
  return false;
}

int ThreadTeam::claim_from_blocks(int self, std::uint32_t generation, bool steal) {
  const int threads = size();
  for (int k = 0; k < (steal ? threads : 1); ++k) {
    const bool own = k == 0;
    std::atomic<std::uint64_t>& cursor = blocks_[static_cast<size_t>((self + k) % threads)].word;
    std::uint64_t word = cursor.load(std::memory_order_acquire);
    for (;;) {
      if (static_cast<std::uint32_t>(word >> 32) != generation) return -1;  // the round is over
      const int next = static_cast<int>(word & 0xffff), end = static_cast<int>((word >> 16) & 0xffff);
      if (next >= end) break;
      // Its owner takes a block's parts from the front, the others from the back: they meet only at its last part.
      const std::uint64_t taken = own ? word + 1 : word - (std::uint64_t{1} << 16);
      if (cursor.compare_exchange_weak(word, taken, std::memory_order_acq_rel, std::memory_order_acquire))
        return own ? next : end - 1;
    }
  }
  return -1;
}

void ThreadTeam::run_claimed_parts(int self) {
  std::uint64_t word = round_.load(std::memory_order_acquire);
  if (hand_out == HandOut::Home || hand_out == HandOut::Blocks) {
    const auto generation = static_cast<std::uint32_t>(word >> 32);
    for (int part; (part = claim_from_blocks(self, generation, hand_out == HandOut::Home)) >= 0;)
      if (run_part(part)) return;
    return;
  }
  // Claimed: the lowest part not claimed yet, the round's counter. Static: this thread's parts own, own + size, ...
  int own = self;
  if (hand_out == HandOut::Static) {
    const auto generation = static_cast<std::uint32_t>(word >> 32);
    if (self > 0 && generation == served_generation) return;  // woken late: this round is served
    served_generation = generation;
    if (own == 0) own = size();  // the caller has run part 0
  }
  for (;;) {
    const int parts = static_cast<int>((word >> 16) & 0xffff);
    int next = static_cast<int>(word & 0xffff);
    if (hand_out == HandOut::Claimed) {
      if (next >= parts) return;
      if (!round_.compare_exchange_weak(word, word + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
    } else {
      if (own >= parts) return;
      next = own;
      own += size();
    }
    if (run_part(next)) return;
    word = round_.load(std::memory_order_acquire);
  }
}

void ThreadTeam::run(int parts, const std::function<void(int)>& task) {
  parts = std::clamp(parts, 1, workers_.empty() ? 1 : kMaxParts);
  if (parts == 1) {
    task(0);
    return;
  }
  if (team_rehearsal_enabled()) {
    run_rehearsed(parts, task, size());
    return;
  }
  // The previous round has ended (pending_ reached zero, acquire), so no thread reads these now.
  task_ = &task;
  std::fill(errors_.begin(), errors_.begin() + parts, nullptr);
  pending_.store(static_cast<std::uint32_t>(parts - 1), std::memory_order_relaxed);
  const std::uint32_t generation = generation_.load(std::memory_order_relaxed) + 1;
  // Thread t's block: parts [t parts / size, (t + 1) parts / size), the caller's less part 0.
  for (int t = 0, threads = size(); t < threads; ++t) {
    const int begin = std::max(1, t * parts / threads), end = std::max(begin, (t + 1) * parts / threads);
    blocks_[static_cast<size_t>(t)].word.store(round_word(generation, end, begin), std::memory_order_relaxed);
  }
  round_.store(round_word(generation, parts, 1), std::memory_order_release);  // part 0 is the caller's
  generation_.store(generation, std::memory_order_release);
  generation_.notify_all();  // wakes the workers that sleep (a no-op unless someone waits)
  std::exception_ptr own;
  try {
    task(0);
  } catch (...) {
    own = std::current_exception();
  }
  run_claimed_parts(0);  // the parts no worker has started yet
  auto all_done = [this] { return pending_.load(std::memory_order_acquire) == 0; };
  if (!spin_until(all_done, kCallerPoll)) {
    for (std::uint32_t left = pending_.load(std::memory_order_acquire); left != 0;
         left = pending_.load(std::memory_order_acquire))
      pending_.wait(left, std::memory_order_acquire);
  }
  if (own) std::rethrow_exception(own);
  for (int k = 1; k < parts; ++k)
    if (errors_[static_cast<size_t>(k)]) std::rethrow_exception(errors_[static_cast<size_t>(k)]);
}

void ThreadTeam::work(int self) {
  std::uint32_t seen = 0;
  auto new_round = [&] { return generation_.load(std::memory_order_acquire) != seen; };
  for (;;) {
    if (!spin_until(new_round, kWorkerPoll)) {
      for (std::uint32_t g = generation_.load(std::memory_order_acquire); g == seen;
           g = generation_.load(std::memory_order_acquire))
        generation_.wait(g, std::memory_order_acquire);
    }
    if (stopping_.load(std::memory_order_acquire)) return;
    seen = generation_.load(std::memory_order_acquire);
    run_claimed_parts(self);
  }
}

std::vector<size_t> split_evenly(size_t n, int parts) {
  const auto p = static_cast<size_t>(std::max(parts, 1));
  std::vector<size_t> bounds(p + 1);
  for (size_t k = 0; k <= p; ++k) bounds[k] = n * k / p;
  return bounds;
}

int parts_for(const ThreadTeam& team, size_t n, size_t grain) {
  const size_t wanted = grain == 0 ? n : n / grain;
  return static_cast<int>(std::clamp<size_t>(wanted, 1, static_cast<size_t>(team.size())));
}

int fine_parts_for(const ThreadTeam& team, size_t n, size_t grain, int per_thread) {
  if (team.size() == 1) return 1;
  const auto threads = static_cast<size_t>(team.size());
  const size_t wanted = grain == 0 ? n : n / grain;
  const size_t most = std::min<size_t>(threads * static_cast<size_t>(std::max(per_thread, 1)), ThreadTeam::kMaxParts);
  size_t parts = std::clamp<size_t>(wanted, 1, most);
  // More parts than threads: a whole number of them a thread, so that each thread's own block is as long (five parts of
  // 10 000 particles left one of two threads three, and the stage 1.5-1.6x faster on two instead of 2x).
  if (parts > threads && parts % threads != 0) parts = std::min({(parts / threads + 1) * threads, most, n});
  return static_cast<int>(parts);
}

}  // namespace lodestone
