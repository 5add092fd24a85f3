#include "engine/session/autosave_store.hpp"

#include "engine/scene/atomic_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

namespace lodestone {
namespace fs = std::filesystem;
namespace {

constexpr char kExtension[] = ".autosave";
constexpr char kLockName[] = "running.lock";

std::int64_t seconds_since_epoch(fs::file_time_type t) {
  // file_clock to system_clock: the offset measured now (C++20's clock_cast is missing from older libstdc++).
  const auto system = std::chrono::system_clock::now() + (t - fs::file_time_type::clock::now());
  return std::chrono::duration_cast<std::chrono::seconds>(system.time_since_epoch()).count();
}

// "<scene>-<n>.autosave" -> scene and n; false for any other name.
bool split_name(const std::string& name, std::string& scene, std::int64_t& number) {
  const std::string ext = kExtension;
  if (name.size() <= ext.size() || !name.ends_with(ext)) return false;
  const std::string base = name.substr(0, name.size() - ext.size());
  const size_t dash = base.rfind('-');
  if (dash == std::string::npos || dash == 0 || dash + 1 == base.size()) return false;
  const std::string digits = base.substr(dash + 1);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  scene = base.substr(0, dash);
  number = std::stoll(digits);
  return true;
}

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw AutosaveError("cannot open the file for reading");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The autosaves in one program's folder, numbered: (number, path), in no order.
std::vector<std::pair<std::int64_t, fs::path>> autosaves_in(const fs::path& folder) {
  std::vector<std::pair<std::int64_t, fs::path>> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    std::string scene;
    std::int64_t number = 0;
    if (entry.is_regular_file(ec) && split_name(entry.path().filename().string(), scene, number))
      out.emplace_back(number, entry.path());
  }
  return out;
}

}  // namespace

std::string default_state_folder() {
  const char* state = std::getenv("XDG_STATE_HOME");
  // The XDG base directory specification: a relative path is invalid and is ignored.
  if (state && *state && fs::path(state).is_absolute()) return (fs::path(state) / "lodestone").string();
  const char* home = std::getenv("HOME");
  if (!home || !*home) throw AutosaveError("no state folder for autosaves: neither XDG_STATE_HOME nor HOME is set");
  return (fs::path(home) / ".local" / "state" / "lodestone").string();
}

AutosaveStore::AutosaveStore(const std::string& state_folder) : state_folder_(state_folder) {
  const auto started =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  // The pid and the start time name the program; the count, the stores of one process (tests make several within a
  // millisecond: with the same name the second waited for its own folder's lock forever).
  static std::atomic<unsigned> stores_made{0};
  instance_ = std::to_string(::getpid()) + "-" + std::to_string(started) + "-" + std::to_string(stores_made++);
  const fs::path own = fs::path(autosave_folder()) / instance_;
  std::error_code ec;
  fs::create_directories(own, ec);
  if (ec) throw AutosaveError("cannot make the autosave folder " + own.string() + ": " + ec.message());
  const std::string lock = (own / kLockName).string();
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  // Waiting a little: the folder is new and ours, but another program looking for crashed ones may hold its lock for
  // the moment it takes to see that it is empty. Never for ever: after 5 s the autosave is off, saying why.
  int error = lock_fd_ < 0 ? errno : EWOULDBLOCK;
  for (int tries = 0; lock_fd_ >= 0 && error == EWOULDBLOCK && tries < 5000; ++tries) {
    error = ::flock(lock_fd_, LOCK_EX | LOCK_NB) == 0 ? 0 : errno;
    if (error == EWOULDBLOCK) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (error != 0) {
    if (lock_fd_ >= 0) ::close(lock_fd_);
    throw AutosaveError("cannot lock " + lock + ": " +
                        (error == EWOULDBLOCK ? std::string("another program holds it") : std::strerror(error)));
  }
  const std::string pid = std::to_string(::getpid()) + "\n";  // for a person looking: which program runs
  [[maybe_unused]] const ssize_t written = ::write(lock_fd_, pid.data(), pid.size());  // the lock counts, not this
  prune_left_behind();
}

AutosaveStore::~AutosaveStore() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [instance, fd] : adopted_) ::close(fd);
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

std::string AutosaveStore::autosave_folder() const {
  return (fs::path(state_folder_) / "autosave").string();
}

std::string AutosaveStore::write(const Autosave& autosave) {
  const std::string bytes = autosave_to_bytes(autosave);  // outside the lock: the long part
  std::lock_guard<std::mutex> lock(mutex_);
  if (quit_) throw AutosaveError("not written: the program is quitting");
  const fs::path own = fs::path(autosave_folder()) / instance_;
  const std::string scene = autosave.info.scene;
  const fs::path path = own / (scene + "-" + std::to_string(next_number_++) + kExtension);
  try {
    write_file_atomically(path.string(), bytes);
  } catch (const FileWriteError& e) {
    throw AutosaveError("autosave " + path.string() + ": cannot write: " + e.reason());
  }
  // Prune: the scene's older files beyond the newest few.
  std::vector<std::pair<std::int64_t, fs::path>> same_scene;
  for (auto& [number, p] : autosaves_in(own)) {
    std::string s;
    std::int64_t n = 0;
    if (split_name(p.filename().string(), s, n) && s == scene) same_scene.emplace_back(number, p);
  }
  std::sort(same_scene.begin(), same_scene.end());
  std::error_code ec;
  for (size_t k = 0; k + kKeptPerScene < same_scene.size(); ++k) fs::remove(same_scene[k].second, ec);
  return path.string();
}

