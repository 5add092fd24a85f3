#pragma once
// Small owners of HDF5 C API identifiers and the few calls the H5MD writer (h5md_writer.hpp) makes: a group, an
// attribute (integers, fixed-length strings), an extendable dataset that grows by one sample at a time. Every
// failing call throws Hdf5Error naming what it was doing; the library's own error printing is switched off.

#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lodestone::trajectory {

struct Hdf5Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One identifier, closed with its own close function when the owner goes.
class Hdf5Id {
 public:
  using Closer = herr_t (*)(hid_t);
  Hdf5Id() = default;
  Hdf5Id(hid_t id, Closer close, const std::string& what);
  Hdf5Id(Hdf5Id&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)), close_(other.close_) {}
  Hdf5Id& operator=(Hdf5Id&& other) noexcept;
  Hdf5Id(const Hdf5Id&) = delete;
  Hdf5Id& operator=(const Hdf5Id&) = delete;
  ~Hdf5Id() { reset(); }
  hid_t get() const { return id_; }
  void reset();

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

// Throws Hdf5Error("what") when an HDF5 call returned a negative status.
void check(herr_t status, const std::string& what);

Hdf5Id create_group(hid_t parent, const std::string& name);
// Attributes on a group or dataset: integers (shape [n], or scalar with scalar = true), one fixed-length string
// (scalar), several fixed-length strings (shape [n], each padded to the longest).
void write_int_attribute(hid_t object, const std::string& name, const std::vector<int>& values, bool scalar = false);
void write_string_attribute(hid_t object, const std::string& name, const std::string& value);
void write_strings_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values);
// A fixed dataset of doubles of shape [n], and one fixed-length string (scalar).
void write_double_dataset(hid_t parent, const std::string& name, const std::vector<double>& values);
void write_string_dataset(hid_t parent, const std::string& name, const std::string& value);

// A chunked dataset of shape [samples][rows][columns...] (or [samples] with no row shape) that grows by one
// sample per append; rows may differ between samples (the extent takes the largest, shorter samples leave the
// fill value in the rest).
class GrowingDataset {
 public:
  // `row_shape`: {} for one value per sample, {rows}, or {rows, columns}; `type` a native HDF5 type, `fill` of it.
  GrowingDataset(hid_t parent, const std::string& name, hid_t type, std::vector<hsize_t> row_shape, const void* fill);
  // Appends one sample of `rows` rows (ignored for scalar samples) from `data`, C order.
  void append(const void* data, hsize_t rows);
  hid_t get() const { return dataset_.get(); }
  hsize_t samples() const { return samples_; }

 private:
  Hdf5Id dataset_;
  hid_t type_;
  std::vector<hsize_t> extent_;  // [samples, rows, columns...]
  hsize_t samples_ = 0;
  std::string name_;
};

}  // namespace lodestone::trajectory
