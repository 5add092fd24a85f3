// Particle-frame exports (engine/io/frame_fields.hpp, export_*.hpp): a small scene with two materials,
// a chain, a pair and a single sphere in a box with a periodic, a walled and an open axis is
// written in every format and read back here with parsers of our own, independent of the writers:
// counts, ids, box, and every value bit for bit (doubles are written in shortest round-trip form and read
// back with std::stod, which rounds correctly).

#include "bitwise.hpp"
#include "engine/analysis/clusters.hpp"
#include "engine/analysis/observables.hpp"
#include "engine/io/export_csv.hpp"
#include "engine/io/export_frames.hpp"
#include "engine/io/export_lammps_dump.hpp"
#include "engine/io/export_vtk.hpp"
#include "engine/io/export_xyz.hpp"
#include "engine/io/frame_fields.hpp"
#include "engine/io/output.hpp"
#include "engine/live/simulation_thread.hpp"
#include "test_support.hpp"
#include "tests/text_fields.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;
namespace fs = std::filesystem;

namespace {

using lodestone::test::lines_of;
using lodestone::test::split;
using lodestone::test::words;

constexpr double kRadius = 1e-3;                 // [m]
constexpr double kSpacing = 2 * kRadius - 1e-5;  // touching neighbours

// ids 0-2: a chain along x (material "magnet"); 3: a single sphere ("steel"); 4-5: a pair along y
// ("magnet"). x periodic, y wall below and open above, z walls. A field along x, dipoles on, so
// forces, torques and moments are non-zero; initial velocities and spins so every column moves.
Preset export_scene() {
  Preset p = bare_preset();
  Material steel;
  steel.name = "steel";
  steel.magnetization = 0.0;
  p.materials[0].name = "magnet";
  p.materials[0].magnetization = 1e5;
  p.materials.push_back(steel);
  p.magnetics.method = DipoleMethod::Cutoff;
  p.field.strength = 0.01;
  p.field.direction = Vec3::UnitX();
  p.box.x_min = p.box.x_max = SideKind::Periodic;
  p.box.y_min = SideKind::Wall;
  p.box.y_max = SideKind::Open;
  p.box.z_min = p.box.z_max = SideKind::Wall;
  auto add = [&](const Vec3& x, const Vec3& axis, const char* material, const Vec3& v, const Vec3& w) {
    ParticleEntry e = sphere(x, kRadius, v);
    e.axis = axis.normalized();
    e.material = material;
    e.angular_velocity = w;
    p.particles.particles.push_back(e);
  };
  for (int k = 0; k < 3; ++k)
    add(Vec3(-0.01 + k * kSpacing, 0, 0), Vec3(1, 0.2 * k, 0.1), "magnet", Vec3(0.01, 0, 0), Vec3(0, 0, 3));
  add(Vec3(0.02, 0.02, 0.01), Vec3(0, 1, 0), "steel", Vec3(0, -0.02, 0.005), Vec3(1, 0, 0));
  add(Vec3(0.0, -0.02, -0.01), Vec3(0, 0, 1), "magnet", Vec3::Zero(), Vec3::Zero());
  add(Vec3(0.0, -0.02 + kSpacing, -0.01), Vec3(0, 0.3, 1), "magnet", Vec3::Zero(), Vec3(0, 2, 0));
  return p;
}

// The scene after a few steps: forces and torques of a force pass, contacts active.
Session stepped_scene() {
  Session sim(export_scene());
  run_checked(sim, 5);
  return sim;
}

double number(const std::string& text) {
  size_t used = 0;
  const double v = std::stod(text, &used);
  REQUIRE(used == text.size());
  return v;
}

// Read back bit for bit: the shortest round-trip form loses nothing.
void check_close(double read, double expected) {
  INFO("read " << std::hexfloat << read << ", expected " << expected);
  CHECK(same_bits(read, expected));
}

void check_vector(const std::vector<std::string>& w, size_t at, const Vec3& expected) {
  for (int c = 0; c < 3; ++c) check_close(number(w[at + static_cast<size_t>(c)]), expected[c]);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh directory for one test, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "lodestone-export-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// A VTK XML DataArray as read here: its attributes and its whitespace-separated values.
struct DataArray {
  std::map<std::string, std::string> attributes;
  std::vector<std::string> values;
  int components() const {
    auto it = attributes.find("NumberOfComponents");
    return it == attributes.end() ? 1 : std::stoi(it->second);
  }
};

std::vector<DataArray> data_arrays(const std::string& xml) {
  std::vector<DataArray> out;
  const std::regex array_re(R"(<DataArray([^>]*)>([^<]*)</DataArray>)");
  const std::regex attribute_re(R"re((\w+)="([^"]*)")re");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), array_re); it != std::sregex_iterator(); ++it) {
    DataArray a;
    const std::string attributes = (*it)[1];
    for (auto at = std::sregex_iterator(attributes.begin(), attributes.end(), attribute_re);
         at != std::sregex_iterator(); ++at)
      a.attributes[(*at)[1]] = (*at)[2];
    a.values = words((*it)[2]);
    out.push_back(a);
  }
  return out;
}

const DataArray& array_named(const std::vector<DataArray>& arrays, const std::string& name) {
  for (const DataArray& a : arrays)
    if (a.attributes.count("Name") && a.attributes.at("Name") == name) return a;
  FAIL("no DataArray named " << name);
  return arrays.front();
}

}  // namespace

TEST_CASE("export: frame fields are the state's values, with alignment and clusters as the observables count them",
          "[export]") {
  const Session sim = stepped_scene();
  const State& state = sim.state();
  const FrameFields f = frame_fields(sim.model(), state);
  REQUIRE(f.size() == 6);
  CHECK(f.step == 5);
  CHECK(f.time == state.time);
  CHECK(f.field_direction.isApprox(Vec3::UnitX()));
  CHECK(f.material_count == 2);
  CHECK(f.periodic(0));
  CHECK_FALSE(f.periodic(1));
  CHECK(f.sides[1][0] == SideKind::Wall);
  CHECK(f.sides[1][1] == SideKind::Open);

  // The mean of the per-particle alignment is the observable <|n.b|>.
  double sum = 0.0;
  for (size_t i = 0; i < f.size(); ++i) {
    CHECK(f.easy_axis[i].isApprox(state.particles.orientation[i] * state.particles.easy_axis_body[i]));
    CHECK(f.alignment[i] == Approx(std::abs(f.easy_axis[i].x())));
    sum += f.alignment[i];
  }
  CHECK(sum / 6.0 == Approx(observe(sim.model(), state).alignment));

  // Cluster labels: the chain 0-2 is labelled 0, the single sphere 3, the pair 4-5 is labelled 4.
  std::map<std::uint64_t, std::uint64_t> label;
  for (size_t i = 0; i < f.size(); ++i) label[f.id[i]] = f.cluster[i];
  CHECK(label == std::map<std::uint64_t, std::uint64_t>{{0, 0}, {1, 0}, {2, 0}, {3, 3}, {4, 4}, {5, 4}});
  for (size_t i = 0; i < f.size(); ++i) CHECK(f.material[i] == (f.id[i] == 3 ? 1 : 0));
}

TEST_CASE("export: extended XYZ reads back with its lattice, pbc, time, step and every column", "[export]") {
  const Session sim = stepped_scene();
  const FrameFields f = frame_fields(sim.model(), sim.state());
  std::ostringstream out;
  write_xyz_frame(out, f);
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 2 + f.size());
  CHECK(lines[0] == "6");
  CHECK_THAT(lines[1], Catch::Contains("Lattice=\"0.1 0 0 0 0.1 0 0 0 0.1\""));
  CHECK_THAT(lines[1], Catch::Contains("Origin=\"-0.05 -0.05 -0.05\""));
  CHECK_THAT(lines[1], Catch::Contains("pbc=\"T F F\""));
  CHECK_THAT(lines[1], Catch::Contains(" Step=5"));
  std::smatch m;
  REQUIRE(std::regex_search(lines[1], m, std::regex(" Time=(\\S+)")));
  check_close(number(m[1]), f.time);
  for (size_t i = 0; i < f.size(); ++i) {
    const auto w = words(lines[2 + i]);
    REQUIRE(w.size() == 24);
    CHECK(w[0] == std::to_string(f.id[i]));
    check_close(number(w[1]), f.radius[i]);
    check_vector(w, 2, f.position[i]);
    check_vector(w, 5, f.velocity[i]);
    const Quat& q = f.orientation[i];  // x y z w
    check_close(number(w[8]), q.x());
    check_close(number(w[11]), q.w());
    check_vector(w, 12, f.easy_axis[i]);
    check_vector(w, 15, f.moment[i]);
    check_vector(w, 18, f.force[i]);
    check_vector(w, 21, f.torque[i]);
  }
}

TEST_CASE("export: a VTK PolyData frame has one vertex per point and every point array at full length", "[export]") {
  const Session sim = stepped_scene();
  const FrameFields f = frame_fields(sim.model(), sim.state());
  const std::string xml = vtp_text(f);
  CHECK_THAT(xml, Catch::StartsWith("<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\""));
  CHECK_THAT(xml, Catch::Contains("<Piece NumberOfPoints=\"6\" NumberOfVerts=\"6\""));
  const std::vector<DataArray> arrays = data_arrays(xml);
  // Field data: one tuple each.
  check_close(number(array_named(arrays, "TimeValue").values.at(0)), f.time);
  CHECK(array_named(arrays, "Step").values == std::vector<std::string>{"5"});

  const std::map<std::string, int> expected = {
      {"id", 1},          {"material", 1},  {"radius", 1},   {"velocity", 3},     {"angular_velocity", 3},
      {"orientation", 4}, {"easy_axis", 3}, {"moment", 3},   {"force", 3},        {"torque", 3},
      {"alignment", 1},   {"cluster", 1},   {"position", 3}, {"connectivity", 1}, {"offsets", 1}};
  for (const auto& [name, components] : expected) {
    INFO(name);
    const DataArray& a = array_named(arrays, name);
    CHECK(a.components() == components);
    CHECK(a.values.size() == static_cast<size_t>(components) * f.size());
  }
  auto vector_of = [&](const std::string& name, size_t i) {
    const auto& v = array_named(arrays, name).values;
    return Vec3(number(v[3 * i]), number(v[3 * i + 1]), number(v[3 * i + 2]));
  };
  for (size_t i = 0; i < f.size(); ++i) {
    CHECK(array_named(arrays, "id").values[i] == std::to_string(f.id[i]));
    CHECK(array_named(arrays, "cluster").values[i] == std::to_string(f.cluster[i]));
    CHECK(array_named(arrays, "material").values[i] == std::to_string(f.material[i]));
    CHECK(array_named(arrays, "connectivity").values[i] == std::to_string(i));
    CHECK(array_named(arrays, "offsets").values[i] == std::to_string(i + 1));
    check_close(number(array_named(arrays, "radius").values[i]), f.radius[i]);
    check_close(number(array_named(arrays, "alignment").values[i]), f.alignment[i]);
    for (const auto& [name, values] :
         std::vector<std::pair<std::string, const std::vector<Vec3>*>>{{"position", &f.position},
                                                                       {"velocity", &f.velocity},
                                                                       {"angular_velocity", &f.angular_velocity},
                                                                       {"easy_axis", &f.easy_axis},
                                                                       {"moment", &f.moment},
                                                                       {"force", &f.force},
                                                                       {"torque", &f.torque}}) {
      INFO(name << " of point " << i);
      const Vec3 v = vector_of(name, i);
      for (int c = 0; c < 3; ++c) check_close(v[c], (*values)[i][c]);
    }
    const auto& q = array_named(arrays, "orientation").values;  // x y z w
    check_close(number(q[4 * i]), f.orientation[i].x());
    check_close(number(q[4 * i + 3]), f.orientation[i].w());
  }
}

TEST_CASE("export: a VTK series writes numbered frames and a .pvd listing each with its time", "[export]") {
  TempDir dir;
  Session sim(export_scene());
  const std::string path = (dir.path / "run.vtp").string();
  FrameSeriesWriter writer(path, FrameFormat::VtkPolyData);
  REQUIRE(writer.collection_path() == (dir.path / "run.pvd").string());
  // Valid from the start: an empty collection.
  CHECK(std::regex_search(read_text(dir.path / "run.pvd"), std::regex("<Collection>\\s*</Collection>")));
  std::vector<double> times;
  for (int frame = 0; frame < 3; ++frame) {
    if (frame > 0) run_checked(sim, 4);
    writer.write(frame_fields(sim.model(), sim.state()));
    times.push_back(sim.state().time);
    // After every frame the collection lists exactly the frames written so far.
    const std::string pvd = read_text(dir.path / "run.pvd");
    const std::regex dataset_re(R"re(<DataSet timestep="([^"]+)" group="" part="0" file="([^"]+)"/>)re");
    std::vector<std::pair<double, std::string>> listed;
    for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), dataset_re); it != std::sregex_iterator(); ++it)
      listed.emplace_back(number((*it)[1]), (*it)[2]);
    REQUIRE(listed.size() == static_cast<size_t>(frame + 1));
    for (size_t k = 0; k < listed.size(); ++k) {
      char name[32];
      std::snprintf(name, sizeof name, "run_%06zu.vtp", k);
      CHECK(listed[k].second == name);
      check_close(listed[k].first, times[k]);
      CHECK(fs::is_regular_file(dir.path / name));
    }
  }
  writer.finish();
  CHECK(writer.frames() == 3);
  // The last frame holds the last state's step, and no temporary file is left behind.
  const auto arrays = data_arrays(read_text(dir.path / "run_000002.vtp"));
  CHECK(array_named(arrays, "Step").values == std::vector<std::string>{"8"});
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path)) {
    INFO(entry.path());
    CHECK(entry.path().string().find(".tmp") == std::string::npos);
    ++files;
  }
  CHECK(files == 4);
}

