// Run panel: run / pause / step / reset, pace, time step with the suggested value, simulated
// time, steps/s, frames/s, stage timings, and a failed check's message.

#include "engine/scene/unit_values.hpp"
#include "engine/session/protocol.hpp"
#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <numeric>
#include <string>

namespace lodestone::ui {

namespace {

// The phases with what each changes; the running one highlighted. Panel edits are recorded in the
// timeline (Simulation::edit_parameters), shown below it.
void protocol_tree(const Preset& scene, int running) {
  if (!ImGui::TreeNode("protocol")) return;
  ImGui::TextWrapped(
      "Edits apply to the running phase and stay for the later ones, except for values a later "
      "phase sets itself. Numbers without a unit are SI.");
  for (size_t k = 0; k < scene.protocol.size(); ++k) {
    const ProtocolPhase& phase = scene.protocol[k];
    const bool now = static_cast<int>(k) == running;
    const ImVec4 colour = now ? ImVec4(0.55f, 0.95f, 1.0f, 1.0f) : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    if (phase.until == PhaseEnd::Time)
      ImGui::TextWrapped("%zu %s: %.4g s", k + 1, phase.name.c_str(), phase.duration);
    else
      ImGui::TextWrapped("%zu %s: up to %.4g s, until %s (%.4g)", k + 1, phase.name.c_str(), phase.duration,
                         phase_end_name(phase.until), phase.threshold);
    if (!phase.wait.empty()) ImGui::TextColored(colour, "    then waits for \"%s\"", phase.wait.c_str());
    ImGui::PopStyleColor();
    for (auto it = phase.set.begin(); it != phase.set.end(); ++it)
      ImGui::TextColored(colour, "    %s = %s", it.key().c_str(), it.value().dump().c_str());
  }
  ImGui::TreePop();
}

// The session log (engine/scene/preset_edits.hpp): how many changes, and the next one a replay has to come.
void timeline_line(const std::vector<TimelineEntry>& timeline, std::int64_t step) {
  const size_t count = timeline.size();
  const auto next = std::find_if(timeline.begin(), timeline.end(),
                                 [step](const TimelineEntry& e) { return static_cast<std::int64_t>(e.step) > step; });
  // Shown from the start, so that the first edit does not push the panel down under the pointer.
  if (count == 0)
    ImGui::TextDisabled("timeline: no changes recorded yet");
  else if (next == timeline.end())
    ImGui::TextDisabled("timeline: %zu change%s recorded", count, count == 1 ? "" : "s");
  else
    ImGui::TextDisabled("timeline: %zu change%s recorded, next at step %llu", count, count == 1 ? "" : "s",
                        static_cast<unsigned long long>(next->step));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Parameter changes by step number. File > Save keeps them, and the saved file replays this\n"
        "run: lodestone-run saved.json. A reset starts again with the parameters in force.");
}

// The pace: shown as the simulation thread runs it (a loaded scene brings its own, view.pace); a bad value refused.
void pace_controls(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  UiState& state = c.state;
  const char* modes[] = {"as fast as possible", "sim. time per second", "steps per frame"};
  SetPace pace = s.pace;
  int mode = static_cast<int>(pace.mode);
  bool pace_changed = ImGui::Combo("pace", &mode, modes, 3);
  pace.mode = static_cast<PaceMode>(mode);
  if (pace.mode != PaceMode::Fastest) {
    // Simulated time per real second in the panels' unit of time (s, or lj in a preset in reduced units).
    const bool real_time = pace.mode == PaceMode::RealTime;
    const DisplayUnits& units = state.edited.units;
    double value = real_time ? si_to_shown(pace.value, Quantity::Time, units) : pace.value;
    const std::string label =
        real_time ? "sim. " + shown_unit(Quantity::Time, units) + " per real s" : std::string("steps per frame");
    ImGui::InputDouble(label.c_str(), &value, 0.0, 0.0, "%.4g");
    wrapped_tooltip(pace.mode == PaceMode::RealTime
                        ? "How much simulated time passes in one second on the clock: 0.1 shows a tenth of a "
                          "second of the scene each second (ten times slower than real). Only how fast it is "
                          "shown: the physics is the same. Preset key: view.pace."
                        : "Steps of the simulation per frame drawn.");
    if (ImGui::IsItemDeactivatedAfterEdit()) {
      if (value > 0.0) {
        pace.value = real_time ? shown_to_si(value, Quantity::Time, units) : value;
        pace_changed = true;
        if (state.notice.rfind("pace: ", 0) == 0) state.notice.clear();  // its cause is fixed
      } else {
        state.notice = "pace: " + std::to_string(value) + " is not allowed; it must be greater than 0";
        state.notice_is_error = true;
      }
    }
  }
  if (pace_changed) c.send(pace);
}

// The time step: the field, and the one in use with what limits it.
void time_step_controls(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  UiState& state = c.state;
  EditorContext editor = editor_context(state);
  if (edit_key(integrator_schema(), "time_step", state.edited.integrator, "integrator", editor))
    send_parameters(state, c.send);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  const DisplayUnits& units = state.edited.units;
  const std::string unit = shown_unit(Quantity::Time, units);
  ImGui::TextWrapped("in use %.4g %s; suggested %.4g %s (limited by %s)",
                     si_to_shown(s.time_step, Quantity::Time, units), unit.c_str(),
                     si_to_shown(s.advice.suggested, Quantity::Time, units), unit.c_str(), s.advice.limited_by.c_str());
  ImGui::PopStyleColor();
}

// One line whenever the pace is in simulated time, so that the panels below never move as it comes and goes.
void pace_kept_line(const Snapshot& s) {
  if (s.pace.mode != PaceMode::RealTime) return;
  const std::optional<double> kept = pace_kept(s);
  if (kept && *kept < 0.9)
    ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "running at %.0f %% of the pace", 100.0 * *kept);
  else if (kept)
    ImGui::TextDisabled("keeping the pace (%.0f %%)", 100.0 * std::min(*kept, 1.0));
  else
    ImGui::TextDisabled("%s", s.running ? "pace: measuring" : s.stepping ? "pace: stepping flat out" : "pace: paused");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Below 90 %%, this machine cannot step the scene as fast as the pace asks: a slower pace "
        "(above), fewer particles or a cheaper dipole method (Magnetics) let it keep up.");
}

