// Rig-bound look-at control (SPEC LA1-LA3): binds a LookAtSettings to a rig at setup (chain,
// end part, rest facing in root space, per-joint weights, scratch), then each frame reads the
// current world pose, converts pivots, eye, facing and target into ROOT space, calls the pure
// solve_look_at() and turns its root-space turns into candidate local transforms (R8).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "asterune/controls/control.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/solvers/look_at.hpp"

namespace asterune {
class Rig;
}

namespace asterune::detail {

/// Bound look-at state: immutable after bind except the scratch buffers.
struct LookAtControl {
  std::vector<int> joints;       // chain, root first
  std::vector<float> weights;    // one per joint
  int end_joint = -1;            // joint placing the end part (= joints.back())
  glm::vec3 forward{0.0f, 0.0f, -1.0f};  // unit, end part frame
  LookAtParams params;           // rest facing in root space, limits in radians
  // scratch (sized at bind)
  std::vector<glm::vec3> pivots;
  std::vector<glm::quat> turns;
  std::vector<glm::quat> world_turns;
};

/// Binds `settings` to `rig`. Fails on unresolved or ambiguous names, an end that does not
/// descend from chain_root, a zero or nonfinite forward axis, nonfinite or negative limits,
/// or a weight list whose length differs from the chain's joint count. Allocates.
Result<LookAtControl> build_look_at_control(const Rig& rig, const LookAtSettings& settings, const std::string& what);

/// One solve: writes a candidate local transform per chain joint into `candidates` (size =
/// joints.size()) and returns the solver's report. Invalid input (nonfinite root or target,
/// target at the eye) leaves candidates equal to the current transforms.
/// Allocation-free, never throws.
LookAtReport solve_look_at_control(LookAtControl& control, const Rig& rig, const Transform& root,
                                   std::span<const Transform> local, std::span<const Transform> world,
                                   const glm::vec3& target, std::span<Transform> candidates);

/// The gaze report of the current pose (after blending), without changing anything.
LookAtReport measure_look_at_control(const LookAtControl& control, const Transform& root,
                                     std::span<const Transform> world, const glm::vec3& target);

}  // namespace asterune::detail