TEST_CASE("export: a LAMMPS dump has the dump-custom items, boundary flags from the box sides and every column",
          "[export]") {
  const Session sim = stepped_scene();
  const FrameFields f = frame_fields(sim.model(), sim.state());
  CHECK(lammps_boundary_flags(f) == "pp fs ff");
  std::ostringstream out;
  write_lammps_dump_frame(out, f);
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 9 + f.size());
  CHECK(lines[0] == "ITEM: TIMESTEP");
  CHECK(lines[1] == "5");
  CHECK(lines[2] == "ITEM: NUMBER OF ATOMS");
  CHECK(lines[3] == "6");
  CHECK(lines[4] == "ITEM: BOX BOUNDS pp fs ff");
  CHECK(words(lines[5]) == std::vector<std::string>{"-0.05", "0.05"});
  CHECK(words(lines[7]) == std::vector<std::string>{"-0.05", "0.05"});
  CHECK(words(lines[6]) == std::vector<std::string>{"-0.05", "0.05"});  // every sphere inside the open side
  const std::vector<std::string> columns = {
      "id", "type", "x",   "y",   "z",   "vx",     "vy",     "vz",     "radius", "mux",   "muy",   "muz",  "fx",
      "fy", "fz",   "tqx", "tqy", "tqz", "omegax", "omegay", "omegaz", "quatw",  "quati", "quatj", "quatk"};
  auto header = words(lines[8]);
  REQUIRE(header.size() == 2 + columns.size());
  CHECK(header[0] == "ITEM:");
  CHECK(header[1] == "ATOMS");
  header.erase(header.begin(), header.begin() + 2);
  CHECK(header == columns);
  for (size_t i = 0; i < f.size(); ++i) {
    const auto w = words(lines[9 + i]);
    REQUIRE(w.size() == columns.size());
    CHECK(w[0] == std::to_string(f.id[i] + 1));  // LAMMPS ids count from 1
    CHECK(w[1] == std::to_string(f.material[i] + 1));
    check_vector(w, 2, f.position[i]);
    check_vector(w, 5, f.velocity[i]);
    check_close(number(w[8]), f.radius[i]);
    check_vector(w, 9, f.moment[i]);
    check_vector(w, 12, f.force[i]);
    check_vector(w, 15, f.torque[i]);
    check_vector(w, 18, f.angular_velocity[i]);
    const Quat& q = f.orientation[i];  // w i j k
    check_close(number(w[21]), q.w());
    check_close(number(w[22]), q.x());
    check_close(number(w[23]), q.y());
    check_close(number(w[24]), q.z());
  }
}

