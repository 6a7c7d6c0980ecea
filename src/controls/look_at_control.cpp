#include "controls/look_at_control.hpp"

#include <algorithm>
#include <cmath>

#include "controls/rig_chain.hpp"
#include "asterune/math/scalar.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

namespace asterune::detail {
namespace {

constexpr float kHome = 1e-3f;  // radians: a release is home within this (and nearly at rest)
constexpr float kAimDistance = 1e4f;  // studs: the tracked gaze aims at a point this far (parallax < 1e-4 rad)

// Exact state after time t of the critically damped follower x'' = wn^2 (g - x) - 2 wn x'
// whose goal moves as g(t) = g0 + s t: x = g - 2 s / wn + E with E'' + 2 wn E' + wn^2 E = 0.
void follow(float& x, float& v, float g0, float s, float t, float wn) {
  if (!(t > 0.0f)) return;
  const float lag = 2.0f * s / wn;
  const float e0 = x - (g0 - lag);
  const float ed0 = v - s;
  const float b = ed0 + wn * e0;
  const float decay = std::exp(-wn * t);
  x = g0 + s * t - lag + (e0 + b * t) * decay;
  v = s + (ed0 - wn * b * t) * decay;
}

}  // namespace

void track_angle(float& x, float& g, float& v, float wanted, float speed, float dt, bool easing, float ease_time,
                 bool wrap) {
  if (!(dt > 0.0f) || !std::isfinite(wanted)) return;
  if (wrap) wanted = g + canonical_angle(wanted - g);
  const float gap = wanted - g;
  // The goal moves at `speed` until it reaches `wanted` (after t1 <= dt), then stays.
  const float need = std::fabs(gap) / speed;  // +inf speed: 0
  const bool arrives = !(need > dt);           // also when dt is +inf
  const float t1 = arrives ? need : dt;
  const float s = gap > 0.0f ? speed : gap < 0.0f ? -speed : 0.0f;
  if (!easing || !(ease_time > 0.0f) || !std::isfinite(dt)) {
    g = arrives ? wanted : g + s * t1;
    x = g;
    v = 0.0f;
  } else {
    const float wn = 2.0f / ease_time;
    follow(x, v, g, s, t1, wn);
    g = arrives ? wanted : g + s * t1;
    if (arrives) follow(x, v, g, 0.0f, dt - t1, wn);
    if (arrives && std::fabs(x - g) < 1e-6f && std::fabs(v) < 1e-6f) {
      x = g;  // settled: exact, so a caught-up gaze aims at the target itself
      v = 0.0f;
    }
  }
  if (wrap) {  // keep the goal canonical (LA3); the gaze moves with it
    const float shift = g - canonical_angle(g);
    g -= shift;
    x -= shift;
  }
}

void reset_look_at_control(LookAtControl& c) { c.track = GazeTrack{}; }

bool look_at_releasing(const LookAtControl& c) { return c.tracking_speed > 0.0f && c.track.active; }

Result<LookAtControl> build_look_at_control(const Rig& rig, const LookAtSettings& settings, const std::string& what) {
  auto chain = resolve_chain(rig, settings.chain_root, settings.end, what);
  if (!chain) return chain.error();
  LookAtControl c;
  c.joints = std::move(chain).value();
  c.end_joint = c.joints.back();
  const float f_len = glm::length(settings.forward);
  if (!is_finite(settings.forward) || !(f_len > 1e-6f)) return make_error(what + ": forward axis is zero or not finite");
  c.forward = settings.forward / f_len;
  if (!is_finite(settings.eye_offset)) return make_error(what + ": eye_offset is not finite");
  c.eye_offset = settings.eye_offset;
  if (!std::isfinite(settings.tracking_speed_deg_per_s) || settings.tracking_speed_deg_per_s < 0.0f)
    return make_error(what + ": tracking_speed_deg_per_s must be a finite speed >= 0 (0 = no tracking)");
  if (!std::isfinite(settings.ease_time) || settings.ease_time < 0.0f)
    return make_error(what + ": ease_time must be a finite time >= 0 seconds");
  c.tracking_speed = settings.tracking_speed_deg_per_s * kDegToRad;
  c.easing = settings.easing && settings.ease_time > 0.0f;
  c.ease_time = settings.ease_time;
  if (!std::isfinite(settings.yaw_limit_deg) || settings.yaw_limit_deg < 0.0f)
    return make_error(what + ": yaw_limit_deg must be a finite angle >= 0");
  if (!std::isfinite(settings.pitch_limit_deg) || settings.pitch_limit_deg < 0.0f)
    return make_error(what + ": pitch_limit_deg must be a finite angle >= 0");
  c.params.yaw_limit = settings.yaw_limit_deg * kDegToRad;
  c.params.pitch_limit = settings.pitch_limit_deg * kDegToRad;
  const size_t n = c.joints.size();
  if (settings.joint_weights.empty()) {
    for (size_t k = 0; k < n; ++k) c.weights.push_back(1.0f / static_cast<float>(n - k));
  } else {
    if (settings.joint_weights.size() != n)
      return make_error(what + ": joint_weights has " + std::to_string(settings.joint_weights.size()) +
                        " entries but the chain has " + std::to_string(n) + " joints");
    for (float w : settings.joint_weights)
      if (!std::isfinite(w) || w < 0.0f) return make_error(what + ": joint_weights must be finite and >= 0");
    c.weights = settings.joint_weights;
  }
  // Rest facing in root space: the end part's rest placement with the root at identity (LA1).
  std::vector<Transform> rest(static_cast<size_t>(rig.joint_count()));
  evaluate_rest_world(rig, Transform::identity(), rest);
  c.params.rest_facing = glm::normalize(rest[static_cast<size_t>(c.end_joint)].rotation * c.forward);
  c.params.up = glm::vec3(0.0f, 1.0f, 0.0f);
  c.frame = prepare_look_at(c.params);
  c.rest_pitch = look_angles(c.frame, c.params.rest_facing).y;
  const glm::vec3 h = c.params.rest_facing - c.params.up * glm::dot(c.params.rest_facing, c.params.up);
  c.basis_forward = glm::length(h) > 1e-6f ? glm::normalize(h) : any_orthogonal(c.params.up);
  c.basis_side = glm::cross(c.params.up, c.basis_forward);
  c.pivots.resize(n);
  c.turns.resize(n);
  c.world_turns.resize(n);
  return c;
}

bool solve_look_at_control(LookAtControl& c, const Rig& rig, const Transform& root, std::span<const Transform> local,
                           std::span<const Transform> world, const glm::vec3* target, float dt,
                           std::span<Transform> candidates) {
  const size_t n = c.joints.size();
  for (size_t k = 0; k < n; ++k) candidates[k] = local[static_cast<size_t>(c.joints[k])];
  const bool tracking = c.tracking_speed > 0.0f;
  if (target == nullptr && !(tracking && c.track.active)) return false;
  const Transform& end = world[static_cast<size_t>(c.end_joint)];
  for (size_t k = 0; k < n; ++k)
    c.pivots[k] = inverse_transform_point(root, joint_pivot(rig, world, c.joints[k]));
  const glm::quat root_inv = glm::conjugate(root.rotation);
  const glm::vec3 eye = inverse_transform_point(root, transform_point(end, c.eye_offset));
  const glm::vec3 facing = root_inv * (end.rotation * c.forward);
  glm::vec3 aim = target != nullptr ? inverse_transform_point(root, *target) : eye;

  if (tracking) {
    // Seed 003 TrackLookAngle: the gaze (yaw, pitch relative to the rest facing) moves toward
    // the wanted angles at the tracking speed, easing in and out; without a target the wanted
    // angles are the animated facing's own, so the gaze eases home.
    const glm::vec2 now = look_angles(c.frame, facing);
    const glm::vec2 home(now.x, now.y - c.rest_pitch);
    if (!std::isfinite(home.x) || !std::isfinite(home.y)) return target != nullptr;
    glm::vec2 wanted = home;
    if (target != nullptr) {
      const LookAtReport m = measure_look_at(eye, facing, aim, c.frame);
      wanted = m.valid ? glm::vec2(m.yaw, m.pitch) : (c.track.active ? c.track.goal : home);
    }
    GazeTrack& t = c.track;
    if (!t.active) t = GazeTrack{true, home, home, glm::vec2(0.0f)};
    track_angle(t.gaze.x, t.goal.x, t.velocity.x, wanted.x, c.tracking_speed, dt, c.easing, c.ease_time, true);
    track_angle(t.gaze.y, t.goal.y, t.velocity.y, wanted.y, c.tracking_speed, dt, c.easing, c.ease_time, false);
    if (target == nullptr && std::fabs(canonical_angle(t.gaze.x - home.x)) < kHome &&
        std::fabs(t.gaze.y - home.y) < kHome && glm::length(t.velocity) * c.ease_time < kHome)
      return false;  // home: the release is over
    const bool caught_up = target != nullptr && t.gaze == wanted && t.velocity == glm::vec2(0.0f);
    if (!caught_up) {
      const float yaw = t.gaze.x;
      const float pitch = t.gaze.y + c.rest_pitch;
      const glm::vec3 dir = std::cos(pitch) * (std::cos(yaw) * c.basis_forward + std::sin(yaw) * c.basis_side) +
                            std::sin(pitch) * c.params.up;
      aim = eye + kAimDistance * dir;
    }
  }

  const LookAtReport report = solve_look_at(c.pivots, eye, facing, aim, c.weights, c.frame, c.turns);
  if (!report.valid) return true;
  // Root-space turns -> world-space turns: q_world = R * q_root * R^-1 (identity stays exact).
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  for (size_t k = 0; k < n; ++k)
    c.world_turns[k] = c.turns[k] == identity ? identity : glm::normalize(root.rotation * c.turns[k] * root_inv);
  candidates_from_turns(rig, root, local, world, c.joints, c.world_turns, candidates);
  return true;
}

LookAtResidual measure_look_at_control(const LookAtControl& c, const Transform& root, std::span<const Transform> world,
                                       const glm::vec3& target) {
  const Transform& end = world[static_cast<size_t>(c.end_joint)];
  const glm::quat root_inv = glm::conjugate(root.rotation);
  return measure_look_at_residual(inverse_transform_point(root, transform_point(end, c.eye_offset)), root_inv * (end.rotation * c.forward),
                         inverse_transform_point(root, target), c.frame);
}

}  // namespace asterune::detail
