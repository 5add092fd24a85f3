// Movies from the desktop app (ui/recording.hpp, app/desktop/frame_recorder.*): run the real
// `lodestone` in scripted mode with --record on the three-sphere screenshot scene, read the frames
// back (PNG files, or the MP4 decoded by ffmpeg) and look at them: the number of frames, their
// size and rate, and the three spheres in their colours, in order, centred in the frame.

#include "../test_process.hpp"
#include "scene_checks.hpp"

#include <QImage>
#include <QString>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using lodestone::test::quoted;
using lodestone::test::Result;
using namespace lodestone::desktop_test;

namespace {

const std::string kSceneOptions = " --size 1000x700 --camera -90,0 --frame box --paused";

// A run of non-background pixels along the middle row wider than 6 px: a sphere's cross-section
// (the box's edges cross the row as lines a pixel or two wide). 12 levels around the background
// colour: an MP4's 4:2:0 colour and compression move the flat background by a few levels.
struct Run {
  int begin = 0, end = 0;  // [begin, end) in pixels
  int centre() const { return (begin + end) / 2; }
};

std::vector<Run> runs_on_middle_row(const QImage& image) {
  std::vector<Run> runs;
  const int y = image.height() / 2;
  for (int x = 0; x < image.width(); ++x) {
    if (near(pixel(image, x, y), kBackground, 12)) continue;
    if (runs.empty() || runs.back().end != x) runs.push_back({x, x});
    runs.back().end = x + 1;
  }
  std::erase_if(runs, [](const Run& r) { return r.end - r.begin <= 6; });
  return runs;
}

// The three spheres, left to right dark red, grey, blue; the grey one in the middle of the frame
// (the camera centres the view, the frame crops it symmetrically); the outer two equally far out.
void check_three_spheres(const QImage& image, const std::string& what) {
  INFO(what << ": " << image.width() << " x " << image.height());
  const std::vector<Run> runs = runs_on_middle_row(image);
  REQUIRE(runs.size() == 3);
  bool (*const families[])(const Rgb&) = {dark_red, grey, blue};
  const char* names[] = {"dark red", "grey", "blue"};
  const int y = image.height() / 2;
  for (size_t i = 0; i < 3; ++i) {
    const Rgb c = pixel(image, runs[i].centre(), y);
    INFO("sphere " << i << " (" << names[i] << ") spans x " << runs[i].begin << ".." << runs[i].end << ", centre pixel "
                   << text(c));
    CHECK(families[i](c));
  }
  // Pixel rounding of the scaled frame: 2 px.
  CHECK(std::abs(runs[1].centre() - image.width() / 2) <= 2);
  CHECK(std::abs((runs[1].centre() - runs[0].centre()) - (runs[2].centre() - runs[1].centre())) <= 2);
}

QImage load_png(const fs::path& path) {
  QImage image;
  INFO("reading " << path.string());
  REQUIRE(image.load(QString::fromStdString(path.string()), "PNG"));
  return image;
}

bool have_ffmpeg() {
  return std::system("command -v ffmpeg > /dev/null 2>&1 && command -v ffprobe > /dev/null 2>&1") == 0;
}

}  // namespace

TEST_CASE("a PNG sequence has one file per drawn frame, at the asked size, showing the scene", "[desktop]") {
  require_display();
  Workdir work;
  fs::create_directories(work.path() / "movie");
  const fs::path pattern = work.path() / "movie" / "spheres.png";
  const Result run = work.run("--preset " + quoted(kScene.string()) + kSceneOptions + " --frames 7 --record " +
                              quoted(pattern.string()) + " --record-size 320x240 --record-fps 10");
  INFO("lodestone printed:\n" << run.output);
  REQUIRE(run.code == 0);
  CHECK(run.output.find("7 frames (320x240, 10 frames/s)") != std::string::npos);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(work.path() / "movie"))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  const std::vector<std::string> expected = {"spheres_000001.png", "spheres_000002.png", "spheres_000003.png",
                                             "spheres_000004.png", "spheres_000005.png", "spheres_000006.png",
                                             "spheres_000007.png"};
  CHECK(names == expected);  // numbered from 1, nothing else left behind (no temporary files)
  for (const std::string& name : {std::string("spheres_000001.png"), std::string("spheres_000007.png")}) {
    const QImage frame = load_png(work.path() / "movie" / name);
    REQUIRE(frame.width() == 320);
    REQUIRE(frame.height() == 240);
    check_three_spheres(frame, name);
  }
}

