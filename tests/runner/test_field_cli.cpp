// lodestone-run --field-probe and --field-slice (app/runner/field_output.hpp): the files they write, parsed
// back, against the closed form of the point-dipole field ([PFC-dipole] eq. 6) plus the applied field, written
// out in tests/test_process.hpp, to 1e-12 relative at step 0 (the values are printed as the shortest text of each
// double, so nothing is lost); rows at every frame; the .vti and .pvd for ParaView; bad inputs refused with messages
// that name the option, the value and what is allowed.

#include "../test_process.hpp"
#include "../text_fields.hpp"

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
using namespace lodestone::test::runner_tests;
namespace test = lodestone::test;

namespace {

// The two dipoles in 10 mT of tests/test_process.hpp, at a time step of 1 us.
const std::string kScene = test::two_dipoles_in_field(",\n  \"integrator\": { \"time_step\": \"1 us\" }");

std::vector<std::map<std::string, double>> read_field_csv(const fs::path& path) {
  return test::csv_numbers(read_file(path));
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
  const auto rows = read_field_csv(work.path() / "points.field.csv");
  REQUIRE(rows.size() == 9);  // 3 points at steps 0, 5, 10
  const std::vector<test::Vector3> points = {{2e-3, 0, 0}, {1e-3, 1.5e-3, -2.5e-3}, {0, 0, 3e-3}};
  std::set<double> steps;
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto& row = rows[k];
    steps.insert(row.at("step"));
    CHECK(row.at("probe") == static_cast<double>(k % 3));
    const test::Vector3 at = points[k % 3];
    CHECK(row.at("x") == at.x);
    CHECK(row.at("y") == at.y);
    CHECK(row.at("z") == at.z);
    const test::Vector3 b{row.at("bx"), row.at("by"), row.at("bz")};
    CHECK(std::abs(row.at("b") - std::sqrt(b.x * b.x + b.y * b.y + b.z * b.z)) <= 1e-15 * row.at("b"));
    if (row.at("step") == 0) {
      INFO("probe " << k << ": relative error " << test::relative_error(b, test::two_dipoles_field(at)));
      CHECK(test::relative_error(b, test::two_dipoles_field(at)) < 1e-12);
    }
  }
  CHECK(steps == std::set<double>{0, 5, 10});
  // --field-probe-out names the file; --field-exact gives the same sum here (the scene's is direct).
  REQUIRE(work.run("scene.json --steps 5 --field-probe points.txt --field-probe-out b.csv --field-exact -q").code == 0);
  CHECK(read_field_csv(work.path() / "b.csv").size() == 6);
}

TEST_CASE("lodestone-run --field-slice writes the plane's grid as CSV and as VTK ImageData with a ParaView collection",
          "[runner][field]") {
  Workdir work;
  write_file(work.path() / "scene.json", kScene);
  const auto r = work.run("scene.json --steps 4 --frames-every 2 --field-slice z=0.25mm,nx=8,ny=6,x=-2mm:2mm slice -q");
  REQUIRE(r.code == 0);
  const auto rows = read_field_csv(work.path() / "slice.csv");
  REQUIRE(rows.size() == 3 * 48);
  for (size_t k = 0; k < 48; ++k) {
    const auto& row = rows[k];
    REQUIRE(row.at("step") == 0);
    const int i = static_cast<int>(row.at("i")), j = static_cast<int>(row.at("j"));
    CHECK(static_cast<size_t>(i + 8 * j) == k);                                        // x fastest
    const test::Vector3 at{-2e-3 + 4e-3 * i / 7.0, -5e-3 + 10e-3 * j / 5.0, 0.25e-3};  // y: the box's extent
    CHECK(std::abs(row.at("x") - at.x) < 1e-18);
    CHECK(std::abs(row.at("y") - at.y) < 1e-18);
    CHECK(row.at("z") == at.z);
    const test::Vector3 b{row.at("bx"), row.at("by"), row.at("bz")};
    // Points inside a sphere hold its interior field; the grid here passes outside both.
    CHECK(test::relative_error(b, test::two_dipoles_field({row.at("x"), row.at("y"), row.at("z")})) < 1e-12);
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
