// ControlStack rules (rules CS1-CS10, RG1-RG3) on the R15 rig.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <catch2/catch.hpp>

#include "asterune/controls/ground.hpp"
#include "controls/ik_control.hpp"

#include "control_helpers.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

const float kNan = std::numeric_limits<float>::quiet_NaN();
const glm::vec3 kTargetA(-1.6f, 3.0f, -0.8f);
const glm::vec3 kTargetB(-1.2f, 3.6f, -1.1f);

glm::vec3 wrist(const Character& ch) { return ch.point_on("LeftLowerArm", kWristInLowerArm); }

ControlDesc named_arm(const std::string& name, const glm::vec3& target, int priority) {
  ControlDesc d = left_arm(target);
  d.name = name;
  d.priority = priority;
  return d;
}

// Feet on both R15 legs at priority 0, smoothed over 0.05 s; `pelvis`: with the pelvis drop.
ControlDesc both_feet(bool pelvis) {
  ControlDesc feet;
  feet.name = "Feet";
  feet.priority = 0;
  feet.smooth_time = 0.05f;
  FeetSettings fs;
  fs.legs = {FeetLeg{"LeftUpperLeg", "LeftFoot", {}}, FeetLeg{"RightUpperLeg", "RightFoot", {}}};
  fs.pelvis = pelvis;
  feet.settings = fs;
  return feet;
}

// An unsmoothed look-at at priority 2 on a point half a stud ahead of the left hand.
ControlDesc look_at_left_hand() {
  ControlDesc look = look_at_control("Look", {});
  look.priority = 2;
  look.smooth_time = 0.0f;
  look.target = target_on_part("LeftHand", {0.0f, 0.0f, -0.5f});
  return look;
}

}  // namespace

TEST_CASE("controls run by ascending priority, ties in insertion order", "[stack]") {
  // rule CS1: the control that runs last decides where the hand ends.
  SECTION("priority") {
    Character ch;
    auto s = ch.stack({named_arm("A", kTargetA, 5), named_arm("B", kTargetB, 1)});
    ch.update(s);
    CHECK(glm::length(wrist(ch) - kTargetA) < 1e-3f);  // A (priority 5) ran after B
  }
  SECTION("ties keep insertion order") {
    Character ch;
    auto s = ch.stack({named_arm("A", kTargetA, 2), named_arm("B", kTargetB, 2)});
    ch.update(s);
    CHECK(glm::length(wrist(ch) - kTargetB) < 1e-3f);
    // Reordering at run time takes effect on the next update, without allocating.
    s.set_priority(1, 1);
    reset_pose(ch.pose.local, ch.pose.coverage);
    AllocationScope alloc;
    ch.update(s);
    CHECK(alloc.count() == 0);
    CHECK(glm::length(wrist(ch) - kTargetA) < 1e-3f);
  }
}

TEST_CASE("a later control reads the pose the earlier one produced", "[stack]") {
  // rule CS2: the arm reaches for a point on the head AFTER the look-at turned it.
  Character ch;
  ControlDesc look = look_at_control("Look", {-3.0f, 4.5f, -2.0f});
  look.priority = 0;
  ControlDesc arm = left_arm({});
  arm.priority = 1;
  arm.target = target_on_part("Head", {0.0f, -0.2f, -0.8f});
  auto s = ch.stack({arm, look});
  ch.update(s);
  const glm::vec3 on_head = ch.point_on("Head", {0.0f, -0.2f, -0.8f});
  // The head did turn, so the point moved away from its rest place (0, 4.3, -0.8).
  CHECK(glm::length(on_head - glm::vec3(0.0f, 4.3f, -0.8f)) > 0.1f);
  CHECK(s.report(0).reached);
  CHECK(glm::length(wrist(ch) - on_head) < 1e-3f);
}

