// Presets: every shipped file loads and survives load -> save -> load unchanged (parameters and
// generated particles), bad input gives a PresetError naming the JSON path and what is allowed,
// saving is atomic, and docs/presets.md is the generated field reference.

#include "engine/bodies/generator.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/test_process.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

using namespace lodestone;
using lodestone::testing::require_identical_particles;
using lodestone::testing::same_bits;
namespace fs = std::filesystem;
using lodestone::test::preset_files;
using lodestone::test::read_file;
using lodestone::test::write_file;

namespace {

const fs::path kSourceDir = LODESTONE_SOURCE_DIR;

// A fresh empty directory, removed with its contents at scope exit.
class ScratchDir {
 public:
  ScratchDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("lodestone-test-preset-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

std::string dump(const Preset& p) {
  return preset_to_json(p).dump();
}

// parse_preset must throw a PresetError; returns it, or records a failure and returns nothing.
std::optional<PresetError> preset_error(const std::string& text) {
  try {
    const Preset p = parse_preset(text, "case.json");
    FAIL_CHECK("no PresetError; the preset was accepted: " << dump(p));
  } catch (const PresetError& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace

// [SECTION] Shipped presets

TEST_CASE("every preset in presets/ loads, and load -> save -> load changes nothing", "[preset]") {
  const auto files = preset_files();
  REQUIRE(files.size() >= 4);  // default, two-dipoles, chains-suspension, settled-packing
  ScratchDir dir;
  for (const auto& file : files) {
    INFO("preset " << file.filename().string());
    Preset first;
    REQUIRE_NOTHROW(first = load_preset_file(file.string()));
    CHECK(first.version == kPresetVersion);
    CHECK_FALSE(first.description.empty());

    const fs::path saved = dir.path() / file.filename();
    save_preset_file(first, saved.string());
    CHECK(read_file(saved) == preset_to_text(first));
    const Preset second = load_preset_file(saved.string());
    CHECK(dump(second) == dump(first));
    // Saving the reloaded preset writes the same bytes: the format is a fixed point.
    CHECK(preset_to_text(second) == preset_to_text(first));
    const Preset third = parse_preset(preset_to_text(second), "text");
    CHECK(dump(third) == dump(first));

    const Particles a = generate_particles(first);
    const Particles b = generate_particles(second);
    CHECK((a.size() > 0 || !first.clumps.empty()));  // a scene of clumps alone has an empty generator
    require_identical_particles(a, b);
  }
  CHECK(dir.entries().size() == files.size());  // no temporary files left behind
}

TEST_CASE("a preset with every kind of value round-trips through save and load", "[preset]") {
  // Units everywhere, values not round in binary, a second material, every optional set. (The
  // directions here are multiples of unit vectors; other directions: the next test case.)
  const std::string text = R"({
    "version": 1,
    "description": "round trip \"quoted\" and ünïcode",
    "units": { "field": "kOe", "length": "um", "pressure": "bar" },
    "materials": [
      { "name": "a", "density": "7.7 g/cm^3", "youngs_modulus": "0.5 atm", "poisson_ratio": -0.1,
        "kn": "1.1 kN/m", "ks": 0.3, "friction": 0.123456789, "magnetization": "380 G" },
      { "name": "b", "magnetization": "1e-3 MA/m" }
    ],
    "contact": { "law": "hertz_mindlin", "linear": { "lin_mode": 1, "rgap": "-1 um", "dp_mode": 3, "emod": "1 MPa",
                 "kratio": 2.5 }, "hertz_mindlin": { "damping_ratio_n": 0.1, "damping_ratio_t": 1 } },
    "magnetics": { "method": "direct", "cutoff": "3.3 mm", "dipole_cap": "0.1 mm", "activity_distance": "1 um" },
    "field": { "program": "rotating", "strength": "40 kOe", "direction": [0, 0, -2], "start_strength": "1 G",
               "ramp_time": "20 ms", "frequency": "1.5 kHz", "rotation_axis": [0, 3, 0], "phase": "33 deg",
               "gradient": [[0.1, 0.2, 0.3], [0.2, -0.4, 0.5], [0.3, 0.5, 0.3]],
               "gradient_origin": ["1 mm", "2 mm", "3 mm"] },
    "environment": { "gravity": [0.1, "-1 g0", 0], "translational_damping": "1e-4 kg/s", "rotational_damping": 1e-5 },
    "box": { "min": ["-3 mm", "-3 mm", "-3 mm"], "max": ["7 mm", "3.3 mm", "3 mm"],
             "x_min": "periodic", "x_max": "periodic", "y_min": "open", "z_max": "open", "wall_material": "b" },
    "integrator": { "time_step": "1 us", "neighbor_skin": "0.1 mm" },
    "particles": { "kind": "random", "count": 30, "material": "b", "seed": 18446744073709551615,
                   "region": { "min": ["-2 mm", "-2 mm", "-2 mm"], "max": ["2.7 mm", "2.1 mm", "2 mm"] },
                   "size_distribution": "lognormal", "diameter": "0.7 mm", "size_spread": 0.2, "spacing": "1.3 mm",
                   "orientation": "aligned", "axis": [5, 0, 0], "velocity_spread": "3 cm/s", "max_attempts": 50,
                   "particles": [ { "position": [0.001, 0, 0], "material": "a", "moment": "2 emu",
                                    "axis": [0, -1, 0] } ] },
    "run": { "duration": "3 ms", "series_interval": 7, "frame_interval": 9 }
  })";
  const Preset first = parse_preset(text, "round-trip");
  CHECK(first.field.strength == Approx(4.0).epsilon(1e-12));
  CHECK(first.materials[0].magnetization == Approx(3.8e5).epsilon(1e-12));
  CHECK(first.materials[0].youngs_modulus == Approx(50662.5).epsilon(1e-12));
  CHECK(first.particles.seed == 18446744073709551615ull);
  CHECK(same_bits(first.field.direction, Vec3(0, 0, -1)));

  ScratchDir dir;
  const fs::path path = dir.path() / "rt.json";
  save_preset_file(first, path.string());
  const Preset second = load_preset_file(path.string());
  CHECK(dump(second) == dump(first));
  require_identical_particles(generate_particles(first), generate_particles(second));

  // Optional values left unset are written as their word and read back unset.
  Preset unset = first;
  unset.magnetics.cutoff.reset();
  unset.magnetics.activity_distance.reset();
  unset.integrator.time_step.reset();
  unset.particles.region.reset();
  unset.particles.particles[0].moment.reset();
  const json j = preset_to_json(unset);
  CHECK(j["magnetics"]["cutoff"] == "auto");
  CHECK(j["magnetics"]["activity_distance"] == "none");
  CHECK(j["integrator"]["time_step"] == "auto");
  CHECK(j["particles"]["region"].is_null());
  const Preset back = parse_preset(j.dump(), "unset");
  CHECK_FALSE(back.magnetics.cutoff.has_value());
  CHECK_FALSE(back.magnetics.activity_distance.has_value());
  CHECK_FALSE(back.integrator.time_step.has_value());
  CHECK_FALSE(back.particles.region.has_value());
  CHECK_FALSE(back.particles.particles[0].moment.has_value());
  CHECK(dump(back) == dump(unset));
}

TEST_CASE("a saved direction reads back with the same bits", "[preset]") {
  // Directions are normalised when read. The saved file holds the normalised vector; reading it
  // again must not change it (otherwise load -> save -> load is not the identity, and generated
  // orientations and moments change after a save).
  for (const char* direction : {"[1, 2, 3]", "[1, 1, 1]", "[-0.3, 0.7, 0.1]", "[0, 1, 1]", "[0.2, -0.5, 0.9]"}) {
    INFO("field.direction and particles.axis = " << direction);
    const std::string text = std::string(R"({"version": 1, "field": {"direction": )") + direction +
                             R"(}, "particles": {"kind": "lattice", "count": 8, "orientation": "aligned", "axis": )" +
                             direction + "}}";
    const Preset first = parse_preset(text, "directions");
    const Preset second = parse_preset(preset_to_text(first), "saved");
    INFO("first read:  " << preset_to_json(first)["field"]["direction"].dump());
    INFO("second read: " << preset_to_json(second)["field"]["direction"].dump());
    CHECK(same_bits(second.field.direction, first.field.direction));
    CHECK(same_bits(second.particles.axis, first.particles.axis));
    CHECK(dump(second) == dump(first));
  }
}

TEST_CASE("the built-in default preset is presets/default.json", "[preset]") {
  const fs::path file = kSourceDir / "presets" / "default.json";
  CHECK(default_preset_text() == read_file(file));
  CHECK(dump(default_preset()) == dump(load_preset_file(file.string())));
  require_identical_particles(generate_particles(default_preset()),
                              generate_particles(load_preset_file(file.string())));
}

TEST_CASE("omitted keys take the defaults of the parameter structs", "[preset]") {
  const Preset minimal = parse_preset(R"({"version": 1})", "minimal");
  CHECK(dump(minimal) == dump(Preset{}));
}

// [SECTION] Bad input

TEST_CASE("bad input gives a PresetError naming the JSON path and what is allowed", "[preset]") {
  struct Case {
    const char* what;
    std::string text;
    std::string path;                // must appear in e.path() and what()
    std::vector<std::string> hints;  // must appear in the message
  };
  const std::vector<Case> cases = {
      {"not an object", R"([1, 2, 3])", "$", {"JSON object", "a list"}},
      {"missing version", R"({"description": "x"})", "$.version", {"missing", "version 1"}},
      {"wrong version", R"({"version": 2})", "$.version", {"value 2", "[1, 1]"}},
      {"version as a string", R"({"version": "1"})", "$.version", {"integer", "a string"}},
      {"unknown top-level key",
       R"({"version": 1, "descripton": "x"})",
       "$.descripton",
       {"unknown key", "description", "materials", "particles"}},
      {"unknown nested key",
       R"({"version": 1, "materials": [{"name": "a", "densty": 5}]})",
       "$.materials[0].densty",
       {"unknown key", "density", "youngs_modulus", "magnetization"}},
      {"unknown key deep",
       R"({"version": 1, "contact": {"linear": {"dp_moda": 1}}})",
       "$.contact.linear.dp_moda",
       {"unknown key", "dp_mode", "lin_mode"}},
      {"string where a dimensionless number is expected",
       R"({"version": 1, "materials": [{"name": "a", "friction": "high"}]})",
       "$.materials[0].friction",
       {"expected a number", "\"high\""}},
      {"string without a number where a length is expected",
       R"({"version": 1, "particles": {"diameter": "big"}})",
       "$.particles.diameter",
       {"'big'", "number"}},
      {"bool where a number is expected",
       R"({"version": 1, "materials": [{"name": "a", "density": true}]})",
       "$.materials[0].density",
       {"expected a number", "kg/m^3", "g/cm^3", "boolean"}},
      {"number where a string is expected",
       R"({"version": 1, "description": 5})",
       "$.description",
       {"expected a string", "a number 5"}},
      {"number where a list is expected",
       R"({"version": 1, "materials": 5})",
       "$.materials",
       {"expected a list", "a number 5"}},
      {"number where a vector is expected",
       R"({"version": 1, "box": {"min": 0}})",
       "$.box.min",
       {"list of 3 numbers", "a number 0"}},
      {"vector of two", R"({"version": 1, "box": {"max": [1, 1]}})", "$.box.max", {"list of 3 numbers", "[1,1]"}},
      {"number where an object is expected", R"({"version": 1, "box": 5})", "$.box", {"expected an object"}},
      {"list entry not an object",
       R"({"version": 1, "materials": [{"name": "a"}, 7]})",
       "$.materials[1]",
       {"expected an object", "a number 7"}},
      {"float where an integer is expected",
       R"({"version": 1, "particles": {"count": 1.5}})",
       "$.particles.count",
       {"integer", "1.5"}},
      {"negative seed",
       R"({"version": 1, "particles": {"seed": -1}})",
       "$.particles.seed",
       {"non-negative integer", "-1"}},
      {"negative density",
       R"({"version": 1, "materials": [{"name": "a", "density": -5}]})",
       "$.materials[0].density",
       {"-5", "(0, inf)", "kg/m^3"}},
      {"negative density with a unit",
       R"({"version": 1, "materials": [{"name": "a", "density": "-5 g/cm^3"}]})",
       "$.materials[0].density",
       {"-5000", "(0, inf)"}},
      {"poisson ratio 0.6",
       R"({"version": 1, "materials": [{"name": "a", "poisson_ratio": 0.6}]})",
       "$.materials[0].poisson_ratio",
       {"0.6", "[-1, 0.5)"}},
      {"dp_mode 7",
       R"({"version": 1, "contact": {"linear": {"dp_mode": 7}}})",
       "$.contact.linear.dp_mode",
       {"7", "[0, 3]"}},
      {"negative count", R"({"version": 1, "particles": {"count": -3}})", "$.particles.count", {"-3", "[0, "}},
      {"size spread above 1",
       R"({"version": 1, "particles": {"size_spread": 1.5}})",
       "$.particles.size_spread",
       {"1.5", "[0, 1]"}},
      {"bad unit",
       R"({"version": 1, "box": {"max": ["3 parsecs", 1, 1]}})",
       "$.box.max[0]",
       {"'parsecs'", "m, cm, mm, um"}},
      {"unit of another quantity",
       R"({"version": 1, "field": {"strength": "30 mm"}})",
       "$.field.strength",
       {"'mm'", "mT", "kOe"}},
      {"unit on a dimensionless value",
       R"({"version": 1, "materials": [{"name": "a", "friction": "0.3 mm"}]})",
       "$.materials[0].friction",
       {"expected a number"}},
      {"unknown particles.material",
       R"({"version": 1, "materials": [{"name": "iron"}], "particles": {"material": "steel"}})",
       "$.particles.material",
       {"'steel'", "iron"}},
      {"unknown box.wall_material",
       R"({"version": 1, "materials": [{"name": "iron"}, {"name": "glass"}], "box": {"wall_material": "wood"}})",
       "$.box.wall_material",
       {"'wood'", "iron, glass"}},
      {"unknown material of a list entry",
       R"({"version": 1, "materials": [{"name": "iron"}], "particles": {"kind": "list", "particles": [
           {"position": [0.005, 0.005, 0.005]}, {"position": [0.002, 0.002, 0.002], "material": "gold"}]}})",
       "$.particles.particles[1].material",
       {"'gold'", "iron"}},
      {"duplicate material names",
       R"({"version": 1, "materials": [{"name": "a"}, {"name": "b"}, {"name": "a"}]})",
       "$.materials[2].name",
       {"'a'", "twice"}},
      {"empty material name", R"({"version": 1, "materials": [{"name": ""}]})", "$.materials[0].name", {"non-empty"}},
      {"empty materials list", R"({"version": 1, "materials": []})", "$.materials", {"at least one"}},
      {"periodic on one side only",
       R"({"version": 1, "box": {"y_min": "periodic"}})",
       "$.box.y_max",
       {"pairs", "y_min", "y_max"}},
      {"periodic on the upper side only",
       R"({"version": 1, "box": {"z_max": "periodic", "z_min": "open"}})",
       "$.box.z_min",
       {"pairs"}},
      {"empty box",
       R"({"version": 1, "box": {"min": [0, 0, 0], "max": [0.01, 0, 0.01]}})",
       "$.box.max[1]",
       {"empty along y", "max must exceed min"}},
      {"inverted box",
       R"({"version": 1, "box": {"min": [0, 0, 0.02], "max": [0.01, 0.01, 0.01]}})",
       "$.box.max[2]",
       {"max must exceed min"}},
      {"region outside the box",
       R"({"version": 1, "particles": {"region": {"min": [0, 0, 0], "max": [0.01, 0.02, 0.01]}}})",
       "$.particles.region",
       {"leaves the box along y"}},
      {"region below the box",
       R"({"version": 1, "particles": {"region": {"min": [-0.001, 0, 0], "max": [0.01, 0.01, 0.01]}}})",
       "$.particles.region",
       {"leaves the box along x"}},
      {"empty region",
       R"({"version": 1, "particles": {"region": {"min": [0, 0, 0.005], "max": [0.01, 0.01, 0.005]}}})",
       "$.particles.region.max[2]",
       {"max must exceed min"}},
      {"zero field direction",
       R"({"version": 1, "field": {"direction": [0, 0, 0]}})",
       "$.field.direction",
       {"zero vector"}},
      {"unit inside a direction",
       R"({"version": 1, "particles": {"axis": [0, "1 mm", 0]}})",
       "$.particles.axis[1]",
       {"expected a number"}},
      {"zero axis of a list entry",
       R"({"version": 1, "particles": {"particles": [{"axis": [0, 0, 0]}]}})",
       "$.particles.particles[0].axis",
       {"zero vector"}},
      {"non-symmetric gradient",
       R"({"version": 1, "field": {"gradient": [[0, 1, 0], [0, 0, 0], [0, 0, 0]]}})",
       "$.field.gradient",
       {"symmetric"}},
      {"gradient with a trace",
       R"({"version": 1, "field": {"gradient": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}})",
       "$.field.gradient",
       {"traceless"}},
      {"gradient with a bad row",
       R"({"version": 1, "field": {"gradient": [[0, 0, 0], [0, 0], [0, 0, 0]]}})",
       "$.field.gradient[1]",
       {"list of 3 numbers"}},
      {"rotating about the field direction",
       R"({"version": 1, "field": {"program": "rotating", "direction": [0, 0, 1], "rotation_axis": [0, 0, -2]}})",
       "$.field.rotation_axis",
       {"across that axis, not along it", "choose another"}},
      {"unknown contact law",
       R"({"version": 1, "contact": {"law": "hertz"}})",
       "$.contact.law",
       {"\"hertz\"", "linear, hertz_mindlin"}},
      {"unknown side kind", R"({"version": 1, "box": {"x_min": "walls"}})", "$.box.x_min", {"wall, open, periodic"}},
      {"choice given as a number",
       R"({"version": 1, "magnetics": {"method": 1}})",
       "$.magnetics.method",
       {"off, cutoff, direct", "a number 1"}},
      {"unknown generator kind",
       R"({"version": 1, "particles": {"kind": "hexagonal"}})",
       "$.particles.kind",
       {"lattice, random, list"}},
      {"display field unit not a field unit",
       R"({"version": 1, "units": {"field": "mm"}})",
       "$.units.field",
       {"'mm'", "T, mT", "kOe"}},
      {"display length unit not a length unit",
       R"({"version": 1, "units": {"length": "atm"}})",
       "$.units.length",
       {"'atm'", "mm"}},
      {"display pressure unit not a pressure unit",
       R"({"version": 1, "units": {"pressure": "T"}})",
       "$.units.pressure",
       {"'T'", "atm", "bar"}},
  };
  for (const auto& c : cases) {
    INFO("case: " << c.what << "\ninput: " << c.text);
    const auto error = preset_error(c.text);
    if (!error) continue;
    const PresetError& e = *error;
    const std::string what = e.what();
    INFO("what(): " << what);
    CHECK_THAT(what, Catch::StartsWith("case.json "));  // the source names the file
    CHECK(e.path() == "case.json " + c.path);
    CHECK_THAT(what, Catch::Contains(c.path + ": "));
    for (const auto& hint : c.hints) CHECK_THAT(e.message(), Catch::Contains(hint));
  }
}