TEST_CASE("export: a LAMMPS dump widens the bound of an open side to every sphere that left the box", "[export]") {
  const Session sim = stepped_scene();
  FrameFields f = frame_fields(sim.model(), sim.state());
  f.position[3].y() = 0.07;  // beyond y_max = 0.05, the open side
  std::ostringstream out;
  write_lammps_dump_frame(out, f);
  const auto lines = lines_of(out.str());
  const auto y = words(lines[6]);
  CHECK(y[0] == "-0.05");  // the wall stays where it is
  check_close(number(y[1]), 0.07 + kRadius);
}

TEST_CASE("export: CSV frames have one header and a row per particle per frame with step and time", "[export]") {
  Session sim(export_scene());
  std::ostringstream out;
  out << frame_csv_header();
  std::vector<FrameFields> frames;
  for (int frame = 0; frame < 2; ++frame) {
    if (frame > 0) run_checked(sim, 3);
    frames.push_back(frame_fields(sim.model(), sim.state()));
    write_csv_frame(out, frames.back());
  }
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 1 + 2 * 6);
  const auto header = split(lines[0], ',');
  REQUIRE(header.size() == 32);
  std::map<std::string, size_t> column;
  for (size_t c = 0; c < header.size(); ++c) column[header[c]] = c;
  REQUIRE(column.size() == header.size());  // no name twice
  for (size_t row = 1; row < lines.size(); ++row) {
    const auto cells = split(lines[row], ',');
    REQUIRE(cells.size() == header.size());
    const FrameFields& f = frames[(row - 1) / 6];
    const size_t i = (row - 1) % 6;
    CHECK(cells[column["step"]] == std::to_string(f.step));
    check_close(number(cells[column["time"]]), f.time);
    CHECK(cells[column["id"]] == std::to_string(f.id[i]));
    CHECK(cells[column["material"]] == std::to_string(f.material[i]));
    CHECK(cells[column["cluster"]] == std::to_string(f.cluster[i]));
    check_close(number(cells[column["radius"]]), f.radius[i]);
    check_close(number(cells[column["alignment"]]), f.alignment[i]);
    check_vector(cells, column["x"], f.position[i]);
    check_vector(cells, column["vx"], f.velocity[i]);
    check_vector(cells, column["omega_x"], f.angular_velocity[i]);
    check_vector(cells, column["easy_axis_x"], f.easy_axis[i]);
    check_vector(cells, column["moment_x"], f.moment[i]);
    check_vector(cells, column["force_x"], f.force[i]);
    check_vector(cells, column["torque_x"], f.torque[i]);
    check_close(number(cells[column["qx"]]), f.orientation[i].x());
    check_close(number(cells[column["qw"]]), f.orientation[i].w());
  }
  CHECK(split(lines[1], ',')[0] == "0");
  CHECK(split(lines[7], ',')[0] == "3");
}

