// The Newton refinement of a yaw-clamped look-at's pitch (docs/performance.md, "Look-at"),
// shared by the chain solve (look_at.cpp) and the one-joint entry (look_at_one_joint.cpp).
#pragma once

#include <algorithm>
#include <cmath>

#include "asterune/solvers/look_at.hpp"

namespace asterune::detail {

/// Refines the pitch (c, s) seeded by the closed form so that G(p) = du c - (dh + k) s - be = 0,
/// k = sqrt(x^2 + zz) - x, x = dh - al c + be s (the target seen from the turned eye, in the
/// limit heading's frame), then clamps it to the frame's pitch limits (rule LA2). False when the
/// geometry leaves Newton's basin (the caller falls back); (c, s) are then unspecified.
inline bool refine_clamped_pitch(const LookAtFrame& f, float dh, float du, float al, float be, float zz, float& c,
                                 float& s) {
  // Newton on G: dp = -G / G', with G' H = -(du s + dh c + c k) H + s k x' (one division).
  // (c, s) turns by dp through the series of cos and sin to dp^4, exact to float for the steps
  // taken here (|dp| < 0.05: the truncation is below 3e-9), so no renormalization is needed.
  for (int step = 0; step < 3; ++step) {
    const float x = dh - al * c + be * s;
    const float hl = std::sqrt(x * x + zz);
    const float k = hl - x;
    const float g = du * c - (dh + k) * s - be;
    const float dgh = -(du * s + dh * c + c * k) * hl + s * k * (al * s + be * c);
    if (!(dgh < -1e-6f * hl) || !(hl > 1e-6f)) return false;  // G falls through its root when the target is ahead
    const float dp = -g * hl / dgh;
    if (!(std::fabs(dp) < 0.05f)) return false;
    const float dp2 = dp * dp;
    const float cos_dp = 1.0f - dp2 * (0.5f - dp2 * (1.0f / 24.0f));
    const float sin_dp = dp * (1.0f - dp2 * (1.0f / 6.0f));
    const float nc = c * cos_dp - s * sin_dp;
    s = s * cos_dp + c * sin_dp;
    c = nc;
    // Quadratic convergence: below 3e-4 the next correction is under float rounding.
    if (std::fabs(dp) < 3e-4f) break;
  }
  if (!std::isfinite(s) || !(c > 0.0f)) return false;
  const float sl = std::clamp(std::clamp(s, f.sin_pitch_low, f.sin_pitch_high), -f.sin_pitch_max, f.sin_pitch_max);
  if (sl != s) {
    s = sl;
    c = std::sqrt(std::max(0.0f, 1.0f - s * s));
  }
  return true;
}

}  // namespace asterune::detail