TEST_CASE("a listed particle outside a walled box is a PresetError naming its entry", "[preset]") {
  // The region of the lattice and random generators must lie inside the box; a listed particle
  // outside the walls is the same mistake and should be reported the same way (path and reason),
  // not later as a failed health check of the running simulation.
  const std::string text = R"({"version": 1, "particles": {"kind": "list", "particles": [
      {"position": [0.005, 0.005, 0.005]}, {"position": ["5 mm", "5 mm", "50 mm"]}]}})";
  const auto error = preset_error(text);
  REQUIRE(error);
  INFO(error->what());
  CHECK_THAT(error->path(), Catch::Contains("$.particles.particles[1]"));
  CHECK_THAT(error->message(), Catch::Contains("box"));
}

TEST_CASE("a listed sphere may reach into a wall a little, not as deep as a runaway overlap", "[preset]") {
  // Issue 24: a settled state (a sphere resting on the floor with its small overlap) must load; an overlap
  // the health checks would call a runaway (half the radius, engine/step/health.hpp) is still refused with
  // the message of a sphere outside the box. The default box: walls at 0 and 10 mm; radius 0.5 mm.
  auto scene = [](double z) {
    char text[256];
    std::snprintf(
        text, sizeof text,
        R"({"version": 1, "particles": {"kind": "list", "particles": [{"position": [0.005, 0.005, %.17g]}]}})", z);
    return std::string(text);
  };
  const double floor = 0.0, r = 5e-4;
  for (double overlap : {1e-9, 1e-5, 0.1 * r, 0.49 * r}) {
    INFO("overlap " << overlap);
    CHECK_NOTHROW(parse_preset(scene(floor + r - overlap), "settled.json"));
  }
  for (double overlap : {0.51 * r, 2.0 * r}) {
    const auto error = preset_error(scene(floor + r - overlap));
    REQUIRE(error);
    CHECK_THAT(error->path(), Catch::Contains("$.particles.particles[0].position"));
    CHECK_THAT(error->message(), Catch::Contains("is not inside the box along z"));
  }
}

