// lodestone-run --lammps-export against LAMMPS itself (engine/output/export_lammps_input.hpp, docs/lammps.md):
// a scene is run by our engine (--frames run.dump) and by `lmp` from the exported script and data
// file, both dumping the same steps; forces, torques and moments at step 0 and the trajectory after
// it must agree; and the exported script run on 2 MPI ranks gives what it gives on one.
//
// Tolerances, and why:
//  - Step 0 (relative 1e-9 of the largest force, torque, moment): the same configuration through
//    the same formulas; round-off only (measured 2e-11 .. 1e-10). A wrong moment scale, even
//    LAMMPS's five-digit Coulomb constant taken as 1/(4 pi eps0) (5e-6), fails here.
//  - Trajectory without sliding or rolling contacts (relative 1e-6 of the displacement, 1e-6 of the
//    force scale): both integrate with velocity Verlet at the same dt, translation identically; in the
//    LAMMPS conventions the dipoles turn as LAMMPS turns them (engine/step/integrator.cpp), in the default
//    one by the exact rotation, (omega dt)^3 / 3 more a step than LAMMPS's renormalised first-order update.
//  - Trajectory with contacts that roll (relative 1e-2): LAMMPS's pair granular takes the rolling
//    part of the contact velocity with the full radii, R_i w_i + R_j w_j, ours with the distances to
//    the contact point, R - delta/2 (engine/contact/contact_geometry.hpp), so spheres rolling together slip
//    by delta/(2R) of their rolling speed in LAMMPS. The difference does not change when dt is
//    halved or quartered, and shrinks 100 times with 100 times stiffer contacts (docs/lammps.md);
//    with delta/(2R) ~ 2e-3 here the measured differences are 4e-5 .. 5e-3.
//  - Dashpots in the default convention: ours see the velocity predicted for the end of the step
//    (second order, docs/physics.md), LAMMPS's the half-step one (first order): a difference of
//    order c dt / m in damped contacts. Scenes run with contact.linear.convention = "lammps" (LAMMPS's
//    friction limit, half-step dashpots, contact velocity with the full radii) agree to 1e-6 again.

#include "../test_process.hpp"
#include "../text_fields.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace lodestone::test::runner_tests;

