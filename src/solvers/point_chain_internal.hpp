// Private helpers shared by the FABRIK and CCD implementations (not installed).
#pragma once

#include <algorithm>
#include <cmath>
#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/point_chain.hpp"

namespace asterune::detail {

constexpr float kChainTiny = 1e-7f;

/// Longest limited chain refine_limited() works on (its best-pose copy lives on the stack).
constexpr std::size_t kMaxRefinedSegments = 32;

/// ChainSettings::tolerance, or the default 1e-3 studs when it is negative or not finite.
inline float sanitized_tolerance(const ChainSettings& s) {
  return (std::isfinite(s.tolerance) && s.tolerance >= 0.0f) ? s.tolerance : 1e-3f;
}

/// ChainSettings::max_passes clamped to [1, 64].
inline int sanitized_max_passes(const ChainSettings& s) { return std::clamp(s.max_passes, 1, 64); }


/// Validates sizes and values; on failure copies what fits into points_out, fills deltas with
/// identity and returns false.
bool chain_inputs_usable(std::span<const glm::vec3> points, const ChainGoal& goal,
                         std::span<glm::vec3> points_out, std::span<glm::quat> deltas_out,
                         const ChainLimits* limits, std::size_t min_segments);

float segment_length(std::span<const glm::vec3> points, std::size_t i);

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

/// Turns each intermediate out[i] about the axis through out[i-1], out[i+1] toward the pole.
void apply_pole(std::span<glm::vec3> out, const glm::vec3& pole);

/// The world turn that brings `current` (a vector from part i's pivot, carried by the part)
/// toward `desired`, in the motion the part's limit suits. A hinge turns about its axis
/// (frame * limit.axis in world, `frame` = limit_frame()) by the angle between the two
/// vectors' projections on the hinge plane: the shortest arc would be mostly swing, which the
/// hinge drops, so the joint would hardly move. A ball-and-socket takes the shortest arc without
/// its twist about the part's `bone` (its segment in world; nullptr when `current` is the bone,
/// whose arc has no such twist): when `current` reaches past a bent child (CCD's end vector) the
/// arc twists the bone, and twist piled up step after step ends at the twist limit, with the
/// child hinges' planes turned away for good. Twist is left to refine_limited, which knows what
/// it does to the chain. No limit: the shortest arc. Identity when a vector (or a projection)
/// is degenerate.
glm::quat limited_turn(const JointLimit& limit, const glm::quat& frame, const glm::vec3* bone, const glm::vec3& current,
                       const glm::vec3& desired);

/// Root-to-tip pass that rebuilds every part's world orientation from the points in `out`
/// (limited_turn from the parent-carried orientation), clamps it by the joint limit, writes
/// the orientation into orientations_out[i] and re-places out[i+1] from it. Returns true when
/// some limit changed a joint by more than ~0.006 degrees.
bool limited_forward(std::span<const glm::vec3> points, std::span<glm::vec3> out, const ChainLimits& limits,
                     std::span<glm::quat> orientations_out);

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

/// Converts solved world orientations (in place in `q`) into the incremental delta convention
/// of point_chain.hpp, given the original orientations.
void orientations_to_deltas(std::span<const glm::quat> original, std::span<glm::quat> q);

/// The tail every positional chain solver shares: turns the bends toward the pole (when the goal
/// has a finite one), re-applies the joint limits when `reapply_limits` (FABRIK's passes ignore
/// them between poles; CCD's only break them through the pole), writes the per-joint deltas
/// and measures the report on the solved points. `report` carries passes/clamped so far.
SolveReport finish_chain_solve(std::span<const glm::vec3> points, std::span<glm::vec3> out, const ChainGoal& goal,
                               const ChainLimits* limits, bool reapply_limits, bool limited_last_pass, float tolerance,
                               std::span<glm::quat> deltas, SolveReport report);

/// Rotation-invariant clamp frame of joint i: parent orientation (solved) * rest_local[i].
glm::quat limit_frame(const ChainLimits& limits, std::span<const glm::quat> solved, std::size_t i);

}  // namespace asterune::detail