TEST_CASE("export: numbers are written in shortest round-trip form and read back bit for bit", "[export]") {
  // Values that 10 significant digits would round: a third, pi, a tiny and a huge one, the extremes.
  for (double v : {1.0 / 3.0, pi, -2.0 / 3.0 * 1e-300, 6.02214076e23 / 7.0, 0.1, 1e-5, 0.0, -0.0,
                   std::numeric_limits<double>::min(), std::numeric_limits<double>::max(), std::nextafter(1.0, 2.0)}) {
    std::string text;
    append_number(text, v);
    INFO(text);
    CHECK(text.size() <= 24);
    CHECK(same_bits(number(text), v));
  }
  std::string text;
  append_number(text, 0.1);
  CHECK(text == "0.1");  // shortest: no padding digits
}

TEST_CASE("export: the time-series row reads back bit for bit", "[export]") {
  Session sim = stepped_scene();
  const Observables o = sim.observe();
  const auto names = split(series_header().substr(0, series_header().size() - 1), ',');
  const auto cells = split(series_row(o).substr(0, series_row(o).size() - 1), ',');
  REQUIRE(names.size() == cells.size());
  std::map<std::string, std::string> row;
  for (size_t c = 0; c < names.size(); ++c) row[names[c]] = cells[c];
  const std::map<std::string, double> expected = {{"time", o.time},
                                                  {"kinetic_translational", o.kinetic_translational},
                                                  {"kinetic_rotational", o.kinetic_rotational},
                                                  {"elastic", o.elastic},
                                                  {"dipole", o.dipole},
                                                  {"zeeman", o.zeeman},
                                                  {"dissipated_dashpot", o.dissipated_dashpot},
                                                  {"total_energy", o.total_energy()},
                                                  {"energy_balance", o.energy_balance()},
                                                  {"alignment", o.alignment},
                                                  {"moment_alignment", o.moment_alignment},
                                                  {"magnetization_x", o.magnetization.x()},
                                                  {"magnetization_along_field", o.magnetization_along_field},
                                                  {"momentum_y", o.linear_momentum.y()},
                                                  {"angular_momentum_z", o.angular_momentum.z()},
                                                  {"coordination", o.coordination},
                                                  {"max_overlap_ratio", o.max_overlap_ratio},
                                                  {"packing_fraction", o.packing_fraction},
                                                  {"mean_cluster_size", o.clusters.mean_cluster_size}};
  for (const auto& [name, value] : expected) {
    INFO(name << " = " << row.at(name));
    CHECK(same_bits(number(row.at(name)), value));
  }
  // Every numeric cell is in shortest form: printing the value read back gives the same text.
  for (size_t c = 0; c < cells.size(); ++c) {
    if (cells[c].empty()) continue;
    std::string again;
    append_number(again, number(cells[c]));
    INFO(names[c] << " = " << cells[c]);
    CHECK(again == cells[c]);
  }
}