namespace {

// s = sqrt((mu0/4pi) / qqr2e), qqr2e = 8.9876e9 (LAMMPS units si): LAMMPS's dipole is s m.
const double kMomentScale = std::sqrt(1e-7 / 8.9876e9);

// One frame of a LAMMPS text dump: per atom id, the columns by name.
using Atom = std::map<std::string, double>;
using Frame = std::map<long, Atom>;

std::map<long, Frame> read_dump(const std::string& text) {
  std::map<long, Frame> frames;
  const std::vector<std::string> lines = lodestone::test::lines_of(text);
  for (size_t k = 0; k < lines.size();) {
    if (lines[k] != "ITEM: TIMESTEP") {
      ++k;
      continue;
    }
    REQUIRE(k + 9 <= lines.size());
    const long step = std::stol(lines[k + 1]);
    const size_t n = std::stoul(lines[k + 3]);
    std::vector<std::string> columns = lodestone::test::words(lines[k + 8]);
    columns.erase(columns.begin(), columns.begin() + 2);  // "ITEM: ATOMS"
    Frame& frame = frames[step];
    for (size_t a = 0; a < n; ++a) {
      const std::vector<std::string> values = lodestone::test::words(lines[k + 9 + a]);
      REQUIRE(values.size() == columns.size());
      Atom atom;
      for (size_t c = 0; c < columns.size(); ++c) atom[columns[c]] = std::stod(values[c]);
      frame[static_cast<long>(atom.at("id"))] = atom;
    }
    k += 9 + n;
  }
  return frames;
}

// Largest difference of a 3-vector column group between the two frames, and the largest magnitude
// in `scale_frames` (the scale the difference is measured against).
struct Difference {
  double largest = 0.0;
  double scale = 0.0;
  double relative() const { return scale > 0.0 ? largest / scale : largest; }
};

double norm3(const Atom& a, const char* x, const char* y, const char* z, double factor = 1.0) {
  return factor * std::sqrt(a.at(x) * a.at(x) + a.at(y) * a.at(y) + a.at(z) * a.at(z));
}

Difference compare(const Frame& ours, const Frame& lammps, const std::vector<const Frame*>& scale_frames, const char* x,
                   const char* y, const char* z, double lammps_factor = 1.0) {
  Difference d;
  REQUIRE(ours.size() == lammps.size());
  for (const auto& [id, a] : ours) {
    REQUIRE(lammps.count(id) == 1);
    const Atom& b = lammps.at(id);
    const double dx = a.at(x) - lammps_factor * b.at(x), dy = a.at(y) - lammps_factor * b.at(y),
                 dz = a.at(z) - lammps_factor * b.at(z);
    d.largest = std::max(d.largest, std::sqrt(dx * dx + dy * dy + dz * dz));
  }
  for (const Frame* f : scale_frames)
    for (const auto& [id, a] : *f) d.scale = std::max(d.scale, norm3(a, x, y, z));
  return d;
}

// Largest displacement of any particle between two of our frames.
double largest_displacement(const Frame& from, const Frame& to) {
  double largest = 0.0;
  for (const auto& [id, a] : from) {
    const Atom& b = to.at(id);
    const double dx = b.at("x") - a.at("x"), dy = b.at("y") - a.at("y"), dz = b.at("z") - a.at("z");
    largest = std::max(largest, std::sqrt(dx * dx + dy * dy + dz * dz));
  }
  return largest;
}

// Runs the exported script with lmp in `dir` (the script reads its data file from there), dumping to
// `dump`; `launcher` goes before lmp (e.g. "mpirun -np 2 ").
Result run_lmp(const fs::path& dir, const std::string& dump = "lodestone.dump", const std::string& launcher = "") {
  const std::string command = "cd " + quoted(dir.string()) + " && " + launcher +
                              "lmp -in in.lodestone -log none -nocite -echo none -screen lmp.out -var dump " + dump +
                              " 2>&1";
  Result r = lodestone::test::run_shell(command);
  if (r.code != 0) r.output += read_file(dir / "lmp.out");
  return r;
}

struct Tolerances {
  double trajectory = 1e-6;  // positions: of the largest displacement since step 0; forces, torques: of their scale
  double forces = -1.0;      // forces and torques, when other than `trajectory`
};

// A preset's text with contact.linear.convention = "lammps" (LAMMPS's friction limit, half-step dashpots and
// contact velocity: engine/contact/law_linear.hpp), inserted into its "linear" object.
std::string with_lammps_convention(std::string text) {
  const std::string key = R"("linear": {)";
  const size_t at = text.find(key);
  REQUIRE(at != std::string::npos);
  text.insert(at + key.size(), R"( "convention": "lammps",)");
  return text;
}

// Runs `scene` (a path, quoted) in our engine and in LAMMPS for `steps` steps, dumping every `every`,
// and compares the dumps. `name` labels the printed numbers.
void compare_with_lammps(const std::string& name, const std::string& scene, int steps, int every,
                         const Tolerances& tolerance) {
  lodestone::test::RunnerWorkdir dir;
  const std::string run = " --steps " + std::to_string(steps) + " --frames-every " + std::to_string(every);
  Result r = dir.run(scene + run + " --frames ours.dump --quiet --table 0 --threads 1");
  REQUIRE(r.code == 0);
  r = dir.run(scene + run + " --lammps-export lammps");
  REQUIRE(r.code == 0);
  REQUIRE(fs::exists(dir.path() / "lammps" / "in.lodestone"));
  REQUIRE(fs::exists(dir.path() / "lammps" / "data.lodestone"));
  const Result l = run_lmp(dir.path() / "lammps");
  INFO(l.output);
  REQUIRE(l.code == 0);

  const auto ours = read_dump(read_file(dir.path() / "ours.dump"));
  const auto lammps = read_dump(read_file(dir.path() / "lammps" / "lodestone.dump"));
  // Ours may hold more: the runner also writes a frame where a protocol phase begins.
  REQUIRE(lammps.size() == static_cast<size_t>(steps / every + 1));
  for (const auto& [step, frame] : lammps) REQUIRE(ours.count(step) == 1);

  const Frame& ours0 = ours.at(0);
  const Frame& lammps0 = lammps.at(0);
  const Difference f0 = compare(ours0, lammps0, {&ours0}, "fx", "fy", "fz");
  const Difference t0 = compare(ours0, lammps0, {&ours0}, "tqx", "tqy", "tqz");
  const Difference m0 = compare(ours0, lammps0, {&ours0}, "mux", "muy", "muz", 1.0 / kMomentScale);
  std::printf(
      "%s: step 0: force %.3g N of %.3g (relative %.2g), torque %.3g N m of %.3g (%.2g), moment %.3g A m^2 "
      "of %.3g (%.2g)\n",
      name.c_str(), f0.largest, f0.scale, f0.relative(), t0.largest, t0.scale, t0.relative(), m0.largest, m0.scale,
      m0.relative());
  CHECK(f0.scale > 0.0);
  CHECK(f0.relative() < 1e-9);
  CHECK(t0.relative() < 1e-9);
  CHECK(m0.scale > 0.0);
  CHECK(m0.relative() < 1e-9);

  for (const auto& [step, other] : lammps) {
    if (step == 0) continue;
    const Frame& frame = ours.at(step);
    Difference x = compare(frame, other, {}, "x", "y", "z");
    x.scale = largest_displacement(ours0, frame);
    const Difference f = compare(frame, other, {&ours0, &frame}, "fx", "fy", "fz");
    const Difference t = compare(frame, other, {&ours0, &frame}, "tqx", "tqy", "tqz");
    std::printf(
        "%s: step %ld: position %.3g m of a displacement %.3g m (relative %.2g), force %.3g N (%.2g), "
        "torque %.3g N m (%.2g)\n",
        name.c_str(), step, x.largest, x.scale, x.relative(), f.largest, f.relative(), t.largest, t.relative());
    CHECK(x.scale > 0.0);
    CHECK(x.relative() < tolerance.trajectory);
    const double forces = tolerance.forces > 0.0 ? tolerance.forces : tolerance.trajectory;
    CHECK(f.relative() < forces);
    CHECK(t.relative() < forces);
  }
  std::fflush(stdout);
}

// Six spheres along x, overlapping by 1 um, moments along the chain, 20 mT at 60 deg to it, gravity
// and viscous damping, dipoles with a 4 mm cutoff; a second material nothing is made of (two atom types).
// `linear` replaces the contact law's parameters (its JSON object).
std::string chain_scene(const std::string& linear = R"({ "dp_nratio": 0.2, "dp_sratio": 0.2 })",
                        const std::string& friction = "0.5") {
  std::string particles;
  for (int k = 0; k < 6; ++k) {
    char entry[160];
    std::snprintf(entry, sizeof entry,
                  R"(%s{ "position": ["%.4f mm", "0 mm", "0 mm"], "radius": "0.5 mm", "axis": [1, 0, 0] })",
                  k ? ", " : "", (k - 2.5) * 0.999);
    particles += entry;
  }
  return R"json({
  "version": 1,
  "description": "Six touching magnetic spheres in an oblique field (tests/lammps)",
  "materials": [ { "name": "NdFeB sphere", "density": "7500 kg/m^3", "kn": "1e5 N/m", "ks": "8e4 N/m",
                   "friction": )json" +
         friction + R"json(, "magnetization": "900 kA/m" },
                 { "name": "steel plate", "kn": "3e5 N/m", "ks": "2e5 N/m", "friction": 0.7 } ],
  "contact": { "law": "linear", "linear": )json" +
         linear + R"json( },
  "magnetics": { "method": "cutoff", "cutoff": "4 mm" },
  "field": { "strength": "20 mT", "direction": [0.5, 0, 0.8660254037844386] },
  "environment": { "gravity": [0, 0, -9.81], "translational_damping": "1e-4 N s/m" },
  "box": { "min": ["-5 mm", "-5 mm", "-5 mm"], "max": ["5 mm", "5 mm", "5 mm"],
           "x_min": "open", "x_max": "open", "y_min": "open", "y_max": "open", "z_min": "open", "z_max": "open" },
  "particles": { "kind": "list", "material": "NdFeB sphere", "particles": [ )json" +
         particles +
         R"json( ] }
})json";
}

