// Session: hands on the particles (engine/bodies/touch.hpp, issue 22). Each touch applies between steps and is
// recorded as a touch entry of the timeline (engine/scene/touch_actions.hpp), so that a saved session replays it.

#include "engine/bodies/clumps.hpp"
#include "engine/bodies/generator.hpp"
#include "engine/bodies/touch.hpp"
#include "engine/session/session.hpp"
#include "engine/session/session_parts.hpp"

#include <algorithm>
#include <limits>

namespace lodestone {

using session_detail::format_number;

namespace {

std::string millimetre_text(double metres) {
  return format_number(1e3 * metres) + " mm";
}

std::string point_text(const Vec3& x) {
  return "(" + format_number(1e3 * x.x()) + ", " + format_number(1e3 * x.y()) + ", " + format_number(1e3 * x.z()) +
         ") mm";
}

std::string material_name_list(const std::vector<Material>& materials) {
  std::string out;
  for (const Material& m : materials) out += (out.empty() ? "" : ", ") + m.name;
  return out;
}

}  // namespace

std::uint64_t Session::next_particle_id() const {
  std::uint64_t next = id_floor_;
  for (std::uint64_t id : state().particles.id) next = std::max(next, id + 1);
  // Adds of a loaded session still to come keep their ids.
  for (const TimelineEntry& e : document_.timeline) {
    if (e.touch.contains("add") && e.touch["add"].contains("id") && e.touch["add"]["id"].is_number_unsigned())
      next = std::max(next, e.touch["add"]["id"].get<std::uint64_t>() + 1);
    if (e.touch.contains("add_clump")) {
      const TouchAction a = read_touch(e.touch, "$.timeline");
      next = std::max(next, a.id + clump_spheres(in_force_, a.clump).size());
    }
  }
  return next;
}

// [SECTION] The checks a touch makes before it changes anything

// A sphere at x of radius r must lie inside the box (under the lid) and touch no other particle.
void Session::check_place(const Vec3& x, double r, const std::string& at) const {
  const Particles& p = state().particles;
  if (const int axis = in_force_.box.axis_outside(x, r); axis >= 0)
    throw PresetError(at, "a sphere of radius " + millimetre_text(r) + " at " + point_text(x) +
                              " is not inside the box along " + "xyz"[axis] + ": its centre must lie from " +
                              millimetre_text(in_force_.box.min[axis] + r) + " to " +
                              millimetre_text(in_force_.box.max[axis] - r));
  if (state().lid_placed && x.z() + r > state().lid_height)
    throw PresetError(at, "a sphere of radius " + millimetre_text(r) + " at " + point_text(x) +
                              " would be above the lid (at z = " + millimetre_text(state().lid_height) + ")");
  if (const long j = first_overlap(model(), p, x, r, kAddOverlapTolerance); j >= 0) {
    const auto k = static_cast<size_t>(j);
    throw PresetError(at, "a sphere of radius " + millimetre_text(r) + " at " + point_text(x) +
                              " would overlap particle " + std::to_string(p.id[k]) + " (centres " +
                              millimetre_text(minimum_image(model(), x - p.position[k]).norm()) + " apart, radii " +
                              millimetre_text(r + p.radius[k]) + "); choose another point or a smaller radius");
  }
}

void Session::check_material(const std::string& name, const std::string& at) const {
  if (material_index(in_force_.materials, name) < 0)
    throw PresetError(at, "no material named '" + name + "'; materials: " + material_name_list(in_force_.materials));
}

// Ids first .. first + count - 1 must be free.
void Session::check_free_ids(std::uint64_t first, size_t count, const std::string& at) const {
  for (std::uint64_t id : state().particles.id)
    if (id >= first && id < first + count)
      throw PresetError(at, "particle id " + std::to_string(id) + " is in use; the next free id is " +
                                std::to_string(next_particle_id()));
}

PresetError Session::no_such_particle(std::uint64_t id, const std::string& at) const {
  return PresetError(at, "no particle has id " + std::to_string(id) + " (the scene has " +
                             std::to_string(state().particles.size()) + " particles)");
}

// [SECTION] A touch applied, one function per kind

std::string Session::apply_touch(const TouchAction& a, const std::string& where) {
  switch (a.kind) {
    case TouchKind::Drag: return touch_drag(a, where);
    case TouchKind::Release: return touch_release(where);
    case TouchKind::Add: return touch_add(a, where + ".add");
    case TouchKind::AddClump: return touch_add_clump(a, where + ".add_clump");
    case TouchKind::Delete: return touch_delete(a, where);
    case TouchKind::Hold: return touch_hold(a, where);
    case TouchKind::Go: return touch_go(where);
  }
  return {};
}

// [SECTION] Go: a hand on the protocol (a teacher's "switch the field on")

bool Session::phase_waits() const {
  return !document_.protocol.empty() && !state().protocol_finished &&
         !document_.protocol[static_cast<size_t>(current_phase())].wait.empty();
}

bool Session::go_pending() const {
  const std::vector<TimelineEntry>& timeline = document_.timeline;
  for (size_t k = entry_phases_.size(); k < timeline.size(); ++k)
    if (timeline[k].touch.contains("go")) return true;
  return false;
}

std::string Session::touch_go(const std::string& where) {
  if (document_.protocol.empty())
    throw PresetError(where + ".go", "the scene has no protocol, so there is no waiting phase to end");
  const int k = current_phase();
  const ProtocolPhase& phase = document_.protocol[static_cast<size_t>(k)];
  const std::string name = "phase " + std::to_string(k + 1) + " '" + phase.name + "'";
  if (state().protocol_finished) throw PresetError(where + ".go", "the protocol has finished; nothing waits");
  if (phase.wait.empty())
    throw PresetError(where + ".go", name + " does not wait (only a phase with a \"wait\" button ends at go)");
  if (k + 1 >= phase_count()) {
    sim_.edit_state().protocol_finished = true;
    return "ended " + name + ", the last: the protocol has finished";
  }
  start_phase(k + 1);  // a phase that cannot start stops the run with the reason, as at its duration
  return "ended " + name + "; now phase " + std::to_string(k + 2) + " '" +
         document_.protocol[static_cast<size_t>(k + 1)].name + "'";
}

std::string Session::go() {
  TouchAction a;
  a.kind = TouchKind::Go;
  touch(a, /*undoable=*/false);
  return protocol_finished() ? "went on: the protocol has finished" : "went on: now phase " + phase_label();
}

std::string Session::touch_drag(const TouchAction& a, const std::string& where) {
  State& s = sim_.edit_state();
  const long i = index_of_id(s.particles, a.id);
  if (i < 0) throw no_such_particle(a.id, where + ".drag.id");
  if (s.drag.active && s.drag.particle_id != a.id)
    throw PresetError(where + ".drag.id", "particle " + std::to_string(s.drag.particle_id) +
                                              " is being dragged; release it before taking particle " +
                                              std::to_string(a.id));
  if (!s.drag.active) {
    const Vec3 pending = s.drag.particle_id == a.id ? s.drag.force : Vec3::Zero();  // released at this step
    s.drag = DragSpring{};
    s.drag.force = pending;
    s.drag.active = true;
    s.drag.particle_id = a.id;
    s.drag.anchor = s.particles.position[static_cast<size_t>(i)];
  }
  s.drag.target = a.target;
  s.drag.stiffness = a.stiffness;
  s.drag.damping = a.damping;
  return describe_touch(a);
}

std::string Session::touch_release(const std::string& where) {
  State& s = sim_.edit_state();
  if (!s.drag.active) throw PresetError(where + ".release", "no drag is active: nothing to release");
  s.drag.active = false;  // its last force is booked by the next force pass (engine/bodies/touch.cpp)
  return "released particle " + std::to_string(s.drag.particle_id);
}

std::string Session::touch_add(const TouchAction& a, const std::string& at) {
  check_free_ids(a.id, 1, at + ".id");
  check_material(a.particle.material.empty() ? in_force_.particles.material : a.particle.material, at + ".material");
  check_place(a.particle.position, a.particle.radius, at + ".position");
  State& s = sim_.edit_state();
  const size_t n = s.particles.size();
  add_particle_entry(in_force_, a.particle, a.id, s.particles);
  for (std::vector<Vec3>* per_particle : {&s.damping_force, &s.damping_torque})
    if (per_particle->size() == n) per_particle->push_back(Vec3::Zero());
  id_floor_ = std::max(id_floor_, a.id + 1);
  sim_.reinitialize();
  return describe_touch(a);
}

std::string Session::touch_add_clump(const TouchAction& a, const std::string& at) {
  if (model().integrator.scheme == IntegratorScheme::OverdampedHeun)
    throw PresetError(at, "clumps move only under velocity Verlet; this scene runs the overdamped scheme");
  const std::string& clump_material = a.clump.material.empty() ? in_force_.particles.material : a.clump.material;
  check_material(clump_material, at + ".material");
  for (size_t k = 0; k < a.clump.pebbles.size(); ++k)
    if (!a.clump.pebbles[k].material.empty())
      check_material(a.clump.pebbles[k].material, at + ".pebbles[" + std::to_string(k) + "].material");
  if (a.clump.shape == ClumpShape::List && a.clump.pebbles.empty())
    throw PresetError(at + ".pebbles", "a list clump needs at least one pebble");
  const std::vector<std::pair<Vec3, double>> spheres = clump_spheres(in_force_, a.clump);
  check_free_ids(a.id, spheres.size(), at + ".first_id");
  for (const auto& [x, r] : spheres) check_place(x, r, at + ".position");
  State& s = sim_.edit_state();
  const size_t n = s.particles.size();
  lodestone::add_clump(in_force_, a.clump, a.id, s);
  for (std::vector<Vec3>* per_particle : {&s.damping_force, &s.damping_torque})
    if (per_particle->size() == n) per_particle->resize(s.particles.size(), Vec3::Zero());
  id_floor_ = std::max(id_floor_, a.id + spheres.size());
  sim_.reinitialize();
  return describe_touch(a);
}

std::string Session::touch_delete(const TouchAction& a, const std::string& where) {
  const Particles& p = state().particles;
  const long i = index_of_id(p, a.id);
  if (i < 0) throw no_such_particle(a.id, where + ".delete.id");
  const int clump = p.clump[static_cast<size_t>(i)];
  const auto going = clump < 0 ? size_t{1} : static_cast<size_t>(std::count(p.clump.begin(), p.clump.end(), clump));
  if (going == p.size())
    throw PresetError(where + ".delete.id", "particle " + std::to_string(a.id) +
                                                " is all that is left of the scene; a scene keeps one body at least");
  const Removal removal = remove_body(sim_.edit_state(), a.id);
  for (std::uint64_t id : removal.ids) id_floor_ = std::max(id_floor_, id + 1);
  sim_.reinitialize();
  std::string text = removal.clump ? "deleted the clump of particle " + std::to_string(a.id) + " (" +
                                         std::to_string(removal.ids.size()) + " pebbles)"
                                   : "deleted particle " + std::to_string(a.id);
  if (removal.broken_bonds > 0)
    text += ": " + std::to_string(removal.broken_bonds) + (removal.broken_bonds == 1 ? " bond" : " bonds") + " broken";
  return text;
}

std::string Session::touch_hold(const TouchAction& a, const std::string& where) {
  State& s = sim_.edit_state();
  Particles& p = s.particles;
  const long found = index_of_id(p, a.id);
  if (found < 0) throw no_such_particle(a.id, where + ".hold.id");
  const auto i = static_cast<size_t>(found);
  if (p.clump[i] >= 0 && a.hold != HoldKind::None)
    throw PresetError(where + ".hold.id", "particle " + std::to_string(a.id) +
                                              " is a pebble of a magnet made of spheres (a clump); only free spheres "
                                              "can be held still");
  p.hold[i] = static_cast<std::uint8_t>(a.hold);
  // Holding a moving particle takes the kinetic energy of the held motion: a source term of the balance.
  if (p.holds_position(i)) {
    s.energy.hold_work -= 0.5 * p.mass[i] * p.velocity[i].squaredNorm();
    p.velocity[i].setZero();
  }
  if (p.holds_orientation(i)) {
    s.energy.hold_work -= 0.5 * p.inertia[i] * p.angular_velocity[i].squaredNorm();
    p.angular_velocity[i].setZero();
  }
  return describe_touch(a);
}

// [SECTION] Touches as edits: recorded, undone, redone

std::optional<TouchAction> Session::inverse_of(const TouchAction& a) const {
  TouchAction out;
  switch (a.kind) {
    case TouchKind::Drag:
    case TouchKind::Release:
    case TouchKind::Go: return std::nullopt;
    case TouchKind::Hold: {  // the hold it has now (the motion it had is not given back)
      const long held = index_of_id(state().particles, a.id);
      if (held < 0) return std::nullopt;
      out.kind = TouchKind::Hold;
      out.id = a.id;
      out.hold = static_cast<HoldKind>(state().particles.hold[static_cast<size_t>(held)]);
      return out;
    }
    case TouchKind::Add:
    case TouchKind::AddClump:
      out.kind = TouchKind::Delete;
      out.id = a.id;
      return out;
    case TouchKind::Delete: break;
  }
  const Particles& p = state().particles;
  const long found = index_of_id(p, a.id);
  if (found < 0) return std::nullopt;
  const auto i = static_cast<size_t>(found);
  const int clump = p.clump[i];
  auto material_name = [&](size_t k) { return in_force_.materials[static_cast<size_t>(p.material[k])].name; };
  if (clump < 0) {  // the particle as it is now
    out.kind = TouchKind::Add;
    out.id = a.id;
    out.particle.position = p.position[i];
    out.particle.radius = p.radius[i];
    out.particle.velocity = p.velocity[i];
    out.particle.angular_velocity = p.angular_velocity[i];
    out.particle.axis = p.easy_axis(i).normalized();
    out.particle.material = material_name(i);
    out.particle.moment = p.moment_body[i].norm();
    out.particle.fixed = static_cast<HoldKind>(p.hold[i]);
    return out;
  }
  // The clump as it is now: its pebbles as a list around its centre of mass, in the world frame.
  const Clumps& c = state().clumps;
  const auto k = static_cast<size_t>(clump);
  out.kind = TouchKind::AddClump;
  out.id = std::numeric_limits<std::uint64_t>::max();
  out.clump.shape = ClumpShape::List;
  out.clump.position = c.position[k];
  out.clump.axis = Vec3::UnitZ();
  out.clump.velocity = c.velocity[k];
  out.clump.angular_velocity = c.angular_velocity(k);
  out.clump.material = material_name(i);
  for (size_t j = 0; j < p.size(); ++j) {
    if (p.clump[j] != clump) continue;
    out.id = std::min(out.id, p.id[j]);
    ClumpPebble b;
    b.offset = minimum_image(model(), p.position[j] - c.position[k]);
    b.radius = p.radius[j];
    b.axis = p.easy_axis(j).normalized();
    b.material = material_name(j);
    b.moment = p.moment_body[j].norm();
    out.clump.pebbles.push_back(b);
  }
  return out;
}

TouchAction Session::with_free_ids(TouchAction a) const {
  if (a.kind != TouchKind::Add && a.kind != TouchKind::AddClump) return a;
  const std::uint64_t count = a.kind == TouchKind::Add ? 1 : clump_spheres(in_force_, a.clump).size();
  for (std::uint64_t id : state().particles.id)
    if (id >= a.id && id < a.id + count) {
      a.id = next_particle_id();
      break;
    }
  return a;
}

std::optional<EditRecord> Session::touch(const TouchAction& action, bool undoable) {
  // A run stopped by a failed check goes on from its last good state, with the touch (deleting the
  // particle that blew up is a fix).
  if (!state().health.ok && history_ && history_->at_or_before(state().step)) {
    restore_point(*history_->at_or_before(state().step));
    apply_due_entries();
  }
  std::optional<EditRecord> record;
  std::optional<TouchAction> inverse;
  if (undoable) {
    record.emplace();
    record->before_point = std::make_shared<const SessionPoint>(point());
    inverse = inverse_of(action);
  }
  const std::string description = apply_touch(action, "touch");  // throws, changing nothing
  start_branch_here();
  const std::int64_t now = state().step;
  std::vector<TimelineEntry>& timeline = document_.timeline;
  const size_t index = entry_phases_.size();
  const json written = write_touch(action);
  // A moving drag makes one entry per step: the last target at a step is the one the step sees.
  const bool merge = action.kind == TouchKind::Drag && index > 0 &&
                     static_cast<std::int64_t>(timeline[index - 1].step) == now &&
                     timeline[index - 1].touch.contains("drag") &&
                     timeline[index - 1].touch["drag"].value("id", json(-1)) == written["drag"]["id"];
  if (merge) {
    timeline[index - 1].touch = written;
  } else {
    // Entries a stopped run did not reach by now would come out of order: the run never made them.
    timeline.erase(std::remove_if(timeline.begin() + static_cast<std::ptrdiff_t>(index), timeline.end(),
                                  [now](const TimelineEntry& e) { return static_cast<std::int64_t>(e.step) < now; }),
                   timeline.end());
    TimelineEntry entry;
    entry.step = static_cast<std::uint64_t>(now);
    entry.touch = written;
    timeline.insert(timeline.begin() + static_cast<std::ptrdiff_t>(index), std::move(entry));
    entry_phases_.push_back(current_phase());
  }
  if (!record) return std::nullopt;
  record->description = description;
  record->step = now;
  record->touch = written;
  record->timeline_entry = merge ? index - 1 : index;
  if (inverse) record->undo_touch = write_touch(*inverse);
  return record;
}

std::string Session::drag(std::uint64_t particle_id, const Vec3& target, double relative_stiffness) {
  if (!(relative_stiffness >= kDragMinScale && relative_stiffness <= kDragMaxScale))
    throw PresetError("drag.stiffness", "relative stiffness " + format_number(relative_stiffness) +
                                            " is out of the allowed range [" + format_number(kDragMinScale) + ", " +
                                            format_number(kDragMaxScale) + "] (1: the default feel)");
  if (!target.allFinite()) throw PresetError("drag.target", "the target must be a finite point");
  const long i = index_of_id(state().particles, particle_id);
  if (i < 0)
    throw PresetError("drag.id", "no particle has id " + std::to_string(particle_id) + " (the scene has " +
                                     std::to_string(state().particles.size()) + " particles)");
  const DragConstants k = drag_constants(model(), state(), static_cast<size_t>(i), relative_stiffness);
  TouchAction a;
  a.kind = TouchKind::Drag;
  a.id = particle_id;
  a.target = target;
  a.stiffness = k.stiffness;
  a.damping = k.damping;
  // The grab is the pull's one undo record (the moves and the release are not): undone, the run goes back
  // to before it.
  const bool grab = !state().drag.active;
  std::optional<EditRecord> record = touch(a, /*undoable=*/grab);
  if (record) {
    record->description = "pull of particle " + std::to_string(particle_id);
    record->goes_back = true;
    undo_.record(std::move(*record));
  }
  return describe_touch(a);
}

std::string Session::release() {
  const std::string id = std::to_string(state().drag.particle_id);
  if (state().drag.active && let_go_where_grabbed()) return "released particle " + id + " (no step felt the pull)";
  TouchAction a;
  a.kind = TouchKind::Release;
  touch(a, /*undoable=*/false);
  return "released particle " + id;
}

bool Session::let_go_where_grabbed() {
  // A pull let go at the step it began (the run paused, its moves merged into the grab's entry) did nothing: it
  // leaves no timeline entry and no undo record, as if the hand had never come (before, a Ctrl+drag while paused
  // recorded a drag and a release that no step felt, and an undo that did nothing).
  const EditRecord* grab = undo_.next_undo();
  if (!grab || !grab->goes_back || !grab->before_point || grab->step != state().step || !grab->timeline_entry ||
      *grab->timeline_entry + 1 != entry_phases_.size() || !state().health.ok)
    return false;
  back_to_before(*undo_.take_undo());
  return true;
}

std::string Session::add_particle(const ParticleEntry& entry) {
  TouchAction a;
  a.kind = TouchKind::Add;
  a.id = next_particle_id();
  a.particle = entry;
  std::optional<EditRecord> record = touch(a, /*undoable=*/true);
  const std::string description = record->description;
  undo_.record(std::move(*record));
  return description;
}

std::string Session::add_copy(std::uint64_t of_id, const Vec3& position) {
  const Particles& p = state().particles;
  const long found = index_of_id(p, of_id);
  if (found < 0)
    throw PresetError("add.copy", "no particle has id " + std::to_string(of_id) + " (the scene has " +
                                      std::to_string(p.size()) + " particles)");
  const auto i = static_cast<size_t>(found);
  ParticleEntry e;
  e.position = position;
  e.radius = p.radius[i];
  e.axis = p.easy_axis(i).normalized();
  e.material = in_force_.materials[static_cast<size_t>(p.material[i])].name;
  e.moment = p.moment_body[i].norm();
  return add_particle(e);
}

std::string Session::add_clump(const ClumpEntry& entry) {
  TouchAction a;
  a.kind = TouchKind::AddClump;
  a.id = next_particle_id();
  a.clump = entry;
  std::optional<EditRecord> record = touch(a, /*undoable=*/true);
  const std::string description = record->description;
  undo_.record(std::move(*record));
  return description;
}

std::string Session::hold(std::uint64_t particle_id, HoldKind what) {
  TouchAction a;
  a.kind = TouchKind::Hold;
  a.id = particle_id;
  a.hold = what;
  std::optional<EditRecord> record = touch(a, /*undoable=*/true);
  const std::string description = record->description;
  undo_.record(std::move(*record));
  return description;
}

std::string Session::delete_body(std::uint64_t particle_id) {
  TouchAction a;
  a.kind = TouchKind::Delete;
  a.id = particle_id;
  std::optional<EditRecord> record = touch(a, /*undoable=*/true);
  const std::string description = record->description;
  undo_.record(std::move(*record));
  return description;
}

}  // namespace lodestone
