// lodestone-run --field-probe and --field-slice (app/runner/field_output.hpp): the files they write, parsed
// back, against the closed form of the point-dipole field ([PFC-dipole] eq. 6) plus the applied field, written
// out here, to 1e-12 relative at step 0 (the values are printed as the shortest text of each double, so
// nothing is lost); rows at every frame; the .vti and .pvd for ParaView; bad inputs refused with messages that
// name the option, the value and what is allowed.

#include "../test_process.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using lodestone::test::read_file;
using lodestone::test::write_file;

namespace {

using Workdir = lodestone::test::RunnerWorkdir;
constexpr double kPi = 3.14159265358979323846;

// Two spheres of 0.5 mm at z = -1 mm and +1 mm, 900 kA/m along z, in 10 mT along x; direct sum.
const char* kScene = R"({
  "version": 1,
  "materials": [{ "name": "NdFeB", "density": "7500 kg/m^3", "kn": "1e5 N/m", "ks": "8e4 N/m",
                  "magnetization": "900 kA/m" }],
  "magnetics": { "method": "direct" },
  "field": { "strength": "10 mT", "direction": [1, 0, 0] },
  "box": { "min": ["-5 mm", "-5 mm", "-5 mm"], "max": ["5 mm", "5 mm", "5 mm"],
           "x_min": "open", "x_max": "open", "y_min": "open", "y_max": "open", "z_min": "open", "z_max": "open" },
  "particles": { "kind": "list", "particles": [
    { "position": ["0 mm", "0 mm", "-1 mm"], "radius": "0.5 mm", "axis": [0, 0, 1] },
    { "position": ["0 mm", "0 mm", "1 mm"], "radius": "0.5 mm", "axis": [0, 0, 1] } ] },
  "integrator": { "time_step": "1 us" }
})";

struct Vec {
  double x, y, z;
};

Vec dipole_field(Vec at, Vec centre, double m_z) {
  const double rx = at.x - centre.x, ry = at.y - centre.y, rz = at.z - centre.z;
  const double r = std::sqrt(rx * rx + ry * ry + rz * rz);
  const double r3 = r * r * r, r5 = r3 * r * r, m_r = m_z * rz;
  return {1e-7 * 3.0 * m_r * rx / r5, 1e-7 * 3.0 * m_r * ry / r5, 1e-7 * (3.0 * m_r * rz / r5 - m_z / r3)};
}

// The field at step 0: both dipoles and the applied 10 mT along x.
Vec expected(Vec at) {
  const double m = 900e3 * (4.0 / 3.0 * kPi * 0.5e-3 * 0.5e-3 * 0.5e-3);
  const Vec a = dipole_field(at, {0, 0, -1e-3}, m), b = dipole_field(at, {0, 0, 1e-3}, m);
  return {0.01 + a.x + b.x, a.y + b.y, a.z + b.z};
}

double relative_error(Vec got, Vec want) {
  const double e = std::sqrt(std::pow(got.x - want.x, 2) + std::pow(got.y - want.y, 2) + std::pow(got.z - want.z, 2));
  return e / std::sqrt(want.x * want.x + want.y * want.y + want.z * want.z);
}

std::vector<std::map<std::string, double>> read_csv(const fs::path& path) {
  std::istringstream in(read_file(path));
  std::string line;
  std::vector<std::string> names;
  std::getline(in, line);
  std::istringstream header(line);
  for (std::string name; std::getline(header, name, ',');) names.push_back(name);
  std::vector<std::map<std::string, double>> rows;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::map<std::string, double> row;
    std::string field;
    for (size_t k = 0; k < names.size() && std::getline(fields, field, ','); ++k) row[names[k]] = std::stod(field);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("lodestone-run --field-probe writes B at the listed points at every frame, step 0 equal to the closed form",
          "[runner][field]") {
  Workdir work;
  write_file(work.path() / "scene.json", kScene);
  write_file(work.path() / "points.txt",
             "# x y z\n"
             "2mm 0 0\n"
             "\n"
             "0.001, 0.0015, -0.0025   # commas and metres\n"
             "0 0 3mm\n");
  const auto r = work.run("scene.json --steps 10 --frames-every 5 --field-probe points.txt -q --table 0");
  REQUIRE(r.code == 0);
  const auto rows = read_csv(work.path() / "points.field.csv");
  REQUIRE(rows.size() == 9);  // 3 points at steps 0, 5, 10
  const std::vector<Vec> points = {{2e-3, 0, 0}, {1e-3, 1.5e-3, -2.5e-3}, {0, 0, 3e-3}};
  std::set<double> steps;
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto& row = rows[k];
    steps.insert(row.at("step"));
    CHECK(row.at("probe") == static_cast<double>(k % 3));
    const Vec at = points[k % 3];
    CHECK(row.at("x") == at.x);
    CHECK(row.at("y") == at.y);
    CHECK(row.at("z") == at.z);
    const Vec b{row.at("bx"), row.at("by"), row.at("bz")};
    CHECK(std::abs(row.at("b") - std::sqrt(b.x * b.x + b.y * b.y + b.z * b.z)) <= 1e-15 * row.at("b"));
    if (row.at("step") == 0) {
      INFO("probe " << k << ": relative error " << relative_error(b, expected(at)));
      CHECK(relative_error(b, expected(at)) < 1e-12);
    }
  }
  CHECK(steps == std::set<double>{0, 5, 10});
  // --field-probe-out names the file; --field-exact gives the same sum here (the scene's is direct).
  REQUIRE(work.run("scene.json --steps 5 --field-probe points.txt --field-probe-out b.csv --field-exact -q").code == 0);
  CHECK(read_csv(work.path() / "b.csv").size() == 6);
}

