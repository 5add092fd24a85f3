#include "engine/io/export_vtk.hpp"

#include <cstdio>

namespace lodestone {
namespace {

// One DataArray, `components` values per point on a line. The values are produced by `put(i, s)`.
template <typename Put>
void data_array(std::string& s, const char* type, const char* name, int components, size_t points, Put put) {
  s += "        <DataArray type=\"";
  s += type;
  s += "\"";
  if (name) s += std::string(" Name=\"") + name + "\"";
  s += " NumberOfComponents=\"" + std::to_string(components) + "\" format=\"ascii\">\n";
  for (size_t i = 0; i < points; ++i) {
    s += "          ";
    put(i, s);
    s += '\n';
  }
  s += "        </DataArray>\n";
}

void vector_array(std::string& s, const char* name, const std::vector<Vec3>& values) {
  data_array(s, "Float64", name, 3, values.size(),
             [&](size_t i, std::string& out) { append_vector(out, values[i], ' '); });
}

void scalar_array(std::string& s, const char* name, const std::vector<double>& values) {
  data_array(s, "Float64", name, 1, values.size(), [&](size_t i, std::string& out) { append_number(out, values[i]); });
}

}  // namespace

std::string vtp_text(const FrameFields& f) {
  const size_t n = f.size();
  std::string s;
  s.reserve(400 * n + 2000);
  s += "<?xml version=\"1.0\"?>\n";
  if (!f.units.empty()) s += "<!-- units: " + f.units + " -->\n";
  s += "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  s += "  <PolyData>\n";
  // TimeValue is the field-data name ParaView reads as the time of a dataset.
  s += "    <FieldData>\n";
  s += "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">";
  append_number(s, f.time);
  s += "</DataArray>\n";
  s += "      <DataArray type=\"Int64\" Name=\"Step\" NumberOfTuples=\"1\" format=\"ascii\">" + std::to_string(f.step) +
       "</DataArray>\n";
  s += "    </FieldData>\n";
  s += "    <Piece NumberOfPoints=\"" + std::to_string(n) + "\" NumberOfVerts=\"" + std::to_string(n) +
       "\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n";
  s += "      <PointData Scalars=\"radius\" Vectors=\"moment\">\n";
  data_array(s, "UInt64", "id", 1, n, [&](size_t i, std::string& out) { out += std::to_string(f.id[i]); });
  data_array(s, "Int32", "material", 1, n, [&](size_t i, std::string& out) { out += std::to_string(f.material[i]); });
  scalar_array(s, "radius", f.radius);
  vector_array(s, "velocity", f.velocity);
  vector_array(s, "angular_velocity", f.angular_velocity);
  // x y z w, as in the extended XYZ frames (w the scalar part).
  data_array(s, "Float64", "orientation", 4, n, [&](size_t i, std::string& out) {
    const Quat& q = f.orientation[i];
    append_vector(out, q.vec(), ' ');
    out += ' ';
    append_number(out, q.w());
  });
  vector_array(s, "easy_axis", f.easy_axis);
  vector_array(s, "moment", f.moment);
  vector_array(s, "force", f.force);
  vector_array(s, "torque", f.torque);
  scalar_array(s, "alignment", f.alignment);
  data_array(s, "UInt64", "cluster", 1, n, [&](size_t i, std::string& out) { out += std::to_string(f.cluster[i]); });
  s += "      </PointData>\n";
  s += "      <Points>\n";
  vector_array(s, "position", f.position);
  s += "      </Points>\n";
  // One vertex cell per point: connectivity 0..N-1, offsets 1..N.
  s += "      <Verts>\n";
  data_array(s, "Int64", "connectivity", 1, n, [](size_t i, std::string& out) { out += std::to_string(i); });
  data_array(s, "Int64", "offsets", 1, n, [](size_t i, std::string& out) { out += std::to_string(i + 1); });
  s += "      </Verts>\n";
  s += "    </Piece>\n";
  s += "  </PolyData>\n";
  s += "</VTKFile>\n";
  return s;
}

std::string pvd_text(const std::vector<PvdEntry>& entries) {
  std::string s = "<?xml version=\"1.0\"?>\n";
  s += "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  s += "  <Collection>\n";
  for (const PvdEntry& e : entries) {
    s += "    <DataSet timestep=\"";
    append_number(s, e.time);
    s += "\" group=\"\" part=\"0\" file=\"";
    for (char c : e.file) {  // file names are ours, but keep the attribute well-formed whatever the stem
      switch (c) {
        case '&': s += "&amp;"; break;
        case '<': s += "&lt;"; break;
        case '>': s += "&gt;"; break;
        case '"': s += "&quot;"; break;
        default: s += c;
      }
    }
    s += "\"/>\n";
  }
  s += "  </Collection>\n";
  s += "</VTKFile>\n";
  return s;
}

std::string vtp_frame_name(const std::string& stem, std::int64_t frame) {
  char number[32];
  std::snprintf(number, sizeof number, "%06lld", static_cast<long long>(frame));
  return stem + "_" + number + ".vtp";
}

}  // namespace lodestone