// Magnetic spheres (`particles`, the entries of a list generator) over a floor (z_min at `floor_z`) next to a side wall
// (x_max at `wall_x`) of another material, gravity, the direct dipole sum; `linear` is the contact law's parameters
// (its JSON object).
std::string floor_and_wall_scene(const std::string& description, const std::string& linear, const std::string& floor_z,
                                 const std::string& wall_x, const std::string& particles) {
  return R"json({
  "version": 1,
  "description": ")json" +
         description + R"json( (tests/lammps)",
  "materials": [ { "name": "NdFeB sphere", "density": "7500 kg/m^3", "kn": "1e5 N/m", "ks": "8e4 N/m",
                   "friction": 0.3, "magnetization": "900 kA/m" },
                 { "name": "steel plate", "kn": "3e5 N/m", "ks": "2e5 N/m", "friction": 0.5 } ],
  "contact": { "law": "linear", "linear": )json" +
         linear + R"json( },
  "magnetics": { "method": "direct" },
  "environment": { "gravity": [0, 0, -9.81] },
  "box": { "min": ["-5 mm", "-5 mm", ")json" +
         floor_z + R"json("], "max": [")json" + wall_x + R"json(", "5 mm", "5 mm"],
           "x_min": "open", "x_max": "wall", "y_min": "open", "y_max": "open", "z_min": "wall", "z_max": "open",
           "wall_material": "steel plate" },
  "particles": { "kind": "list", "material": "NdFeB sphere", "particles": [ )json" +
         particles + R"json( ] }
})json";
}

// Three magnetic spheres dropped onto the floor next to the side wall, one spinning, one heading for the wall.
std::string walls_scene(const std::string& linear) {
  return floor_and_wall_scene("Three magnetic spheres on a floor and a side wall", linear, "-0.5005 mm", "1.5008 mm",
                              R"(
    { "position": ["0 mm", "-3 mm", "0 mm"], "radius": "0.5 mm", "axis": [1, 0, 0], "velocity": [0.1, 0, -0.05] },
    { "position": ["0 mm", "0 mm", "0.001 mm"], "radius": "0.5 mm", "axis": [0, 0, 1], "velocity": [-0.05, 0.02, -0.1],
      "angular_velocity": [0, 300, 0] },
    { "position": ["1 mm", "3 mm", "0.002 mm"], "radius": "0.5 mm", "axis": [0, 1, 0], "velocity": [0.2, 0, -0.02] })");
}

