#include <catch2/catch.hpp>
// The desktop app as a user sees it: start the real `lodestone` binary (LODESTONE_APP) in scripted
// mode on a small known scene, load the PNG it writes, and look at it: the spheres where the
// camera puts them, in the colours the legend promises, on the dark background, with the side bar
// and the legend drawn. Also its exit codes when the preset or the screenshot path is bad.
//
// Needs an X display: run through `xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp -noreset" ctest ...`.
// Nothing here starts Qt's GUI: QImage only decodes the PNG, so listing the tests needs no display.

#include "../test_process.hpp"
#include "scene_checks.hpp"

#include <QColor>
#include <QImage>
#include <QString>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using lodestone::test::quoted;
using lodestone::test::Result;

using namespace lodestone::desktop_test;

namespace {

// The same three spheres, 0.12 mm in radius: about 6 px on screen, so drawn as point sprites.
const fs::path kSmallScene = kSourceDir / "tests" / "data" / "screenshot-small-spheres.json";
// Three spheres of 0.75 mm: the left two touching (one cluster), the right one single.
const fs::path kClusterScene = kSourceDir / "tests" / "data" / "screenshot-clusters.json";
constexpr double kClusterSphereX[] = {-1.45e-3, 0.0, 2.1e-3};

// The window size asked for, and what tests/data/screenshot-scene.json holds.
constexpr int kWindowWidth = 1000, kWindowHeight = 700;
constexpr double kBoxHalf = 3e-3;                      // the box is [-3, 3] mm in x, y and z
constexpr double kRadius = 0.75e-3;                    // every sphere
constexpr double kSmallRadius = 0.12e-3;               // every sphere of the small-sphere scene
constexpr double kSphereX[] = {-2.1e-3, 0.0, 2.1e-3};  // centres on the x axis (y = z = 0)

// Cluster mode: single particles grey; the first cluster takes the palette's first colour, red
// (render/colors.cpp, ClusterPalette).
constexpr std::array<double, 3> kSingleGrey{0.50, 0.50, 0.52}, kClusterZeroRed{0.89, 0.10, 0.11};

// Colour scale of "easy axis vs field" at t in [0, 1], in 0..255: stops evenly spaced.
Rgb legend_color(double t) {
  const std::array<double, 3>* stops[] = {&kBlue, &kGrey, &kDarkRed};
  t = std::clamp(t, 0.0, 1.0) * 2.0;
  const int k = std::min(static_cast<int>(t), 1);
  const double f = t - k;
  Rgb out;
  for (size_t c = 0; c < 3; ++c)
    out[c] = static_cast<int>(std::lround(255.0 * ((1 - f) * (*stops[k])[c] + f * (*stops[k + 1])[c])));
  return out;
}

// The camera of `--camera -90,0` after framing the box, derived here from the framing rule (not
// from render/): the eye on the -y side looking along +y, z up, so world x is screen x and world z
// is screen -y. Framing: the box's bounding sphere (radius half the diagonal) with 5 % margin fits
// the narrower of the vertical field of view (35 degrees) and the horizontal one of the free area
// right of the side bar; the image is centred on that free area.
struct Projection {
  double width, height, focal, distance, centre_x, centre_y;

