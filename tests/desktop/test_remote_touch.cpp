// The remote verbs of issue 22 (app/desktop/remote_control.hpp): drag / release, add (a particle, a copy, a
// bar magnet), delete, lid, in the real app, each answered after the simulation thread applied it; bad input
// refused naming the field, the value and what is allowed. The session saved at the end carries every touch
// in its timeline and replays headless in lodestone-run to the same particle count.

#include "scene_checks.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <fstream>
#include <sstream>
#include <string>

using namespace lodestone::desktop_test;

namespace {

// Three 1 mm magnets in a box walled on the floor and the sides, open on top, no gravity (shared with
// autosave_restore.py).
std::string magnets_in_box() {
  return lodestone::test::read_file(std::string(LODESTONE_SOURCE_DIR) + "/tests/data/magnets-in-box.json");
}

std::string line_starting(const std::string& output, const std::string& prefix) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) return line;
  return {};
}

}  // namespace

TEST_CASE("Remote drag, release, add, delete and lid act through the command queue and are saved in the timeline",
          "[remote]") {
  require_display();
  Workdir work;
  lodestone::test::write_file(work.path() / "scene.json", magnets_in_box());
  const std::string commands =
      "add {\"position\": [\"0 mm\", \"3 mm\", \"0 mm\"], \"radius\": \"0.5 mm\"}\n"
      "add {\"position\": [\"0.4 mm\", \"0 mm\", \"0 mm\"], \"radius\": \"0.5 mm\"}\n"
      "add {\"position\": [0, 0, 0.003], \"radius\": \"-1 mm\"}\n"
      "add {\"position\": [0, 0, 0.003], \"material\": \"cheese\"}\n"
      "add {\"copy\": 1, \"position\": [\"0 mm\", \"-3 mm\", \"0 mm\"]}\n"
      "add {\"shape\": \"bar\", \"count\": 3, \"pebble_radius\": \"0.3 mm\", \"position\": [\"0 mm\", \"0 mm\", "
      "\"3 mm\"], \"axis\": [1, 0, 0]}\n"
      "add not json\n"
      "delete 2\n"
      "delete 2\n"
      "delete banana\n"
      "drag 0 0 1mm 1mm\n"
      "drag 77 0 0 0\n"
      "drag 0 0 1mm 1mm 500\n"
      "step 40\n"
      "release\n"
      "lid 0.0005 atm\n"
      "lid -1 atm\n"
      "lid banana\n"
      "step 20\n"
      "lid off\n"
      "release\n"  // refused, but answered in order: after the steps and the lid
      "status\n"
      "save session.json\n"
      "quit\n";
  const auto r = run_remote(work, commands, "--preset scene.json");
  REQUIRE(r.code == 0);
  const std::string& out = r.output;
  CHECK(out.find("ok add particle 3 at (0, 3, 0) mm") != std::string::npos);
  CHECK(out.find("would overlap particle 0") != std::string::npos);
  CHECK(out.find("refused: add {\"position\": [0, 0, 0.003], \"radius\": \"-1 mm\"}: add.radius") != std::string::npos);
  CHECK(out.find("no material named 'cheese'; materials: NdFeB, steel") != std::string::npos);
  CHECK(out.find("ok add particle 4 at (0, -3, 0) mm") != std::string::npos);
  CHECK(out.find("ok add a bar magnet (first pebble 5) at (0, 0, 3) mm") != std::string::npos);
  CHECK(out.find("refused: add not json: add: 'not json' is not JSON") != std::string::npos);
  CHECK(out.find("ok deleted particle 2") != std::string::npos);
  CHECK(out.find("refused: delete 2: touch.delete.id: no particle has id 2") != std::string::npos);
  CHECK(out.find("refused: delete banana: delete.id: 'banana' is not a particle id") != std::string::npos);
  CHECK(out.find("ok drag particle 0 toward (0, 1, 1) mm") != std::string::npos);
  CHECK(out.find("refused: drag 77 0 0 0: drag.id: no particle has id 77") != std::string::npos);
  CHECK(out.find("refused: drag 0 0 1mm 1mm 500: drag.stiffness: relative stiffness 500 is out of the allowed range "
                 "[0.01, 50]") != std::string::npos);
  CHECK(out.find("ok released particle 0") != std::string::npos);
  CHECK(out.find("refused: release: touch.release: no drag is active") != std::string::npos);
  CHECK(out.find("ok lid 0.0005 atm") != std::string::npos);
  CHECK(out.find("refused: lid -1 atm: lid.pressure") != std::string::npos);
  CHECK(out.find("refused: lid banana: lid.pressure") != std::string::npos);
  CHECK(out.find("ok lid off") != std::string::npos);
  // 3 + 2 added - 1 deleted particles, and the bar's 3 pebbles.
  const std::string status = line_starting(out, "status ");
  CHECK(status.find("step=60") != std::string::npos);
  CHECK(status.find("particles=7") != std::string::npos);
  CHECK(status.find("healthy=1") != std::string::npos);

  // The saved session: every touch and both lid edits in the timeline.
  std::ifstream in(work.path() / "session.json");
  std::stringstream text;
  text << in.rdbuf();
  const QJsonObject saved = QJsonDocument::fromJson(QByteArray::fromStdString(text.str())).object();
  const QJsonArray timeline = saved["timeline"].toArray();
  int adds = 0, deletes = 0, drags = 0, releases = 0, lids = 0;
  for (const auto& e : timeline) {
    const QJsonObject entry = e.toObject();
    const QJsonObject touch = entry["touch"].toObject();
    adds += touch.contains("add") || touch.contains("add_clump");
    deletes += touch.contains("delete");
    drags += touch.contains("drag");
    releases += touch.contains("release");
    lids += entry["set"].toObject().contains("pressure.method");
  }
  CHECK(adds == 3);
  CHECK(deletes == 1);
  CHECK(drags == 1);
  CHECK(releases == 1);
  CHECK(lids == 2);

  // Headless, the saved session runs through the same touches.
  lodestone::test::Workdir runner(LODESTONE_RUNNER);
  const auto replay = runner.run(lodestone::test::quoted((work.path() / "session.json").string()) +
                                 " --steps 60 --frames final.xyz --frames-every 60 --threads 1 --quiet");
  REQUIRE(replay.code == 0);
  std::ifstream frames(runner.path() / "final.xyz");
  std::string line, count_line;  // the last frame's particle count
  while (std::getline(frames, line))
    if (!line.empty() && line.find_first_not_of("0123456789") == std::string::npos) count_line = line;
  CHECK(count_line == "7");
}