// Where the run is: the phase, time, step, counts, the pace kept, and each stage's share of a step.
void run_state(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  const UiState& state = c.state;
  ImGui::Separator();
  if (!s.phase_label.empty()) {
    // The protocol phase running ([Erokhin-Berkov]: overlap removal, drop, alignment), with its own clock.
    ImGui::TextColored(ImVec4(0.55f, 0.95f, 1.0f, 1.0f), "phase %s", s.phase_label.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("(%.4g %s in this phase)",
                        si_to_shown(s.observables.phase_time, Quantity::Time, state.edited.units),
                        shown_unit(Quantity::Time, state.edited.units).c_str());
    if (s.scene) protocol_tree(*s.scene, s.observables.phase);
  }
  ImGui::Text("t = %.6g %s   step %lld   %zu particles", si_to_shown(s.time, Quantity::Time, state.edited.units),
              shown_unit(Quantity::Time, state.edited.units).c_str(), static_cast<long long>(s.step),
              s.particles.size());
  if (s.scene) timeline_line(s.scene->timeline, s.step);
  const long long contacts = static_cast<long long>(s.observables.particle_contacts);
  if (state.view_resting)  // no frames to count: the view waits for a change
    ImGui::Text("%.0f steps/s   view at rest   %lld contact%s", s.steps_per_second, contacts, contacts == 1 ? "" : "s");
  else
    ImGui::Text("%.0f steps/s   %.1f frames/s   %lld contact%s", s.steps_per_second,
                static_cast<double>(state.frames_per_second), contacts, contacts == 1 ? "" : "s");
  pace_kept_line(s);
  if (s.observables.bonds > 0 || s.observables.broken_bonds > 0)
    ImGui::Text("%lld bonds   %llu broken", static_cast<long long>(s.observables.bonds),
                static_cast<unsigned long long>(s.observables.broken_bonds));
  if (ImGui::TreeNode("stage timings")) {
    const StageTimings& t = s.timings;
    const double total = std::accumulate(t.total_seconds.begin(), t.total_seconds.end(), 0.0);
    if (t.steps > 0 && total > 0.0) {
      ImGui::Text("%.3g us per step (mean of %lld)", 1e6 * total / static_cast<double>(t.steps),
                  static_cast<long long>(t.steps));
      for (int k = 0; k < kStageCount; ++k) {
        const double share = t.total_seconds[static_cast<size_t>(k)] / total;
        // A short bar: the longest name ("integrate (second half)") beside it still fits the side bar's default width.
        ImGui::ProgressBar(static_cast<float>(share), ImVec2(70, 0), "");
        ImGui::SameLine();
        ImGui::Text("%4.1f %%  %s", 100.0 * share, std::string(stage_name(static_cast<Stage>(k))).c_str());
      }
    } else {
      ImGui::TextDisabled("no steps yet");
    }
    ImGui::TreePop();
  }
}

// A protocol phase that waits for the user (ProtocolPhase::wait): its button, big and first, so that a teacher
// finds it ("Switch the field on"); the press goes through the command queue and is recorded in the timeline.
void waiting_phase_button(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  if (s.waiting_button.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.15f, 0.45f, 0.2f, 1.0f));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.2f, 0.6f, 0.25f, 1.0f));
  if (ImGui::Button(s.waiting_button.c_str(), ImVec2(-1.0f, 0.0f))) c.send(GoOn{next_touch_request(c.state)});
  ImGui::PopStyleColor(2);
  note("The scene waits here for you: it goes on to its next phase when you press this (remote: go).");
}

}  // namespace

void run_panel(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  if (!s.scene_source.empty()) note(s.scene_source);
  scene_summary(c);

  // A step under way (the History panel's Steps or Advance) pauses like a run.
  const bool moving = s.running || s.stepping;
  if (ImGui::Button(moving ? "Pause (space)" : "Run (space)", ImVec2(120, 0))) c.send(SetRunning{!moving});
  ImGui::SameLine();
  if (ImGui::Button("Step")) c.send(StepOnce{1});
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Pause and advance one time step (%.3g s).", s.time_step);
  ImGui::SameLine();
  reset_buttons(c);
  waiting_phase_button(c);

  if (!s.health.ok) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("Stopped: %s", s.health.message.c_str());
    ImGui::PopStyleColor();
    recovery_controls(c);
  }
  history_controls(c);

  pace_controls(c);
  time_step_controls(c);
  run_state(c);
}

}  // namespace lodestone::ui
