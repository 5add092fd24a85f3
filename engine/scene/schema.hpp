#pragma once
// Declarative description of preset fields. Each field is declared once (key, type, unit, range,
// help, member) and that declaration drives parsing, validation, writing, docs and the panels.
//
// A schema is a list of FieldSpec<S> for a struct S. The builders below bind a field to a member
// of S; read/write/describe are generic over any schema.

#include "engine/core/math.hpp"
#include "engine/core/preset_error.hpp"
#include "engine/core/shared_list.hpp"
#include "engine/scene/units.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace lodestone {

using json = nlohmann::ordered_json;  // keeps the declared key order when a preset is written

struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;

  bool contains(double v) const {
    if (lo_open ? !(v > lo) : !(v >= lo)) return false;
    if (hi_open ? !(v < hi) : !(v <= hi)) return false;
    return true;
  }
  std::string text() const;  // "[0, inf)", "(0, 1]"
};

namespace ranges {
inline Range any() {
  return {};
}
inline Range non_negative() {
  return {0.0, std::numeric_limits<double>::infinity(), false, true};
}
inline Range positive() {
  return {0.0, std::numeric_limits<double>::infinity(), true, true};
}
inline Range closed(double lo, double hi) {
  return {lo, hi, false, false};
}
inline Range half_open(double lo, double hi) {
  return {lo, hi, false, true};
}  // [lo, hi)
inline Range open_closed(double lo, double hi) {
  return {lo, hi, true, false};
}  // (lo, hi]
}  // namespace ranges

enum class FieldKind {
  Real,
  OptionalReal,
  Integer,
  Unsigned,
  Boolean,
  Text,
  Choice,
  ChoiceList,
  Vector3,
  Direction,
  Matrix3,
  Object,
  OptionalObject,
  ObjectList,
  JsonObject
};

// One row of the generated documentation (docs/presets.md).
struct FieldDoc {
  std::string path;     // "materials[].density"
  std::string type;     // "number", "one of: linear, hertz_mindlin", ...
  std::string unit;     // SI unit, "" if dimensionless
  std::string accepts;  // other units accepted ("mT, kOe, ...")
  std::string default_value;
  std::string range;
  std::string help;
};

// Replaces one bare JSON number of a field of quantity `q` when a preset is converted between unit systems
// (engine/scene/unit_system.hpp): the value to put in its place.
using ConvertNumber = std::function<json(Quantity q, double value)>;

// A dotted path into a preset ("materials.0.friction": keys of objects, numeric segments index lists) walked down
// the field tables, so that one value is read or written without the rest of the document
// (engine/scene/preset_edits.hpp).
struct DottedPath {
  std::string text;                   // as given
  std::vector<std::string> segments;  // split at the dots
  std::string where;                  // the JSON path errors name, e.g. "$.timeline[2].set.materials.0.friction"
};
DottedPath dotted_path(const std::string& text, std::string where);

template <class S>
struct FieldSpec {
  std::string key;
  FieldKind kind = FieldKind::Real;
  Quantity quantity = Quantity::Dimensionless;
  Range range;
  std::vector<std::string> choices;  // Choice: names in enum order
  std::string unset_word;            // OptionalReal: the JSON word meaning "not set" ("auto", "none")
  std::string help;
  std::function<void(S&, const json&, const std::string& path)> read;
  std::function<json(const S&)> write;
  // For editors (the app's panels): the member's address; its C++ type follows `kind`
  // (double, std::optional<double>, int, std::uint64_t, bool, std::string, int-valued enum, Vec3, Mat3).
  std::function<void*(S&)> address;
  // Left out of the written object when its value is empty (a timeline entry writes its set or its touch).
  bool omit_when_empty = false;
  bool omit_when_default = false;  // write_object leaves the key out while it holds its default
  // Object kinds: documents the nested fields under `prefix`.
  std::function<void(std::vector<FieldDoc>&, const std::string& prefix)> describe_children;
  // Object kinds: converts the numbers of a nested value between unit systems: the whole value when
  // `rest` == path.size(), else the part a dotted path reaches (path[rest..] are the segments below this field).
  std::function<void(json& value, const std::vector<std::string>& path, size_t rest, const ConvertNumber& convert)>
      convert_children;
  // Object kinds: a dotted path that goes on below this field (path.segments[rest..]): reads `value` into the part it
  // reaches, or writes that part. `here` is this field's JSON path in messages ("$.materials[0]").
  std::function<void(S&, const DottedPath& path, size_t rest, const std::string& here, const json& value)> read_at;
  std::function<json(const S&, const DottedPath& path, size_t rest, const std::string& here)> write_at;
};

