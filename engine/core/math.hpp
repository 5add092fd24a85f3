#pragma once
// Small vector and rotation vocabulary of the engine: Eigen double precision throughout.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>
#include <numbers>

namespace lodestone {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;  // unit quaternion, body frame -> world frame

inline constexpr double pi = std::numbers::pi;
inline constexpr double mu0 = 4e-7 * pi;      // vacuum permeability [T m / A] (pre-2019 SI value)
inline constexpr double mu0_over_4pi = 1e-7;  // [T m / A]

// x rounded to the nearest integer, ties to even: std::nearbyint in the default rounding mode, for |x| < 2^51,
// without the library call that nearbyint costs on the baseline x86-64 target (no SSE4.1 round
// instruction). Adding and removing 1.5 * 2^52 leaves no bits below the units. Hot pair loops use it for
// the minimum image; `volatile`-free because the engine is never built with -ffast-math (which would fold it).
inline double round_to_integer(double x) {
  constexpr double shift = 6755399441055744.0;  // 1.5 * 2^52
  return (x + shift) - shift;
}

inline double sphere_volume(double radius) {
  return 4.0 / 3.0 * pi * radius * radius * radius;
}

// Rotation by the vector angle*axis = w*dt (world frame), applied on the left of q.
// Exact for a constant angular velocity; keeps |q| = 1 up to round-off (renormalised by callers).
inline Quat rotate_by(const Quat& q, const Vec3& rotation_vector) {
  const double angle = rotation_vector.norm();
  if (angle < 1e-300) return q;
  const Quat dq(Eigen::AngleAxisd(angle, rotation_vector / angle));
  return dq * q;
}

// A unit vector perpendicular to unit vector v.
inline Vec3 any_perpendicular(const Vec3& v) {
  Vec3 axis = v.cross(Vec3::UnitX());
  if (axis.squaredNorm() < 1e-12) axis = v.cross(Vec3::UnitY());
  return axis.normalized();
}

// Minimal rotation taking unit vector `from` onto unit vector `to` (written out: Eigen's
// FromTwoVectors pulls in JacobiSVD, which multiplies the compile time of every file).
inline Quat rotation_between(const Vec3& from, const Vec3& to) {
  const double c = from.dot(to);
  if (c < -1.0 + 1e-12) {  // opposite: half turn about any axis perpendicular to `from`
    const Vec3 axis = any_perpendicular(from);
    return Quat(0.0, axis.x(), axis.y(), axis.z());
  }
  const Vec3 axis = from.cross(to);
  Quat q(1.0 + c, axis.x(), axis.y(), axis.z());  // half-angle construction, then normalise
  q.normalize();
  return q;
}

}  // namespace lodestone
