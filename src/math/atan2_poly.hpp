// atan2 without a libm call, for per-frame reports that need an angle at the end of a
// dependent chain (the look-at's yaw and pitch): glibc's atan2f and asinf cost 20-30 ns each
// there, this about a third. Octant reduction with one division, then Cephes' atanf polynomial
// (peak relative error 1.9e-7 on |t| <= tan(pi/8)): within 3e-7 rad of the exact angle.
// Plain float operations in a fixed order: the same bits on every SSE2 build.
#pragma once

#include <cmath>

#include "asterune/math/scalar.hpp"

namespace asterune::detail {

/// The angle of (x, y) in [-pi, pi], as std::atan2(y, x) to within 3e-7 rad. (0, 0) gives 0.
inline float atan2_poly(float y, float x) {
  const float ax = std::fabs(x), ay = std::fabs(y);
  const bool steep = ay > ax;
  const float lo = steep ? ax : ay, hi = steep ? ay : ax;  // t = lo / hi in [0, 1]
  if (!(hi > 0.0f)) return 0.0f;
  // Past tan(pi/8): atan(t) = pi/4 + atan((t - 1) / (t + 1)), in the same one division.
  const bool upper = lo > 0.41421356f * hi;
  const float t = upper ? (lo - hi) / (lo + hi) : lo / hi;
  const float z = t * t;
  float a = (((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z - 3.33329491539e-1f) * z * t + t;
  if (upper) a += 0.25f * kPi;
  if (steep) a = 0.5f * kPi - a;
  if (x < 0.0f) a = kPi - a;
  return std::signbit(y) ? -a : a;
}

}  // namespace asterune::detail
