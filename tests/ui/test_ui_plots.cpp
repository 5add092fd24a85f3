// The Plots window's pieces that need no frame (ui/time_plot.hpp): tick values that read well and cover the
// range, and the CSV a plot's "Save CSV" writes.

#include "ui/recording.hpp"
#include "ui/time_plot.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace lodestone::ui;

TEST_CASE("plots: ticks are 1, 2 or 5 times a power of ten apart and lie inside the range", "[ui][plots]") {
  const std::vector<double> a = nice_ticks(0.0, 1.0, 4);
  REQUIRE(a.size() >= 2);
  CHECK(a.front() == Approx(0.0));
  CHECK(a[1] - a[0] == Approx(0.5));
  const std::vector<double> b = nice_ticks(0.0013, 0.0371, 4);
  REQUIRE(b.size() >= 2);
  for (double t : b) {
    CHECK(t >= 0.0013);
    CHECK(t <= 0.0371 + 1e-12);
  }
  CHECK(b[1] - b[0] == Approx(0.01));
  const std::vector<double> c = nice_ticks(-3e-9, 7e-9, 4);
  REQUIRE(c.size() == 2);  // 0 and 5e-9: the step of 2e-9 would give five
  CHECK(c[1] - c[0] == Approx(5e-9));
  CHECK(nice_ticks(1.0, 1.0, 4).empty());  // no range, no ticks
}

TEST_CASE("plots: Save CSV writes time and value per point under a header", "[ui][plots]") {
  const std::string csv = plot_csv("kinetic_J", {0.0f, 0.5f, 1.0f}, {1.0f, 2.5f, 1e-7f});
  CHECK(csv == "time_s,kinetic_J\n0,1\n0.5,2.5\n1,1.00000001e-07\n");
}

TEST_CASE("movies paced in simulated time take a frame per fps-th of the pace, copies when the run jumps",
          "[ui][movies]") {
  RecordSettings settings;
  settings.fps = 10;
  settings.simulated_per_movie_second = 0.5;  // a frame per 0.05 s of simulated time
  std::optional<double> last;
  CHECK(frames_due(settings, 1.0, last) == 1);   // the first frame
  CHECK(frames_due(settings, 1.03, last) == 0);  // not yet 0.05 s on
  CHECK(frames_due(settings, 1.05, last) == 1);
  CHECK(frames_due(settings, 1.26, last) == 4);  // 0.21 s on: four frames' worth, the rest carried
  CHECK(frames_due(settings, 1.30, last) == 1);
  CHECK(frames_due(settings, 100.0, last) == 10);  // a long jump: at most a second of movie
  CHECK(frames_due(settings, 0.0, last) == 1);     // a reset starts again
  settings.simulated_per_movie_second = 0.0;       // unpaced: every drawn frame
  CHECK(frames_due(settings, 0.0, last) == 1);
  CHECK(frames_due(settings, 0.0, last) == 1);
  settings.simulated_per_movie_second = -1.0;
  CHECK_THAT(check_record_settings(settings), Catch::Contains("simulated time per movie second"));
}

TEST_CASE("plots: tau_0.95 reached at a phase's first step reads as already aligned, not as a time", "[ui][plots]") {
  // Issue 39, bug 11: rotating-field-chain showed tau_0.95 = 3.6e-6 s, its one time step.
  const double dt = 3.6e-6;
  CHECK(alignment_time_text(dt, 0.99, dt) == "tau_0.95: already aligned (<cos theta> >= 0.95) when this phase began");
  CHECK(alignment_time_text(0.0, 0.99, dt) == "tau_0.95: already aligned (<cos theta> >= 0.95) when this phase began");
  CHECK(alignment_time_text(0.0123, 0.97, dt) == "tau_0.95 = 0.0123 s in this phase");
  CHECK(alignment_time_text(-1.0, 0.52, dt) == "<cos theta> = 0.520; tau_0.95: not reached in this phase");
}

TEST_CASE("plots: psi of the moments to their axes is shown only where a moment can leave its axis", "[ui][plots]") {
  // Issue 39, bug 11: the psi histogram of rigid dipoles jumped between 0 and 180 deg.
  lodestone::Snapshot s;
  lodestone::Preset p;
  p.materials.resize(2);
  p.materials[0].moment_model = lodestone::MomentModel::Rigid;
  p.materials[1].moment_model = lodestone::MomentModel::Rigid;
  s.in_force = std::make_shared<const lodestone::Preset>(p);
  CHECK_FALSE(moments_can_turn(s));
  p.materials[1].moment_model = lodestone::MomentModel::StonerWohlfarth;
  s.in_force = std::make_shared<const lodestone::Preset>(p);
  CHECK(moments_can_turn(s));
}
