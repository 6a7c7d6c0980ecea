// Joint limits in rest-relative swing-twist terms (see include/asterune/solvers/joint_limits.hpp).
#include "asterune/solvers/joint_limits.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/scalar.hpp"
#include "asterune/math/swing_twist.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

namespace {


glm::vec3 unit_axis(const glm::vec3& axis) {
  const float len = glm::length(axis);
  return (std::isfinite(len) && len > 1e-6f) ? axis / len : glm::vec3(1.0f, 0.0f, 0.0f);
}

// Clamps `angle` into [lo, hi], choosing the nearer end by circular distance when outside.
float clamp_angle(float angle, float lo, float hi) {
  if (angle >= lo && angle <= hi) return angle;
  const float to_lo = std::fabs(canonical_angle(angle - lo));
  const float to_hi = std::fabs(canonical_angle(angle - hi));
  return to_lo <= to_hi ? lo : hi;
}

float outside_by(float angle, float lo, float hi) {
  if (angle >= lo && angle <= hi) return 0.0f;
  return std::min(std::fabs(canonical_angle(angle - lo)), std::fabs(canonical_angle(angle - hi)));
}

}  // namespace

JointLimit JointLimit::hinge(const glm::vec3& axis, float min_angle, float max_angle) {
  JointLimit l;
  l.kind = JointLimitKind::kHinge;
  l.axis = unit_axis(axis);
  l.min_angle = std::min(min_angle, max_angle);
  l.max_angle = std::max(min_angle, max_angle);
  return l;
}

JointLimit JointLimit::ball_socket(const glm::vec3& axis, float cone_angle, float min_twist, float max_twist) {
  JointLimit l;
  l.kind = JointLimitKind::kBallSocket;
  l.axis = unit_axis(axis);
  l.cone_angle = std::clamp(cone_angle, 0.0f, kPi);
  l.min_angle = std::min(min_twist, max_twist);
  l.max_angle = std::max(min_twist, max_twist);
  return l;
}

glm::quat clamp_to_limit(const JointLimit& limit, const glm::quat& rest_relative) {
  if (limit.kind == JointLimitKind::kNone || !is_finite(rest_relative)) return rest_relative;
  const auto unit = normalized_rotation(rest_relative);
  if (!unit) return rest_relative;
  const glm::vec3 axis = unit_axis(limit.axis);
  const SwingTwist st = swing_twist(*unit, axis);
  const float twist = clamp_angle(twist_angle(st.twist, axis), limit.min_angle, limit.max_angle);
  const glm::quat twist_q = glm::angleAxis(twist, axis);
  if (limit.kind == JointLimitKind::kHinge) return twist_q;

  glm::quat swing = st.swing;
  const float swing_ang = swing_angle(swing);
  const float cone = std::clamp(limit.cone_angle, 0.0f, kPi);
  if (swing_ang > cone) {
    const glm::vec3 v(swing.x, swing.y, swing.z);
    const float len = glm::length(v);
    swing = len > 1e-9f ? glm::angleAxis(cone, v / len) : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  }
  return glm::normalize(swing * twist_q);
}

bool within_limit(const JointLimit& limit, const glm::quat& rest_relative, float tolerance) {
  if (limit.kind == JointLimitKind::kNone) return true;
  const auto unit = normalized_rotation(rest_relative);
  if (!unit) return false;
  const glm::vec3 axis = unit_axis(limit.axis);
  const SwingTwist st = swing_twist(*unit, axis);
  const float twist_out = outside_by(twist_angle(st.twist, axis), limit.min_angle, limit.max_angle);
  const float swing_max = limit.kind == JointLimitKind::kHinge ? 0.0f : limit.cone_angle;
  return twist_out <= tolerance && swing_angle(st.swing) <= swing_max + tolerance;
}

}  // namespace asterune