template <class S>
using Schema = std::vector<FieldSpec<S>>;

// [SECTION] JSON value readers shared by all builders. Each throws PresetError naming `path`.
namespace detail {
std::string describe_json(const json& j);  // short printable form of a value for messages
double read_real(const json& j, Quantity q, const Range& r, const std::string& path);
long long read_integer(const json& j, long long lo, long long hi, const std::string& path);
std::uint64_t read_unsigned(const json& j, const std::string& path);
bool read_boolean(const json& j, const std::string& path);
std::string read_text(const json& j, const std::string& path);
int read_choice(const json& j, const std::vector<std::string>& choices, const std::string& path);
// A list of names from `choices`, each at most once.
std::vector<std::string> read_choice_list(const json& j, const std::vector<std::string>& choices,
                                          const std::string& path);
Vec3 read_vector3(const json& j, Quantity q, bool direction, const std::string& path);
Mat3 read_matrix3(const json& j, Quantity q, const std::string& path);
void expect_object(const json& j, const std::string& path);
json write_vector3(const Vec3& v);
json write_matrix3(const Mat3& m);
std::string quantity_unit_text(Quantity q);
std::string join(const std::vector<std::string>& items, const std::string& sep);
}  // namespace detail

// [SECTION] Generic object reading, writing and documentation.
template <class S>
void read_object(S& target, const json& j, const std::string& path, const Schema<S>& schema) {
  detail::expect_object(j, path);
  for (auto it = j.begin(); it != j.end(); ++it) {
    const FieldSpec<S>* spec = nullptr;
    for (const auto& f : schema)
      if (f.key == it.key()) spec = &f;
    if (!spec) {
      std::vector<std::string> keys;
      for (const auto& f : schema) keys.push_back(f.key);
      throw PresetError(path + "." + it.key(), "unknown key; allowed here: " + detail::join(keys, ", "));
    }
    spec->read(target, it.value(), path + "." + it.key());
  }
}

template <class S>
json write_object(const S& source, const Schema<S>& schema) {
  json j = json::object();
  for (const auto& f : schema) {
    json value = f.write(source);
    if (f.omit_when_empty && value.empty()) continue;
    if (f.omit_when_default && value == f.write(S{})) continue;
    j[f.key] = std::move(value);
  }
  return j;
}

// [SECTION] One value by its dotted path. A path that leaves the tables throws PresetError naming path.where: the key
// that is not there (with the keys that are), the index that is not in the list, or the value that has no parts.
namespace detail {
[[noreturn]] void throw_no_key(const DottedPath& path, size_t at, const std::string& here,
                               std::vector<std::string> keys);
[[noreturn]] void throw_no_parts(const DottedPath& path, size_t at, const std::string& here, const json& value);
// The list index path.segments[at] (with `size` items); throws naming the list.
size_t list_index(const DottedPath& path, size_t at, const std::string& here, size_t size);
}  // namespace detail

template <class S>
const FieldSpec<S>& field_at(const Schema<S>& schema, const DottedPath& path, size_t at, const std::string& here) {
  for (const auto& f : schema)
    if (f.key == path.segments[at]) return f;
  std::vector<std::string> keys;
  for (const auto& f : schema) keys.push_back(f.key);
  detail::throw_no_key(path, at, here, std::move(keys));
}

// Reads `value` into the part of `target` that path.segments[at..] reaches, with that field's reader (its units,
// range and words): a whole object or list item is read afresh from its defaults, as a file would be.
template <class S>
void read_at_path(S& target, const Schema<S>& schema, const DottedPath& path, size_t at, const std::string& here,
                  const json& value) {
  const FieldSpec<S>& f = field_at(schema, path, at, here);
  if (at + 1 == path.segments.size()) {
    f.read(target, value, path.where);
    return;
  }
  if (!f.read_at) detail::throw_no_parts(path, at + 1, here + "." + f.key, f.write(target));
  f.read_at(target, path, at + 1, here + "." + f.key, value);
}

