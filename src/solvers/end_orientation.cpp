// Endpoint orientation goal (see include/asterune/solvers/end_orientation.hpp).
#include "asterune/solvers/end_orientation.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/transform.hpp"

namespace asterune {

IkGoalMask ik_goal_mask(IkGoalType type) {
  switch (type) {
    case IkGoalType::kTransform: return {true, true};
    case IkGoalType::kPosition: return {true, false};
    case IkGoalType::kRotation: return {false, true};
  }
  return {true, true};
}

glm::quat end_orientation_delta(const glm::quat& end_orientation, const glm::quat& goal, float weight) {
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  const auto from = normalized_rotation(end_orientation);
  const auto to = normalized_rotation(goal);
  if (!from || !to || !std::isfinite(weight)) return identity;
  glm::quat d = glm::normalize(*to * glm::conjugate(*from));
  if (d.w < 0.0f) d = -d;  // shortest path
  const float w = std::clamp(weight, 0.0f, 1.0f);
  if (w >= 1.0f) return d;
  return slerp_shortest(identity, d, w);
}

}  // namespace asterune
