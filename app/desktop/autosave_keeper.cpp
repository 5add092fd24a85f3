#include "app/desktop/autosave_keeper.hpp"

#include <ctime>
#include <filesystem>

namespace lodestone::desktop {
namespace {

// "14:32" today, "3 May 14:32" on another day: when an autosave was written, in the user's local time.
std::string clock_text(std::int64_t seconds_since_epoch) {
  const std::time_t t = static_cast<std::time_t>(seconds_since_epoch), now = std::time(nullptr);
  std::tm at{}, today{};
  localtime_r(&t, &at);
  localtime_r(&now, &today);
  char text[64];
  const bool same_day = at.tm_year == today.tm_year && at.tm_yday == today.tm_yday;
  std::strftime(text, sizeof text, same_day ? "%H:%M" : "%e %b %H:%M", &at);
  std::string out = text;
  return out.front() == ' ' ? out.substr(1) : out;
}

// "0.35 s", "12 ms", "0.6454 us": the simulated time, four significant digits, in the unit that keeps it readable
// (a nanograin scene runs for microseconds: "0.0006454 ms" read as nothing).
std::string sim_time_text(double seconds) {
  char text[32];
  if (seconds == 0.0 || seconds >= 0.1)
    std::snprintf(text, sizeof text, "%.4g s", seconds);
  else if (seconds >= 1e-4)
    std::snprintf(text, sizeof text, "%.4g ms", 1e3 * seconds);
  else if (seconds >= 1e-7)
    std::snprintf(text, sizeof text, "%.4g us", 1e6 * seconds);
  else
    std::snprintf(text, sizeof text, "%.4g ns", 1e9 * seconds);
  return text;
}

// The scene's name as a person knows it: its file's name, or "the default scene".
std::string scene_text(const AutosaveInfo& info) {
  if (info.source.empty() || info.source == "built-in default preset") return "the default scene";
  return std::filesystem::path(info.source).filename().string();
}

}  // namespace

AutosaveKeeper::AutosaveKeeper(SimulationThread& simulation, ui::UiState& state, AutosaveSettings settings)
    : simulation_(simulation), state_(state), settings_(std::move(settings)) {
  try {
    if (settings_.state_folder.empty()) settings_.state_folder = default_state_folder();
    store_ = std::make_unique<AutosaveStore>(settings_.state_folder);
  } catch (const AutosaveError& e) {
    state_.notice = std::string("autosave is off: ") + e.what();
    state_.notice_is_error = true;
    return;
  }
  if (settings_.seconds > 0.0) writer_ = std::make_unique<AutosaveWriter>(*store_);
  if (settings_.offer) refresh_offer();
}

AutosaveKeeper::~AutosaveKeeper() = default;

void AutosaveKeeper::refresh_offer() {
  state_.restore_offer = {};
  offered_instance_.clear();
  if (!store_) return;
  const std::vector<AutosaveFile> found = store_->left_behind();
  if (found.empty()) return;
  const AutosaveFile& newest = found.front();
  offered_instance_ = newest.instance;
  const std::string when = clock_text(newest.info ? newest.info->saved_at : newest.modified);
  if (!newest.info) {
    state_.restore_offer.what = "Lodestone did not close properly at " + when + ". Its autosave looks damaged (" +
                                newest.problem + "); restoring it will say more.";
    state_.restore_offer.button = "Try to restore the session of " + when;
    return;
  }
  const AutosaveInfo& info = *newest.info;
  state_.restore_offer.what = "Lodestone did not close properly last time. It saved your session at " + when + ": " +
                              scene_text(info) + ", " + sim_time_text(info.time) + " into the run, with your changes.";
  state_.restore_offer.button = "Restore the session of " + when + " (t = " + sim_time_text(info.time) + ")";
}

std::uint64_t AutosaveKeeper::restore(const ui::CommandSink& send) {
  if (!store_) throw AutosaveError("autosave is off: no state folder to restore from");
  const std::vector<AutosaveFile> found = store_->left_behind();
  if (found.empty())
    throw AutosaveError("no autosaved session to restore: no program left one in " + settings_.state_folder +
                        "/autosave (a clean quit removes its autosaves)");
  const AutosaveFile& newest = found.front();
  Autosave saved;
  try {
    saved = store_->load(newest.path);  // whole and checked, or moved aside and refused by name
  } catch (const AutosaveError&) {
    refresh_offer();  // an older one may still be offered
    throw;
  }
  // This program takes the crashed one's folder: no other program offers it now, and a clean quit removes it.
  store_->adopt(newest.instance);
  const std::string note = "restored the session of " + clock_text(saved.info.saved_at) + " (" +
                           scene_text(saved.info) + ", t = " + sim_time_text(saved.info.time) + ", step " +
                           std::to_string(saved.info.step) + "); it is paused: press space to run it on";
  const std::uint64_t request = ++state_.last_request_id;
  send(RestoreSession{std::move(saved.document), std::move(saved.point), saved.info.source, note, request});
  ++state_.loads_sent;
  state_.selected.reset();
  state_.restore_offer = {};
  offered_instance_.clear();
  return request;
}

void AutosaveKeeper::capture(Clock::time_point now) {
  const Snapshot& s = simulation_.snapshot();
  asked_mark_ = Mark{s.scene_loads, s.scene_revision, state_.saves_done, s.step, s.drag.active, s.drag.target};
  asked_at_ = now;
  simulation_.push(CaptureAutosave{++asked_});
}

void AutosaveKeeper::tick(Clock::time_point now) {
  using Answer = ui::UiState::RestoreOffer::Answer;
  if (state_.restore_offer.answer == Answer::Discard && store_) {
    store_->discard(offered_instance_);
    refresh_offer();  // the next older crash, if any
  } else if (state_.restore_offer.answer == Answer::Later) {
    state_.restore_offer = {};  // offered again at the next start
  }
  if (!writer_) return;
  const Snapshot& s = simulation_.snapshot();
  // The copy asked for has arrived: to the writer (the snapshot keeps its pointer; the writer shares it).
  if (s.autosave && s.autosave_request == asked_ && handed_ != asked_) {
    writer_->submit(s.autosave);
    handed_ = asked_;
  }
  const AutosaveWriter::Outcome outcome = writer_->last();
  if (outcome.written != seen_written_) {
    seen_written_ = outcome.written;
    written_step_ = outcome.step;
  }
  if (handed_ != asked_) return;  // one copy at a time
  const Mark mark{s.scene_loads, s.scene_revision, state_.saves_done, s.step, s.drag.active, s.drag.target};
  if (mark == asked_mark_) return;  // nothing changed since
  // A load, a restore or a save is autosaved at once; any other change once the interval has passed.
  const bool at_once = mark.loads != asked_mark_.loads || mark.saves != asked_mark_.saves;
  const auto interval = std::chrono::duration<double>(settings_.seconds);
  if (at_once || !asked_at_ || now - *asked_at_ >= interval) capture(now);
}

void AutosaveKeeper::quit_cleanly() {
  writer_.reset();  // finishes the file under way
  if (store_) store_->quit_cleanly();
}

}  // namespace lodestone::desktop
