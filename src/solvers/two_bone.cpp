// Analytic two-bone IK (see include/asterune/solvers/two_bone.hpp, docs/solvers.md).
#include "asterune/solvers/two_bone.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/scalar.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

namespace {

constexpr float kTiny = 1e-6f;


bool soft_reach_on(float s) { return std::isfinite(s) && s > 0.0f && s < 1.0f; }

// Unit component of v orthogonal to the unit axis, or zero when v is (nearly) along it.
glm::vec3 orthogonal_part(const glm::vec3& v, const glm::vec3& axis, float min_len) {
  const glm::vec3 p = v - glm::dot(v, axis) * axis;
  const float len = glm::length(p);
  return len > min_len ? p / len : glm::vec3(0.0f);
}

// The current root->end axis (unit), for carrying the bend over: only the carried-bend and
// target-at-the-root paths need it, so it is computed there, not on every solve.
struct CurrentAxis {
  glm::vec3 axis;
  bool has;  // the current pose has a root->end axis (else the upper segment's direction)
};

CurrentAxis current_axis(const TwoBoneInput& in, const glm::vec3& upper, float a, float full) {
  const glm::vec3 cur = in.end - in.root;
  const float cur_len = glm::length(cur);
  const bool has = cur_len > kTiny * full;
  return {has ? cur / cur_len : upper / a, has};
}

// The bend direction carried over from the previous frame (or the current pose), moved onto
// the new axis by the shortest arc from the current root->end axis. Zero when none is usable.
// `from_previous` tells whether it came from the caller's previous_bend (tracking history).
glm::vec3 carried_bend(const TwoBoneInput& in, const CurrentAxis& cur, const glm::vec3& axis, bool& from_previous) {
  glm::vec3 source(0.0f);
  from_previous = false;
  if (is_finite(in.previous_bend) && glm::length(in.previous_bend) > kTiny) {
    source = glm::normalize(in.previous_bend);
    from_previous = true;
  } else if (cur.has) {
    source = orthogonal_part(in.mid - in.root, cur.axis, kTiny * glm::length(in.mid - in.root) + 1e-12f);
  }
  if (source == glm::vec3(0.0f)) return source;
  if (cur.has) source = rotation_between(cur.axis, axis) * source;
  const glm::vec3 out = orthogonal_part(source, axis, 1e-4f);
  if (out == glm::vec3(0.0f)) from_previous = false;
  return out;
}

// `toward` is the axis before normalization (the root->target vector, or the unit axis) and
// `toward2` its squared length: the pole is projected off it without waiting for the axis's
// square root and division.
glm::vec3 choose_bend(const TwoBoneInput& in, const TwoBoneSettings& settings, const glm::vec3& upper, float a,
                      const glm::vec3& axis, const glm::vec3& toward, float toward2, float reach) {
  if (in.has_pole && is_finite(in.pole)) {
    const glm::vec3 pv = in.pole - in.root;
    const float pv2 = glm::dot(pv, pv);  // compared squared: no square root of |pv| is needed
    if (pv2 > (kTiny * reach) * (kTiny * reach)) {
      const glm::vec3 perp = pv - (glm::dot(pv, toward) / toward2) * toward;
      const float perp2 = glm::dot(perp, perp);
      const float perp_len = std::sqrt(perp2);
      if (perp2 > 1e-10f * pv2) {  // the sine of the pole off the axis above 1e-5
        const glm::vec3 p = perp * (1.0f / perp_len);
        // No tracking history: the pole decides at once.
        if (!is_finite(in.previous_bend) || !(glm::dot(in.previous_bend, in.previous_bend) > kTiny * kTiny)) return p;
        bool from_previous = false;
        const glm::vec3 carry = carried_bend(in, current_axis(in, upper, a, reach), axis, from_previous);
        if (!from_previous) return p;
        // Well-defined projection (rho >= band): the pole decides on this very solve.
        const float f = settings.pole_band_fraction;
        const float band = (std::isfinite(f) && f > 0.0f) ? f * reach : 0.0f;
        if (!(perp_len < band)) return p;
        // Inside the band the projection's direction is ill-conditioned (it reverses as a
        // target sweeps through the root->pole line): turn the carried bend toward the pole by
        // at most max_bend_turn, yet never lag it by more than (1 - smoothstep(rho/band)) pi,
        // so the bend is on the pole when rho leaves the band (continuous in rho).
        const float angle = std::atan2(glm::dot(glm::cross(carry, p), axis), glm::dot(carry, p));
        const float mag = std::fabs(angle);
        const float limit = settings.max_bend_turn;
        if (!(std::isfinite(limit) && limit > 0.0f)) return p;
        const float allowed_lag = (1.0f - smoothstep01(perp_len / band)) * kPi;
        const float lag = std::max(0.0f, std::min(mag - limit, allowed_lag));
        if (lag <= 0.0f) return p;
        const float t = std::copysign(mag - lag, angle);
        return std::cos(t) * carry + std::sin(t) * glm::cross(axis, carry);
      }
    }
  }
  bool from_previous = false;
  const glm::vec3 carry = carried_bend(in, current_axis(in, upper, a, reach), axis, from_previous);
  if (carry != glm::vec3(0.0f)) return carry;
  return any_orthogonal(axis);
}

// The half-way quaternion of a turn whose cosine is `cosine` and whose axis times sine is
// `sin_axis`: (1 + cosine, sin_axis) normalized. A turn of (nearly) half a circle goes about
// `fallback_axis` (unit).
inline glm::quat half_way_turn(float cosine, const glm::vec3& sin_axis, const glm::vec3& fallback_axis) {
  if (cosine < -0.999999f) return glm::quat(0.0f, fallback_axis.x, fallback_axis.y, fallback_axis.z);
  const glm::quat q(1.0f + cosine, sin_axis.x, sin_axis.y, sin_axis.z);
  return q * (1.0f / std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z));
}

