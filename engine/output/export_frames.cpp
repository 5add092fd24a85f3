#include "engine/output/export_frames.hpp"

#include "engine/output/export_csv.hpp"
#include "engine/output/export_lammps_dump.hpp"
#include "engine/output/export_vtk.hpp"
#include "engine/output/export_xyz.hpp"
#include "engine/output/series.hpp"
#include "engine/scene/atomic_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace lodestone {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The reason of the last failed system call, e.g. "Permission denied".
std::string reason() {
  return errno != 0 ? std::strerror(errno) : "unknown error";
}

std::ofstream open_for_writing(const std::string& path, const char* what) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ExportError("cannot write " + std::string(what) + " " + path + ": " + reason());
  return out;
}

// A frame file written atomically (engine/scene/atomic_file.hpp), failures as ExportError.
void write_export_file(const std::string& path, const std::string& text) {
  try {
    write_file_atomically(path, text);
  } catch (const FileWriteError& e) {
    throw ExportError(e.what());
  }
}

}  // namespace

const char* frame_format_name(FrameFormat format) {
  switch (format) {
    case FrameFormat::ExtendedXyz: return "extended XYZ";
    case FrameFormat::VtkPolyData: return "VTK PolyData";
    case FrameFormat::LammpsDump: return "LAMMPS dump";
    case FrameFormat::Csv: return "CSV";
  }
  return "?";
}

const char* frame_format_extension(FrameFormat format) {
  switch (format) {
    case FrameFormat::ExtendedXyz: return ".xyz";
    case FrameFormat::VtkPolyData: return ".vtp";
    case FrameFormat::LammpsDump: return ".dump";
    case FrameFormat::Csv: return ".csv";
  }
  return "";
}

std::optional<FrameFormat> frame_format_of(const std::string& path) {
  const std::string extension = lower(std::filesystem::path(path).extension().string());
  if (extension == ".xyz") return FrameFormat::ExtendedXyz;
  if (extension == ".vtp") return FrameFormat::VtkPolyData;
  if (extension == ".dump" || extension == ".lammpstrj") return FrameFormat::LammpsDump;
  if (extension == ".csv") return FrameFormat::Csv;
  return std::nullopt;
}

std::string frame_extensions_help() {
  return ".xyz (extended XYZ), .vtp (VTK PolyData, with a .pvd collection for a series), .dump or .lammpstrj "
         "(LAMMPS dump), .csv (CSV)";
}

std::string frame_file_text(FrameFormat format, const FrameFields& frame, VtkEncoding vtk_encoding) {
  std::ostringstream out;
  switch (format) {
    case FrameFormat::ExtendedXyz: write_xyz_frame(out, frame); break;
    case FrameFormat::VtkPolyData: return vtp_text(frame, vtk_encoding);
    case FrameFormat::LammpsDump: write_lammps_dump_frame(out, frame); break;
    case FrameFormat::Csv:
      out << csv_version_comment() << frame_csv_header(frame.units);
      write_csv_frame(out, frame);
      break;
  }
  return out.str();
}

void export_frame(const std::string& path, const FrameFields& frame, VtkEncoding vtk_encoding) {
  const std::optional<FrameFormat> format = frame_format_of(path);
  if (!format)
    throw ExportError("cannot export to " + path + ": unknown extension '" +
                      std::filesystem::path(path).extension().string() + "'; the allowed extensions are " +
                      frame_extensions_help());
  write_export_file(path, frame_file_text(*format, frame, vtk_encoding));
  if (*format == FrameFormat::LammpsDump && !frame.bonds.empty()) {
    write_export_file(lammps_data_path(path), lammps_data_text(frame));
    std::ostringstream bonds;
    write_lammps_bond_dump_frame(bonds, frame);
    write_export_file(lammps_bond_dump_path(path), bonds.str());
  }
}

FrameSeriesWriter::FrameSeriesWriter(const std::string& path, FrameFormat format, const std::string& units,
                                     VtkEncoding vtk_encoding, const StreamOpener& open)
    : path_(path), side_path_(path), format_(format), vtk_encoding_(vtk_encoding) {
  if (format != FrameFormat::VtkPolyData) {
    if (open) {
      out_ = open(path);
      side_path_ = std::filesystem::path(path).replace_extension().string();
    } else {
      out_ = std::make_unique<std::ofstream>(open_for_writing(path, "frames to"));
    }
    if (format == FrameFormat::Csv) *out_ << csv_version_comment() << frame_csv_header(units);
    return;
  }
  const std::filesystem::path p(path);
  directory_ = p.parent_path().string();
  stem_ = p.stem().string();
  collection_path_ = (p.parent_path() / (stem_ + ".pvd")).string();
  write_export_file(collection_path_, pvd_text(collection_));  // an empty, valid collection from the start
}

void FrameSeriesWriter::write(const FrameFields& frame) {
  if (format_ == FrameFormat::VtkPolyData) {
    const std::string name = vtp_frame_name(stem_, frames_);
    write_export_file((std::filesystem::path(directory_) / name).string(), vtp_text(frame, vtk_encoding_));
    collection_.push_back(PvdEntry{frame.time, name});
    write_export_file(collection_path_, pvd_text(collection_));
  } else {
    switch (format_) {
      case FrameFormat::ExtendedXyz: write_xyz_frame(*out_, frame); break;
      case FrameFormat::LammpsDump: write_lammps_dump_frame(*out_, frame); break;
      case FrameFormat::Csv: write_csv_frame(*out_, frame); break;
      case FrameFormat::VtkPolyData: break;
    }
    if (!*out_) throw ExportError("writing frames to " + path_ + " failed (disk full?)");
    // A dump of a scene with bonds: the topology of the first frame as a data file, the bonds of every frame in
    // a dump local beside it (engine/output/export_lammps_dump.hpp).
    if (format_ == FrameFormat::LammpsDump && !frame.bonds.empty()) {
      if (!bond_out_.is_open()) {
        write_export_file(lammps_data_path(side_path_), lammps_data_text(frame));
        bond_out_ = open_for_writing(lammps_bond_dump_path(side_path_), "bonds to");
      }
      write_lammps_bond_dump_frame(bond_out_, frame);
      if (!bond_out_)
        throw ExportError("writing bonds to " + lammps_bond_dump_path(side_path_) + " failed (disk full?)");
    }
  }
  ++frames_;
}

void FrameSeriesWriter::finish() {
  if (format_ == FrameFormat::VtkPolyData) return;  // every file is complete once written
  errno = 0;
  if (!out_->flush()) throw ExportError("writing frames to " + path_ + " failed: " + reason());
  if (bond_out_.is_open() && !bond_out_.flush())
    throw ExportError("writing bonds to " + lammps_bond_dump_path(side_path_) + " failed: " + reason());
}

}  // namespace lodestone
