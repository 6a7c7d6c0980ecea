// The no-roll turn of a whole look-at share as one quaternion: a yaw about up then a pitch about
// the turned heading's side axis, each a half-vector quaternion, multiplied out. Shared by the
// chain's clamped closed form (look_at.cpp) and the one-joint entry (look_at_one_joint.cpp).
#pragma once

#include <cmath>

namespace asterune::detail {

/// The two half-vector pairs of a no-roll turn and the factor that makes their product unit.
/// The yaw (cd, sd) and the pitch (ce, se) are cosine and sine pairs, unit to rounding.
struct HalfTurns {
  float yc, sd;  // the yaw's half vector: proportional to (cos(yaw / 2), sin(yaw / 2))
  float pc, se;  // the pitch's
  float inv_norm;  // 1 / (|(yc, sd)| |(pc, se)|)
};

/// Near a half turn (cos < -0.9: more than about 154 degrees), 1 + cos loses its digits to the
/// rounding of cos (1 + cos is 1.5e-6 at 0.1 degrees short of a half turn, and cos carries
/// 6e-8), and 2 (1 + cos) is no longer the square of the half vector's length, so a product
/// normalized by it is not unit (by 3% at 0.1 degrees; rules LA1, LA3). There the half vector is
/// (r + c, s) with r = |(c, s)|, its first part written s^2 / (r - c) (no cancellation), and the
/// product is normalized by its own length. False when either turn is a half turn to rounding
/// (no direction to turn in): the caller's general form takes it.
[[gnu::noinline]] inline bool half_turns_near_half(float cd, float sd, float ce, float se, HalfTurns& h) {
  const auto half = [](float c, float s) {
    const float r = std::sqrt(c * c + s * s);
    return c >= 0.0f ? r + c : s * s / (r - c);
  };
  const float yc = half(cd, sd), pc = half(ce, se);
  const float ny = yc * yc + sd * sd, np = pc * pc + se * se;
  if (!(yc > 1e-12f) || !(pc > 1e-12f) || !(ny > 1e-20f) || !(np > 1e-20f)) return false;
  h = HalfTurns{yc, sd, pc, se, 1.0f / std::sqrt(ny * np)};
  return true;
}

/// The half vectors of the yaw (cd, sd) and pitch (ce, se): (1 + c, s) each, the product's
/// length 2 sqrt((1 + cd)(1 + ce)), unless either turn is near a half turn (above).
inline bool half_turns(float cd, float sd, float ce, float se, HalfTurns& h) {
  const float yc = 1.0f + cd, pc = 1.0f + ce;
  if (!(yc > 0.1f) || !(pc > 0.1f)) return half_turns_near_half(cd, sd, ce, se, h);
  h = HalfTurns{yc, sd, pc, se, 0.5f / std::sqrt(yc * pc)};
  return true;
}

}  // namespace asterune::detail