// The part of `source` that path.segments[at..] reaches, as a preset file writes it (SI).
template <class S>
json write_at_path(const S& source, const Schema<S>& schema, const DottedPath& path, size_t at,
                   const std::string& here) {
  const FieldSpec<S>& f = field_at(schema, path, at, here);
  if (at + 1 == path.segments.size()) return f.write(source);
  if (!f.write_at) detail::throw_no_parts(path, at + 1, here + "." + f.key, f.write(source));
  return f.write_at(source, path, at + 1, here + "." + f.key);
}

std::string kind_text(FieldKind kind, const std::vector<std::string>& choices, const std::string& unset_word);

// [SECTION] Unit-system conversion of a preset's JSON, driven by the same tables: every bare number of a
// dimensional field goes through `convert`; strings (values with a unit, words like "auto"), dimensionless
// fields and keys the table does not know are left alone (the reader judges them).
namespace detail {
// Every number in `value`, also inside lists (a vector, a matrix, a row).
void convert_numbers(json& value, Quantity q, const ConvertNumber& convert);
}  // namespace detail

template <class S>
void convert_field(const FieldSpec<S>& f, json& value, const std::vector<std::string>& path, size_t rest,
                   const ConvertNumber& convert) {
  switch (f.kind) {
    case FieldKind::Real:
    case FieldKind::OptionalReal:
    case FieldKind::Vector3:
    case FieldKind::Matrix3: detail::convert_numbers(value, f.quantity, convert); return;
    case FieldKind::Object:
    case FieldKind::OptionalObject:
    case FieldKind::ObjectList:
      if (f.convert_children) f.convert_children(value, path, rest, convert);
      return;
    default: return;  // choices, words, flags, integers and directions carry no unit
  }
}

// The numbers of `object`, a JSON object of S.
template <class S>
void convert_object(json& object, const Schema<S>& schema, const ConvertNumber& convert) {
  if (!object.is_object()) return;
  static const std::vector<std::string> whole;
  for (auto it = object.begin(); it != object.end(); ++it)
    for (const auto& f : schema)
      if (f.key == it.key()) convert_field(f, it.value(), whole, 0, convert);
}

// The numbers of `value`, the value a dotted path (segments path[at..]) reaches inside an object of S: what a
// protocol phase's or timeline entry's {"dotted.path": value} sets.
template <class S>
void convert_at(json& value, const Schema<S>& schema, const std::vector<std::string>& path, size_t at,
                const ConvertNumber& convert) {
  if (at >= path.size()) {
    convert_object(value, schema, convert);
    return;
  }
  for (const auto& f : schema)
    if (f.key == path[at]) convert_field(f, value, path, at + 1, convert);
}

template <class S>
void describe_schema(const Schema<S>& schema, std::vector<FieldDoc>& out, const std::string& prefix) {
  const S defaults{};
  for (const auto& f : schema) {
    FieldDoc doc;
    doc.path = prefix + f.key;
    doc.type = kind_text(f.kind, f.choices, f.unset_word);
    const bool numeric = f.kind == FieldKind::Real || f.kind == FieldKind::OptionalReal ||
                         f.kind == FieldKind::Vector3 || f.kind == FieldKind::Matrix3;
    doc.unit = numeric ? std::string(si_unit(f.quantity)) : "";
    doc.accepts = numeric ? detail::quantity_unit_text(f.quantity) : "";
    const bool nested =
        f.kind == FieldKind::Object || f.kind == FieldKind::OptionalObject || f.kind == FieldKind::ObjectList;
    if (f.kind == FieldKind::Object)
      doc.default_value = "(object)";
    else if (f.kind == FieldKind::ObjectList && f.write(defaults).empty())
      doc.default_value = "[]";
    else if (f.kind == FieldKind::ObjectList)
      doc.default_value = "(list of " + std::to_string(f.write(defaults).size()) + ")";
    else
      doc.default_value = f.write(defaults).dump();
    if (f.kind == FieldKind::Real || f.kind == FieldKind::OptionalReal || (f.kind == FieldKind::Integer))
      doc.range = f.range.text();
    doc.help = f.help;
    out.push_back(doc);
    if (nested && f.describe_children) {
      const std::string child_prefix = doc.path + (f.kind == FieldKind::ObjectList ? "[]." : ".");
      f.describe_children(out, child_prefix);
    }
  }
}

