// The two things the GUI and simulation threads share (DESIGN: "Threads"): the command queue and
// the snapshot triple buffer; and the simulation thread that uses them. CI runs these under
// ThreadSanitizer too (scripts/test.sh --tsan). No timing thresholds: only ordering and content.

#include "engine/live/command_queue.hpp"
#include "engine/live/simulation_thread.hpp"
#include "engine/live/triple_buffer.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/live_support.hpp"
#include "tests/engine/test_support.hpp"

#include <array>
#include <chrono>
#include <cstring>
#include <functional>
#include <thread>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

struct Stamped {
  std::uint64_t sequence = 0;
  std::array<std::uint64_t, 64> payload{};  // all equal to sequence when not torn
};

Preset small_scene(int count) {
  Preset p = bare_preset();
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Wall;
  p.box.min = Vec3::Zero();
  p.box.max = Vec3::Constant(0.01);
  p.particles.kind = GeneratorKind::Random;
  p.particles.count = count;
  p.particles.diameter = 1e-3;
  p.particles.velocity_spread = 0.01;
  return p;
}

}  // namespace

TEST_CASE("triple buffer: the reader sees whole values, never older than the last one it saw", "[threading]") {
  TripleBuffer<Stamped> buffer;
  constexpr std::uint64_t kValues = 200000;
  std::thread writer([&] {
    for (std::uint64_t s = 1; s <= kValues; ++s) {
      Stamped& w = buffer.write_buffer();
      w.sequence = s;
      w.payload.fill(s);
      buffer.publish();
    }
  });
  std::uint64_t last = 0, fetched = 0;
  bool torn = false, backwards = false;
  while (last < kValues) {
    if (!buffer.fetch()) continue;
    const Stamped& r = buffer.read_buffer();
    ++fetched;
    for (std::uint64_t v : r.payload) torn = torn || v != r.sequence;
    backwards = backwards || r.sequence <= last;
    last = r.sequence;
  }
  writer.join();
  CHECK_FALSE(torn);
  CHECK_FALSE(backwards);
  CHECK(last == kValues);  // the newest value always arrives
  CHECK(fetched >= 1);
  CHECK_FALSE(buffer.fetch());  // nothing new after the last one
}

TEST_CASE("command queue: nothing lost, each producer's commands in order", "[threading]") {
  CommandQueue<std::pair<int, int>> queue;
  constexpr int kProducers = 3, kEach = 20000;
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&, p] {
      for (int k = 0; k < kEach; ++k) queue.push({p, k});
    });
  std::array<int, kProducers> next{};
  bool in_order = true;
  int received = 0;
  std::vector<std::pair<int, int>> batch;
  while (received < kProducers * kEach) {
    queue.drain(batch);
    for (const auto& [p, k] : batch) {
      in_order = in_order && k == next[static_cast<size_t>(p)];
      next[static_cast<size_t>(p)] = k + 1;
      ++received;
    }
  }
  for (auto& t : producers) t.join();
  queue.drain(batch);
  CHECK(in_order);
  CHECK(received == kProducers * kEach);
  CHECK(batch.empty());
}