TEST_CASE("export: the extension chooses the format, an unknown one is refused with the allowed ones", "[export]") {
  CHECK(frame_format_of("a/b/run.xyz") == FrameFormat::ExtendedXyz);
  CHECK(frame_format_of("run.VTP") == FrameFormat::VtkPolyData);
  CHECK(frame_format_of("run.dump") == FrameFormat::LammpsDump);
  CHECK(frame_format_of("run.lammpstrj") == FrameFormat::LammpsDump);
  CHECK(frame_format_of("run.csv") == FrameFormat::Csv);
  CHECK_FALSE(frame_format_of("run.txt"));
  CHECK_FALSE(frame_format_of("run"));
  CHECK_FALSE(frame_format_of("vtp"));
  for (int k = 0; k < kFrameFormatCount; ++k) {
    const auto format = static_cast<FrameFormat>(k);
    CHECK(frame_format_of(std::string("x") + frame_format_extension(format)) == format);
  }

  const Session sim = stepped_scene();
  const FrameFields f = frame_fields(sim.model(), sim.state());
  TempDir dir;
  try {
    export_frame((dir.path / "frame.txt").string(), f);
    FAIL("an unknown extension was accepted");
  } catch (const ExportError& e) {
    CHECK_THAT(e.what(), Catch::Contains("'.txt'"));
    for (const char* allowed : {".xyz", ".vtp", ".dump", ".lammpstrj", ".csv"})
      CHECK_THAT(e.what(), Catch::Contains(allowed));
  }
  CHECK(fs::is_empty(dir.path));
}

