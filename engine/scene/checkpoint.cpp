#include "engine/scene/checkpoint.hpp"

#include "engine/core/version.hpp"
#include "engine/scene/atomic_file.hpp"
#include "engine/scene/document.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unordered_set>
#include <variant>

namespace lodestone {
namespace {

static_assert(std::endian::native == std::endian::little, "checkpoints store little-endian values as in memory");
static_assert(std::is_same_v<size_t, std::uint64_t>, "size_t fields (the event log's slot) are stored as 64 bits");

constexpr char kMagic[] = "LODESTONE-CHECKPOINT\n";
constexpr size_t kMagicSize = sizeof(kMagic) - 1;
constexpr std::uint32_t kByteOrderMark = 0x01020304u;
constexpr std::uint32_t kOldestReadableVersion = 4;  // read without the drag spring (5)

// A field added to one of these structs must be listed in its fields() below (and the format
// version raised): these sizes fail to compile until it is.
static_assert(sizeof(ContactHistory) == 80, "ContactHistory changed: update fields(ContactHistory) in checkpoint.cpp");
static_assert(sizeof(Particles) == 18 * sizeof(std::vector<double>), "Particles changed: update checkpoint.cpp");
static_assert(sizeof(Clumps) == 10 * sizeof(std::vector<double>), "Clumps changed: update checkpoint.cpp");
static_assert(sizeof(EnergyLedger) == 10 * sizeof(double), "EnergyLedger changed: update checkpoint.cpp");
static_assert(sizeof(DragSpring) == 8 + 8 + 3 * sizeof(Vec3) + 2 * sizeof(double),
              "DragSpring changed: update checkpoint.cpp");

std::uint64_t fnv1a(const char* data, size_t size) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 0x100000001b3ull;
  }
  return h;
}

template <class T, class U>
concept Is = std::same_as<std::remove_const_t<T>, U>;

// [SECTION] The field lists: written and read by the same functions, so the two cannot drift.

static_assert(sizeof(RollingHistory) == 9 * sizeof(double), "RollingHistory changed: update checkpoint.cpp");
static_assert(sizeof(SandPointers) == 12 * sizeof(double), "SandPointers changed: update checkpoint.cpp");
static_assert(std::variant_size_v<LawState> == 3, "LawState changed: update checkpoint.cpp");

template <class A, Is<RollingHistory> H>
void fields(A& a, H& h) {
  a(h.rolling), a(h.twisting), a(h.dashpot_couple), a(h.rolling_stiffness), a(h.twisting_stiffness);
}
template <class A, Is<SandPointers> P>
void fields(A& a, P& p) {
  a(p.p1), a(p.p2), a(p.q1), a(p.q2);
}
template <class A, Is<ContactHistory> H>
void fields(A& a, H& h) {
  a(h.shear), a(h.normal_force), a(h.gap), a(h.dashpot_force), a(h.shear_stiffness), a(h.active), a(h.slipping);
}
// A table of histories and the law states beside it (empty when the law keeps none) as files have always held them:
// each record followed by its law state (std::monostate when there is none). Read, the law states are kept only
// when some record has one.
template <class Records, class Laws>
struct HistoryTable {
  Records& records;
  Laws& laws;
};
template <class Records, class Laws>
HistoryTable<Records, Laws> history_table(Records& records, Laws& laws) {
  return {records, laws};
}
template <class A, Is<IndexPair> P>
void fields(A& a, P& p) {
  a(p.i), a(p.j);
}
template <class A, Is<Event> E>
void fields(A& a, E& e) {
  a(e.step), a(e.kind), a(e.id_a), a(e.id_b);
}
template <class A, Is<Particles> P>
void fields(A& a, P& p) {
  a(p.position), a(p.velocity), a(p.orientation), a(p.angular_velocity), a(p.force), a(p.torque), a(p.radius),
      a(p.mass), a(p.inertia), a(p.material), a(p.easy_axis_body), a(p.moment_body), a(p.moment), a(p.id), a(p.clump),
      a(p.clump_offset);
  if (a.version >= 9) a(p.hold);
  if (a.version >= 10) a(p.image);
}
template <class A, Is<Clumps> C>
void fields(A& a, C& c) {
  a(c.position), a(c.velocity), a(c.orientation), a(c.angular_momentum), a(c.force), a(c.torque), a(c.mass),
      a(c.inertia), a(c.id);
  if (a.version >= 10) a(c.image);
}
template <class A, Is<NeighborLists> L>
void fields(A& a, L& l) {
  a(l.contact_pairs), a(history_table(l.contact_history, l.contact_law)), a(l.dipole_pairs), a(l.reference_position),
      a(l.valid), a(l.builds);
}
template <class A, Is<EnergyLedger> E>
void fields(A& a, E& e) {
  a(e.elastic), a(e.dipole), a(e.zeeman), a(e.dissipated_friction), a(e.dissipated_dashpot), a(e.dissipated_viscous),
      a(e.field_work), a(e.stiffness_work);
  if (a.version >= 5) a(e.drag_work);  // version 4 files: no drag, no drag work
  if (a.version >= 9) a(e.hold_work);  // version 4-8 files: nothing held
}
template <class A, Is<DragSpring> D>
void fields(A& a, D& d) {
  a(d.active), a(d.particle_id), a(d.target), a(d.stiffness), a(d.damping), a(d.force), a(d.anchor);
}
template <class A, Is<EventLog> L>
void fields(A& a, L& l) {
  a(l.count), a(l.recent), a(l.next_slot);
}
template <class A, Is<Health> H>
void fields(A& a, H& h) {
  a(h.ok), a(h.message), a(h.particle_id);
}
static_assert(sizeof(DipoleHistory) == 2 * sizeof(int) + 4 * sizeof(double) + 4 * sizeof(std::vector<Vec3>),
              "DipoleHistory changed: update checkpoint.cpp");
