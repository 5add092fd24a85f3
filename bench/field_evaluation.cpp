// The total field B(x) for the app's field view (issue 22: a |B| slice and field lines at >= 5 updates/s
// for a 1 000-particle scene; docs/performance.md "Field evaluation"). Run on demand, never in CI.
//
//   lodestone-field-bench [PRESET=presets/chains-suspension.json] [COUNT=1000] [STEPS=2000] [REPEATS=5]
//
// The preset's scene with COUNT particles, its box scaled to keep the volume fraction, run STEPS steps so that
// chains form. Then, for each summing method (the cutoff of the preset, the direct sum with minimum images, and
// the tree, the latter on a copy of the model with the periodic axes opened, since the tree refuses them) and for
// 1 and 2 threads, the median over REPEATS of one "update" of the field view:
//   build   FieldEvaluator: copies of the particles, the cell grid or the tree
//   slice   B on a 64 x 64 grid on the plane z = the box's middle
//   lines   50 field lines (seeds on a 10 x 5 grid in that plane, both directions, field_line_settings_for)
// and the updates per second that gives, with the field evaluations the lines took.

#include "engine/magnetic/field_evaluation.hpp"

#include "engine/analysis/field_lines.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/session.hpp"
#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace lodestone;
using namespace lodestone::bench;

namespace {

struct Timing {
  double build = 0, slice = 0, lines = 0;
  size_t line_points = 0;
};

Timing time_update(const Model& model, const State& state, FieldSum sum, ThreadTeam& team) {
  Timing t;
  const Vec3 lo = model.box.min, hi = model.box.max;
  const double z = 0.5 * (lo.z() + hi.z());
  std::vector<Vec3> grid;
  for (int j = 0; j < 64; ++j)
    for (int i = 0; i < 64; ++i)
      grid.push_back(Vec3(lo.x() + (hi.x() - lo.x()) * i / 63.0, lo.y() + (hi.y() - lo.y()) * j / 63.0, z));
  std::vector<Vec3> seeds;
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 10; ++i)
      seeds.push_back(
          Vec3(lo.x() + (hi.x() - lo.x()) * (i + 0.5) / 10.0, lo.y() + (hi.y() - lo.y()) * (j + 0.5) / 5.0, z));
  auto start = Clock::now();
  const FieldEvaluator field(model, state, {.sum = sum});
  t.build = seconds_since(start);
  start = Clock::now();
  std::vector<Vec3> b(grid.size());
  field.evaluate(grid, b, team);
  t.slice = seconds_since(start);
  start = Clock::now();
  const std::vector<FieldLine> lines = trace_field_lines(field, seeds, field_line_settings_for(model, state), team);
  t.lines = seconds_since(start);
  for (const FieldLine& l : lines) t.line_points += l.points.size();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "presets/chains-suspension.json";
  const int count = argc > 2 ? std::atoi(argv[2]) : 1000;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 2000;
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 5;
  Preset preset = load_preset_file(path);
  if (preset.particles.kind == GeneratorKind::Random) {
    const double scale = std::cbrt(static_cast<double>(count) / preset.particles.count);
    preset.box.max = preset.box.min + scale * (preset.box.max - preset.box.min);
    preset.particles.count = count;
  }
  Session session(preset);
  session.run(steps);
  const State& state = session.state();
  std::printf("field view bench: %s, %zu particles after %d steps (t = %.4g s), box %.3g mm, %d repeats (median)\n",
              path.c_str(), state.particles.size(), steps, state.time, 1e3 * (preset.box.max - preset.box.min).x(),
              repeats);
  std::printf("one update = build + 64x64 slice + 50 field lines\n\n");
  std::printf("%-34s %7s %9s %9s %9s %10s %11s\n", "method", "threads", "build ms", "slice ms", "lines ms", "line pts",
              "updates/s");
  struct Case {
    const char* name;
    DipoleMethod method;
    FieldSum sum;
    bool open;
  };
  const Case cases[] = {
      {"cutoff (the preset's)", DipoleMethod::Cutoff, FieldSum::AsForces, false},
      {"direct (minimum image)", DipoleMethod::Direct, FieldSum::AsForces, false},
      {"tree theta 0.3 (axes opened)", DipoleMethod::Tree, FieldSum::AsForces, true},
  };
  for (const Case& c : cases) {
    Model model = session.model();
    model.magnetics.method = c.method;
    if (c.open) model.periodic_length = Vec3::Zero();
    for (int threads : {1, 2}) {
      ThreadTeam team(threads);
      std::vector<double> build, slice, lines, total;
      size_t points = 0;
      for (int r = 0; r < repeats; ++r) {
        const Timing t = time_update(model, state, c.sum, team);
        build.push_back(t.build);
        slice.push_back(t.slice);
        lines.push_back(t.lines);
        total.push_back(t.build + t.slice + t.lines);
        points = t.line_points;
      }
      std::printf("%-34s %7d %9.2f %9.2f %9.2f %10zu %11.1f\n", c.name, threads, 1e3 * median(build),
                  1e3 * median(slice), 1e3 * median(lines), points, 1.0 / median(total));
    }
  }
  return 0;
}