// Shortest-arc rotation between unit vectors (inline copy of rotation_between's formula for
// the hot path; the opposite case turns half-way about `fallback_axis`).
inline glm::quat shortest_arc(const glm::vec3& from, const glm::vec3& to, const glm::vec3& fallback_axis) {
  return half_way_turn(glm::dot(from, to), glm::cross(from, to), fallback_axis);
}

// Rotation taking the orthonormal frame (u0, n0, w0) onto (u1, n1, w1): R = u1 u0^T + n1 n0^T + w1 w0^T.
glm::quat frame_rotation(const glm::vec3& u0, const glm::vec3& n0, const glm::vec3& w0, const glm::vec3& u1,
                         const glm::vec3& n1, const glm::vec3& w1) {
  glm::mat3 m;  // glm: m[column][row]
  for (int c = 0; c < 3; ++c) m[c] = u1 * u0[c] + n1 * n0[c] + w1 * w0[c];
  return glm::quat_cast(m);  // unit to rounding: m is orthonormal (the callers renormalize what they compose)
}

// The reach of one solve: stretch factor k, the stretched segments A = k a and B = k b, and the
// root-to-end distance d: soft reach against the stretched span, then the clamp just inside
// [|A - B|, A + B] (and the max extension).
struct Reach {
  float k, A, B, d;
};

Reach reach_distance(float requested, float a, float b, const TwoBoneSettings& settings) {
  const bool soft = soft_reach_on(settings.soft_reach_start);
  const float k = soft ? two_bone_stretch_factor(requested, a + b, settings.soft_reach_start, settings.max_stretch) : 1.0f;
  const float A = k * a;
  const float B = k * b;
  const float span = A + B;
  const float m = settings.max_extension;
  const bool extension_on = std::isfinite(m) && m > 0.0f && m < 1.0f;
  const float usable = extension_on ? m * span : span;
  float d = soft ? soft_reach_distance(requested, usable, settings.soft_reach_start) : requested;
  const float margin = 1e-4f * span;
  const float hi = std::min(span - margin, usable);
  const float lo = std::min(std::fabs(A - B) + margin, hi);
  return {k, A, B, std::clamp(d, lo, hi)};
}

// The solved chain in the bend plane: the unit axis toward the target, the unit bend direction
// orthogonal to it, the solved upper direction u1 = cos_root axis + sin_root bend, the stretched
// segment lengths and the root-to-end distance.
struct SolvedChain {
  glm::vec3 axis, bend, u1;
  float cos_root, sin_root, A, B, d;
};