TEST_CASE("the dipole activity distance: none by default, \"touching\" is PFC's default (0)", "[preset]") {
  const Preset plain = parse_preset(R"({"version": 1})", "plain");
  CHECK_FALSE(plain.magnetics.activity_distance.has_value());  // ours: no limit
  const Preset pfc = parse_preset(R"({"version": 1, "magnetics": {"activity_distance": "touching"}})", "pfc");
  REQUIRE(pfc.magnetics.activity_distance.has_value());
  CHECK(*pfc.magnetics.activity_distance == 0.0);
  const Preset again = parse_preset(preset_to_text(pfc), "written");
  REQUIRE(again.magnetics.activity_distance.has_value());
  CHECK(*again.magnetics.activity_distance == 0.0);
  const auto error = preset_error(R"({"version": 1, "magnetics": {"activity_distance": "near"}})");
  REQUIRE(error);
  CHECK_THAT(error->message(), Catch::Contains("\"touching\""));
  CHECK_THAT(error->message(), Catch::Contains("\"none\""));
}

TEST_CASE("a scene of more than kMaxParticles particles is refused at load, clumps' pebbles counted", "[preset]") {
  // 10 cube clumps of 40^3 pebbles and 9.5 million lattice particles: 10.14 million in all, in a few
  // hundred bytes of JSON. Refused before any pebble is placed, naming the total and the limit.
  std::string clumps;
  for (int k = 0; k < 10; ++k)
    clumps += std::string(k ? ", " : "") + R"({"shape": "cube", "count": 40, "pebble_radius": 1e-5})";
  const std::string text = R"({"version": 1, "box": {"min": [-1, -1, -1], "max": [1, 1, 1]},
      "particles": {"kind": "lattice", "count": 9500000, "diameter": 1e-4}, "clumps": [)" +
                           clumps + "]}";
  const auto error = preset_error(text);
  REQUIRE(error);
  INFO(error->what());
  CHECK(error->path() == "case.json $.clumps");
  CHECK_THAT(error->message(), Catch::Contains("10140000 particles"));
  CHECK_THAT(error->message(), Catch::Contains("640000 pebbles of 10 clumps"));
  CHECK_THAT(error->message(), Catch::Contains("at most 10000000"));
  // At the limit it loads.
  const std::string at_limit = R"({"version": 1, "box": {"min": [-1, -1, -1], "max": [1, 1, 1]},
      "particles": {"kind": "lattice", "count": 9360000, "diameter": 1e-4}, "clumps": [)" +
                               clumps + "]}";
  CHECK_NOTHROW(parse_preset(at_limit, "at-limit.json"));
}

