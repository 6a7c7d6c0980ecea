// Warm starts of the positional chain solvers (private): shapes FABRIK and CCD start from
// where their own passes would stall or creep (docs/solvers.md).
#pragma once

#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/point_chain.hpp"

namespace asterune::detail {

/// Lays the chain straight from points[0] toward target (lengths of `points`).
void lay_straight(std::span<const glm::vec3> points, const glm::vec3& target, std::span<glm::vec3> out);

/// Warm start for a (nearly) straight chain and a reachable target closer than its length,
/// where FABRIK and CCD stall (every point on one line gives them nothing to bend): lays the
/// chain as a planar arc (every joint turns by the same angle phi, found by bisection so the
/// chord equals the target distance), its chord on the root->target line, bulging toward the
/// pole if given, else toward the chain's old direction, else any orthogonal side. Returns
/// false (out untouched) when the chain is not nearly straight.
bool arc_warm_start(std::span<const glm::vec3> points, const glm::vec3& target, const ChainGoal& goal,
                    std::span<glm::vec3> out);

/// Warm start for a bent free chain: scales every joint's bend angle (about its own world bend
/// axis in the input shape) by one factor lambda, found by bisection, so that the chord equals
/// the target distance (lambda > 1 bends a chain that must come closer, < 1 straightens one
/// that must reach farther). Bend planes and proportions are kept; the result still has to be
/// aimed. `scratch` (n entries) is overwritten. Returns false (out = points) when there is no
/// bend to scale, or when scaling cannot fold the chain far enough and fold_as_far_as_possible
/// is false (with it true the most folded scaled shape, every bend at most 180 degrees, is kept:
/// FABRIK finishes the fold well from there, CCD does not).
bool scale_bends(std::span<const glm::vec3> points, const glm::vec3& target, std::span<glm::vec3> out,
                 std::span<glm::quat> scratch, bool fold_as_far_as_possible);

/// Turns out[1..] rigidly about out[0] so that out.back() points at the target.
void aim_about_root(std::span<glm::vec3> out, const glm::vec3& target);

}  // namespace asterune::detail