TEST_CASE("weight blends changed joints by slerp and leaves the rest bit-identical", "[stack]") {
  // rule CS3, CS5
  Character full;
  auto s1 = full.stack({left_arm(kTargetA)});
  full.update(s1);

  Character half;
  // Start from a non-trivial pose with some coverage, to see the untouched joints survive.
  for (size_t j = 0; j < half.pose.local.size(); ++j) {
    half.pose.local[j].rotation = glm::angleAxis(0.01f * static_cast<float>(j), glm::vec3(0, 0, 1));
    half.pose.coverage[j] = 0.3f;
  }
  const Pose before = half.pose;
  Character full2;
  full2.pose = before;
  auto s_full = full2.stack({left_arm(kTargetA)});
  full2.update(s_full);  // the weight-1 candidate from the same start
  ControlDesc d = left_arm(kTargetA);
  d.weight = 0.5f;
  auto s2 = half.stack({d});
  half.update(s2);

  int changed = 0;
  for (size_t j = 0; j < before.local.size(); ++j) {
    const Transform& b = before.local[j];
    const Transform& c = full2.pose.local[j];
    const Transform& h = half.pose.local[j];
    if (bitwise_equal(b, c)) {
      CHECK(bitwise_equal(h, b));
      CHECK(half.pose.coverage[j] == 0.3f);
      continue;
    }
    ++changed;
    const glm::quat mid = glm::slerp(b.rotation, c.rotation, 0.5f);  // glm's own slerp as the reference
    CHECK(std::fabs(std::fabs(glm::dot(mid, h.rotation)) - 1.0f) < 1e-6f);
    CHECK(glm::length(h.position - 0.5f * (b.position + c.position)) < 1e-6f);
    CHECK(half.pose.coverage[j] == 0.5f);
  }
  CHECK(changed == 2);
  CHECK(s2.report(0).changed_joints == 2);
  CHECK_FALSE(s2.report(0).reached);  // measured on the blended pose
  CHECK(s2.report(0).distance > 0.01f);
}

TEST_CASE("coverage becomes at least the weight", "[stack]") {
  // rule CS5
  Character ch;
  const int shoulder = joint_index(ch.rig, "LeftUpperArm");
  const int elbow = joint_index(ch.rig, "LeftLowerArm");
  ch.pose.coverage[static_cast<size_t>(shoulder)] = 0.9f;
  ch.pose.coverage[static_cast<size_t>(elbow)] = 0.1f;
  ControlDesc d = left_arm(kTargetA);
  d.weight = 0.6f;
  auto s = ch.stack({d});
  ch.update(s);
  CHECK(ch.pose.coverage[static_cast<size_t>(shoulder)] == 0.9f);
  CHECK(ch.pose.coverage[static_cast<size_t>(elbow)] == 0.6f);
  CHECK(ch.pose.coverage[static_cast<size_t>(joint_index(ch.rig, "RightLowerArm"))] == 0.0f);
  SECTION("weight above 1 counts as 1") {
    Character c2;
    ControlDesc big = left_arm(kTargetA);
    big.weight = 4.0f;
    auto s2 = c2.stack({big});
    c2.update(s2);
    CHECK(c2.pose.coverage[static_cast<size_t>(elbow)] == 1.0f);
    CHECK(s2.report(0).reached);
  }
  SECTION("zero and NaN weights do not run") {
    Character c3;
    ControlDesc zero = left_arm(kTargetA);
    zero.weight = 0.0f;
    auto s3 = c3.stack({zero});
    c3.update(s3);
    CHECK(s3.report(0).status == ControlStatus::kZeroWeight);
    s3.set_weight(0, kNan);
    c3.update(s3);
    CHECK(s3.report(0).status == ControlStatus::kZeroWeight);
    for (const Transform& t : c3.pose.local) CHECK(bitwise_equal(t, Transform::identity()));
  }
}

