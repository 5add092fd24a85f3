// Issue 39, "the first minute", as the real app does it under remote control: the scene gallery lists every preset
// once in its group and opens the chosen one through the window's load path; and field-switch-on's "Switch the field
// on" holds the run until it is pressed (the remote verb go), the press replaying bit for bit in lodestone-run.

#include "scene_checks.hpp"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace lodestone::desktop_test;
using lodestone::test::quoted;
using lodestone::test::Result;

namespace {

// The lines of `output` that start with `prefix`.
std::vector<std::string> lines_with(const std::string& output, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

// The value of " key=" in a line (up to the next space).
std::string value_of(const std::string& line, const std::string& key) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return "";
  const size_t start = at + key.size() + 2;
  return line.substr(start, line.find(' ', start) - start);
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

// field-switch-on small enough to run in a test: 30 beads, a fixed time step, its waiting phase 20 steps long.
void write_small_field_switch_on(const fs::path& file) {
  std::ifstream in(kSourceDir / "presets" / "field-switch-on.json");
  std::stringstream text;
  text << in.rdbuf();
  QJsonObject preset = QJsonDocument::fromJson(QByteArray::fromStdString(text.str())).object();
  QJsonObject particles = preset["particles"].toObject();
  particles["count"] = 30;
  preset["particles"] = particles;
  preset["integrator"] = QJsonObject{{"time_step", 1e-5}};
  QJsonArray protocol = preset["protocol"].toArray();
  QJsonObject first = protocol[0].toObject();
  REQUIRE(first["wait"].toString() == "Switch the field on");
  first["duration"] = 2e-4;
  protocol[0] = first;
  preset["protocol"] = protocol;
  lodestone::test::write_file(file, QJsonDocument(preset).toJson().toStdString());
}

}  // namespace

TEST_CASE("gallery: not shown in a remote run unless asked, every preset once in its group, a choice opens it",
          "[desktop][gallery]") {
  require_display();
  Workdir work;
  const std::string presets = quoted((kSourceDir / "presets").string());
  const Result plain = run_remote(work, "gallery\nquit\n");
  REQUIRE(plain.code == 0);
  const std::vector<std::string> closed = lines_with(plain.output, "gallery ");
  REQUIRE(closed.size() == 1);
  CHECK(value_of(closed[0], "open") == "0");

  const Result r = run_remote(work,
                              "gallery\nview\ngallery open chains-and-rings\nsync\ngallery\nview\n"
                              "gallery open no-such-scene\nquit\n",
                              "--gallery --presets-dir " + presets);
  REQUIRE(r.code == 0);
  const std::vector<std::string> reports = lines_with(r.output, "gallery open=");
  REQUIRE(reports.size() == 2);
  CHECK(value_of(reports[0], "open") == "1");
  CHECK(value_of(reports[0], "thumbnails") == "17");
  // Every preset file exactly once, in the group its view names.
  std::map<std::string, std::string> group_of;
  for (const char* group : {"teaching", "research", "benchmarks"})
    for (const std::string& name : split(value_of(reports[0], group))) {
      CHECK(group_of.count(name) == 0);
      group_of[name] = group;
    }
  std::set<std::string> files;
  for (const auto& entry : fs::directory_iterator(kSourceDir / "presets"))
    if (entry.path().extension() == ".json") files.insert(entry.path().stem().string());
  CHECK(group_of.size() == files.size());
  for (const std::string& name : files) CHECK(group_of.count(name) == 1);
  CHECK(group_of["field-switch-on"] == "teaching");
  CHECK(group_of["aggregation"] == "research");
  CHECK(group_of["settled-packing"] == "benchmarks");
  CHECK(split(value_of(reports[0], "teaching")).size() == 9);
  // The choice: the gallery closes and the window opens the file (the scene shown now says so).
  CHECK(r.output.find("ok gallery open chains-and-rings") != std::string::npos);
  CHECK(value_of(reports[1], "open") == "0");
  CHECK(value_of(reports[1], "scene").find("chains-and-rings.json") != std::string::npos);
  const std::vector<std::string> views = lines_with(r.output, "view ");
  REQUIRE(views.size() == 2);
  CHECK(value_of(views[0], "gallery") == "1");
  CHECK(value_of(views[1], "gallery") == "0");
  CHECK(value_of(views[1], "color") == "cluster");  // chains-and-rings' own view
  CHECK(r.output.find("refused: gallery open no-such-scene: no scene named 'no-such-scene'") != std::string::npos);
}

TEST_CASE("field-switch-on waits for 'Switch the field on' (go), and the press replays in lodestone-run",
          "[desktop][gallery][wait]") {
  require_display();
  Workdir work;
  write_small_field_switch_on(work.path() / "scene.json");
  const Result r = run_remote(work,
                              "step 60\nstatus\ngo\nstatus\ngo\n"
                              "step 40\nhash\nsave session.json\nquit\n",
                              "scene.json");
  REQUIRE(r.code == 0);
  const std::vector<std::string> status = lines_with(r.output, "status ");
  REQUIRE(status.size() == 2);
  CHECK(value_of(status[0], "step") == "60");  // 40 steps past the phase's duration: still waiting
  CHECK(value_of(status[0], "waiting") == "1");
  CHECK(value_of(status[1], "waiting") == "0");
  CHECK(r.output.find("ok went on: now phase 2/2 field on") != std::string::npos);
  CHECK(r.output.find("refused: go: touch.go: phase 2 'field on' does not wait") != std::string::npos);
  const std::vector<std::string> hashes = lines_with(r.output, "hash ");
  REQUIRE(hashes.size() == 1);

  lodestone::test::Workdir runner(LODESTONE_RUNNER);
  const Result replay =
      runner.run(quoted((work.path() / "session.json").string()) + " --steps 100 --hash --threads 1 --quiet");
  REQUIRE(replay.code == 0);
  const std::vector<std::string> replayed = lines_with(replay.output, "hash ");
  REQUIRE(replayed.size() == 1);
  CHECK(replayed[0] == hashes[0]);
}

TEST_CASE("gallery: Escape closes it, and only it: the selection stays until the next Escape",
          "[desktop][gallery][escape]") {
  require_display();
  Workdir work;
  const Result r = run_remote(work,
                              "gallery show\nselect 0\nkey escape\ngallery\nframe selection\n"
                              "key escape\ngallery\nframe selection\nquit\n");
  REQUIRE(r.code == 0);
  CHECK(r.output.find("ok select 0") != std::string::npos);
  const std::vector<std::string> reports = lines_with(r.output, "gallery open=");
  REQUIRE(reports.size() == 2);
  CHECK(value_of(reports[0], "open") == "0");  // the first Escape closed the gallery...
  CHECK(value_of(reports[1], "open") == "0");
  // ... and did nothing else: the selection was still there to frame; the second Escape cleared it.
  const std::vector<std::string> frames = lines_with(r.output, "ok frame selection");
  CHECK(frames.size() == 1);
  CHECK(r.output.find("refused: frame selection: nothing is selected") != std::string::npos);
}
