#pragma once
// A triple buffer: one writer publishes whole values, one reader takes the newest, neither ever
// waits for the other (DESIGN: "the GUI never blocks the physics and the physics never blocks a
// frame"). The writer fills write_buffer() and publishes it; the reader calls fetch() and, if it
// returns true, reads read_buffer(). Values published between two fetches are skipped: the newest
// wins. Buffers are reused, so vectors inside T keep their capacity.

#include <array>
#include <atomic>

namespace lodestone {

template <class T>
class TripleBuffer {
 public:
  // [Writer thread]
  T& write_buffer() { return buffers_[static_cast<size_t>(write_)]; }
  void publish() {
    // Hand the written buffer over as the middle one, flagged fresh; take the old middle to write next.
    const int old_middle = middle_.exchange(write_ | kFresh, std::memory_order_acq_rel);
    write_ = old_middle & kIndexMask;
  }

  // [Reader thread] Returns true when a newer value than the one in read_buffer() was published.
  bool fetch() {
    if ((middle_.load(std::memory_order_acquire) & kFresh) == 0) return false;
    const int old_middle = middle_.exchange(read_, std::memory_order_acq_rel);
    read_ = old_middle & kIndexMask;
    return true;
  }
  const T& read_buffer() const { return buffers_[static_cast<size_t>(read_)]; }

 private:
  static constexpr int kIndexMask = 3;
  static constexpr int kFresh = 4;
  std::array<T, 3> buffers_{};
  int write_ = 0;               // owned by the writer
  int read_ = 1;                // owned by the reader
  std::atomic<int> middle_{2};  // shared: index of the middle buffer | kFresh
};

}  // namespace lodestone
