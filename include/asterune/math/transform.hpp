// Rigid transforms ("CFrames"): rotation + position, no scale. This is the one placement type
// used everywhere in asterune: part placements, attachment frames C0/C1, the animated joint
// transform T. Conventions (rule R0): right-handed, +Y up, characters face -Z, studs.
// `a * b` composes (b expressed in a's frame); `a * p` maps a point.
#pragma once

#include <cmath>
#include <optional>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace asterune {

/// A rigid placement: x' = rotation * x + position. `rotation` is kept unit length.
struct Transform {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // glm order: w, x, y, z
  glm::vec3 position{0.0f};

  static Transform identity() { return {}; }
  static Transform from_position(const glm::vec3& p) { return {glm::quat(1.0f, 0.0f, 0.0f, 0.0f), p}; }
  static Transform from_rotation(const glm::quat& q) { return {q, glm::vec3(0.0f)}; }
};
// Rule RG8: one layout in the library and in every user file. glm's alignment options
// (GLM_FORCE_DEFAULT_ALIGNED_GENTYPES, GLM_FORCE_AVX...) would make a user's Transform 32 bytes
// against the library's 28 and every span of them a different array: refused at compile time.
static_assert(sizeof(Transform) == 28 && alignof(Transform) == 4,
              "asterune: Transform must be 7 packed floats; build without GLM_FORCE_DEFAULT_ALIGNED_GENTYPES "
              "and GLM_FORCE_ALIGNED options (the library is built without them)");

/// Composition a * b: b expressed in a's frame. Associative; identity is neutral.
/// Inline: it is the inner step of every world walk (issue of speed: an out-of-line call
/// returning through memory cost ~30% of world evaluation).
inline Transform compose(const Transform& a, const Transform& b) {
  Transform out;
  out.rotation = a.rotation * b.rotation;
  out.position = a.position + a.rotation * b.position;
  return out;
}
inline Transform operator*(const Transform& a, const Transform& b) { return compose(a, b); }

/// The inverse placement: inverse(t) * t == identity (to float precision).
inline Transform inverse(const Transform& t) {
  Transform out;
  out.rotation = glm::conjugate(t.rotation);
  out.position = -(out.rotation * t.position);
  return out;
}

/// t * p for a point (rotation then translation).
inline glm::vec3 transform_point(const Transform& t, const glm::vec3& p) { return t.rotation * p + t.position; }
/// Rotation only, for directions and offsets.
inline glm::vec3 transform_vector(const Transform& t, const glm::vec3& v) { return t.rotation * v; }
/// inverse(t) * p without building the inverse.
inline glm::vec3 inverse_transform_point(const Transform& t, const glm::vec3& p) {
  return glm::conjugate(t.rotation) * (p - t.position);
}

/// Shortest-path slerp of rotation and lerp of position; alpha 0 gives a, 1 gives b.
/// alpha is not clamped (callers pass weights in [0, 1]).
Transform interpolate(const Transform& a, const Transform& b, float alpha);
/// Shortest-path slerp that stays exact at alpha 0 and 1 and never returns NaN for unit inputs.
glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b, float alpha);

/// Widest rotation between two keys (radians, 20 degrees) that key sampling blends by
/// normalized lerp; wider pairs are slerped (see nlerp_or_slerp).
inline constexpr float kNlerpMaxKeyAngle = 0.34906585f;
/// cos(kNlerpMaxKeyAngle / 2): the |dot| of two unit quaternions at that rotation apart.
inline constexpr float kNlerpMinKeyDot = 0.98480775f;
/// Bound on the angle (radians) between nlerp_or_slerp() and slerp_shortest() for unit keys.
/// For keys theta apart nlerp deviates from slerp by about theta^3 / (144 sqrt 3) at its worst
/// alpha (~0.21 and ~0.79): 1.1e-5 rad for 8 degrees, 1.71e-4 rad (0.0098 deg) for 20 degrees;
/// plus float rounding.
inline constexpr float kNlerpMaxError = 1.8e-4f;

/// Shortest-path interpolation for sampling keys: normalized lerp when a and b are within
/// kNlerpMaxKeyAngle of each other (no acos/sin; error <= kNlerpMaxError against
/// slerp_shortest), slerp_shortest otherwise. Exact at alpha 0 and 1; never NaN for unit inputs.
/// Inline: it runs for every rotation track of every sampled frame.
inline glm::quat nlerp_or_slerp(const glm::quat& a, const glm::quat& b, float alpha) {
  const float d = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
  if (std::fabs(d) < kNlerpMinKeyDot || alpha == 0.0f || alpha == 1.0f) return slerp_shortest(a, b, alpha);
  const float s = d < 0.0f ? -alpha : alpha;  // shortest arc: blend toward -b
  const float r = 1.0f - alpha;
  const glm::quat q(r * a.w + s * b.w, r * a.x + s * b.x, r * a.y + s * b.y, r * a.z + s * b.z);
  // |q| >= cos(kNlerpMaxKeyAngle / 4) > 0.99 here, so the division is always safe.
  return q * (1.0f / std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z));
}

/// True when every component is finite (no NaN, no infinity). Inline: the per-frame paths
/// check every candidate and blend with it.
inline bool is_finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
inline bool is_finite(const glm::quat& q) {
  return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}
inline bool is_finite(const Transform& t) { return is_finite(t.rotation) && is_finite(t.position); }

/// The column-major rotation matrix of q (glm convention: m[column][row]).
glm::mat3 rotation_matrix(const glm::quat& q);

/// Normalizes q; returns nullopt for a zero-length or nonfinite quaternion.
std::optional<glm::quat> normalized_rotation(const glm::quat& q);

/// Any unit vector orthogonal to the unit vector v (deterministic).
glm::vec3 any_orthogonal(const glm::vec3& v);

/// Rotation taking unit vector `from` onto unit vector `to` by the shortest arc. For opposite
/// vectors it turns 180 degrees about an axis orthogonal to `from`. Inline: the solvers call it
/// in their inner steps.
inline glm::quat rotation_between(const glm::vec3& from, const glm::vec3& to) {
  const float d = glm::dot(from, to);
  if (d < -0.999999f) {
    const glm::vec3 axis = any_orthogonal(from);
    return glm::quat(0.0f, axis.x, axis.y, axis.z);
  }
  // Half-way quaternion: q = (1 + d, from x to) normalized; exact for unit inputs.
  const glm::vec3 c = glm::cross(from, to);
  return glm::normalize(glm::quat(1.0f + d, c.x, c.y, c.z));
}

/// |a - b| computed in double, so it does not overflow for far-apart finite points (glm::length
/// squares in float and gives inf beyond ~1.8e19); a distance past float range gives FLT_MAX.
/// NaN in gives NaN. Used for residuals, which must stay finite for finite input.
float distance_between_wide(const glm::vec3& a, const glm::vec3& b);
/// Inline: the float form when the largest coordinate of a - b lies in (1e-18, 1e18), where
/// its square is a normal float far from overflow; the double form (distance_between_wide)
/// otherwise, zero and NaN included.
inline float distance_between(const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 d = a - b;
  const float ax = std::fabs(d.x), ay = std::fabs(d.y), az = std::fabs(d.z);
  const float ayz = ay < az ? az : ay;  // std::max(ay, az) without <algorithm>
  const float m = ax < ayz ? ayz : ax;
  if (m < 1e18f && m > 1e-18f) return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  return distance_between_wide(a, b);
}

/// Angle of rotation of q in radians, in [0, pi].
float rotation_angle(const glm::quat& q);

}  // namespace asterune
