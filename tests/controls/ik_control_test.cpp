// Rig-bound IK control on the R15 rig (rule IK1, IK2, IK5, IK7, R8). Reference geometry is
// hand-derived from the R15 C0/C1 table; world placements are re-evaluated from scratch.
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "control_helpers.hpp"

using namespace asterune;
using namespace asterune::test;

TEST_CASE("rest geometry of the test rig matches the hand-derived values", "[ik_control]") {
  Character ch;
  CHECK(glm::length(ch.pivot("LeftUpperArm") - kLeftShoulderPivot) < 1e-5f);
  CHECK(glm::length(ch.pivot("LeftLowerArm") - ch.pivot("LeftUpperArm")) == Approx(kUpperArmSegment).epsilon(1e-5));
  CHECK(glm::length(ch.point_on("LeftLowerArm", kWristInLowerArm) - ch.pivot("LeftLowerArm")) ==
        Approx(kLowerArmSegment).epsilon(1e-5));
}

TEST_CASE("two-bone arm reaches a hand target on R15", "[ik_control]") {
  // rule IK1, IK2 (2 segments -> analytic), IK5, R8
  Character ch;
  const glm::vec3 target(-1.6f, 3.0f, -0.8f);
  auto stack = ch.stack({left_arm(target)});
  const auto& bound = ch.rig;  // silence unused warnings in some configurations
  (void)bound;
  ch.update(stack);
  const glm::vec3 wrist = ch.point_on("LeftLowerArm", kWristInLowerArm);
  CHECK(glm::length(wrist - target) < 1e-3f);
  CHECK(stack.report(0).status == ControlStatus::kSolved);
  CHECK(stack.report(0).reached);
  CHECK(stack.report(0).distance == Approx(glm::length(wrist - target)).margin(1e-5));
  // The shoulder pivot does not move and both segments keep their lengths.
  CHECK(glm::length(ch.pivot("LeftUpperArm") - kLeftShoulderPivot) < 1e-5f);
  CHECK(glm::length(ch.pivot("LeftLowerArm") - ch.pivot("LeftUpperArm")) == Approx(kUpperArmSegment).epsilon(1e-4));
  CHECK(glm::length(wrist - ch.pivot("LeftLowerArm")) == Approx(kLowerArmSegment).epsilon(1e-4));
  // Only the two chain joints changed; every other transform is still identity.
  for (int j = 0; j < ch.rig.joint_count(); ++j) {
    const bool in_chain = j == joint_index(ch.rig, "LeftUpperArm") || j == joint_index(ch.rig, "LeftLowerArm");
    if (!in_chain) CHECK(bitwise_equal(ch.pose.local[static_cast<size_t>(j)], Transform::identity()));
  }
}

TEST_CASE("pole sets the elbow side", "[ik_control]") {
  // rule IK3 via the control: the elbow lies on the pole's side of the shoulder->target axis.
  for (float pole_z : {2.0f, -2.0f}) {
    Character ch;
    const glm::vec3 target(-1.3f, 3.2f, -0.9f);
    ControlDesc d = left_arm(target);
    std::get<IkSettings>(d.settings).pole = target_at({-1.5f, 3.0f, pole_z});
    auto stack = ch.stack({d});
    ch.update(stack);
    const glm::vec3 s = kLeftShoulderPivot;
    const glm::vec3 axis = glm::normalize(target - s);
    const glm::vec3 elbow = ch.pivot("LeftLowerArm") - s;
    const glm::vec3 pole = glm::vec3(-1.5f, 3.0f, pole_z) - s;
    const glm::vec3 elbow_perp = elbow - axis * glm::dot(elbow, axis);
    const glm::vec3 pole_perp = pole - axis * glm::dot(pole, axis);
    CHECK(glm::dot(elbow_perp, pole_perp) > 0.0f);
    CHECK(stack.report(0).reached);
    // The report carries the world pole it used (for drawings).
    CHECK(stack.report(0).has_pole);
    CHECK(stack.report(0).pole == glm::vec3(-1.5f, 3.0f, pole_z));
  }
}

