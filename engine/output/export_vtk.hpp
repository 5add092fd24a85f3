#pragma once
// Particle frames as VTK XML PolyData (.vtp), one file per frame, and the ParaView
// collection (.pvd) that lists the frames with their times. Each particle is a point with one
// VTK vertex cell (so ParaView draws the points and Glyph filters work) and point data: id,
// material, radius, velocity, angular_velocity, orientation, easy_axis, moment, force, torque,
// alignment, cluster. Each bond (engine/bodies/bonds.hpp) is a line cell between its two particles, after
// the vertex cells, with cell data bond_intact (1 intact, 0 broken, -1 for the vertex cells) and bond_stretch
// ((|d| - L0) / L0, 0 for the vertex cells); scenes without bonds have no lines and no cell data. Field data
// carries TimeValue [s], Step and, with bonds, IntactBonds and BrokenBonds. A comment after the XML
// declaration names the program and its version. Columns and units: docs/outputs.md.
//
// Encodings (VtkEncoding): ascii (text, the default), base64 (format="binary": each array inline as base64 of
// a UInt64 byte count and the little-endian values) and raw (format="appended": the arrays' bytes, each after its
// UInt64 byte count, in one <AppendedData encoding="raw"> block at the end, offsets counted from the byte after
// its '_'). Binary files hold the same bits as the doubles in memory; ascii writes the shortest decimal that reads
// back to the same double, so all three read back to the same arrays. The field data stays ascii.

#include "engine/output/frame_fields.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lodestone {

enum class VtkEncoding : int { Ascii, Base64, Raw };
inline constexpr int kVtkEncodingCount = 3;
// "ascii", "base64", "raw": the names of --vtk-encoding and the Export panel.
const char* vtk_encoding_name(VtkEncoding encoding);
// The encoding of a name (exact, lower case); nullopt for anything else.
std::optional<VtkEncoding> vtk_encoding_of(const std::string& name);

// The .vtp document of one frame.
std::string vtp_text(const FrameFields& frame, VtkEncoding encoding = VtkEncoding::Ascii);

// Standard base64 (RFC 4648, with '=' padding) of `size` bytes.
std::string base64_encode(const void* data, size_t size);

// One frame of a collection: its time [s] and its file, relative to the .pvd.
struct PvdEntry {
  double time = 0.0;
  std::string file;
};
// The .pvd document listing `entries` in order.
std::string pvd_text(const std::vector<PvdEntry>& entries);

// "stem_000123.vtp": frame files numbered by frame (from 0), at least six digits.
std::string vtp_frame_name(const std::string& stem, std::int64_t frame);

}  // namespace lodestone
