#include "app/trajectory/hdf5_objects.hpp"

#include <algorithm>

namespace lodestone::trajectory {

Hdf5Id::Hdf5Id(hid_t id, Closer close, const std::string& what) : id_(id), close_(close) {
  if (id < 0) throw Hdf5Error(what);
}

Hdf5Id& Hdf5Id::operator=(Hdf5Id&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = std::exchange(other.id_, H5I_INVALID_HID);
    close_ = other.close_;
  }
  return *this;
}

void Hdf5Id::reset() {
  if (id_ >= 0 && close_) close_(id_);
  id_ = H5I_INVALID_HID;
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw Hdf5Error(what);
}

Hdf5Id create_group(hid_t parent, const std::string& name) {
  return {H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
          "cannot create the group " + name};
}

namespace {

Hdf5Id simple_space(const std::vector<hsize_t>& dims, const std::vector<hsize_t>& max_dims = {}) {
  if (dims.empty()) return {H5Screate(H5S_SCALAR), H5Sclose, "cannot make a scalar dataspace"};
  return {H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max_dims.empty() ? nullptr : max_dims.data()),
          H5Sclose, "cannot make a dataspace"};
}

// A fixed-length, NUL-terminated string type of `length` bytes (at least 1).
Hdf5Id string_type(size_t length) {
  Hdf5Id type(H5Tcopy(H5T_C_S1), H5Tclose, "cannot make a string type");
  check(H5Tset_size(type.get(), std::max<size_t>(length, 1)), "cannot size a string type");
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "cannot pad a string type");
  return type;
}

void write_attribute(hid_t object, const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                     const void* data) {
  const Hdf5Id space = simple_space(dims);
  const Hdf5Id attribute(H5Acreate2(object, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                         "cannot create the attribute " + name);
  check(H5Awrite(attribute.get(), type, data), "cannot write the attribute " + name);
}

}  // namespace

void write_int_attribute(hid_t object, const std::string& name, const std::vector<int>& values, bool scalar) {
  write_attribute(object, name, H5T_NATIVE_INT, scalar ? std::vector<hsize_t>{} : std::vector<hsize_t>{values.size()},
                  values.data());
}

void write_string_attribute(hid_t object, const std::string& name, const std::string& value) {
  const Hdf5Id type = string_type(value.size());
  write_attribute(object, name, type.get(), {}, value.c_str());
}

void write_strings_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values) {
  size_t length = 1;
  for (const std::string& v : values) length = std::max(length, v.size());
  std::string packed(length * values.size(), '\0');
  for (size_t k = 0; k < values.size(); ++k) std::copy(values[k].begin(), values[k].end(), packed.begin() + k * length);
  const Hdf5Id type = string_type(length);
  write_attribute(object, name, type.get(), {values.size()}, packed.data());
}

void write_double_dataset(hid_t parent, const std::string& name, const std::vector<double>& values) {
  const Hdf5Id space = simple_space({values.size()});
  const Hdf5Id dataset(
      H5Dcreate2(parent, name.c_str(), H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose,
      "cannot create the dataset " + name);
  check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
        "cannot write the dataset " + name);
}

void write_string_dataset(hid_t parent, const std::string& name, const std::string& value) {
  const Hdf5Id type = string_type(value.size());
  const Hdf5Id space = simple_space({});
  const Hdf5Id dataset(H5Dcreate2(parent, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                       H5Dclose, "cannot create the dataset " + name);
  check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, value.c_str()),
        "cannot write the dataset " + name);
}

GrowingDataset::GrowingDataset(hid_t parent, const std::string& name, hid_t type, std::vector<hsize_t> row_shape,
                               const void* fill)
    : type_(type), name_(name) {
  extent_ = {0};
  extent_.insert(extent_.end(), row_shape.begin(), row_shape.end());
  std::vector<hsize_t> max_dims(extent_.size(), H5S_UNLIMITED), chunk(extent_.size(), 1);
  for (size_t d = 2; d < extent_.size(); ++d) max_dims[d] = chunk[d] = extent_[d];  // columns are fixed
  if (extent_.size() > 1) chunk[1] = std::clamp<hsize_t>(extent_[1], 1, 16384);     // rows: one chunk per sample
  if (extent_.size() == 1) chunk[0] = 256;                                          // scalars: many samples a chunk
  const Hdf5Id properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "cannot make dataset properties");
  check(H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data()), "cannot chunk " + name);
  check(H5Pset_fill_value(properties.get(), type, fill), "cannot set the fill value of " + name);
  if (extent_.size() > 1) extent_[1] = 0;  // no rows until the first sample
  const Hdf5Id space = simple_space(extent_, max_dims);
  dataset_ = Hdf5Id(H5Dcreate2(parent, name.c_str(), type, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
                    H5Dclose, "cannot create the dataset " + name);
}

void GrowingDataset::append(const void* data, hsize_t rows) {
  std::vector<hsize_t> start(extent_.size(), 0), count = extent_;
  start[0] = samples_;
  count[0] = 1;
  extent_[0] = samples_ + 1;
  if (extent_.size() > 1) {
    extent_[1] = std::max(extent_[1], rows);
    count[1] = rows;
  }
  check(H5Dset_extent(dataset_.get(), extent_.data()), "cannot extend " + name_);
  ++samples_;
  if (extent_.size() > 1 && rows == 0) return;
  const Hdf5Id file_space(H5Dget_space(dataset_.get()), H5Sclose, "cannot read the dataspace of " + name_);
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
        "cannot select in " + name_);
  const Hdf5Id memory_space = simple_space(count);
  check(H5Dwrite(dataset_.get(), type_, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
        "cannot write " + name_);
}

}  // namespace lodestone::trajectory
