#pragma once
// Where the desktop app keeps its autosaves (issue 41, engine/session/autosave.hpp), and which of them are left from
// a crash. The state folder is $XDG_STATE_HOME/lodestone, else ~/.local/state/lodestone:
//
//   autosave/<instance>/running.lock           this run's marker: its pid, locked (flock) while the program runs
//   autosave/<instance>/<scene>-<n>.autosave   its autosaves, numbered; the newest kKeptPerScene of a scene kept
//   damaged/<instance>-<file>                  autosaves that failed to load, kept aside for a look, never loaded
//
// Each running program has a folder of its own (its pid and start time), so two programs never prune or restore each
// other's files. The lock is the system's (flock): it goes with the process however it ends, SIGKILL included, so a
// folder whose lock can be taken belongs to a program that is gone. A clean quit removes its folder; one that is
// left behind with autosaves in it is a crash, offered for restoring at the next start.
//
// One store is used from two threads (the app's GUI thread lists and restores, its writer thread writes): each member
// takes the store's mutex.

#include "engine/session/autosave.hpp"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace lodestone {

// $XDG_STATE_HOME/lodestone when XDG_STATE_HOME is set to an absolute path, else $HOME/.local/state/lodestone.
// Throws AutosaveError when neither is set.
std::string default_state_folder();

// An autosave found in the store.
struct AutosaveFile {
  std::string path;
  std::string instance;              // the folder of the program that wrote it
  std::int64_t modified = 0;         // [s] since 1970: the file's modification time
  std::optional<AutosaveInfo> info;  // its header; none when the header cannot be read
  std::string problem;               // why it cannot (the header's error), "" when it can
};

class AutosaveStore {
 public:
  static constexpr int kKeptPerScene = 3;    // autosaves of one scene kept by a running program
  static constexpr int kKeptLeftBehind = 3;  // folders of crashed programs kept; older ones are removed

  // Opens `state_folder` (made when missing), makes this program's folder and takes its lock, and removes the
  // folders of crashed programs beyond the newest kKeptLeftBehind. Throws AutosaveError naming the folder.
  explicit AutosaveStore(const std::string& state_folder);
  // Lets go of the lock; the files stay (a crash leaves them so too). quit_cleanly() removes them.
  ~AutosaveStore();
  AutosaveStore(const AutosaveStore&) = delete;
  AutosaveStore& operator=(const AutosaveStore&) = delete;

  const std::string& state_folder() const { return state_folder_; }
  const std::string& instance() const { return instance_; }
  // Writes `autosave` atomically (engine/scene/atomic_file.hpp) as the next file of its scene, then removes the
  // scene's files beyond the newest kKeptPerScene. Returns the path; throws AutosaveError naming the file and why.
  std::string write(const Autosave& autosave);
  // The files of this program, oldest first.
  std::vector<std::string> own_files() const;
  // The autosaves of programs that are no longer running (unclean exits), newest first; those whose header is
  // damaged too (AutosaveFile::problem), so that restoring one refuses it by name.
  std::vector<AutosaveFile> left_behind() const;
  // Reads an autosave whole. A file that does not load is moved aside to damaged/ and refused: AutosaveError
  // "autosave PATH: WHY; moved aside to NEW". Nothing of it is kept.
  Autosave load(const std::string& path) const;
  // A crashed program's folder whose autosave was restored: this program holds its lock from now on (another program
  // does not offer it again) and removes it at a clean quit.
  void adopt(const std::string& instance);
  // Removes a crashed program's folder (the user chose not to restore it).
  void discard(const std::string& instance);
  // A clean quit: removes this program's folder and the folders it adopted.
  void quit_cleanly();

 private:
  std::string autosave_folder() const;
  // The lock of another program's folder, taken without waiting: a descriptor, or -1 while that program runs.
  int try_lock(const std::string& instance) const;
  void remove_folder(const std::string& instance) const;
  void prune_left_behind();

  mutable std::mutex mutex_;
  std::string state_folder_;
  std::string instance_;  // "<pid>-<start time in ms>-<stores made before in this process>"
  int lock_fd_ = -1;
  std::int64_t next_number_ = 1;
  std::vector<std::pair<std::string, int>> adopted_;  // folder, lock descriptor
  bool quit_ = false;
};

}  // namespace lodestone
