// The Run panel's time controls (issue 21, docs/history.md): the time slider over the kept history,
// "replay from start" and "last state", stepping by a number of steps or a span of simulated time, and
// the ways back after a failed check. Everything goes to the simulation thread as commands (Rewind,
// StepOnce, GoBack); the slider and the buttons show what the snapshot's HistorySummary says.

#include "engine/scene/unit_values.hpp"
#include "engine/scene/units.hpp"
#include "ui/panels.hpp"
#include "ui/step_progress.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace lodestone::ui {
namespace {

// A span of simulated time typed by the user ("2 ms", "0.5 s", "1e-4"); refused with a message. A bare number is in
// the panels' unit of time: seconds, or lj in a preset in reduced units (issue 42).
bool read_span(UiState& state, const std::string& text, const char* what, double& seconds) {
  std::string error;
  const bool bare = typed_unit_of(json(text)).empty();
  if (parse_quantity_or_si(text, Quantity::Time, seconds, error) && seconds > 0.0) {
    if (bare) seconds = shown_to_si(seconds, Quantity::Time, state.edited.units);
    return true;
  }
  state.notice = std::string(what) + ": '" + text + "' is not allowed; type a simulated time above 0, such as 2 ms" +
                 (error.empty() ? "" : " (" + error + ")");
  state.notice_is_error = true;
  return false;
}

void input_text(const char* label, std::string& text, float width) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s", text.c_str());
  ImGui::SetNextItemWidth(width);
  if (ImGui::InputText(label, buffer, sizeof buffer)) text = buffer;
}

// The slider: one position per kept state, and the furthest state reached when it is not kept yet.
void time_slider(PanelContext& c, const HistorySummary& h) {
  const Snapshot& s = c.snapshot;
  std::vector<std::int64_t> steps = h.steps;
  std::vector<double> times = h.times;
  if (h.head_step > steps.back()) {
    steps.push_back(h.head_step);
    times.push_back(h.head_time);
  }
  const int last = static_cast<int>(steps.size()) - 1;
  int at = static_cast<int>(std::upper_bound(steps.begin(), steps.end(), s.step) - steps.begin()) - 1;
  at = std::clamp(at, 0, last);
  if (c.state.scrub_index && ImGui::IsMouseDown(ImGuiMouseButton_Left)) at = std::min(*c.state.scrub_index, last);
  char label[96];
  const double shown = steps[static_cast<size_t>(at)] == s.step || at == last ? s.time : times[static_cast<size_t>(at)];
  const DisplayUnits& units = c.state.edited.units;  // seconds, or lj in a preset in reduced units
  const std::string unit = shown_unit(Quantity::Time, units);
  std::snprintf(label, sizeof label, "t = %.4g %s of %.4g %s", si_to_shown(shown, Quantity::Time, units), unit.c_str(),
                si_to_shown(std::max(h.head_time, s.time), Quantity::Time, units), unit.c_str());
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::BeginDisabled(last == 0);  // nothing to go back to yet
  const bool moved = ImGui::SliderInt("##time", &at, 0, std::max(last, 1), label, ImGuiSliderFlags_NoInput) && last > 0;
  ImGui::EndDisabled();
  if (ImGui::IsItemActivated()) {
    c.state.scrub_resume = s.running;
    if (s.running) c.send(SetRunning{false});
  }
  if (moved) {
    c.state.scrub_index = at;
    // Dragged: the nearest kept state at once; the last position is the newest state, exactly.
    c.send(Rewind{steps[static_cast<size_t>(at)], at != last});
  }
  if (ImGui::IsItemDeactivated()) {
    c.state.scrub_index.reset();
    if (c.state.scrub_resume) c.send(SetRunning{true});
    c.state.scrub_resume = false;
  }
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled) && !ImGui::IsItemActive())  // not over the drag
    ImGui::SetTooltip(
        "The run so far. Drag to go back to an earlier moment and let go to carry on from there.\n"
        "The slider stops at the moments kept in memory (%zu now). Changing a value after going back\n"
        "starts a new run from that moment (you are asked first); Ctrl+Z undoes changes.",
        h.steps.size());
}

}  // namespace