TEST_CASE("simulation thread: paused, single steps, run, pause", "[threading]") {
  SimulationThread t(small_scene(20), "test scene", /*start_running=*/false);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  CHECK(t.snapshot().step == 0);
  CHECK_FALSE(t.snapshot().running);
  CHECK(t.snapshot().particles.size() == 20);
  CHECK(t.snapshot().scene_source == "test scene");

  t.push(StepOnce{5});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 5; }));
  t.push(StepOnce{3});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 8; }));

  t.push(SetRunning{true});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.running && s.step > 100; }));
  t.push(SetRunning{false});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return !s.running; }));
  const std::int64_t stopped_at = t.snapshot().step;
  // Paused: a later command is answered (a new snapshot) but the step does not move.
  t.push(SetPace{PaceMode::Fastest, 1.0});
  REQUIRE(wait_until(t, [&](const Snapshot& s) { return s.sequence > 0 && !s.running; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  t.update_snapshot();
  CHECK(t.snapshot().step == stopped_at);
}

TEST_CASE("simulation thread: commands apply in order, refused ones keep the scene and say why", "[threading]") {
  SimulationThread t(small_scene(20), "first", /*start_running=*/false);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  const std::uint64_t first_revision = t.snapshot().scene_revision;

  // Parameters: two edits in a row, the second wins; the engine uses it (field in the snapshot).
  Preset edited = *t.snapshot().in_force;
  edited.field.strength = 0.01;
  t.push(ApplyParameters{{{"field.strength", 0.01}}});
  edited.field.strength = 0.03;
  t.push(ApplyParameters{{{"field.strength", "30 mT"}}});
  t.push(StepOnce{1});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 1; }));
  CHECK(t.snapshot().scene->field.strength == 0.0);  // the scene as loaded, the edits in its timeline
  REQUIRE(t.snapshot().scene->timeline.size() == 2);
  CHECK(t.snapshot().scene->timeline[1].set.at("field.strength") == 0.03);
  CHECK(t.snapshot().in_force->field.strength == 0.03);
  CHECK(t.snapshot().field.norm() == Approx(0.03).epsilon(1e-12));
  CHECK(t.snapshot().scene_revision == first_revision + 2);
  CHECK(t.snapshot().particles.size() == 20);  // particles kept

  // Bad parameters are refused with the reason; the previous ones stay.
  Preset bad = edited;
  bad.box.x_min = bad.box.x_max = SideKind::Periodic;
  bad.box.max.x() = 0.001;  // shorter than twice the interaction range
  const std::uint64_t messages = t.snapshot().message_revision;
  t.push(ApplyParameters{parameter_changes(edited, bad)});
  REQUIRE(wait_until(t, [&](const Snapshot& s) { return s.message_revision == messages + 1; }));
  CHECK(t.snapshot().message.find("$.box") != std::string::npos);
  CHECK(t.snapshot().in_force->field.strength == 0.03);
  CHECK(t.snapshot().scene->timeline.size() == 2);
  CHECK(t.snapshot().in_force->box.x_min == SideKind::Wall);

  // A scene that cannot be built is refused; the current one is kept.
  Preset too_full = small_scene(100000);
  t.push(LoadScene{too_full, "too full"});
  REQUIRE(wait_until(t, [&](const Snapshot& s) { return s.message_revision == messages + 2; }));
  CHECK(t.snapshot().message.find("$.particles.count") != std::string::npos);
  CHECK(t.snapshot().particles.size() == 20);
  CHECK(t.snapshot().scene_source == "first");

  // A good scene replaces everything; reset regenerates it at t = 0.
  t.push(LoadScene{small_scene(7), "second"});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.scene_source == "second"; }));
  CHECK(t.snapshot().particles.size() == 7);
  t.push(StepOnce{10});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 10; }));
  t.push(ResetScene{});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 0 && s.scene_source == "second"; }));
  CHECK(t.snapshot().particles.size() == 7);
}

TEST_CASE("simulation thread: the snapshot shows the running phase's parameters, an edit lasts into later phases",
          "[threading]") {
  Preset p = small_scene(10);
  p.integrator.time_step = 1e-5;
  ProtocolPhase first, second;
  first.name = "first";
  first.duration = 5e-5;  // five steps
  first.set = json::object({{"field.strength", "2 mT"}});
  second.name = "second";
  second.duration = 1.0;
  second.set = json::object({{"field.strength", "4 mT"}});
  p.protocol = {first, second};
  SimulationThread t(p, "staged", /*start_running=*/false);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  CHECK(t.snapshot().in_force->field.strength == Approx(0.002));
  CHECK(t.snapshot().scene->field.strength == p.field.strength);  // the document's base value

  Preset edited = *t.snapshot().in_force;
  edited.environment.translational_damping = 0.05;  // below the damping that would need a confirmation
  t.push(ApplyParameters{{{"environment.translational_damping", 0.05}}, 1});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.acknowledged_edit == 1; }));
  INFO((t.snapshot().confirmation ? t.snapshot().confirmation->text : std::string("no confirmation asked")));
  CHECK(t.snapshot().in_force->environment.translational_damping == 0.05);
  REQUIRE(t.snapshot().scene->timeline.size() == 1);
  CHECK(t.snapshot().scene->timeline[0].set.contains("environment.translational_damping"));

  t.push(StepOnce{20});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 20; }));
  CHECK(t.snapshot().phase_label == "2/2 second");
  CHECK(t.snapshot().in_force->field.strength == Approx(0.004));
  CHECK(t.snapshot().in_force->environment.translational_damping == 0.05);
  CHECK(t.snapshot().field.norm() == Approx(0.004).epsilon(1e-12));
}

