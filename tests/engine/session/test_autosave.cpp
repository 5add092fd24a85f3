// Autosave and restore (issue 41; engine/session/autosave.hpp, autosave_store.hpp): a session taken through an
// autosave's bytes comes back as the same state and goes on bit for bit, across a protocol phase, an edit, a pull and
// an added magnet; its document replays to it; the store writes atomically, keeps a few per scene, tells a crashed
// program's files from a running one's, refuses a truncated or damaged file by name and moves it aside, and a clean
// quit removes what it wrote.

#include "engine/core/state_hash.hpp"
#include "engine/session/autosave_store.hpp"
#include "tests/engine/test_support.hpp"
#include "tests/test_process.hpp"

#include <filesystem>

using namespace lodestone;
using namespace lodestone::testing;
namespace fs = std::filesystem;

namespace {

// A chain of eight magnets in a turning field, two protocol phases: the first ended after 30.5 steps, so that the
// edits below fall in both.
Preset chain_scene() {
  Preset p = load_preset_file(LODESTONE_SOURCE_DIR "/presets/rotating-field-chain.json");
  const Session probe(p);
  p.protocol[0].duration = 30.5 * probe.model().time_step;
  return p;
}

// The session after an edit, a pull and a bar magnet added, 70 steps in, paused between steps.
Session edited_session() {
  Session s(chain_scene());
  run_checked(s, 20);
  s.apply({{"field.strength", json("3 mT")}});
  run_checked(s, 20);
  s.drag(s.state().particles.id[0], Vec3(0.0, 2e-3, 0.0));
  run_checked(s, 10);
  s.release();
  ClumpEntry bar;
  bar.shape = ClumpShape::Bar;
  bar.count = 3;
  bar.pebble_radius = 4e-4;
  bar.axis = Vec3::UnitX();
  bar.position = Vec3(0.0, 6e-3, 0.0);
  s.add_clump(bar);
  run_checked(s, 20);
  return s;
}

Autosave autosave_of(const Session& s, const std::string& scene = "rotating-field-chain") {
  Autosave a;
  a.info.scene = scene;
  a.info.source = "presets/" + scene + ".json";
  a.info.saved_at = 1700000000;
  a.info.step = s.state().step;
  a.info.time = s.state().time;
  a.document = s.document();
  a.point = s.point();
  return a;
}

}  // namespace

TEST_CASE("autosave: the restored session is the autosaved state, goes on bit for bit and its document replays to it",
          "[autosave]") {
  Session s = edited_session();
  REQUIRE(s.state().phase == 1);
  REQUIRE(s.document().timeline.size() >= 4);  // the edit, the drag, the release, the add
  const std::uint64_t saved_hash = state_hash(s.state());
  const std::int64_t saved_step = s.state().step;

  const Autosave back = autosave_from_bytes(autosave_to_bytes(autosave_of(s)));
  CHECK(back.info.step == saved_step);
  CHECK(back.info.time == s.state().time);
  CHECK(back.info.scene == "rotating-field-chain");
  Session restored(back.document, back.point);
  CHECK(state_hash(restored.state()) == saved_hash);
  CHECK(restored.state().phase == 1);
  CHECK(restored.timeline_applied() == s.timeline_applied());
  CHECK(restored.parameters().field.strength == s.parameters().field.strength);

  // Both go on: the same bits (the parameters in force, the lists, the contact history and the drag came back).
  run_checked(s, 40);
  run_checked(restored, 40);
  CHECK(state_hash(restored.state()) == state_hash(s.state()));

  // The document alone, as lodestone-run replays a saved session, reaches the autosaved state.
  Session replay(saved_and_loaded(back.document));
  run_checked(replay, saved_step);
  CHECK(state_hash(replay.state()) == saved_hash);
}

TEST_CASE("autosave: scene names are file names without folder and extension, only safe characters", "[autosave]") {
  CHECK(autosave_scene_name("built-in default preset") == "default");
  CHECK(autosave_scene_name("/home/ann/my scenes/Two dipoles!.json") == "Two_dipoles_");
  CHECK(autosave_scene_name("class.lodestone.json") == "class");
  CHECK(autosave_scene_name("presets/two-dipoles.json") == "two-dipoles");
}

TEST_CASE("autosave: a damaged or truncated autosave is refused naming what is wrong, nothing of it loaded",
          "[autosave]") {
  const std::string bytes = autosave_to_bytes(autosave_of(edited_session()));
  // Cut in the checkpoint, in the document, in the header; a flipped byte in the state.
  CHECK_THROWS_WITH(autosave_from_bytes(bytes.substr(0, bytes.size() - 100)),
                    Catch::Contains("the file ends inside the checkpoint") && Catch::Contains("truncated"));
  const size_t header_end = bytes.find("LODESTONE-CHECKPOINT") / 2;
  CHECK_THROWS_WITH(autosave_from_bytes(bytes.substr(0, header_end)), Catch::Contains("truncated"));
  CHECK_THROWS_WITH(autosave_from_bytes(bytes.substr(0, 40)), Catch::Contains("the file ends inside the header"));
  std::string flipped = bytes;
  flipped[bytes.size() - 200] ^= 0x10;
  CHECK_THROWS_WITH(autosave_from_bytes(flipped), Catch::Contains("the checksum does not match"));
  CHECK_THROWS_WITH(autosave_from_bytes("{\"version\": 1}"), Catch::Contains("not a Lodestone autosave"));
}

