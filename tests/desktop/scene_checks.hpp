#pragma once
// What the desktop tests share: the scene they start the app on, the app run by remote control, the
// documented colours, and pixel checks ("is this a lit dark-red sphere pixel?") for screenshots and movie frames.

#include "../test_process.hpp"

#include <QImage>
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace lodestone::desktop_test {

namespace fs = std::filesystem;

const fs::path kSourceDir = LODESTONE_SOURCE_DIR;
const std::string kApp = LODESTONE_APP;
const fs::path kScene = kSourceDir / "tests" / "data" / "screenshot-scene.json";

using Rgb = std::array<int, 3>;
// Documented colours (render/colors.cpp, scene background in render/scene_renderer.cpp), 0..255.
constexpr std::array<double, 3> kBlue{0.16, 0.32, 0.85}, kGrey{0.86, 0.86, 0.86}, kDarkRed{0.55, 0.02, 0.02};
const Rgb kBackground{28, 31, 36};  // glClearColor(0.11, 0.12, 0.14)
constexpr int kSidebar = 380;       // ui::kSidebarWidth [px], the side bar the 3-D view starts right of

inline void require_display() {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0')
    FAIL(
        "DISPLAY is not set: the desktop tests start the Qt/OpenGL app and need an X server. Run them through "
        "xvfb-run, e.g. xvfb-run -a -s \"-screen 0 1280x800x24 -nolisten tcp -noreset\" ctest -R desktop");
}

// Every test runs the app in a fresh temporary directory.
struct Workdir : lodestone::test::Workdir {
  Workdir() : lodestone::test::Workdir(kApp) {}
};

// The app in remote-control mode (app/desktop/remote_control.hpp), paused in a 640 x 400 window, reading `commands`
// (one a line, quit last) from a file in `work`; `scene` names what it starts on ("--preset scene.json"), or is empty.
inline lodestone::test::Result run_remote(const Workdir& work, const std::string& commands,
                                          const std::string& scene = "") {
  lodestone::test::write_file(work.path() / "commands.txt", commands);
  return work.run("--remote --paused --size 640x400 " + (scene.empty() ? std::string() : scene + " ") +
                  "< commands.txt");
}

inline Rgb pixel(const QImage& image, int x, int y) {
  const QRgb p = image.pixel(x, y);
  return {qRed(p), qGreen(p), qBlue(p)};
}

inline std::string text(const Rgb& c) {
  return "(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) + ")";
}

inline bool near(const Rgb& a, const Rgb& b, int tolerance) {
  for (size_t k = 0; k < 3; ++k)
    if (std::abs(a[k] - b[k]) > tolerance) return false;
  return true;
}

// A lit sphere pixel is the base colour times a brightness (ambient 0.28 .. 1 with diffuse) plus a
// little white specular. Compare the pixel with the base colour scaled to the pixel's brightest
// channel; 14 levels absorb the specular term (at most ~0.22 * 255 at the highlight, a few levels at
// the centre) and rounding, while a different stop colour is off by 50 or more in some channel.
inline bool lit(const Rgb& c, const std::array<double, 3>& base) {
  const double top = std::max({base[0], base[1], base[2]});
  const double brightness = std::max({c[0], c[1], c[2]}) / (255.0 * top);
  if (brightness < 0.25 || brightness > 1.1) return false;
  for (size_t k = 0; k < 3; ++k)
    if (std::abs(c[k] - 255.0 * brightness * base[k]) > 14.0) return false;
  return true;
}
inline bool dark_red(const Rgb& c) {
  return c[0] > 60 && c[0] - std::max(c[1], c[2]) > 50 && lit(c, kDarkRed);
}
inline bool blue(const Rgb& c) {
  return c[2] - std::max(c[0], c[1]) > 50 && c[1] > c[0] && lit(c, kBlue);
}
inline bool grey(const Rgb& c) {
  return std::min({c[0], c[1], c[2]}) > 70 && lit(c, kGrey);
}
// The clear colour exactly; 3 levels allow for a colour conversion on the way to the PNG.
inline bool background(const Rgb& c) {
  return near(c, kBackground, 3);
}

}  // namespace lodestone::desktop_test