TEST_CASE("export: one frame per file, atomically, with the reason when it cannot be written", "[export]") {
  const Session sim = stepped_scene();
  const FrameFields f = frame_fields(sim.model(), sim.state());
  TempDir dir;
  for (int k = 0; k < kFrameFormatCount; ++k) {
    const auto format = static_cast<FrameFormat>(k);
    const fs::path path = dir.path / (std::string("frame") + frame_format_extension(format));
    export_frame(path.string(), f);
    CHECK(read_text(path) == frame_file_text(format, f));
  }
  CHECK_THAT(read_text(dir.path / "frame.csv"), Catch::StartsWith(frame_csv_header()));
  CHECK(lines_of(read_text(dir.path / "frame.csv")).size() == 7);

  // A missing directory: the message names the path and says why.
  const std::string missing = (dir.path / "no-such-dir" / "frame.vtp").string();
  try {
    export_frame(missing, f);
    FAIL("wrote into a missing directory");
  } catch (const ExportError& e) {
    CHECK_THAT(e.what(), Catch::Contains(missing));
    CHECK_THAT(e.what(), Catch::Contains("No such file or directory"));
  }
  // A directory where the file should go: the rename fails, the directory is untouched and the
  // temporary file removed.
  fs::create_directory(dir.path / "taken.xyz");
  fs::path marker = dir.path / "taken.xyz" / "keep";
  std::ofstream(marker) << "x";
  try {
    export_frame((dir.path / "taken.xyz").string(), f);
    FAIL("replaced a directory");
  } catch (const ExportError& e) {
    CHECK_THAT(e.what(), Catch::Contains("taken.xyz"));
    CHECK_THAT(e.what(), Catch::Contains("Is a directory"));
    CHECK_THAT(e.what(), Catch::Contains("unchanged"));
  }
  CHECK(fs::is_regular_file(marker));
  for (const auto& entry : fs::directory_iterator(dir.path))
    CHECK(entry.path().string().find(".tmp") == std::string::npos);
}