template <class A, Is<DipoleHistory> H>
void fields(A& a, H& h) {
  a(h.stored), a(h.passes_since_full), a(h.time_previous), a(h.time_last), a(h.energy_previous), a(h.energy_last),
      a(h.force_previous), a(h.force_last), a(h.torque_previous), a(h.torque_last);
}
static_assert(sizeof(Bond) == 2 * sizeof(std::uint64_t) + 2 * sizeof(int) + 2 * sizeof(double) + 2 * sizeof(Quat) +
                                  sizeof(double) + 2 * sizeof(Vec3),
              "Bond changed: update fields(Bond) in checkpoint.cpp");
template <class A, Is<Bond> B>
void fields(A& a, B& b) {
  a(b.id_a), a(b.id_b), a(b.a), a(b.b), a(b.rest_length), a(b.radius), a(b.frame_a), a(b.frame_b), a(b.broken),
      a(b.damping_force), a(b.damping_couple);
}
template <class A, Is<State> S>
void fields(A& a, S& s) {
  a(s.particles), a(s.neighbors), a(history_table(s.wall_history, s.wall_law)), a(s.time), a(s.step), a(s.energy),
      a(s.events), a(s.health), a(s.total_moment), a(s.damping_force), a(s.damping_torque), a(s.forces_current),
      a(s.wall_force), a(s.lid_height), a(s.lid_velocity), a(s.lid_placed), a(s.phase), a(s.phase_start_time),
      a(s.protocol_finished), a(s.overlaps_expected), a(s.last_time_step), a(s.alignment_time), a(s.dipole_history),
      a(s.bonds), a(s.broken_bonds), a(s.clumps);
  if (a.version >= 5) a(s.drag);
  if (a.version >= 8) a(s.model_change_pending);
}

// [SECTION] Writer

class Writer {
 public:
  std::string bytes;
  std::uint32_t version = kCheckpointVersion;