TEST_CASE("a control without a pole reports none", "[ik_control]") {
  Character ch;
  auto stack = ch.stack({left_arm({-1.3f, 3.2f, -0.9f})});
  ch.update(stack);
  CHECK_FALSE(stack.report(0).has_pole);
}

TEST_CASE("longer chains use FABRIK, CCD on request, one segment aims", "[ik_control]") {
  // rule IK2
  const glm::vec3 hand_point(0.0f, -0.15f, 0.0f);
  SECTION("three segments, auto -> FABRIK") {
    Character ch;
    const glm::vec3 target(-1.7f, 2.6f, -1.0f);
    auto stack = ch.stack({ik_control("Arm", "LeftUpperArm", "LeftHand", hand_point, target)});
    ch.update(stack);
    CHECK(glm::length(ch.point_on("LeftHand", hand_point) - target) < 1e-3f);
    CHECK(stack.report(0).reached);
  }
  SECTION("three segments, ccd") {
    Character ch;
    const glm::vec3 target(-1.7f, 2.6f, -1.0f);
    ControlDesc d = ik_control("Arm", "LeftUpperArm", "LeftHand", hand_point, target);
    std::get<IkSettings>(d.settings).solver = IkSolver::kCcd;
    auto stack = ch.stack({d});
    ch.update(stack);
    CHECK(glm::length(ch.point_on("LeftHand", hand_point) - target) < 1e-3f);
  }
  SECTION("one segment aims at the target") {
    Character ch;
    const glm::vec3 target(-2.5f, 4.5f, -1.0f);
    auto stack = ch.stack({ik_control("Aim", "LeftUpperArm", "LeftUpperArm", {0.0f, -0.3341f, 0.0f}, target)});
    ch.update(stack);
    const glm::vec3 dir = glm::normalize(ch.pivot("LeftLowerArm") - kLeftShoulderPivot);
    CHECK(glm::length(dir - glm::normalize(target - kLeftShoulderPivot)) < 1e-5f);
    CHECK_FALSE(stack.report(0).reached);  // the target is farther than the segment
  }
  SECTION("an ankle pivot as endpoint makes a leg a two-bone chain") {
    Character ch;
    const glm::vec3 target(-0.5f, 0.6f, -0.4f);
    auto stack = ch.stack({ik_control("Leg", "LeftUpperLeg", "LeftFoot", kAnkleInFoot, target)});
    ch.update(stack);
    CHECK(glm::length(ch.pivot("LeftFoot") - target) < 1e-3f);
    CHECK(bitwise_equal(ch.pose.local[static_cast<size_t>(joint_index(ch.rig, "LeftFoot"))], Transform::identity()));
  }
  SECTION("an ankle pivot typed to 4 digits snaps to the pivot (length-relative tolerance)") {
    // 4e-5 studs off the pivot is 4e-5 of a ~0.9-stud shin: well inside kPivotSnapRelative.
    const glm::vec3 rounded = kAnkleInFoot + glm::vec3(0.0f, -4e-5f, 0.0f);
    Character ch;
    const glm::vec3 target(-0.5f, 0.6f, -0.4f);
    auto stack = ch.stack({ik_control("Leg", "LeftUpperLeg", "LeftFoot", rounded, target)});
    ch.update(stack);
    CHECK(glm::length(ch.pivot("LeftFoot") - target) < 1e-3f);
    CHECK(bitwise_equal(ch.pose.local[static_cast<size_t>(joint_index(ch.rig, "LeftFoot"))], Transform::identity()));
    CHECK(stack.report(0).endpoint_snapped);
    CHECK(stack.report(0).changed_joints == 2);
    // A point a visible distance (1% of the shin) from the pivot is a real extra segment.
    Character off;
    auto off_stack = off.stack({ik_control("Leg", "LeftUpperLeg", "LeftFoot", kAnkleInFoot + glm::vec3(0.0f, -0.01f, 0.0f), target)});
    off.update(off_stack);
    CHECK_FALSE(off_stack.report(0).endpoint_snapped);
    CHECK(off_stack.report(0).changed_joints == 3);
  }
}

