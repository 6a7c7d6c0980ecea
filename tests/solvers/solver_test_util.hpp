// Small geometry helpers for the solver tests (hand-derived checks, no solver code reused).
#pragma once

#include <cmath>
#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace asterune::test {

inline bool finite_vec(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
inline bool finite_quat(const glm::quat& q) {
  return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

/// Angle between two nonzero vectors, degrees (acos of the normalized dot, clamped).
inline float angle_deg(const glm::vec3& a, const glm::vec3& b) {
  const double d = glm::dot(glm::normalize(a), glm::normalize(b));
  return static_cast<float>(std::acos(std::fmax(-1.0, std::fmin(1.0, d))) * 180.0 / 3.14159265358979323846);
}

inline glm::quat axis_angle_deg(float deg, const glm::vec3& axis) {
  return glm::angleAxis(glm::radians(deg), glm::normalize(axis));
}

/// Rotation angle of a unit quaternion, degrees in [0, 180] (independent of asterune's helper).
inline float quat_angle_deg(const glm::quat& q) {
  const double w = std::fmin(1.0, std::fabs(static_cast<double>(q.w)));
  return static_cast<float>(2.0 * std::acos(w) * 180.0 / 3.14159265358979323846);
}

}  // namespace asterune::test