TEST_CASE("Remote undo of a pull goes back to the grab, and field-view switches the field view by name", "[remote]") {
  require_display();
  Workdir work;
  lodestone::test::write_file(work.path() / "scene.json", magnets_in_box());
  const std::string commands =
      "get box.min\n"  // the first line, sent before the window has its first snapshot: the preset's box
      "step 10\n"
      "hash\n"
      "drag 0 0 1mm 1mm\n"
      "step 30\n"
      "release\n"
      "step 10\n"
      "undo\n"
      "status\n"
      "hash\n"
      "field-view both y 0mm\n"
      "field-view sideways\n"
      "field-view slice w\n"
      "field-view slice x banana\n"
      "view\n"
      "field-view off\n"
      "view\n"
      "quit\n";
  const auto r = run_remote(work, commands, "--preset scene.json");
  REQUIRE(r.code == 0);
  const std::string& out = r.output;
  INFO(out);
  CHECK(line_starting(out, "value box.min") == "value box.min [-0.005,-0.005,-0.005]");
  CHECK(out.find("undone: pull of particle 0 (went back to step 10, before it)") != std::string::npos);
  CHECK(line_starting(out, "status ").find("step=10") != std::string::npos);
  // The state after the undo is the state before the grab, bit for bit.
  const std::string first_hash = line_starting(out, "hash ");
  REQUIRE(!first_hash.empty());
  CHECK(out.find(first_hash, out.find("undone: pull")) != std::string::npos);
  CHECK(out.find("ok field-view both y 0mm") != std::string::npos);
  CHECK(out.find("refused: field-view sideways: usage: field-view off|slice|lines|both") != std::string::npos);
  CHECK(out.find("refused: field-view slice w: usage") != std::string::npos);
  CHECK(out.find("refused: field-view slice x banana: position 'banana'") != std::string::npos);
  CHECK(out.find("field_view=both") != std::string::npos);
  CHECK(out.find("field_view=off") != std::string::npos);
}