// Six magnetic spheres thrown at the floor and at each other, friction 0.3 and dashpots in `convention`: they land,
// bounce, collide in pairs and slide, so contacts form and break all along the run. The dipoles spin the spheres up
// to thousands of rad/s within a hundred steps.
std::string bouncing_scene(const std::string& convention) {
  return floor_and_wall_scene("Six magnetic spheres bouncing on a floor and off each other",
                              R"({ "dp_nratio": 0.3, "dp_sratio": 0.2, "convention": ")" + convention + "\" }",
                              "-0.5 mm", "2.2 mm", R"(
    { "position": ["-1.1 mm", "0 mm", "0.05 mm"], "radius": "0.5 mm", "axis": [1, 0, 0], "velocity": [0.15, 0, -0.1] },
    { "position": ["0.1 mm", "0.1 mm", "0.08 mm"], "radius": "0.5 mm", "axis": [0, 0, 1], "velocity": [-0.1, 0, -0.12],
      "angular_velocity": [0, 20, 0] },
    { "position": ["1.3 mm", "-0.2 mm", "0.03 mm"], "radius": "0.5 mm", "axis": [0, 1, 0], "velocity": [0.1, 0.05, -0.08] },
    { "position": ["-1.0 mm", "1.3 mm", "0.1 mm"], "radius": "0.5 mm", "axis": [0, -1, 0], "velocity": [0.05, -0.15, -0.1],
      "angular_velocity": [10, 0, 0] },
    { "position": ["0.3 mm", "1.4 mm", "0.06 mm"], "radius": "0.5 mm", "axis": [-1, 0, 0], "velocity": [0, -0.1, -0.15] },
    { "position": ["0.2 mm", "-1.3 mm", "0.12 mm"], "radius": "0.5 mm", "axis": [0, 0, -1], "velocity": [0.05, 0.12, -0.05],
      "angular_velocity": [0, 0, 15] })");
}

}  // namespace

TEST_CASE("the two-dipoles preset runs in LAMMPS as in our engine", "[lammps]") {
  // Head to tail on the z axis: they attract and collide along the line of centres (no rolling).
  // 1000 steps: approach, impact (step ~ 650) and rest. The preset has dashpots: with the default
  // convention ours see the velocity predicted for the end of the step, LAMMPS's the half-step one (a
  // first-order difference, 2e-3 of the displacement after the impact); with contact.linear.convention
  // "lammps" the two agree to round-off.
  lodestone::test::RunnerWorkdir dir;
  lodestone::test::write_file(dir.path() / "two-dipoles.json",
                              with_lammps_convention(read_file(preset_path("two-dipoles.json"))));
  compare_with_lammps("two-dipoles", quoted((dir.path() / "two-dipoles.json").string()), 1000, 125, Tolerances{1e-6});
}

TEST_CASE("two tilted dipoles, torques and an off-centre impact, run in LAMMPS as in our engine", "[lammps]") {
  // two-dipoles.json with the second sphere 0.2 mm off the axis and its moment 30 deg from it:
  // torques from step 0, then an oblique impact with rolling. With contact.linear.convention "lammps" the
  // contact velocity is LAMMPS's (full radii) and the dashpots see the half-step velocity, so the rolling
  // difference of the file's header is gone, and the dipoles turn as LAMMPS turns them: measured positions 6e-15
  // of the displacement, forces 2e-12, torques 4e-14 (3e-8, 1e-7, 4e-6 with the exact rotation, a rolling
  // contact's torque being a small difference of large terms). Required 1e-6 and 2e-5.
  lodestone::test::RunnerWorkdir dir;
  std::string text = read_file(preset_path("two-dipoles.json"));
  const std::string second = R"({ "position": ["0 mm", "0 mm", "1 mm"], "radius": "0.5 mm", "axis": [0, 0, 1] })";
  const size_t at = text.find(second);
  REQUIRE(at != std::string::npos);
  text.replace(
      at, second.size(),
      R"({ "position": ["0.2 mm", "0 mm", "1 mm"], "radius": "0.5 mm", "axis": [0.5, 0, 0.8660254037844386] })");
  lodestone::test::write_file(dir.path() / "tilted.json", with_lammps_convention(text));
  compare_with_lammps("two tilted dipoles", quoted((dir.path() / "tilted.json").string()), 1000, 250,
                      Tolerances{1e-6, 2e-5});
}

