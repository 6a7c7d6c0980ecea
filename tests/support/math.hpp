// Test math shared by every test module: angles, rotations and finiteness checks written
// independently of the library's own helpers, so a check never reuses the code it tests.
#pragma once

#include <cmath>
#include <random>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/math/scalar.hpp"

namespace asterune::test {

using asterune::kPi;  // the library's one definition (math/scalar.hpp)
inline constexpr float kDeg = asterune::kDegToRad;  // radians per degree

inline bool finite_vec(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
inline bool finite_quat(const glm::quat& q) {
  return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

/// Rotation of `deg` degrees about `axis` (normalized here).
inline glm::quat axis_angle_deg(float deg, const glm::vec3& axis) {
  return glm::angleAxis(glm::radians(deg), glm::normalize(axis));
}

/// True when two unit quaternions are the same rotation (either sign) within `eps` of |dot| = 1.
inline bool same_rotation(const glm::quat& a, const glm::quat& b, float eps) {
  return std::fabs(std::fabs(glm::dot(a, b)) - 1.0f) <= eps;
}

/// Angle between two nonzero vectors, degrees (acos of the normalized dot, clamped).
inline float angle_deg(const glm::vec3& a, const glm::vec3& b) {
  const double d = glm::dot(glm::normalize(a), glm::normalize(b));
  return static_cast<float>(std::acos(std::fmax(-1.0, std::fmin(1.0, d))) * 180.0 / 3.14159265358979323846);
}

/// Rotation angle of a unit quaternion, degrees in [0, 180].
inline float quat_angle_deg(const glm::quat& q) {
  const double w = std::fmin(1.0, std::fabs(static_cast<double>(q.w)));
  return static_cast<float>(2.0 * std::acos(w) * 180.0 / 3.14159265358979323846);
}

/// Angle in radians between two rotations (sign of the quaternion ignored).
inline float angle_between(const glm::quat& a, const glm::quat& b) {
  // atan2 form: exact near zero, where acos(dot) loses all precision in float.
  const glm::quat r = glm::conjugate(glm::normalize(a)) * glm::normalize(b);
  return 2.0f * std::atan2(std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z), std::fabs(r.w));
}

/// Angle in radians between two nonzero vectors.
inline float angle_between(const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 u = glm::normalize(a), v = glm::normalize(b);
  return std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v));
}

/// A deterministic random rotation: uniform random axis, angle uniform in [0, max_angle].
inline glm::quat random_rotation(std::mt19937& rng, float max_angle = 3.14159265f) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  glm::vec3 axis;
  do {
    axis = glm::vec3(u(rng), u(rng), u(rng));
  } while (glm::length(axis) < 0.1f || glm::length(axis) > 1.0f);
  const float angle = max_angle * (0.5f * (u(rng) + 1.0f));
  return glm::angleAxis(angle, glm::normalize(axis));
}

}  // namespace asterune::test