TEST_CASE("orientation goal turns the end part after the positional solve", "[ik_control]") {
  // rule IK7
  Character ch;
  const glm::vec3 hand_point(0.0f, -0.15f, 0.0f);
  const glm::vec3 target(-1.6f, 2.7f, -0.9f);
  const glm::quat goal = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1, 0.5f, 0)));
  ControlDesc d = ik_control("Arm", "LeftUpperArm", "LeftHand", hand_point, target);
  std::get<IkSettings>(d.settings).orientation_goal = goal;
  auto stack = ch.stack({d});
  ch.update(stack);
  const auto w = ch.fresh_world();
  const glm::quat hand = w[static_cast<size_t>(joint_index(ch.rig, "LeftHand"))].rotation;
  CHECK(rotation_angle(glm::conjugate(goal) * hand) < 1e-3f);
  SECTION("rotation-only goal leaves the elbow alone") {
    Character ch2;
    ControlDesc r = d;
    std::get<IkSettings>(r.settings).position_goal = false;
    auto s2 = ch2.stack({r});
    ch2.update(s2);
    const auto w2 = ch2.fresh_world();
    CHECK(rotation_angle(glm::conjugate(goal) * w2[static_cast<size_t>(joint_index(ch2.rig, "LeftHand"))].rotation) < 1e-4f);
    CHECK(bitwise_equal(ch2.pose.local[static_cast<size_t>(joint_index(ch2.rig, "LeftLowerArm"))], Transform::identity()));
    CHECK(s2.report(0).reached);
  }
}

TEST_CASE("IK works in world space whatever the root placement", "[ik_control]") {
  // rule R8: a turned and moved character still reaches a world target.
  Character ch;
  ch.root = Transform{glm::angleAxis(2.0f, glm::vec3(0, 1, 0)), glm::vec3(5.0f, 3.0f, -7.0f)};
  const glm::vec3 local_target(-1.6f, 0.0f, -0.8f);  // relative to the root
  const glm::vec3 target = transform_point(ch.root, local_target);
  auto stack = ch.stack({left_arm(target)});
  ch.update(stack);
  CHECK(glm::length(ch.point_on("LeftLowerArm", kWristInLowerArm) - target) < 1e-3f);
  // The same local result as with an unturned root (the rig-space problem is the same).
  Character ref;
  auto s2 = ref.stack({left_arm(transform_point(ref.root, local_target))});
  ref.update(s2);
  for (int j = 0; j < ch.rig.joint_count(); ++j) {
    const glm::quat a = ch.pose.local[static_cast<size_t>(j)].rotation;
    const glm::quat b = ref.pose.local[static_cast<size_t>(j)].rotation;
    CHECK(std::fabs(std::fabs(glm::dot(a, b)) - 1.0f) < 1e-5f);
  }
}