// Deltas: map (upper direction, bend-plane normal) onto the solved pair, then the lower segment
// by the shortest arc after the upper delta (a turn about the plane normal). Writes
// r.delta_upper and r.delta_lower; r.mid and r.end are the solved points.
void segment_deltas(const glm::vec3& upper, const glm::vec3& lower, float a, float b, const SolvedChain& s,
                    TwoBoneResult& r) {
  const glm::vec3& axis = s.axis;
  const glm::vec3& bend = s.bend;
  const glm::vec3& u1 = s.u1;
  const float cos_root = s.cos_root, sin_root = s.sin_root, A = s.A, B = s.B, d = s.d;
  const glm::vec3 u0 = upper * (1.0f / a);
  const glm::vec3 n0_raw = glm::cross(upper, lower);
  const float n0_len2 = glm::dot(n0_raw, n0_raw);
  glm::quat delta_upper;
  if (n0_len2 > 1e-6f * (a * a) * (b * b)) [[likely]] {  // sine of the bend above 1e-3
    // Both frames are (segment, plane normal, segment x normal); in the solved one,
    // w1 = u1 x n1 = cos_root bend - sin_root axis (u1 and n1 expanded in bend and axis).
    const float n0_len = std::sqrt(n0_len2);
    const glm::vec3 n0 = n0_raw * (1.0f / n0_len);
    const glm::vec3 w0 = glm::cross(u0, n0);
    const glm::vec3 n1 = glm::cross(bend, axis);  // unit: bend is a unit vector orthogonal to axis
    const glm::vec3 w1 = cos_root * bend - sin_root * axis;
    // The rotation R = u1 u0^T + n1 n0^T + w1 w0^T as a quaternion without building the matrix:
    // its trace is u0.u1 + n0.n1 + w0.w1 and its axial vector (R - R^T) sum of the a x R a, so
    // (1 + trace, u0 x u1 + n0 x n1 + w0 x w1) is the quaternion times 2 sqrt(1 + trace)
    // (quat_cast's w branch, term by term). Turns past about 140 degrees keep quat_cast, which
    // picks the largest component.
    const float tr = glm::dot(u0, u1) + glm::dot(n0, n1) + glm::dot(w0, w1);
    if (tr > -0.5f) [[likely]] {
      const glm::vec3 v = glm::cross(u0, u1) + glm::cross(n0, n1) + glm::cross(w0, w1);
      const float sq = std::sqrt(1.0f + tr);
      const float inv = 0.5f / sq;
      delta_upper = glm::quat(0.5f * sq, v.x * inv, v.y * inv, v.z * inv);
    } else {
      delta_upper = frame_rotation(u0, n0, w0, u1, n1, w1);
    }
    // The lower delta turns about n1. In the plane, as (u1, -w1) coordinates, the lower segment
    // after the upper delta keeps its old coordinates (l0 . u0, -l0 . w0), and the solved one
    // is ((d cos_root - A) / B, d sin_root / B) (end - mid = d axis - A u1). The turn between
    // them is their complex quotient (cos, sin) about n1, and its half-way quaternion is
    // (1 + cos, sin n1) normalized. The old pair is (upper . lower, |n0_raw|) / (a b), since
    // lower . (upper x (upper x lower)) = -|upper x lower|^2; the solved one is taken times B,
    // so the half-way quaternion is (B + X, Y n1) before its normalization and no division
    // waits for a length on the way (1 / (a b) is known early).
    const float inv_ab = 1.0f / (a * b);
    const float ox = glm::dot(upper, lower) * inv_ab;
    const float oy = n0_len * inv_ab;
    const float px = d * cos_root - A;
    const float py = d * sin_root;
    const float hw = B + (px * ox + py * oy);
    const float hs = py * ox - px * oy;
    if (hw > 1e-6f * B) [[likely]] {
      const float inv_len = 1.0f / std::sqrt(hw * hw + hs * hs);
      r.delta_lower = glm::quat(hw * inv_len, (hs * inv_len) * n1.x, (hs * inv_len) * n1.y, (hs * inv_len) * n1.z);
    } else {
      r.delta_lower = glm::quat(0.0f, n1.x, n1.y, n1.z);  // half a turn
    }
  } else {
    const glm::vec3 l0 = lower / b;
    const glm::vec3 l1 = (r.end - r.mid) / B;
    delta_upper = shortest_arc(u0, u1, any_orthogonal(u0));
    r.delta_lower = shortest_arc(glm::normalize(delta_upper * l0), l1, bend);
  }
  r.delta_upper = delta_upper;
}

void report_unchanged(TwoBoneResult& r, const TwoBoneInput& in, const TwoBoneSettings& s) {
  r.report.residual = distance_between(in.end, in.target);
  r.report.reached = r.report.residual <= s.tolerance;
  r.report.passes = 0;
}

}  // namespace