  explicit Projection(const QImage& image) : width(image.width()), height(image.height()) {
    const double pi = std::acos(-1.0);
    const double half_fov = 17.5 * pi / 180.0;
    const double free_width = std::max(width - kSidebar, 0.25 * width);
    const double half_fov_x = std::atan(std::tan(half_fov) * free_width / height);
    distance = 1.05 * (std::sqrt(3.0) * kBoxHalf) / std::sin(std::min(half_fov, half_fov_x));
    focal = 0.5 * height / std::tan(half_fov);  // pixels per unit of (lateral / depth)
    centre_x = kSidebar + 0.5 * (width - kSidebar);
    centre_y = 0.5 * height;
  }
  // Pixel coordinates (continuous, origin top-left) of the world point (x, y, z).
  std::array<double, 2> operator()(double x, double y, double z) const {
    const double depth = distance + y;
    return {centre_x + focal * x / depth, centre_y - focal * z / depth};
  }
  double radius_pixels(double radius = kRadius) const { return focal * radius / distance; }
};

// Every pixel within `reach` of (x, y) satisfies `ok`; reports the first that does not.
template <class Predicate>
void check_neighbourhood(const QImage& image, double x, double y, int reach, const std::string& what, Predicate ok) {
  const int cx = static_cast<int>(std::floor(x)), cy = static_cast<int>(std::floor(y));
  for (int dy = -reach; dy <= reach; ++dy)
    for (int dx = -reach; dx <= reach; ++dx) {
      const Rgb c = pixel(image, cx + dx, cy + dy);
      if (!ok(c)) {
        FAIL_CHECK(what << ": pixel (" << cx + dx << ", " << cy + dy << ") is " << text(c));
        return;
      }
    }
}

// First pixel from (x, y) stepping by (dx, dy) that is scene background; its distance in pixels.
double distance_to_background(const QImage& image, double x, double y, int dx, int dy) {
  int px = static_cast<int>(std::floor(x)), py = static_cast<int>(std::floor(y));
  for (int step = 0; step < 400; ++step, px += dx, py += dy) {
    if (px < 0 || py < 0 || px >= image.width() || py >= image.height()) break;
    if (background(pixel(image, px, py))) return std::hypot(px + 0.5 - x, py + 0.5 - y);
  }
  return -1.0;
}

QImage screenshot(const Workdir& work, const fs::path& scene = kScene, const std::string& options = "") {
  const fs::path png = work.path() / "scene.png";
  const Result run = work.run("--preset " + quoted(scene.string()) + " --frames 10 --screenshot " +
                              quoted(png.string()) + " --size " + std::to_string(kWindowWidth) + "x" +
                              std::to_string(kWindowHeight) + " --camera -90,0 --frame box --paused" + options);
  INFO("lodestone printed:\n" << run.output);
  REQUIRE(run.code == 0);
  REQUIRE(fs::is_regular_file(png));
  QImage image;
  REQUIRE(image.load(QString::fromStdString(png.string()), "PNG"));
  // The PNG is the 3-D view: the window's width, its height less the menu bar.
  INFO("image " << image.width() << " x " << image.height());
  REQUIRE(image.width() == kWindowWidth);
  REQUIRE(image.height() > kWindowHeight - 80);
  REQUIRE(image.height() <= kWindowHeight);
  return image;
}

}  // namespace

