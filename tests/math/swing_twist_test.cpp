// Swing-twist decomposition: hand-derived cases and the defining properties (rule IK8).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "asterune/math/swing_twist.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

TEST_CASE("swing_twist: a swing about Y after a twist about X splits back into the two") {
  // q = swing(30 deg about Y) * twist(40 deg about X); Y is orthogonal to X, so the
  // decomposition about X must return exactly these factors.
  const glm::quat q = axis_angle_deg(30, {0, 1, 0}) * axis_angle_deg(40, {1, 0, 0});
  const SwingTwist st = swing_twist(q, {1, 0, 0});
  CHECK(same_rotation(st.twist, axis_angle_deg(40, {1, 0, 0}), 1e-6f));
  CHECK(same_rotation(st.swing, axis_angle_deg(30, {0, 1, 0}), 1e-6f));
  CHECK(glm::degrees(twist_angle(st.twist, {1, 0, 0})) == Approx(40.0f).margin(1e-3));
  CHECK(glm::degrees(swing_angle(st.swing)) == Approx(30.0f).margin(1e-3));
  // Negative twist keeps its sign.
  const SwingTwist neg = swing_twist(axis_angle_deg(-70, {1, 0, 0}), {1, 0, 0});
  CHECK(glm::degrees(twist_angle(neg.twist, {1, 0, 0})) == Approx(-70.0f).margin(1e-3));
  CHECK(swing_angle(neg.swing) == Approx(0.0f).margin(1e-3));
}

TEST_CASE("swing_twist: random rotations recompose, the twist is about the axis and the swing moves the axis like q") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 500; ++i) {
    const glm::quat q = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    const glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.0f, 0.0f, 0.01f));
    const SwingTwist st = swing_twist(q, axis);
    REQUIRE(same_rotation(st.swing * st.twist, q, 1e-5f));
    const glm::vec3 tv(st.twist.x, st.twist.y, st.twist.z);
    REQUIRE(glm::length(glm::cross(tv, axis)) < 1e-5f);
    const glm::vec3 sv(st.swing.x, st.swing.y, st.swing.z);
    REQUIRE(std::fabs(glm::dot(sv, axis)) < 1e-5f);
    REQUIRE(glm::length(st.swing * axis - q * axis) < 1e-4f);
  }
}

TEST_CASE("swing_twist: a half-turn swing has no twist and no NaN") {
  const SwingTwist st = swing_twist(axis_angle_deg(180, {0, 1, 0}), {1, 0, 0});
  CHECK(std::isfinite(st.swing.w));
  CHECK(st.twist == glm::quat(1, 0, 0, 0));
  CHECK(glm::degrees(swing_angle(st.swing)) == Approx(180.0f).margin(1e-3));
}