TEST_CASE("a nonfinite target changes nothing and poisons nothing", "[stack]") {
  // rule CS4, RG3
  Character ch;
  ControlDesc d = left_arm(kTargetA);
  d.smooth_time = 0.2f;
  auto s = ch.stack({d, look_at_control("Look", {2.0f, 4.5f, -3.0f})});
  ch.update(s);
  const Pose solved = ch.pose;
  const glm::vec3 smoothed = s.report(0).target;
  for (float bad : {kNan, std::numeric_limits<float>::infinity()}) {
    s.set_target_position(0, {bad, 3.0f, 0.0f});
    s.set_target_position(1, {0.0f, bad, 0.0f});
    ch.pose = solved;
    ch.update(s);
    CHECK(s.report(0).status == ControlStatus::kBadTarget);
    CHECK(s.report(1).status == ControlStatus::kBadTarget);
    CHECK(std::memcmp(ch.pose.local.data(), solved.local.data(), solved.local.size() * sizeof(Transform)) == 0);
    for (const Transform& w : ch.world) CHECK(is_finite(w));
  }
  // The smoothed state survived: the next good frame continues from the old smoothed target.
  s.set_target_position(0, kTargetB);
  ch.update(s, 0.1f);
  const float response = 1.0f - std::exp(-0.1f / 0.2f);
  CHECK(glm::length(s.report(0).target - (smoothed + response * (kTargetB - smoothed))) < 1e-5f);
  SECTION("a NaN pole is ignored") {
    // The pole is a point on the right hand, whose world placement is NaN this frame (a NaN
    // right-wrist T, outside the left arm's chain): the solve equals the solve without a pole.
    const glm::vec3 target(-1.6f, 3.0f, -0.8f);
    Character with_pole, without;
    ControlDesc p = left_arm(target);
    std::get<IkSettings>(p.settings).pole = target_on_part("RightHand", {0, 0, 0});
    auto s2 = with_pole.stack({p});
    auto s3 = without.stack({left_arm(target)});
    const size_t wrist = static_cast<size_t>(joint_index(with_pole.rig, "RightHand"));
    const float nan = std::numeric_limits<float>::quiet_NaN();
    with_pole.pose.local[wrist] = Transform{glm::quat(nan, nan, nan, nan), glm::vec3(nan)};
    without.pose.local[wrist] = with_pole.pose.local[wrist];
    with_pole.update(s2);
    without.update(s3);
    REQUIRE_FALSE(is_finite(with_pole.world[wrist]));  // the pole really is NaN
    CHECK(s2.report(0).status == ControlStatus::kSolved);
    CHECK(s2.report(0).reached);
    for (const char* part : {"LeftUpperArm", "LeftLowerArm"}) {
      const size_t j = static_cast<size_t>(joint_index(with_pole.rig, part));
      CHECK(is_finite(with_pole.pose.local[j]));
      CHECK(bitwise_equal(with_pole.pose.local[j], without.pose.local[j]));
    }
  }
  SECTION("a huge target stays finite") {
    Character c2;
    ControlDesc p = left_arm({1e30f, -1e30f, 1e30f});
    std::get<IkSettings>(p.settings).pole = target_at({0, 0, 0});
    auto s2 = c2.stack({p});
    c2.update(s2);
    for (const Transform& t : c2.pose.local) CHECK(is_finite(t));
    for (const Transform& w : c2.world) CHECK(is_finite(w));
  }
  SECTION("a nonfinite root placement writes nothing") {
    Character c3;
    auto s3 = c3.stack({left_arm(kTargetA)});
    c3.root.position.x = kNan;
    c3.update(s3);
    CHECK(s3.report(0).status == ControlStatus::kNotRun);
    for (const Transform& t : c3.pose.local) CHECK(bitwise_equal(t, Transform::identity()));
  }
}

TEST_CASE("target smoothing follows 1 - exp(-t / T) whatever the split of dt", "[stack]") {
  // rule CS6: first frame takes the target as is; then the gap closes by exp(-sum dt / T).
  const float tau = 0.25f;
  const std::vector<std::vector<float>> splits{{0.3f}, {0.1f, 0.1f, 0.1f}, {0.05f, 0.25f}, {0.01f, 0.09f, 0.15f, 0.05f}};
  for (const auto& split : splits) {
    Character ch;
    ControlDesc d = left_arm(kTargetA);
    d.smooth_time = tau;
    auto s = ch.stack({d});
    ch.update(s, 0.5f);
    CHECK(s.report(0).target == kTargetA);  // first frame: no lag
    s.set_target_position(0, kTargetB);
    for (float dt : split) {
      reset_pose(ch.pose.local, ch.pose.coverage);
      ch.update(s, dt);
    }
    const float closed = 1.0f - std::exp(-0.3f / tau);
    const glm::vec3 expect = kTargetA + closed * (kTargetB - kTargetA);
    CHECK(glm::length(s.report(0).target - expect) < 1e-5f);
    // The solve used the smoothed target (smoothing happens before the solve, not after it).
    CHECK(glm::length(wrist(ch) - expect) < 1e-3f);
  }
  SECTION("dt <= 0 or nonfinite makes no progress; a huge dt converges") {
    Character ch;
    ControlDesc d = left_arm(kTargetA);
    d.smooth_time = tau;
    auto s = ch.stack({d});
    ch.update(s, 0.1f);
    s.set_target_position(0, kTargetB);
    for (float dt : {0.0f, -1.0f, kNan, std::numeric_limits<float>::infinity() * -1.0f}) {
      ch.update(s, dt);
      CHECK(s.report(0).target == kTargetA);
    }
    ch.update(s, std::numeric_limits<float>::infinity());
    CHECK(s.report(0).target == kTargetB);
    s.set_target_position(0, kTargetA);
    ch.update(s, 1e30f);
    CHECK(s.report(0).target == kTargetA);
  }
  SECTION("smooth_time <= 0 means no smoothing") {
    Character ch;
    auto s = ch.stack({left_arm(kTargetA)});
    ch.update(s);
    s.set_target_position(0, kTargetB);
    ch.update(s, 0.001f);
    CHECK(s.report(0).target == kTargetB);
  }
}