TEST_CASE("simulation thread: a loaded scene brings its pace (run.real_time_factor), a reset keeps the user's",
          "[threading]") {
  Preset paced = small_scene(5);
  paced.run.real_time_factor = 0.25;
  SimulationThread t(paced, "paced", /*start_running=*/false);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  CHECK(t.snapshot().pace.mode == PaceMode::RealTime);
  CHECK(t.snapshot().pace.value == 0.25);
  t.push(SetPace{PaceMode::StepsPerFrame, 7});
  t.push(ResetScene{});
  t.push(StepOnce{1});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 1; }));
  CHECK(t.snapshot().pace.mode == PaceMode::StepsPerFrame);
  t.push(LoadScene{small_scene(5), "fast"});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.scene_source == "fast"; }));
  CHECK(t.snapshot().pace.mode == PaceMode::Fastest);
}

TEST_CASE("simulation thread: steps-per-frame pacing and a blow-up that pauses with a message", "[threading]") {
  SimulationThread t(small_scene(10), "paced", /*start_running=*/false);
  t.push(SetPace{PaceMode::StepsPerFrame, 3});
  t.push(SetRunning{true});
  // Every publication while running advances at most 3 steps.
  std::int64_t last_step = -1;
  std::uint64_t last_sequence = 0;
  bool within_pace = true;
  int publications = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (publications < 20 && std::chrono::steady_clock::now() < give_up) {
    if (t.update_snapshot()) {
      const Snapshot& s = t.snapshot();
      if (s.running && last_step >= 0 && s.sequence == last_sequence + 1)
        within_pace = within_pace && s.step - last_step <= 3;
      if (s.running) ++publications;
      last_step = s.step;
      last_sequence = s.sequence;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  CHECK(publications == 20);
  CHECK(within_pace);

  // An absurd time step: the run stops itself and the snapshot says why.
  Preset blow_up = small_scene(10);
  blow_up.particles.velocity_spread = 1.0;
  blow_up.integrator.time_step = 1e-3;
  t.push(LoadScene{blow_up, "blow-up"});
  t.push(SetPace{PaceMode::Fastest, 1.0});
  t.push(SetRunning{true});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.scene_source == "blow-up" && !s.health.ok && !s.running; }));
  CHECK(t.snapshot().health.message.find("particle") != std::string::npos);
  // Running again is refused until something changes (an edit, an undo, going back, a reset).
  const std::uint64_t messages = t.snapshot().message_revision;
  t.push(SetRunning{true});
  // Waits for the refusal itself: a message about the blow-up may still be on its way and arrive first.
  REQUIRE(wait_until(t, [&](const Snapshot& s) {
    return s.message_revision > messages && s.message.find("or reset") != std::string::npos;
  }));
  CHECK_FALSE(t.snapshot().running);
}

namespace {

// Magnets with gravity and friction in a walled box: field and friction edits change the run.
Preset magnet_scene() {
  Preset p = small_scene(24);
  p.materials[0].magnetization = 2e5;
  p.materials[0].friction = 0.4;
  p.magnetics.method = DipoleMethod::Cutoff;
  p.environment.gravity = Vec3(0, 0, -9.81);
  p.field.strength = 5e-3;
  return p;
}

// Sends an edit of the parameters in force and waits until the simulation thread applied it.
void edit_and_wait(SimulationThread& t, std::uint64_t id, const std::function<void(Preset&)>& change) {
  Preset edited = *t.snapshot().in_force;
  change(edited);
  t.push(ApplyParameters{parameter_changes(*t.snapshot().in_force, edited), id});
  REQUIRE(wait_until(t, [id](const Snapshot& s) { return s.acknowledged_edit == id; }));
  REQUIRE(t.snapshot().message_revision == 0);  // not refused
}

}  // namespace

