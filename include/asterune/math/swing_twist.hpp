// Swing-twist decomposition of a rotation about an axis. Joint limits (rule IK8) are stated
// in these terms rather than Euler angles: the twist is the turn about the joint's own axis,
// the swing is the remaining tilt of that axis.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace asterune {

/// q == swing * twist, where twist turns about `axis` only and swing turns about an axis
/// orthogonal to `axis` (so swing * axis is where q sends the axis).
struct SwingTwist {
  glm::quat swing{1.0f, 0.0f, 0.0f, 0.0f};
  glm::quat twist{1.0f, 0.0f, 0.0f, 0.0f};
};

/// Decomposes the unit quaternion q about the unit vector `axis`. When q turns the axis by
/// exactly 180 degrees the twist is undefined; it is then the identity (all of q is swing).
/// Both parts are unit quaternions with w >= 0. Never returns NaN for finite unit input.
SwingTwist swing_twist(const glm::quat& q, const glm::vec3& axis);

/// Signed angle (radians, in [-pi, pi]) of a twist quaternion about `axis`, right-hand rule.
float twist_angle(const glm::quat& twist, const glm::vec3& axis);

/// Angle (radians, in [0, pi]) by which a swing quaternion tilts its axis.
float swing_angle(const glm::quat& swing);

}  // namespace asterune
