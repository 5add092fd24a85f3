// Particle-frame exports (engine/output/frame_fields.hpp, export_*.hpp): a small scene with two materials,
// a chain, a pair and a single sphere in a box with a periodic, a walled and an open axis is
// written in every format and read back here with parsers of our own, independent of the writers:
// counts, ids, box, and every value bit for bit (doubles are written in shortest round-trip form and read
// back with std::stod, which rounds correctly).

#include "engine/analysis/clusters.hpp"
#include "engine/analysis/observables.hpp"
#include "engine/core/version.hpp"
#include "engine/live/simulation_thread.hpp"
#include "engine/output/export_csv.hpp"
#include "engine/output/export_frames.hpp"
#include "engine/output/export_lammps_dump.hpp"
#include "engine/output/export_vtk.hpp"
#include "engine/output/export_xyz.hpp"
#include "engine/output/frame_fields.hpp"
#include "engine/output/series.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"
#include "tests/test_process.hpp"
#include "tests/text_fields.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
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
using lodestone::test::TempDir;
using lodestone::test::words;

constexpr double kExportRadius = 1e-3;                       // [m]
constexpr double kExportSpacing = 2 * kExportRadius - 1e-5;  // touching neighbours

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
    ParticleEntry e = sphere(x, kExportRadius, v);
    e.axis = axis.normalized();
    e.material = material;
    e.angular_velocity = w;
    p.particles.particles.push_back(e);
  };
  for (int k = 0; k < 3; ++k)
    add(Vec3(-0.01 + k * kExportSpacing, 0, 0), Vec3(1, 0.2 * k, 0.1), "magnet", Vec3(0.01, 0, 0), Vec3(0, 0, 3));
  add(Vec3(0.02, 0.02, 0.01), Vec3(0, 1, 0), "steel", Vec3(0, -0.02, 0.005), Vec3(1, 0, 0));
  add(Vec3(0.0, -0.02, -0.01), Vec3(0, 0, 1), "magnet", Vec3::Zero(), Vec3::Zero());
  add(Vec3(0.0, -0.02 + kExportSpacing, -0.01), Vec3(0, 0.3, 1), "magnet", Vec3::Zero(), Vec3(0, 2, 0));
  return p;
}

// The scene after a few steps: forces and torques of a force pass, contacts active.
Session stepped_scene() {
  Session session(export_scene());
  run_checked(session, 5);
  return session;
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
  const Session session = stepped_scene();
  const State& state = session.state();
  const FrameFields f = frame_fields(session.model(), state);
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
  CHECK(sum / 6.0 == Approx(observe(session.model(), state).alignment));

  // Cluster labels: the chain 0-2 is labelled 0, the single sphere 3, the pair 4-5 is labelled 4.
  std::map<std::uint64_t, std::uint64_t> label;
  for (size_t i = 0; i < f.size(); ++i) label[f.id[i]] = f.cluster[i];
  CHECK(label == std::map<std::uint64_t, std::uint64_t>{{0, 0}, {1, 0}, {2, 0}, {3, 3}, {4, 4}, {5, 4}});
  for (size_t i = 0; i < f.size(); ++i) CHECK(f.material[i] == (f.id[i] == 3 ? 1 : 0));
}

TEST_CASE("export: extended XYZ reads back with its lattice, pbc, time, step and every column", "[export]") {
  const Session session = stepped_scene();
  const FrameFields f = frame_fields(session.model(), session.state());
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
    REQUIRE(w.size() == 27);
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
    for (size_t a = 0; a < 3; ++a) CHECK(w[24 + a] == std::to_string(f.image[i][a]));
  }
  CHECK_THAT(lines[1], Catch::Contains(":torque:R:3:image:I:3 "));
}

