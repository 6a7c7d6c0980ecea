// Scalar helpers shared by every module: the one definition of pi, degree/radian factors and
// the angle wrap, so that no file keeps a private copy with a different precision.
#pragma once

#include <cmath>
#include <numbers>

namespace asterune {

inline constexpr float kPi = std::numbers::pi_v<float>;
inline constexpr float kDegToRad = kPi / 180.0f;
inline constexpr float kRadToDeg = 180.0f / kPi;

/// The cubic smoothstep of x clamped to [0, 1]: 0 at 0, 1 at 1, zero slope at both ends (the
/// soft reach, the IK reach window and the planted feet's blend fade through it).
inline float smoothstep01(float x) {
  const float u = x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
  return u * u * (3.0f - 2.0f * u);
}

/// `radians` wrapped into the canonical interval (-pi, pi] (rule LA3). Nonfinite input gives 0.
inline float canonical_angle(float radians) {
  // Already canonical (most measured angles are): remainder would return it unchanged.
  if (radians > -kPi && radians <= kPi) return radians;
  if (!std::isfinite(radians)) return 0.0f;
  float a = std::remainder(radians, 2.0f * kPi);  // [-pi, pi]
  if (a <= -kPi) a += 2.0f * kPi;
  if (a > kPi) a -= 2.0f * kPi;
  return a;
}

}  // namespace asterune