TEST_CASE("simulation thread: edits between pauses go into the timeline, and the saved scene replays the run",
          "[threading][timeline]") {
  SimulationThread t(magnet_scene(), "session", /*start_running=*/false);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  t.push(StepOnce{50});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 50; }));
  edit_and_wait(t, 1, [](Preset& p) { p.field.strength = 2e-2; });

  // Run freely, pause wherever the thread happens to be, and edit there (twice at that step).
  t.push(SetRunning{true});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.running && s.step > 60; }));
  t.push(SetRunning{false});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return !s.running; }));
  const std::int64_t paused_at = t.snapshot().step;
  edit_and_wait(t, 2, [](Preset& p) { p.materials[0].friction = 0.1; });
  edit_and_wait(t, 3, [](Preset& p) { p.environment.translational_damping = 0.2; });
  CHECK(t.snapshot().step == paused_at);
  t.push(StepOnce{40});
  const std::int64_t end = paused_at + 40;
  REQUIRE(wait_until(t, [end](const Snapshot& s) { return s.step == end; }));
  t.push(CaptureFrame{7});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.frame_request == 7 && s.frame; }));
  const Snapshot& s = t.snapshot();
  REQUIRE(s.scene);
  const Preset& doc = *s.scene;

  // The document: the scene as loaded, plus the three changes at their steps.
  CHECK(doc.field.strength == 5e-3);
  CHECK(doc.materials[0].friction == 0.4);
  REQUIRE(doc.timeline.size() == 3);
  CHECK(doc.timeline[0].step == 50);
  CHECK(doc.timeline[0].set == json::object({{"field.strength", 2e-2}}));
  CHECK(doc.timeline[1].step == static_cast<std::uint64_t>(paused_at));
  CHECK(doc.timeline[1].set == json::object({{"materials.0.friction", 0.1}}));
  CHECK(doc.timeline[2].step == static_cast<std::uint64_t>(paused_at));
  CHECK(doc.timeline[2].set == json::object({{"environment.translational_damping", 0.2}}));

  // Saved, loaded and run headless for as many steps: the same particles, bit for bit.
  Session replay(parse_preset(preset_to_text(doc), "saved session"));
  replay.run(end);
  REQUIRE(replay.state().health.ok);
  const FrameFields& frame = *s.frame;
  CHECK(frame.step == end);
  CHECK(same_bits(replay.state().particles.position, frame.position));
  CHECK(same_bits(replay.state().particles.velocity, frame.velocity));
  CHECK(same_bits(replay.state().particles.orientation, frame.orientation));
  CHECK(same_bits(replay.state().particles.angular_velocity, frame.angular_velocity));
}

TEST_CASE("simulation thread: a loaded session replays its timeline, a reset keeps the parameters in force",
          "[threading][timeline]") {
  Preset session = magnet_scene();
  session.timeline = {TimelineEntry{5, json::object({{"field.strength", "20 mT"}})},
                      TimelineEntry{500, json::object({{"materials.0.friction", 0.1}})}};
  SimulationThread t(session, "session.json", /*start_running=*/false);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  CHECK(t.snapshot().in_force->field.strength == 5e-3);
  t.push(StepOnce{10});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 10; }));
  CHECK(t.snapshot().in_force->field.strength == Approx(0.02));  // replayed at step 5
  CHECK(t.snapshot().field.norm() == Approx(0.02).epsilon(1e-12));
  edit_and_wait(t, 1, [](Preset& p) { p.environment.rotational_damping = 0.3; });
  CHECK(t.snapshot().scene->timeline.size() == 3);  // the edit went between the two entries
  CHECK(t.snapshot().scene->timeline[1].step == 10);

  // Reset: the applied changes become the scene's parameters, the one not reached stays.
  t.push(ResetScene{});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 0 && s.scene->timeline.size() == 1; }));
  const Preset& doc = *t.snapshot().scene;
  CHECK(doc.field.strength == Approx(0.02));
  CHECK(doc.environment.rotational_damping == 0.3);
  CHECK(doc.timeline[0].step == 500);
  CHECK(t.snapshot().in_force->materials[0].friction == 0.4);
}
