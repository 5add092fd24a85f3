#include "engine/thread_team.hpp"

#include <algorithm>

namespace lodestone {

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
    stopping_ = true;
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
    pending_ = parts - 1;
    std::fill(errors_.begin(), errors_.end(), nullptr);
    ++generation_;
  }
  start_.notify_all();
  std::exception_ptr own;
  try {
    task(0);
  } catch (...) {
    own = std::current_exception();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
  task_ = nullptr;
  if (own) std::rethrow_exception(own);
  for (const std::exception_ptr& e : errors_)
    if (e) std::rethrow_exception(e);
}

void ThreadTeam::work(int part) {
  unsigned long long seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    if (part >= parts_) continue;  // this round needs fewer parts
    const std::function<void(int)>* task = task_;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*task)(part);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    errors_[static_cast<size_t>(part)] = error;
    if (--pending_ == 0) done_.notify_one();
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
