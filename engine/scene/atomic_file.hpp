#pragma once
// Saving a file so that nothing is lost: the bytes go to "<path>.tmp-<pid>", which is then renamed over
// `path`. A reader never sees half a file, and a failed write leaves the previous file as it was. Every
// file the programs save (presets, checkpoints, frames, sweep scripts) is written this way.

#include <stdexcept>
#include <string>
#include <string_view>

namespace lodestone {

class FileWriteError : public std::runtime_error {
 public:
  FileWriteError(const std::string& path, const std::string& reason)
      : std::runtime_error("cannot write " + path + ": " + reason), reason_(reason) {}
  // Why, without the path: "No space left on device; the previous file is unchanged".
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// Writes `bytes` to `path` atomically; `executable` adds the execute permissions (scripts). Throws
// FileWriteError naming the path and the system's reason.
void write_file_atomically(const std::string& path, std::string_view bytes, bool executable = false);

}  // namespace lodestone
