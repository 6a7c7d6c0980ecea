// The damped least-squares refinement of limited chains (private; rule IK10).
#pragma once

#include <cstddef>
#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/point_chain.hpp"

namespace asterune::detail {

/// Longest limited chain refine_limited() works on (its best-pose copy lives on the stack).
constexpr std::size_t kMaxRefinedSegments = 32;

/// Limited chains: damped least squares steps from the current solve (points `out`, part world
/// orientations `orient`, both within the limits) toward `target`, each followed by clamping
/// every joint to its limit root to tip. Every part turns at once about all the axes its limit
/// allows (a hinge about its axis, any other joint freely), so a shoulder's swing and twist and
/// an elbow's bend move together; the CCD and FABRIK steps, one joint or one segment direction
/// at a time, stall where reaching needs such a coupled motion. The damping adapts as in
/// Levenberg-Marquardt (smaller after a step that brought the end closer, larger after one that
/// did not); the steps go on from where the last one left the chain and the best pose is
/// returned. Stops after `max_steps` steps, within `tolerance`, or after kRefineStallSteps steps
/// without a 1% gain (limits hold the chain). Chains longer than kMaxRefinedSegments are left as
/// they are (0 steps). Returns the number of steps taken; `limited` tells whether a limit
/// changed the kept pose's last step. Allocation-free.
int refine_limited(std::span<glm::vec3> out, std::span<glm::quat> orient, const ChainLimits& limits,
                   const glm::vec3& target, float tolerance, int max_steps, bool& limited);

}  // namespace asterune::detail
