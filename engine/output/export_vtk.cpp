#include "engine/output/export_vtk.hpp"

#include "engine/core/version.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace lodestone {
namespace {

// Builds one .vtp: the XML text and, for the raw encoding, the appended bytes. Every array is handed over as
// its flat values (tuples of `components`); the encoding decides how they are written.
class VtpWriter {
 public:
  explicit VtpWriter(VtkEncoding encoding) : encoding_(encoding) {}

  std::string xml;

  template <typename T>
  void array(const char* type, const char* name, int components, const std::vector<T>& values) {
    xml += "        <DataArray type=\"";
    xml += type;
    xml += "\"";
    if (name) xml += std::string(" Name=\"") + name + "\"";
    xml += " NumberOfComponents=\"" + std::to_string(components) + "\"";
    switch (encoding_) {
      case VtkEncoding::Ascii: {
        xml += " format=\"ascii\">\n";
        const size_t c = static_cast<size_t>(components);
        for (size_t i = 0; i < values.size(); i += c) {
          xml += "          ";
          for (size_t k = 0; k < c; ++k) {
            if (k > 0) xml += ' ';
            append_value(xml, values[i + k]);
          }
          xml += '\n';
        }
        xml += "        </DataArray>\n";
        return;
      }
      case VtkEncoding::Base64: {
        xml += " format=\"binary\">\n          ";
        // The byte count and the values encoded together, as one base64 stream (VTK's uncompressed layout).
        std::string block = counted_bytes(values);
        xml += base64_encode(block.data(), block.size());
        xml += "\n        </DataArray>\n";
        return;
      }
      case VtkEncoding::Raw:
        xml += " format=\"appended\" offset=\"" + std::to_string(appended_.size()) + "\"/>\n";
        appended_ += counted_bytes(values);
        return;
    }
  }

  void vectors(const char* name, const std::vector<Vec3>& v) {
    std::vector<double> flat(3 * v.size());
    for (size_t i = 0; i < v.size(); ++i)
      for (int a = 0; a < 3; ++a) flat[3 * i + static_cast<size_t>(a)] = v[i][a];
    array("Float64", name, 3, flat);
  }

  // Closes the document: the appended block (raw) and the end tag.
  std::string finish() {
    if (encoding_ == VtkEncoding::Raw) {
      xml += "  <AppendedData encoding=\"raw\">\n   _";
      xml += appended_;
      xml += "\n  </AppendedData>\n";
    }
    xml += "</VTKFile>\n";
    return std::move(xml);
  }

 private:
  static void append_value(std::string& out, double v) { append_number(out, v); }
  template <typename T>
  static void append_value(std::string& out, T v) {
    out += std::to_string(v);
  }

  // A UInt64 byte count (header_type="UInt64"), then the values as in memory (little-endian: the file's
  // byte_order; checkpoint.cpp asserts the machine is little-endian too).
  template <typename T>
  static std::string counted_bytes(const std::vector<T>& values) {
    const std::uint64_t bytes = values.size() * sizeof(T);
    std::string out(sizeof bytes + bytes, '\0');
    std::memcpy(out.data(), &bytes, sizeof bytes);
    if (bytes > 0) std::memcpy(out.data() + sizeof bytes, values.data(), bytes);
    return out;
  }

  VtkEncoding encoding_;
  std::string appended_;
};

static_assert(std::endian::native == std::endian::little, "the binary .vtp arrays are written as in memory");

}  // namespace

const char* vtk_encoding_name(VtkEncoding encoding) {
  switch (encoding) {
    case VtkEncoding::Ascii: return "ascii";
    case VtkEncoding::Base64: return "base64";
    case VtkEncoding::Raw: return "raw";
  }
  return "?";
}

std::optional<VtkEncoding> vtk_encoding_of(const std::string& name) {
  for (int k = 0; k < kVtkEncodingCount; ++k)
    if (name == vtk_encoding_name(static_cast<VtkEncoding>(k))) return static_cast<VtkEncoding>(k);
  return std::nullopt;
}