float soft_reach_distance(float distance, float full_reach, float s) {
  if (!soft_reach_on(s) || !(full_reach > 0.0f)) return distance;
  const float start = s * full_reach;
  if (distance <= start) return distance;
  const float band = (1.0f - s) * full_reach;
  return start + band * (1.0f - std::exp(-(distance - start) / band));
}

float two_bone_stretch_ceiling(float s) {
  if (!soft_reach_on(s)) return 0.0f;
  return (1.0f - s) / (0.25f + 1.25f * s);
}

float two_bone_stretch_factor(float distance, float full_reach, float s, float max_stretch) {
  if (!soft_reach_on(s) || !(full_reach > 0.0f) || !(max_stretch > 0.0f) || !std::isfinite(distance)) return 1.0f;
  const float m = std::min(max_stretch, two_bone_stretch_ceiling(s));
  return 1.0f + m * smoothstep01((distance / full_reach - s) / (1.0f - s));
}

TwoBoneResult solve_two_bone(const TwoBoneInput& in, const TwoBoneSettings& settings) {
  TwoBoneResult r;
  r.mid = in.mid;
  r.end = in.end;
  if (is_finite(in.previous_bend)) r.bend_direction = in.previous_bend;
  // 0 * x is 0 for every finite x and NaN for NaN or infinity: one test for all twelve.
  const glm::vec3 probe = 0.0f * in.root + 0.0f * in.mid + 0.0f * in.end + 0.0f * in.target;
  if (!(probe.x + probe.y + probe.z == 0.0f)) {
    r.report = SolveReport{false, false, -1.0f, 0};
    return r;
  }
  const glm::vec3 upper = in.mid - in.root;
  const glm::vec3 lower = in.end - in.mid;
  const float a = glm::length(upper);
  const float b = glm::length(lower);
  const float full = a + b;
  if (!(a > kTiny) || !(b > kTiny) || !std::isfinite(full)) {
    report_unchanged(r, in, settings);
    return r;
  }

  // The new axis toward the target; a target at the root keeps the current root->end axis.
  const glm::vec3 to_target = in.target - in.root;
  const float t2 = glm::dot(to_target, to_target);
  const float requested = std::sqrt(t2);
  const bool toward_target = requested > kTiny * full;
  const glm::vec3 axis = toward_target ? to_target * (1.0f / requested) : current_axis(in, upper, a, full).axis;

  const Reach reach = reach_distance(requested, a, b, settings);
  const float A = reach.A, B = reach.B, d = reach.d;
  r.stretch = reach.k;

  const glm::vec3 bend = choose_bend(in, settings, upper, a, axis, toward_target ? to_target : axis,
                                     toward_target ? t2 : 1.0f, full);

  // Law of cosines at the root: angle between the axis and the upper segment. Its sine by
  // Heron's formula, 2 area / (A d) with 16 area^2 = (A+B-d)(A+B+d)(d+B-A)(d-B+A), not
  // sqrt(1 - cos^2): it does not wait for the cosine's division, and the differences, each at
  // least the clamp's margin, keep its digits near full reach where 1 - cos^2 cancels.
  const float inv_2ad = 1.0f / (2.0f * A * d);
  const float cos_root = std::clamp((A * A + d * d - B * B) * inv_2ad, -1.0f, 1.0f);
  const float sin_root = std::sqrt(std::max(0.0f, ((A + B) - d) * ((A + B) + d))) *
                         std::sqrt(std::max(0.0f, ((d + B) - A) * ((d - B) + A))) * inv_2ad;
  const glm::vec3 u1 = cos_root * axis + sin_root * bend;
  r.mid = in.root + A * u1;
  r.end = in.root + d * axis;
  r.bend_direction = bend;

  const SolvedChain solved{axis, bend, u1, cos_root, sin_root, A, B, d};
  segment_deltas(upper, lower, a, b, solved, r);

  r.report.clamped = std::fabs(d - requested) > 1e-6f * full;
  // The solved end lies on the root->target ray at d, so it is |requested - d| from the target;
  // measured on the points when the target is at the root or too far for a float square.
  r.report.residual = toward_target && requested < 1e18f ? std::fabs(requested - d) : distance_between(r.end, in.target);
  r.report.reached = r.report.residual <= settings.tolerance;
  r.report.passes = 1;
  return r;
}

}  // namespace asterune
