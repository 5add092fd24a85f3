// The Export panel's path through the UI state (ui/ui_state.hpp): the GUI asks the simulation
// thread for the frame (CaptureFrame), and writes the file when a snapshot brings it, with a clear
// notice on failure. No ImGui frame, no display, no simulation thread: the snapshot is built here.

#include "engine/output/export_frames.hpp"
#include "engine/scene/document.hpp"
#include "engine/session/session.hpp"
#include "tests/test_process.hpp"
#include "ui/ui_state.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

using namespace lodestone;
using namespace lodestone::ui;
namespace fs = std::filesystem;
using lodestone::test::TempDir;

namespace {

// What the simulation thread publishes after a CaptureFrame: the default scene's frame.
Snapshot snapshot_with_frame(std::uint64_t request) {
  static const Session session(default_preset());
  Snapshot s;
  s.frame = std::make_shared<const FrameFields>(frame_fields(session.model(), session.state()));
  s.frame_request = request;
  return s;
}

}  // namespace

TEST_CASE("ui: an export asks for the frame and writes it when the snapshot brings it", "[ui]") {
  TempDir dir;
  UiState state;
  std::vector<Command> sent;
  const CommandSink send = [&](Command c) { sent.push_back(std::move(c)); };
  const std::string path = (dir.path() / "frame.dump").string();
  request_export(state, path, send);
  REQUIRE(sent.size() == 1);
  const auto* capture = std::get_if<CaptureFrame>(&sent[0]);
  REQUIRE(capture != nullptr);
  REQUIRE(state.pending_export);

  // A snapshot answering an older request (or none) writes nothing.
  adopt_snapshot(state, snapshot_with_frame(capture->request - 1));
  adopt_snapshot(state, Snapshot{});
  CHECK_FALSE(fs::exists(path));
  REQUIRE(state.pending_export);

  const Snapshot answer = snapshot_with_frame(capture->request);
  adopt_snapshot(state, answer);
  CHECK_FALSE(state.pending_export);
  CHECK_FALSE(state.notice_is_error);
  CHECK_THAT(state.notice, Catch::Contains(path));
  CHECK_THAT(state.notice, Catch::Contains("LAMMPS dump"));
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  CHECK(text.str() == frame_file_text(FrameFormat::LammpsDump, *answer.frame));

  // The same snapshot again (the frame stays in later snapshots) does not write a second time.
  fs::remove(path);
  adopt_snapshot(state, answer);
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("ui: an export to an unknown extension or an unwritable place says why and keeps running", "[ui]") {
  TempDir dir;
  UiState state;
  std::vector<Command> sent;
  const CommandSink send = [&](Command c) { sent.push_back(std::move(c)); };

  request_export(state, (dir.path() / "frame.txt").string(), send);
  CHECK(sent.empty());  // refused before asking the simulation
  CHECK(state.notice_is_error);
  CHECK_THAT(state.notice, Catch::Contains("'.txt'"));
  CHECK_THAT(state.notice, Catch::Contains(".vtp"));

  const std::string missing = (dir.path() / "no-such-dir" / "frame.vtp").string();
  request_export(state, missing, send);
  REQUIRE(sent.size() == 1);
  adopt_snapshot(state, snapshot_with_frame(std::get<CaptureFrame>(sent[0]).request));
  CHECK(state.notice_is_error);
  CHECK_THAT(state.notice, Catch::Contains("not exported"));
  CHECK_THAT(state.notice, Catch::Contains(missing));
  CHECK_THAT(state.notice, Catch::Contains("No such file or directory"));
  CHECK_FALSE(state.pending_export);
}