TEST_CASE("a paused scene looks right: spheres, colours, background, side bar, legend", "[desktop]") {
  require_display();
  Workdir work;
  const QImage image = screenshot(work);
  const Projection project(image);
  const int width = image.width(), height = image.height();

  SECTION("each sphere is where the camera puts it, the size it should be, in its colour family") {
    // Left: easy axis -z, |cos| = 1 with the field along +z: dark red. Middle: 60 degrees, 0.5: grey.
    // Right: +x, 0: blue.
    bool (*const families[])(const Rgb&) = {dark_red, grey, blue};
    const char* names[] = {"dark red (left, axis along the field)", "grey (middle, axis at 60 degrees)",
                           "blue (right, axis across the field)"};
    const double r = project.radius_pixels();
    for (int i = 0; i < 3; ++i) {
      const auto [x, y] = project(kSphereX[i], 0.0, 0.0);
      INFO(names[i] << ": projected centre (" << x << ", " << y << "), radius " << r << " px, pixel there "
                    << text(pixel(image, static_cast<int>(x), static_cast<int>(y))));
      // +-3 px around the projected centre: the sphere is ~40 px in radius, so this is deep inside it
      // and allows for pixel rounding; the edges below pin the position down to a few pixels.
      check_neighbourhood(image, x, y, 3, names[i], families[i]);
      // The silhouette: the first background pixel in each direction is one radius away. 3 px:
      // rounding to whole pixels (1) and perspective widening of an off-centre sphere (< 1 here).
      for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
        const double edge = distance_to_background(image, x, y, dx, dy);
        INFO("direction (" << dx << ", " << dy << "): background at " << edge << " px");
        CHECK(std::abs(edge - r) < 3.0);
      }
    }
  }

  SECTION("the background between and around the spheres is the dark scene colour") {
    // Midway between neighbours (0.6 mm gaps, ~30 px), above and below the middle sphere, and the
    // empty corners of the free area outside the box (away from the gizmo, legend and Plots window).
    const std::array<std::array<double, 3>, 6> points = {{{-1.05e-3, 0.0, 0.0},
                                                          {1.05e-3, 0.0, 0.0},
                                                          {0.0, 0.0, 1.6e-3},
                                                          {0.0, 0.0, -1.6e-3},
                                                          {-2.1e-3, 0.0, 1.6e-3},
                                                          {2.1e-3, 0.0, -1.6e-3}}};
    for (const auto& p : points) {
      const auto [x, y] = project(p[0], p[1], p[2]);
      check_neighbourhood(image, x, y, 3, "background at (" + std::to_string(x) + ", " + std::to_string(y) + ")",
                          background);
    }
    for (const auto& [x, y] : {std::pair{project.centre_x, 80.0},
                               {project.centre_x, height - 50.0},
                               {width - 40.0, project.centre_y},
                               {kSidebar + 40.0, project.centre_y}})
      check_neighbourhood(image, x, y, 3,
                          "free-area background at (" + std::to_string(x) + ", " + std::to_string(y) + ")", background);
  }

  SECTION("the side bar panel covers the left 380 px: window colour, a title bar, text") {
    // ImGui's dark WindowBg (0.06, 0.06, 0.06) at alpha 0.92 over the scene background:
    // 0.92 * 0.06 + 0.08 * (0.11, 0.12, 0.14) = (0.064, 0.065, 0.066) -> (16, 17, 17).
    const Rgb window{16, 17, 17};
    const int title_rows = 19;  // font 13 px + 2 x frame padding 3 px
    auto column_fraction = [&](int x, const Rgb& colour) {
      int hits = 0;
      for (int y = title_rows; y < height; ++y) hits += near(pixel(image, x, y), colour, 3);
      return static_cast<double>(hits) / (height - title_rows);
    };
    // Its left margin is window colour nearly all the way down (widgets stop short of it; the right margin
    // holds the scrollbar when the panels are taller than the window); just right of its border the scene
    // shows. 0.95: a few rows of border or gizmo.
    INFO("column 2 is window colour " << text(window) << " for a fraction " << column_fraction(2, window));
    CHECK(column_fraction(2, window) > 0.95);
    INFO("column 383 is scene background for a fraction " << column_fraction(383, kBackground));
    CHECK(column_fraction(383, kBackground) > 0.95);
    // The window colour is the panel's dominant colour (the rest are widgets and text).
    int window_pixels = 0, text_pixels = 0, total = 0;
    for (int y = title_rows; y < height; ++y)
      for (int x = 0; x < static_cast<int>(kSidebar) - 1; ++x) {
        const Rgb c = pixel(image, x, y);
        ++total;
        window_pixels += near(c, window, 3);
        text_pixels += std::min({c[0], c[1], c[2]}) >= 200;  // ImGui's Text colour is white
      }
    INFO("side bar: " << window_pixels << " window-colour and " << text_pixels << " text pixels of " << total);
    CHECK(window_pixels > total / 2);
    // Text: the scene description, buttons, labels. A blank panel has none; 1000 is a few words.
    CHECK(text_pixels > 1000);

    // The title bar row is one flat colour across (away from the title text), TitleBg (0.04) or
    // TitleBgActive (0.16, 0.29, 0.48), not the window colour, with the white title "Lodestone".
    const Rgb title = pixel(image, 300, title_rows / 2);
    INFO("title bar colour " << text(title));
    CHECK((near(title, {10, 10, 10}, 3) || near(title, {41, 74, 122}, 3)));
    CHECK_FALSE(near(title, window, 3));
    for (int x = 120; x < 370; x += 10)
      for (int y = 1; y < title_rows - 1; ++y) {
        if (!near(pixel(image, x, y), title, 2)) FAIL_CHECK("title bar not flat at (" << x << ", " << y << ")");
      }
    int title_text = 0;
    for (int y = 0; y < title_rows; ++y)
      for (int x = 0; x < 120; ++x)
        title_text += std::min({pixel(image, x, y)[0], pixel(image, x, y)[1], pixel(image, x, y)[2]}) >= 200;
    INFO("white pixels in the title: " << title_text);
    CHECK(title_text > 30);
  }

  SECTION("the colour legend in the bottom-right corner runs blue -> grey -> dark red") {
    // Look for rows in the bottom-right corner holding the 200-px bar: from its first pixel matching
    // the blue end, each pixel must match the scale at its position. 16 levels: the bar is drawn as
    // 32 linearly shaded segments (exact at the stops) and its start is known to a pixel (~1 %).
    int bar_rows = 0, bar_left = -1;
    for (int y = height - 120; y < height; ++y) {
      int start = -1;
      for (int x = width - 320; x < width; ++x)
        if (near(pixel(image, x, y), legend_color(0.0), 16)) {
          start = x;
          break;
        }
      if (start < 0 || start + 200 > width) continue;
      bool matches = true;
      for (int k = 0; k < 200 && matches; ++k)
        matches = near(pixel(image, start + k, y), legend_color((k + 0.5) / 200.0), 16);
      if (!matches) continue;
      ++bar_rows;
      bar_left = start;
    }
    INFO("legend bar rows " << bar_rows << ", left edge x = " << bar_left);
    if (bar_left >= 0) {
      const int y = height - 60;
      INFO("samples near the bar: " << text(pixel(image, bar_left, y)) << " " << text(pixel(image, bar_left + 100, y))
                                    << " " << text(pixel(image, bar_left + 199, y)));
    }
    CHECK(bar_rows >= 10);          // the bar is 14 px high
    CHECK(bar_left > width - 260);  // in the corner: its right end within ~60 px of the edge
  }
}