TEST_CASE("broken JSON is reported with its line and column", "[preset]") {
  const std::string text = "{\n  \"version\": 1,\n  \"description\": \"x\"\n  \"box\": {}\n}\n";
  const auto error = preset_error(text);
  REQUIRE(error);
  const std::string what = error->what();
  INFO(what);
  CHECK_THAT(what, Catch::StartsWith("case.json: "));
  CHECK_THAT(what, Catch::Contains("broken JSON"));
  CHECK_THAT(what, Catch::Contains("line 4"));
  CHECK_THAT(what, Catch::Contains("column"));
  // nlohmann's internal exception id is not part of the message.
  CHECK_THAT(what, !Catch::Contains("json.exception"));

  const auto empty = preset_error("");
  REQUIRE(empty);
  CHECK_THAT(std::string(empty->what()), Catch::Contains("broken JSON"));
}

TEST_CASE("a number too large for a double is a PresetError, not a crash", "[preset]") {
  // nlohmann reports 1e400 with json::out_of_range (406), not json::parse_error; it must still
  // become a PresetError (the runner only catches those and would abort otherwise).
  const std::string text = R"({"version": 1, "materials": [{"name": "a", "density": 1e400}]})";
  try {
    parse_preset(text, "case.json");
    FAIL("1e400 was accepted");
  } catch (const PresetError& e) {
    INFO(e.what());
    CHECK_THAT(std::string(e.what()), Catch::StartsWith("case.json"));
    CHECK_THAT(std::string(e.what()), Catch::Contains("1e400"));
  } catch (const std::exception& e) {
    FAIL("not a PresetError but " << typeid(e).name() << ": " << e.what());
  }
}