  void raw(const void* data, size_t size) { bytes.append(static_cast<const char*>(data), size); }
  void operator()(double v) { raw(&v, sizeof v); }
  void operator()(std::int64_t v) { raw(&v, sizeof v); }
  void operator()(std::uint64_t v) { raw(&v, sizeof v); }
  void operator()(std::uint32_t v) { raw(&v, sizeof v); }
  void operator()(int v) { (*this)(static_cast<std::int64_t>(v)); }
  void operator()(bool v) { bytes.push_back(v ? 1 : 0); }
  void operator()(std::uint8_t v) { bytes.push_back(static_cast<char>(v)); }
  void operator()(EventKind k) { (*this)(static_cast<int>(k)); }
  void operator()(const Vec3& v) { raw(v.data(), 3 * sizeof(double)); }
  void operator()(const Quat& q) { (*this)(q.w()), (*this)(q.x()), (*this)(q.y()), (*this)(q.z()); }
  void operator()(const std::string& s) {
    (*this)(static_cast<std::uint64_t>(s.size()));
    raw(s.data(), s.size());
  }
  void operator()(const std::optional<double>& v) {
    (*this)(v.has_value());
    if (v) (*this)(*v);
  }
  template <class T>
  void operator()(const std::vector<T>& v) {
    (*this)(static_cast<std::uint64_t>(v.size()));
    for (const T& e : v) (*this)(e);
  }
  template <class T, size_t N>
  void operator()(const std::array<T, N>& v) {
    for (const T& e : v) (*this)(e);
  }
  // The alternative's index, then its fields (std::monostate has none).
  template <class... T>
  void operator()(const std::variant<T...>& v) {
    (*this)(static_cast<int>(v.index()));
    std::visit([this](const auto& alternative) { (*this)(alternative); }, v);
  }
  void operator()(std::monostate) {}
  template <class Records, class Laws>
  void operator()(const HistoryTable<Records, Laws>& t) {
    (*this)(static_cast<std::uint64_t>(t.records.size()));
    const bool laws = t.laws.size() == t.records.size();
    for (size_t k = 0; k < t.records.size(); ++k) {
      (*this)(t.records[k]);
      (*this)(laws ? t.laws[k] : LawState{});
    }
  }
  template <class T>
  void operator()(const T& s) requires requires(Writer& w) {
    fields(w, s);
  }
  { fields(*this, s); }
};

// [SECTION] Reader: every read is bounds-checked; lengths are checked against the bytes left before
// anything is allocated (each element takes at least one byte).

class Reader {
 public:
  Reader(const char* data, size_t size) : data_(data), left_(size) {}
  std::uint32_t version = kCheckpointVersion;  // of the file: older versions lack the later fields
  size_t left() const { return left_; }

  void raw(void* out, size_t size, const char* what) {
    if (size > left_) fail(std::string("the file ends inside ") + what + " (truncated?)");
    std::memcpy(out, data_, size);
    data_ += size;
    left_ -= size;
  }
  void operator()(double& v) { raw(&v, sizeof v, "a number"); }
  void operator()(std::int64_t& v) { raw(&v, sizeof v, "an integer"); }
  void operator()(std::uint64_t& v) { raw(&v, sizeof v, "an integer"); }
  void operator()(std::uint32_t& v) { raw(&v, sizeof v, "an integer"); }
  void operator()(int& v) {
    std::int64_t wide = 0;
    (*this)(wide);
    if (wide < INT32_MIN || wide > INT32_MAX) fail("an index out of range: " + std::to_string(wide));
    v = static_cast<int>(wide);
  }
  void operator()(bool& v) {
    unsigned char byte = 0;
    raw(&byte, 1, "a flag");
    if (byte > 1) fail("a flag byte is " + std::to_string(byte) + ", not 0 or 1");
    v = byte == 1;
  }
  void operator()(std::uint8_t& v) { raw(&v, 1, "a byte"); }
  void operator()(EventKind& k) {
    int v = 0;
    (*this)(v);
    if (v < 0 || v >= kEventKinds)
      fail("an event kind " + std::to_string(v) + " is not 0 to " + std::to_string(kEventKinds - 1));
    k = static_cast<EventKind>(v);
  }
  void operator()(Vec3& v) { raw(v.data(), 3 * sizeof(double), "a vector"); }
  void operator()(Quat& q) {
    double w = 0, x = 0, y = 0, z = 0;
    (*this)(w), (*this)(x), (*this)(y), (*this)(z);
    q = Quat(w, x, y, z);
  }
  void operator()(std::string& s) {
    const size_t n = length();
    s.assign(data_, n);
    data_ += n;
    left_ -= n;
  }
  void operator()(std::optional<double>& v) {
    bool present = false;
    (*this)(present);
    v.reset();
    if (present) (*this)(v.emplace());
  }
  template <class T>
  void operator()(std::vector<T>& v) {
    v.resize(length());
    for (T& e : v) (*this)(e);
  }
  template <class T, size_t N>
  void operator()(std::array<T, N>& v) {
    for (T& e : v) (*this)(e);
  }
  template <class... T>
  void operator()(std::variant<T...>& v) {
    int index = 0;
    (*this)(index);
    if (index < 0 || index >= static_cast<int>(sizeof...(T)))
      fail("a contact law state " + std::to_string(index) + " is not 0 to " + std::to_string(sizeof...(T) - 1));
    emplace_index<0>(v, index);
  }
  void operator()(std::monostate&) {}
  void operator()(const HistoryTable<std::vector<ContactHistory>, std::vector<LawState>>& t) {
    t.records.resize(length());
    t.laws.clear();
    for (size_t k = 0; k < t.records.size(); ++k) {
      (*this)(t.records[k]);
      LawState law;
      (*this)(law);
      if (law.index() == 0) continue;
      if (t.laws.empty()) t.laws.resize(t.records.size());
      t.laws[k] = std::move(law);
    }
  }
  template <class T>
  void operator()(T& s) requires requires(Reader& r) {
    fields(r, s);
  }
  { fields(*this, s); }