TEST_CASE("a chain of six touching magnetic spheres in an oblique field runs in LAMMPS as in our engine", "[lammps]") {
  // chain_scene(): contact, dipole, field, gravity and damping forces from step 0; the field turns the
  // spheres, whose contacts roll. The default ("pfc") convention, as a user exporting a scene unchanged
  // gets it: besides the rolling term of the file's header, our dashpots (ratios 0.2) see the velocity
  // predicted for the end of the step and LAMMPS's the half-step one, a first-order difference. Measured:
  // positions 4.4e-3 of the (still small) displacement at step 50, 8e-4 at step 200, forces 1.1e-2,
  // torques 1e-3. Required 1e-2 and 3e-2; the test above shows the "lammps" convention removing both.
  lodestone::test::RunnerWorkdir dir;
  lodestone::test::write_file(dir.path() / "chain.json", chain_scene());
  compare_with_lammps("chain", quoted((dir.path() / "chain.json").string()), 200, 50, Tolerances{1e-2, 3e-2});
}

TEST_CASE("with LAMMPS's friction convention a sliding, damped chain runs in LAMMPS as in our engine", "[lammps]") {
  // chain_scene() with contact.linear.convention = "lammps" (engine/contact/law_linear.hpp): spring and shear
  // dashpot limited together by mu |F_n| (normal dashpot included), the history rescaled, dashpots on the
  // half-step velocity, the rolling part of the contact velocity with the full radii. Friction 0.05, so
  // that the field's torque makes the contacts slide from the first steps on (the frictional contacts are
  // there from step 0), dashpot ratios 0.2: every term of the rule acts. 2400 steps. Measured: positions
  // 4e-15 of the displacement or better at every dump, forces 5e-13, torques 2e-13 of their scale (1.9e-7,
  // 2.2e-6, 7.2e-6 before the dipoles turned as LAMMPS turns them: the sliding contacts' friction follows the
  // direction of the contact velocity, which amplified the rotation updates' difference). Required: positions
  // 1e-6 (no approximation), forces and torques 3e-5.
  lodestone::test::RunnerWorkdir dir;
  lodestone::test::write_file(dir.path() / "chain.json",
                              chain_scene(R"({ "dp_nratio": 0.2, "dp_sratio": 0.2, "convention": "lammps" })", "0.05"));
  compare_with_lammps("chain, lammps convention", quoted((dir.path() / "chain.json").string()), 2400, 200,
                      Tolerances{1e-6, 3e-5});
}

TEST_CASE("three magnetic spheres bouncing and sliding on two walls run in LAMMPS as in our engine", "[lammps]") {
  // A floor (z_min) and a side wall (x_max) of another material (fix wall/gran, one per material and
  // axis); the spheres hit the floor within 20 steps, one spinning, one heading for the side wall, and
  // slide. Dashpots off: while a contact slides, LAMMPS caps spring and dashpots together, we the
  // spring alone (docs/lammps.md). Measured: positions 2e-4 of the displacement, forces 1e-4, torques 1.4e-3.
  lodestone::test::RunnerWorkdir dir;
  lodestone::test::write_file(dir.path() / "walls.json", walls_scene(R"({ "dp_nratio": 0, "dp_sratio": 0 })"));
  compare_with_lammps("spheres on walls", quoted((dir.path() / "walls.json").string()), 200, 10, Tolerances{1e-2});
}

TEST_CASE("spheres bouncing and sliding on walls with dashpots run in LAMMPS as in our engine, in both LAMMPS styles",
          "[lammps]") {
  // walls_scene() with dashpots (ratios 0.3, 0.2) in each LAMMPS convention (issue 40): "lammps" exported as pair
  // granular and fix wall/gran granular (hooke, linear_history), "gran/hooke/history" as pair gran/hooke/history and
  // fix wall/gran hooke/history, which differ from the first in the torques' levers (R, not R - delta/2) and in
  // projecting the shear history after its increment (both styles' walls take the full radius as the lever: with
  // R - delta/2 the "lammps" walls were 2e-5 of the displacement off by step 100). The spheres land, slide and one
  // touches the side wall within the first steps; 600 steps. Measured: positions 7e-16 of the displacement at 600,
  // forces 3e-13, torques 1e-13 (6.6e-8, 2.1e-5, 8.7e-6 before the dipoles turned as LAMMPS turns them, sphere 2
  // spinning at 300 rad/s). Required positions 1e-6, forces and torques 1e-4.
  for (const char* convention : {"lammps", "gran/hooke/history"}) {
    lodestone::test::RunnerWorkdir dir;
    lodestone::test::write_file(
        dir.path() / "walls.json",
        walls_scene(std::string(R"({ "dp_nratio": 0.3, "dp_sratio": 0.2, "convention": ")") + convention + "\" }"));
    compare_with_lammps(std::string("spheres on walls, ") + convention, quoted((dir.path() / "walls.json").string()),
                        600, 100, Tolerances{1e-6, 1e-4});
  }
}

