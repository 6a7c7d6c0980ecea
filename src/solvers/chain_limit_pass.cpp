// Joint-limit passes of the positional chain solvers (see chain_limit_pass.hpp).
#include "chain_limit_pass.hpp"

#include "asterune/math/swing_twist.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/solvers/joint_limits.hpp"
#include "point_chain_internal.hpp"

namespace asterune {

namespace detail {

glm::quat limit_frame(const ChainLimits& limits, std::span<const glm::quat> solved, std::size_t i) {
  const glm::quat parent = i == 0 ? limits.root_parent : solved[i - 1];
  return glm::normalize(parent * limits.rest_local[i]);
}

glm::quat limited_turn(const JointLimit& limit, const glm::quat& frame, const glm::vec3* bone, const glm::vec3& current,
                       const glm::vec3& desired) {
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  if (limit.kind != JointLimitKind::kHinge) {
    const float cl = glm::length(current);
    const float dl = glm::length(desired);
    if (!(cl > kChainTiny) || !(dl > kChainTiny)) return identity;
    const glm::quat arc = rotation_between(current / cl, desired / dl);
    if (limit.kind != JointLimitKind::kBallSocket || bone == nullptr) return arc;
    const float bl = glm::length(*bone);
    return bl > kChainTiny ? swing_twist(arc, *bone / bl).swing : arc;
  }
  const glm::vec3 h = glm::normalize(frame * limit.axis);
  const glm::vec3 c = current - glm::dot(current, h) * h;
  const glm::vec3 d = desired - glm::dot(desired, h) * h;
  const float cl = glm::length(c);
  const float dl = glm::length(d);
  if (!(cl > kChainTiny * (1.0f + glm::length(current))) || !(dl > kChainTiny * (1.0f + glm::length(desired))))
    return identity;
  return glm::angleAxis(std::atan2(glm::dot(glm::cross(c, d), h), glm::dot(c, d)), h);
}

bool limited_forward(std::span<const glm::vec3> points, std::span<glm::vec3> out, const ChainLimits& limits,
                     std::span<glm::quat> orientations_out) {
  bool limited = false;
  const std::size_t n = orientations_out.size();
  glm::quat carried(1.0f, 0.0f, 0.0f, 0.0f);  // total world delta of the previous part
  out[0] = points[0];
  for (std::size_t i = 0; i < n; ++i) {
    const glm::quat original = glm::normalize(limits.orientations[i]);
    const glm::vec3 seg = points[i + 1] - points[i];
    const glm::vec3 carried_seg = carried * seg;
    const glm::vec3 desired = out[i + 1] - out[i];
    const glm::quat frame = limit_frame(limits, orientations_out, i);
    const glm::quat q0 = glm::normalize(carried * original);
    glm::quat q = glm::normalize(limited_turn(limits.limits[i], frame, nullptr, carried_seg, desired) * q0);
    const glm::quat rel = glm::conjugate(frame) * q;
    const glm::quat rel_clamped = clamp_to_limit(limits.limits[i], rel);
    if (rotation_angle(glm::conjugate(rel) * rel_clamped) > 1e-4f) limited = true;
    q = glm::normalize(frame * rel_clamped);
    orientations_out[i] = q;
    carried = glm::normalize(q * glm::conjugate(original));
    out[i + 1] = out[i] + carried * seg;
  }
  return limited;
}

void orientations_to_deltas(std::span<const glm::quat> original, std::span<glm::quat> q) {
  // total_i = q_i * inverse(original_i); delta_i = total_i * inverse(total_{i-1}). Walk
  // tip-to-root so q[i-1] is still the solved orientation when delta_i is formed.
  for (std::size_t k = q.size(); k-- > 0;) {
    const glm::quat total = q[k] * glm::conjugate(glm::normalize(original[k]));
    if (k == 0) {
      q[k] = glm::normalize(total);
    } else {
      const glm::quat parent_total = q[k - 1] * glm::conjugate(glm::normalize(original[k - 1]));
      q[k] = glm::normalize(total * glm::conjugate(parent_total));
    }
  }
}

}  // namespace detail

}  // namespace asterune
