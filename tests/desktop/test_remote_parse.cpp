// The remote's parser (app/desktop/remote_parse.cpp: what RemoteControl::execute reads every line with), without
// the app: what a line yields, what it refuses and why, and the inputs fuzz_remote found
// (tests/data/fuzz-regressions/remote/, docs/reliability.md "Fuzzing") replayed through the fuzz target's own code.
// The app's answers to the same lines are tested through its window in test_remote*.cpp.

#include "app/desktop/remote_parse.hpp"
#include "engine/output/field_probe.hpp"
#include "engine/scene/document.hpp"
#include "fuzz/fuzz_remote_harness.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace lodestone;
namespace fs = std::filesystem;

namespace {

const fs::path kRegressions = fs::path(LODESTONE_SOURCE_DIR) / "tests/data/fuzz-regressions/remote";

remote::Request read(const std::string& line) {
  return remote::parse_remote_line(line, fuzz::edit_scene());
}

// The refusal's text, as the remote prints it after "refused: LINE: ".
std::string refusal(const std::string& line) {
  try {
    (void)read(line);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("remote parse: verbs read their arguments into what the app sends", "[remote]") {
  CHECK(read("").verb.empty());
  CHECK(read("   ").verb.empty());
  const remote::Request set = read("set field.strength 40 mT");
  REQUIRE(set.edit.size() == 1);
  CHECK(set.edit[0].path == "field.strength");
  CHECK(set.edit[0].value == json("40 mT"));  // text that is not JSON is a string, read by the field's reader
  CHECK(read("set field.direction [0, 1, 0]").edit[0].value == json::parse("[0, 1, 0]"));
  CHECK(std::get<StepOnce>(*read("step 5").command).steps == 5);
  CHECK(std::get<StepOnce>(*read("advance 2 ms").command).seconds == Approx(2e-3));
  CHECK(std::get<StepOnce>(*read("advance 0.5").command).seconds == Approx(0.5));  // a bare number: seconds here
  {
    // In a preset in reduced units a bare span is in lj (tau), one with a unit as it says (issue 42).
    Preset lj = fuzz::edit_scene();
    lj.units.system = UnitSystem::Lj;
    lj.units.lj = LjScales{1e-3, 4e-6, 1e-9};
    const double tau = 1e-3 * std::sqrt(4e-6 / 1e-9);
    CHECK(std::get<StepOnce>(*remote::parse_remote_line("advance 2", lj).command).seconds == Approx(2.0 * tau));
    CHECK(std::get<StepOnce>(*remote::parse_remote_line("advance 2 ms", lj).command).seconds == Approx(2e-3));
    CHECK(std::get<GoBack>(*remote::parse_remote_line("back 3", lj).command).seconds == Approx(3.0 * tau));
  }
  CHECK(std::get<Rewind>(*read("rewind 3").command).step == 3);
  CHECK(std::get<DeleteBody>(*read("delete 3").command).particle_id == 3);
  CHECK(std::get<HoldParticle>(*read("hold 3").command).hold == HoldKind::Both);
  CHECK(std::get<HoldParticle>(*read("hold 4 orientation").command).particle_id == 4);
  CHECK(std::get<HoldParticle>(*read("hold 4 orientation").command).hold == HoldKind::Orientation);
  CHECK(std::get<HoldParticle>(*read("hold 4 none").command).hold == HoldKind::None);
  CHECK(std::get<DragParticle>(*read("drag 1 1mm 0 0 2").command).relative_stiffness == 2.0);
  CHECK(std::holds_alternative<AddClump>(*read("add {\"shape\": \"bar\", \"count\": 2}").command));
  CHECK(read("lid 0.5 atm").edit.size() == 3);
  CHECK(remote::kKeyNames[static_cast<std::size_t>(read("key tab").key)] == std::string("tab"));
  const remote::Request view = read("field-view both y 1mm");
  CHECK((view.field_view.slice && view.field_view.lines && view.field_view.axis == 1));
  CHECK(*view.field_view.at == Approx(1e-3));
  CHECK(*read("sidebar 400").sidebar_width == 400.0f);
  CHECK(read("run now").verb == "run");  // a verb without arguments ignores the text after it
}

TEST_CASE("remote parse: a line that cannot be carried out is refused saying why", "[remote]") {
  CHECK_THAT(refusal("frobnicate"), Catch::StartsWith("unknown command 'frobnicate'; commands: set, confirm"));
  CHECK(refusal("set field.strength") == "usage: set PATH VALUE (VALUE as JSON, or text: set field.strength 40 mT)");
  CHECK(refusal("step 0") == "steps 0: allowed 1 to 1000000000");
  CHECK(refusal("step 1.5") == "steps '1.5': allowed a whole number, 1 to 1000000000");
  CHECK_THAT(refusal("advance -1 s"), Catch::StartsWith("time '-1 s': allowed a simulated time above 0"));
  CHECK_THAT(refusal("field-at 0 0"), !Catch::Equals(""));
  CHECK(refusal("key q") == "key 'q': allowed space, escape, delete, r, f, tab, f1");
  CHECK_THAT(refusal("lid off"), Catch::Contains("there is no lid to take off"));
  CHECK(refusal("select x") == "usage: select ID (a particle id, 0 or more)");
  CHECK_THAT(refusal("hold"), Catch::StartsWith("usage: hold ID [position|orientation|both|none]"));
  CHECK_THAT(refusal("hold 3 sideways"), Catch::Contains("hold.fixed") && Catch::Contains("'sideways'") &&
                                             Catch::Contains("position, orientation"));
}

// Found while moving the parser out of RemoteControl: an id of 20 digits passed the digits check and then threw
// std::out_of_range from std::stoull, which the remote printed as "refused: delete 99999999999999999999: stoull".
TEST_CASE("remote parse: a particle id beyond 2^64 is refused as not a particle id", "[remote]") {
  CHECK_THAT(refusal("delete 99999999999999999999"),
             Catch::StartsWith("delete.id: '99999999999999999999' is not a particle id"));
  CHECK_THAT(refusal("drag 99999999999999999999 0 0 0"), Catch::StartsWith("drag.id: '99999999999999999999'"));
  CHECK(std::get<DeleteBody>(*read("delete 18446744073709551615").command).particle_id == 18446744073709551615ull);
}

TEST_CASE("remote parse: every input fuzz_remote found replays without a crash", "[remote][fuzz]") {
  std::vector<fs::path> files;
  if (fs::is_directory(kRegressions))
    for (const auto& entry : fs::directory_iterator(kRegressions))
      if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    INFO(file.filename().string());
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE_NOTHROW(fuzz::remote_input(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  }
}

// Found by fuzz_remote: `set PATH VALUE` with a VALUE that is neither JSON nor UTF-8 was sent as a JSON string; the
// field's reader, quoting it in its refusal, made nlohmann's dump throw type_error 316, which escaped Session::apply
// as no PresetError: on the simulation thread, which catches PresetError only, that ended the app. Such text is
// now refused where the line is read.
TEST_CASE("fuzz regression: a set value that is not UTF-8 is refused, not passed to the field's reader",
          "[remote][fuzz]") {
  const std::string bytes = "set particles.count 2\"top_l\x9f\x86\x9a\x8e\"0";
  CHECK(refusal(bytes) == "the value is not UTF-8 text; allowed: JSON, or text such as 40 mT");
  CHECK(refusal("lid \xff atm") == "the value is not UTF-8 text; allowed: JSON, or text such as 40 mT");
  CHECK(read("set description \xc3\xa9t\xc3\xa9").edit[0].value == json("\xc3\xa9t\xc3\xa9"));  // UTF-8 is taken
  std::ifstream in(kRegressions / "set-value-not-utf8.txt", std::ios::binary);
  const std::string input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(input.rfind("set particles.count", 0) == 0);
  REQUIRE_NOTHROW(fuzz::remote_input(reinterpret_cast<const std::uint8_t*>(input.data()), input.size()));
}

// Found by fuzz_remote: `lid 0.1e3081` (and `set PATH 1e999`, `add` with such a number) made nlohmann's parser throw
// out_of_range 406, which the readers did not catch (they caught parse_error only): the remote answered with
// nlohmann's own text, "[json.exception.out_of_range.406] number overflow parsing '0.1e3081'". Now the value goes
// to the field's reader as text, which names the field.
TEST_CASE("fuzz regression: a number beyond a double is refused by the field's reader, naming the field",
          "[remote][fuzz]") {
  CHECK_THAT(refusal("lid 0.1e3081"), Catch::StartsWith("lid.pressure: "));
  CHECK(read("set field.strength 1e999").edit[0].value == json("1e999"));
  CHECK_THAT(refusal("add {\"position\": [1e999, 0, 0]}"),
             Catch::StartsWith("add: '{\"position\": [1e999, 0, 0]}' is not JSON"));
  std::ifstream in(kRegressions / "number-beyond-double.txt", std::ios::binary);
  const std::string input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE_NOTHROW(fuzz::remote_input(reinterpret_cast<const std::uint8_t*>(input.data()), input.size()));
}