TEST_CASE("colour by cluster: touching spheres share a cluster colour, a single sphere is grey", "[desktop]") {
  require_display();
  Workdir work;
  const QImage image = screenshot(work, kClusterScene, " --color cluster");
  const Projection project(image);
  auto red = [](const Rgb& c) { return c[0] - std::max(c[1], c[2]) > 50 && lit(c, kClusterZeroRed); };
  auto single = [](const Rgb& c) {
    return std::max({c[0], c[1], c[2]}) - std::min({c[0], c[1], c[2]}) < 20 && lit(c, kSingleGrey);
  };
  bool (*const families[])(const Rgb&) = {+red, +red, +single};
  const char* names[] = {"cluster red (left, touching the middle)", "cluster red (middle, touching the left)",
                         "single grey (right)"};
  for (int i = 0; i < 3; ++i) {
    const auto [x, y] = project(kClusterSphereX[i], 0.0, 0.0);
    INFO(names[i] << ": projected centre (" << x << ", " << y << "), pixel there "
                  << text(pixel(image, static_cast<int>(x), static_cast<int>(y))));
    // +-3 px around the centre of a sphere ~40 px in radius, as in the scene test above.
    check_neighbourhood(image, x, y, 3, names[i], families[i]);
  }
}

TEST_CASE("small spheres (point sprites) are where and the size and colour they should be", "[desktop]") {
  // Under 8 px in radius the renderer draws spheres as point sprites sized from the projection,
  // not as ray-cast quads: the same checks as above, at a scale where a pixel matters.
  require_display();
  Workdir work;
  const QImage image = screenshot(work, kSmallScene);
  const Projection project(image);
  const double r = project.radius_pixels(kSmallRadius);
  REQUIRE(r < 8.0);  // the point-sprite path (render/scene_renderer.hpp kExactDepthRadius)
  REQUIRE(r > 4.0);
  bool (*const families[])(const Rgb&) = {dark_red, grey, blue};
  for (int i = 0; i < 3; ++i) {
    const auto [x, y] = project(kSphereX[i], 0.0, 0.0);
    INFO("sphere " << i << ": projected centre (" << x << ", " << y << "), radius " << r << " px, pixel there "
                   << text(pixel(image, static_cast<int>(x), static_cast<int>(y))));
    // The centre pixel and its neighbours below and to the left: well inside a 6-px sphere, and
    // away from the specular spot up and right of the centre (which whitens a pixel by ~20 levels
    // one pixel from the centre at this size).
    for (const auto& [dx, dy] : {std::pair{0, 0}, {-1, 0}, {0, 1}, {-1, 1}}) {
      const Rgb c = pixel(image, static_cast<int>(x) + dx, static_cast<int>(y) + dy);
      INFO("pixel offset (" << dx << ", " << dy << ") is " << text(c));
      CHECK(families[i](c));
    }
    // Silhouette: the first background pixel's centre lies on average half a pixel beyond the
    // edge; within 1 px of that in each direction (whole pixels; point sprites are whole pixels
    // wide). A sprite 20 % too small or too large is off by 1.3 px.
    for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
      const double edge = distance_to_background(image, x, y, dx, dy);
      INFO("direction (" << dx << ", " << dy << "): background at " << edge << " px");
      CHECK(std::abs(edge - 0.5 - r) < 1.0);
    }
  }
}

