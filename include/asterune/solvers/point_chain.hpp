// Shared vocabulary of the positional chain solvers (FABRIK, CCD): the goal, the bounds, the
// optional joint limits, and the helper that turns solved points into per-joint world delta
// rotations (rule IK5), usable by any positional solver.
//
// A chain of n segments is given as n + 1 points, root first (rule IK1):
//     points[0] .. points[n-1]  joint pivots; joint i drives part i, which carries segment i
//     points[n]                 the endpoint (end part pivot + endpoint offset) that reaches
// Segment i runs from points[i] to points[i+1]; its length is fixed by the input pose.
//
// Delta convention (parent-first, incremental, world space): deltas[i] turns part i about
// its pivot AFTER the deltas of its chain parents have been applied:
//     A_{-1} = identity,   A_i = deltas[i] * A_{i-1}
//     new world orientation of part i = A_i * old world orientation of part i
// The two-bone solver uses the same convention; the controls apply deltas through the rig.
#pragma once

#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/joint_limits.hpp"
#include "asterune/solvers/solve_report.hpp"

namespace asterune {

struct ChainGoal {
  glm::vec3 target{0.0f};
  /// Optional pole point: after the positional solve each intermediate bend point is turned
  /// about the axis through its two neighbours toward it (rule IK4).
  glm::vec3 pole{0.0f};
  bool has_pole = false;
};

struct ChainSettings {
  float tolerance = 1e-3f;  ///< stop (and report reached) within this distance, studs
  int max_passes = 16;      ///< upper bound on passes (clamped to [1, 64])
};

/// Optional joint limits (see joint_limits.hpp for the frame convention). All spans have
/// n entries (one per joint/part); pass nullptr to the solvers for a free chain.
struct ChainLimits {
  std::span<const glm::quat> orientations;  ///< current world orientation of part i
  std::span<const glm::quat> rest_local;    ///< rest orientation of part i relative to its parent part
  glm::quat root_parent{1.0f, 0.0f, 0.0f, 0.0f};  ///< current world orientation of part 0's parent
  std::span<const JointLimit> limits;       ///< limit of joint i
};

/// Per-joint world deltas (convention above) that take the `before` points onto the `after`
/// points: each delta is the shortest arc turning segment i, as carried by the parents'
/// deltas, onto the solved direction after[i+1] - after[i]. A zero-length segment gets the
/// identity. Sizes: before.size() == after.size() == deltas.size() + 1 >= 2; on mismatch
/// nothing is written and false is returned. No allocation.
bool chain_deltas(std::span<const glm::vec3> before, std::span<const glm::vec3> after,
                  std::span<glm::quat> deltas);

/// Sum of segment lengths |points[i+1] - points[i]|.
float chain_length(std::span<const glm::vec3> points);

}  // namespace asterune
