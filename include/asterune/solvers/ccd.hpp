// CCD, cyclic coordinate descent (SPEC IK6, IK8): walks the joints from tip to root, turning
// the endpoint direction toward the target at each joint, as a pure function on caller spans.
// Same layout, bounds, outputs and limits as FABRIK (chain.hpp, fabrik.hpp).
#pragma once

#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/chain.hpp"

namespace asterune {

/// Solves the chain `points` (n + 1 points, n >= 1) toward goal.target by CCD sweeps (joint
/// n-1 down to joint 0), until within settings.tolerance or max_passes sweeps. Each step turns
/// the subtree below joint i by the shortest arc taking (endpoint - pivot) toward (target -
/// pivot); with limits the resulting part orientation is clamped (joint_limits.hpp) before the
/// subtree is moved. Lengths are preserved (rigid rotations). An unreachable target ends with
/// the chain straightened toward it (up to convergence of the sweeps; clamped = true).
/// With a pole, intermediate bends are turned toward it afterwards as in FABRIK (free chains
/// only; with limits the pole is applied before the final limit pass).
/// deltas_out holds the accumulated CCD rotations in the chain.hpp convention. Unusable
/// input: as solve_fabrik. No allocation, no exceptions.
SolveReport solve_ccd(std::span<const glm::vec3> points, const ChainGoal& goal,
                      std::span<glm::vec3> points_out, std::span<glm::quat> deltas_out,
                      const ChainSettings& settings = {}, const ChainLimits* limits = nullptr);

}  // namespace asterune
