#pragma once
// A multi-producer, single-consumer queue of commands. Producers (the GUI) push; the consumer
// (the simulation thread) takes everything queued, in order, between two steps. The lock is held
// only to append or to swap the vector out, never while a command runs or a step is computed.

#include <mutex>
#include <utility>
#include <vector>

namespace lodestone {

template <class Command>
class CommandQueue {
 public:
  void push(Command command) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back(std::move(command));
  }

  // Moves every queued command, oldest first, into `out` (which is cleared first).
  void drain(std::vector<Command>& out) {
    out.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    std::swap(out, pending_);
  }

  bool empty() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return pending_.empty();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Command> pending_;
};

}  // namespace lodestone