TEST_CASE("disable clears retained state; enable starts fresh", "[stack]") {
  // rule CS7
  Character ch;
  ControlDesc d = left_arm(kTargetA);
  d.smooth_time = 1.0f;
  auto s = ch.stack({d});
  ch.update(s);
  s.set_target_position(0, kTargetB);
  ch.update(s, 0.1f);
  CHECK(s.report(0).target != kTargetB);  // lagging
  s.set_enabled(0, false);
  reset_pose(ch.pose.local, ch.pose.coverage);
  ch.update(s);
  CHECK(s.report(0).status == ControlStatus::kDisabled);
  for (const Transform& t : ch.pose.local) CHECK(bitwise_equal(t, Transform::identity()));
  s.set_enabled(0, true);
  ch.update(s, 0.1f);
  CHECK(s.report(0).target == kTargetB);  // no old target: takes the new one as is
  CHECK(s.report(0).reached);
}

TEST_CASE("path and part targets", "[stack]") {
  // formats.md targets: path linear in time and clamped; part-relative from the current pose.
  Character ch;
  ControlDesc d = left_arm({});
  d.target = target_path({{0.0f, kTargetA}, {1.0f, kTargetB}});
  auto s = ch.stack({d});
  for (float t : {-1.0f, 0.0f, 0.25f, 1.0f, 3.0f}) {
    ch.update(s, 1.0f / 60.0f, t);
    const float a = std::clamp(t, 0.0f, 1.0f);
    CHECK(glm::length(s.report(0).target - (kTargetA + a * (kTargetB - kTargetA))) < 1e-6f);
  }
  ControlDesc bad = left_arm({});
  bad.target = target_path({{1.0f, kTargetA}, {0.5f, kTargetB}});
  CHECK_FALSE(ControlStack::build(ch.rig, std::vector<ControlDesc>{bad}).ok());
  bad.target = target_path({});
  CHECK_FALSE(ControlStack::build(ch.rig, std::vector<ControlDesc>{bad}).ok());
  // The root part is a valid part for part-relative targets.
  ControlDesc on_root = left_arm({});
  on_root.target = target_on_part("HumanoidRootPart", {-1.5f, 0.0f, -0.8f});
  auto s2 = ch.stack({on_root});
  reset_pose(ch.pose.local, ch.pose.coverage);
  ch.update(s2);
  CHECK(glm::length(s2.report(0).target - glm::vec3(-1.5f, 3.0f, -0.8f)) < 1e-6f);
}

TEST_CASE("the stack refuses a pose or rig it was not built for", "[stack]") {
  // rule RG3
  Character ch;
  auto s = ch.stack({left_arm(kTargetA)});
  RigDesc other = r15_desc();
  other.joints.pop_back();
  const Rig small = build_rig(other).value();
  Pose p = make_pose(small);
  std::vector<Transform> w(static_cast<size_t>(small.joint_count()));
  s.update(small, StackFrame{ch.root, 0.016f, 0.0f}, p, w);
  CHECK(s.report(0).status == ControlStatus::kNotRun);
  std::vector<Transform> short_world(3);
  s.update(ch.rig, StackFrame{ch.root, 0.016f, 0.0f}, ch.pose, short_world);
  CHECK(s.report(0).status == ControlStatus::kNotRun);
  for (const Transform& t : ch.pose.local) CHECK(bitwise_equal(t, Transform::identity()));
}

