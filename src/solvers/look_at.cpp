#include "asterune/solvers/look_at.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/scalar.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {
namespace {

constexpr float kMaxPitch = 1.5533430f;  // 89 degrees: keeps the yaw of the facing defined
constexpr float kReachedAngle = 1e-3f;

// Orthonormal reference basis: up, horizontal rest facing, side = up x forward.
struct Basis {
  glm::vec3 up;
  glm::vec3 forward;
  glm::vec3 side;
};

Basis make_basis(const LookAtParams& params) {
  Basis b;
  const float up_len = glm::length(params.up);
  b.up = (std::isfinite(up_len) && up_len > 1e-6f) ? params.up / up_len : glm::vec3(0.0f, 1.0f, 0.0f);
  glm::vec3 f = params.rest_facing - b.up * glm::dot(params.rest_facing, b.up);
  const float f_len = glm::length(f);
  b.forward = (std::isfinite(f_len) && f_len > 1e-6f) ? f / f_len : any_orthogonal(b.up);
  b.side = glm::cross(b.up, b.forward);
  return b;
}

glm::vec2 angles_in(const Basis& b, const glm::vec3& dir) {
  const float u = glm::dot(dir, b.up);
  const float x = glm::dot(dir, b.side);
  const float z = glm::dot(dir, b.forward);
  const float yaw = canonical_angle(std::atan2(x, z));
  const float pitch = std::atan2(u, std::sqrt(x * x + z * z));
  return {yaw, pitch};
}

glm::vec3 direction_from(const Basis& b, float yaw, float pitch) {
  const float c = std::cos(pitch);
  return c * (std::cos(yaw) * b.forward + std::sin(yaw) * b.side) + std::sin(pitch) * b.up;
}

float angle_between(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

// Desired (clamped) yaw and pitch for looking from `eye` at `target`. False when the target
// sits on the eye. Pitch is absolute; yaw relative to the rest facing.
struct Desired {
  float yaw;
  float pitch;
  bool clamped;
};

bool desired_angles(const Basis& b, float rest_pitch, float yaw_limit, float pitch_limit, const glm::vec3& eye,
                    const glm::vec3& target, Desired& out) {
  const glm::vec3 d = target - eye;
  const float len = glm::length(d);
  if (!(len > 1e-6f) || !std::isfinite(len)) return false;
  const glm::vec2 a = angles_in(b, d / len);
  const float yaw = std::clamp(a.x, -yaw_limit, yaw_limit);
  const float rel = std::clamp(a.y - rest_pitch, -pitch_limit, pitch_limit);
  const float pitch = std::clamp(rest_pitch + rel, -kMaxPitch, kMaxPitch);
  out.yaw = yaw;
  out.pitch = pitch;
  out.clamped = yaw != a.x || pitch != a.y;
  return true;
}

// The no-roll turn that moves `facing` by `share` of the way (in yaw and pitch) to `want`.
glm::quat share_turn(const Basis& b, const glm::vec3& facing, const Desired& want, float share) {
  const glm::vec2 cur = angles_in(b, facing);
  const float d_yaw = canonical_angle(want.yaw - cur.x);
  const float d_pitch = want.pitch - cur.y;
  const glm::quat q_yaw = glm::angleAxis(share * d_yaw, b.up);
  const glm::vec3 e1 = q_yaw * facing;
  const glm::vec3 n = glm::cross(e1, b.up);
  const float n_len = glm::length(n);
  if (!(n_len > 1e-6f)) return q_yaw;  // facing along up: pitch axis undefined
  const glm::quat q_pitch = glm::angleAxis(share * d_pitch, n / n_len);
  return glm::normalize(q_pitch * q_yaw);
}

// The root-space frame, rest pitch and sanitized limits shared by solving and measuring.
struct LimitFrame {
  Basis basis;
  float rest_pitch;
  float yaw_limit;
  float pitch_limit;
};

LimitFrame make_limit_frame(const LookAtParams& params) {
  LimitFrame lf{make_basis(params), 0.0f, 0.0f, 0.0f};
  const float rest_len = glm::length(params.rest_facing);
  const glm::vec3 rest = rest_len > 1e-6f ? params.rest_facing / rest_len : lf.basis.forward;
  lf.rest_pitch = angles_in(lf.basis, rest).y;
  lf.yaw_limit = std::isfinite(params.yaw_limit) ? std::clamp(params.yaw_limit, 0.0f, kPi) : 0.0f;
  lf.pitch_limit = std::isfinite(params.pitch_limit) ? std::clamp(params.pitch_limit, 0.0f, kPi) : 0.0f;
  return lf;
}

}  // namespace

glm::vec2 look_angles(const LookAtParams& params, const glm::vec3& dir) { return angles_in(make_basis(params), dir); }

LookAtReport solve_look_at(std::span<const glm::vec3> pivots, const glm::vec3& eye, const glm::vec3& facing,
                           const glm::vec3& target, std::span<const float> weights, const LookAtParams& params,
                           std::span<glm::quat> turns) {
  LookAtReport report;
  for (glm::quat& t : turns) t = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  if (pivots.empty() || weights.size() != pivots.size() || turns.size() != pivots.size()) return report;
  if (!is_finite(eye) || !is_finite(facing) || !is_finite(target) || !is_finite(params.rest_facing) ||
      !is_finite(params.up))
    return report;
  for (const glm::vec3& p : pivots)
    if (!is_finite(p)) return report;
  const float facing_len = glm::length(facing);
  if (!(facing_len > 1e-6f)) return report;

  const LimitFrame lf = make_limit_frame(params);
  const Basis& basis = lf.basis;
  const float rest_pitch = lf.rest_pitch, yaw_limit = lf.yaw_limit, pitch_limit = lf.pitch_limit;

  Desired want{};
  if (!desired_angles(basis, rest_pitch, yaw_limit, pitch_limit, eye, target, want)) return report;

  // Rigid motion accumulated so far (applied to the original points): x -> acc(x).
  Transform acc;
  glm::vec3 cur_eye = eye;
  glm::vec3 cur_facing = facing / facing_len;
  for (size_t k = 0; k < pivots.size(); ++k) {
    const float w = std::isfinite(weights[k]) ? std::clamp(weights[k], 0.0f, 1.0f) : 0.0f;
    if (w <= 0.0f) continue;
    const glm::vec3 pivot = transform_point(acc, pivots[k]);
    glm::quat total(1.0f, 0.0f, 0.0f, 0.0f);
    // A full share is repeated a few times: turning about the pivot moves the eye, which
    // changes the direction to the target a little (parallax).
    const int repeats = w >= 1.0f ? 4 : 1;
    for (int r = 0; r < repeats; ++r) {
      Desired now{};
      if (!desired_angles(basis, rest_pitch, yaw_limit, pitch_limit, cur_eye, target, now)) break;
      if (r > 0 && angle_between(cur_facing, direction_from(basis, now.yaw, now.pitch)) < 1e-6f) break;
      const glm::quat q = share_turn(basis, cur_facing, now, w);
      cur_eye = pivot + q * (cur_eye - pivot);
      cur_facing = glm::normalize(q * cur_facing);
      total = glm::normalize(q * total);
    }
    turns[k] = total;
    acc.position = pivot + total * (acc.position - pivot);
    acc.rotation = glm::normalize(total * acc.rotation);
  }

  return measure_look_at(cur_eye, cur_facing, target, params);
}

LookAtReport measure_look_at(const glm::vec3& eye, const glm::vec3& facing, const glm::vec3& target,
                             const LookAtParams& params) {
  LookAtReport report;
  const float facing_len = glm::length(facing);
  if (!is_finite(eye) || !is_finite(target) || !(facing_len > 1e-6f) || !std::isfinite(facing_len)) return report;
  const LimitFrame lf = make_limit_frame(params);
  const Basis& basis = lf.basis;
  const float rest_pitch = lf.rest_pitch, yaw_limit = lf.yaw_limit, pitch_limit = lf.pitch_limit;
  Desired want{};
  if (!desired_angles(basis, rest_pitch, yaw_limit, pitch_limit, eye, target, want)) return report;
  report.valid = true;
  report.clamped = want.clamped;
  report.yaw = want.yaw;
  report.pitch = want.pitch - rest_pitch;
  report.residual = angle_between(facing / facing_len, direction_from(basis, want.yaw, want.pitch));
  report.reached = !report.clamped && report.residual <= kReachedAngle;
  return report;
}

}  // namespace asterune