TEST_CASE("bad presets exit non-zero and write no PNG", "[desktop]") {
  require_display();
  Workdir work;
  const fs::path png = work.path() / "out.png";

  SECTION("a preset file that does not exist") {
    const Result run = work.run("--preset " + quoted((work.path() / "missing.json").string()) +
                                " --frames 5 --screenshot " + quoted(png.string()));
    INFO(run.output);
    CHECK(run.code != 0);
    CHECK(run.code < 128);  // an orderly exit, not a crash
    CHECK(run.output.find("missing.json") != std::string::npos);
    CHECK_FALSE(fs::exists(png));
  }

  SECTION("a preset that exists but is invalid: exit 2") {
    const fs::path bad = work.path() / "bad.json";
    std::ofstream(bad) << R"({"version": 1, "particles": {"kind": "list", "particles": [{"radius": -1}]}})";
    const Result run =
        work.run("--preset " + quoted(bad.string()) + " --frames 5 --screenshot " + quoted(png.string()));
    INFO(run.output);
    CHECK(run.code == 2);
    CHECK(run.output.find("bad preset") != std::string::npos);
    CHECK_FALSE(fs::exists(png));
  }

  SECTION("a preset that is not JSON: exit 2") {
    const fs::path bad = work.path() / "broken.json";
    std::ofstream(bad) << "{ this is not json";
    const Result run =
        work.run("--preset " + quoted(bad.string()) + " --frames 5 --screenshot " + quoted(png.string()));
    INFO(run.output);
    CHECK(run.code == 2);
    CHECK_FALSE(fs::exists(png));
  }
}

TEST_CASE("a screenshot into a directory that does not exist exits 4", "[desktop]") {
  require_display();
  Workdir work;
  const fs::path png = work.path() / "no-such-directory" / "out.png";
  const Result run = work.run("--preset " + quoted(kScene.string()) + " --frames 5 --paused --screenshot " +
                              quoted(png.string()) + " --size 400x300");
  INFO(run.output);
  CHECK(run.code == 4);
  CHECK(run.output.find("cannot write") != std::string::npos);
  CHECK_FALSE(fs::exists(png));
  CHECK_FALSE(fs::exists(png.parent_path()));  // it did not create the directory either
}

