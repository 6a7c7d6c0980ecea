// Locomotion warping math (rules LO6-LO8): see asterune/solvers/locomotion_warp.hpp.
#include "asterune/solvers/locomotion_warp.hpp"

#include <algorithm>
#include <cmath>

namespace asterune {
namespace {

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// The travel direction across up, unit; zero when it has no such component.
glm::vec3 across(const glm::vec3& direction, const glm::vec3& up) {
  const glm::vec3 d = direction - up * glm::dot(direction, up);
  const float len = glm::length(d);
  return len > 1e-6f && std::isfinite(len) ? d / len : glm::vec3(0.0f);
}

}  // namespace

StrideWarpRate stride_warp_rate(float gameplay_speed, float pose_speed, float min_scale, float max_scale) {
  StrideWarpRate r;
  if (!(gameplay_speed >= 0.0f) || !std::isfinite(gameplay_speed) || !std::isfinite(pose_speed) ||
      !(min_scale > 0.0f) || !(max_scale >= min_scale) || !std::isfinite(max_scale)) {
    r.valid = false;
    return r;
  }
  if (!(pose_speed > 0.0f)) return r;  // a still pose: nothing to scale
  const float ratio = gameplay_speed / pose_speed;
  const float scale = std::clamp(ratio, min_scale, max_scale);
  const float rate = ratio / scale;
  if (!std::isfinite(ratio) || !std::isfinite(rate)) {
    r.valid = false;
    return r;
  }
  r.ratio = ratio;
  r.stride_scale = scale;
  r.play_rate = rate;
  r.clamped = scale != ratio;
  return r;
}

float warp_pelvis_drop(const glm::vec3& hip, const glm::vec3& target, const glm::vec3& up, float limit) {
  const glm::vec3 d = hip - target;
  const float v = glm::dot(d, up);
  const float h2 = std::max(glm::dot(d, d) - v * v, 0.0f);
  const float l2 = limit * limit;
  if (!(glm::dot(d, d) > l2)) return 0.0f;  // within reach (NaN: no drop)
  const float drop = h2 < l2 ? v - std::sqrt(l2 - h2) : v;
  return drop > 0.0f && std::isfinite(drop) ? drop : 0.0f;
}

StrideWarpResult solve_stride_warp(const StrideWarpInput& in) {
  StrideWarpResult out;
  const int n = static_cast<int>(in.legs.size());
  if (n == 0 || n > kMaxWarpLegs || !(in.stride_scale > 0.0f) || !std::isfinite(in.stride_scale) ||
      !finite(in.pelvis) || !finite(in.direction) || !finite(in.up) || !(in.max_extension > 0.0f) ||
      !(in.max_extension <= 1.0f))
    return out;
  for (const StrideWarpLeg& leg : in.legs)
    if (!finite(leg.hip) || !finite(leg.knee) || !finite(leg.ankle)) return out;
  const glm::vec3 t = across(in.direction, in.up);
  std::array<float, kMaxWarpLegs> limit{};
  float drop = 0.0f;
  for (int i = 0; i < n; ++i) {
    const StrideWarpLeg& leg = in.legs[static_cast<size_t>(i)];
    const float along = glm::dot(leg.ankle - in.pelvis, t);
    out.target[static_cast<size_t>(i)] = leg.ankle + (in.stride_scale - 1.0f) * along * t;
    const float length = glm::length(leg.knee - leg.hip) + glm::length(leg.ankle - leg.knee);
    limit[static_cast<size_t>(i)] = in.max_extension * length;
    drop = std::max(drop, warp_pelvis_drop(leg.hip, out.target[static_cast<size_t>(i)], in.up, limit[static_cast<size_t>(i)]));
  }
  out.pelvis_drop = drop;
  const glm::vec3 lowered = -drop * in.up;
  TwoBoneSettings settings;
  settings.max_extension = in.max_extension;  // a leg the drop could not bring in reach stays bent
  for (int i = 0; i < n; ++i) {
    const StrideWarpLeg& leg = in.legs[static_cast<size_t>(i)];
    TwoBoneInput solve;
    solve.root = leg.hip + lowered;
    solve.mid = leg.knee + lowered;
    solve.end = leg.ankle + lowered;
    solve.target = out.target[static_cast<size_t>(i)];
    // No pole and no previous bend: the knee keeps the animated pose's bend plane.
    out.legs[static_cast<size_t>(i)] = solve_two_bone(solve, settings);
  }
  out.leg_count = n;
  out.valid = true;
  return out;
}

OrientationWarpTurns orientation_warp_turns(float direction, float limit, int spine_count) {
  OrientationWarpTurns r;
  if (!std::isfinite(direction) || !(limit > 0.0f) || !std::isfinite(limit)) return r;
  const int n = std::clamp(spine_count, 0, kMaxWarpSpine);
  r.valid = true;
  r.clamped = std::fabs(direction) > limit;
  r.yaw = std::clamp(direction, -limit, limit);
  r.spine_count = n;
  for (int k = 0; k < n; ++k)
    r.spine_yaw[static_cast<size_t>(k)] =
        r.yaw * (1.0f - static_cast<float>(k + 1) / static_cast<float>(n));
  return r;
}

}  // namespace asterune
