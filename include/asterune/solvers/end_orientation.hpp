// Endpoint orientation goal (rule IK7) and Roblox IKControl goal types. The orientation goal
// is applied after the positional solve: the end part is turned about its own pivot so its
// world orientation becomes the goal.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace asterune {

/// Roblox Enum.IKControlType values that are positional/orientation goals (LookAt is the
/// look-at solver's business): Transform = position + rotation, Position = position only,
/// Rotation = orientation only (no positional solve; only the end part turns).
enum class IkGoalType : unsigned char { kTransform = 0, kPosition = 1, kRotation = 2 };

struct IkGoalMask {
  bool position = true;  ///< run the positional solve (two-bone / FABRIK / CCD)
  bool rotation = true;  ///< then apply end_orientation_delta to the end part
};

/// Transform -> {true, true}; Position -> {true, false}; Rotation -> {false, true}.
IkGoalMask ik_goal_mask(IkGoalType type);

/// World delta D for the end part's joint (about its pivot) such that
///     slerp(identity, D, weight) * end_orientation
/// turns the end part toward `goal` (weight 1: exactly goal). `end_orientation` is the end
/// part's world orientation AFTER the positional solve (all chain deltas applied). The delta
/// takes the shortest path. Nonfinite or zero-length inputs, or nonfinite weight, give the
/// identity; weight is clamped to [0, 1].
glm::quat end_orientation_delta(const glm::quat& end_orientation, const glm::quat& goal, float weight = 1.0f);

}  // namespace asterune