TEST_CASE("spheres that bounce and collide with friction run in LAMMPS as in our engine for 7 tau, in both styles",
          "[lammps]") {
  // bouncing_scene() (issue 40: "agree to 1e-6 in positions over at least 5 tau with every contact change"): 2100
  // steps of 1.41 us are 7.0 dipolar times tau = sqrt(m d^2 / eps), eps = mu0 mu^2 / (4 pi d^3) the energy of two
  // touching dipoles (mu = 4.71e-4 A m^2, d = 1 mm, m = 3.93 mg: tau = 0.42 ms). Contacts form and break all along:
  // at least 20 formed, the number touching changing. Measured in both styles: positions 1.3e-14 of the
  // displacement or better, forces 1.3e-12, torques 3.3e-13 (with the exact rotation instead of LAMMPS's dipole
  // update: 1e-5 of the displacement by step 300, 2e-3 by 2100, the spheres spinning at thousands of rad/s).
  // Required: positions 1e-6, forces and torques 1e-6.
  lodestone::test::RunnerWorkdir probe;
  lodestone::test::write_file(probe.path() / "bouncing.json", bouncing_scene("lammps"));
  const Result r = probe.run(quoted((probe.path() / "bouncing.json").string()) +
                             " --steps 2100 --series s.csv --series-every 30 --quiet --table 0 --threads 1");
  REQUIRE(r.code == 0);
  double formed = 0.0;
  std::vector<double> touching;
  for (const auto& row : lodestone::test::csv_numbers(read_file(probe.path() / "s.csv"), true)) {
    touching.push_back(1000.0 * row.at("particle_contacts") + row.at("wall_contacts"));
    formed = row.at("contacts_activated");
  }
  std::sort(touching.begin(), touching.end());
  const auto kinds = std::unique(touching.begin(), touching.end()) - touching.begin();
  std::printf("bouncing spheres: %.0f contacts formed, %ld different numbers of contacts over the run\n", formed,
              static_cast<long>(kinds));
  CHECK(formed >= 20.0);
  CHECK(kinds >= 4);
  for (const char* convention : {"lammps", "gran/hooke/history"}) {
    lodestone::test::RunnerWorkdir dir;
    lodestone::test::write_file(dir.path() / "bouncing.json", bouncing_scene(convention));
    compare_with_lammps(std::string("bouncing spheres, ") + convention, quoted((dir.path() / "bouncing.json").string()),
                        2100, 150, Tolerances{1e-6, 1e-6});
  }
}

TEST_CASE("with gran/hooke/history a sliding, damped chain runs in LAMMPS's style of that name as in our engine",
          "[lammps]") {
  // The chain of the "lammps" convention's test above, in the convention that matches LAMMPS's gran/hooke/history
  // (the style of most published input scripts and of bench/lammps/in.bench): exported as that pair style, one set
  // of coefficients for the one material. Required as there: positions 1e-6, forces and torques 3e-5.
  lodestone::test::RunnerWorkdir dir;
  lodestone::test::write_file(
      dir.path() / "chain.json",
      chain_scene(R"({ "dp_nratio": 0.2, "dp_sratio": 0.2, "convention": "gran/hooke/history" })", "0.05"));
  compare_with_lammps("chain, gran/hooke/history convention", quoted((dir.path() / "chain.json").string()), 2400, 200,
                      Tolerances{1e-6, 3e-5});
}

