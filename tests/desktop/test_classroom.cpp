// Issue 23, "classroom-ready", as a user meets it: the real app frames the particles of a small scene so that
// they fill the view, says honestly what the colours mean in a scene with no field, applies a preset's own
// view when it loads, and answers --help and --version without any display.

#include "scene_checks.hpp"

#include <QImage>
#include <QString>

#include <sstream>
#include <string>

using namespace lodestone::desktop_test;
using lodestone::test::quoted;
using lodestone::test::Result;

namespace {

constexpr int kWidth = 1280, kHeight = 800;

QImage load_screenshot(const Workdir& work, const std::string& preset) {
  const fs::path png = work.path() / "shot.png";
  const Result run =
      work.run(quoted((kSourceDir / "presets" / preset).string()) + " --paused --frames 10 --size " +
               std::to_string(kWidth) + "x" + std::to_string(kHeight) + " --screenshot " + quoted(png.string()));
  INFO("lodestone printed:\n" << run.output);
  REQUIRE(run.code == 0);
  QImage image;
  REQUIRE(image.load(QString::fromStdString(png.string()), "PNG"));
  return image;
}

// The share of the 3-D view's pixels (right of the side bar) that show particles. Only the scene is measured:
// the rows of the Plots header (top) and of the start hint, gizmo and legend (bottom) are left out, and so are
// the background, the moment arrows' yellow, the box's grey lines and the dark translucent panels.
double particle_coverage(const QImage& image, int* leftmost = nullptr, int* rightmost = nullptr) {
  long covered = 0, total = 0;
  int lo = image.width(), hi = -1;
  for (int y = 40; y < image.height() - 130; ++y)
    for (int x = kSidebar; x < image.width(); ++x) {
      ++total;
      const Rgb c = pixel(image, x, y);
      const bool arrow = c[0] > 180 && c[1] > 150 && c[2] < 110 && c[0] - c[2] > 100;
      const bool box = near(c, Rgb{140, 148, 158}, 14);  // render/scene_renderer.cpp kBoxColor
      const bool dark = std::max({c[0], c[1], c[2]}) < 50;
      if (background(c) || arrow || box || dark) continue;
      ++covered;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  if (leftmost) *leftmost = lo;
  if (rightmost) *rightmost = hi;
  return total > 0 ? static_cast<double>(covered) / static_cast<double>(total) : 0.0;
}

// Runs the app with --remote on `preset`, feeding it `commands`; its output.
std::string remote(const Workdir& work, const std::string& preset, const std::string& commands) {
  lodestone::test::write_file(work.path() / "commands.txt", commands);
  const Result r = work.run("--remote --paused --size 1024x700 " + preset + " < commands.txt");
  INFO("lodestone printed:\n" << r.output);
  CHECK(r.code == 0);
  return r.output;
}

// The value of `key=` in the first "view ..." line after `after` lines starting with "view".
std::string view_value(const std::string& output, const std::string& key, int which = 0) {
  std::istringstream in(output);
  int seen = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("view ", 0) != 0) continue;
    if (seen++ != which) continue;
    const size_t at = line.find(" " + key + "=");
    if (at == std::string::npos) return "";
    const size_t start = at + key.size() + 2;
    // Values run to the next " word=" (the legend title has spaces).
    size_t end = start;
    while (end < line.size()) {
      const size_t space = line.find(' ', end);
      if (space == std::string::npos) return line.substr(start);
      const size_t equals = line.find('=', space);
      const size_t next_space = line.find(' ', space + 1);
      if (equals != std::string::npos && (next_space == std::string::npos || equals < next_space))
        return line.substr(start, space - start);
      end = space + 1;
    }
    return line.substr(start);
  }
  return "";
}

}  // namespace

TEST_CASE("after load, chain-falls particles cover at least 5 percent of the 3-D view", "[desktop][classroom]") {
  require_display();
  Workdir work;
  const QImage image = load_screenshot(work, "chain-falls.json");
  const double coverage = particle_coverage(image);
  INFO("chain-falls: particles cover " << 100.0 * coverage << " % of the 3-D view");
  CHECK(coverage >= 0.05);
}

TEST_CASE("after load, magnets-meeting is framed: its two pairs cover at least 5 percent of the 3-D view",
          "[desktop][classroom]") {
  // Two pairs of 1 mm magnets side by side, 8 mm across in all (presets/magnets-meeting.json): framed on the
  // particles in the free part of the view, the four spheres cover at least 5 % of its pixels.
  require_display();
  Workdir work;
  const QImage image = load_screenshot(work, "magnets-meeting.json");
  int left = 0, right = 0;
  const double coverage = particle_coverage(image, &left, &right);
  INFO("magnets-meeting: particles cover " << 100.0 * coverage << " %, from x = " << left << " to " << right);
  CHECK(right - left > 0.6 * (kWidth - kSidebar));
  CHECK(coverage >= 0.05);
}

TEST_CASE("a zero-field scene's legend is not the field-alignment legend", "[desktop][classroom]") {
  require_display();
  Workdir work;
  // magnets-meeting has no field; ask for field alignment explicitly too: the legend says why it shows the
  // moment direction instead.
  const std::string out = remote(work, quoted((kSourceDir / "presets" / "magnets-meeting.json").string()),
                                 "sync\nview\ncolor alignment\nsync\nview\nquit\n");
  const std::string first = view_value(out, "legend", 0), second = view_value(out, "legend", 1);
  INFO(out);
  CHECK(view_value(out, "color", 0) == "direction");
  CHECK(first.find("moment direction") != std::string::npos);
  CHECK(first.find("vs field") == std::string::npos);
  CHECK(view_value(out, "color", 1) == "alignment");
  CHECK(second.find("no applied field") != std::string::npos);
  CHECK(second.find("moment direction") != std::string::npos);
}

