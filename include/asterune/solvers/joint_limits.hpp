// Joint limits as data (rule IK8): hinge and ball-socket with twist, stated in rest-relative
// swing-twist terms (not Euler angles). FABRIK and CCD honour them through ChainLimits.
//
// Frame convention. Each limited joint drives one part. Its REST FRAME is where the part
// would be if the joint were at rest under the part's CURRENT parent:
//     F = parent_world * rest_local
// (rest_local = the part's rest orientation relative to its parent part; for a Motor6D with
// rest T = identity that is rotation(C0 * inverse(C1))). The joint's rest-relative rotation is
//     L = inverse(F) * part_world        (identity at rest; expressed in the part's own axes)
// and the limit constrains L. Axes below are therefore unit vectors in the part's own
// (rest) frame, and angles are radians, right-hand rule about the axis.
#pragma once

#include <cstdint>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace asterune {

enum class JointLimitKind : std::uint8_t {
  kNone,       ///< free joint
  kHinge,      ///< turns about `axis` only, angle in [min_angle, max_angle]
  kBallSocket, ///< `axis` tilts at most cone_angle (swing); twist about it in [min_angle, max_angle]
};

struct JointLimit {
  JointLimitKind kind = JointLimitKind::kNone;
  /// Hinge axis, or the ball-socket's rest axis (the direction the cone opens around and the
  /// twist turns about). Unit, in the part's rest frame (see the file comment).
  glm::vec3 axis{1.0f, 0.0f, 0.0f};
  /// Hinge angle range, or ball-socket twist range (radians, -pi..pi, min <= max).
  float min_angle = 0.0f;
  float max_angle = 0.0f;
  /// Ball-socket: largest swing (tilt of `axis`), radians in [0, pi].
  float cone_angle = 0.0f;

  static JointLimit hinge(const glm::vec3& axis, float min_angle, float max_angle);
  static JointLimit ball_socket(const glm::vec3& axis, float cone_angle, float min_twist, float max_twist);
};

/// Returns the rotation closest (per swing and twist separately) to the rest-relative rotation
/// `rest_relative` that satisfies `limit`. Hinge: the swing is dropped and the twist angle
/// clamped to the nearer end of [min, max] (circular distance). Ball-socket: the swing is
/// shortened to the cone along its own great circle, the twist clamped like a hinge.
/// Result is q == swing' * twist'. None (or nonfinite rotation) returns the input unchanged.
glm::quat clamp_to_limit(const JointLimit& limit, const glm::quat& rest_relative);

/// True when `rest_relative` satisfies `limit` within `tolerance` radians.
bool within_limit(const JointLimit& limit, const glm::quat& rest_relative, float tolerance = 1e-3f);

}  // namespace asterune