TEST_CASE("a whole stack update allocates nothing and is deterministic", "[stack]") {
  // rule RG1, RG2, CS8: two arms, two legs and a look-at on R15.
  Character ch;
  ControlDesc la = left_arm({-1.6f, 3.0f, -0.8f});
  ControlDesc ra = ik_control("RightArm", "RightUpperArm", "RightHand", {0.0f, -0.15f, 0.0f}, {1.5f, 3.2f, -0.9f});
  std::get<IkSettings>(ra.settings).pole = target_on_part("HumanoidRootPart", {2.0f, 0.0f, 1.0f});
  ControlDesc ll = ik_control("LeftLeg", "LeftUpperLeg", "LeftFoot", kAnkleInFoot, {-0.5f, 0.5f, -0.3f});
  ll.smooth_time = 0.1f;
  ControlDesc rl = ik_control("RightLeg", "RightUpperLeg", "RightFoot", kAnkleInFoot, {0.5f, 0.7f, 0.2f});
  std::get<IkSettings>(rl.settings).pole = target_at({0.5f, 1.0f, -3.0f});
  ControlDesc look = look_at_control("Look", {});
  look.target = target_path({{0.0f, {3.0f, 4.5f, -4.0f}}, {1.0f, {-3.0f, 4.5f, -4.0f}}});
  look.smooth_time = 0.05f;
  auto s = ch.stack({la, ra, ll, rl, look});
  const Pose start = ch.pose;
  std::vector<Pose> first_run;
  {
    AllocationScope alloc;
    for (int f = 0; f < 30; ++f) {
      ch.pose.local.assign(start.local.begin(), start.local.end());  // same size: no allocation
      ch.pose.coverage.assign(start.coverage.begin(), start.coverage.end());
      ch.update(s, 1.0f / 60.0f, static_cast<float>(f) / 60.0f);
    }
    CHECK(alloc.count() == 0);
  }
  for (int i = 0; i < s.size(); ++i) CHECK(s.report(i).status == ControlStatus::kSolved);
  CHECK(s.report(0).reached);
  CHECK(s.report(1).reached);
  CHECK(s.report(3).reached);
  // Root joint untouched (CS8: the stack never moves the character; it writes motor transforms).
  CHECK(bitwise_equal(ch.pose.local[static_cast<size_t>(joint_index(ch.rig, "LowerTorso"))], Transform::identity()));
  // Determinism: a second stack from the same inputs gives the same bits.
  Character ch2;
  auto s2 = ch2.stack({la, ra, ll, rl, look});
  for (int f = 0; f < 30; ++f) {
    reset_pose(ch2.pose.local, ch2.pose.coverage);
    ch2.update(s2, 1.0f / 60.0f, static_cast<float>(f) / 60.0f);
  }
  CHECK(std::memcmp(ch.pose.local.data(), ch2.pose.local.data(), ch.pose.local.size() * sizeof(Transform)) == 0);
  // The incremental world equals a fresh evaluation.
  const auto fresh = ch.fresh_world();
  for (size_t j = 0; j < fresh.size(); ++j) CHECK(bitwise_equal(fresh[j], ch.world[j]));
}

TEST_CASE("a nonfinite candidate is skipped: the joint keeps its transform (rule CS4)", "[stack]") {
  // The incoming hand T has a NaN translation and an identity rotation. An orientation-only
  // control on the hand turns its rotation (finite) and keeps the translation (NaN), so the
  // candidate is nonfinite yet differs from T: without the CS4 skip the blend would write the
  // turned rotation. That is checked at the control level first, so the stack test below
  // really exercises the skip.
  Character ch;
  const size_t hand = static_cast<size_t>(joint_index(ch.rig, "LeftHand"));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ch.pose.local[hand].position = glm::vec3(nan, 0.0f, 0.0f);
  ControlDesc d = ik_control("Wrist", "LeftHand", "LeftHand", {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f});
  std::get<IkSettings>(d.settings).position_goal = false;
  std::get<IkSettings>(d.settings).orientation_goal = glm::angleAxis(0.5f, glm::vec3(1, 0, 0));
  auto bound = detail::build_ik_control(ch.rig, std::get<IkSettings>(d.settings), "t");
  REQUIRE(bound.ok());
  std::vector<Transform> world(static_cast<size_t>(ch.rig.joint_count()));
  evaluate_world(ch.rig, ch.root, ch.pose.local, world);
  std::vector<Transform> candidates(1);
  detail::solve_ik_control(bound.value(), ch.rig, ch.root, ch.pose.local, world, {0.0f, 0.0f, 0.0f}, nullptr,
                           1.0f / 60.0f, candidates);
  REQUIRE_FALSE(is_finite(candidates[0]));
  REQUIRE(rotation_angle(candidates[0].rotation) > 0.1f);  // the turn would change the hand

  auto s = ch.stack({d});
  const Pose before = ch.pose;
  ch.update(s);
  CHECK(s.report(0).status == ControlStatus::kSolved);
  CHECK(s.report(0).changed_joints == 0);
  CHECK(bitwise_equal(ch.pose.local[hand], before.local[hand]));
  CHECK(ch.pose.coverage[hand] == before.coverage[hand]);
}

