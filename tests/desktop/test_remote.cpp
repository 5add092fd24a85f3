// The remote verb field-at (app/desktop/remote_control.hpp): the real app, paused on two dipoles in a
// uniform applied field, answers "field BX BY BZ" with the total field at the point, checked against the
// closed form of the point-dipole field ([PFC-dipole] eq. 6) written out here, to 1e-12 relative (the engine
// sums the same terms; the reply is the shortest text of each double, so nothing is lost on the way). Bad
// points are refused with a message, and the commands after a field-at are answered after it, in order.

#include "scene_checks.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace lodestone::desktop_test;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Two spheres of 0.5 mm at z = -1 mm and +1 mm, 900 kA/m along z; the applied field 10 mT along x.
const char* kTwoDipolesInField = R"({
  "version": 1,
  "materials": [{ "name": "NdFeB", "density": "7500 kg/m^3", "kn": "1e5 N/m", "ks": "8e4 N/m",
                  "magnetization": "900 kA/m" }],
  "magnetics": { "method": "direct" },
  "field": { "strength": "10 mT", "direction": [1, 0, 0] },
  "box": { "min": ["-5 mm", "-5 mm", "-5 mm"], "max": ["5 mm", "5 mm", "5 mm"],
           "x_min": "open", "x_max": "open", "y_min": "open", "y_max": "open", "z_min": "open", "z_max": "open" },
  "particles": { "kind": "list", "particles": [
    { "position": ["0 mm", "0 mm", "-1 mm"], "radius": "0.5 mm", "axis": [0, 0, 1] },
    { "position": ["0 mm", "0 mm", "1 mm"], "radius": "0.5 mm", "axis": [0, 0, 1] } ] }
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

Vec expected(Vec at) {
  const double m = 900e3 * (4.0 / 3.0 * kPi * 0.5e-3 * 0.5e-3 * 0.5e-3);
  const Vec a = dipole_field(at, {0, 0, -1e-3}, m), b = dipole_field(at, {0, 0, 1e-3}, m);
  return {0.01 + a.x + b.x, a.y + b.y, a.z + b.z};
}

// The values of every "field ..." reply, in order.
std::vector<Vec> field_replies(const std::string& output) {
  std::vector<Vec> out;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("field ", 0) != 0) continue;
    std::istringstream words(line.substr(6));
    Vec v{};
    words >> v.x >> v.y >> v.z;
    out.push_back(v);
  }
  return out;
}

}  // namespace

TEST_CASE("Remote field-at prints the total field of two dipoles and the applied field to 1e-12", "[remote]") {
  require_display();
  Workdir work;
  lodestone::test::write_file(work.path() / "scene.json", kTwoDipolesInField);
  const std::string commands =
      "field-at 2mm 0 0\n"
      "field-at 0.001 0.0015 -0.0025\n"
      "field-at 0 0 3mm exact\n"
      "field-at 1 2\n"
      "field-at 1 2 banana\n"
      "status\n"
      "quit\n";
  lodestone::test::write_file(work.path() / "commands.txt", commands);
  const auto r = work.run("--remote --paused --size 640x400 --preset scene.json < commands.txt");
  REQUIRE(r.code == 0);
  const std::vector<Vec> got = field_replies(r.output);
  const std::vector<Vec> points = {{2e-3, 0, 0}, {1e-3, 1.5e-3, -2.5e-3}, {0, 0, 3e-3}};
  REQUIRE(got.size() == points.size());
  for (size_t k = 0; k < points.size(); ++k) {
    const Vec want = expected(points[k]);
    const double error =
        std::sqrt(std::pow(got[k].x - want.x, 2) + std::pow(got[k].y - want.y, 2) + std::pow(got[k].z - want.z, 2));
    const double norm = std::sqrt(want.x * want.x + want.y * want.y + want.z * want.z);
    INFO("point " << k << ": relative error " << error / norm);
    CHECK(error < 1e-12 * norm);
  }
  CHECK(r.output.find("refused: field-at 1 2: field-at: '1 2' has 2 values") != std::string::npos);
  CHECK(r.output.find("refused: field-at 1 2 banana: field-at: 'banana' is not a length") != std::string::npos);
  // The status asked after the field-at lines comes after their answers.
  CHECK(r.output.rfind("field ") < r.output.find("status step=0"));
}