std::vector<std::string> AutosaveStore::own_files() const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto files = autosaves_in(fs::path(autosave_folder()) / instance_);
  std::sort(files.begin(), files.end());
  std::vector<std::string> out;
  for (auto& [number, p] : files) out.push_back(p.string());
  return out;
}

int AutosaveStore::try_lock(const std::string& instance) const {
  const std::string lock = (fs::path(autosave_folder()) / instance / kLockName).string();
  // A folder without its lock file is a program that died before it made it: nobody's.
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::vector<AutosaveFile> AutosaveStore::left_behind() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<AutosaveFile> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(autosave_folder(), ec)) {
    const std::string instance = entry.path().filename().string();
    if (!entry.is_directory(ec) || instance == instance_) continue;
    const bool adopted =
        std::any_of(adopted_.begin(), adopted_.end(), [&](const auto& a) { return a.first == instance; });
    if (adopted) continue;
    const int fd = try_lock(instance);
    if (fd < 0) continue;  // its program runs
    ::close(fd);
    for (auto& [number, path] : autosaves_in(entry.path())) {
      AutosaveFile f;
      f.path = path.string();
      f.instance = instance;
      f.modified = seconds_since_epoch(fs::last_write_time(path, ec));
      try {
        // The header is near the start: the first 64 KiB hold it but for a huge parameter set.
        std::ifstream in(f.path, std::ios::binary);
        std::string head(1 << 16, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<size_t>(in.gcount()));
        try {
          f.info = autosave_info_from_bytes(head);
        } catch (const AutosaveError&) {
          f.info = autosave_info_from_bytes(read_whole(f.path));
        }
      } catch (const AutosaveError& e) {
        f.problem = e.what();
      }
      out.push_back(std::move(f));
    }
  }
  // Newest first: by the time each was written, the file's own when its header is damaged.
  auto written = [](const AutosaveFile& f) { return f.info ? f.info->saved_at : f.modified; };
  std::stable_sort(out.begin(), out.end(), [&](const AutosaveFile& a, const AutosaveFile& b) {
    return written(a) != written(b) ? written(a) > written(b) : a.path > b.path;
  });
  return out;
}

Autosave AutosaveStore::load(const std::string& path) const {
  try {
    return autosave_from_bytes(read_whole(path));
  } catch (const AutosaveError& e) {
    // Kept aside whole for a look, out of the way of the next restore.
    const fs::path from(path);
    const fs::path aside =
        fs::path(state_folder_) / "damaged" / (from.parent_path().filename().string() + "-" + from.filename().string());
    std::error_code ec;
    fs::create_directories(aside.parent_path(), ec);
    fs::rename(from, aside, ec);
    throw AutosaveError("autosave " + path + ": " + e.what() +
                        (ec ? "; it could not be moved aside: " + ec.message() : "; moved aside to " + aside.string()));
  }
}

void AutosaveStore::adopt(const std::string& instance) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (instance == instance_) return;
  for (const auto& a : adopted_)
    if (a.first == instance) return;
  const int fd = try_lock(instance);
  if (fd >= 0) adopted_.emplace_back(instance, fd);
}

void AutosaveStore::remove_folder(const std::string& instance) const {
  std::error_code ec;
  fs::remove_all(fs::path(autosave_folder()) / instance, ec);
}

void AutosaveStore::discard(const std::string& instance) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (instance == instance_) return;
  const int fd = try_lock(instance);
  if (fd < 0) return;  // its program runs (or another one adopted it)
  remove_folder(instance);
  ::close(fd);
}

void AutosaveStore::quit_cleanly() {
  std::lock_guard<std::mutex> lock(mutex_);
  quit_ = true;
  for (const auto& [instance, fd] : adopted_) {
    remove_folder(instance);
    ::close(fd);
  }
  adopted_.clear();
  remove_folder(instance_);
}

void AutosaveStore::prune_left_behind() {
  // The folders of crashed programs, newest first by their newest file; empty ones go (a program killed before its
  // first autosave).
  std::vector<std::pair<fs::file_time_type, std::string>> crashed;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(autosave_folder(), ec)) {
    const std::string instance = entry.path().filename().string();
    if (!entry.is_directory(ec) || instance == instance_) continue;
    const int fd = try_lock(instance);
    if (fd < 0) continue;
    const auto files = autosaves_in(entry.path());
    if (files.empty()) {
      // A program killed before its first autosave; not one starting up this very moment (its folder is new).
      if (fs::file_time_type::clock::now() - fs::last_write_time(entry.path(), ec) > std::chrono::minutes(1))
        remove_folder(instance);
    } else {
      fs::file_time_type newest = fs::file_time_type::min();
      for (const auto& f : files) newest = std::max(newest, fs::last_write_time(f.second, ec));
      crashed.emplace_back(newest, instance);
    }
    ::close(fd);
  }
  std::sort(crashed.rbegin(), crashed.rend());
  for (size_t k = kKeptLeftBehind; k < crashed.size(); ++k) {
    const int fd = try_lock(crashed[k].second);
    if (fd < 0) continue;
    remove_folder(crashed[k].second);
    ::close(fd);
  }
}

}  // namespace lodestone
