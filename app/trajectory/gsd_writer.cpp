#include "app/trajectory/gsd_writer.hpp"

#include "app/trajectory/file_extension.hpp"
#include "engine/output/export_frames.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <type_traits>

namespace lodestone::trajectory {
namespace {

constexpr std::uint64_t kMagic = 0x65DF65DF65DF65DFull;
constexpr std::uint32_t kGsdVersion = 2u << 16;            // file layer 2.0
constexpr std::uint32_t kSchemaVersion = (1u << 16) | 4u;  // hoomd 1.4
constexpr size_t kHeaderBytes = 256, kNameBlock = 64;

// GSD's element type ids.
template <class T>
constexpr std::uint8_t gsd_type() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return 1;
  if constexpr (std::is_same_v<T, std::uint32_t>) return 3;
  if constexpr (std::is_same_v<T, std::uint64_t>) return 4;
  if constexpr (std::is_same_v<T, std::int8_t>) return 5;
  if constexpr (std::is_same_v<T, std::int32_t>) return 7;
  if constexpr (std::is_same_v<T, float>) return 9;
  if constexpr (std::is_same_v<T, double>) return 10;
  return 0;
}

template <class T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // little-endian, as the machines GSD runs on
  out.append(bytes, sizeof(T));
}

// The header: the magic, where the index and the names are and how many entries each holds, the versions, the
// application and the schema (64 bytes each, zero-padded), 80 reserved bytes.
std::string header(std::uint64_t index_at, std::uint64_t index_entries, std::uint64_t names_at,
                   std::uint64_t name_blocks) {
  std::string h;
  put(h, kMagic);
  put(h, index_at);
  put(h, index_entries);
  put(h, names_at);
  put(h, name_blocks);
  put(h, kSchemaVersion);
  put(h, kGsdVersion);
  std::string application = "Lodestone", schema = "hoomd";
  application.resize(64, '\0');
  schema.resize(64, '\0');
  h += application + schema + std::string(80, '\0');
  return h;
}

}  // namespace

bool is_gsd_path(const std::string& path) {
  return lower_case_extension(path) == ".gsd";
}

GsdWriter::GsdWriter(const std::string& path) : path_(path), out_(path, std::ios::binary | std::ios::trunc) {
  out_.write(std::string(kHeaderBytes, '\0').data(), kHeaderBytes);  // filled in by finish()
  if (!out_) throw ExportError("cannot write the GSD frames file " + path);
}

GsdWriter::~GsdWriter() {
  try {
    if (!finished_) finish();
  } catch (const ExportError&) {  // a destructor does not throw; finish() reports it when called
  }
}

template <class T>
void GsdWriter::chunk(const std::string& name, const std::vector<T>& data, std::uint32_t columns) {
  const auto location = static_cast<std::int64_t>(out_.tellp());
  out_.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size() * sizeof(T)));
  entries_.push_back({frames_, data.size() / columns, location, columns, name, gsd_type<T>()});
}

void GsdWriter::write(const FrameFields& f) {
  if (finished_) throw ExportError("the GSD frames file " + path_ + " is already finished");
  const size_t n = f.size();
  const Vec3 middle = 0.5 * (f.box_min + f.box_max), edges = f.box_max - f.box_min;
  std::vector<float> position, velocity, orientation, diameter;
  std::vector<std::int32_t> image;
  std::vector<std::uint32_t> typeid_;
  std::vector<double> moment;
  for (size_t i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) {
      position.push_back(static_cast<float>(f.position[i][a] - middle[a]));
      velocity.push_back(static_cast<float>(f.velocity[i][a]));
      image.push_back(f.image[i][static_cast<size_t>(a)]);
      moment.push_back(f.moment[i][a]);
    }
    const Quat& q = f.orientation[i];
    for (const double c : {q.w(), q.x(), q.y(), q.z()}) orientation.push_back(static_cast<float>(c));
    diameter.push_back(static_cast<float>(2.0 * f.radius[i]));
    typeid_.push_back(static_cast<std::uint32_t>(f.material[i]));
  }
  if (frames_ == 0) {
    chunk("configuration/dimensions", std::vector<std::uint8_t>{3}, 1);
    // The type names "1".."K", each padded to one width (a 2-D array of chars, as the schema stores strings).
    const size_t width = std::to_string(std::max(f.material_count, 1)).size() + 1;
    std::vector<std::int8_t> types;
    for (int k = 0; k < std::max(f.material_count, 1); ++k) {
      std::string name = std::to_string(k + 1);
      name.resize(width, '\0');
      types.insert(types.end(), name.begin(), name.end());
    }
    chunk("particles/types", types, static_cast<std::uint32_t>(width));
  }
  chunk("configuration/step", std::vector<std::uint64_t>{static_cast<std::uint64_t>(f.step)}, 1);
  chunk("configuration/box",
        std::vector<float>{static_cast<float>(edges.x()), static_cast<float>(edges.y()), static_cast<float>(edges.z()),
                           0.0f, 0.0f, 0.0f},
        1);
  chunk("particles/N", std::vector<std::uint32_t>{static_cast<std::uint32_t>(n)}, 1);
  if (n > 0) {
    chunk("particles/position", position, 3);
    chunk("particles/velocity", velocity, 3);
    chunk("particles/image", image, 3);
    chunk("particles/orientation", orientation, 4);
    chunk("particles/diameter", diameter, 1);
    chunk("particles/typeid", typeid_, 1);
    chunk("log/particles/id", std::vector<std::uint64_t>(f.id.begin(), f.id.end()), 1);
    chunk("log/particles/moment", moment, 3);
  }
  chunk("log/time", std::vector<double>{f.time}, 1);
  out_.flush();
  if (!out_) throw ExportError("writing the GSD frames file " + path_ + " failed (disk full?)");
  ++frames_;
}

// The names sorted, an entry's id its name's place among them; the index sorted by frame, then id (file layer 2.0);
// the names zero-terminated, padded with zeros to whole 64-byte blocks (at least one zero after the last name).
void GsdWriter::finish() {
  if (finished_) return;
  finished_ = true;
  std::map<std::string, std::uint16_t> ids;
  for (const Entry& e : entries_) ids[e.name] = 0;
  std::uint16_t next = 0;
  for (auto& [name, id] : ids) id = next++;
  std::stable_sort(entries_.begin(), entries_.end(), [&ids](const Entry& a, const Entry& b) {
    return a.frame != b.frame ? a.frame < b.frame : ids.at(a.name) < ids.at(b.name);
  });
  std::string index;
  for (const Entry& e : entries_) {
    put(index, e.frame);
    put(index, e.rows);
    put(index, e.location);
    put(index, e.columns);
    put(index, ids.at(e.name));
    put(index, e.type);
    put(index, std::uint8_t{0});
  }
  std::string names;
  for (const auto& [name, id] : ids) names += name + '\0';
  names.append(kNameBlock - names.size() % kNameBlock, '\0');
  const auto index_at = static_cast<std::uint64_t>(out_.tellp());
  out_.write(index.data(), static_cast<std::streamsize>(index.size()));
  const auto names_at = static_cast<std::uint64_t>(out_.tellp());
  out_.write(names.data(), static_cast<std::streamsize>(names.size()));
  const std::string head = header(index_at, entries_.size(), names_at, names.size() / kNameBlock);
  out_.seekp(0);
  out_.write(head.data(), static_cast<std::streamsize>(head.size()));
  out_.flush();
  if (!out_) throw ExportError("writing the GSD frames file " + path_ + " failed (disk full?)");
}

}  // namespace lodestone::trajectory
