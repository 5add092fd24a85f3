// The remote verbs of issue 21 (app/desktop/remote_control.hpp) in the real app on the two-dipoles preset:
// `step N` answers after the steps ran, `hash` after a rewind and replay equals the first pass's, `undo`
// and `redo` say what they changed or refuse, `history` names the kept range, a bad stiffness prints
// "stopped: ..." and `recover` goes back before it, after which the run goes on.

#include "scene_checks.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace lodestone::desktop_test;

namespace {

// The replies that start with `prefix`, in order.
std::vector<std::string> lines_starting(const std::string& output, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("Remote step, hash, rewind, undo, redo, history and recover answer as documented", "[remote]") {
  require_display();
  Workdir work;
  const std::string commands =
      "step 200\n"
      "hash\n"
      "rewind 50\n"
      "step 150\n"
      "hash\n"
      "set field.strength \"40 mT\"\n"
      "step 10\n"
      "undo\n"
      "undo\n"
      "redo\n"
      "history\n"
      "rewind 999999\n"
      "set materials.0.kn \"1 N/m\"\n"
      "step 20000\n"
      "recover\n"
      "step 100\n"
      "get materials.0.kn\n"
      "quit\n";
  const std::string preset = std::string(LODESTONE_SOURCE_DIR) + "/presets/two-dipoles.json";
  const auto r = run_remote(work, commands, "--preset " + preset);
  INFO(r.output);
  REQUIRE(r.code == 0);

  const std::vector<std::string> steps = lines_starting(r.output, "ok step ");
  REQUIRE(steps.size() == 4);
  CHECK(steps[0] == "ok step 200 now 200");
  CHECK(steps[1] == "ok step 150 now 200");
  CHECK(steps[2] == "ok step 10 now 210");
  CHECK(steps[3] == "ok step 100 now 310");  // after going back to step 210, before the bad edit

  const std::vector<std::string> hashes = lines_starting(r.output, "hash ");
  REQUIRE(hashes.size() == 2);
  CHECK(hashes[0].size() == 5 + 16);
  CHECK(hashes[0] == hashes[1]);  // rewound and replayed: the same state, bit for bit

  CHECK(r.output.find("ok rewind 50 now 50") != std::string::npos);
  CHECK(r.output.find("undone: field.strength 0 mT -> 40 mT") != std::string::npos);
  CHECK(r.output.find("refused: nothing to undo") != std::string::npos);
  CHECK(r.output.find("redone: field.strength 0 mT -> 40 mT") != std::string::npos);
  CHECK(lines_starting(r.output, "history 0 ").size() == 1);
  CHECK(r.output.find("refused: rewind 999999: history: step 999999 is outside the kept history") != std::string::npos);
  const std::vector<std::string> stops = lines_starting(r.output, "stopped: ");
  REQUIRE(stops.size() == 1);
  CHECK(stops[0].find("Most likely cause: the edit at step 210 (materials.0.kn") != std::string::npos);
  CHECK(r.output.find("undone: materials.0.kn 1e+05 N/m -> 1 N/m") != std::string::npos);
  CHECK(r.output.find("value materials.0.kn 100000") != std::string::npos);  // the panels show it too
}

TEST_CASE("Remote load answers once the scene is in: a set right after it acts on the new scene", "[remote]") {
  // `set` builds on the panels' copy of the scene; answered before the simulation thread held the loaded scene,
  // `load` let a `set` edit the old one (refused: the old box did not hold the new particles). Values given as
  // text are read as a preset would read them, and a bad one is refused naming the field.
  require_display();
  Workdir work;
  const std::string preset = std::string(LODESTONE_SOURCE_DIR) + "/presets/two-dipoles.json";
  const std::string commands = "load " + preset +
                               "\n"
                               "set field.strength 40 mT\n"
                               "get field.strength\n"
                               "set field.strength banana\n"
                               "load /nonexistent/scene.json\n"
                               "status\n"
                               "quit\n";
  const auto r = run_remote(work, commands);
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK(lines_starting(r.output, "ok load ").size() == 1);
  CHECK(lines_starting(r.output, "ok set field.strength").size() == 1);
  CHECK(lines_starting(r.output, "value field.strength 0.04").size() == 1);
  const std::vector<std::string> refused = lines_starting(r.output, "refused: ");
  REQUIRE(refused.size() == 2);
  CHECK(refused[0].find("field.strength: 'banana'") != std::string::npos);
  CHECK(refused[1].find("not loaded (the current scene is kept)") != std::string::npos);
  CHECK(lines_starting(r.output, "status step=0 time=0 particles=2 ").size() == 1);  // two-dipoles kept
}

TEST_CASE("Remote set and get speak the scene's unit system: a bare number in a reduced-units preset is in its units",
          "[remote]") {
  // two-dipoles-lj.json is in reduced units: its field unit is sqrt(mu0 epsilon / (4 pi sigma^3)) = 44.72 mT, so 0.5
  // is 22.36 mT (issue 42: the remote read it as 0.5 T and answered get in SI). A value with its unit means that.
  require_display();
  Workdir work;
  const std::string preset = std::string(LODESTONE_SOURCE_DIR) + "/presets/two-dipoles-lj.json";
  const auto r = run_remote(work, "load " + preset +
                                      "\nset field.strength 0.5\nget field.strength\nset field.strength 44.72136 mT\n"
                                      "get field.strength\nquit\n");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const std::vector<std::string> values = lines_starting(r.output, "value field.strength ");
  REQUIRE(values.size() == 2);
  CHECK(values[0] == "value field.strength 0.5");
  CHECK(std::abs(std::stod(values[1].substr(21)) - 1.0) < 1e-6);
}

TEST_CASE("Remote set of the value in force says it changed nothing, and leaves nothing to undo", "[remote]") {
  // The default scene's field is 30 mT: `set field.strength 30 mT` used to answer "ok set field.strength" and the
  // undo that followed "refused: nothing to undo", which read as a lost edit.
  require_display();
  Workdir work;
  const std::string commands =
      "set field.strength \"0 mT\"\n"
      "undo\n"
      "set field.strength \"40 mT\"\n"
      "undo\n"
      "quit\n";
  const std::string preset = std::string(LODESTONE_SOURCE_DIR) + "/presets/two-dipoles.json";
  const auto r = run_remote(work, commands, "--preset " + preset);
  INFO(r.output);
  REQUIRE(r.code == 0);
  const std::vector<std::string> sets = lines_starting(r.output, "ok set ");
  REQUIRE(sets.size() == 2);
  CHECK(sets[0] == "ok set field.strength (unchanged: it had that value already; nothing to undo)");
  CHECK(sets[1] == "ok set field.strength");
  CHECK(lines_starting(r.output, "refused: nothing to undo").size() == 1);
  CHECK(lines_starting(r.output, "undone: field.strength 0 mT -> 40 mT").size() == 1);
}