// [SECTION] Builders: bind a key to a member.
namespace detail {

// What every builder sets alike: the key, the kind, the help and, for editors, the member's address. `member` may
// belong to a base of S.
template <class S, class T, class Owner>
FieldSpec<S> bound_field(std::string key, T Owner::*member, FieldKind kind, std::string help) {
  FieldSpec<S> f;
  f.key = std::move(key);
  f.kind = kind;
  f.help = std::move(help);
  f.address = [=](S& s) -> void* { return &(s.*member); };
  return f;
}

// A field whose JSON value is the member's value itself (an unsigned integer, a boolean, a text): read by
// `read_value`, written as it is. Such builders differ only by the member's type and its reader.
template <class S, class T>
FieldSpec<S> plain_field(std::string key, T S::*member, FieldKind kind, std::string help,
                         T (*read_value)(const json&, const std::string&)) {
  FieldSpec<S> f = bound_field<S>(std::move(key), member, kind, std::move(help));
  f.read = [=](S& s, const json& j, const std::string& path) { s.*member = read_value(j, path); };
  f.write = [=](const S& s) { return json(s.*member); };
  return f;
}

// The items of a list to change in place: the vector itself, or a shared list's own copy.
template <class C>
std::vector<C>& editable(std::vector<C>& list) {
  return list;
}
template <class C>
std::vector<C>& editable(SharedList<C>& list) {
  return list.edit();
}

}  // namespace detail

namespace fields {

template <class S>
FieldSpec<S> real(std::string key, double S::*member, Quantity q, Range range, std::string help) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::Real, std::move(help));
  f.quantity = q;
  f.range = range;
  f.read = [=](S& s, const json& j, const std::string& path) { s.*member = detail::read_real(j, q, range, path); };
  f.write = [=](const S& s) { return json(s.*member); };
  return f;
}

// A real that may be left unset: JSON null or the word `unset_word` (e.g. "auto") means std::nullopt.
template <class S>
FieldSpec<S> optional_real(std::string key, std::optional<double> S::*member, Quantity q, Range range,
                           std::string unset_word, std::string help) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::OptionalReal, std::move(help));
  f.quantity = q;
  f.range = range;
  f.unset_word = unset_word;
  f.read = [=](S& s, const json& j, const std::string& path) {
    if (j.is_null() || (j.is_string() && j.get<std::string>() == unset_word)) {
      s.*member = std::nullopt;
      return;
    }
    try {
      s.*member = detail::read_real(j, q, range, path);
    } catch (const PresetError& e) {
      throw PresetError(e.path(), e.message() + "; or \"" + unset_word + "\"");
    }
  };
  f.write = [=](const S& s) { return (s.*member) ? json(*(s.*member)) : json(unset_word); };
  return f;
}

template <class S>
FieldSpec<S> integer(std::string key, int S::*member, int lo, int hi, std::string help) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::Integer, std::move(help));
  f.range = ranges::closed(lo, hi);
  f.read = [=](S& s, const json& j, const std::string& path) {
    s.*member = static_cast<int>(detail::read_integer(j, lo, hi, path));
  };
  f.write = [=](const S& s) { return json(s.*member); };
  return f;
}

template <class S>
FieldSpec<S> unsigned_integer(std::string key, std::uint64_t S::*member, std::string help) {
  return detail::plain_field<S>(std::move(key), member, FieldKind::Unsigned, std::move(help), detail::read_unsigned);
}

template <class S>
FieldSpec<S> boolean(std::string key, bool S::*member, std::string help) {
  return detail::plain_field<S>(std::move(key), member, FieldKind::Boolean, std::move(help), detail::read_boolean);
}

template <class S>
FieldSpec<S> text(std::string key, std::string S::*member, std::string help) {
  return detail::plain_field<S>(std::move(key), member, FieldKind::Text, std::move(help), detail::read_text);
}

