// The sign of a zero in the composed pose (rule AN4): docs/animator.md's sums start at 0, so a
// contribution's -0 component (a rotation stored with its sign flipped, -q, has -0 wherever q
// has 0) becomes +0 in the sum (0 + -0 = +0), and the normalised result keeps +0. A composition
// that took a joint's first contribution as its sum without adding it to 0 would keep the -0.
#include <catch2/catch.hpp>

#include <cmath>

#include "anim_support.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

TEST_CASE("a first contribution's -0 components are summed onto 0 and come out +0 (rule AN4)", "[anim]") {
  const Rig rig = r15_rig();
  const auto j = static_cast<size_t>(joint_index(rig, "LeftUpperArm"));
  const glm::vec3 kX(1.0f, 0.0f, 0.0f);
  // -q for q = 40 degrees about X: (w, x, y, z) = (-cos 20, -sin 20, -0, -0); position (1, -0, -0).
  const glm::quat neg = -axis_angle_deg(40.0f, kX);
  REQUIRE(std::signbit(neg.y));
  REQUIRE(std::signbit(neg.z));
  const Clip c = const_clip("c", {{"LeftUpperArm", neg, glm::vec3(1.0f, -0.0f, -0.0f)}});
  const auto b = native_binding(c, rig);
  // Weight 0.5: blended with the rest pose (0.5), not the lone-track copy.
  Animator anim = build_animator(rig, {track("C", c, *b, TrackPriority::kMovement, 0.5f)});
  Out out(rig);
  REQUIRE(anim.update(rig, 0.0f, out.local, out.coverage).ok);
  const Transform& x = out.local[j];
  // By hand: 0.5 (-q) + 0.5 (-identity) (the rest pose sign-aligned to the first contribution)
  // = -0.5 (1 + cos 20, sin 20, 0, 0), which normalises to -(cos 10, sin 10, 0, 0).
  CHECK(x.rotation.w == Approx(-std::cos(10.0 * kDeg)).margin(1e-6));
  CHECK(x.rotation.x == Approx(-std::sin(10.0 * kDeg)).margin(1e-6));
  CHECK(x.rotation.y == 0.0f);
  CHECK(x.rotation.z == 0.0f);
  CHECK_FALSE(std::signbit(x.rotation.y));
  CHECK_FALSE(std::signbit(x.rotation.z));
  CHECK(x.position.x == Approx(0.5f).margin(1e-6));
  CHECK_FALSE(std::signbit(x.position.y));
  CHECK_FALSE(std::signbit(x.position.z));
  CHECK(out.coverage[j] == Approx(0.5f).margin(1e-6));
}
