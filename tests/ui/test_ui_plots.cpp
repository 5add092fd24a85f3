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
