// The tail every positional chain solve ends with (private): the pole, the last limit pass,
// the per-joint deltas and the report.
#pragma once

#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/point_chain.hpp"

namespace asterune::detail {

/// Turns each intermediate out[i] about the axis through out[i-1], out[i+1] toward the pole.
void apply_pole(std::span<glm::vec3> out, const glm::vec3& pole);

/// The tail every positional chain solver shares: turns the bends toward the pole (when the goal
/// has a finite one), re-applies the joint limits when `reapply_limits` (FABRIK's passes ignore
/// them between poles; CCD's only break them through the pole), writes the per-joint deltas
/// and measures the report on the solved points. `report` carries passes/clamped so far.
/// `orientations_then_deltas`: with limits, the solved part orientations coming in, the deltas
/// going out; for a free chain, the deltas going out.
SolveReport finish_chain_solve(std::span<const glm::vec3> points, std::span<glm::vec3> out, const ChainGoal& goal,
                               const ChainLimits* limits, bool reapply_limits, bool limited_last_pass, float tolerance,
                               std::span<glm::quat> orientations_then_deltas, SolveReport report);

}  // namespace asterune::detail