void history_controls(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  UiState& state = c.state;
  const HistorySummary* h = s.history.get();
  if (h && !h->steps.empty()) {
    time_slider(c, *h);
    if (ImGui::Button("|<")) {
      c.send(Rewind{h->steps.front()});
      c.send(SetRunning{true});
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Replay from the start: back to the first moment kept, and run.");
    ImGui::SameLine();
    ImGui::BeginDisabled(s.step >= h->head_step);
    if (ImGui::Button(">|")) c.send(Rewind{h->head_step});
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("Latest: jump to the furthest moment this run reached.");
    ImGui::SameLine();
  }

  // Step by a number of steps, or by a span of simulated time; while that runs, its progress and a Stop button.
  if (s.stepping) {
    ImGui::ProgressBar(static_cast<float>(s.stepping->fraction), ImVec2(-70.0f, 0.0f), "");
    ImGui::SameLine();
    if (ImGui::Button("Stop", ImVec2(60.0f, 0.0f))) c.send(SetRunning{false});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Stop stepping here (space or Esc does the same).");
    ImGui::TextWrapped("%s", step_progress_text(*s.stepping).c_str());
    return;
  }
  ImGui::SetNextItemWidth(64.0f);
  ImGui::InputInt("##steps", &state.step_count, 0, 0);
  state.step_count = std::clamp(state.step_count, 1, 1000000000);
  ImGui::SameLine();
  if (ImGui::Button("Steps")) c.send(StepOnce{state.step_count});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Pause and advance this many time steps (%.3g s each now).", s.time_step);
  ImGui::SameLine();
  input_text("##span", state.step_span, 64.0f);
  ImGui::SameLine();
  if (ImGui::Button("Advance")) {
    double seconds = 0.0;
    if (read_span(state, state.step_span, "advance by", seconds)) c.send(StepOnce{1, seconds});
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Pause and advance by this much simulated time (e.g. 2 ms).");
  if (h && !h->steps.empty()) {
    // What going back costs, in sight: the budget follows the machine (lodestone --history-mib).
    ImGui::TextDisabled("Kept to go back: %zu moment%s, %.0f of %.0f MiB", h->steps.size(),
                        h->steps.size() == 1 ? "" : "s", static_cast<double>(h->bytes) / (1 << 20),
                        static_cast<double>(h->budget) / (1 << 20));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "The moments of this run kept in memory for the time slider, rewind and undo. Beyond the budget\n"
          "older moments are thinned out and nothing stops. By default an eighth of this machine's memory,\n"
          "between 64 and 512 MiB; lodestone --history-mib N sets it.");
  }
}

void recovery_controls(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  UiState& state = c.state;
  const bool edited = s.scene && !s.scene->timeline.empty();
  ImGui::TextWrapped("To carry on: fix the value in its panel and press Run, or");
  ImGui::BeginDisabled(!edited);
  if (ImGui::Button("Go back to before the last change")) c.send(GoBack{});
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(edited ? "Undo the last change and return to the moment it was made."
                             : "No change was made in this run.");
  if (state.go_back_span.empty()) {
    // A few seconds of watching at the pace it ran at, or a tenth of the run.
    char text[32];
    const double span = s.pace.mode == PaceMode::RealTime ? 3.0 * s.pace.value : 0.1 * s.time;
    std::snprintf(text, sizeof text, "%.3g s", span > 0.0 ? span : s.time_step);
    state.go_back_span = text;
  }
  if (ImGui::Button("Go back by")) {
    double seconds = 0.0;
    if (read_span(state, state.go_back_span, "go back by", seconds)) c.send(GoBack{seconds});
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Return to a moment this much simulated time before the stop.");
  ImGui::SameLine();
  input_text("##back", state.go_back_span, 90.0f);
  ImGui::SameLine();
  ImGui::TextDisabled("simulated");
}

void confirmation_popup(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  UiState& state = c.state;
  // Asked whichever way the edit came (a panel, the remote control) once every edit sent was handled: a held edit
  // is never dropped without the question (a later edit replaces the held one in the simulation thread).
  const bool waiting = s.confirmation && s.acknowledged_edit == state.last_edit_id &&
                       s.confirmation->edit_id != state.answered_confirmation;
  if (waiting && !ImGui::IsPopupOpen("Apply this change?")) ImGui::OpenPopup("Apply this change?");
  ImGui::SetNextWindowSize(ImVec2(440.0f, 0.0f), ImGuiCond_Always);
  if (!ImGui::BeginPopupModal("Apply this change?", nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
  if (s.confirmation) {
    ImGui::TextWrapped("%s", s.confirmation->text.c_str());
    ImGui::TextDisabled("The run waits at step %lld until you answer.", static_cast<long long>(s.confirmation->step));
  }
  ImGui::Spacing();
  if (ImGui::Button("Apply anyway") && s.confirmation) {
    state.answered_confirmation = s.confirmation->edit_id;
    c.send(ApplyParameters{s.confirmation->changes, ++state.last_edit_id, true});
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel") && s.confirmation) {
    state.answered_confirmation = s.confirmation->edit_id;
    c.send(DeclineEdit{});
    ImGui::CloseCurrentPopup();
  } else if (!waiting) {
    ImGui::CloseCurrentPopup();  // answered elsewhere (the remote control's confirm or cancel)
  }
  ImGui::EndPopup();
}

}  // namespace lodestone::ui
