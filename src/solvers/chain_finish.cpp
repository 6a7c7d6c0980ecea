// The tail every positional chain solve ends with (see chain_finish.hpp).
#include "chain_finish.hpp"

#include <cmath>

#include "asterune/math/scalar.hpp"
#include "asterune/math/swing_twist.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/solvers/joint_limits.hpp"
#include "chain_limit_pass.hpp"
#include "point_chain_internal.hpp"

namespace asterune {

namespace detail {

void apply_pole(std::span<glm::vec3> out, const glm::vec3& pole) {
  for (std::size_t i = 1; i + 1 < out.size(); ++i) {
    glm::vec3 ax = out[i + 1] - out[i - 1];
    const float ax_len = glm::length(ax);
    // A nearly folded bend (neighbours almost coincide) has no well-conditioned axis.
    const float scale = glm::length(out[i] - out[i - 1]) + glm::length(out[i + 1] - out[i]);
    if (!(ax_len > 1e-3f * scale + kChainTiny)) continue;
    ax /= ax_len;
    const glm::vec3 foot = out[i - 1] + glm::dot(out[i] - out[i - 1], ax) * ax;
    const float radius = glm::length(out[i] - foot);
    if (!(radius > kChainTiny)) continue;
    const glm::vec3 to_pole = pole - foot;
    glm::vec3 toward = to_pole - glm::dot(to_pole, ax) * ax;
    const float t_len = glm::length(toward);
    // A pole (nearly) on this bend's axis says nothing about the bend: leave it.
    if (!(t_len > 1e-3f * glm::length(to_pole) + kChainTiny)) continue;
    toward /= t_len;
    toward = glm::normalize(toward - glm::dot(toward, ax) * ax);  // second Gram-Schmidt step
    out[i] = foot + radius * toward;
  }
}

}  // namespace detail

namespace {

// Within `margin` radians of the boundary of its limit: a hinge or twist angle at an end of its
// range, or a ball-socket swing at the cone. A joint held there can be what stops the chain,
// however small the clamp that put it there last (the refinement's last steps can be tiny).
bool at_limit(const JointLimit& limit, const glm::quat& rest_relative, float margin) {
  if (limit.kind == JointLimitKind::kNone) return false;
  const auto unit = normalized_rotation(rest_relative);
  if (!unit) return false;
  const float axis_length = glm::length(limit.axis);
  if (!(axis_length > 1e-6f) || !std::isfinite(axis_length)) return false;
  const glm::vec3 axis = limit.axis / axis_length;
  const SwingTwist st = swing_twist(*unit, axis);
  if (limit.max_angle - limit.min_angle < 2.0f * kPi - margin) {
    const float twist = twist_angle(st.twist, axis);
    if (std::fabs(canonical_angle(twist - limit.min_angle)) <= margin ||
        std::fabs(canonical_angle(twist - limit.max_angle)) <= margin)
      return true;
  }
  return limit.kind == JointLimitKind::kBallSocket && limit.cone_angle < kPi - margin &&
         swing_angle(st.swing) >= limit.cone_angle - margin;
}

// Rule IK10: margin (radians) within which a joint counts as held by its limit.
constexpr float kAtLimitMargin = 1e-3f;

}  // namespace

SolveReport detail::finish_chain_solve(std::span<const glm::vec3> points, std::span<glm::vec3> out,
                                       const ChainGoal& goal, const ChainLimits* limits, bool reapply_limits,
                                       bool limited_last_pass, float tolerance,
                                       std::span<glm::quat> orientations_then_deltas, SolveReport report) {
  // With limits the span comes in holding the solved part orientations and leaves holding the
  // per-joint deltas made from them (in place); a free chain's deltas come from the points.
  const std::span<glm::quat> orientations = orientations_then_deltas;
  const std::span<glm::quat> deltas = orientations_then_deltas;
  const bool has_pole = goal.has_pole && is_finite(goal.pole);
  if (has_pole) detail::apply_pole(out, goal.pole);
  if (limits != nullptr) {
    if ((reapply_limits || has_pole) && detail::limited_forward(points, out, *limits, orientations)) report.clamped = true;
    // A chain left short with a joint on its limit was stopped by it (clamped), whatever the
    // last clamp's size.
    if (distance_between(out[out.size() - 1], goal.target) > tolerance)
      for (std::size_t i = 0; i < orientations.size() && !report.clamped; ++i)
        if (at_limit(limits->limits[i],
                     glm::conjugate(detail::limit_frame(*limits, orientations, i)) * orientations[i], kAtLimitMargin))
          report.clamped = true;
    detail::orientations_to_deltas(limits->orientations, orientations);
  } else {
    chain_deltas(points, out, deltas);
  }
  const std::size_t n = out.size() - 1;
  report.residual = distance_between(out[n], goal.target);
  report.reached = report.residual <= tolerance;
  if (limited_last_pass && !report.reached) report.clamped = true;
  return report;
}

}  // namespace asterune
