// [SECTION] The field table of the `clumps` section (engine/core/clump_parameters.hpp); joined to the preset's
// table in preset_schema.cpp, so it drives parsing, writing, docs/presets.md and the panels like the rest.

#include "engine/scene/preset_io.hpp"

namespace lodestone {

using namespace fields;
namespace r = ranges;
using Q = Quantity;

const Schema<ClumpPebble>& clump_pebble_schema() {
  using P = ClumpPebble;
  static const Schema<P> s = {
      vector3<P>("offset", &P::offset, Q::Length,
                 "Centre relative to the clump's position, in the clump's frame (its z axis is the clump's axis)."),
      real<P>("radius", &P::radius, Q::Length, r::positive(), "Radius."),
      direction<P>("axis", &P::axis, "Easy axis (and moment) direction, in the clump's frame."),
      text<P>("material", &P::material, "Material name; empty: the clump's material."),
      optional_real<P>("moment", &P::moment, Q::MagneticMoment, r::non_negative(), "auto",
                       "Magnitude of the magnetic moment; auto: material magnetisation times the sphere's volume."),
  };
  return s;
}

const Schema<ClumpEntry>& clump_schema() {
  using P = ClumpEntry;
  static const Schema<P> s = {
      choice<P>("shape", &P::shape, {"list", "cube", "bar"},
                "list: the pebbles in `pebbles`; cube: count x count x count pebbles on a cubic lattice; bar: count "
                "pebbles in a row along `axis`."),
      vector3<P>("position", &P::position, Q::Length,
                 "Centre of the cube or bar; for a list, the point the pebble offsets are measured from."),
      direction<P>("axis", &P::axis,
                   "The clump frame's z axis in the world: the bar's length, a cube edge, and the direction of the "
                   "moments of cube and bar pebbles (a list's pebble axes are turned with it)."),
      vector3<P>("velocity", &P::velocity, Q::Velocity, "Initial velocity of the centre of mass."),
      vector3<P>("angular_velocity", &P::angular_velocity, Q::AngularVelocity, "Initial angular velocity."),
      text<P>("material", &P::material, "Material of the pebbles; empty: particles.material."),
      integer<P>("count", &P::count, 1, 1000, "Cube: pebbles per edge (count^3 in all); bar: pebbles in the row."),
      real<P>("pebble_radius", &P::pebble_radius, Q::Length, r::positive(), "Cube and bar: radius of the pebbles."),
      optional_real<P>("spacing", &P::spacing, Q::Length, r::positive(), "auto",
                       "Cube and bar: centre distance of neighbouring pebbles, at most 2 pebble_radius (touching or "
                       "overlapping); auto: 2 pebble_radius."),
      optional_real<P>("moment", &P::moment, Q::MagneticMoment, r::non_negative(), "auto",
                       "Cube and bar: moment of each pebble along `axis`; auto: magnetisation x spacing^3 (each pebble "
                       "stands for its lattice cell, so the clump carries M times the volume of the cube or bar of "
                       "cells, [PFC-dipole]'s square magnets)."),
      object_list<P>("pebbles", &P::pebbles, &clump_pebble_schema, "List: the pebbles."),
  };
  return s;
}

}  // namespace lodestone