TEST_CASE("IK setup errors are values naming the control", "[ik_control]") {
  Character ch;
  auto fails = [&](ControlDesc d, const std::string& needle) {
    auto s = ControlStack::build(ch.rig, std::vector<ControlDesc>{d});
    REQUIRE_FALSE(s.ok());
    INFO(s.message());
    CHECK(s.message().find(d.name) != std::string::npos);
    CHECK(s.message().find(needle) != std::string::npos);
  };
  fails(ik_control("A", "LeftUpperArm", "RightHand", {}, {0, 0, 0}), "does not descend");
  fails(ik_control("B", "LeftUpperArmX", "LeftHand", {}, {0, 0, 0}), "LeftUpperArmX");
  ControlDesc tb = ik_control("C", "LeftUpperArm", "LeftHand", {0, -0.15f, 0}, {0, 0, 0});
  std::get<IkSettings>(tb.settings).solver = IkSolver::kTwoBone;
  fails(tb, "two_bone");
  fails(ik_control("D", "LeftUpperArm", "LeftHand", {0, 0, 0}, {std::numeric_limits<float>::quiet_NaN(), 0, 0}),
        "not finite");
  ControlDesc pole = left_arm({0, 0, 0});
  pole.name = "E";
  std::get<IkSettings>(pole.settings).pole = target_on_part("Nope", {});
  fails(pole, "Nope");
  // Two controls with one name.
  auto dup = ControlStack::build(ch.rig, std::vector<ControlDesc>{left_arm({0, 0, 0}), left_arm({0, 0, 0})});
  CHECK_FALSE(dup.ok());
}

TEST_CASE("retained bend direction keeps the elbow continuous while a target sweeps", "[ik_control]") {
  // rule IK3 continuity through the control's retained state (CS7 clears it): the pose is
  // recomposed every frame, so only the retained bend carries the elbow side between frames.
  Character ch;
  auto s = ch.stack({left_arm({-1.5f, 2.6f, -1.0f})});
  glm::vec3 last_dir(0.0f);
  float worst = 0.0f;
  for (int f = 0; f <= 200; ++f) {
    // A line over the shoulder, where the axis is nearly opposite the rest arm: carrying the
    // rest bend onto it is ill-conditioned, only last frame's bend is a good guide.
    const float u = -1.0f + 2.0f * static_cast<float>(f) / 200.0f;
    const glm::vec3 target = kLeftShoulderPivot + 1.3f * glm::vec3(0.3185f, 0.9479f, 0.0f) + glm::vec3(0.0f, 0.0f, 0.9f * u);
    s.set_target_position(0, target);
    reset_pose(ch.pose.local, ch.pose.coverage);
    ch.update(s);
    const glm::vec3 axis = glm::normalize(ch.point_on("LeftLowerArm", kWristInLowerArm) - kLeftShoulderPivot);
    glm::vec3 e = ch.pivot("LeftLowerArm") - kLeftShoulderPivot;
    e -= axis * glm::dot(e, axis);
    const glm::vec3 dir = glm::normalize(e);
    if (f > 0) worst = std::max(worst, std::acos(std::clamp(glm::dot(dir, last_dir), -1.0f, 1.0f)));
    last_dir = dir;
  }
  CHECK(worst < 20.0f * 3.14159265f / 180.0f);
}

TEST_CASE("a zero-length bone never poisons the pose", "[ik_control]") {
  // rule RG3: the elbow pivot placed on the shoulder pivot (upper segment of length 0).
  RigDesc desc = r15_desc();
  for (JointDesc& j : desc.joints)
    if (j.name == "LeftElbow") j.c0.position = glm::vec3(0.5f, 0.3943f, 0.0f);
  Rig rig = build_rig(desc).value();
  Pose pose = make_pose(rig);
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));
  for (IkSolver solver : {IkSolver::kAuto, IkSolver::kCcd}) {
    ControlDesc d = left_arm({-1.4f, 3.0f, -0.6f});
    std::get<IkSettings>(d.settings).solver = solver;
    auto stack = ControlStack::build(rig, std::vector<ControlDesc>{d});
    REQUIRE(stack.ok());
    for (int f = 0; f < 3; ++f) {
      reset_pose(pose.local, pose.coverage);
      stack.value().update(rig, StackFrame{Transform::from_position({0, 3, 0}), 1.0f / 60.0f, 0.0f}, pose, world);
      for (const Transform& t : pose.local) CHECK(is_finite(t));
      for (const Transform& w : world) CHECK(is_finite(w));
      CHECK(std::isfinite(stack.value().report(0).distance));
    }
  }
}
