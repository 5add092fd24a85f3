#pragma once
// The error of bad input: a preset value, a panel edit, a remote command. Every layer that checks
// parameters throws it (the generator, model preparation, the preset reader), so it lives at the bottom.

#include <stdexcept>
#include <string>

namespace lodestone {

// A bad preset: names the JSON path (e.g. "$.materials[1].density") and what is allowed.
class PresetError : public std::runtime_error {
 public:
  PresetError(const std::string& path, const std::string& message)
      : std::runtime_error(path + ": " + message), path_(path), message_(message) {}
  const std::string& path() const { return path_; }
  const std::string& message() const { return message_; }

 private:
  std::string path_;
  std::string message_;
};

}  // namespace lodestone
