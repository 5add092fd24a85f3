#pragma once
// Field probes (lodestone-run --field-probe, the remote verb field-at): points read from text, and the field
// at them written back at full precision (docs/outputs.md, "Field probes and slices").
//
// A probe file holds one point per line: three coordinates separated by spaces, tabs or commas, each a
// number in metres or a number with a length unit attached ("1.5mm", "20um"; engine/scene/units.hpp). Blank
// lines and everything after '#' are ignored.

#include "engine/core/math.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lodestone {

// Bad probe or slice input; the message names the file and line or the part of the text, the value, and
// what is allowed.
class FieldInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One coordinate: "0.001", "1mm", "-2.5 um" [m]. Throws FieldInputError naming `what` and the text.
double parse_length(std::string_view text, const std::string& what);
// Three coordinates of one point from words (already split). Throws FieldInputError.
Vec3 parse_point(const std::vector<std::string>& words, const std::string& what);
// The points of a probe file's text; `source` names it in errors ("probes.txt").
std::vector<Vec3> parse_probe_points(std::string_view text, const std::string& source);
// Reads and parses a probe file; throws FieldInputError when it cannot be read, holds no point or a bad line.
std::vector<Vec3> load_probe_points(const std::string& path);

// The shortest text that reads back as exactly `value` (std::to_chars).
void append_shortest(std::string& out, double value);
// The CSV of --field-probe: header, and the rows of one time (one per point). Columns in docs/outputs.md.
std::string field_probe_header();
std::string field_probe_rows(std::int64_t step, double time, const std::vector<Vec3>& points,
                             const std::vector<Vec3>& field);

}  // namespace lodestone
