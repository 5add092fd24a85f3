#include "engine/scene/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace lodestone {

namespace {

// The reason of the last failed system call, e.g. "Permission denied".
std::string last_error() {
  return errno != 0 ? std::strerror(errno) : "unknown error";
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view bytes, bool executable) {
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  const std::string unchanged = "; the previous file is unchanged";
  {
    errno = 0;
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw FileWriteError(path, last_error() + " (creating " + temporary + ")" + unchanged);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      const std::string why = last_error();
      std::remove(temporary.c_str());
      throw FileWriteError(path, why + unchanged);
    }
  }
  std::error_code error;
  if (executable) {
    namespace fs = std::filesystem;
    fs::permissions(temporary, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, error);
    if (error) {
      std::remove(temporary.c_str());
      throw FileWriteError(path, "cannot make " + temporary + " executable: " + error.message() + unchanged);
    }
  }
  errno = 0;
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = last_error();
    std::remove(temporary.c_str());
    throw FileWriteError(path, "renaming " + temporary + " failed: " + why + unchanged);
  }
}

}  // namespace lodestone
