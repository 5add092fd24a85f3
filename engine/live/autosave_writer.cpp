#include "engine/live/autosave_writer.hpp"

namespace lodestone {

AutosaveWriter::AutosaveWriter(AutosaveStore& store) : store_(store), thread_([this] { run(); }) {}

AutosaveWriter::~AutosaveWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
    pending_.reset();
  }
  wake_.notify_all();
  thread_.join();
}

void AutosaveWriter::submit(std::shared_ptr<const Autosave> autosave) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::move(autosave);
    ++outcome_.handed;
  }
  wake_.notify_one();
}

void AutosaveWriter::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return quit_ || (!pending_ && !busy_); });
}

AutosaveWriter::Outcome AutosaveWriter::last() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return outcome_;
}

void AutosaveWriter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return quit_ || pending_; });
    if (quit_) break;
    std::shared_ptr<const Autosave> autosave = std::move(pending_);
    pending_.reset();
    busy_ = true;
    lock.unlock();
    std::string path, error;
    const std::int64_t step = autosave->point.state.step;
    try {
      path = store_.write(*autosave);  // serialised and written here, off the GUI and simulation threads
    } catch (const std::exception& e) {
      error = e.what();
    }
    autosave.reset();  // let go of the copy before waiting again
    lock.lock();
    busy_ = false;
    if (error.empty()) {
      ++outcome_.written;
      outcome_.path = path;
      outcome_.step = step;
      outcome_.error.clear();
    } else {
      ++outcome_.failed;
      outcome_.error = error;
    }
    if (!pending_) idle_.notify_all();
  }
  idle_.notify_all();
}

}  // namespace lodestone