TEST_CASE("the exported chain runs on 2 MPI ranks as on one", "[lammps][mpi]") {
  if (std::system("command -v mpirun > /dev/null 2>&1") != 0) {
    WARN("mpirun is not installed: the export is not run on MPI ranks");
    return;
  }
  lodestone::test::RunnerWorkdir dir;
  lodestone::test::write_file(dir.path() / "chain.json", chain_scene());
  REQUIRE(dir.run("chain.json --steps 200 --frames-every 50 --lammps-export lammps").code == 0);
  const Result serial = run_lmp(dir.path() / "lammps", "serial.dump");
  INFO(serial.output);
  REQUIRE(serial.code == 0);
  // Open MPI refuses root (a container) unless told; oversubscribing lets 2 ranks start on 1 core.
  const Result mpi = run_lmp(dir.path() / "lammps", "mpi.dump",
                             "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                             "OMPI_MCA_rmaps_base_oversubscribe=1 mpirun -np 2 ");
  INFO(mpi.output);
  REQUIRE(mpi.code == 0);
  CHECK(read_file(dir.path() / "lammps" / "lmp.out").find("2 MPI processor grid") != std::string::npos);
  const auto one = read_dump(read_file(dir.path() / "lammps" / "serial.dump"));
  const auto two = read_dump(read_file(dir.path() / "lammps" / "mpi.dump"));
  REQUIRE(one.size() == 5);
  REQUIRE(two.size() == one.size());
  for (const auto& [step, frame] : one) {
    const Difference x = compare(frame, two.at(step), {&frame}, "x", "y", "z");
    const Difference f = compare(frame, two.at(step), {&frame}, "fx", "fy", "fz");
    const Difference t = compare(frame, two.at(step), {&frame}, "tqx", "tqy", "tqz");
    std::printf("chain, 1 vs 2 MPI ranks: step %ld: position %.3g m, force %.3g N (%.2g), torque %.3g N m (%.2g)\n",
                step, x.largest, f.largest, f.relative(), t.largest, t.relative());
    // The same sums in another order at most: round-off.
    CHECK(x.relative() < 1e-12);
    CHECK(f.relative() < 1e-9);
    CHECK(t.relative() < 1e-9);
  }
}

TEST_CASE("rotational damping, exported as fix langevin at zero temperature, runs in LAMMPS as in our engine",
          "[lammps]") {
  // The sliding chain of the "lammps" convention's test with rotational damping gamma* = 3e-4 N s/m beside the
  // translational 1e-4: fix langevin at T = 0 with omega yes is the drag -R^2 gamma* omega (scaled per type) and a
  // translational share -(3/4) gamma* v, fix viscous the rest, here negative (1e-4 - 2.25e-4). The field turns the
  // spheres from step 0, so the rotational drag acts throughout. Required as there: positions 1e-6, forces and
  // torques 3e-5 (both fail by orders of magnitude if the drag's scale is wrong, or without the viscous share).
  std::string scene = chain_scene(R"({ "dp_nratio": 0.2, "dp_sratio": 0.2, "convention": "lammps" })", "0.05");
  const std::string damping = R"("translational_damping": "1e-4 N s/m")";
  const size_t at = scene.find(damping);
  REQUIRE(at != std::string::npos);
  scene.insert(at + damping.size(), R"(, "rotational_damping": "3e-4 N s/m")");
  lodestone::test::RunnerWorkdir dir;
  lodestone::test::write_file(dir.path() / "chain.json", scene);
  compare_with_lammps("chain with rotational damping", quoted((dir.path() / "chain.json").string()), 2400, 200,
                      Tolerances{1e-6, 3e-5});
}

TEST_CASE("a no-tension normal dashpot (dp_mode 1) is LAMMPS's limit_damping, in both LAMMPS styles", "[lammps]") {
  // walls_scene() with a strong normal dashpot (ratio 0.7) and dp_mode 1: as a sphere leaves the floor the dashpot
  // would pull it back; both codes set the total normal force to zero instead and take the friction limit from it.
  // Required as the walls' test with dashpots: positions 1e-6, forces and torques 1e-4.
  for (const char* convention : {"lammps", "gran/hooke/history"}) {
    lodestone::test::RunnerWorkdir dir;
    lodestone::test::write_file(dir.path() / "walls.json",
                                walls_scene(std::string(R"({ "dp_nratio": 0.7, "dp_sratio": 0.2, "dp_mode": 1, )") +
                                            R"("convention": ")" + convention + "\" }"));
    compare_with_lammps(std::string("no-tension dashpots on walls, ") + convention,
                        quoted((dir.path() / "walls.json").string()), 600, 100, Tolerances{1e-6, 1e-4});
  }
}

namespace {

// The factor c that best maps LAMMPS's column group onto ours (ours ~ c lammps, least squares), for a frame of ours in
// reduced units: the export writes SI, our frames of an lj preset are in lj units.
double fitted_factor(const Frame& ours, const Frame& lammps, const char* x, const char* y, const char* z) {
  double ab = 0.0, bb = 0.0;
  for (const auto& [id, a] : ours) {
    const Atom& b = lammps.at(id);
    for (const char* c : {x, y, z}) {
      ab += a.at(c) * b.at(c);
      bb += b.at(c) * b.at(c);
    }
  }
  return bb > 0.0 ? ab / bb : 1.0;
}

// What --lammps-export does with each shipped preset (docs/lammps.md, "The shipped presets"): exported as it is
// (approximations: none, or our default contact convention's dashpots, printed), exported with --approximate only,
// or refused.
enum class Export { AsItIs, WithApproximate, Refused };

const std::map<std::string, Export> kShippedPresets = {
    {"aggregation", Export::Refused},
    {"bar-magnets", Export::Refused},
    {"chain-falls", Export::AsItIs},
    {"chains-and-rings", Export::AsItIs},
    {"chains-suspension", Export::WithApproximate},
    {"compass-needles", Export::Refused},
    {"default", Export::WithApproximate},
    {"field-switch-on", Export::Refused},
    {"magnetic-filament-buckling", Export::Refused},
    {"magnetic-filament-rotating", Export::Refused},
    {"magnetic-walker", Export::Refused},
    {"magnets-meeting", Export::AsItIs},
    {"powder-alignment", Export::Refused},
    {"rotating-field-chain", Export::AsItIs},
    {"settled-packing", Export::Refused},
    {"two-dipoles", Export::AsItIs},
    {"two-dipoles-lj", Export::AsItIs},
};

}  // namespace

