// lodestone-capture: [Dominik-Nubold]'s capture experiment (Sec. 4.1, Figs. 2-3; app/runner/capture.hpp). One
// magnetised grain is shot at an identical one at rest with impact parameter b and relative speed v;
// every (b, v) cell is run many times with random initial orientations (and thermal spins), and the
// fraction of shots that touch is the collision probability. Writes the map as CSV and, per speed,
// the cross section sigma(v) = 2 pi int P(b) b db against the central-potential sigma_m of eq. 14.
// Cells run on threads (each shot is its own engine Simulation; the engine is single-threaded).
//
// Exit codes: 0 done; 1 bad arguments; 3 some shots failed an engine check (counted in the CSV);
// 4 an output file could not be written.

#include "app/runner/capture.hpp"
#include "engine/core/version.hpp"
#include "engine/output/series.hpp"
#include "engine/scene/units.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace lodestone;

namespace {

// [SECTION] Options

struct CaptureOptions {
  std::string out_path = "capture.csv", summary_path;
  std::string diameter_text = "20 nm", temperature_text = "100 K";
  double specific_moment = 200.0, density = 7874.0;
  std::vector<double> speeds{0.3, 0.4, 0.5, 0.7, 1.0, 1.4, 2.0, 3.0};  // v / v_th
  double b_top = 1.5, b_step = 0.05, start = 3.0, start_rm = 0.0, accuracy = 0.02, time_limit = 20.0;
  std::vector<double> b_list;  // b / b_max; empty: 0 to b_top in steps of b_step
  int runs = 100, jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::uint64_t seed = 1;
  std::string spin = "thermal";
  bool quiet = false;
};

constexpr const char* kDescription =
    "lodestone-capture: [Dominik-Nubold]'s two-body capture experiment (Sec. 4.1, Figs. 2-3). One magnetised grain is\n"
    "shot at an identical one at rest with impact parameter b and relative speed v, random initial\n"
    "orientations, many repetitions per (b, v); a collision is the first contact. Writes the collision\n"
    "probability over (b/b_max, v/v_th) and the cross sections per speed (docs/reproduction-aggregation.md).";

constexpr const char* kFooter =
    "b_max = sqrt(3) (alpha / (mbar v^2))^(1/3) from the barrier of eq. 10 (eq. 13 as printed is b_max^2),\n"
    "alpha = (mu0/4pi) 2 mu^2, mbar = m/2; v_th = sqrt(kT/m). The projectile starts --start b_max (at least R_m,\n"
    "eq. 2) upstream of the target, offset by b across the approach.\n"
    "\n"
    "Example: lodestone-capture --out map.csv --summary sigma.csv --runs 100 --jobs 2\n"
    "\n"
    "Exit codes: 0 done; 1 bad arguments; 3 some shots stopped on an engine check; 4 cannot write an output.";

// A value with an optional unit ("20 nm", "100 K"), or a bare SI number.
std::function<std::string(const std::string&)> quantity_check(Quantity q) {
  return [q](const std::string& text) -> std::string {
    double v = 0.0;
    std::string error;
    if (!parse_quantity_or_si(text, q, v, error)) return error;
    if (!(v > 0.0) || !std::isfinite(v)) return "'" + text + "' must be positive";
    return {};
  };
}

// The SI value of a text quantity_check() accepted.
double quantity(const std::string& text, Quantity q) {
  double v = 0.0;
  std::string error;
  parse_quantity_or_si(text, q, v, error);
  return v;
}

void add_options(CLI::App& app, CaptureOptions& o) {
  app.add_option("-o,--out", o.out_path, "CSV of the probability map (default capture.csv)");
  app.add_option("--summary", o.summary_path, "CSV of the cross sections per speed");
  app.add_option("--diameter", o.diameter_text, "Grain diameter (default 20 nm, [Dominik-Nubold] Fig. 2)")
      ->check(quantity_check(Quantity::Length));
  app.add_option("--temperature", o.temperature_text, "Temperature for v_th and the spins (default 100 K)")
      ->check(quantity_check(Quantity::Temperature));
  app.add_option("--specific-moment", o.specific_moment,
                 "Moment per mass [A m^2/kg] (default 200, [Dominik-Nubold] Fig. 2)")
      ->check(CLI::PositiveNumber);
  app.add_option("--density", o.density, "Grain density [kg/m^3] (default 7874, iron)")->check(CLI::PositiveNumber);
  app.add_option("--speeds", o.speeds, "Relative speeds v / v_th (default 0.3,0.4,0.5,0.7,1,1.4,2,3)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--b-top", o.b_top, "Largest b / b_max (default 1.5)")->check(CLI::PositiveNumber);
  app.add_option("--b-step", o.b_step, "Step of b / b_max from 0 (default 0.05)")->check(CLI::PositiveNumber);
  app.add_option("--b-list", o.b_list, "Explicit values of b / b_max instead of the steps (e.g. 0.9,0.95,1)")
      ->delimiter(',')
      ->check(CLI::NonNegativeNumber);
  app.add_option("-r,--runs", o.runs, "Shots per (b, v) cell (default 100)")->check(CLI::PositiveNumber);
  app.add_option("--seed", o.seed, "Base seed of the orientations (default 1)");
  app.add_option("--spin", o.spin, "Initial spins: thermal (Maxwellian at T, [Dominik-Nubold] Fig. 2) or none")
      ->check(CLI::IsMember({"thermal", "none"}));
  app.add_option("--start", o.start, "Start distance upstream, in b_max (at least R_m; default 3)")
      ->check(CLI::PositiveNumber);
  app.add_option("--start-rm", o.start_rm,
                 "Start distance upstream in R_m instead, whatever b_max (the paper's placement)")
      ->check(CLI::PositiveNumber);
  app.add_option("--accuracy", o.accuracy, "Step control eta (default 0.02)")->check(CLI::Range(1e-4, 0.5));
  app.add_option("--time-limit", o.time_limit, "Give up after this many start separations / v (default 20)")
      ->check(CLI::PositiveNumber);
  app.add_option("-j,--jobs", o.jobs, "Threads (default: all cores)")->check(CLI::Range(1, 256));
  app.add_flag("-q,--quiet", o.quiet, "No progress lines");
}

// Parses argv. Returns the exit code when the program ends here: 0 after --help or --version, 1 on a bad argument.
std::optional<int> parse_options(int argc, char** argv, CaptureOptions& o) {
  CLI::App app{kDescription};
  app.footer(kFooter);
  app.get_formatter()->column_width(34);
  app.set_version_flag("--version",
                       std::string("lodestone-capture ") + LODESTONE_VERSION + "\n" + lodestone_license_and_citation());
  add_options(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 1;
  }
  if (o.b_step > o.b_top) {
    std::fprintf(stderr, "--b-step (%g) must not exceed --b-top (%g)\n", o.b_step, o.b_top);
    return 1;
  }
  return std::nullopt;
}

// [SECTION] The cells of the map

struct Cell {
  int speed_index = 0, b_index = 0;
  double speed = 0.0, b = 0.0, b_max = 0.0;
  int collisions = 0, escapes = 0, time_limits = 0, failures = 0;
  std::int64_t steps = 0, step_changes = 0;
  double energy_error_max = 0.0;  // over the escapes (a collision ends at a steep potential)
  std::string first_failure;
  std::vector<int> hits;  // per repetition: 1 collided, 0 not, -1 failed (for the error of sigma)
};

CaptureGrains grains_of(const CaptureOptions& o) {
  CaptureGrains grains;
  grains.diameter = quantity(o.diameter_text, Quantity::Length);
  grains.temperature = quantity(o.temperature_text, Quantity::Temperature);
  grains.specific_moment = o.specific_moment;
  grains.density = o.density;
  return grains;
}

double interaction_radius(const CaptureGrains& grains) {
  return magnetic_interaction_radius(grains.moment(), grains.temperature);
}

// The impact parameters in b_max, ascending: --b-list, else 0 to --b-top in steps of --b-step.
std::vector<double> impact_fractions(const CaptureOptions& o) {
  std::vector<double> fractions = o.b_list;
  if (fractions.empty())
    for (int k = 0; k * o.b_step <= o.b_top * (1.0 + 1e-9); ++k) fractions.push_back(k * o.b_step);
  std::sort(fractions.begin(), fractions.end());
  return fractions;
}

// Every (speed, impact parameter) pair, speed by speed; `o.speeds` ascending.
std::vector<Cell> make_cells(const CaptureOptions& o, const CaptureGrains& grains,
                             const std::vector<double>& fractions) {
  const double v_th = grains.thermal_speed();
  std::vector<Cell> cells;
  for (size_t s = 0; s < o.speeds.size(); ++s)
    for (size_t k = 0; k < fractions.size(); ++k) {
      Cell c;
      c.speed_index = static_cast<int>(s);
      c.b_index = static_cast<int>(k);
      c.speed = o.speeds[s] * v_th;
      c.b_max = grains.b_max(c.speed);
      c.b = fractions[k] * c.b_max;
      c.hits.assign(static_cast<size_t>(o.runs), -1);
      cells.push_back(c);
    }
  return cells;
}

void print_setup(const CaptureOptions& o, const CaptureGrains& grains, size_t impact_parameters) {
  const double v_th = grains.thermal_speed();
  std::printf(
      "Grains: %.4g nm, %.4g kg/m^3, %.4g A m^2/kg -> m = %.4g kg, mu = %.4g A m^2; T = %.4g K: v_th = %.4g m/s, "
      "lambda = %.4g (eq. 1), R_m = %.4g nm (eq. 2)\n",
      grains.diameter * 1e9, o.density, o.specific_moment, grains.mass(), grains.moment(), grains.temperature, v_th,
      grains.lambda(), interaction_radius(grains) * 1e9);
  std::printf("b_max at v_th = %.4g nm = %.4g R; %zu speeds x %zu impact parameters x %d shots, spins %s, %d threads\n",
              grains.b_max(v_th) * 1e9, grains.b_max(v_th) / grains.radius(), o.speeds.size(), impact_parameters,
              o.runs, o.spin.c_str(), o.jobs);
  std::fflush(stdout);
}

// [SECTION] Running the shots

void record_shot(Cell& c, int run, const ShotResult& r) {
  c.steps += r.steps;
  c.step_changes += r.step_changes;
  c.hits[static_cast<size_t>(run)] = r.outcome == ShotOutcome::Collision ? 1
                                     : r.outcome == ShotOutcome::Failed  ? -1
                                                                         : 0;
  switch (r.outcome) {
    case ShotOutcome::Collision: ++c.collisions; break;
    case ShotOutcome::Escape:
      ++c.escapes;
      c.energy_error_max = std::max(c.energy_error_max, r.energy_error);
      break;
    case ShotOutcome::TimeLimit: ++c.time_limits; break;
    case ShotOutcome::Failed:
      ++c.failures;
      if (c.first_failure.empty()) c.first_failure = r.message;
      break;
  }
}

// The --runs shots of one cell, repetition `run` with the seed shot_seed(--seed, run).
void run_cell(Cell& c, const CaptureGrains& grains, const CaptureOptions& o) {
  const double r_m = interaction_radius(grains);
  for (int run = 0; run < o.runs; ++run) {
    Shot shot;
    shot.impact_parameter = c.b;
    shot.speed = c.speed;
    shot.start_distance = o.start_rm > 0.0 ? o.start_rm * r_m : std::max(o.start * c.b_max, r_m);
    shot.seed = shot_seed(o.seed, run);
    shot.spin = o.spin == "none" ? SpinStart::None : SpinStart::Thermal;
    shot.accuracy = o.accuracy;
    shot.time_limit_factor = o.time_limit;
    record_shot(c, run, run_shot(grains, shot));
  }
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Progress lines on stderr from the worker threads: at most one per 5 s, and one for the last cell.
class CellProgress {
 public:
  CellProgress(size_t cells, double v_th, bool quiet) : cells_(cells), v_th_(v_th), quiet_(quiet) {}

  void cell_done(const Cell& c) {
    const size_t finished = ++done_;
    if (quiet_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const double elapsed = seconds_since(start_);
    if (elapsed - last_print_ < 5.0 && finished != cells_) return;
    last_print_ = elapsed;
    // Cells are handed out slowest first, so the time left is an upper estimate.
    std::fprintf(stderr, "[%zu/%zu cells] %.0f s elapsed, v/v_th = %g done up to b/b_max = %.3g\n", finished, cells_,
                 elapsed, c.speed / v_th_, c.b / c.b_max);
  }

  double elapsed() const { return seconds_since(start_); }

 private:
  const size_t cells_;
  const double v_th_;
  const bool quiet_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<size_t> done_{0};
  std::mutex mutex_;
  double last_print_ = 0.0;
};

// Runs every cell on --jobs threads. Returns the wall time [s].
double run_cells(std::vector<Cell>& cells, const CaptureGrains& grains, const CaptureOptions& o) {
  // Slow speeds cost most (long approaches): hand them out first so the threads finish together.
  std::vector<size_t> order(cells.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cells[a].speed < cells[b].speed; });
  std::atomic<size_t> next{0};
  CellProgress progress(cells.size(), grains.thermal_speed(), o.quiet);
  auto worker = [&]() {
    for (size_t n; (n = next.fetch_add(1)) < order.size();) {
      Cell& c = cells[order[n]];
      run_cell(c, grains, o);
      progress.cell_done(c);
    }
  };
  std::vector<std::thread> threads;
  for (int k = 0; k < o.jobs; ++k) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  return progress.elapsed();
}

// [SECTION] The map and the cross sections

// The fraction of a cell's shots that collided, over those that did not fail.
double collision_probability(const Cell& c, int runs) {
  const int counted = runs - c.failures;
  return counted > 0 ? static_cast<double>(c.collisions) / counted : 0.0;
}

// Sums over the cells, for the line after the map.
struct Totals {
  int failures = 0, time_limits = 0;
  double energy_error_max = 0.0;
  std::int64_t steps = 0, step_changes = 0;
};

// The map CSV, a row per cell; the first failed shot of each cell on stderr.
Totals write_map(std::ostream& out, const std::vector<Cell>& cells, int runs, double v_th) {
  out << csv_version_comment()
      << "b,v,b_over_bmax,v_over_vth,runs,collisions,probability,escapes,time_limits,failures,b_max,mean_steps,"
         "energy_error_max,probability_error\n";
  char line[512];
  Totals totals;
  for (const Cell& c : cells) {
    const int counted = runs - c.failures;
    // Binomial standard error sqrt(P (1 - P) / n): 0 at P = 0 or 1, where the rule of three bounds the
    // other outcome's probability by 3/n (95 %).
    const double prob = collision_probability(c, runs);
    const double prob_error = counted > 0 ? std::sqrt(prob * (1.0 - prob) / counted) : 0.0;
    std::snprintf(line, sizeof line, "%.8g,%.8g,%.6g,%.6g,%d,%d,%.6g,%d,%d,%d,%.8g,%.6g,%.3g,%.4g\n", c.b, c.speed,
                  c.b / c.b_max, c.speed / v_th, counted, c.collisions, prob, c.escapes, c.time_limits, c.failures,
                  c.b_max, static_cast<double>(c.steps) / runs, c.energy_error_max, prob_error);
    out << line;
    totals.failures += c.failures;
    totals.time_limits += c.time_limits;
    totals.steps += c.steps;
    totals.step_changes += c.step_changes;
    totals.energy_error_max = std::max(totals.energy_error_max, c.energy_error_max);
    if (!c.first_failure.empty())
      std::fprintf(stderr, "shot failed at b = %g m, v = %g m/s: %s\n", c.b, c.speed, c.first_failure.c_str());
  }
  return totals;
}

// Opens --summary (when given) and writes its header. Returns the exit code when it cannot be written.
std::optional<int> open_summary(const std::string& path, std::ofstream& summary) {
  if (path.empty()) return std::nullopt;
  summary.open(path, std::ios::trunc);
  if (!summary) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return 4;
  }
  summary << csv_version_comment()
          << "v,v_over_vth,b_max,sigma,sigma_error,sigma_m,c,c_error,white_radius_over_bmax,c_white,"
             "half_radius_over_bmax,tail_open\n";
  return std::nullopt;
}

void print_run_statistics(const Totals& t, size_t cells, int runs, double wall) {
  std::printf(
      "\n%zu shots in %.1f s (%.3g steps and %.3g step changes per shot, %d ran into the time limit, %d failed); "
      "largest energy error of an escape %.2g of the initial kinetic energy\n",
      cells * static_cast<size_t>(runs), wall, static_cast<double>(t.steps) / (cells * runs),
      static_cast<double>(t.step_changes) / (cells * runs), t.time_limits, t.failures, t.energy_error_max);
}

// The cells of one speed in impact-parameter order: b, P(b), and per repetition its hits.
struct SpeedCells {
  double v = 0.0, b_max = 0.0;
  std::vector<double> b, p;
  std::vector<std::vector<int>> hits;
};

SpeedCells cells_at_speed(const std::vector<Cell>& cells, size_t s, int runs) {
  SpeedCells row;
  row.hits.resize(static_cast<size_t>(runs));
  for (const Cell& c : cells)
    if (c.speed_index == static_cast<int>(s)) {
      row.b.push_back(c.b);
      row.p.push_back(collision_probability(c, runs));
      for (size_t r = 0; r < row.hits.size(); ++r) row.hits[r].push_back(c.hits[r]);
      row.v = c.speed;
      row.b_max = c.b_max;
    }
  return row;
}

// Per speed, for the fits.
struct CrossSections {
  std::vector<double> v, sigma, sigma_error, c_white;
};

// The cross section of each speed on stdout and as a row of --summary.
CrossSections print_cross_sections(const std::vector<Cell>& cells, const CaptureOptions& o, const CaptureGrains& grains,
                                   std::ofstream& summary) {
  std::printf(
      "\nPer speed: sigma = 2 pi int P b db +- its standard error over the repetitions; c = sigma / sigma_m (eq. 27, "
      "sigma_m = 3 pi (alpha/(mbar v^2))^(2/3), eq. 14);\nR_w the largest b up to which every shot collided, c_w = "
      "(R_w/b_max)^2 (the paper's reading of Fig. 3); b_50 where P = 1/2\n");
  std::printf("%8s %10s %12s %12s %8s %7s %9s %8s %10s\n", "v/v_th", "b_max[nm]", "sigma[m^2]", "+-", "c", "+-",
              "R_w/bmax", "c_w", "b_50/bmax");
  const double v_th = grains.thermal_speed();
  CrossSections all;
  for (size_t s = 0; s < o.speeds.size(); ++s) {
    const SpeedCells row = cells_at_speed(cells, s, o.runs);
    const double v = row.v, b_max = row.b_max;
    const CrossSectionEstimate e = estimate_cross_section(row.b, row.p);
    const double sigma_error = cross_section_error(row.b, row.hits);
    const double sigma_m = capture_cross_section(grains.alpha(), grains.reduced_mass(), v);
    const double c = e.sigma / sigma_m, rw = e.white_radius / b_max;
    all.v.push_back(v);
    all.sigma.push_back(e.sigma);
    all.sigma_error.push_back(sigma_error);
    all.c_white.push_back(rw * rw);
    std::printf("%8.3g %10.4g %12.4g %12.3g %8.3f %7.3f %9.3f %8.3f %10.3f%s\n", v / v_th, b_max * 1e9, e.sigma,
                sigma_error, c, sigma_error / sigma_m, rw, rw * rw, e.half_radius / b_max,
                e.tail_open ? "  (P > 0 at the largest b: sigma is a lower bound)" : "");
    if (!summary.is_open()) continue;
    char line[512];
    std::snprintf(line, sizeof line, "%.8g,%.6g,%.8g,%.8g,%.6g,%.8g,%.6g,%.4g,%.6g,%.6g,%.6g,%d\n", v, v / v_th, b_max,
                  e.sigma, sigma_error, sigma_m, c, sigma_error / sigma_m, rw, rw * rw, e.half_radius / b_max,
                  e.tail_open ? 1 : 0);
    summary << line;
  }
  return all;
}

// Eq. 27 fitted over the speeds, and the paper's reading of Fig. 3 beside it.
void print_correction_fit(const CrossSections& cs, const CaptureGrains& grains) {
  const CorrectionFactorFit fit =
      fit_correction_factor(cs.v, cs.sigma, cs.sigma_error, grains.alpha(), grains.reduced_mass());
  if (!fit.ok) return;
  double c_white = 0.0;
  for (double x : cs.c_white) c_white += x / static_cast<double>(cs.c_white.size());
  std::printf(
      "\nEq. 27 fit over the %d speeds: c = %.3f +- %.3f (chi2/dof %.3g; per speed %.3f to %.3f); paper: 0.8-0.9\n",
      fit.points, fit.c, fit.c_error, fit.chi2_per_dof, fit.c_min, fit.c_max);
  std::printf("Paper's reading (R_w/b_max)^2 averaged over the speeds: c_w = %.3f\n", c_white);
  if (fit.points >= 2)
    std::printf("sigma ~ v^%.3f +- %.3f over the speeds (eq. 14: v^-4/3 = v^-1.333)\n", fit.exponent,
                fit.exponent_error);
}

// sigma / geometric at v_th: interpolated in log-log between the speeds around it (`speeds` in v_th,
// ascending); nothing when v_th is outside them.
void print_sigma_at_thermal_speed(const std::vector<double>& speeds, const std::vector<double>& sigmas, double r) {
  for (size_t s = 0; s + 1 < speeds.size(); ++s) {
    if (!(speeds[s] <= 1.0 && speeds[s + 1] >= 1.0)) continue;
    const double w = speeds[s + 1] == speeds[s] ? 0.0 : std::log(1.0 / speeds[s]) / std::log(speeds[s + 1] / speeds[s]);
    const double sigma = std::exp((1.0 - w) * std::log(sigmas[s]) + w * std::log(sigmas[s + 1]));
    std::printf(
        "sigma(v_th) = %.4g m^2: / pi (2R)^2 (two touching spheres) = %.4g; / pi R^2 (eq. 3) = %.4g; / 4 pi (2R)^2 "
        "(eq. 4 as printed) = %.4g  (paper, eq. 26: 130)\n",
        sigma, sigma / (pi * 4.0 * r * r), sigma / (pi * r * r), sigma / (16.0 * pi * r * r));
    return;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CaptureOptions o;
  if (auto code = parse_options(argc, argv, o)) return *code;
  std::sort(o.speeds.begin(), o.speeds.end());
  const CaptureGrains grains = grains_of(o);
  const std::vector<double> fractions = impact_fractions(o);
  std::vector<Cell> cells = make_cells(o, grains, fractions);

  std::ofstream out(o.out_path, std::ios::trunc);
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", o.out_path.c_str());
    return 4;
  }
  print_setup(o, grains, fractions.size());
  const double wall = run_cells(cells, grains, o);
  const Totals totals = write_map(out, cells, o.runs, grains.thermal_speed());
  if (!out.flush()) {
    std::fprintf(stderr, "cannot write %s\n", o.out_path.c_str());
    return 4;
  }

  std::ofstream summary;
  if (auto code = open_summary(o.summary_path, summary)) return *code;
  print_run_statistics(totals, cells.size(), o.runs, wall);
  const CrossSections cross_sections = print_cross_sections(cells, o, grains, summary);
  print_correction_fit(cross_sections, grains);
  print_sigma_at_thermal_speed(o.speeds, cross_sections.sigma, grains.radius());
  if (summary.is_open() && !summary.flush()) {
    std::fprintf(stderr, "cannot write %s\n", o.summary_path.c_str());
    return 4;
  }
  return totals.failures > 0 ? 3 : 0;
}