TEST_CASE("export: a VTK PolyData frame has one vertex per point and every point array at full length", "[export]") {
  const Session session = stepped_scene();
  const FrameFields f = frame_fields(session.model(), session.state());
  const std::string xml = vtp_text(f);
  CHECK_THAT(xml, Catch::StartsWith("<?xml version=\"1.0\"?>\n<!-- written by " + lodestone_version_line() +
                                    " -->\n<VTKFile type=\"PolyData\""));
  CHECK_THAT(xml, Catch::Contains("NumberOfLines=\"0\"") && !Catch::Contains("<CellData"));  // no bonds here
  CHECK_THAT(xml, Catch::Contains("<Piece NumberOfPoints=\"6\" NumberOfVerts=\"6\""));
  const std::vector<DataArray> arrays = data_arrays(xml);
  // Field data: one tuple each.
  check_close(number(array_named(arrays, "TimeValue").values.at(0)), f.time);
  CHECK(array_named(arrays, "Step").values == std::vector<std::string>{"5"});

  const std::map<std::string, int> expected = {
      {"id", 1},          {"material", 1},  {"radius", 1},   {"velocity", 3},     {"angular_velocity", 3},
      {"orientation", 4}, {"easy_axis", 3}, {"moment", 3},   {"force", 3},        {"torque", 3},
      {"alignment", 1},   {"cluster", 1},   {"position", 3}, {"connectivity", 1}, {"offsets", 1},
      {"image", 3}};
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
    for (size_t a = 0; a < 3; ++a)
      CHECK(array_named(arrays, "image").values[3 * i + a] == std::to_string(f.image[i][a]));
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

namespace {

// RFC 4648 base64 back to bytes (the test's own decoder, independent of the writer's encoder).
std::string base64_decode(const std::string& text) {
  const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    if (c == '=') break;
    const size_t v = digits.find(c);
    REQUIRE(v != std::string::npos);
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += static_cast<char>((bits >> count) & 0xFF);
    }
  }
  return out;
}

// The bytes of a binary DataArray's values after its UInt64 byte count, which must match them.
std::string counted_block(const std::string& block) {
  REQUIRE(block.size() >= 8);
  std::uint64_t bytes = 0;
  std::memcpy(&bytes, block.data(), 8);
  REQUIRE(block.size() >= 8 + bytes);
  return block.substr(8, bytes);
}

template <typename T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// The export scene with its touching spheres bonded: the chain 0-1-2 and the pair 4-5, three bonds.
Session bonded_scene() {
  Preset p = export_scene();
  p.bonds.create = BondCreation::Touching;
  Session session(p);
  run_checked(session, 5);
  return session;
}

}  // namespace

TEST_CASE("export: base64 is RFC 4648's", "[export]") {
  // The test vectors of RFC 4648 section 10.
  const std::pair<std::string, std::string> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    CHECK(base64_encode(plain.data(), plain.size()) == encoded);
    CHECK(base64_decode(encoded) == plain);
  }
}