TEST_CASE("every shipped preset the export takes runs in LAMMPS, with the same forces at step 0", "[lammps]") {
  // Each preset of presets/ is exported as it is and with --approximate; its fate must be the one docs/lammps.md
  // tabulates (kShippedPresets, which also fails on a preset added without an entry). Each exported one runs 10
  // steps in lmp, and its forces, torques and moments at step 0 agree with ours to 1e-9 (the tolerance of the
  // comparisons above: round-off; the approximations made, e.g. an uncapped dipole pair, do not act at step 0 here).
  // Our frames of a preset in reduced units are in lj units, the export in SI: there each column group is compared
  // up to one fitted factor (its unit), which leaves the directions and the ratios between particles to agree.
  size_t presets = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(LODESTONE_SOURCE_DIR) / "presets")) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().stem().string();
    INFO(name);
    REQUIRE(kShippedPresets.count(name) == 1);
    ++presets;
    lodestone::test::RunnerWorkdir dir;
    const std::string preset = quoted(entry.path().string()) + " --steps 10 --frames-every 10";
    const Result plain = dir.run(preset + " --lammps-export plain");
    const Result approximate = dir.run(preset + " --lammps-export lammps --approximate");
    INFO(plain.output + approximate.output);
    const Export expected = kShippedPresets.at(name);
    CHECK(plain.code == (expected == Export::AsItIs ? 0 : 2));
    CHECK(approximate.code == (expected == Export::Refused ? 2 : 0));
    if (approximate.code != 0) continue;
    REQUIRE(dir.run(preset + " --frames ours.dump --quiet --table 0 --threads 1").code == 0);
    const Result l = run_lmp(dir.path() / "lammps");
    INFO(l.output);
    REQUIRE(l.code == 0);
    const std::string our_text = read_file(dir.path() / "ours.dump");
    const auto ours = read_dump(our_text);
    const auto lammps = read_dump(read_file(dir.path() / "lammps" / "lodestone.dump"));
    REQUIRE(lammps.size() == 2);
    const Frame& ours0 = ours.at(0);
    const Frame& lammps0 = lammps.at(0);
    const bool reduced = our_text.find("ITEM: UNITS\nlj") != std::string::npos;
    const auto factor = [&](const char* x, const char* y, const char* z, double si) {
      return reduced ? fitted_factor(ours0, lammps0, x, y, z) : si;
    };
    const Difference f0 = compare(ours0, lammps0, {&ours0}, "fx", "fy", "fz", factor("fx", "fy", "fz", 1.0));
    const Difference t0 = compare(ours0, lammps0, {&ours0}, "tqx", "tqy", "tqz", factor("tqx", "tqy", "tqz", 1.0));
    const Difference m0 =
        compare(ours0, lammps0, {&ours0}, "mux", "muy", "muz", factor("mux", "muy", "muz", 1.0 / kMomentScale));
    std::printf("%s: step 0: force (relative) %.2g, torque %.2g, moment %.2g\n", name.c_str(), f0.relative(),
                t0.relative(), m0.relative());
    CHECK(f0.relative() < 1e-9);
    CHECK(t0.relative() < 1e-9);
    CHECK(m0.relative() < 1e-9);
  }
  CHECK(presets == kShippedPresets.size());
}

TEST_CASE("a protocol that changes the field runs in LAMMPS as in our engine, phase by phase", "[lammps]") {
  // The sliding chain ("lammps" convention) through three phases: the oblique field (433 steps), a field rotating at
  // 50 Hz about y (355 steps), then no field. The export writes one `run N upto` per phase at the step our protocol
  // ends it (the scene time summed step by step), the field's fix removed and defined again between them. Required as
  // the chain's other tests: positions 1e-6, forces and torques 3e-5 (ending the first phase one step late gives
  // 1.3e-4). Not covered here: a phase whose field changes the suggested time step (the script sets it again), which
  // takes fields of tens of tesla in these scenes.
  std::string scene = chain_scene(R"({ "dp_nratio": 0.2, "dp_sratio": 0.2, "convention": "lammps" })", "0.05");
  const std::string particles = R"("particles": {)";
  const size_t at = scene.find(particles);
  REQUIRE(at != std::string::npos);
  scene.insert(at, R"("protocol": [
    { "name": "oblique", "duration": "0.61 ms" },
    { "name": "turning", "duration": "0.5 ms",
      "set": { "field.program": "rotating", "field.frequency": "50 Hz", "field.rotation_axis": [0, 1, 0] } },
    { "name": "off", "duration": "1 s", "set": { "field.strength": 0, "view.pace": 0.1 } } ],
  )");
  lodestone::test::RunnerWorkdir dir;
  lodestone::test::write_file(dir.path() / "chain.json", scene);
  compare_with_lammps("chain through a protocol", quoted((dir.path() / "chain.json").string()), 1100, 100,
                      Tolerances{1e-6, 3e-5});
  REQUIRE(dir.run("chain.json --steps 1100 --lammps-export lammps").code == 0);
  const std::string script = read_file(dir.path() / "lammps" / "in.lodestone");
  INFO(script);
  CHECK(script.find("# protocol phase 2 \"turning\"") != std::string::npos);
  CHECK(script.find("unfix           field\n") != std::string::npos);
  CHECK(script.find("if \"${steps} < 788\" then \"run ${steps} upto\" else \"run 788 upto\"\n") != std::string::npos);
}