// A JSON object kept as it is (checked by its user, e.g. protocol phase overrides).
template <class S>
FieldSpec<S> json_object(std::string key, json S::*member, std::string help) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::JsonObject, std::move(help));
  f.read = [=](S& s, const json& j, const std::string& path) {
    detail::expect_object(j, path);
    s.*member = j;
  };
  f.write = [=](const S& s) { return s.*member; };
  return f;
}

// An enum class with int values 0..n-1 written as the names in `choices`.
template <class S, class E>
FieldSpec<S> choice(std::string key, E S::*member, std::vector<std::string> choices, std::string help) {
  static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int), "choice fields bind int-sized enums");
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::Choice, std::move(help));
  f.choices = choices;
  f.read = [=](S& s, const json& j, const std::string& path) {
    s.*member = static_cast<E>(detail::read_choice(j, choices, path));
  };
  f.write = [=](const S& s) { return json(choices.at(static_cast<size_t>(s.*member))); };
  return f;
}

// A list of names from `choices` (in any order, each once), kept as the names: the Plots window's first plots.
template <class S>
FieldSpec<S> choice_list(std::string key, std::vector<std::string> S::*member, std::vector<std::string> choices,
                         std::string help) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::ChoiceList, std::move(help));
  f.choices = choices;
  f.read = [=](S& s, const json& j, const std::string& path) {
    s.*member = detail::read_choice_list(j, choices, path);
  };
  f.write = [=](const S& s) { return json(s.*member); };
  return f;
}

// A 3-vector; `direction` ones are normalised on reading and must not be zero.
template <class S>
FieldSpec<S> vector3(std::string key, Vec3 S::*member, Quantity q, std::string help, bool direction = false) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, direction ? FieldKind::Direction : FieldKind::Vector3,
                                          std::move(help));
  f.quantity = q;
  f.read = [=](S& s, const json& j, const std::string& path) {
    s.*member = detail::read_vector3(j, q, direction, path);
  };
  f.write = [=](const S& s) { return detail::write_vector3(s.*member); };
  return f;
}

template <class S>
FieldSpec<S> direction(std::string key, Vec3 S::*member, std::string help) {
  return vector3<S>(std::move(key), member, Quantity::Dimensionless, std::move(help), true);
}

template <class S>
FieldSpec<S> matrix3(std::string key, Mat3 S::*member, Quantity q, std::string help) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::Matrix3, std::move(help));
  f.quantity = q;
  f.read = [=](S& s, const json& j, const std::string& path) { s.*member = detail::read_matrix3(j, q, path); };
  f.write = [=](const S& s) { return detail::write_matrix3(s.*member); };
  return f;
}

// `member` may belong to a base of S (a Preset's physics sections are PhysicsParameters').
template <class S, class C, class Owner>
requires std::is_base_of_v<Owner, S> FieldSpec<S> object(std::string key, C Owner::*member,
                                                         const Schema<C>& (*schema)(), std::string help) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::Object, std::move(help));
  // Read afresh from the defaults (keys left out take theirs), as a whole file is read.
  f.read = [=](S& s, const json& j, const std::string& path) {
    C value{};
    read_object(value, j, path, schema());
    s.*member = std::move(value);
  };
  f.write = [=](const S& s) { return write_object(s.*member, schema()); };
  f.describe_children = [=](std::vector<FieldDoc>& out, const std::string& prefix) {
    describe_schema(schema(), out, prefix);
  };
  f.convert_children = [=](json& value, const std::vector<std::string>& path, size_t rest,
                           const ConvertNumber& convert) { convert_at(value, schema(), path, rest, convert); };
  f.read_at = [=](S& s, const DottedPath& path, size_t rest, const std::string& here, const json& value) {
    read_at_path(s.*member, schema(), path, rest, here, value);
  };
  f.write_at = [=](const S& s, const DottedPath& path, size_t rest, const std::string& here) {
    return write_at_path(s.*member, schema(), path, rest, here);
  };
  return f;
}