TEST_CASE("an optional value names its unset word when the value is not understood", "[preset]") {
  // magnetics.cutoff accepts a length or "auto"; a near miss must say that "auto" is allowed.
  for (const char* text : {R"({"version": 1, "magnetics": {"cutoff": "automatic"}})",
                           R"({"version": 1, "magnetics": {"cutoff": true}})"}) {
    INFO("input: " << text);
    const auto error = preset_error(text);
    if (!error) continue;
    const PresetError& e = *error;
    INFO("what(): " << e.what());
    CHECK(e.path() == "case.json $.magnetics.cutoff");
    CHECK_THAT(e.message(), Catch::Contains("\"auto\"") || Catch::Contains("'auto'"));
  }
}

TEST_CASE("the JSON readers name the path for every kind of value", "[preset]") {
  // No preset field is a boolean yet; the reader is shared by any future one.
  try {
    detail::read_boolean(json(1), "$.x.flag");
    FAIL("read_boolean accepted a number");
  } catch (const PresetError& e) {
    CHECK(e.path() == "$.x.flag");
    CHECK_THAT(e.message(), Catch::Contains("true or false"));
  }
  CHECK(detail::read_boolean(json(true), "$.x.flag"));
  CHECK(detail::read_real(json("2 mm"), Quantity::Length, ranges::positive(), "$.l") == Approx(2e-3));
  CHECK_THROWS_AS(
      detail::read_real(json(std::numeric_limits<double>::infinity()), Quantity::Length, ranges::any(), "$.l"),
      PresetError);
  CHECK(detail::read_unsigned(json(18446744073709551615ull), "$.seed") == 18446744073709551615ull);
}