TEST_CASE("a control whose chain holds the Root joint writes motor transforms, never the root (rule CS8)", "[stack]") {
  // The chain starts at LowerTorso, which the Root joint places: the stack may turn Root's T
  // (a motor transform), but the root part's world placement is the caller's and stays put.
  Character ch;
  ControlDesc d = ik_control("Lean", "LowerTorso", "Head", {0.0f, 0.0f, -0.6f}, {0.8f, 4.2f, -1.5f});
  auto s = ch.stack({d});
  const Transform root_before = ch.root;
  ch.update(s);
  REQUIRE(s.report(0).status == ControlStatus::kSolved);
  const size_t root_joint = static_cast<size_t>(joint_index(ch.rig, "LowerTorso"));
  CHECK(ch.rig.joint_name(static_cast<int>(root_joint)) == "Root");
  CHECK_FALSE(bitwise_equal(ch.pose.local[root_joint], Transform::identity()));  // the Root motor did turn
  CHECK(bitwise_equal(ch.root, root_before));
  // Every placement follows from the caller's root and the motor transforms alone.
  const auto fresh = ch.fresh_world();
  for (size_t j = 0; j < fresh.size(); ++j) CHECK(bitwise_equal(fresh[j], ch.world[j]));
  // The Root joint's pivot (on the root part) did not move: only what hangs from it turned.
  CHECK(glm::length(ch.pivot("LowerTorso") - transform_point(root_before, {0, -1, 0})) < 1e-6f);
}

TEST_CASE("the stack's subtree refreshes give each control what a full placement before it would (rule CS2, CS5)", "[stack]") {
  // After each control the stack re-places only the subtrees it changed. The reference runs
  // the same controls as one-control stacks in priority order: each of those places the whole
  // world from scratch before its control. Every frame must agree bit for bit: pose, world and
  // reports. The look-at aims at a point on the hand the arm IK has just moved, the feet lower
  // the pelvis (moving everything), and a spring hangs from the other arm, so each kind reads
  // placements an earlier control changed.
  GroundDesc g;
  GroundPlane slope;
  slope.normal = {std::sin(0.26f), std::cos(0.26f), 0.0f};
  g.planes.push_back(slope);
  const Ground ground = build_ground(g).value();

  const ControlDesc feet = both_feet(true);
  const ControlDesc arm = named_arm("Arm", kTargetA, 1);
  const ControlDesc look = look_at_left_hand();
  ControlDesc tail;
  tail.name = "Swing";
  tail.priority = 3;
  SpringSettings sp;
  sp.chain_root = "RightUpperArm";
  sp.end = "RightHand";
  sp.stiffness = 30.0f;
  sp.damping = 2.0f;
  sp.gravity = glm::vec3(0.0f, -40.0f, 0.0f);
  tail.settings = sp;
  const std::vector<ControlDesc> all{feet, arm, look, tail};

  Character lazy;
  Character eager;
  auto stack = lazy.stack(all);
  std::vector<ControlStack> singles;
  for (const ControlDesc& d : all) singles.push_back(eager.stack({d}));
  const Pose start = lazy.pose;
  int compared = 0;
  for (int f = 0; f < 40; ++f) {
    const float t = static_cast<float>(f) / 60.0f;
    const Transform root{glm::angleAxis(0.02f * static_cast<float>(f), glm::vec3(0, 1, 0)), {0.1f * f, 3.0f, -0.05f * f}};
    lazy.root = eager.root = root;
    lazy.pose = start;
    eager.pose = start;
    stack.update(lazy.rig, StackFrame{root, 1.0f / 60.0f, t, &ground}, lazy.pose, lazy.world);
    const size_t hand = static_cast<size_t>(joint_index(eager.rig, "LeftHand"));
    glm::vec3 hand_before_arm(0.0f), hand_after_arm(0.0f);
    for (size_t i = 0; i < singles.size(); ++i) {
      singles[i].update(eager.rig, StackFrame{root, 1.0f / 60.0f, t, &ground}, eager.pose, eager.world);
      if (i == 0) hand_before_arm = transform_point(eager.world[hand], {0.0f, 0.0f, -0.5f});
      if (i == 1) hand_after_arm = transform_point(eager.world[hand], {0.0f, 0.0f, -0.5f});
    }
    INFO("frame " << f);
    REQUIRE(std::memcmp(lazy.pose.local.data(), eager.pose.local.data(), lazy.pose.local.size() * sizeof(Transform)) == 0);
    REQUIRE(std::memcmp(lazy.world.data(), eager.world.data(), lazy.world.size() * sizeof(Transform)) == 0);
    for (int i = 0; i < stack.size(); ++i) {
      const ControlReport& a = stack.report(i);
      const ControlReport& b = singles[static_cast<size_t>(i)].report(0);
      CHECK(a.status == ControlStatus::kSolved);
      CHECK(a.status == b.status);
      CHECK(std::memcmp(&a.target, &b.target, sizeof(glm::vec3)) == 0);
      CHECK(std::memcmp(&a.distance, &b.distance, sizeof(float)) == 0);
      CHECK(std::memcmp(&a.angle, &b.angle, sizeof(float)) == 0);
      ++compared;
    }
    // The world is complete: a fresh evaluation of the final pose (from the root the stack
    // uses, its rotation normalized) gives the same bits.
    Transform unit_root = root;
    unit_root.rotation = glm::normalize(unit_root.rotation);
    std::vector<Transform> fresh(lazy.world.size());
    evaluate_world(lazy.rig, unit_root, lazy.pose.local, fresh);
    for (size_t j = 0; j < fresh.size(); ++j) CHECK(bitwise_equal(fresh[j], lazy.world[j]));
    // The look-at read the hand where the arm left it (no smoothing), not where the feet had
    // put it (the arm moves it by more than a stud in this scene).
    CHECK(glm::length(stack.report(2).target - hand_after_arm) < 1e-6f);
    CHECK(glm::length(hand_after_arm - hand_before_arm) > 0.05f);
  }
  CHECK(compared == 160);
  CHECK(stack.report(0).feet.pelvis_drop > 0.0f);  // the feet did move the whole body
}