std::string base64_encode(const void* data, size_t size) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto* b = static_cast<const unsigned char*>(data);
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t v = (std::uint32_t{b[i]} << 16) | (std::uint32_t{b[i + 1]} << 8) | b[i + 2];
    for (int shift : {18, 12, 6, 0}) out += kDigits[(v >> shift) & 63];
  }
  if (const size_t left = size - i; left > 0) {
    const std::uint32_t v = (std::uint32_t{b[i]} << 16) | (left == 2 ? std::uint32_t{b[i + 1]} << 8 : 0);
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += left == 2 ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string vtp_text(const FrameFields& f, VtkEncoding encoding) {
  const size_t n = f.size(), bonds = f.bonds.size();
  VtpWriter w(encoding);
  std::string& s = w.xml;
  s.reserve(400 * n + 2000);
  s += "<?xml version=\"1.0\"?>\n";
  s += "<!-- written by " + lodestone_version_line() + " -->\n";
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
  if (bonds > 0) {
    const auto intact = std::count_if(f.bonds.begin(), f.bonds.end(), [](const FrameBond& b) { return b.intact; });
    s += "      <DataArray type=\"Int64\" Name=\"IntactBonds\" NumberOfTuples=\"1\" format=\"ascii\">" +
         std::to_string(intact) + "</DataArray>\n";
    s += "      <DataArray type=\"Int64\" Name=\"BrokenBonds\" NumberOfTuples=\"1\" format=\"ascii\">" +
         std::to_string(static_cast<std::int64_t>(bonds) - intact) + "</DataArray>\n";
  }
  s += "    </FieldData>\n";
  s += "    <Piece NumberOfPoints=\"" + std::to_string(n) + "\" NumberOfVerts=\"" + std::to_string(n) +
       "\" NumberOfLines=\"" + std::to_string(bonds) + "\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n";
  s += "      <PointData Scalars=\"radius\" Vectors=\"moment\">\n";
  w.array("UInt64", "id", 1, f.id);
  w.array("Int32", "material", 1, std::vector<std::int32_t>(f.material.begin(), f.material.end()));
  w.array("Float64", "radius", 1, f.radius);
  w.vectors("velocity", f.velocity);
  w.vectors("angular_velocity", f.angular_velocity);
  // x y z w, as in the extended XYZ frames (w the scalar part).
  std::vector<double> quaternions(4 * n);
  for (size_t i = 0; i < n; ++i) {
    const Quat& q = f.orientation[i];
    const double c[4] = {q.x(), q.y(), q.z(), q.w()};
    std::copy(c, c + 4, quaternions.begin() + static_cast<std::ptrdiff_t>(4 * i));
  }
  w.array("Float64", "orientation", 4, quaternions);
  w.vectors("easy_axis", f.easy_axis);
  w.vectors("moment", f.moment);
  w.vectors("force", f.force);
  w.vectors("torque", f.torque);
  w.array("Float64", "alignment", 1, f.alignment);
  w.array("UInt64", "cluster", 1, f.cluster);
  std::vector<std::int32_t> images(3 * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t a = 0; a < 3; ++a) images[3 * i + a] = f.image[i][a];
  w.array("Int32", "image", 3, images);
  s += "      </PointData>\n";
  if (bonds > 0) {
    // Cells are numbered verts first, then lines: the vertex cells get -1 and 0, the bonds their values.
    std::vector<std::int32_t> intact(n + bonds, -1);
    std::vector<double> stretch(n + bonds, 0.0);
    for (size_t k = 0; k < bonds; ++k) {
      intact[n + k] = f.bonds[k].intact ? 1 : 0;
      stretch[n + k] = f.bonds[k].stretch;
    }
    s += "      <CellData Scalars=\"bond_intact\">\n";
    w.array("Int32", "bond_intact", 1, intact);
    w.array("Float64", "bond_stretch", 1, stretch);
    s += "      </CellData>\n";
  }
  s += "      <Points>\n";
  w.vectors("position", f.position);
  s += "      </Points>\n";
  // One vertex cell per point: connectivity 0..N-1, offsets 1..N.
  std::vector<std::int64_t> connectivity(n), offsets(n);
  for (size_t i = 0; i < n; ++i) {
    connectivity[i] = static_cast<std::int64_t>(i);
    offsets[i] = static_cast<std::int64_t>(i + 1);
  }
  s += "      <Verts>\n";
  w.array("Int64", "connectivity", 1, connectivity);
  w.array("Int64", "offsets", 1, offsets);
  s += "      </Verts>\n";
  if (bonds > 0) {
    // One line cell per bond, between the indices of its particles in this frame.
    std::vector<std::int64_t> ends(2 * bonds), line_offsets(bonds);
    for (size_t k = 0; k < bonds; ++k) {
      ends[2 * k] = static_cast<std::int64_t>(f.bonds[k].a);
      ends[2 * k + 1] = static_cast<std::int64_t>(f.bonds[k].b);
      line_offsets[k] = static_cast<std::int64_t>(2 * (k + 1));
    }
    s += "      <Lines>\n";
    w.array("Int64", "connectivity", 1, ends);
    w.array("Int64", "offsets", 1, line_offsets);
    s += "      </Lines>\n";
  }
  s += "    </Piece>\n";
  s += "  </PolyData>\n";
  return w.finish();
}

std::string pvd_text(const std::vector<PvdEntry>& entries) {
  std::string s = "<?xml version=\"1.0\"?>\n";
  s += "<!-- written by " + lodestone_version_line() + " -->\n";
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