TEST_CASE("a missing preset file is a PresetError naming the file", "[preset]") {
  ScratchDir dir;
  const std::string path = (dir.path() / "nope.json").string();
  try {
    load_preset_file(path);
    FAIL("no error for a missing file");
  } catch (const PresetError& e) {
    CHECK(e.path() == path);
    CHECK_THAT(e.message(), Catch::Contains("cannot open"));
  }
  // Errors inside a file name the file and the JSON path.
  const fs::path bad = dir.path() / "bad.json";
  write_file(bad, R"({"version": 1, "materials": [{"name": "a", "density": -1}]})");
  try {
    load_preset_file(bad.string());
    FAIL("no error for a bad file");
  } catch (const PresetError& e) {
    CHECK(e.path() == bad.string() + " $.materials[0].density");
  }
}

// [SECTION] Atomic save

TEST_CASE("save_preset_file replaces an existing file and leaves no temporary file", "[preset]") {
  ScratchDir dir;
  const fs::path path = dir.path() / "scene.json";
  write_file(path, "old contents that are longer than nothing\n");
  Preset p = default_preset();
  p.description = "saved over the old file";
  save_preset_file(p, path.string());
  CHECK(read_file(path) == preset_to_text(p));
  CHECK(dir.entries() == std::vector<std::string>{"scene.json"});
  CHECK(load_preset_file(path.string()).description == "saved over the old file");

  // A second save over it replaces it again (shorter text: no leftover tail).
  Preset q;
  save_preset_file(q, path.string());
  CHECK(read_file(path) == preset_to_text(q));
  CHECK(dir.entries() == std::vector<std::string>{"scene.json"});
}