  [[noreturn]] static void fail(const std::string& message) { throw CheckpointError(message); }

 private:
  template <size_t I, class... T>
  void emplace_index(std::variant<T...>& v, int index) {
    if constexpr (I < sizeof...(T)) {
      if (index == static_cast<int>(I)) {
        (*this)(v.template emplace<I>());
        return;
      }
      emplace_index<I + 1>(v, index);
    }
  }
  size_t length() {
    std::uint64_t n = 0;
    (*this)(n);
    if (n > left_)
      fail("a list claims " + std::to_string(n) + " entries but only " + std::to_string(left_) + " bytes follow");
    return static_cast<size_t>(n);
  }
  const char* data_;
  size_t left_;
};

// [SECTION] Consistency of a state read from a file

void check_state(const State& s) {
  const Particles& p = s.particles;
  const size_t n = p.size();
  auto fail = [](const std::string& m) { Reader::fail(m); };
  const size_t sizes[] = {p.velocity.size(),
                          p.orientation.size(),
                          p.angular_velocity.size(),
                          p.force.size(),
                          p.torque.size(),
                          p.radius.size(),
                          p.mass.size(),
                          p.inertia.size(),
                          p.material.size(),
                          p.easy_axis_body.size(),
                          p.moment_body.size(),
                          p.moment.size(),
                          p.id.size(),
                          p.clump.size(),
                          p.clump_offset.size(),
                          p.hold.size(),
                          p.image.size()};
  for (size_t m : sizes)
    if (m != n) fail("the particle arrays differ in length (" + std::to_string(m) + " and " + std::to_string(n) + ")");
  std::unordered_set<std::uint64_t> ids;
  for (size_t i = 0; i < n; ++i) {
    if (!(p.radius[i] > 0.0) || !(p.mass[i] > 0.0) || !(p.inertia[i] > 0.0) || !std::isfinite(p.radius[i]) ||
        !std::isfinite(p.mass[i]) || !std::isfinite(p.inertia[i]))
      fail("particle " + std::to_string(p.id[i]) + " has a radius, mass or inertia that is not positive and finite");
    if (!(std::abs(p.orientation[i].squaredNorm() - 1.0) < 1e-6))
      fail("particle " + std::to_string(p.id[i]) + " has an orientation that is not a unit quaternion");
    if (p.material[i] < 0) fail("particle " + std::to_string(p.id[i]) + " has a negative material index");
    if (p.hold[i] > 3 || (p.hold[i] != 0 && p.clump[i] >= 0))
      fail("particle " + std::to_string(p.id[i]) +
           " has a hold that is not one of none, position, orientation, both "
           "on a free sphere");
    if (!ids.insert(p.id[i]).second) fail("particle id " + std::to_string(p.id[i]) + " appears twice");
  }
  auto check_pairs = [&](const std::vector<IndexPair>& pairs, const char* what) {
    for (const IndexPair& pr : pairs)
      if (pr.i < 0 || pr.j < 0 || static_cast<size_t>(pr.i) >= n || static_cast<size_t>(pr.j) >= n || pr.i == pr.j)
        fail(std::string("a ") + what + " pair (" + std::to_string(pr.i) + ", " + std::to_string(pr.j) +
             ") is not two different particles of " + std::to_string(n));
  };
  const NeighborLists& l = s.neighbors;
  check_pairs(l.contact_pairs, "contact");
  check_pairs(l.dipole_pairs, "dipole");
  for (const Bond& b : s.bonds)
    if (b.a < 0 || b.b < 0 || static_cast<size_t>(b.a) >= n || static_cast<size_t>(b.b) >= n || b.a == b.b ||
        !(b.rest_length > 0.0))
      fail("a bond (" + std::to_string(b.a) + ", " + std::to_string(b.b) + ") is not two different particles of " +
           std::to_string(n) + " at a positive rest length");
  if (l.contact_history.size() != l.contact_pairs.size()) fail("contact history and contact pairs differ in length");
  if (l.valid && l.reference_position.size() != n)
    fail("the neighbour lists' reference positions are not one per particle");
  if (!s.wall_history.empty() && s.wall_history.size() != 6 * n)
    fail("wall contact history is neither empty (no walls) nor six entries per particle");
  if (s.events.recent.size() > EventLog::kRecentCapacity || s.events.next_slot >= EventLog::kRecentCapacity)
    fail("the event log is larger than its capacity");
  if (!s.damping_force.empty() && s.damping_force.size() != n) fail("damping forces are not one per particle");
  if (!s.damping_torque.empty() && s.damping_torque.size() != n) fail("damping torques are not one per particle");
  if (s.phase < 0) fail("the protocol phase is negative");
  const DipoleHistory& d = s.dipole_history;
  if (d.stored < 0 || d.stored > 2 || d.passes_since_full < 0) fail("the stored dipole passes are not 0, 1 or 2");
  const bool sizes_ok = (d.stored < 1 || (d.force_last.size() == n && d.torque_last.size() == n)) &&
                        (d.stored < 2 || (d.force_previous.size() == n && d.torque_previous.size() == n));
  if (!sizes_ok) fail("stored dipole forces are not one per particle");
  if (d.stored == 2 && !(d.time_last > d.time_previous)) fail("the stored dipole passes are not in time order");
  if (!std::isfinite(s.time)) fail("the time is not finite");
  const Clumps& c = s.clumps;
  const size_t clump_sizes[] = {c.velocity.size(), c.orientation.size(), c.angular_momentum.size(),
                                c.force.size(),    c.torque.size(),      c.mass.size(),
                                c.inertia.size(),  c.id.size(),          c.image.size()};
  for (size_t m : clump_sizes)
    if (m != c.size()) fail("the clump arrays differ in length");
  for (size_t k = 0; k < c.size(); ++k)
    if (!(c.mass[k] > 0.0) || !(c.inertia[k].minCoeff() > 0.0) ||
        !(std::abs(c.orientation[k].squaredNorm() - 1.0) < 1e-6))
      fail("clump " + std::to_string(k) + " has a mass or inertia that is not positive, or a bad orientation");
  for (size_t i = 0; i < n; ++i)
    if (p.clump[i] < -1 || p.clump[i] >= static_cast<int>(c.size()))
      fail("particle " + std::to_string(p.id[i]) + " names clump " + std::to_string(p.clump[i]) + " of " +
           std::to_string(c.size()));
}

}  // namespace

