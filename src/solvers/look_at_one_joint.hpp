// The one-joint whole-share look-at (a neck or head alone: weight >= 1), solved in the
// frame's own coordinates without the chain's rigid-motion accumulator. Internal to
// solve_look_at(), which falls back to the general chain loop when this returns false.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/look_at.hpp"

namespace asterune::detail {

/// Turns unit `facing` about `pivot` so that it looks at `target` from the turned `eye`
/// (rules LA1, LA2), as solve_look_at() does for one joint of weight 1. True when it handled
/// the solve: `turn` and `report` are filled (an invalid report when the target is at the eye,
/// `turn` then untouched). False when the case needs the general loop (the facing along up, a
/// half-turn yaw, degenerate geometry); nothing is written then.
bool solve_look_at_one_joint(const LookAtFrame& frame, const glm::vec3& pivot, const glm::vec3& eye,
                             const glm::vec3& facing, const glm::vec3& target, glm::quat& turn, LookAtReport& report);

}  // namespace asterune::detail