TEST_CASE("saving into a missing directory throws and leaves nothing behind", "[preset]") {
  ScratchDir dir;
  const fs::path path = dir.path() / "missing" / "scene.json";
  try {
    save_preset_file(default_preset(), path.string());
    FAIL("no error when the directory does not exist");
  } catch (const PresetError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains(path.string()));
    CHECK_THAT(e.message(), Catch::Contains("cannot write"));
  }
  CHECK(dir.entries().empty());
  CHECK_FALSE(fs::exists(dir.path() / "missing"));
}

TEST_CASE("a failed save leaves the previous file unchanged", "[preset]") {
  ScratchDir dir;
  const fs::path path = dir.path() / "scene.json";
  const std::string old_text = preset_to_text(default_preset());
  write_file(path, old_text);
  Preset changed = default_preset();
  changed.description = "must not reach the disk";

  SECTION("the temporary file cannot be created") {
    // Works as root too: a directory where the temporary file would go makes its creation fail.
    const fs::path blocker = dir.path() / ("scene.json.tmp-" + std::to_string(::getpid()));
    fs::create_directory(blocker);
    CHECK_THROWS_AS(save_preset_file(changed, path.string()), PresetError);
    CHECK(read_file(path) == old_text);
    CHECK(fs::is_directory(blocker));
    CHECK(dir.entries().size() == 2);
  }
  SECTION("the target is a directory: the rename fails and the temporary file is removed") {
    const fs::path target = dir.path() / "a-directory.json";
    fs::create_directory(target);
    write_file(target / "inside.txt", "keep");
    try {
      save_preset_file(changed, target.string());
      FAIL("no error when the target is a directory");
    } catch (const PresetError& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains(target.string()));
      CHECK_THAT(e.message(), Catch::Contains("unchanged"));
    }
    CHECK(fs::is_directory(target));
    CHECK(read_file(target / "inside.txt") == "keep");
    CHECK(read_file(path) == old_text);
    CHECK(dir.entries() == std::vector<std::string>{"a-directory.json", "scene.json"});
  }
}

// [SECTION] Documentation and field tables

TEST_CASE("docs/presets.md is the generated field reference", "[preset]") {
  const fs::path file = kSourceDir / "docs" / "presets.md";
  REQUIRE(fs::exists(file));
  const std::string on_disk = read_file(file);
  const std::string generated = preset_docs_markdown();
  if (on_disk != generated) {
    std::istringstream a(on_disk), b(generated);
    std::string la, lb;
    int line = 0;
    while (true) {
      ++line;
      const bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
      if (!ga && !gb) break;
      if (!ga || !gb || la != lb) {
        FAIL("docs/presets.md is out of date (first difference at line "
             << line << ").\n  file:      " << (ga ? la : "<end of file>")
             << "\n  generated: " << (gb ? lb : "<end of text>")
             << "\nRegenerate it with: build/app/runner/lodestone-run --preset-docs > docs/presets.md");
      }
    }
    FAIL(
        "docs/presets.md differs from preset_docs_markdown() (line endings or a missing final newline). "
        "Regenerate it with: build/app/runner/lodestone-run --preset-docs > docs/presets.md");
  }
  SUCCEED("docs/presets.md matches");
}

namespace {

struct SpecInfo {
  FieldKind kind;
  Quantity quantity;
};

bool numeric_kind(FieldKind k) {
  return k == FieldKind::Real || k == FieldKind::OptionalReal || k == FieldKind::Vector3 || k == FieldKind::Matrix3;
}

// Checks one field table and records its fields by documented path.
template <class S>
void check_schema(const Schema<S>& schema, const std::string& prefix, std::map<std::string, SpecInfo>& seen) {
  std::set<std::string> keys;
  const S defaults{};
  for (const auto& f : schema) {
    const std::string path = prefix + f.key;
    INFO("field " << path);
    CHECK_FALSE(f.key.empty());
    CHECK(keys.insert(f.key).second);  // unique within the table
    CHECK(f.help.size() >= 5);
    CHECK(static_cast<bool>(f.read));
    CHECK(static_cast<bool>(f.write));
    CHECK(static_cast<bool>(f.address));
    S probe{};
    CHECK(f.address(probe) != nullptr);
    seen[path] = SpecInfo{f.kind, f.quantity};

    const bool ranged = f.kind == FieldKind::Real || f.kind == FieldKind::OptionalReal || f.kind == FieldKind::Integer;
    if (ranged) {
      CHECK(f.range.lo <= f.range.hi);
    } else {
      // Only numbers and integers carry a range.
      CHECK(std::isinf(f.range.lo));
      CHECK(std::isinf(f.range.hi));
    }
    if (f.kind == FieldKind::Integer) {
      CHECK(std::isfinite(f.range.lo));
      CHECK(std::isfinite(f.range.hi));
    }
    if (!numeric_kind(f.kind)) CHECK(f.quantity == Quantity::Dimensionless);  // no unit
    if (f.kind == FieldKind::OptionalReal) CHECK_FALSE(f.unset_word.empty());
    if (f.kind == FieldKind::Choice) {
      REQUIRE_FALSE(f.choices.empty());
      CHECK(std::set<std::string>(f.choices.begin(), f.choices.end()).size() == f.choices.size());
      const json w = f.write(defaults);
      CHECK(std::find(f.choices.begin(), f.choices.end(), w.get<std::string>()) != f.choices.end());
    }
    if (f.kind == FieldKind::Direction) {
      const json w = f.write(defaults);
      const Vec3 v(w[0].get<double>(), w[1].get<double>(), w[2].get<double>());
      CHECK(v.norm() == Approx(1.0));
    }
    const bool nested =
        f.kind == FieldKind::Object || f.kind == FieldKind::OptionalObject || f.kind == FieldKind::ObjectList;
    CHECK(static_cast<bool>(f.describe_children) == nested);

    // The default value is inside the field's own range and type: writing it and reading it back
    // must succeed and give the same JSON.
    S target{};
    const json written = f.write(defaults);
    CHECK_NOTHROW(f.read(target, written, "$." + path));
    CHECK(f.write(target) == written);
  }
}

}  // namespace