TEST_CASE("lodestone-run --field-slice writes the plane's grid as CSV and as VTK ImageData with a ParaView collection",
          "[runner][field]") {
  Workdir work;
  write_file(work.path() / "scene.json", kScene);
  const auto r = work.run("scene.json --steps 4 --frames-every 2 --field-slice z=0.25mm,nx=8,ny=6,x=-2mm:2mm slice -q");
  REQUIRE(r.code == 0);
  const auto rows = read_csv(work.path() / "slice.csv");
  REQUIRE(rows.size() == 3 * 48);
  for (size_t k = 0; k < 48; ++k) {
    const auto& row = rows[k];
    REQUIRE(row.at("step") == 0);
    const int i = static_cast<int>(row.at("i")), j = static_cast<int>(row.at("j"));
    CHECK(static_cast<size_t>(i + 8 * j) == k);                              // x fastest
    const Vec at{-2e-3 + 4e-3 * i / 7.0, -5e-3 + 10e-3 * j / 5.0, 0.25e-3};  // y: the box's extent
    CHECK(std::abs(row.at("x") - at.x) < 1e-18);
    CHECK(std::abs(row.at("y") - at.y) < 1e-18);
    CHECK(row.at("z") == at.z);
    const Vec b{row.at("bx"), row.at("by"), row.at("bz")};
    // Points inside a sphere hold its interior field; the grid here passes outside both.
    CHECK(relative_error(b, expected({row.at("x"), row.at("y"), row.at("z")})) < 1e-12);
  }
  for (int frame = 0; frame < 3; ++frame) {
    char name[32];
    std::snprintf(name, sizeof name, "slice_%06d.vti", frame);
    const std::string vti = read_file(work.path() / name);
    REQUIRE(!vti.empty());
    CHECK(vti.find("<VTKFile type=\"ImageData\"") != std::string::npos);
    CHECK(vti.find("WholeExtent=\"0 7 0 5 0 0\"") != std::string::npos);
    CHECK(vti.find("Origin=\"-0.002 -0.005 0.00025\"") != std::string::npos);
    CHECK(vti.find("Name=\"TimeValue\"") != std::string::npos);
    // 48 tuples of B (3 numbers on a line) and 48 magnitudes.
    const size_t begin = vti.find("Name=\"B\""), end = vti.find("</DataArray>", begin);
    std::istringstream values(vti.substr(vti.find('>', begin) + 1, end - vti.find('>', begin) - 1));
    int numbers = 0;
    for (double v; values >> v;) ++numbers;
    CHECK(numbers == 3 * 48);
  }
  const std::string pvd = read_file(work.path() / "slice.pvd");
  CHECK(pvd.find("slice_000002.vti") != std::string::npos);
  // OUT with an extension: the extension is taken off.
  REQUIRE(work.run("scene.json --steps 2 --field-slice axis=x,at=0,n=4 out/plane.vti -q").code != 0);  // no out/ dir
  fs::create_directory(work.path() / "out");
  REQUIRE(work.run("scene.json --steps 2 --field-slice axis=x,at=0,n=4 out/plane.vti -q").code == 0);
  CHECK(fs::exists(work.path() / "out" / "plane.csv"));
  CHECK(fs::exists(work.path() / "out" / "plane_000000.vti"));
  CHECK(read_file(work.path() / "out" / "plane_000000.vti").find("WholeExtent=\"0 0 0 3 0 3\"") != std::string::npos);
}

TEST_CASE("Bad field probes and slices are refused naming the option, the value and what is allowed",
          "[runner][field]") {
  Workdir work;
  write_file(work.path() / "scene.json", kScene);
  write_file(work.path() / "bad.txt", "1mm 2mm 3mm\n1 2\n");
  write_file(work.path() / "units.txt", "1 parsec 0\n");
  auto refused = [&](const std::string& arguments, const std::string& message) {
    const auto r = work.run("scene.json --steps 2 -q " + arguments);
    CHECK(r.code == 1);
    CHECK(r.output.find(message) != std::string::npos);
  };
  refused("--field-probe bad.txt", "--field-probe bad.txt line 2: '1 2' has 2 values; allowed: three coordinates");
  refused("--field-probe units.txt", "'parsec' is not a length; allowed: a number in metres or a number with a unit");
  refused("--field-slice q=1 out", "--field-slice: field slice 'q=1': unknown key 'q'");
  refused("--field-slice z=0,n=1 out", "'1' is not a point count; allowed: a whole number from 2 to 4096");
  refused("--field-slice n=8 out", "the plane is missing; give AXIS=POSITION (e.g. z=1mm)");
  refused("--field-slice z=0,nz=8 out", "a count or range along z, the plane's normal");
  refused("--field-slice z=0,x=2mm:1mm out", "the range's end must be above its start");
  refused("--field-slice z=0", "--field-slice");
}