TEST_CASE("export: a series writer that cannot create its file says why", "[export]") {
  TempDir dir;
  for (const char* name : {"none/run.xyz", "none/run.vtp", "none/run.dump", "none/run.csv"}) {
    const std::string path = (dir.path / name).string();
    INFO(path);
    try {
      FrameSeriesWriter writer(path, *frame_format_of(path));
      FAIL("opened a file in a missing directory");
    } catch (const ExportError& e) {
      CHECK_THAT(e.what(), Catch::Contains("No such file or directory"));
      CHECK_THAT(e.what(), Catch::Contains((dir.path / "none").string()));
    }
  }
}

TEST_CASE("export: the simulation thread captures the frame a CaptureFrame asks for", "[export][threading]") {
  SimulationThread thread(export_scene(), "export scene", /*start_running=*/false);
  // Waits until the newest snapshot satisfies `done` (20 s at most).
  auto wait_for = [&](const auto& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done(thread.snapshot()) && std::chrono::steady_clock::now() < deadline) {
      thread.update_snapshot();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return done(thread.snapshot());
  };
  // Paused: the frame is the scene as built (step 0), taken from the engine's state in double
  // precision, with ids and clusters.
  thread.push(CaptureFrame{7});
  REQUIRE(wait_for([](const Snapshot& s) { return s.frame_request == 7; }));
  {
    const Snapshot& s = thread.snapshot();  // the read buffer until the next update_snapshot
    REQUIRE(s.frame);
    CHECK(s.frame->step == 0);
    CHECK(s.frame->size() == 6);
    CHECK(s.frame->cluster.size() == 6);
    CHECK(s.frame->position[0].x() == -0.01);
  }
  // After three steps (waited for: a capture queued behind the steps could be drained with them and run
  // first), the next capture is of step 3.
  thread.push(StepOnce{3});
  REQUIRE(wait_for([](const Snapshot& s) { return s.step == 3; }));
  thread.push(CaptureFrame{8});
  REQUIRE(wait_for([](const Snapshot& s) { return s.frame_request == 8; }));
  REQUIRE(thread.snapshot().frame);
  CHECK(thread.snapshot().frame->step == 3);
}
