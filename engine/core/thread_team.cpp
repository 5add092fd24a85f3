#include "engine/core/thread_team.hpp"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace lodestone {
namespace {

// Polls `ready` about 0.1 ms before giving up (false): the other thread usually answers within that.
template <class Ready>
bool spin_until(Ready&& ready) {
  for (int k = 0; k < 2000; ++k) {
    if (ready()) return true;
#if defined(__x86_64__)
    _mm_pause();
#endif
  }
  return ready();
}

}  // namespace

ThreadTeam::ThreadTeam(int threads) {
  const int helpers = std::max(threads, 1) - 1;
  errors_.resize(static_cast<size_t>(helpers) + 1);
  partials_.resize(static_cast<size_t>(helpers) + 1);
  workers_.reserve(static_cast<size_t>(helpers));
  for (int k = 1; k <= helpers; ++k) workers_.emplace_back([this, k] { work(k); });
}

ThreadTeam::~ThreadTeam() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_.store(true, std::memory_order_release);
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
}

ThreadTeam& ThreadTeam::serial() {
  static ThreadTeam team(1);
  return team;
}

void ThreadTeam::run(int parts, const std::function<void(int)>& task) {
  parts = std::clamp(parts, 1, size());
  if (parts == 1) {
    task(0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    parts_ = parts;
    std::fill(errors_.begin(), errors_.end(), nullptr);
    pending_.store(parts - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_.notify_all();
  std::exception_ptr own;
  try {
    task(0);
  } catch (...) {
    own = std::current_exception();
  }
  auto all_done = [this] { return pending_.load(std::memory_order_acquire) == 0; };
  if (!spin_until(all_done)) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, all_done);
  }
  if (own) std::rethrow_exception(own);
  for (const std::exception_ptr& e : errors_)
    if (e) std::rethrow_exception(e);
}

void ThreadTeam::work(int part) {
  unsigned long long seen = 0;
  auto new_round = [&] {
    return stopping_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen;
  };
  for (;;) {
    if (!spin_until(new_round)) {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, new_round);
    }
    if (stopping_.load(std::memory_order_acquire)) return;
    const std::function<void(int)>* task = nullptr;
    {
      // Under the lock: a round that did not need this thread may already be followed by the next one.
      std::lock_guard<std::mutex> lock(mutex_);
      seen = generation_.load(std::memory_order_acquire);
      if (part < parts_) task = task_;
    }
    if (!task) continue;  // this round needs fewer parts
    std::exception_ptr error;
    try {
      (*task)(part);
    } catch (...) {
      error = std::current_exception();
    }
    // Moved, not copied: this thread keeps no reference to the exception, which the caller may be
    // handling (and destroying) as soon as pending_ reaches zero.
    errors_[static_cast<size_t>(part)] = std::move(error);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);  // the caller checks pending_ under it before it sleeps
      done_.notify_one();
    }
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

}  // namespace lodestone