// An object that may be absent (JSON null): std::optional<C>.
template <class S, class C>
FieldSpec<S> optional_object(std::string key, std::optional<C> S::*member, const Schema<C>& (*schema)(),
                             std::string help) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::OptionalObject, std::move(help));
  f.read = [=](S& s, const json& j, const std::string& path) {
    if (j.is_null()) {
      s.*member = std::nullopt;
      return;
    }
    C value{};
    read_object(value, j, path, schema());
    s.*member = value;
  };
  f.write = [=](const S& s) { return (s.*member) ? write_object(*(s.*member), schema()) : json(nullptr); };
  f.describe_children = [=](std::vector<FieldDoc>& out, const std::string& prefix) {
    describe_schema(schema(), out, prefix);
  };
  f.convert_children = [=](json& value, const std::vector<std::string>& path, size_t rest,
                           const ConvertNumber& convert) { convert_at(value, schema(), path, rest, convert); };
  // Absent (null), it has no parts to reach.
  f.read_at = [=](S& s, const DottedPath& path, size_t rest, const std::string& here, const json& value) {
    if (!(s.*member)) detail::throw_no_parts(path, rest, here, json(nullptr));
    read_at_path(*(s.*member), schema(), path, rest, here, value);
  };
  f.write_at = [=](const S& s, const DottedPath& path, size_t rest, const std::string& here) {
    if (!(s.*member)) detail::throw_no_parts(path, rest, here, json(nullptr));
    return write_at_path(*(s.*member), schema(), path, rest, here);
  };
  return f;
}

// `List`: a std::vector of C or a SharedList of C (engine/core/shared_list.hpp).
template <class S, class List, class Owner, class C = typename List::value_type>
requires std::is_base_of_v<Owner, S> FieldSpec<S> object_list(std::string key, List Owner::*member,
                                                              const Schema<C>& (*schema)(), std::string help) {
  FieldSpec<S> f = detail::bound_field<S>(std::move(key), member, FieldKind::ObjectList, std::move(help));
  f.read = [=](S& s, const json& j, const std::string& path) {
    if (!j.is_array()) throw PresetError(path, "expected a list of objects, found " + detail::describe_json(j));
    std::vector<C> items;
    items.reserve(j.size());
    for (size_t i = 0; i < j.size(); ++i) {
      C item{};
      read_object(item, j[i], path + "[" + std::to_string(i) + "]", schema());
      items.push_back(std::move(item));
    }
    s.*member = std::move(items);
  };
  f.write = [=](const S& s) {
    json list = json::array();
    for (const auto& item : s.*member) list.push_back(write_object(item, schema()));
    return list;
  };
  f.describe_children = [=](std::vector<FieldDoc>& out, const std::string& prefix) {
    describe_schema(schema(), out, prefix);
  };
  // The whole list, or one item (path[rest] is its index) and the part of it the rest of the path reaches.
  f.convert_children = [=](json& value, const std::vector<std::string>& path, size_t rest,
                           const ConvertNumber& convert) {
    if (rest < path.size()) {
      convert_at(value, schema(), path, rest + 1, convert);
    } else if (value.is_array()) {
      for (auto& item : value) convert_object(item, schema(), convert);
    }
  };
  // path.segments[rest] indexes the list: the whole item (read afresh) or a part of it.
  f.read_at = [=](S& s, const DottedPath& path, size_t rest, const std::string& here, const json& value) {
    List& list = s.*member;
    const size_t i = detail::list_index(path, rest, here, list.size());
    std::vector<C>& items = detail::editable(list);
    const std::string item_here = here + "[" + path.segments[rest] + "]";
    if (rest + 1 == path.segments.size()) {
      C item{};
      read_object(item, value, path.where, schema());
      items[i] = std::move(item);
    } else {
      read_at_path(items[i], schema(), path, rest + 1, item_here, value);
    }
  };
  f.write_at = [=](const S& s, const DottedPath& path, size_t rest, const std::string& here) {
    const std::vector<C>& items = s.*member;
    const size_t i = detail::list_index(path, rest, here, items.size());
    if (rest + 1 == path.segments.size()) return write_object(items[i], schema());
    return write_at_path(items[i], schema(), path, rest + 1, here + "[" + path.segments[rest] + "]");
  };
  return f;
}

}  // namespace fields
}  // namespace lodestone