TEST_CASE("a preset's view colour mode, pace and plots apply when it loads", "[desktop][classroom]") {
  require_display();
  Workdir work;
  auto scene = [](const std::string& view) {
    return R"({"version": 1, "field": {"strength": "10 mT"},
      "materials": [{"name": "m", "magnetization": "100 kA/m"}],
      "box": {"min": [0, 0, 0], "max": ["4 mm", "4 mm", "4 mm"]},
      "particles": {"kind": "list", "particles": [{"position": ["1 mm", "2 mm", "2 mm"], "radius": "0.5 mm"},
                                                  {"position": ["3 mm", "2 mm", "2 mm"], "radius": "0.5 mm"}]},
      "view": )" +
           view + "}";
  };
  lodestone::test::write_file(work.path() / "a.json", scene(R"({"color_mode": "speed", "pace": 0.5})"));
  lodestone::test::write_file(work.path() / "b.json",
                              scene(R"({"color_mode": "cluster", "pace": 0.01, "plots_open": true,
                                        "camera_yaw": "30 deg", "start_paused": true})"));
  const std::string out = remote(work, "a.json", "sync\nview\nload b.json\nsync\nview\nquit\n");
  INFO(out);
  CHECK(view_value(out, "color", 0) == "speed");
  CHECK(view_value(out, "pace", 0) == "0.5");
  CHECK(view_value(out, "plots", 0) == "0");
  CHECK(view_value(out, "color", 1) == "cluster");  // not the previous scene's
  CHECK(view_value(out, "pace", 1) == "0.01");
  CHECK(view_value(out, "plots", 1) == "1");
  CHECK(view_value(out, "yaw", 1) == "30");
  CHECK(view_value(out, "paused_hint", 1) == "1");
}

TEST_CASE("a save writes the view as it is, and the saved preset brings it back", "[desktop][classroom]") {
  require_display();
  Workdir work;
  const std::string out = remote(work, quoted((kSourceDir / "presets" / "two-dipoles.json").string()),
                                 "sync\ncolor contacts\nsave saved.json\nquit\n");
  INFO(out);
  const std::string saved = lodestone::test::read_file(work.path() / "saved.json");
  CHECK(saved.find("\"color_mode\": \"contacts\"") != std::string::npos);
  CHECK(saved.find("\"pace\":") != std::string::npos);
}

TEST_CASE("lodestone --help and --version work without a display", "[desktop][classroom]") {
  for (const std::string option : {"--help", "--version"}) {
    const Result r = lodestone::test::run_shell("env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM= " + quoted(kApp) +
                                                " " + option + " 2>&1");
    INFO(option << " printed:\n" << r.output);
    CHECK(r.code == 0);
    if (option == "--help") {
      CHECK(r.output.find("Usage") != std::string::npos);
      CHECK(r.output.find("frame all the particles") != std::string::npos);  // the controls are listed
    } else {
      CHECK(r.output.find("Lodestone 0.1.0") != std::string::npos);
      CHECK(r.output.find("built") != std::string::npos);
      CHECK(r.output.find("GPL-3.0-or-later") != std::string::npos);
    }
  }
}

TEST_CASE("a movie of the 3-D view carries its title, the simulated time and the legend", "[desktop][classroom]") {
  require_display();
  Workdir work;
  const Result r = work.run(quoted((kSourceDir / "presets" / "chain-falls.json").string()) +
                            " --frames 4 --size 1000x700 --record movie.png --record-title \"Chain falls\"");
  INFO(r.output);
  REQUIRE(r.code == 0);
  QImage frame;
  REQUIRE(frame.load(QString::fromStdString((work.path() / "movie_000004.png").string()), "PNG"));
  // The corners of a bare view are scene background; the title (top left), the time (bottom left) and the
  // legend (bottom right) sit on dark boxes with light text.
  auto text_pixels = [&](int x0, int y0, int x1, int y1) {
    int n = 0;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x)
        n += std::min({pixel(frame, x, y)[0], pixel(frame, x, y)[1], pixel(frame, x, y)[2]}) > 200;
    return n;
  };
  const int w = frame.width(), h = frame.height();
  CHECK(text_pixels(0, 0, 150, 50) > 30);          // "Chain falls"
  CHECK(text_pixels(0, h - 50, 100, h) > 30);      // "t = 0 s"
  CHECK(text_pixels(w - 260, h - 90, w, h) > 30);  // the legend's title and labels
  // Without the overlay and title: nothing there.
  const Result bare = work.run(quoted((kSourceDir / "presets" / "chain-falls.json").string()) +
                               " --frames 4 --size 1000x700 --record bare.png --record-no-overlay");
  REQUIRE(bare.code == 0);
  REQUIRE(frame.load(QString::fromStdString((work.path() / "bare_000004.png").string()), "PNG"));
  CHECK(text_pixels(0, 0, 150, 50) == 0);
  CHECK(text_pixels(0, frame.height() - 50, 100, frame.height()) == 0);
}
