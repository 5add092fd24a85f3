#pragma once
// Field slices (lodestone-run --field-slice SPEC OUT): a grid of points on an axis-aligned plane, its
// specification text, and the grid of B written as CSV rows and as VTK ImageData (.vti) for ParaView
// (docs/outputs.md, "Field probes and slices").
//
// SPEC is a comma-separated list of key=value parts:
//   z=1mm         the plane: the axis normal to it (x, y or z) = its position (a length, metres or with a unit)
//   axis=z,at=1mm the same, spelled out
//   n=64          points along both in-plane axes (2 to 4096; default 64)
//   nx=32, ny=16  points along one in-plane axis (overrides n for that axis)
//   x=0:5mm       the range along an in-plane axis, LO:HI (default: the box's extent along it)
// e.g. "z=0.001,nx=64,ny=64", "axis=y,at=2.5mm,n=32,x=-1mm:1mm". The in-plane axes are the other two in
// order (z: x then y; y: x then z; x: y then z); the first varies fastest in the CSV and the .vti, as VTK
// orders points. Points are the grid's nodes, both ends included.

#include "engine/core/parameters.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lodestone {

struct FieldSlice {
  int axis = 2;                        // normal to the plane: 0 x, 1 y, 2 z
  double at = 0.0;                     // [m] the plane's position along `axis`
  int count[2] = {64, 64};             // points along the in-plane axes u, v (>= 2)
  std::optional<double> lo[2], hi[2];  // [m] ranges along u, v; unset: the box's

  int u_axis() const { return axis == 0 ? 1 : 0; }
  int v_axis() const { return axis == 2 ? 1 : 2; }
  // Point (i, j), i along u (fastest), j along v; the ranges must be set (fit_to_box).
  Vec3 point(int i, int j) const;
  std::vector<Vec3> points() const;  // index i + count[0] j
  size_t size() const { return static_cast<size_t>(count[0]) * static_cast<size_t>(count[1]); }
};

// Parses SPEC. Throws FieldInputError (engine/output/field_probe.hpp) naming the part, its value and what is allowed.
FieldSlice parse_field_slice(std::string_view spec);
// Sets the unset ranges to the box's extent along those axes.
void fit_to_box(FieldSlice& slice, const BoxParameters& box);

// CSV of the slices: header, and the rows of one time (one per point, i fastest). Columns in docs/outputs.md.
std::string field_slice_header();
std::string field_slice_rows(const FieldSlice& slice, std::int64_t step, double time, const std::vector<Vec3>& field);
// The .vti document of one slice: ImageData, one layer thick along the normal, point data B [T] (3
// components) and B_magnitude [T], field data TimeValue [s] and Step. Full precision.
std::string field_slice_vti(const FieldSlice& slice, std::int64_t step, double time, const std::vector<Vec3>& field);

}  // namespace lodestone
