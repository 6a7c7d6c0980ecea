// Endpoint orientation goal and IKControl goal types (rule IK7).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "asterune/solvers/end_orientation.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

TEST_CASE("end orientation: the delta turns the end part onto the goal (rule IK7)") {
  // End part yawed 90 deg about +Y, goal pitched 90 deg about +X: D = goal * inverse(end).
  const glm::quat end = axis_angle_deg(90, {0, 1, 0});
  const glm::quat goal = axis_angle_deg(90, {1, 0, 0});
  const glm::quat d = end_orientation_delta(end, goal);
  CHECK(same_rotation(d * end, goal, 1e-6f));
  // Hand-derived effect on the end part's local -Z (its facing): goal maps -Z to +Y.
  CHECK(glm::length((d * end) * glm::vec3(0, 0, -1) - glm::vec3(0, 1, 0)) < 1e-5f);
  CHECK(d.w >= 0.0f);  // shortest path
}

TEST_CASE("end orientation: weight slerps the delta and bad input gives the identity (rule IK7)") {
  const glm::quat end(1, 0, 0, 0);
  const glm::quat goal = axis_angle_deg(80, {0, 0, 1});
  CHECK(same_rotation(end_orientation_delta(end, goal, 0.5f), axis_angle_deg(40, {0, 0, 1}), 1e-6f));
  CHECK(same_rotation(end_orientation_delta(end, goal, 0.0f), glm::quat(1, 0, 0, 0), 1e-7f));
  CHECK(same_rotation(end_orientation_delta(end, goal, 2.0f), goal, 1e-6f));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(end_orientation_delta(end, glm::quat(nan, 0, 0, 0)) == glm::quat(1, 0, 0, 0));
  CHECK(end_orientation_delta(glm::quat(0, 0, 0, 0), goal) == glm::quat(1, 0, 0, 0));
  CHECK(end_orientation_delta(end, goal, nan) == glm::quat(1, 0, 0, 0));
  // A goal given with negative w is the same rotation: still the short way.
  const glm::quat d = end_orientation_delta(end, -goal);
  CHECK(quat_angle_deg(d) == Approx(80.0f).margin(1e-3));
}

TEST_CASE("end orientation: Roblox IKControlType maps to position / rotation goals (rule IK7)") {
  CHECK(ik_goal_mask(IkGoalType::kTransform).position);
  CHECK(ik_goal_mask(IkGoalType::kTransform).rotation);
  CHECK(ik_goal_mask(IkGoalType::kPosition).position);
  CHECK_FALSE(ik_goal_mask(IkGoalType::kPosition).rotation);
  CHECK_FALSE(ik_goal_mask(IkGoalType::kRotation).position);
  CHECK(ik_goal_mask(IkGoalType::kRotation).rotation);
  // Enum values follow Roblox's Enum.IKControlType numbering.
  CHECK(static_cast<int>(IkGoalType::kTransform) == 0);
  CHECK(static_cast<int>(IkGoalType::kPosition) == 1);
  CHECK(static_cast<int>(IkGoalType::kRotation) == 2);
}