TEST_CASE("a stack led by feet that bend only the legs, or do not run, leaves later controls a current world (rule CS2, CS5)", "[stack]") {
  // The feet run first with the pelvis off, so they change only the legs (subtree refreshes,
  // no whole-body walk), or do not run at all (weight 0 on some frames, disabled on others):
  // the arm and the look-at after them must still read a current world. Reference: the same
  // controls as one-control stacks, each placing the whole world before its control; pose,
  // world and reports agree bit for bit.
  GroundDesc g;
  GroundPlane slope;
  slope.normal = {std::sin(0.26f), std::cos(0.26f), 0.0f};
  g.planes.push_back(slope);
  GroundBox step;
  step.center = {-0.5f, 0.4f, 0.0f};
  step.size = {1.0f, 0.6f, 1.0f};
  g.boxes.push_back(step);
  const Ground ground = build_ground(g).value();

  const ControlDesc feet = both_feet(false);
  const ControlDesc arm = named_arm("Arm", kTargetA, 1);
  const ControlDesc look = look_at_left_hand();
  const std::vector<ControlDesc> all{feet, arm, look};

  Character lazy;
  Character eager;
  auto stack = lazy.stack(all);
  std::vector<ControlStack> singles;
  for (const ControlDesc& d : all) singles.push_back(eager.stack({d}));
  const Pose start = lazy.pose;
  int legs_moved = 0;
  for (int f = 0; f < 48; ++f) {
    const float t = static_cast<float>(f) / 60.0f;
    const Transform root{glm::angleAxis(0.02f * static_cast<float>(f), glm::vec3(0, 1, 0)), {0.05f * f, 3.0f, 0.0f}};
    const int mode = (f / 8) % 3;  // 0: feet run, 1: feet at weight 0, 2: feet disabled
    for (ControlStack* s : {&stack, &singles[0]}) {
      s->set_weight(0, mode == 1 ? 0.0f : 1.0f);
      s->set_enabled(0, mode != 2);
    }
    lazy.root = eager.root = root;
    lazy.pose = start;
    eager.pose = start;
    stack.update(lazy.rig, StackFrame{root, 1.0f / 60.0f, t, &ground}, lazy.pose, lazy.world);
    for (ControlStack& single : singles)
      single.update(eager.rig, StackFrame{root, 1.0f / 60.0f, t, &ground}, eager.pose, eager.world);
    INFO("frame " << f);
    REQUIRE(std::memcmp(lazy.pose.local.data(), eager.pose.local.data(), lazy.pose.local.size() * sizeof(Transform)) == 0);
    REQUIRE(std::memcmp(lazy.world.data(), eager.world.data(), lazy.world.size() * sizeof(Transform)) == 0);
    for (int i = 0; i < stack.size(); ++i) {
      const ControlReport& a = stack.report(i);
      const ControlReport& b = singles[static_cast<size_t>(i)].report(0);
      CHECK(a.status == b.status);
      CHECK(a.changed_joints == b.changed_joints);
      CHECK(std::memcmp(&a.target, &b.target, sizeof(glm::vec3)) == 0);
      CHECK(std::memcmp(&a.distance, &b.distance, sizeof(float)) == 0);
      CHECK(std::memcmp(&a.angle, &b.angle, sizeof(float)) == 0);
    }
    CHECK(stack.report(0).status == (mode == 0 ? ControlStatus::kSolved
                                     : mode == 1 ? ControlStatus::kZeroWeight
                                                 : ControlStatus::kDisabled));
    CHECK(stack.report(1).status == ControlStatus::kSolved);
    CHECK(stack.report(2).status == ControlStatus::kSolved);
    if (mode == 0 && stack.report(0).changed_joints > 0) ++legs_moved;
    Transform unit_root = root;
    unit_root.rotation = glm::normalize(unit_root.rotation);
    std::vector<Transform> fresh(lazy.world.size());
    evaluate_world(lazy.rig, unit_root, lazy.pose.local, fresh);
    for (size_t j = 0; j < fresh.size(); ++j) CHECK(bitwise_equal(fresh[j], lazy.world[j]));
  }
  CHECK(legs_moved >= 12);  // the feet did bend the legs on most of their frames
  CHECK(stack.report(0).feet.pelvis_drop == 0.0f);
}