TEST_CASE("autosave store: written atomically, a few kept per scene, older ones pruned, a clean quit removes them",
          "[autosave]") {
  lodestone::test::TempDir dir;
  const std::string folder = (dir.path() / "state" / "lodestone").string();
  const Session s = edited_session();
  AutosaveStore store(folder);
  std::string last;
  for (int k = 0; k < 5; ++k) last = store.write(autosave_of(s));
  store.write(autosave_of(s, "two-dipoles"));
  const std::vector<std::string> files = store.own_files();
  REQUIRE(files.size() == AutosaveStore::kKeptPerScene + 1);
  CHECK(files[AutosaveStore::kKeptPerScene - 1] == last);  // the newest of the scene kept, the two oldest gone
  CHECK(fs::path(last).filename() == "rotating-field-chain-5.autosave");
  for (const auto& entry : fs::directory_iterator(fs::path(last).parent_path()))
    CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);  // no half-written file left
  CHECK(state_hash(store.load(last).point.state) == state_hash(s.state()));
  // Running: another program does not offer them.
  AutosaveStore other(folder);
  CHECK(other.left_behind().empty());
  store.quit_cleanly();
  CHECK(!fs::exists(fs::path(last).parent_path()));
  CHECK(other.left_behind().empty());
}

TEST_CASE("autosave store: a crashed program's autosaves are offered newest first, adopted by the one that restores",
          "[autosave]") {
  lodestone::test::TempDir dir;
  const std::string folder = (dir.path() / "lodestone").string();
  const Session s = edited_session();
  std::string written;
  {
    AutosaveStore crashed(folder);
    crashed.write(autosave_of(s));
    Autosave newer = autosave_of(s);
    newer.info.saved_at += 30;
    written = crashed.write(newer);
  }  // gone without quit_cleanly: as after SIGKILL, its lock released by the system, its files left
  AutosaveStore next(folder);
  const std::vector<AutosaveFile> found = next.left_behind();
  REQUIRE(found.size() == 2);
  CHECK(found[0].path == written);
  REQUIRE(found[0].info);
  CHECK(found[0].info->saved_at == 1700000030);
  CHECK(found[0].info->step == s.state().step);
  // The one that restores takes it: a third program does not offer it while that one runs.
  next.adopt(found[0].instance);
  AutosaveStore third(folder);
  CHECK(third.left_behind().empty());
  next.quit_cleanly();  // and removes it with its own
  CHECK(!fs::exists(fs::path(written).parent_path()));
}

TEST_CASE("autosave store: a truncated autosave is refused by name and moved aside, never loaded half", "[autosave]") {
  lodestone::test::TempDir dir;
  const std::string folder = (dir.path() / "lodestone").string();
  std::string path;
  {
    AutosaveStore crashed(folder);
    path = crashed.write(autosave_of(edited_session()));
  }
  const std::string bytes = lodestone::test::read_file(path);
  lodestone::test::write_file(path, bytes.substr(0, bytes.size() / 2));
  AutosaveStore next(folder);
  const std::vector<AutosaveFile> found = next.left_behind();
  REQUIRE(found.size() == 1);
  CHECK_THROWS_WITH(next.load(found[0].path), Catch::StartsWith("autosave " + path + ": the file ends inside") &&
                                                  Catch::Contains("moved aside to " + folder + "/damaged/"));
  CHECK(!fs::exists(path));
  CHECK(fs::directory_iterator(fs::path(folder) / "damaged") != fs::directory_iterator());
  CHECK(next.left_behind().empty());
}

TEST_CASE("autosave store: the state folder is $XDG_STATE_HOME/lodestone, else ~/.local/state/lodestone",
          "[autosave]") {
  const std::string saved_state = std::getenv("XDG_STATE_HOME") ? std::getenv("XDG_STATE_HOME") : "";
  const std::string saved_home = std::getenv("HOME") ? std::getenv("HOME") : "";
  ::setenv("XDG_STATE_HOME", "/tmp/state-here", 1);
  CHECK(default_state_folder() == "/tmp/state-here/lodestone");
  ::setenv("XDG_STATE_HOME", "relative/ignored", 1);
  ::setenv("HOME", "/home/ann", 1);
  CHECK(default_state_folder() == "/home/ann/.local/state/lodestone");
  ::unsetenv("XDG_STATE_HOME");
  CHECK(default_state_folder() == "/home/ann/.local/state/lodestone");
  if (saved_state.empty())
    ::unsetenv("XDG_STATE_HOME");
  else
    ::setenv("XDG_STATE_HOME", saved_state.c_str(), 1);
  ::setenv("HOME", saved_home.c_str(), 1);
}