TEST_CASE("export: base64 and raw VTK frames hold the frame's values bit for bit", "[export]") {
  const Session session = bonded_scene();
  const FrameFields f = frame_fields(session.model(), session.state());
  std::vector<double> positions;
  for (const Vec3& x : f.position) positions.insert(positions.end(), {x.x(), x.y(), x.z()});

  // base64: each array inline, its count and values encoded together.
  const std::string inline_xml = vtp_text(f, VtkEncoding::Base64);
  const std::regex inline_re(
      R"re(<DataArray type="(\w+)" Name="(\w+)" NumberOfComponents="\d" format="binary">\s*(\S+)\s*</DataArray>)re");
  std::map<std::string, std::string> blocks;
  for (auto it = std::sregex_iterator(inline_xml.begin(), inline_xml.end(), inline_re); it != std::sregex_iterator();
       ++it)
    blocks[std::string((*it)[2])] += counted_block(base64_decode((*it)[3]));  // connectivity, offsets: twice
  CHECK(blocks.at("position") == bytes_of(positions));
  CHECK(blocks.at("id") == bytes_of(f.id));
  CHECK(blocks.at("radius") == bytes_of(f.radius));

  // raw: offsets into one appended block after '_', each array its count and values.
  const std::string raw = vtp_text(f, VtkEncoding::Raw);
  const size_t start = raw.find("<AppendedData encoding=\"raw\">\n   _");
  REQUIRE(start != std::string::npos);
  const size_t data = raw.find('_', start) + 1;
  REQUIRE(raw.substr(raw.size() - 30) == "\n  </AppendedData>\n</VTKFile>\n");
  const std::string header = raw.substr(0, start);
  const std::regex appended_re(R"re(Name="(\w+)" NumberOfComponents="\d" format="appended" offset="(\d+)"/>)re");
  size_t arrays = 0, expected_offset = 0;
  for (auto it = std::sregex_iterator(header.begin(), header.end(), appended_re); it != std::sregex_iterator(); ++it) {
    const size_t offset = std::stoul((*it)[2]);
    CHECK(offset == expected_offset);  // the blocks one after the other, in the order of the arrays
    const std::string values = counted_block(raw.substr(data + offset));
    expected_offset = offset + 8 + values.size();
    if ((*it)[1] == "position") CHECK(values == bytes_of(positions));
    if ((*it)[1] == "moment") {
      std::vector<double> moments;
      for (const Vec3& m : f.moment) moments.insert(moments.end(), {m.x(), m.y(), m.z()});
      CHECK(values == bytes_of(moments));
    }
    ++arrays;
  }
  CHECK(arrays == 13 + 2 + 1 + 2 + 2);               // point data, cell data, points, verts, lines
  CHECK(data + expected_offset == raw.size() - 30);  // nothing after the last block but the end tags
  CHECK(vtk_encoding_of("raw") == VtkEncoding::Raw);
  CHECK_FALSE(vtk_encoding_of("binary").has_value());
}