TEST_CASE("an MP4 through ffmpeg has the frames, size and rate asked for, and shows the scene", "[desktop]") {
  require_display();
  if (!have_ffmpeg()) {
    WARN("ffmpeg is not installed: MP4 recording not tested (scripts/install-deps.sh installs it)");
    return;
  }
  Workdir work;
  const fs::path movie = work.path() / "spheres.mp4";
  const Result run = work.run("--preset " + quoted(kScene.string()) + kSceneOptions + " --frames 24 --record " +
                              quoted(movie.string()) + " --record-size 320x240 --record-fps 12");
  INFO("lodestone printed:\n" << run.output);
  REQUIRE(run.code == 0);
  REQUIRE(fs::is_regular_file(movie));
  CHECK_FALSE(fs::exists(work.path() / "spheres.mp4.part"));
  const fs::path probe = work.path() / "probe.txt";
  REQUIRE(std::system(("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                       "stream=codec_name,width,height,r_frame_rate,nb_read_frames -of default=noprint_wrappers=1 " +
                       quoted(movie.string()) + " > " + quoted(probe.string()))
                          .c_str()) == 0);
  const std::string fields = lodestone::test::read_file(probe);
  INFO("ffprobe:\n" << fields);
  CHECK(fields.find("codec_name=h264") != std::string::npos);
  CHECK(fields.find("width=320") != std::string::npos);
  CHECK(fields.find("height=240") != std::string::npos);
  CHECK(fields.find("r_frame_rate=12/1") != std::string::npos);
  CHECK(fields.find("nb_read_frames=24") != std::string::npos);
  // The last frame, decoded: the colours survive the RGB -> YUV 4:2:0 -> RGB round trip (a swapped
  // channel order would turn the dark red sphere blue).
  const fs::path last = work.path() / "last.png";
  REQUIRE(std::system(("ffmpeg -v error -y -i " + quoted(movie.string()) + " -vf \"select=eq(n\\,23)\" -frames:v 1 " +
                       quoted(last.string()))
                          .c_str()) == 0);
  check_three_spheres(load_png(last), "frame 24 of the MP4");
}

TEST_CASE("recording the whole window keeps the panels, at the view's size", "[desktop]") {
  require_display();
  Workdir work;
  const fs::path pattern = work.path() / "window.png";
  const Result run = work.run("--preset " + quoted(kScene.string()) + kSceneOptions + " --frames 3 --record " +
                              quoted(pattern.string()) + " --record-panels");
  INFO("lodestone printed:\n" << run.output);
  REQUIRE(run.code == 0);
  const QImage frame = load_png(work.path() / "window_000003.png");
  CHECK(frame.width() == 1000);  // the window's width; its height less the menu bar
  CHECK(frame.height() > 620);
  CHECK(frame.height() <= 700);
  // The side bar (x < 380) is drawn: its middle column is not scene background.
  int panel_pixels = 0;
  for (int y = 0; y < frame.height(); ++y) panel_pixels += !background(pixel(frame, 190, y));
  CHECK(panel_pixels > frame.height() * 9 / 10);
}

TEST_CASE("bad movie settings are refused with the option, the value and what is allowed", "[desktop]") {
  require_display();
  Workdir work;
  struct Case {
    std::string options, expected;
  };
  const Case cases[] = {
      {"--record movie.gif", "the extension must be .mp4"},
      {"--record movie.mp4 --record-size 321x240", "frame width 321: an MP4 (H.264, 4:2:0 colour) needs even sizes"},
      {"--record movie.png --record-size 8x240", "frame width 8: allowed 16 to 8192 px"},
      {"--record movie.mp4 --record-size big", "--record-size: 'big' is not WIDTHxHEIGHT"},
      {"--record movie.mp4 --record-fps 0", "--record-fps"},
      {"--record no-such-folder/movie.mp4", "the folder 'no-such-folder' does not exist"},
      {"--record-size 320x240", "needs --record FILE"},
  };
  for (const Case& c : cases) {
    const Result run = work.run(c.options + " --frames 2");
    INFO(c.options << " printed:\n" << run.output);
    CHECK(run.code == 1);
    CHECK(run.output.find(c.expected) != std::string::npos);
  }
}
