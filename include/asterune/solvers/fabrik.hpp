// FABRIK (rule IK4, IK5, IK8): Forward And Backward Reaching IK for chains of n >= 2 segments,
// as a pure function on caller spans (points, target, optional pole, optional joint limits).
// See point_chain.hpp for the point layout and the delta convention; docs/solvers.md for the passes.
#pragma once

#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/point_chain.hpp"

namespace asterune {

/// Solves the chain `points` (n + 1 points, n >= 2) toward goal.target.
/// - Segment lengths are those of `points` and are preserved (to float precision, ~1e-5).
/// - Target beyond the total length: the chain is laid straight from the fixed root toward it
///   (clamped = true, passes = 1).
/// - Otherwise: a warm start (a nearly straight chain is laid as a planar arc reaching the
///   target; else a bent one has all its bend angles scaled by one factor so its chord matches
///   the target distance, then is aimed at the target about the root; only when neither
///   applies, one CCD sweep bends the input shape toward it), then backward pass (endpoint
///   onto target, toward the root) and forward pass (root fixed, toward the endpoint), repeated
///   until within settings.tolerance or max_passes.
/// - With a pole, each intermediate point i is then turned about the axis through points
///   i-1 and i+1 toward the pole (lengths and the endpoint are unchanged).
/// - With limits (non-null, spans of n), every forward pass rebuilds each part's orientation
///   (a hinge turns about its axis only), clamps its rest-relative rotation (joint_limits.hpp)
///   and places the next point from the clamped orientation. A target the passes leave short
///   gets up to max_passes more damped least squares steps that turn every joint at once
///   within its limit (docs/solvers.md, "Limited chains"); report.passes counts both. A limit
///   that stops the chain shows as residual > tolerance and clamped = true.
/// Outputs: points_out (n + 1 solved points; points_out[0] == points[0]) and deltas_out (n
/// parent-first world deltas, point_chain.hpp convention). Unusable input (nonfinite target or
/// points, sizes wrong, n < 2): points_out = points (when sizes allow), identity deltas,
/// report {reached=false, residual=-1}. No allocation, no exceptions.
SolveReport solve_fabrik(std::span<const glm::vec3> points, const ChainGoal& goal,
                         std::span<glm::vec3> points_out, std::span<glm::quat> deltas_out,
                         const ChainSettings& settings = {}, const ChainLimits* limits = nullptr);

}  // namespace asterune
