#pragma once
// The extension of a frames path in lower case (".h5md", ".gsd"), by which the runner picks a trajectory format.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>

namespace lodestone::trajectory {

inline std::string lower_case_extension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

}  // namespace lodestone::trajectory
