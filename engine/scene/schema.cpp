#include "engine/scene/schema.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace lodestone {

namespace {
std::string number_text(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os << v;
  return os.str();
}
}  // namespace

std::string Range::text() const {
  return std::string(lo_open ? "(" : "[") + number_text(lo) + ", " + number_text(hi) + (hi_open ? ")" : "]");
}

std::string kind_text(FieldKind kind, const std::vector<std::string>& choices, const std::string& unset_word) {
  switch (kind) {
    case FieldKind::Real: return "number";
    case FieldKind::OptionalReal: return "number or \"" + unset_word + "\"";
    case FieldKind::Integer: return "integer";
    case FieldKind::Unsigned: return "unsigned integer";
    case FieldKind::Boolean: return "true/false";
    case FieldKind::Text: return "string";
    case FieldKind::Choice: return "one of: " + detail::join(choices, ", ");
    case FieldKind::ChoiceList: return "list of: " + detail::join(choices, ", ");
    case FieldKind::Vector3: return "[x, y, z]";
    case FieldKind::Direction: return "direction [x, y, z]";
    case FieldKind::Matrix3: return "3x3 matrix (rows)";
    case FieldKind::Object: return "object";
    case FieldKind::OptionalObject: return "object or null";
    case FieldKind::ObjectList: return "list of objects";
    case FieldKind::JsonObject: return "object {\"path\": value}";
  }
  return "";
}

namespace detail {

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string describe_json(const json& j) {
  std::string text = j.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  const char* type = j.is_null()      ? "null"
                     : j.is_boolean() ? "a boolean"
                     : j.is_number()  ? "a number"
                     : j.is_string()  ? "a string"
                     : j.is_array()   ? "a list"
                                      : "an object";
  return std::string(type) + " " + text;
}

std::string quantity_unit_text(Quantity q) {
  if (q == Quantity::Dimensionless) return "";
  return accepted_units_text(q);
}

static std::string real_expectation(Quantity q) {
  if (q == Quantity::Dimensionless) return "a number";
  return "a number in " + std::string(si_unit(q)) + " or a string with a unit (" + accepted_units_text(q) + ")";
}

double read_real(const json& j, Quantity q, const Range& r, const std::string& path) {
  double v = 0.0;
  if (j.is_number()) {
    v = j.get<double>();
  } else if (j.is_string() && q != Quantity::Dimensionless) {
    std::string error;
    if (!parse_quantity(j.get<std::string>(), q, v, error)) throw PresetError(path, error);
  } else {
    throw PresetError(path, "expected " + real_expectation(q) + ", found " + describe_json(j));
  }
  if (!std::isfinite(v)) throw PresetError(path, "value must be finite");
  if (!r.contains(v)) {
    std::ostringstream os;
    // As the user wrote it ("-3 mT"), then in SI, the unit of the range.
    if (j.is_string()) os << "value '" << j.get<std::string>() << "' =";
    os << (j.is_string() ? " " : "value ") << v;
    if (q != Quantity::Dimensionless) os << " " << si_unit(q);
    os << " is out of the allowed range " << r.text();
    if (q != Quantity::Dimensionless) os << " " << si_unit(q);
    throw PresetError(path, os.str());
  }
  return v;
}

long long read_integer(const json& j, long long lo, long long hi, const std::string& path) {
  if (!j.is_number_integer())
    throw PresetError(path, "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], found " +
                                describe_json(j));
  const auto out_of_range = [&] {
    return PresetError(path, "value " + j.dump() + " is out of the allowed range [" + std::to_string(lo) + ", " +
                                 std::to_string(hi) + "]");
  };
  if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) throw out_of_range();
  const long long v = j.get<long long>();
  if (v < lo || v > hi) throw out_of_range();
  return v;
}

std::uint64_t read_unsigned(const json& j, const std::string& path) {
  if (!j.is_number_integer() || (j.is_number_integer() && !j.is_number_unsigned() && j.get<long long>() < 0))
    throw PresetError(path, "expected a non-negative integer, found " + describe_json(j));
  return j.get<std::uint64_t>();
}

bool read_boolean(const json& j, const std::string& path) {
  if (!j.is_boolean()) throw PresetError(path, "expected true or false, found " + describe_json(j));
  return j.get<bool>();
}

std::string read_text(const json& j, const std::string& path) {
  if (!j.is_string()) throw PresetError(path, "expected a string, found " + describe_json(j));
  return j.get<std::string>();
}