TEST_CASE("export: bonds are VTK lines with their state and stretch, XYZ keys, a LAMMPS data file and bond dump",
          "[export]") {
  Session session = bonded_scene();
  FrameFields f = frame_fields(session.model(), session.state());
  REQUIRE(f.bonds.size() == 3);
  // One bond broken by hand, to see the state written.
  f.bonds[1].intact = false;
  std::set<std::pair<std::uint64_t, std::uint64_t>> pairs;
  for (const FrameBond& b : f.bonds) {
    CHECK(f.id[b.a] == b.id_a);
    CHECK(f.id[b.b] == b.id_b);
    pairs.emplace(std::min(b.id_a, b.id_b), std::max(b.id_a, b.id_b));
    // Rest length: the centre distance when bonded, kExportSpacing; the scene has moved for 5 steps since.
    const double length = (f.position[b.b] - f.position[b.a]).norm();
    CHECK(b.stretch == Approx((length - kExportSpacing) / kExportSpacing).margin(1e-12));
  }
  CHECK(pairs == std::set<std::pair<std::uint64_t, std::uint64_t>>{{0, 1}, {1, 2}, {4, 5}});

  const std::string xml = vtp_text(f);
  CHECK_THAT(xml, Catch::Contains("NumberOfVerts=\"6\" NumberOfLines=\"3\""));
  const auto arrays = data_arrays(xml);
  CHECK(array_named(arrays, "IntactBonds").values == std::vector<std::string>{"2"});
  CHECK(array_named(arrays, "BrokenBonds").values == std::vector<std::string>{"1"});
  const auto& intact = array_named(arrays, "bond_intact").values;
  REQUIRE(intact.size() == 6 + 3);
  CHECK(std::vector<std::string>(intact.begin(), intact.begin() + 6) == std::vector<std::string>(6, "-1"));
  CHECK(std::vector<std::string>(intact.begin() + 6, intact.end()) == std::vector<std::string>{"1", "0", "1"});
  const auto& stretch = array_named(arrays, "bond_stretch").values;
  REQUIRE(stretch.size() == 9);
  for (size_t k = 0; k < 3; ++k) check_close(number(stretch[6 + k]), f.bonds[k].stretch);
  // The line cells: the last connectivity and offsets arrays (the first are the vertices').
  std::vector<const DataArray*> connectivity, offsets;
  for (const DataArray& a : arrays) {
    if (a.attributes.count("Name") && a.attributes.at("Name") == "connectivity") connectivity.push_back(&a);
    if (a.attributes.count("Name") && a.attributes.at("Name") == "offsets") offsets.push_back(&a);
  }
  REQUIRE(connectivity.size() == 2);
  REQUIRE(offsets.size() == 2);
  CHECK(offsets[1]->values == std::vector<std::string>{"2", "4", "6"});
  for (size_t k = 0; k < 3; ++k) {
    CHECK(connectivity[1]->values.at(2 * k) == std::to_string(f.bonds[k].a));
    CHECK(connectivity[1]->values.at(2 * k + 1) == std::to_string(f.bonds[k].b));
  }

  // Extended XYZ: intact pairs in bonds, the broken one in broken_bonds, by id; the writer last.
  std::ostringstream xyz;
  write_xyz_frame(xyz, f);
  const std::string comment = lines_of(xyz.str()).at(1);
  auto pair_text = [&](size_t k) { return std::to_string(f.bonds[k].id_a) + " " + std::to_string(f.bonds[k].id_b); };
  CHECK_THAT(comment, Catch::Contains(" bonds=\"" + pair_text(0) + " " + pair_text(2) + "\""));
  CHECK_THAT(comment, Catch::Contains(" broken_bonds=\"" + pair_text(1) + "\""));
  CHECK_THAT(comment, Catch::EndsWith(" Program=\"" + lodestone_version_line() + "\""));

  // LAMMPS: the data file's topology (ids + 1, type 1 intact, 2 broken) and the dump local of the intact bonds.
  const auto data = lines_of(lammps_data_text(f));
  CHECK_THAT(data.at(0), Catch::StartsWith("LAMMPS data file written by " + lodestone_version_line()));
  CHECK(std::find(data.begin(), data.end(), "3 bonds") != data.end());
  CHECK(std::find(data.begin(), data.end(), "2 bond types") != data.end());
  const auto bonds_at = std::find(data.begin(), data.end(), "Bonds");
  REQUIRE(bonds_at != data.end());
  REQUIRE(data.end() - bonds_at >= 5);
  for (size_t k = 0; k < 3; ++k)
    CHECK(words(bonds_at[2 + static_cast<std::ptrdiff_t>(k)]) ==
          std::vector<std::string>{std::to_string(k + 1), k == 1 ? "2" : "1", std::to_string(f.bonds[k].id_a + 1),
                                   std::to_string(f.bonds[k].id_b + 1)});
  const auto atoms_at = std::find(data.begin(), data.end(), "Atoms # bond");
  REQUIRE(atoms_at != data.end());
  CHECK(words(atoms_at[2]).size() == 6);  // id molecule type x y z
  std::ostringstream local;
  write_lammps_bond_dump_frame(local, f);
  const auto dump = lines_of(local.str());
  REQUIRE(dump.size() == 9 + 2);
  CHECK(dump[2] == "ITEM: NUMBER OF BONDS");
  CHECK(dump[3] == "2");
  CHECK(dump[8] == "ITEM: BONDS index batom1 batom2 btype stretch");
  CHECK(words(dump[10]).at(1) == std::to_string(f.bonds[2].id_a + 1));
  check_close(number(words(dump[10]).at(4)), f.bonds[2].stretch);
  CHECK(lammps_data_path("out/run.dump") == "out/run.data");
  CHECK(lammps_bond_dump_path("out/run.dump") == "out/run.bonds.dump");
}