TEST_CASE("clear_target leaves springs and feet solving, not releasing", "[stack]") {
  // rule CS10: only controls that reach for a target have anything to release.
  Character ch;
  ControlDesc spring;
  spring.name = "Arm";
  SpringSettings sp;
  sp.chain_root = "LeftUpperArm";
  sp.end = "LeftHand";
  sp.gravity = {0.0f, -60.0f, 0.0f};
  spring.settings = sp;
  ControlDesc feet;
  feet.name = "Feet";
  FeetSettings fs;
  fs.legs = {FeetLeg{"LeftUpperLeg", "LeftFoot", {}}, FeetLeg{"RightUpperLeg", "RightFoot", {}}};
  feet.settings = fs;
  auto s = ch.stack({spring, feet, left_arm(kTargetA)});
  auto ground = build_ground(GroundDesc{{GroundPlane{{0.0f, -0.2f, 0.0f}, {0, 1, 0}, true}}, {}, {}});
  REQUIRE(ground.ok());
  const auto frame = [&] {
    reset_pose(ch.pose.local, ch.pose.coverage);
    s.update(ch.rig, StackFrame{ch.root, 1.0f / 60.0f, 0.0f, &ground.value()}, ch.pose, ch.world);
  };
  frame();
  for (int i = 0; i < 3; ++i) s.clear_target(i);
  for (int f = 0; f < 3; ++f) {
    frame();
    CHECK(s.report(0).status == ControlStatus::kSolved);
    CHECK(s.report(0).substeps > 0);  // the spring did step
    CHECK(s.report(1).status == ControlStatus::kSolved);
    CHECK(s.report(1).feet.pelvis_drop > 0.1f);  // the feet did reach the lower floor
    CHECK(s.report(2).status == ControlStatus::kNoTarget);
  }
}

TEST_CASE("CS11: a bad handle edits nothing and reads an empty description", "[stack]") {
  Character ch;
  auto s = ch.stack({named_arm("A", kTargetA, 1), named_arm("B", kTargetB, 2)});
  const int typo = s.find("typo");
  REQUIRE(typo == -1);
  // Before: slots_[-1] was written (out of bounds). Now every edit through -1 or size() is a no-op.
  AllocationScope alloc;
  for (int bad : {typo, s.size(), -7}) {
    s.set_weight(bad, 0.0f);
    s.set_priority(bad, 9);
    s.set_smooth_time(bad, 1.0f);
    s.set_enabled(bad, false);
    s.set_target_position(bad, glm::vec3(9.0f));
    s.clear_target(bad);
    s.reset(bad);
    CHECK(s.desc(bad).name.empty());
    CHECK(s.report(bad).weight == ControlReport{}.weight);
  }
  CHECK(alloc.count() == 0);
  for (int i = 0; i < s.size(); ++i) {
    CHECK(s.desc(i).weight == 1.0f);
    CHECK(s.desc(i).enabled);
  }
  ch.update(s);
  CHECK(glm::length(wrist(ch) - kTargetB) < 1e-3f);  // B (priority 2) still runs last, on target
}