int read_choice(const json& j, const std::vector<std::string>& choices, const std::string& path) {
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    for (size_t i = 0; i < choices.size(); ++i)
      if (choices[i] == s) return static_cast<int>(i);
  }
  throw PresetError(path, "expected one of: " + join(choices, ", ") + "; found " + describe_json(j));
}

std::vector<std::string> read_choice_list(const json& j, const std::vector<std::string>& choices,
                                          const std::string& path) {
  if (!j.is_array())
    throw PresetError(path, "expected a list of names from: " + join(choices, ", ") + "; found " + describe_json(j));
  std::vector<std::string> out;
  for (size_t k = 0; k < j.size(); ++k) {
    const std::string at = path + "[" + std::to_string(k) + "]";
    const std::string& name = choices[static_cast<size_t>(read_choice(j[k], choices, at))];
    if (std::find(out.begin(), out.end(), name) != out.end())
      throw PresetError(at, "'" + name + "' is already in the list; each name once");
    out.push_back(name);
  }
  return out;
}

Vec3 read_vector3(const json& j, Quantity q, bool direction, const std::string& path) {
  if (!j.is_array() || j.size() != 3)
    throw PresetError(path, "expected a list of 3 numbers [x, y, z], found " + describe_json(j));
  Vec3 v;
  for (int k = 0; k < 3; ++k)
    v[k] = read_real(j[static_cast<size_t>(k)], q, ranges::any(), path + "[" + std::to_string(k) + "]");
  if (direction) {
    const double norm_sq = v.squaredNorm();
    if (!(norm_sq > 0.0)) throw PresetError(path, "a direction must not be the zero vector");
    // Normalise, but leave a vector that is already unit to rounding alone: normalising it again
    // would change its last bits, and load -> save -> load must give the same scene.
    if (std::abs(norm_sq - 1.0) > 1e-14) v /= std::sqrt(norm_sq);
  }
  return v;
}

Mat3 read_matrix3(const json& j, Quantity q, const std::string& path) {
  if (!j.is_array() || j.size() != 3)
    throw PresetError(path, "expected a 3x3 matrix as 3 rows of 3 numbers, found " + describe_json(j));
  Mat3 m;
  for (int r = 0; r < 3; ++r) {
    const Vec3 row = read_vector3(j[static_cast<size_t>(r)], q, false, path + "[" + std::to_string(r) + "]");
    m.row(r) = row.transpose();
  }
  return m;
}

void expect_object(const json& j, const std::string& path) {
  if (!j.is_object()) throw PresetError(path, "expected an object {...}, found " + describe_json(j));
}

void convert_numbers(json& value, Quantity q, const ConvertNumber& convert) {
  if (q == Quantity::Dimensionless) return;
  if (value.is_number()) {
    value = convert(q, value.get<double>());
  } else if (value.is_array()) {
    for (auto& item : value) convert_numbers(item, q, convert);
  }
}

json write_vector3(const Vec3& v) {
  return json::array({v.x(), v.y(), v.z()});
}

json write_matrix3(const Mat3& m) {
  json rows = json::array();
  for (int r = 0; r < 3; ++r) rows.push_back(json::array({m(r, 0), m(r, 1), m(r, 2)}));
  return rows;
}

void throw_no_key(const DottedPath& path, size_t at, const std::string& here, std::vector<std::string> keys) {
  throw PresetError(path.where, "'" + path.text + "': " + here + " has no key '" + path.segments[at] + "'" +
                                    (keys.empty() ? " (it is empty)" : "; keys there: " + join(keys, ", ")));
}

void throw_no_parts(const DottedPath& path, size_t at, const std::string& here, const json& value) {
  throw PresetError(path.where, "'" + path.text + "': " + here + " is a value (" + value.dump() +
                                    "), not an object or list; it has no '" + path.segments[at] + "'");
}

size_t list_index(const DottedPath& path, size_t at, const std::string& here, size_t size) {
  const std::string& segment = path.segments[at];
  const bool numeric = !segment.empty() && segment.size() < 10 &&
                       std::all_of(segment.begin(), segment.end(), [](unsigned char c) { return std::isdigit(c); });
  const size_t index = numeric ? std::stoul(segment) : size;
  if (index >= size)
    throw PresetError(path.where, "'" + path.text + "': " + here + " is a list of " + std::to_string(size) + "; '" +
                                      segment + "' is not an index in it");
  return index;
}

}  // namespace detail

DottedPath dotted_path(const std::string& text, std::string where) {
  DottedPath path{text, {}, std::move(where)};
  for (size_t start = 0;;) {
    const size_t dot = text.find('.', start);
    path.segments.push_back(text.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return path;
    start = dot + 1;
  }
}
}  // namespace lodestone