TEST_CASE("export: a LAMMPS dump series of a bonded scene writes its data file and bond dump beside it", "[export]") {
  TempDir dir;
  Session session = bonded_scene();
  const std::string path = (dir.path() / "run.dump").string();
  FrameSeriesWriter writer(path, FrameFormat::LammpsDump);
  for (int frame = 0; frame < 2; ++frame) {
    if (frame > 0) run_checked(session, 3);
    writer.write(frame_fields(session.model(), session.state()));
  }
  writer.finish();
  CHECK_THAT(read_text(dir.path() / "run.data"), Catch::Contains("\nBonds\n"));
  const std::string local = read_text(dir.path() / "run.bonds.dump");
  CHECK(std::count(local.begin(), local.end(), '\n') == 2 * (9 + 3));
  // A scene without bonds writes no side files.
  TempDir plain;
  Session unbonded(export_scene());
  FrameSeriesWriter other((plain.path() / "run.dump").string(), FrameFormat::LammpsDump);
  other.write(frame_fields(unbonded.model(), unbonded.state()));
  other.finish();
  CHECK_FALSE(fs::exists(plain.path() / "run.data"));
  CHECK_FALSE(fs::exists(plain.path() / "run.bonds.dump"));
}

TEST_CASE("export: a VTK series writes numbered frames and a .pvd listing each with its time", "[export]") {
  TempDir dir;
  Session session(export_scene());
  const std::string path = (dir.path() / "run.vtp").string();
  FrameSeriesWriter writer(path, FrameFormat::VtkPolyData);
  REQUIRE(writer.collection_path() == (dir.path() / "run.pvd").string());
  // Valid from the start: an empty collection.
  CHECK(std::regex_search(read_text(dir.path() / "run.pvd"), std::regex("<Collection>\\s*</Collection>")));
  std::vector<double> times;
  for (int frame = 0; frame < 3; ++frame) {
    if (frame > 0) run_checked(session, 4);
    writer.write(frame_fields(session.model(), session.state()));
    times.push_back(session.state().time);
    // After every frame the collection lists exactly the frames written so far.
    const std::string pvd = read_text(dir.path() / "run.pvd");
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
      CHECK(fs::is_regular_file(dir.path() / name));
    }
  }
  writer.finish();
  CHECK(writer.frames() == 3);
  // The last frame holds the last state's step, and no temporary file is left behind.
  const auto arrays = data_arrays(read_text(dir.path() / "run_000002.vtp"));
  CHECK(array_named(arrays, "Step").values == std::vector<std::string>{"8"});
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    INFO(entry.path());
    CHECK(entry.path().string().find(".tmp") == std::string::npos);
    ++files;
  }
  CHECK(files == 4);
}

TEST_CASE("export: a LAMMPS dump has the dump-custom items, boundary flags from the box sides and every column",
          "[export]") {
  const Session session = stepped_scene();
  const FrameFields f = frame_fields(session.model(), session.state());
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
      "id", "type", "x",   "y",   "z",      "vx",     "vy",     "vz",    "radius", "mux",   "muy",   "muz", "fx", "fy",
      "fz", "tqx",  "tqy", "tqz", "omegax", "omegay", "omegaz", "quatw", "quati",  "quatj", "quatk", "ix",  "iy", "iz"};
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
    for (size_t a = 0; a < 3; ++a) CHECK(w[25 + a] == std::to_string(f.image[i][a]));
  }
}

TEST_CASE("export: a LAMMPS dump widens the bound of an open side to every sphere that left the box", "[export]") {
  const Session session = stepped_scene();
  FrameFields f = frame_fields(session.model(), session.state());
  f.position[3].y() = 0.07;  // beyond y_max = 0.05, the open side
  std::ostringstream out;
  write_lammps_dump_frame(out, f);
  const auto lines = lines_of(out.str());
  const auto y = words(lines[6]);
  CHECK(y[0] == "-0.05");  // the wall stays where it is
  check_close(number(y[1]), 0.07 + kExportRadius);
}

