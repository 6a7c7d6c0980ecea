// CCD, cyclic coordinate descent (rule IK6, IK8): walks the joints from tip to root, turning
// the endpoint direction toward the target at each joint, as a pure function on caller spans.
// Same layout, bounds, outputs and limits as FABRIK (point_chain.hpp, fabrik.hpp).
#pragma once

#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/point_chain.hpp"

namespace asterune {

/// Solves the chain `points` (n + 1 points, n >= 1) toward goal.target by CCD sweeps (joint
/// n-1 down to joint 0), until within settings.tolerance or max_passes sweeps. Each step turns
/// the subtree below joint i by the shortest arc taking (endpoint - pivot) toward (target -
/// pivot); with limits a hinge turns about its axis only, a ball-and-socket's step leaves its
/// bone's twist alone, the resulting part orientation is clamped (joint_limits.hpp) before the
/// subtree is moved, and a target the sweeps leave short gets up to max_passes more damped
/// least squares steps that turn every joint at once within its limit (docs/solvers.md,
/// "Limited chains"; report.passes counts both). Lengths are preserved (rigid rotations).
/// - Warm start: a nearly straight chain (chord >= 0.9995 of its length) with a reachable target
///   is first laid as a planar arc reaching it (CCD stalls on a straight chain); else a bent one
///   has all its bend angles scaled by one factor so its chord matches the target distance
///   (with limits the orientations are then rebuilt and clamped from those points). Then, in
///   every case, the root's own step is taken once before the first sweep.
/// - A free chain with an unreachable target is laid straight toward it (clamped = true).
/// - With a pole, intermediate bends are turned toward it afterwards as in FABRIK; with limits a
///   final limited pass then re-imposes the limits.
/// - Convergence: targets up to ~0.8 of the reach converge within 16 sweeps; nearer full
///   extension CCD can need more (docs/solvers.md has measured rates); the report then says
///   reached = false with the measured residual.
/// deltas_out holds the per-joint deltas in the point_chain.hpp convention. Unusable input: as
/// solve_fabrik. No allocation, no exceptions.
SolveReport solve_ccd(std::span<const glm::vec3> points, const ChainGoal& goal,
                      std::span<glm::vec3> points_out, std::span<glm::quat> deltas_out,
                      const ChainSettings& settings = {}, const ChainLimits* limits = nullptr);

}  // namespace asterune
