// A saved interactive session (a preset with a timeline, engine/scene/preset_edits.hpp) run headless by
// lodestone-run: the same particles as the session that recorded it.

#include "../engine/test_support.hpp"
#include "../test_process.hpp"
#include "../text_fields.hpp"
#include "engine/output/export_xyz.hpp"
#include "engine/output/frame_fields.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

using namespace lodestone;
using lodestone::test::lines_of;
using lodestone::test::read_file;
using lodestone::test::runner_tests::Workdir;

namespace {

// The last frame of an extended-XYZ file: its count line, comment line and particle lines.
std::vector<std::string> last_xyz_frame(const std::string& text) {
  const std::vector<std::string> lines = lines_of(text);
  std::vector<std::string> frame;
  for (size_t k = 0; k < lines.size();) {
    const size_t count = std::stoul(lines[k]);
    frame.assign(lines.begin() + static_cast<std::ptrdiff_t>(k),
                 lines.begin() + static_cast<std::ptrdiff_t>(std::min(lines.size(), k + count + 2)));
    k += count + 2;
  }
  return frame;
}

}  // namespace

TEST_CASE("runner: a saved session with a timeline runs headless to the same final frame as the session",
          "[runner][timeline]") {
  // The session, as the app's simulation thread makes it: edits between steps at 50 and 120.
  Session session(testing::magnets_in_walled_box());
  testing::run_checked(session, 50);
  Preset edited = session.parameters();
  edited.field.strength = 2e-2;
  session.edit_parameters(edited);
  testing::run_checked(session, 70);
  edited = session.parameters();
  edited.materials[0].friction = 0.1;
  session.edit_parameters(edited);
  testing::run_checked(session, 80);
  REQUIRE(session.document().timeline.size() == 2);
  std::ostringstream expected;
  write_xyz_frame(expected, frame_fields(session.model(), session.state()));

  Workdir dir;
  save_preset_file(session.document(), (dir.path() / "session.json").string());
  const auto run = dir.run("session.json --steps 200 --frames final.xyz --frames-every 200 --threads 1 --table 0");
  REQUIRE(run.code == 0);
  CHECK(run.output.find("timeline: 2 recorded changes from step 50 to 120") != std::string::npos);
  const std::vector<std::string> frame = last_xyz_frame(read_file(dir.path() / "final.xyz"));
  REQUIRE(frame.size() == session.state().particles.size() + 2);
  CHECK(frame[1].find("Step=200") != std::string::npos);
  CHECK(frame == lines_of(expected.str()));

  // The comparison can fail: without its timeline the scene ends elsewhere.
  Preset plain = session.document();
  plain.timeline.clear();
  save_preset_file(plain, (dir.path() / "plain.json").string());
  REQUIRE(dir.run("plain.json --steps 200 --frames plain.xyz --frames-every 200 --threads 1 --quiet").code == 0);
  CHECK(last_xyz_frame(read_file(dir.path() / "plain.xyz")) != frame);
}

TEST_CASE("runner: a timeline entry with a bad value exits 2 naming the entry, the value and the range",
          "[runner][timeline]") {
  Workdir dir;
  Preset p = testing::magnets_in_walled_box();
  p.timeline = {TimelineEntry{10, json::object({{"field.strength", "20 mT"}})}};
  json j = preset_to_json(p);
  j["timeline"][0]["set"]["field.strength"] = "-20 mT";
  lodestone::test::write_file(dir.path() / "bad.json", j.dump(2));
  const auto run = dir.run("bad.json --steps 5 --quiet");
  CHECK(run.code == 2);
  CHECK(run.output.find("bad.json $.timeline[0].set.field.strength") != std::string::npos);
  CHECK(run.output.find("-0.02") != std::string::npos);
  CHECK(run.output.find("[0, inf)") != std::string::npos);
}
