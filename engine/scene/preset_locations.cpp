#include "engine/scene/preset_locations.hpp"

#include <filesystem>
#include <system_error>

namespace lodestone {

namespace fs = std::filesystem;

std::string installed_presets_directory() {
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);  // Linux: the running program
  if (error || executable.empty()) return {};
  const fs::path directory = executable.parent_path().parent_path() / "share" / "lodestone" / "presets";
  return fs::is_directory(directory, error) ? directory.lexically_normal().string() : std::string();
}

std::string presets_directory(const std::string& build_tree_directory) {
  if (std::string installed = installed_presets_directory(); !installed.empty()) return installed;
  std::error_code error;
  if (!build_tree_directory.empty() && fs::is_directory(build_tree_directory, error)) return build_tree_directory;
  return {};
}

std::string resolve_preset_argument(const std::string& argument, const std::string& build_tree_directory) {
  std::error_code error;
  if (argument.empty() || fs::exists(argument, error)) return argument;
  const fs::path name(argument);
  if (name.has_parent_path() || name.filename() != name) return argument;
  const std::string directory = presets_directory(build_tree_directory);
  if (directory.empty()) return argument;
  fs::path candidate = fs::path(directory) / name;
  if (candidate.extension() != ".json") candidate += ".json";
  return fs::is_regular_file(candidate, error) ? candidate.string() : argument;
}

}  // namespace lodestone
