// Chain helpers: solved points -> per-joint world deltas (rule IK5), and the input check the
// FABRIK and CCD implementations share (point_chain_internal.hpp).
#include "asterune/solvers/point_chain.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/transform.hpp"
#include "point_chain_internal.hpp"

namespace asterune {

namespace detail {

bool chain_inputs_usable(std::span<const glm::vec3> points, const ChainGoal& goal,
                         std::span<glm::vec3> points_out, std::span<glm::quat> deltas_out,
                         const ChainLimits* limits, std::size_t min_segments) {
  for (auto& d : deltas_out) d = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  const std::size_t copy = std::min(points.size(), points_out.size());
  for (std::size_t i = 0; i < copy; ++i) points_out[i] = points[i];
  if (points.size() < min_segments + 1 || points_out.size() != points.size() ||
      deltas_out.size() + 1 != points.size()) {
    return false;
  }
  if (!is_finite(goal.target)) return false;
  for (const auto& p : points) {
    if (!is_finite(p)) return false;
  }
  if (limits != nullptr) {
    const std::size_t n = deltas_out.size();
    if (limits->orientations.size() != n || limits->rest_local.size() != n || limits->limits.size() != n) return false;
    if (!is_finite(limits->root_parent) || !normalized_rotation(limits->root_parent)) return false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!normalized_rotation(limits->orientations[i]) || !normalized_rotation(limits->rest_local[i])) return false;
    }
  }
  return true;
}

float segment_length(std::span<const glm::vec3> points, std::size_t i) { return glm::length(points[i + 1] - points[i]); }

}  // namespace detail

bool chain_deltas(std::span<const glm::vec3> before, std::span<const glm::vec3> after, std::span<glm::quat> deltas) {
  const std::size_t n = deltas.size();
  if (n == 0 || before.size() != n + 1 || after.size() != n + 1) return false;
  glm::quat acc(1.0f, 0.0f, 0.0f, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 s0 = acc * (before[i + 1] - before[i]);
    const glm::vec3 s1 = after[i + 1] - after[i];
    const float l0 = glm::length(s0);
    const float l1 = glm::length(s1);
    glm::quat d(1.0f, 0.0f, 0.0f, 0.0f);
    if (l0 > detail::kChainTiny && l1 > detail::kChainTiny && std::isfinite(l0) && std::isfinite(l1)) {
      // The half-way quaternion of the unnormalized segments, (|s0| |s1| + s0 . s1, s0 x s1),
      // is rotation_between's (1 + d, u0 x u1) scaled by |s0| |s1|: one normalization instead
      // of six divisions first. Nearly opposite segments (or a product that overflows) take
      // rotation_between's own fallback.
      const float ll = l0 * l1;
      const float dot = glm::dot(s0, s1);
      if (std::isfinite(ll) && dot >= -0.999999f * ll) {
        const glm::vec3 c = glm::cross(s0, s1);
        d = glm::normalize(glm::quat(ll + dot, c.x, c.y, c.z));
      } else {
        d = rotation_between(s0 / l0, s1 / l1);
      }
    }
    deltas[i] = d;
    acc = glm::normalize(d * acc);
  }
  return true;
}

float chain_length(std::span<const glm::vec3> points) {
  float total = 0.0f;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) total += detail::segment_length(points, i);
  return total;
}

}  // namespace asterune
