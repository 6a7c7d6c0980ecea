#include "asterune/solvers/look_at.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/scalar.hpp"
#include "asterune/math/transform.hpp"
#include "look_at_measure.hpp"
#include "look_at_one_joint.hpp"
#include "math/atan2_poly.hpp"
#include "look_at_pitch.hpp"
#include "look_at_turn.hpp"

namespace asterune {
namespace {

constexpr float kHalfPi = kPi / 2.0f;
constexpr float kMaxPitch = 1.5533430f;  // 89 degrees: keeps the yaw of the facing defined
constexpr float kReachedAngle = 1e-3f;

// Yaw (about up, from forward toward side) and absolute pitch of a unit direction.
glm::vec2 angles_in(const LookAtFrame& f, const glm::vec3& dir) {
  const float u = glm::dot(dir, f.up);
  const float x = glm::dot(dir, f.side);
  const float z = glm::dot(dir, f.forward);
  const float yaw = canonical_angle(std::atan2(x, z));
  const float pitch = std::atan2(u, std::sqrt(x * x + z * z));
  return {yaw, pitch};
}

// Angle between two unit vectors. Below 1e-3 rad the sine is the angle to 2e-10, so the
// small residuals of a converged solve need no atan2.
float angle_between(const glm::vec3& a, const glm::vec3& b) {
  const float s = glm::length(glm::cross(a, b));
  const float c = glm::dot(a, b);
  if (s < 1e-3f && c > 0.0f) return s;
  return std::atan2(s, c);
}

// The clamped direction to look along from `eye` at `target`, without trigonometry: yaw is
// compared through the heading's cosine, pitch through its sine (monotonic on [-90, 90] deg).
struct Want {
  glm::vec3 dir;      // unit, after the limits
  float heading_x;    // unit heading of dir in (side, forward) coordinates
  float heading_z;
  float sin_pitch;    // of dir
  float x, z, u;      // the unclamped direction in (side, forward, up), for the report angles
  bool yaw_clamped;
  bool clamped;
};

bool want_direction(const LookAtFrame& f, const glm::vec3& eye, const glm::vec3& target, Want& w) {
  const glm::vec3 d = target - eye;
  const float len = glm::length(d);
  if (!(len > 1e-6f) || !std::isfinite(len)) return false;
  const glm::vec3 n = d / len;
  w.u = glm::dot(n, f.up);
  w.x = glm::dot(n, f.side);
  w.z = glm::dot(n, f.forward);
  const float hl = std::sqrt(w.x * w.x + w.z * w.z);
  float hx = 0.0f, hz = 1.0f;  // straight up or down: yaw 0, as atan2(0, 0)
  if (hl > 0.0f) {
    hx = w.x / hl;
    hz = w.z / hl;
  }
  w.yaw_clamped = hz < f.cos_yaw_limit;
  if (w.yaw_clamped) {
    // atan2 gives +pi straight behind (x == 0), which clamps to +limit.
    hx = std::signbit(hx) && !(hx == 0.0f && hz < 0.0f) ? -f.sin_yaw_limit : f.sin_yaw_limit;
    hz = f.cos_yaw_limit;
  }
  const float s = std::clamp(std::clamp(w.u, f.sin_pitch_low, f.sin_pitch_high), -f.sin_pitch_max, f.sin_pitch_max);
  w.heading_x = hx;
  w.heading_z = hz;
  w.sin_pitch = s;
  w.clamped = w.yaw_clamped || s != w.u;
  if (!w.clamped) {
    w.dir = n;
  } else {
    const float c = std::sqrt(std::max(0.0f, 1.0f - s * s));
    w.dir = c * (hx * f.side + hz * f.forward) + s * f.up;
  }
  return true;
}

// The whole no-roll turn taking unit `facing` onto unit `dir`: yaw about up between their
// headings, then pitch in the vertical plane, both as shortest-arc (half-vector) quaternions.
// False when the facing has no heading (along up): the caller uses the angle form.
bool full_turn(const LookAtFrame& f, const glm::vec3& facing, const Want& w, glm::quat& out) {
  const float fx = glm::dot(facing, f.side);
  const float fz = glm::dot(facing, f.forward);
  const float fl = std::sqrt(fx * fx + fz * fz);
  if (!(fl > 1e-6f)) return false;
  const float cos_d = (fz * w.heading_z + fx * w.heading_x) / fl;
  const float sin_d = (fz * w.heading_x - fx * w.heading_z) / fl;
  glm::quat yaw;
  if (1.0f + cos_d > 1e-7f) {
    yaw = glm::normalize(glm::quat(1.0f + cos_d, sin_d * f.up.x, sin_d * f.up.y, sin_d * f.up.z));
  } else {
    yaw = glm::quat(0.0f, f.up.x, f.up.y, f.up.z);  // half a turn (canonical +pi)
  }
  const glm::vec3 e1 = yaw * facing;
  const glm::vec3 c = glm::cross(e1, w.dir);
  const float d = glm::dot(e1, w.dir);
  const glm::quat pitch = glm::normalize(glm::quat(1.0f + d, c.x, c.y, c.z));  // d > -1: same heading
  out = pitch * yaw;  // unit to rounding; the caller renormalizes once per joint
  return true;
}

// The whole no-roll turn about `pivot` after which the facing, cast from the turned eye, passes
// through `target`, in closed form (the eye's parallax included). With o = eye - pivot and
// d = target - pivot, the turned eye sees the target along its facing exactly when the turn
// takes L = o + s f onto d, s > 0 and |L| = |d|. A no-roll turn is a yaw about up followed by a
// pitch about the horizontal axis a = h x up of the new heading h; the pitch keeps the
// component along a, so h must satisfy d . (h x up) = L . a0 (a0: that axis for f), and the
// pitch then turns L's part in the (h, up) plane onto d's. False when the target is inside the
// eye's reach, the facing or target is along up, or the result is not an unclamped full turn:
// the caller then iterates.
bool parallax_turn(const LookAtFrame& f, const glm::vec3& pivot, const glm::vec3& eye, const glm::vec3& facing,
                   const glm::vec3& target, glm::quat& out) {
  const glm::vec3 o = eye - pivot;
  const glm::vec3 d = target - pivot;
  const float of = glm::dot(o, facing);
  const float disc = of * of - glm::dot(o, o) + glm::dot(d, d);
  if (!(disc > 0.0f)) return false;
  const float s = -of + std::sqrt(disc);
  if (!(s > 1e-6f)) return false;
  const glm::vec3 l = o + s * facing;
  // Heading of the facing and its pitch axis a0 = fh x up.
  const glm::vec3 fh = facing - glm::dot(facing, f.up) * f.up;
  const float fh_len = glm::length(fh);
  if (!(fh_len > 1e-4f)) return false;
  const glm::vec3 fh_unit = fh / fh_len;
  const float b = glm::dot(l, glm::cross(fh_unit, f.up));
  // h = (b / |m|) m^ + sqrt(1 - (b / |m|)^2) dh^, with m = up x d and dh the horizontal part of d.
  const glm::vec3 m = glm::cross(f.up, d);
  const float m_len = glm::length(m);
  if (!(m_len > 1e-4f) || !(std::fabs(b) < m_len)) return false;
  const float bm = b / m_len;
  const glm::vec3 h = bm * (m / m_len) + std::sqrt(1.0f - bm * bm) * (glm::cross(m, f.up) / m_len);
  // Yaw fh -> h about up (the shortest arc; opposite headings were refused above).
  const float cos_y = glm::dot(fh_unit, h);
  if (!(1.0f + cos_y > 1e-6f)) return false;
  const glm::quat yaw = rotation_between(fh_unit, h);
  // Pitch: the in-plane parts of yaw * l and d (equal length) in the (h, up) plane.
  const glm::vec3 l1 = yaw * l;
  const glm::vec3 a = glm::cross(h, f.up);
  const glm::vec3 lp = l1 - glm::dot(l1, a) * a;
  const glm::vec3 dp = d - glm::dot(d, a) * a;
  const float lp_len = glm::length(lp);
  const float dp_len = glm::length(dp);
  if (!(lp_len > 1e-6f) || !(dp_len > 1e-6f)) return false;
  const glm::vec3 lu = lp / lp_len;
  const glm::vec3 du = dp / dp_len;
  const float cos_p = glm::dot(lu, du);
  if (!(1.0f + cos_p > 1e-6f)) return false;
  const glm::quat pitch = rotation_between(lu, du);
  const glm::quat q = pitch * yaw;
  // Only an unclamped turn whose facing keeps its heading h (pitch within +-90 degrees).
  const glm::vec3 turned = q * facing;
  const float tx = glm::dot(turned, f.side);
  const float tz = glm::dot(turned, f.forward);
  const float tu = glm::dot(turned, f.up);
  const float tl = std::sqrt(tx * tx + tz * tz);
  if (!(tl > 1e-4f) || glm::dot(turned, h) <= 0.0f) return false;
  if (tz / tl < f.cos_yaw_limit) return false;
  const float su = std::clamp(std::clamp(tu, f.sin_pitch_low, f.sin_pitch_high), -f.sin_pitch_max, f.sin_pitch_max);
  if (su != tu) return false;
  out = q;
  return true;
}

// The whole no-roll turn about `pivot` when the yaw is clamped (w0, measured from `eye`, has
// its heading at a limit), the eye's parallax included, in closed form. The final heading is
// then the limit h itself, so only the final pitch p = (c, s) is unknown. After the yaw onto h
// the pitch turns about a = h x up; in the (h, up) plane the eye offset sits at fixed
// coordinates (al along the facing, be across it), so at pitch p the eye is at
// (al c - be s, oa, al s + be c) in (h, a, up) about the pivot, and D = d - eye has
// x = dh - al c + be s, y = du - al s - be c and z = da (fixed). The facing's pitch is the one
// wanted from that eye when y / |D| = s, i.e. (c > 0) y c = s H with H = sqrt(x^2 + z^2).
// Since y c - s x = du c - dh s - be (the target's offset across the facing line, less the
// eye's), that is
//   G(p) = du c - (dh + k) s - be = 0,   k = H - x = z^2 / (H + x) >= 0.
// For a fixed k this is A c - B s = be, (A, B) = (du, dh + k): with r = |(A, B)| the pitch is
// p = atan2(A, B) - asin(be / r), taken trig-free as (c, s) = ((B cb + A sb) / r, (A cb - B sb) / r),
// sb = be / r, cb = sqrt(1 - sb^2) (the root of the quadratic in s that faces the target).
// k depends on p only through the eye's motion (|dk/dp| <= |o| |z| / H): the closed form at the
// k seen from the unturned eye, then Newton on G with its derivative in closed form,
//   G' = -(du s + dh c) - c k + s k x' / H,   x' = al s + be c,
// reach float rounding in one or two steps (trig-free: square roots and one division a step). The pitch limits then clamp s: s - (wanted sine)
// grows with s while the eye moves less than the target's distance, so the limited fixed
// point is the clamped root. False when the facing is along up, the target is too close to
// the eye, or the turned facing is not on the direction wanted from the turned eye (checked
// below): the caller then iterates the general way. `w` is the wanted direction measured from
// the turned eye (the caller's report uses it).
bool clamped_parallax_turn(const LookAtFrame& f, const glm::vec3& pivot, const glm::vec3& eye, const glm::vec3& facing,
                           const glm::vec3& target, const Want& w0, Want& w, glm::quat& out) {
  const float fu = glm::dot(facing, f.up);
  const float fx = glm::dot(facing, f.side);
  const float fz = glm::dot(facing, f.forward);
  const float fl = std::sqrt(fx * fx + fz * fz);
  if (!(fl > 1e-4f)) return false;
  // The facing's heading fh and its pitch axis fa = fh x up; the yaw takes them onto h and a.
  const float fhx = fx / fl, fhz = fz / fl;  // fh in (side, forward)
  const glm::vec3 fh = fhx * f.side + fhz * f.forward;
  const glm::vec3 fa = glm::cross(fh, f.up);
  const glm::vec3 h = w0.heading_x * f.side + w0.heading_z * f.forward;
  const glm::vec3 a = glm::cross(h, f.up);
  const glm::vec3 o = eye - pivot;
  const float oh = glm::dot(o, fh);
  const float ou = glm::dot(o, f.up);
  const float al = oh * fl + ou * fu;  // the eye along the facing, whose pitch is (fl, fu)
  const float be = ou * fl - oh * fu;  // and across it, in the vertical plane
  const glm::vec3 d = target - pivot;
  const float dh = glm::dot(d, h);
  const float du = glm::dot(d, f.up);
  const float da = glm::dot(d, a) - glm::dot(o, fa);
  const float zz = da * da;
  // The closed form at the k seen from the unturned eye (k = H - x: its absolute rounding is
  // that of H, as small as G's other terms').
  float c = 0.0f, s = 0.0f;
  {
    const float s0 = std::clamp(w0.u, -f.sin_pitch_max, f.sin_pitch_max);
    const float x0 = dh - al * std::sqrt(std::max(0.0f, 1.0f - s0 * s0)) + be * s0;
    const float ca = du, cb_ = dh + (std::sqrt(x0 * x0 + zz) - x0);
    const float r2 = ca * ca + cb_ * cb_;
    if (!(r2 > 1e-12f) || !(be * be < r2)) return false;
    const float inv_r = 1.0f / std::sqrt(r2);
    const float sb = be * inv_r;
    const float cb = std::sqrt(1.0f - sb * sb);
    c = (cb_ * cb + ca * sb) * inv_r;
    s = (ca * cb - cb_ * sb) * inv_r;
  }
  if (!detail::refine_clamped_pitch(f, dh, du, al, be, zz, c, s)) return false;
  // The turn: pitch about a by (p - facing pitch) after the yaw about up from fh to h, each a
  // half-vector quaternion (look_at_turn.hpp: exact near a half turn too), multiplied out
  // (a x up = -h).
  const float cd = fhz * w0.heading_z + fhx * w0.heading_x;
  const float sd = fhz * w0.heading_x - fhx * w0.heading_z;
  const float ce = c * fl + s * fu;
  const float se = s * fl - c * fu;
  detail::HalfTurns ht;
  if (!detail::half_turns(cd, sd, ce, se, ht)) return false;
  const float inv_norm = ht.inv_norm;
  const glm::vec3 v = (ht.pc * sd) * f.up + (ht.yc * se) * a - (se * sd) * h;
  const glm::quat q(ht.pc * ht.yc * inv_norm, v.x * inv_norm, v.y * inv_norm, v.z * inv_norm);
  // Accept only a turn that leaves the facing on the direction wanted from the turned eye.
  const glm::vec3 turned_eye = pivot + q * o;
  const glm::vec3 turned = glm::normalize(q * facing);
  if (!want_direction(f, turned_eye, target, w) || !w.yaw_clamped) return false;
  if (!(glm::length(glm::cross(turned, w.dir)) < 1e-6f) || !(glm::dot(turned, w.dir) > 0.0f)) return false;
  out = q;
  return true;
}

// The angle form: yaw and pitch of `now` (clamped), for a partial share of the turn.
struct Desired {
  float yaw;
  float pitch;
};

Desired desired_angles(const LookAtFrame& f, const Want& w) {
  Desired d;
  d.yaw = w.yaw_clamped ? (w.heading_x < 0.0f ? -f.yaw_limit : f.yaw_limit)
                        : canonical_angle(std::atan2(w.x, w.z));
  d.pitch = std::asin(std::clamp(w.sin_pitch, -1.0f, 1.0f));
  return d;
}

// The no-roll turn that moves `facing` by `share` of the way (in yaw and pitch) to `want`.
glm::quat share_turn(const LookAtFrame& f, const glm::vec3& facing, const Desired& want, float share) {
  const glm::vec2 cur = angles_in(f, facing);
  const float d_yaw = canonical_angle(want.yaw - cur.x);
  const float d_pitch = want.pitch - cur.y;
  const glm::quat q_yaw = glm::angleAxis(share * d_yaw, f.up);
  const glm::vec3 e1 = q_yaw * facing;
  const glm::vec3 n = glm::cross(e1, f.up);
  const float n_len = glm::length(n);
  if (!(n_len > 1e-6f)) return q_yaw;  // facing along up: pitch axis undefined
  const glm::quat q_pitch = glm::angleAxis(share * d_pitch, n / n_len);
  return glm::normalize(q_pitch * q_yaw);
}

// share_turn() without the angles' libm calls: the yaw between the facing's heading and the
// wanted one from their unit headings (cosine and sine by dot and cross products), the pitch
// between (|f_h|, f_u) and the wanted (c, s) the same way, each angle by atan2_poly (within 3e-7
// rad of atan2), then one sine and cosine per share (the two are independent). The pitch axis
// is the turned heading h1 x up; the product pitch * yaw multiplied out (h1 x up x up = -h1).
// The facing along up (no heading) goes to share_turn().
glm::quat share_turn_fast(const LookAtFrame& f, const glm::vec3& facing, const Want& w, float share) {
  const float fx = glm::dot(facing, f.side);
  const float fz = glm::dot(facing, f.forward);
  const float fu = glm::dot(facing, f.up);
  const float fl = std::sqrt(fx * fx + fz * fz);
  if (!(fl > 1e-6f)) return share_turn(f, facing, desired_angles(f, w), share);
  const float inv_fl = 1.0f / fl;
  const float fhx = fx * inv_fl, fhz = fz * inv_fl;
  // Yaw: from the facing's heading to the wanted one, in (-pi, pi] (rule LA3).
  const float d_yaw = canonical_angle(detail::atan2_poly(fhz * w.heading_x - fhx * w.heading_z,
                                                         fhz * w.heading_z + fhx * w.heading_x));
  // Pitch: both within [-pi/2, pi/2], so their difference is the angle of this pair.
  const float ws = std::clamp(w.sin_pitch, -1.0f, 1.0f);
  const float wc = std::sqrt(std::max(0.0f, 1.0f - ws * ws));
  const float d_pitch = detail::atan2_poly(ws * fl - wc * fu, wc * fl + ws * fu);
  const float half_yaw = 0.5f * share * d_yaw;
  const float half_pitch = 0.5f * share * d_pitch;
  const float cy = std::cos(half_yaw), sy = std::sin(half_yaw);
  const float cp = std::cos(half_pitch), sp = std::sin(half_pitch);
  // The heading after the yaw by 2 half_yaw: (x, z) turned from forward toward side.
  const float ca = 1.0f - 2.0f * sy * sy, sa = 2.0f * sy * cy;
  const float h1x = fhx * ca + fhz * sa;
  const float h1z = fhz * ca - fhx * sa;
  // pitch * yaw = (cp cy, cp sy up + cy sp n - sp sy h1), n = h1 x up = -h1z side + h1x forward.
  const float ps = cy * sp, pss = sp * sy;
  const glm::vec3 v = (cp * sy) * f.up + (-ps * h1z - pss * h1x) * f.side + (ps * h1x - pss * h1z) * f.forward;
  return glm::quat(cp * cy, v.x, v.y, v.z);
}

// The report for unit `facing` against `want`, measured from the eye the facing starts from.
// A report's flags and residual: how far the unit `facing` is from the direction wanted.
detail::LookAtResidual residual_from(const Want& want, const glm::vec3& facing) {
  detail::LookAtResidual r;
  r.valid = true;
  r.clamped = want.clamped;
  r.residual = angle_between(facing, want.dir);
  r.reached = !r.clamped && r.residual <= kReachedAngle;
  return r;
}

LookAtReport report_from(const LookAtFrame& f, const Want& want, const glm::vec3& facing) {
  LookAtReport report;
  const Desired d = desired_angles(f, want);
  const detail::LookAtResidual r = residual_from(want, facing);
  report.valid = r.valid;
  report.clamped = r.clamped;
  report.yaw = d.yaw;
  report.pitch = d.pitch - f.rest_pitch;
  report.residual = r.residual;
  report.reached = r.reached;
  return report;
}

// What a measure of an applied pose starts with: the inputs checked, the direction wanted from
// the eye and the unit facing. False when there is nothing to measure (an empty report).
bool measure_want(const glm::vec3& eye, const glm::vec3& facing, const glm::vec3& target, const LookAtFrame& frame,
                  Want& want, glm::vec3& unit_facing) {
  const float facing_len = glm::length(facing);
  if (!is_finite(eye) || !is_finite(target) || !(facing_len > 1e-6f) || !std::isfinite(facing_len)) return false;
  if (!want_direction(frame, eye, target, want)) return false;
  unit_facing = facing / facing_len;
  return true;
}

}  // namespace

LookAtFrame prepare_look_at(const LookAtParams& params) {
  LookAtFrame f;
  const glm::vec3 up_in = is_finite(params.up) ? params.up : glm::vec3(0.0f, 1.0f, 0.0f);
  const glm::vec3 rest_in = is_finite(params.rest_facing) ? params.rest_facing : glm::vec3(0.0f, 0.0f, -1.0f);
  const float up_len = glm::length(up_in);
  f.up = (std::isfinite(up_len) && up_len > 1e-6f) ? up_in / up_len : glm::vec3(0.0f, 1.0f, 0.0f);
  const glm::vec3 fw = rest_in - f.up * glm::dot(rest_in, f.up);
  const float fw_len = glm::length(fw);
  f.forward = (std::isfinite(fw_len) && fw_len > 1e-6f) ? fw / fw_len : any_orthogonal(f.up);
  f.side = glm::cross(f.up, f.forward);
  const float rest_len = glm::length(rest_in);
  const glm::vec3 rest = rest_len > 1e-6f ? rest_in / rest_len : f.forward;
  f.rest_pitch = angles_in(f, rest).y;
  f.yaw_limit = std::isfinite(params.yaw_limit) ? std::clamp(params.yaw_limit, 0.0f, kPi) : 0.0f;
  f.pitch_limit = std::isfinite(params.pitch_limit) ? std::clamp(params.pitch_limit, 0.0f, kPi) : 0.0f;
  f.cos_yaw_limit = f.yaw_limit >= kPi ? -2.0f : std::cos(f.yaw_limit);  // -2: never clamps
  f.sin_yaw_limit = std::sin(f.yaw_limit);
  f.sin_pitch_low = std::sin(std::clamp(f.rest_pitch - f.pitch_limit, -kHalfPi, kHalfPi));
  f.sin_pitch_high = std::sin(std::clamp(f.rest_pitch + f.pitch_limit, -kHalfPi, kHalfPi));
  f.sin_pitch_max = std::sin(kMaxPitch);
  return f;
}

glm::vec2 look_angles(const LookAtParams& params, const glm::vec3& dir) {
  return angles_in(prepare_look_at(params), dir);
}

glm::vec2 look_angles(const LookAtFrame& frame, const glm::vec3& dir) { return angles_in(frame, dir); }

LookAtReport solve_look_at(std::span<const glm::vec3> pivots, const glm::vec3& eye, const glm::vec3& facing,
                           const glm::vec3& target, std::span<const float> weights, const LookAtParams& params,
                           std::span<glm::quat> turns) {
  for (glm::quat& t : turns) t = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  if (!is_finite(params.rest_facing) || !is_finite(params.up)) return LookAtReport{};
  return solve_look_at(pivots, eye, facing, target, weights, prepare_look_at(params), turns);
}

LookAtReport solve_look_at(std::span<const glm::vec3> pivots, const glm::vec3& eye, const glm::vec3& facing,
                           const glm::vec3& target, std::span<const float> weights, const LookAtFrame& frame,
                           std::span<glm::quat> turns) {
  LookAtReport report;
  for (glm::quat& t : turns) t = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  if (pivots.empty() || weights.size() != pivots.size() || turns.size() != pivots.size()) return report;
  // Finite inputs: x - x is 0 for a finite x and NaN otherwise, so one sum of those is 0 exactly
  // when all are finite (one test and one branch for the nine coordinates, not nine).
  {
    const glm::vec3 z = (eye - eye) + (facing - facing) + (target - target);
    if (!(z.x + z.y + z.z == 0.0f)) return report;
  }
  for (const glm::vec3& p : pivots)
    if (!is_finite(p)) return report;
  const float facing_len = glm::length(facing);
  if (!(facing_len > 1e-6f)) return report;

  // One joint taking the whole turn (a head or neck alone): solved in the frame's coordinates
  // without the accumulator below. What it leaves (the facing along up, a half-turn yaw) goes
  // through the loop without the closed forms, which it has already tried.
  bool closed_forms = true;
  if (pivots.size() == 1 && std::isfinite(weights[0]) && weights[0] >= 1.0f) {
    if (detail::solve_look_at_one_joint(frame, pivots[0], eye, facing / facing_len, target, turns[0], report))
      return report;
    closed_forms = false;
  }

  Want want{};
  if (!want_direction(frame, eye, target, want)) return report;

  // Rigid motion accumulated so far (applied to the original points): x -> acc(x).
  Transform acc;
  glm::vec3 cur_eye = eye;
  glm::vec3 cur_facing = facing / facing_len;
  bool fresh = true;  // `want` was measured from cur_eye (bit for bit)
  for (size_t k = 0; k < pivots.size(); ++k) {
    const float w = std::isfinite(weights[k]) ? std::clamp(weights[k], 0.0f, 1.0f) : 0.0f;
    if (w <= 0.0f) continue;
    const glm::vec3 pivot = transform_point(acc, pivots[k]);
    // The last joint taking the whole turn (the neck after a waist's share): the one-joint
    // entry from where the earlier joints left the eye and the facing. Its report is measured
    // from the eye its turn leaves, as the loop's would be. What it leaves goes through the
    // loop below without the closed forms, which it has already tried.
    if (closed_forms && w >= 1.0f && k + 1 == pivots.size()) {
      if (detail::solve_look_at_one_joint(frame, pivot, cur_eye, cur_facing, target, turns[k], report)) return report;
      closed_forms = false;
    }
    glm::quat total(1.0f, 0.0f, 0.0f, 0.0f);
    // A full share with the eye off the pivot is solved in closed form when it can be: turning
    // about the pivot moves the eye, which changes the direction to the target (parallax).
    if (closed_forms && w >= 1.0f && glm::dot(cur_eye - pivot, cur_eye - pivot) > 0.0f) {
      // Past the yaw limit as seen from the eye before the turn: the clamped form first, then
      // the unclamped one (the turn may bring the target inside the limit).
      glm::quat q;
      bool solved = false;
      bool want_at_turned_eye = false;
      fresh = fresh || want_direction(frame, cur_eye, target, want);
      if (fresh && want.yaw_clamped) {
        Want turned_want{};
        if (clamped_parallax_turn(frame, pivot, cur_eye, cur_facing, target, want, turned_want, q)) {
          want = turned_want;
          solved = want_at_turned_eye = true;
        }
      }
      if (!solved) solved = parallax_turn(frame, pivot, cur_eye, cur_facing, target, q);
      if (solved) {
        cur_eye = pivot + q * (cur_eye - pivot);
        cur_facing = glm::normalize(q * cur_facing);
        turns[k] = q;
        acc.position = pivot + q * (acc.position - pivot);
        acc.rotation = glm::normalize(q * acc.rotation);
        fresh = want_at_turned_eye;
        continue;
      }
    }
    // Otherwise a full share is repeated a few times to absorb the parallax.
    const int repeats = w >= 1.0f ? 4 : 1;
    for (int r = 0; r < repeats; ++r) {
      if (!fresh && !want_direction(frame, cur_eye, target, want)) break;
      fresh = true;
      if (r > 0) {
        const float s = glm::length(glm::cross(cur_facing, want.dir));
        if (s < 1e-6f && glm::dot(cur_facing, want.dir) > 0.0f) break;  // within 1e-6 rad
      }
      glm::quat q;
      if (w < 1.0f) {
        q = share_turn_fast(frame, cur_facing, want, w);
      } else if (!full_turn(frame, cur_facing, want, q)) {
        q = share_turn(frame, cur_facing, desired_angles(frame, want), w);
      }
      // q is unit to rounding: renormalize once per joint, not per repeat. An eye at the pivot
      // stays where it is (bit for bit), and so does the direction wanted from it.
      const glm::vec3 moved_eye = pivot + q * (cur_eye - pivot);
      fresh = moved_eye == cur_eye;
      cur_eye = moved_eye;
      cur_facing = q * cur_facing;
      total = q * total;
    }
    cur_facing = glm::normalize(cur_facing);
    total = glm::normalize(total);
    turns[k] = total;
    acc.position = pivot + total * (acc.position - pivot);
    acc.rotation = glm::normalize(total * acc.rotation);
  }

  if (fresh) return report_from(frame, want, cur_facing);
  return measure_look_at(cur_eye, cur_facing, target, frame);
}

LookAtReport measure_look_at(const glm::vec3& eye, const glm::vec3& facing, const glm::vec3& target,
                             const LookAtParams& params) {
  if (!is_finite(params.rest_facing) || !is_finite(params.up)) return LookAtReport{};
  return measure_look_at(eye, facing, target, prepare_look_at(params));
}

LookAtReport measure_look_at(const glm::vec3& eye, const glm::vec3& facing, const glm::vec3& target,
                             const LookAtFrame& frame) {
  Want want{};
  glm::vec3 unit_facing;
  if (!measure_want(eye, facing, target, frame, want, unit_facing)) return LookAtReport{};
  return report_from(frame, want, unit_facing);
}

namespace detail {

// measure_look_at(LookAtFrame) without report_from()'s desired_angles().
LookAtResidual measure_look_at_residual(const glm::vec3& eye, const glm::vec3& facing, const glm::vec3& target,
                                        const LookAtFrame& frame) {
  Want want{};
  glm::vec3 unit_facing;
  if (!measure_want(eye, facing, target, frame, want, unit_facing)) return LookAtResidual{};
  return residual_from(want, unit_facing);
}

}  // namespace detail

}  // namespace asterune