TEST_CASE("every field has help, and a unit and range that fit its kind", "[preset]") {
  std::map<std::string, SpecInfo> specs;
  check_schema(preset_schema(), "", specs);
  check_schema(display_units_schema(), "units.", specs);
  check_schema(lj_scales_schema(), "units.lj.", specs);
  check_schema(material_schema(), "materials[].", specs);
  check_schema(contact_schema(), "contact.", specs);
  check_schema(linear_law_schema(), "contact.linear.", specs);
  check_schema(hertz_mindlin_schema(), "contact.hertz_mindlin.", specs);
  check_schema(hertz_coulomb_schema(), "contact.hertz_coulomb.", specs);
  check_schema(sand_law_schema(), "contact.sand.", specs);
  check_schema(rolling_schema(), "contact.rolling.", specs);
  check_schema(magnetics_schema(), "magnetics.", specs);
  check_schema(field_schema(), "field.", specs);
  check_schema(environment_schema(), "environment.", specs);
  check_schema(box_schema(), "box.", specs);
  check_schema(integrator_schema(), "integrator.", specs);
  check_schema(generator_schema(), "particles.", specs);
  check_schema(region_schema(), "particles.region.", specs);
  check_schema(particle_entry_schema(), "particles.particles[].", specs);
  check_schema(pressure_schema(), "pressure.", specs);
  check_schema(protocol_phase_schema(), "protocol[].", specs);
  check_schema(timeline_entry_schema(), "timeline[].", specs);
  check_schema(run_schema(), "run.", specs);
  check_schema(view_schema(), "view.", specs);
  check_schema(bonds_schema(), "bonds.", specs);
  check_schema(bond_entry_schema(), "bonds.list[].", specs);
  check_schema(floor_schema(), "floor.", specs);
  check_schema(clump_schema(), "clumps[].", specs);
  check_schema(clump_pebble_schema(), "clumps[].pebbles[].", specs);

  const std::vector<FieldDoc> docs = preset_field_docs();
  CHECK(docs.size() == specs.size());  // every field documented once, nothing else
  std::set<std::string> paths;
  for (const auto& d : docs) {
    INFO("doc row " << d.path);
    CHECK(paths.insert(d.path).second);
    REQUIRE(specs.count(d.path) == 1);
    const SpecInfo& s = specs.at(d.path);
    CHECK_FALSE(d.help.empty());
    CHECK_FALSE(d.type.empty());
    CHECK_FALSE(d.default_value.empty());
    if (numeric_kind(s.kind)) {
      CHECK(d.unit == si_unit(s.quantity));
      if (s.quantity == Quantity::Dimensionless) {
        CHECK(d.accepts.empty());
      } else {
        CHECK_FALSE(d.unit.empty());
        CHECK(d.accepts == accepted_units_text(s.quantity));
        CHECK_THAT(d.accepts, Catch::StartsWith(d.unit));
      }
    } else {
      CHECK(d.unit.empty());
      CHECK(d.accepts.empty());
    }
    const bool ranged = s.kind == FieldKind::Real || s.kind == FieldKind::OptionalReal || s.kind == FieldKind::Integer;
    if (ranged) {
      CHECK_THAT(d.range, Catch::Matches(R"([\[(].*, .*[\])])"));
    } else {
      CHECK(d.range.empty());
    }
    if (s.kind == FieldKind::Choice) CHECK_THAT(d.type, Catch::StartsWith("one of: "));
  }
  // A few rows pinned: what the docs say about the quantities with surprising units.
  REQUIRE(specs.count("field.strength"));
  CHECK(specs.at("field.strength").quantity == Quantity::FluxDensity);
  CHECK(specs.at("materials[].magnetization").quantity == Quantity::Magnetization);
  CHECK(specs.at("field.gradient").quantity == Quantity::FieldGradient);
  CHECK(specs.at("particles.particles[].moment").quantity == Quantity::MagneticMoment);
}
