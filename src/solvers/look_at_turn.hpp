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

/// The half vectors of the yaw (cd, sd) and pitch (ce, se): (1 + c, s) each, the product's
/// length 2 sqrt((1 + cd)(1 + ce)). Near a half turn (1 + c < 0.1: more than about 154
/// degrees) 1 + c loses its digits to the rounding of c (it is 1.5e-6 at 0.1 degrees short of a
/// half turn, and c carries 6e-8), and 2 (1 + c) is no longer the half vector's squared length,
/// so the product normalized by it is not unit (by 3% at 0.1 degrees; rules LA1, LA3). There the
/// first part is written s^2 / (1 - c) (equal for a unit pair, with no cancellation: 1 - c is
/// near 2), and the product is normalized by its own length. False when either turn is a half
/// turn to rounding (no direction to turn in): the caller's general form takes it.
inline bool half_turns(float cd, float sd, float ce, float se, HalfTurns& h) {
  float yc = 1.0f + cd, pc = 1.0f + ce;
  if (yc > 0.1f && pc > 0.1f) [[likely]] {
    h = HalfTurns{yc, sd, pc, se, 0.5f / std::sqrt(yc * pc)};
    return true;
  }
  if (!(yc > 0.1f)) yc = sd * sd / (1.0f - cd);
  if (!(pc > 0.1f)) pc = se * se / (1.0f - ce);
  const float n2 = (yc * yc + sd * sd) * (pc * pc + se * se);
  if (!(yc > 1e-12f) || !(pc > 1e-12f) || !(n2 > 1e-30f)) return false;
  h = HalfTurns{yc, sd, pc, se, 1.0f / std::sqrt(n2)};
  return true;
}

}  // namespace asterune::detail
