#pragma once
// The desktop app's autosave writer (issue 41): a thread of its own that turns the copy the simulation thread handed
// over (Snapshot::autosave) into a file of the store (engine/session/autosave_store.hpp), so that neither the window
// nor the physics waits for the disk. It holds one copy at a time: a newer one handed in before the last is written
// replaces it (only the newest state matters). What it last did is read back by the GUI thread (last()).

#include "engine/session/autosave_store.hpp"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace lodestone {

class AutosaveWriter {
 public:
  // What the writer did last: the file written, or why it could not write.
  struct Outcome {
    std::uint64_t written = 0;  // files written so far
    std::uint64_t failed = 0;   // writes that failed so far
    std::string path;           // the last file written
    std::int64_t step = -1;     // the step of its state
    std::string error;          // the last failure ("" after a success)
    std::uint64_t handed = 0;   // copies handed in so far (submit)
  };

  explicit AutosaveWriter(AutosaveStore& store);
  ~AutosaveWriter();  // finishes the write under way, drops one not begun, joins
  AutosaveWriter(const AutosaveWriter&) = delete;
  AutosaveWriter& operator=(const AutosaveWriter&) = delete;

  // [any thread] Hands a copy over to be written; replaces one not yet begun.
  void submit(std::shared_ptr<const Autosave> autosave);
  // [any thread] Waits until every copy handed over is written (or failed).
  void wait_idle();
  Outcome last() const;

 private:
  void run();

  AutosaveStore& store_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::shared_ptr<const Autosave> pending_;  // under mutex_
  bool busy_ = false;                        // under mutex_: a write is under way
  bool quit_ = false;                        // under mutex_
  Outcome outcome_;                          // under mutex_
  std::thread thread_;                       // last: starts after everything above
};

}  // namespace lodestone