TEST_CASE("option --plots opens the Plots window with the theta and psi histograms, in the bins of the scene",
          "[desktop][angles]") {
  // Two grains, field 0.3 H_K along z: a rigid dipole with its axis along z (theta 0, psi 0) and a
  // Stoner-Wohlfarth grain with its axis along x (theta 90 deg, sin psi = 0.3: psi = 17.5 deg).
  // Histograms (bars scaled to the tallest): theta in bins 0 and 17 of 18, psi in bins 0 and 3 of 36.
  // The bars are ImGui's PlotHistogram colour (dark style: 0.90, 0.70, 0.00; hovered 1.00, 0.60, 0.00).
  require_display();
  Workdir work;
  const fs::path scene = work.path() / "grains.json";
  std::ofstream(scene) << R"({"version": 1,
    "materials": [{"name": "rigid", "magnetization": "100 kA/m"},
                  {"name": "sw", "magnetization": "380 kA/m", "moment_model": "stoner_wohlfarth",
                   "anisotropy": "350 kJ/m^3"}],
    "magnetics": {"method": "off"},
    "field": {"strength": "0.552631579 T", "direction": [0, 0, 1]},
    "environment": {"gravity": [0, 0, 0]},
    "box": {"min": ["-3 mm", "-3 mm", "-3 mm"], "max": ["3 mm", "3 mm", "3 mm"]},
    "particles": {"kind": "list", "particles": [
      {"position": ["-1.5 mm", "0 mm", "0 mm"], "radius": "0.75 mm", "material": "rigid", "axis": [0, 0, 1]},
      {"position": ["1.5 mm", "0 mm", "0 mm"], "radius": "0.75 mm", "material": "sw", "axis": [1, 0, 0]}]}})";
  // Strict on blue: the moment arrows (1.00, 0.84, 0.25), shaded or blended with the background,
  // keep a blue of 36 or more.
  auto bar = [](const Rgb& c) { return c[0] >= 215 && c[1] >= 140 && c[1] <= 195 && c[2] <= 20; };
  // Histogram pixels right of the side bar and the 3-D scene: the Plots window sits top right.
  auto bar_pixels = [&](const QImage& image) {
    std::vector<std::array<int, 2>> out;
    for (int y = 0; y < image.height(); ++y)
      for (int x = image.width() - 400; x < image.width(); ++x)
        if (bar(pixel(image, x, y))) out.push_back({x, y});
    return out;
  };

  SECTION("collapsed without --plots, and no histograms without moments") {
    CHECK(bar_pixels(screenshot(work, scene)).empty());
    CHECK(bar_pixels(screenshot(work, kScene, " --plots")).empty());
  }

  SECTION("with --plots: two histograms, bars in the bins worked out above") {
    const auto pixels = bar_pixels(screenshot(work, scene, " --plots"));
    REQUIRE(pixels.size() > 200);
    // Two bands of rows, theta above psi, split at the first gap of more than 10 rows.
    int split = -1;
    for (size_t k = 1; k < pixels.size(); ++k)
      if (pixels[k][1] - pixels[k - 1][1] > 10) split = pixels[k][1];
    REQUIRE(split > 0);
    int left = 1 << 30, right = -1;
    for (const auto& [x, y] : pixels)
      if (y < split) left = std::min(left, x), right = std::max(right, x);
    // Theta: bars at both ends (bins 0 and 17), nothing in bins 1-16; the plot spans left..right.
    const double width = right - left + 2;  // the last bar stops 1 px short of the frame
    INFO("theta bars from x = " << left << " to " << right);
    REQUIRE(width > 200);
    int theta_left = 0, theta_right = 0, psi_bin0 = 0, psi_bin3 = 0, stray = 0;
    for (const auto& [x, y] : pixels) {
      const double u = (x - left) / width;  // 0..1 across the plot
      if (y < split) {
        if (u < 1.0 / 18 + 0.01)
          ++theta_left;
        else if (u > 17.0 / 18 - 0.01)
          ++theta_right;
        else
          ++stray;
      } else {
        if (u >= -0.01 && u < 1.0 / 36 + 0.01)
          ++psi_bin0;
        else if (u > 3.0 / 36 - 0.01 && u < 4.0 / 36 + 0.01)
          ++psi_bin3;
        else
          ++stray;
      }
    }
    CHECK(theta_left > 50);
    CHECK(theta_right > 50);
    CHECK(psi_bin0 > 20);
    CHECK(psi_bin3 > 20);
    CHECK(stray == 0);
  }
}
