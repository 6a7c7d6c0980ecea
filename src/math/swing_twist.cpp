// Swing-twist decomposition (see include/asterune/math/swing_twist.hpp).
#include "asterune/math/swing_twist.hpp"

#include <cmath>

namespace asterune {

namespace {
glm::quat positive_w(const glm::quat& q) { return q.w < 0.0f ? -q : q; }
}  // namespace

SwingTwist swing_twist(const glm::quat& q_in, const glm::vec3& axis) {
  const glm::quat q = positive_w(q_in);
  // Twist = projection of q's vector part onto the axis, renormalized (q = swing * twist).
  const float p = q.x * axis.x + q.y * axis.y + q.z * axis.z;
  const float n2 = q.w * q.w + p * p;
  SwingTwist out;
  if (!(n2 > 1e-12f)) {
    out.swing = q;  // 180-degree swing: twist undefined, keep it identity
    return out;
  }
  const float inv = 1.0f / std::sqrt(n2);
  out.twist = glm::quat(q.w * inv, axis.x * p * inv, axis.y * p * inv, axis.z * p * inv);
  out.twist = positive_w(out.twist);
  out.swing = positive_w(glm::normalize(q * glm::conjugate(out.twist)));
  return out;
}

float twist_angle(const glm::quat& twist, const glm::vec3& axis) {
  const glm::quat t = positive_w(twist);
  const float s = t.x * axis.x + t.y * axis.y + t.z * axis.z;
  return 2.0f * std::atan2(s, t.w);
}

float swing_angle(const glm::quat& swing) {
  const float w = std::fabs(swing.w);
  const float s = std::sqrt(swing.x * swing.x + swing.y * swing.y + swing.z * swing.z);
  return 2.0f * std::atan2(s, w);
}

}  // namespace asterune