std::uint64_t checkpoint_checksum(const char* data, size_t size) {
  return fnv1a(data, size);
}

std::string checkpoint_to_bytes(const Preset& preset, const State& state) {
  Writer w;
  // Version 8 only adds State::model_change_pending, version 9 the holds, version 10 the image flags: without them,
  // the file is version 7's.
  const Particles& p = state.particles;
  const bool holds =
      state.energy.hold_work != 0.0 || std::any_of(p.hold.begin(), p.hold.end(), [](std::uint8_t h) { return h != 0; });
  const auto crossed = [](const std::vector<ImageFlags>& images) {
    return std::any_of(images.begin(), images.end(), [](const ImageFlags& f) { return f != ImageFlags{}; });
  };
  const bool images = crossed(p.image) || crossed(state.clumps.image);
  w.version = images ? 10 : holds ? 9 : state.model_change_pending ? 8 : 7;
  w.raw(kMagic, kMagicSize);
  w(w.version);
  w(kByteOrderMark);
  w(lodestone_version_line());  // version 6: which program wrote the file (metadata only)
  w(preset_to_text(preset));
  w(state);
  const std::uint64_t sum = fnv1a(w.bytes.data(), w.bytes.size());
  w(sum);
  return std::move(w.bytes);
}

Checkpoint checkpoint_from_bytes(const std::string& bytes) {
  if (bytes.size() < kMagicSize || bytes.compare(0, kMagicSize, kMagic) != 0)
    throw CheckpointError("not a Lodestone checkpoint (it does not start with LODESTONE-CHECKPOINT)");
  if (bytes.size() < kMagicSize + 8 + 8) throw CheckpointError("the file is too short to be a checkpoint (truncated?)");
  std::uint64_t stored_sum = 0;
  std::memcpy(&stored_sum, bytes.data() + bytes.size() - 8, 8);
  Reader r(bytes.data() + kMagicSize, bytes.size() - kMagicSize - 8);
  std::uint32_t version = 0, mark = 0;
  r(version);
  r(mark);
  if (mark != kByteOrderMark) throw CheckpointError("written on a machine with another byte order");
  if (version > static_cast<std::uint32_t>(kCheckpointVersion) || version < kOldestReadableVersion)
    throw CheckpointError("format version " + std::to_string(version) + "; this program reads versions " +
                          std::to_string(kOldestReadableVersion) + " to " + std::to_string(kCheckpointVersion));
  r.version = version;
  if (fnv1a(bytes.data(), bytes.size() - 8) != stored_sum)
    throw CheckpointError("the checksum does not match: the file is damaged or incomplete");
  Checkpoint out;
  if (version >= 6) r(out.written_by);
  std::string preset_text;
  r(preset_text);
  try {
    out.preset = parse_preset(preset_text, "the checkpoint's preset");
  } catch (const PresetError& e) {
    throw CheckpointError(std::string("its preset does not load: ") + e.what());
  }
  r(out.state);
  if (version < 9) out.state.particles.hold.assign(out.state.particles.size(), 0);
  if (version < 10) {  // older files: no periodic image crossed yet
    out.state.particles.image.assign(out.state.particles.size(), ImageFlags{});
    out.state.clumps.image.assign(out.state.clumps.size(), ImageFlags{});
  }
  if (r.left() != 0) throw CheckpointError(std::to_string(r.left()) + " unexpected bytes after the state");
  mark_active_contacts(out.state.neighbors);  // not stored: a copy of the histories' flags
  mark_active_walls(out.state);               // nor these
  if (version < 7 && out.preset.magnetics.method == DipoleMethod::P3M) out.state.neighbors.valid = false;
  check_state(out.state);
  mark_dipole_bands(out.state.neighbors, out.state.particles.size());  // not stored either: derived from the pairs
  for (int m : out.state.particles.material)
    if (static_cast<size_t>(m) >= out.preset.materials.size())
      throw CheckpointError("a particle has material index " + std::to_string(m) + " but the preset defines " +
                            std::to_string(out.preset.materials.size()));
  return out;
}

void save_checkpoint(const std::string& path, const Preset& preset, const State& state) {
  try {
    write_file_atomically(path, checkpoint_to_bytes(preset, state));
  } catch (const FileWriteError& e) {
    throw CheckpointError("cannot write the checkpoint " + path + ": " + e.reason());
  }
}

Checkpoint load_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CheckpointError("checkpoint " + path + ": cannot open the file for reading");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    return checkpoint_from_bytes(bytes);
  } catch (const CheckpointError& e) {
    throw CheckpointError("checkpoint " + path + ": " + e.what());
  }
}

}  // namespace lodestone
