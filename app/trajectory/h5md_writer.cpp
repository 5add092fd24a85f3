#include "app/trajectory/h5md_writer.hpp"

#include "app/trajectory/file_extension.hpp"
#include "engine/core/version.hpp"
#include "engine/output/export_frames.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <numeric>

namespace lodestone::trajectory {
namespace {

constexpr const char* kGroup = "/particles/all";

// The per-particle vectors of the file, in the frame's order of the list below.
struct VectorElement {
  const char* name;
  const char* unit;  // SI, as H5MD's units module writes it
  const std::vector<Vec3> FrameFields::*values;
};
constexpr VectorElement kVectors[] = {
    {"position", "m", &FrameFields::position},
    {"velocity", "m s-1", &FrameFields::velocity},
    {"force", "N", &FrameFields::force},
    {"moment", "A m2", &FrameFields::moment},
};

std::string author_name() {
  for (const char* variable : {"LODESTONE_AUTHOR", "USER", "LOGNAME"})
    if (const char* value = std::getenv(variable); value && *value) return value;
  return "unknown";
}

// Dense indices in ascending id order.
std::vector<size_t> id_order(const FrameFields& f) {
  std::vector<size_t> order(f.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&f](size_t a, size_t b) { return f.id[a] < f.id[b]; });
  return order;
}

}  // namespace

bool is_h5md_path(const std::string& path) {
  const std::string extension = lower_case_extension(path);
  return extension == ".h5md" || extension == ".h5";
}

struct H5mdWriter::Elements {
  std::vector<GrowingDataset> step, time;  // one pair: position's (the others link to them)
  std::vector<GrowingDataset> vectors;     // kVectors, in order
  std::vector<GrowingDataset> image, radius, species, id;
};

H5mdWriter::H5mdWriter(const std::string& path, const std::string& preset_json, const std::string& units_note)
    : path_(path), si_(units_note.empty()) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become exceptions with our own message
  try {
    file_ = Hdf5Id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose,
                   "cannot create the file (does its folder exist, may it be written?)");
    const Hdf5Id h5md = create_group(file_.get(), "h5md");
    write_int_attribute(h5md.get(), "version", {1, 1});
    const Hdf5Id author = create_group(h5md.get(), "author");
    write_string_attribute(author.get(), "name", author_name());
    const Hdf5Id creator = create_group(h5md.get(), "creator");
    write_string_attribute(creator.get(), "name", "Lodestone");
    write_string_attribute(creator.get(), "version", lodestone_version());
    const Hdf5Id parameters = create_group(file_.get(), "parameters");
    write_string_dataset(parameters.get(), "preset", preset_json);
    write_string_dataset(parameters.get(), "units", si_ ? std::string("SI") : units_note);
    write_string_dataset(parameters.get(), "program", lodestone_version_line());
    create_group(file_.get(), "particles");
  } catch (const Hdf5Error& e) {
    throw ExportError("cannot write the H5MD file " + path + ": " + e.what());
  }
}

H5mdWriter::~H5mdWriter() {
  elements_.reset();  // datasets close before the file
}
H5mdWriter::H5mdWriter(H5mdWriter&&) noexcept = default;
H5mdWriter& H5mdWriter::operator=(H5mdWriter&&) noexcept = default;

std::int64_t H5mdWriter::frames() const {
  return elements_ ? static_cast<std::int64_t>(elements_->step.front().samples()) : 0;
}

