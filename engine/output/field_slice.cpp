#include "engine/output/field_slice.hpp"

#include "engine/output/field_probe.hpp"

#include <sstream>

namespace lodestone {
namespace {

constexpr int kMaxCount = 4096;
const char* const kAxisNames[3] = {"x", "y", "z"};

int axis_of(std::string_view name) {
  for (int a = 0; a < 3; ++a)
    if (name == kAxisNames[a]) return a;
  return -1;
}

int parse_count(const std::string& part, const std::string& value) {
  int n = 0;
  size_t used = 0;
  try {
    n = std::stoi(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || n < 2 || n > kMaxCount)
    throw FieldInputError("field slice '" + part + "': '" + value + "' is not a point count; allowed: a whole number " +
                          "from 2 to " + std::to_string(kMaxCount));
  return n;
}

const char* kAllowedParts =
    "allowed parts: AXIS=POSITION (x, y or z = a length, e.g. z=1mm), axis=x|y|z and at=LENGTH, n=COUNT, "
    "nx|ny|nz=COUNT, and an in-plane range AXIS=LO:HI (e.g. x=0:5mm)";

}  // namespace

Vec3 FieldSlice::point(int i, int j) const {
  Vec3 x = Vec3::Zero();
  x[axis] = at;
  const int u = u_axis(), v = v_axis();
  x[u] = *lo[0] + (*hi[0] - *lo[0]) * i / (count[0] - 1);
  x[v] = *lo[1] + (*hi[1] - *lo[1]) * j / (count[1] - 1);
  return x;
}

std::vector<Vec3> FieldSlice::points() const {
  std::vector<Vec3> out;
  out.reserve(size());
  for (int j = 0; j < count[1]; ++j)
    for (int i = 0; i < count[0]; ++i) out.push_back(point(i, j));
  return out;
}

FieldSlice parse_field_slice(std::string_view spec) {
  FieldSlice slice;
  std::optional<int> axis;
  std::optional<double> at;
  std::optional<int> both;
  std::optional<int> per_axis[3];
  std::optional<std::pair<double, double>> range[3];
  std::istringstream in{std::string(spec)};
  std::string part;
  while (std::getline(in, part, ',')) {
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    if (eq == std::string::npos)
      throw FieldInputError("field slice '" + std::string(spec) + "': part '" + part + "' has no '='; " +
                            kAllowedParts);
    const std::string key = part.substr(0, eq), value = part.substr(eq + 1);
    const std::string what = "field slice '" + part + "'";
    if (key == "axis") {
      const int a = axis_of(value);
      if (a < 0) throw FieldInputError(what + ": '" + value + "' is not an axis; allowed: x, y or z");
      if (axis && *axis != a) throw FieldInputError(what + ": the plane's axis is given twice");
      axis = a;
    } else if (key == "at") {
      at = parse_length(value, what);
    } else if (key == "n") {
      both = parse_count(part, value);
    } else if (key.size() == 2 && key[0] == 'n' && axis_of(key.substr(1)) >= 0) {
      per_axis[axis_of(key.substr(1))] = parse_count(part, value);
    } else if (axis_of(key) >= 0) {
      const int a = axis_of(key);
      const size_t colon = value.find(':');
      if (colon == std::string::npos) {  // the plane: AXIS=POSITION
        if (axis && *axis != a) throw FieldInputError(what + ": the plane's axis is given twice");
        axis = a;
        at = parse_length(value, what);
      } else {
        const double lo = parse_length(value.substr(0, colon), what), hi = parse_length(value.substr(colon + 1), what);
        if (!(hi > lo)) throw FieldInputError(what + ": the range's end must be above its start (LO:HI)");
        range[a] = std::make_pair(lo, hi);
      }
    } else {
      throw FieldInputError(what + ": unknown key '" + key + "'; " + kAllowedParts);
    }
  }
  if (!axis || !at)
    throw FieldInputError("field slice '" + std::string(spec) +
                          "': the plane is missing; give AXIS=POSITION (e.g. z=1mm) or axis=z,at=1mm");
  slice.axis = *axis;
  slice.at = *at;
  if (per_axis[slice.axis] || range[slice.axis])
    throw FieldInputError("field slice '" + std::string(spec) + "': a count or range along " + kAxisNames[slice.axis] +
                          ", the plane's normal; allowed only along the in-plane axes");
  const int in_plane[2] = {slice.u_axis(), slice.v_axis()};
  for (int k = 0; k < 2; ++k) {
    const int a = in_plane[k];
    slice.count[k] = per_axis[a] ? *per_axis[a] : both.value_or(64);
    if (range[a]) {
      slice.lo[k] = range[a]->first;
      slice.hi[k] = range[a]->second;
    }
  }
  return slice;
}

void fit_to_box(FieldSlice& slice, const BoxParameters& box) {
  const int in_plane[2] = {slice.u_axis(), slice.v_axis()};
  for (int k = 0; k < 2; ++k) {
    if (!slice.lo[k]) slice.lo[k] = box.min[in_plane[k]];
    if (!slice.hi[k]) slice.hi[k] = box.max[in_plane[k]];
  }
}

std::string field_slice_header() {
  return "step,time,i,j,x,y,z,bx,by,bz,b\n";
}

std::string field_slice_rows(const FieldSlice& slice, std::int64_t step, double time, const std::vector<Vec3>& field) {
  std::string s;
  s.reserve(slice.size() * 160);
  std::string head = std::to_string(step) + ",";
  append_shortest(head, time);
  for (int j = 0; j < slice.count[1]; ++j)
    for (int i = 0; i < slice.count[0]; ++i) {
      const Vec3 x = slice.point(i, j);
      const Vec3& b = field[static_cast<size_t>(i) + static_cast<size_t>(slice.count[0]) * static_cast<size_t>(j)];
      s += head;
      s += ',' + std::to_string(i) + ',' + std::to_string(j);
      for (int a = 0; a < 3; ++a) {
        s += ',';
        append_shortest(s, x[a]);
      }
      for (int a = 0; a < 3; ++a) {
        s += ',';
        append_shortest(s, b[a]);
      }
      s += ',';
      append_shortest(s, b.norm());
      s += '\n';
    }
  return s;
}

std::string field_slice_vti(const FieldSlice& slice, std::int64_t step, double time, const std::vector<Vec3>& field) {
  // Extent and spacing per axis: one layer along the normal (spacing 1, any positive value does).
  int last[3] = {0, 0, 0};
  Vec3 origin = Vec3::Zero(), spacing = Vec3::Ones();
  origin[slice.axis] = slice.at;
  const int in_plane[2] = {slice.u_axis(), slice.v_axis()};
  for (int k = 0; k < 2; ++k) {
    const int a = in_plane[k];
    last[a] = slice.count[k] - 1;
    origin[a] = *slice.lo[k];
    spacing[a] = (*slice.hi[k] - *slice.lo[k]) / (slice.count[k] - 1);
  }
  std::string extent;
  for (int a = 0; a < 3; ++a) extent += std::string(a ? " " : "") + "0 " + std::to_string(last[a]);
  auto triple = [](const Vec3& v) {
    std::string t;
    for (int a = 0; a < 3; ++a) {
      if (a) t += ' ';
      append_shortest(t, v[a]);
    }
    return t;
  };
  std::string s;
  s.reserve(slice.size() * 90 + 1000);
  s += "<?xml version=\"1.0\"?>\n";
  s += "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  s += "  <ImageData WholeExtent=\"" + extent + "\" Origin=\"" + triple(origin) + "\" Spacing=\"" + triple(spacing) +
       "\">\n";
  s += "    <FieldData>\n";
  s += "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">";
  append_shortest(s, time);
  s += "</DataArray>\n";
  s += "      <DataArray type=\"Int64\" Name=\"Step\" NumberOfTuples=\"1\" format=\"ascii\">" + std::to_string(step) +
       "</DataArray>\n";
  s += "    </FieldData>\n";
  s += "    <Piece Extent=\"" + extent + "\">\n";
  s += "      <PointData Vectors=\"B\" Scalars=\"B_magnitude\">\n";
  s += "        <DataArray type=\"Float64\" Name=\"B\" NumberOfComponents=\"3\" format=\"ascii\">\n";
  for (size_t k = 0; k < slice.size(); ++k) s += "          " + triple(field[k]) + "\n";
  s += "        </DataArray>\n";
  s += "        <DataArray type=\"Float64\" Name=\"B_magnitude\" NumberOfComponents=\"1\" format=\"ascii\">\n";
  for (size_t k = 0; k < slice.size(); ++k) {
    s += "          ";
    append_shortest(s, field[k].norm());
    s += '\n';
  }
  s += "        </DataArray>\n";
  s += "      </PointData>\n";
  s += "      <CellData>\n      </CellData>\n";
  s += "    </Piece>\n";
  s += "  </ImageData>\n";
  s += "</VTKFile>\n";
  return s;
}

}  // namespace lodestone
