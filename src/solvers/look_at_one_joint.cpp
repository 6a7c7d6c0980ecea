#include "look_at_one_joint.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/scalar.hpp"
#include "math/atan2_poly.hpp"
#include "look_at_pitch.hpp"
#include "look_at_turn.hpp"

// Everything here is in the frame's coordinates (x along side, z along forward, u along up),
// so a cross product with up or a heading is two numbers, and the turned eye, the turned facing
// and the direction wanted from the turned eye come from the solve's own numbers: no quaternion
// rotates a point, and nothing is measured twice. The formulas are those of look_at.cpp's
// parallax_turn() and clamped_parallax_turn() (derivations there), written in coordinates.

namespace asterune::detail {
namespace {

constexpr float kReachedAngle = 1e-3f;

struct Fc {
  float x, z, u;  // along side, forward, up
};

Fc in_frame(const LookAtFrame& f, const glm::vec3& v) { return {glm::dot(v, f.side), glm::dot(v, f.forward), glm::dot(v, f.up)}; }

// The direction wanted along D (any length), clamped as look_at.cpp's want_direction() does:
// yaw through the heading's cosine, pitch through its sine.
struct WantC {
  float hx, hz;  // unit heading after the yaw limit
  float c, s;    // cosine and sine of the pitch after the limits
  float u, cu;   // sine and cosine of D's own pitch
  float x, z;    // D's horizontal part, for the report's yaw
  bool yaw_clamped;
  bool clamped;
};

bool want_along(const LookAtFrame& f, const Fc& d, WantC& w) {
  const float h2 = d.x * d.x + d.z * d.z;
  const float len = std::sqrt(h2 + d.u * d.u);
  if (!(len > 1e-6f) || !std::isfinite(len)) return false;
  const float hl = std::sqrt(h2);
  const float inv_len = 1.0f / len;
  w.u = d.u * inv_len;
  w.x = d.x;
  w.z = d.z;
  float hx = 0.0f, hz = 1.0f;  // straight up or down: yaw 0, as atan2(0, 0)
  if (hl > 0.0f) {
    const float inv_hl = 1.0f / hl;
    hx = d.x * inv_hl;
    hz = d.z * inv_hl;
  }
  w.yaw_clamped = hz < f.cos_yaw_limit;
  if (w.yaw_clamped) {
    // atan2 gives +pi straight behind (x == 0), which clamps to +limit.
    hx = std::signbit(hx) && !(hx == 0.0f && hz < 0.0f) ? -f.sin_yaw_limit : f.sin_yaw_limit;
    hz = f.cos_yaw_limit;
  }
  w.hx = hx;
  w.hz = hz;
  w.s = std::clamp(std::clamp(w.u, f.sin_pitch_low, f.sin_pitch_high), -f.sin_pitch_max, f.sin_pitch_max);
  w.cu = hl * inv_len;
  w.c = w.s == w.u ? w.cu : std::sqrt(std::max(0.0f, 1.0f - w.s * w.s));
  w.clamped = w.yaw_clamped || w.s != w.u;
  return true;
}

// The report's yaw and pitch: the wanted direction's (the limit when the yaw is clamped), the
// angles without a libm call (math/atan2_poly.hpp: within 3e-7 rad), since they end the chain.
float wanted_yaw(const LookAtFrame& f, const WantC& w) {
  return w.yaw_clamped ? (w.hx < 0.0f ? -f.yaw_limit : f.yaw_limit) : canonical_angle(atan2_poly(w.x, w.z));
}
float wanted_pitch(const LookAtFrame& f, float sin_pitch, float cos_pitch) {
  return atan2_poly(sin_pitch, cos_pitch) - f.rest_pitch;
}

// The report of a facing F (frame coordinates, unit) against the direction wanted from the
// eye it starts from, with the angles given.
void report_from(const WantC& w, const Fc& F, float yaw, float pitch, LookAtReport& report) {
  const Fc dir{w.c * w.hx, w.c * w.hz, w.s};
  const float cx = F.z * dir.u - F.u * dir.z;
  const float cz = F.u * dir.x - F.x * dir.u;
  const float cu = F.x * dir.z - F.z * dir.x;
  const float sn = std::sqrt(cx * cx + cz * cz + cu * cu);
  const float cs = F.x * dir.x + F.z * dir.z + F.u * dir.u;
  report.valid = true;
  report.clamped = w.clamped;
  report.yaw = yaw;
  report.pitch = pitch;
  // Below 1e-3 rad the sine is the angle to 2e-10.
  report.residual = (sn < 1e-3f && cs > 0.0f) ? sn : atan2_poly(sn, cs);
  report.reached = !report.clamped && report.residual <= kReachedAngle;
}

// The no-roll turn: a yaw (cd, sd) about up onto the heading h = (hx, hz), then a pitch
// (ce, se) about a = h x up, each a half-vector quaternion (look_at_turn.hpp: exact near a half
// turn too), multiplied out (a x up = -h), with a = -hz side + hx forward. False when either is
// a half turn.
bool compose_turn(const LookAtFrame& f, float hx, float hz, float cd, float sd, float ce, float se, glm::quat& q) {
  HalfTurns t;
  if (!half_turns(cd, sd, ce, se, t)) return false;
  const float yc = t.yc, pc = t.pc, inv_norm = t.inv_norm;
  const float up_k = pc * sd, a_k = yc * se, h_k = se * sd;
  const glm::vec3 v = up_k * f.up + (-a_k * hz - h_k * hx) * f.side + (a_k * hx - h_k * hz) * f.forward;
  q = glm::quat(yc * pc * inv_norm, v.x * inv_norm, v.y * inv_norm, v.z * inv_norm);
  return true;
}

// The facing's heading (unit) and pitch: (fl, fu) in the vertical plane of the heading.
struct FacingC {
  float fl, fu;    // cosine and sine of the facing's pitch
  float fhx, fhz;  // its unit heading
};

// Clamped yaw, eye off the pivot: the heading is the limit h of w0 and only the pitch is solved
// (look_at.cpp, clamped_parallax_turn(): the closed form at the unturned eye's k, then Newton),
// then checked from the turned eye.
bool clamped_turn(const LookAtFrame& f, const FacingC& fc, const Fc& o, const Fc& d, const WantC& w0, glm::quat& turn,
                  LookAtReport& report) {
  const float hx = w0.hx, hz = w0.hz;
  const float oh = o.x * fc.fhx + o.z * fc.fhz;
  const float oa = o.z * fc.fhx - o.x * fc.fhz;  // o . (fh x up)
  const float al = oh * fc.fl + o.u * fc.fu;     // the eye along the facing
  const float be = o.u * fc.fl - oh * fc.fu;     // and across it, in the vertical plane
  const float dh = d.x * hx + d.z * hz;
  const float du = d.u;
  const float da = (d.z * hx - d.x * hz) - oa;
  const float zz = da * da;
  float c = 0.0f, s = 0.0f;
  {
    const float s0 = std::clamp(w0.u, -f.sin_pitch_max, f.sin_pitch_max);
    const float c0 = s0 == w0.u ? w0.cu : std::sqrt(std::max(0.0f, 1.0f - s0 * s0));
    const float x0 = dh - al * c0 + be * s0;
    const float ca = du, cb_ = dh + (std::sqrt(x0 * x0 + zz) - x0);
    const float r2 = ca * ca + cb_ * cb_;
    if (!(r2 > 1e-12f) || !(be * be < r2)) return false;
    // With r = |(A, B)|: sb = be / r, cb = sqrt(r^2 - be^2) / r, so (c, s) needs 1 / r^2 and
    // one square root side by side, not r first.
    const float inv_r2 = 1.0f / r2;
    const float rcb = std::sqrt(r2 - be * be);
    c = (cb_ * rcb + ca * be) * inv_r2;
    s = (ca * rcb - cb_ * be) * inv_r2;
  }
  // The closed form is within about 1e-2 rad of the solved pitch (1e-4 on BM_LookAt1's frames),
  // so the eye it puts there already tells whether the target stays past the same limit: when
  // it does not (the turn brings the target inside the limit, or so near straight behind that
  // it is past the other one: 30 of BM_LookAt1's 629 frames), the refinement and the check
  // below are skipped, and with them the late test that sent such frames to the other forms.
  // Squares, not H: dz < cos_yaw_limit H. The check below still decides what is accepted.
  {
    const float x = dh - al * c + be * s;
    const float dx = x * hx - da * hz, dz = x * hz + da * hx;
    const float cl = f.cos_yaw_limit;
    const float lim2 = cl * cl * (x * x + zz), dz2 = dz * dz;
    const bool past = cl >= 0.0f ? (dz < 0.0f || dz2 < lim2) : (dz < 0.0f && dz2 > lim2);
    const float whx = std::signbit(dx) && !(dx == 0.0f && dz < 0.0f) ? -f.sin_yaw_limit : f.sin_yaw_limit;
    if (!past || whx != hx) return false;
  }
  if (!refine_clamped_pitch(f, dh, du, al, be, zz, c, s)) return false;
  // The direction wanted from the turned eye, which sits at (al c - be s, oa, al s + be c) in
  // (h, a, up) about the pivot, so the target is seen along D = (x, da, y) in (h, a, up): it
  // must be clamped to the same limit, with the facing's pitch. Measured from D's own numbers
  // as want_along() would (its heading (x h + da a) / H against the limit, its pitch y / |D|),
  // without rotating D into (side, forward) and normalizing it twice: |D| and H are two square
  // roots side by side, then one division.
  const float x = dh - al * c + be * s;
  const float y = du - al * s - be * c;
  const float h2 = x * x + zz;
  const float len = std::sqrt(h2 + y * y);
  const float hl = std::sqrt(h2);
  if (!(len > 1e-6f) || !std::isfinite(len) || !(hl > 0.0f)) return false;
  // Past the limit, on the same side (atan2 gives +pi straight behind, which clamps to +limit).
  const float dx = x * hx - da * hz, dz = x * hz + da * hx;
  if (!(dz < f.cos_yaw_limit * hl)) return false;
  const float whx = std::signbit(dx) && !(dx == 0.0f && dz < 0.0f) ? -f.sin_yaw_limit : f.sin_yaw_limit;
  if (whx != hx) return false;
  const float inv_len = 1.0f / len;
  const float wu = y * inv_len;
  const float ws = std::clamp(std::clamp(wu, f.sin_pitch_low, f.sin_pitch_high), -f.sin_pitch_max, f.sin_pitch_max);
  const float wc = ws == wu ? hl * inv_len : std::sqrt(std::max(0.0f, 1.0f - ws * ws));
  // The facing (c h, s) and the wanted (wc h, ws) share the heading h: the sine of the angle
  // between them is |c ws - s wc|, the residual (below 1e-6 rad, so the sine is the angle).
  const float residual = std::fabs(c * ws - s * wc);
  if (!(residual < 1e-6f) || !(c * wc + s * ws > 0.0f)) return false;
  const float cd = fc.fhz * hz + fc.fhx * hx;
  const float sd = fc.fhz * hx - fc.fhx * hz;
  if (!compose_turn(f, hx, hz, cd, sd, c * fc.fl + s * fc.fu, s * fc.fl - c * fc.fu, turn)) return false;
  // The angles from the solve's numbers: the limit, and the pitch (c, s) (the wanted one's
  // within 1e-6, checked above), so the angle need not wait for the check.
  report.valid = true;
  report.clamped = true;  // the yaw is on its limit
  report.reached = false;
  report.residual = residual;
  report.yaw = hx < 0.0f ? -f.yaw_limit : f.yaw_limit;
  report.pitch = wanted_pitch(f, s, c);
  return true;
}

// Unclamped, eye off the pivot (look_at.cpp, parallax_turn()): the turn takes L = o + s f
// (|L| = |d|) onto d; the heading h keeps L's part across the facing's heading, La = d . a.
bool parallax_turn(const LookAtFrame& f, const FacingC& fc, const Fc& o, const Fc& d, const Fc& face, glm::quat& turn,
                   LookAtReport& report) {
  // l's part across the facing's heading is o's (the facing has none across its own heading),
  // so the heading h and its yaw test come before l is known.
  const float la = o.z * fc.fhx - o.x * fc.fhz;  // l . (fh x up) = o . (fh x up)
  // h = (la (dz, -dx) + dh (dx, dz)) / m^2, with m the horizontal length of d and dh = d . h.
  const float m2 = d.x * d.x + d.z * d.z;
  if (!(m2 > 1e-8f) || !(la * la < m2)) return false;
  const float dh2 = m2 - la * la;
  const float dh = std::sqrt(dh2);
  const float inv_m2 = 1.0f / m2;
  const float hx = (la * d.z + dh * d.x) * inv_m2;
  const float hz = (dh * d.z - la * d.x) * inv_m2;
  // Only an unclamped turn: the final heading is h.
  if (hz < f.cos_yaw_limit) return false;
  const float of = o.x * face.x + o.z * face.z + o.u * face.u;
  const float disc = of * of - (o.x * o.x + o.z * o.z + o.u * o.u) + (d.x * d.x + d.z * d.z + d.u * d.u);
  if (!(disc > 0.0f)) return false;
  const float sl = -of + std::sqrt(disc);
  if (!(sl > 1e-6f)) return false;
  const Fc l{o.x + sl * face.x, o.z + sl * face.z, o.u + sl * face.u};
  const float lf = l.x * fc.fhx + l.z * fc.fhz;  // along the facing's heading
  const float yaw = canonical_angle(atan2_poly(hx, hz));  // the report's, started early
  const float cd = fc.fhx * hx + fc.fhz * hz;
  const float sd = fc.fhz * hx - fc.fhx * hz;
  // Pitch: l's part in the (h, up) plane, (lf, lu), onto d's, (dh, du); equal lengths.
  const float r2 = (lf * lf + l.u * l.u) * (dh2 + d.u * d.u);  // not waiting for dh's square root
  if (!(r2 > 1e-24f)) return false;
  const float inv_r = 1.0f / std::sqrt(r2);
  const float ce = (lf * dh + l.u * d.u) * inv_r;
  const float se = (lf * d.u - l.u * dh) * inv_r;
  // The turned facing, (fh_n, fu_n) in the (h, up) plane: pitch within +-90 degrees and the limits.
  const float fh_n = fc.fl * ce - fc.fu * se;
  const float fu_n = fc.fl * se + fc.fu * ce;
  if (!(fh_n > 1e-4f)) return false;
  const float su = std::clamp(std::clamp(fu_n, f.sin_pitch_low, f.sin_pitch_high), -f.sin_pitch_max, f.sin_pitch_max);
  if (su != fu_n) return false;
  glm::quat q;
  if (!compose_turn(f, hx, hz, cd, sd, ce, se, q)) return false;
  // The turned eye: o's part in the (fh, up) plane pitched by (ce, se) onto (h, up); its part
  // across, oa, unchanged. The direction wanted from it is measured on d - eye.
  const float oh = o.x * fc.fhx + o.z * fc.fhz;
  const float oa = o.z * fc.fhx - o.x * fc.fhz;
  const float eh = oh * ce - o.u * se;
  const float eu = oh * se + o.u * ce;
  const float xh = (d.x * hx + d.z * hz) - eh;
  const float xa = (d.z * hx - d.x * hz) - oa;
  const float y = d.u - eu;
  // The direction wanted from the turned eye is along D = (xh, xa, y) in (h, a, up). When it is
  // inside the limits (every unclamped frame but those rounding puts on a limit) it is D / |D|
  // itself, so it is measured from D's numbers as want_along() would (its heading's cosine
  // (xh hz + xa hx) / H against the yaw limit, its pitch's sine y / |D|), and the residual is
  // |F x D| / |D| with the turned facing F = (fh_n, 0, fu_n) in (h, a, up): no normalized
  // heading, no second cross product in (side, forward, up). |D| and H side by side, one division.
  const float h2 = xh * xh + xa * xa;
  const float len2 = h2 + y * y;
  const float len = std::sqrt(len2);
  const float hl = std::sqrt(h2);
  if (!(len > 1e-6f) || !std::isfinite(len)) return false;
  const float inv_len = 1.0f / len;
  const float wu = y * inv_len;
  const float ws = std::clamp(std::clamp(wu, f.sin_pitch_low, f.sin_pitch_high), -f.sin_pitch_max, f.sin_pitch_max);
  const float dz = xh * hz + xa * hx;  // D's forward part
  if (dz < f.cos_yaw_limit * hl || ws != wu) {
    // Rounding put the wanted direction on a limit: measured and reported as want_along() does.
    WantC w;
    if (!want_along(f, Fc{xh * hx - xa * hz, dz, y}, w)) return false;
    turn = q;
    report_from(w, Fc{fh_n * hx, fh_n * hz, fu_n}, wanted_yaw(f, w), wanted_pitch(f, w.s, w.c), report);
    return true;
  }
  turn = q;
  // F x D = (-fu_n xa, fu_n xh - fh_n y, fh_n xa); |F| = 1 to rounding.
  const float cm = fu_n * xh - fh_n * y;
  const float sn = std::sqrt(xa * xa * (fh_n * fh_n + fu_n * fu_n) + cm * cm) * inv_len;
  const float cs = (fh_n * xh + fu_n * y) * inv_len;
  // The angles from the solve's numbers (the heading h, the facing's pitch), which the wanted
  // direction from the turned eye equals to rounding.
  report.valid = true;
  report.clamped = false;
  report.yaw = yaw;
  report.pitch = wanted_pitch(f, fu_n, fh_n);
  // Below 1e-3 rad the sine is the angle to 2e-10.
  report.residual = (sn < 1e-3f && cs > 0.0f) ? sn : atan2_poly(sn, cs);
  report.reached = report.residual <= kReachedAngle;
  return true;
}

// What the closed forms leave (a target so near straight behind that the turned eye sees it
// past the other limit, so no turn is seen from where it leaves the eye): the chain loop's
// whole share repeated four times (look_at.cpp), each onto the direction wanted from where the
// last one left the eye, stopping early within 1e-6 rad, and the report measured from the last
// eye. The eye and facing are carried in coordinates, turned by the same (cd, sd), (ce, se).
bool repeated_turn(const LookAtFrame& f, FacingC fc, Fc o, const Fc& d, WantC w, glm::quat& turn, LookAtReport& report) {
  glm::quat total(1.0f, 0.0f, 0.0f, 0.0f);
  for (int r = 0; r < 4; ++r) {
    if (r > 0) {
      if (!want_along(f, Fc{d.x - o.x, d.z - o.z, d.u - o.u}, w)) break;
      const Fc F{fc.fl * fc.fhx, fc.fl * fc.fhz, fc.fu};
      const Fc dir{w.c * w.hx, w.c * w.hz, w.s};
      const float cx = F.z * dir.u - F.u * dir.z;
      const float cz = F.u * dir.x - F.x * dir.u;
      const float cu = F.x * dir.z - F.z * dir.x;
      if (std::sqrt(cx * cx + cz * cz + cu * cu) < 1e-6f && F.x * dir.x + F.z * dir.z + F.u * dir.u > 0.0f) break;
    }
    if (!(fc.fl > 1e-6f)) return false;
    const float cd = fc.fhz * w.hz + fc.fhx * w.hx;
    const float sd = fc.fhz * w.hx - fc.fhx * w.hz;
    const float ce = w.c * fc.fl + w.s * fc.fu;
    const float se = w.s * fc.fl - w.c * fc.fu;
    glm::quat q;
    if (!compose_turn(f, w.hx, w.hz, cd, sd, ce, se, q)) return false;
    // The eye: its part in the facing's vertical plane pitched, its part across unchanged,
    // both carried onto the new heading.
    const float oh = o.x * fc.fhx + o.z * fc.fhz;
    const float oa = o.z * fc.fhx - o.x * fc.fhz;
    const float eh = oh * ce - o.u * se;
    o = Fc{eh * w.hx - oa * w.hz, eh * w.hz + oa * w.hx, oh * se + o.u * ce};
    fc = FacingC{fc.fl * ce - fc.fu * se, fc.fl * se + fc.fu * ce, w.hx, w.hz};
    total = q * total;
  }
  turn = glm::normalize(total);
  WantC last;
  if (!want_along(f, Fc{d.x - o.x, d.z - o.z, d.u - o.u}, last)) {
    report = LookAtReport{};  // the target at the turned eye
    return true;
  }
  report_from(last, Fc{fc.fl * fc.fhx, fc.fl * fc.fhz, fc.fu}, wanted_yaw(f, last), wanted_pitch(f, last.s, last.c), report);
  return true;
}

}  // namespace

bool solve_look_at_one_joint(const LookAtFrame& f, const glm::vec3& pivot, const glm::vec3& eye, const glm::vec3& facing,
                             const glm::vec3& target, glm::quat& turn, LookAtReport& report) {
  WantC w0;
  if (!want_along(f, in_frame(f, target - eye), w0)) {
    report = LookAtReport{};  // the target at the eye
    return true;
  }
  const Fc face = in_frame(f, facing);
  FacingC fc;
  fc.fl = std::sqrt(face.x * face.x + face.z * face.z);
  fc.fu = face.u;
  if (!(fc.fl > 1e-4f)) return false;  // along up: the general loop's angle form
  const float inv_fl = 1.0f / fc.fl;
  fc.fhx = face.x * inv_fl;
  fc.fhz = face.z * inv_fl;
  const glm::vec3 ow = eye - pivot;
  if (!(glm::dot(ow, ow) > 0.0f)) {
    // The eye at the pivot: it does not move, so the direction wanted is w0's.
    const float cd = fc.fhz * w0.hz + fc.fhx * w0.hx;
    const float sd = fc.fhz * w0.hx - fc.fhx * w0.hz;
    const float ce = w0.c * fc.fl + w0.s * fc.fu;
    const float se = w0.s * fc.fl - w0.c * fc.fu;
    if (!compose_turn(f, w0.hx, w0.hz, cd, sd, ce, se, turn)) return false;
    const float fh_n = fc.fl * ce - fc.fu * se;
    const float fu_n = fc.fl * se + fc.fu * ce;
    report_from(w0, Fc{fh_n * w0.hx, fh_n * w0.hz, fu_n}, wanted_yaw(f, w0), wanted_pitch(f, w0.s, w0.c), report);
    return true;
  }
  const Fc o = in_frame(f, ow);
  const Fc d = in_frame(f, target - pivot);
  // Past the yaw limit from the unturned eye: the clamped form first, then the unclamped one
  // (the turn may bring the target inside the limit).
  if (w0.yaw_clamped && clamped_turn(f, fc, o, d, w0, turn, report)) return true;
  if (parallax_turn(f, fc, o, d, face, turn, report)) return true;
  return repeated_turn(f, fc, o, d, w0, turn, report);
}

}  // namespace asterune::detail