TEST_CASE("export: CSV frames have one header and a row per particle per frame with step and time", "[export]") {
  Session session(export_scene());
  std::ostringstream out;
  out << frame_csv_header();
  std::vector<FrameFields> frames;
  for (int frame = 0; frame < 2; ++frame) {
    if (frame > 0) run_checked(session, 3);
    frames.push_back(frame_fields(session.model(), session.state()));
    write_csv_frame(out, frames.back());
  }
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 1 + 2 * 6);
  const auto header = split(lines[0], ',');
  REQUIRE(header.size() == 35);
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
    CHECK(cells[column["ix"]] == std::to_string(f.image[i][0]));
    CHECK(cells[column["iz"]] == std::to_string(f.image[i][2]));
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
  Session session = stepped_scene();
  const Observables o = session.observe();
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

  const Session session = stepped_scene();
  const FrameFields f = frame_fields(session.model(), session.state());
  TempDir dir;
  try {
    export_frame((dir.path() / "frame.txt").string(), f);
    FAIL("an unknown extension was accepted");
  } catch (const ExportError& e) {
    CHECK_THAT(e.what(), Catch::Contains("'.txt'"));
    for (const char* allowed : {".xyz", ".vtp", ".dump", ".lammpstrj", ".csv"})
      CHECK_THAT(e.what(), Catch::Contains(allowed));
  }
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("export: one frame per file, atomically, with the reason when it cannot be written", "[export]") {
  const Session session = stepped_scene();
  const FrameFields f = frame_fields(session.model(), session.state());
  TempDir dir;
  for (int k = 0; k < kFrameFormatCount; ++k) {
    const auto format = static_cast<FrameFormat>(k);
    const fs::path path = dir.path() / (std::string("frame") + frame_format_extension(format));
    export_frame(path.string(), f);
    CHECK(read_text(path) == frame_file_text(format, f));
  }
  CHECK_THAT(read_text(dir.path() / "frame.csv"), Catch::StartsWith(csv_version_comment() + frame_csv_header()));
  CHECK(lines_of(read_text(dir.path() / "frame.csv")).size() == 2 + 6);

  // A missing directory: the message names the path and says why.
  const std::string missing = (dir.path() / "no-such-dir" / "frame.vtp").string();
  try {
    export_frame(missing, f);
    FAIL("wrote into a missing directory");
  } catch (const ExportError& e) {
    CHECK_THAT(e.what(), Catch::Contains(missing));
    CHECK_THAT(e.what(), Catch::Contains("No such file or directory"));
  }
  // A directory where the file should go: the rename fails, the directory is untouched and the
  // temporary file removed.
  fs::create_directory(dir.path() / "taken.xyz");
  fs::path marker = dir.path() / "taken.xyz" / "keep";
  std::ofstream(marker) << "x";
  try {
    export_frame((dir.path() / "taken.xyz").string(), f);
    FAIL("replaced a directory");
  } catch (const ExportError& e) {
    CHECK_THAT(e.what(), Catch::Contains("taken.xyz"));
    CHECK_THAT(e.what(), Catch::Contains("Is a directory"));
    CHECK_THAT(e.what(), Catch::Contains("unchanged"));
  }
  CHECK(fs::is_regular_file(marker));
  for (const auto& entry : fs::directory_iterator(dir.path()))
    CHECK(entry.path().string().find(".tmp") == std::string::npos);
}

TEST_CASE("export: a series writer that cannot create its file says why", "[export]") {
  TempDir dir;
  for (const char* name : {"none/run.xyz", "none/run.vtp", "none/run.dump", "none/run.csv"}) {
    const std::string path = (dir.path() / name).string();
    INFO(path);
    try {
      FrameSeriesWriter writer(path, *frame_format_of(path));
      FAIL("opened a file in a missing directory");
    } catch (const ExportError& e) {
      CHECK_THAT(e.what(), Catch::Contains("No such file or directory"));
      CHECK_THAT(e.what(), Catch::Contains((dir.path() / "none").string()));
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