// The particle group, its box and one element per quantity; step and time once, hard-linked into the others.
void H5mdWriter::start_particles(const FrameFields& f) {
  const hid_t file = file_.get();
  const Hdf5Id group = create_group(file, kGroup);
  const Hdf5Id box = create_group(group.get(), "box");
  write_int_attribute(box.get(), "dimension", {3}, true);
  std::vector<std::string> boundary;
  for (int a = 0; a < 3; ++a) boundary.emplace_back(f.periodic(a) ? "periodic" : "none");
  write_strings_attribute(box.get(), "boundary", boundary);
  const Vec3 edges = f.box_max - f.box_min;
  write_double_dataset(box.get(), "edges", {edges.x(), edges.y(), edges.z()});
  const Hdf5Id parameters(H5Gopen2(file, "/parameters", H5P_DEFAULT), H5Gclose, "cannot open /parameters");
  write_double_dataset(parameters.get(), "box_min", {f.box_min.x(), f.box_min.y(), f.box_min.z()});

  auto e = std::make_unique<Elements>();
  const hsize_t n = f.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::int64_t no_step = -1;
  const int no_int = -1;
  const std::int64_t no_id = -1;
  // Element `name`: its group, step and time (made for position, linked for the rest), and its value dataset.
  auto element = [&](const std::string& name, hid_t type, std::vector<hsize_t> shape, const void* fill,
                     const char* unit) {
    const Hdf5Id g = create_group(group.get(), name);
    if (e->step.empty()) {
      e->step.emplace_back(g.get(), "step", H5T_NATIVE_INT64, std::vector<hsize_t>{}, &no_step);
      e->time.emplace_back(g.get(), "time", H5T_NATIVE_DOUBLE, std::vector<hsize_t>{}, &nan);
      if (si_) write_string_attribute(e->time.back().get(), "unit", "s");
    } else {
      const std::string from = std::string(kGroup) + "/position/";
      check(H5Lcreate_hard(file, (from + "step").c_str(), g.get(), "step", H5P_DEFAULT, H5P_DEFAULT),
            "cannot link " + name + "/step");
      check(H5Lcreate_hard(file, (from + "time").c_str(), g.get(), "time", H5P_DEFAULT, H5P_DEFAULT),
            "cannot link " + name + "/time");
    }
    GrowingDataset value(g.get(), "value", type, std::move(shape), fill);
    if (si_ && unit) write_string_attribute(value.get(), "unit", unit);
    return value;
  };
  for (const VectorElement& v : kVectors)
    e->vectors.push_back(element(v.name, H5T_NATIVE_DOUBLE, {n, 3}, &nan, v.unit));
  e->image.push_back(element("image", H5T_NATIVE_INT, {n, 3}, &no_int, nullptr));
  e->radius.push_back(element("radius", H5T_NATIVE_DOUBLE, {n}, &nan, "m"));
  e->species.push_back(element("species", H5T_NATIVE_INT, {n}, &no_int, nullptr));
  e->id.push_back(element("id", H5T_NATIVE_INT64, {n}, &no_id, nullptr));
  elements_ = std::move(e);
}

void H5mdWriter::write(const FrameFields& f) {
  try {
    if (!elements_) start_particles(f);
    Elements& e = *elements_;
    const std::vector<size_t> order = id_order(f);
    const hsize_t n = order.size();
    std::vector<double> flat(3 * n);
    for (size_t k = 0; k < std::size(kVectors); ++k) {
      const std::vector<Vec3>& values = f.*kVectors[k].values;
      for (size_t r = 0; r < n; ++r)
        for (size_t a = 0; a < 3; ++a) flat[3 * r + a] = values[order[r]][static_cast<Eigen::Index>(a)];
      e.vectors[k].append(flat.data(), n);
    }
    std::vector<int> images(3 * n), species(n);
    std::vector<double> radius(n);
    std::vector<std::int64_t> ids(n);
    for (size_t r = 0; r < n; ++r) {
      const size_t i = order[r];
      for (size_t a = 0; a < 3; ++a) images[3 * r + a] = f.image[i][a];
      radius[r] = f.radius[i];
      species[r] = f.material[i];
      ids[r] = static_cast<std::int64_t>(f.id[i]);
    }
    e.image.front().append(images.data(), n);
    e.radius.front().append(radius.data(), n);
    e.species.front().append(species.data(), n);
    e.id.front().append(ids.data(), n);
    const std::int64_t step = f.step;
    e.step.front().append(&step, 0);
    e.time.front().append(&f.time, 0);
  } catch (const Hdf5Error& error) {
    throw ExportError("cannot write a frame to the H5MD file " + path_ + ": " + error.what());
  }
}

void H5mdWriter::finish() {
  if (H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0)
    throw ExportError("cannot flush the H5MD file " + path_ + " (disk full?)");
}

}  // namespace lodestone::trajectory
