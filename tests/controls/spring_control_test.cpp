// Spring controls in the stack (rules S1-S7, CS7, RG1) on examples/tailed_r15.rig.json (R15 plus
// a three-part tail) and on a one-segment pendulum, with the real CMU walk clip
// (tests/data/bvh/cmu_131_01_start_walk_stop.bvh) driving the torso.
//
// Hand-derived tail geometry (from the rig file's C0/C1): Tail1 and Tail2 carry 0.8-stud
// segments (pivot at +0.4 Y, next pivot at -0.4 Y of the part), Tail3 a 0.6-stud one (pivot at
// +0.3 Y, the default endpoint opposite it through the centre at -0.3 Y): chain length 2.2.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/controls/stack.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/rig/world.hpp"
#include "support/r15_rig.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kChainLength = 2.2f;
const glm::vec3 kTipInTail3(0.0f, -0.3f, 0.0f);

Rig tailed_rig() {
  auto rig = io::load_rig(std::string(ASTERUNE_EXAMPLES_DIR) + "/tailed_r15.rig.json");
  INFO((rig.ok() ? std::string() : rig.message()));
  REQUIRE(rig.ok());
  return std::move(rig).value();
}

SpringSettings tail_settings(float stiffness, float damping, const glm::vec3& gravity) {
  SpringSettings s;
  s.chain_root = "Tail1";
  s.end = "Tail3";
  s.stiffness = stiffness;
  s.damping = damping;
  s.gravity = gravity;
  return s;
}

ControlDesc spring_control(const SpringSettings& s, const std::string& name = "Tail") {
  ControlDesc d;
  d.name = name;
  d.settings = s;
  return d;
}

// A clip retargeted onto the rig (automatic humanoid mapping, travel on), sampled per frame.
struct Walk {
  io::SourceClip clip;
  AnimationBinding binding;
  AnimationContext context;
  explicit Walk(const Rig& rig) {
    auto loaded = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_131_01_start_walk_stop.bvh");
    REQUIRE(loaded.ok());
    clip = std::move(loaded).value();
    auto profile = io::build_scene_profile(io::SceneRetarget{}, clip.skeleton, rig, clip.rest_on_ground);
    REQUIRE(profile.ok());
    auto b = build_animation_binding(clip.clip, rig, &clip.skeleton, &profile.value());
    REQUIRE(b.ok());
    binding = std::move(b).value();
    context = make_animation_context(binding);
  }
  void sample(const Rig& rig, float t, Pose& pose) {
    sample_animation(clip.clip, binding, rig, t, WrapMode::kClamp, context, pose.local_span(), pose.coverage_span());
  }
};

struct Tailed {
  Rig rig = tailed_rig();
  Pose pose = make_pose(rig);
  std::vector<Transform> world = std::vector<Transform>(static_cast<size_t>(rig.joint_count()));
  Transform root = Transform::from_position({0.0f, 3.0f, 0.0f});
  int tail1 = joint_index(rig, "Tail1");
  int tail2 = joint_index(rig, "Tail2");
  int tail3 = joint_index(rig, "Tail3");

  ControlStack stack(const std::vector<ControlDesc>& controls) {
    auto s = ControlStack::build(rig, controls);
    INFO((s.ok() ? std::string() : s.message()));
    REQUIRE(s.ok());
    return std::move(s).value();
  }
  void update(ControlStack& s, float dt, float time = 0.0f) { s.update(rig, StackFrame{root, dt, time}, pose, world); }
  // Tail points (Tail2 pivot, Tail3 pivot, tip) of a pose, from a fresh world walk.
  std::array<glm::vec3, 3> tail_points(std::span<const Transform> local) const {
    std::vector<Transform> w(static_cast<size_t>(rig.joint_count()));
    evaluate_world(rig, root, local, w);
    return {joint_pivot(rig, w, tail2), joint_pivot(rig, w, tail3),
            transform_point(w[static_cast<size_t>(tail3)], kTipInTail3)};
  }
  std::array<glm::vec3, 3> tail_points() const { return tail_points(pose.local); }
  glm::vec3 tail_root() const {
    std::vector<Transform> w(static_cast<size_t>(rig.joint_count()));
    evaluate_world(rig, root, pose.local, w);
    return joint_pivot(rig, w, tail1);
  }
};

float max_distance(const std::array<glm::vec3, 3>& a, const std::array<glm::vec3, 3>& b) {
  float d = 0.0f;
  for (size_t k = 0; k < 3; ++k) d = std::max(d, glm::length(a[k] - b[k]));
  return d;
}

// A one-segment pendulum: part Arm hangs from the root part Base; its 1-stud segment points
// along +X in the rest pose (C0 turned 90 degrees about Z; C1 puts the pivot 0.5 above the
// Arm's centre, the default endpoint 0.5 below it).
Rig pendulum_rig() {
  RigDesc d;
  d.name = "Pendulum";
  d.root = "Base";
  d.parts.push_back(PartDesc{"Base", "Base", {1, 1, 1}, {}});
  d.parts.push_back(PartDesc{"Arm", "Arm", {0.2f, 1, 0.2f}, {}});
  const Transform c0 = Transform::from_rotation(glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1)));
  d.joints.push_back(JointDesc{"Shoulder", "Base", "Arm", c0, Transform::from_position({0, 0.5f, 0}), true});
  auto rig = build_rig(d);
  REQUIRE(rig.ok());
  return std::move(rig).value();
}

}  // namespace

TEST_CASE("spring: clock steps and the dt clamp follow S3, S8; a negative or NaN dt holds still", "[spring]") {
  // Whole 1/240 s steps of the frame time clamped to 0.05 s (rule S8): 0.05 s is 12 of them.
  struct Case { float dt; int substeps; };
  const Case cases[] = {{0.0f, 0}, {1.0f / 240.0f, 1}, {1.0f / 60.0f, 4}, {1.0f / 30.0f, 8},
                        {0.05f, 12}, {0.2f, 12},       {-1.0f, 0},        {kNan, 0}};
  for (const Case& c : cases) {
    INFO("dt = " << c.dt);
    Tailed ch;
    auto s = ch.stack({spring_control(tail_settings(20.0f, 1.0f, {0.0f, -40.0f, 0.0f}))});
    ch.update(s, 1.0f / 60.0f);  // first frame: starts on the animated pose, no step
    CHECK(s.report(0).substeps == 0);
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    ch.update(s, 1.0f / 60.0f);  // now falling
    const auto before = ch.tail_points();
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    ch.update(s, c.dt);
    CHECK(s.report(0).status == ControlStatus::kSolved);
    CHECK(s.report(0).substeps == c.substeps);
    if (c.substeps == 0) CHECK(max_distance(ch.tail_points(), before) < 1e-5f);
    else CHECK(max_distance(ch.tail_points(), before) > 1e-4f);
  }
}

TEST_CASE("spring: released from a displaced pose without gravity, the tail settles on the animated pose", "[spring]") {
  Tailed ch;
  auto s = ch.stack({spring_control(tail_settings(60.0f, 6.0f, glm::vec3(0.0f)))});
  const size_t t1 = static_cast<size_t>(ch.tail1);
  ch.pose.local[t1] = Transform::from_rotation(glm::angleAxis(glm::radians(70.0f), glm::vec3(1, 0, 0)));
  ch.update(s, 1.0f / 60.0f);  // the displaced animated pose becomes the spring's state
  const auto rest = ch.tail_points(make_pose(ch.rig).local);
  const auto displaced = ch.tail_points();
  REQUIRE(max_distance(displaced, rest) > 1.0f);
  float early = 0.0f;
  for (int f = 1; f <= 600; ++f) {  // 10 s at 60 Hz on the rest pose
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    ch.update(s, 1.0f / 60.0f);
    if (f == 6) early = max_distance(ch.tail_points(), rest);
  }
  CHECK(early > 0.1f);  // it did swing rather than snap
  CHECK(max_distance(ch.tail_points(), rest) < 1e-3f);
}

TEST_CASE("spring: with gravity a pendulum settles on its analytic equilibrium", "[spring]") {
  // One segment of length L from pivot p, animated along d0, stiffness k, gravity g. At rest
  // the velocity is zero and the constraint can only cancel the radial part of the
  // acceleration, so k (p + L d0 - x) + g must be parallel to x - p = L u:
  //     k L d0 + g = lambda u  =>  u = normalize(k L d0 + g).
  // k = 60, L = 1, d0 = +X, g = (0, -30, 0): u = (60, -30, 0) / sqrt(4500) = (0.894427, -0.447214, 0).
  Rig rig = pendulum_rig();
  SpringSettings sp;
  sp.chain_root = "Arm";
  sp.end = "Arm";
  sp.stiffness = 60.0f;
  sp.damping = 6.0f;
  sp.gravity = glm::vec3(0.0f, -30.0f, 0.0f);
  auto stack = ControlStack::build(rig, std::vector<ControlDesc>{spring_control(sp)});
  REQUIRE(stack.ok());
  ControlStack s = std::move(stack).value();
  Pose pose = make_pose(rig);
  std::vector<Transform> world(1);
  for (int f = 0; f < 600; ++f) {
    reset_pose(pose.local_span(), pose.coverage_span());
    s.update(rig, StackFrame{Transform::identity(), 1.0f / 60.0f, 0.0f}, pose, world);
  }
  const glm::vec3 tip = transform_point(world[0], {0.0f, -0.5f, 0.0f});
  CHECK(tip.x == Approx(0.894427f).margin(1e-3));
  CHECK(tip.y == Approx(-0.447214f).margin(1e-3));
  CHECK(tip.z == Approx(0.0f).margin(1e-3));
  CHECK(s.report(0).distance == Approx(glm::length(glm::vec3(0.894427f - 1.0f, -0.447214f, 0.0f))).margin(1e-3));
}

namespace {

// Tail tips at t = 1/6, 2/6, ... (common to 30, 60 and 144 Hz) over `seconds`.
std::vector<glm::vec3> tips_at_common_times(int hz, float seconds, bool walk, const SpringSettings& settings) {
  Tailed ch;
  std::optional<Walk> clip;
  if (walk) clip.emplace(ch.rig);
  auto s = ch.stack({spring_control(settings)});
  const int frames = static_cast<int>(std::lround(seconds * static_cast<float>(hz)));
  const int every = hz / 6;
  std::vector<glm::vec3> tips;
  for (int f = 0; f <= frames; ++f) {
    const float t = static_cast<float>(f) / static_cast<float>(hz);
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    if (clip) clip->sample(ch.rig, 1.0f + t, ch.pose);  // from 1 s into the clip: walking
    ch.update(s, 1.0f / static_cast<float>(hz), t);
    if (f % every == 0) tips.push_back(ch.tail_points()[2]);
  }
  return tips;
}

void check_agreement(bool walk, const SpringSettings& settings, float seconds) {
  const auto a = tips_at_common_times(30, seconds, walk, settings);
  const auto b = tips_at_common_times(60, seconds, walk, settings);
  const auto c = tips_at_common_times(144, seconds, walk, settings);
  REQUIRE(a.size() == b.size());
  REQUIRE(a.size() == c.size());
  float worst = 0.0f, moved = 0.0f;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max({worst, glm::length(a[i] - b[i]), glm::length(a[i] - c[i]), glm::length(b[i] - c[i])});
    moved = std::max(moved, glm::length(b[i] - b[0]));
  }
  INFO("largest tip difference " << worst << " studs; tip travel " << moved);
  CHECK(moved > 0.5f);  // the tail really moved
  CHECK(worst <= 0.01f * kChainLength);
}

}  // namespace

TEST_CASE("spring: a gravity drop agrees at 30, 60 and 144 Hz within 1% of the chain length (S7, S8)", "[spring]") {
  // Every rate takes the same 1/240 s steps of the spring's clock (rule S8), and without a clip
  // the inputs do not move: the rates differ by rounding only (docs/springs.md).
  check_agreement(false, tail_settings(20.0f, 4.0f, {0.0f, -40.0f, 0.0f}), 2.0f);
}
TEST_CASE("spring: a walk clip driving the torso agrees at 30, 60 and 144 Hz within 1% of the chain length (S7)",
          "[spring]") {
  check_agreement(true, tail_settings(60.0f, 6.0f, {0.0f, -30.0f, 0.0f}), 3.0f);
}

TEST_CASE("spring: a teleport of the root snaps the tail instead of flinging it (S6)", "[spring]") {
  Tailed ch;
  auto s = ch.stack({spring_control(tail_settings(30.0f, 2.0f, {0.0f, -60.0f, 0.0f}))});
  for (int f = 0; f < 20; ++f) {
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    ch.update(s, 1.0f / 60.0f);
    CHECK(s.report(0).resets == 0);
  }
  const auto animated = ch.tail_points(make_pose(ch.rig).local);
  REQUIRE(max_distance(ch.tail_points(), animated) > 0.3f);  // swinging under gravity
  ch.root.position.x += 100.0f;
  for (int f = 0; f < 2; ++f) {
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    ch.update(s, 1.0f / 60.0f);
    CHECK(s.report(0).resets == (f == 0 ? 1 : 0));
    CHECK(max_distance(ch.tail_points(), ch.tail_points(make_pose(ch.rig).local)) <= 0.05f * kChainLength);
  }
}

TEST_CASE("spring: a change of segment length resets the storage (S5)", "[spring]") {
  Tailed ch;
  auto s = ch.stack({spring_control(tail_settings(30.0f, 2.0f, {0.0f, -60.0f, 0.0f}))});
  for (int f = 0; f < 10; ++f) {
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    ch.update(s, 1.0f / 60.0f);
  }
  // The animation moves Tail2's pivot 0.3 studs down its part: segment 0 is now 1.1 long.
  reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
  ch.pose.local[static_cast<size_t>(ch.tail2)] = Transform::from_position({0.0f, -0.3f, 0.0f});
  const auto animated = ch.tail_points(ch.pose.local);
  ch.update(s, 1.0f / 60.0f);
  CHECK(s.report(0).resets == 1);
  CHECK(s.report(0).substeps == 0);
  CHECK(max_distance(ch.tail_points(), animated) < 1e-5f);
}

TEST_CASE("spring: segment lengths are kept to 1e-5 and the spring allocates nothing per frame", "[spring]") {
  Tailed ch;
  Walk walk(ch.rig);
  SpringSettings sp = tail_settings(40.0f, 3.0f, {0.0f, -50.0f, 0.0f});
  SpringCollider leg;
  leg.shape = SpringColliderShape::kCapsule;
  leg.part = "LeftUpperLeg";
  leg.offset = glm::vec3(0.0f, 0.5f, 0.3f);
  leg.offset_end = glm::vec3(0.0f, -0.5f, 0.3f);
  leg.radius = 0.45f;
  SpringCollider ball;
  ball.part = "RightUpperLeg";
  ball.offset = glm::vec3(0.0f, 0.0f, 0.6f);
  ball.radius = 0.4f;
  sp.colliders = {leg, ball};
  auto s = ch.stack({spring_control(sp)});
  const std::array<float, 3> lengths{0.8f, 0.8f, 0.6f};
  float worst = 0.0f;
  size_t allocations = 0;
  for (int f = 0; f < 240; ++f) {
    const float t = static_cast<float>(f) / 60.0f;
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    walk.sample(ch.rig, 1.0f + t, ch.pose);
    AllocationScope alloc;
    ch.update(s, 1.0f / 60.0f, t);
    allocations += alloc.count();
    const auto p = ch.tail_points();
    const glm::vec3 root = ch.tail_root();
    worst = std::max({worst, std::fabs(glm::length(p[0] - root) - lengths[0]),
                      std::fabs(glm::length(p[1] - p[0]) - lengths[1]), std::fabs(glm::length(p[2] - p[1]) - lengths[2])});
  }
  CHECK(allocations == 0);
  CHECK(worst <= 1e-5f);
}

namespace {

// The walk with the tail swinging low and wide: the closest any tail point comes to the
// colliders (negative: inside), measured on the final pose from the part placements.
float closest_approach(bool with_colliders) {
  Tailed ch;
  Walk walk(ch.rig);
  SpringSettings sp = tail_settings(8.0f, 1.0f, {0.0f, -60.0f, 0.0f});
  SpringCollider left;
  left.shape = SpringColliderShape::kCapsule;
  left.part = "LeftUpperLeg";
  left.offset = glm::vec3(0.0f, 0.4f, 0.0f);
  left.offset_end = glm::vec3(0.0f, -0.6f, 0.0f);
  left.radius = 0.55f;
  SpringCollider right;
  right.part = "RightLowerLeg";
  right.offset = glm::vec3(0.0f, 0.3f, 0.0f);
  right.radius = 0.5f;
  if (with_colliders) sp.colliders = {left, right};
  auto s = ch.stack({spring_control(sp)});
  const int lul = joint_index(ch.rig, "LeftUpperLeg");
  const int rll = joint_index(ch.rig, "RightLowerLeg");
  float closest = 1e9f;
  for (int f = 0; f < 300; ++f) {
    const float t = static_cast<float>(f) / 60.0f;
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    walk.sample(ch.rig, 1.0f + t, ch.pose);
    ch.update(s, 1.0f / 60.0f, t);
    std::vector<Transform> w(static_cast<size_t>(ch.rig.joint_count()));
    evaluate_world(ch.rig, ch.root, ch.pose.local, w);
    const glm::vec3 a = transform_point(w[static_cast<size_t>(lul)], left.offset);
    const glm::vec3 b = transform_point(w[static_cast<size_t>(lul)], left.offset_end);
    const glm::vec3 c = transform_point(w[static_cast<size_t>(rll)], right.offset);
    for (const glm::vec3& p : ch.tail_points()) {
      const float u = std::clamp(glm::dot(p - a, b - a) / glm::dot(b - a, b - a), 0.0f, 1.0f);
      closest = std::min({closest, glm::length(p - (a + u * (b - a))) - left.radius, glm::length(p - c) - right.radius});
    }
  }
  return closest;
}

}  // namespace

TEST_CASE("spring: no tail point is ever inside a collider, and without them it would be (S7)", "[spring]") {
  const float without = closest_approach(false);
  const float with = closest_approach(true);
  INFO("closest approach without colliders " << without << ", with " << with);
  CHECK(without < -0.05f);  // the check can fail: the free tail does swing into the legs
  CHECK(with >= -1e-4f);
}

TEST_CASE("spring: bind refuses zero-length segments, own-part colliders and unstable parameters", "[spring]") {
  Tailed ch;
  auto fails = [&](const SpringSettings& sp, const std::string& why) {
    auto s = ControlStack::build(ch.rig, std::vector<ControlDesc>{spring_control(sp)});
    REQUIRE_FALSE(s.ok());
    INFO(s.message());
    CHECK(s.message().find("control 'Tail'") != std::string::npos);
    CHECK(s.message().find(why) != std::string::npos);
  };
  SpringSettings zero = tail_settings(60.0f, 6.0f, {});
  zero.end_offset = glm::vec3(0.0f, 0.3f, 0.0f);  // Tail3's own pivot
  fails(zero, "zero length");
  SpringSettings own = tail_settings(60.0f, 6.0f, {});
  own.colliders.push_back(SpringCollider{SpringColliderShape::kSphere, "Tail2", {}, {}, 0.3f});
  fails(own, "is not a collider for itself");
  SpringSettings stiff = tail_settings(1e6f, 6.0f, {});
  fails(stiff, "stiffness");
  SpringSettings damp = tail_settings(60.0f, -1.0f, {});
  fails(damp, "damping");
  SpringSettings radius = tail_settings(60.0f, 6.0f, {});
  radius.colliders.push_back(SpringCollider{SpringColliderShape::kSphere, "LeftUpperLeg", {}, {}, 0.0f});
  fails(radius, "radius");
  SpringSettings part = tail_settings(60.0f, 6.0f, {});
  part.colliders.push_back(SpringCollider{SpringColliderShape::kSphere, "Wing", {}, {}, 0.3f});
  fails(part, "Wing");
}

TEST_CASE("spring: disable and reset clear the spring history (CS7)", "[spring]") {
  for (int mode = 0; mode < 2; ++mode) {
    Tailed ch;
    auto s = ch.stack({spring_control(tail_settings(30.0f, 2.0f, {0.0f, -60.0f, 0.0f}))});
    for (int f = 0; f < 20; ++f) {
      reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
      ch.update(s, 1.0f / 60.0f);
    }
    const auto animated = ch.tail_points(make_pose(ch.rig).local);
    REQUIRE(max_distance(ch.tail_points(), animated) > 0.3f);
    if (mode == 0) {
      s.set_enabled(0, false);
      reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
      ch.update(s, 1.0f / 60.0f);
      CHECK(s.report(0).status == ControlStatus::kDisabled);
      s.set_enabled(0, true);
    } else {
      s.reset(0);
    }
    reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
    ch.update(s, 1.0f / 60.0f);
    CHECK(s.report(0).substeps == 0);  // a fresh start: on the animated pose, no old velocity
    CHECK(max_distance(ch.tail_points(), animated) < 1e-5f);
  }
}

TEST_CASE("spring: the joints turn about their pivots and keep the animation's twist (S4)", "[spring]") {
  // Twisting Tail1 about its own segment axis (the part's Y) does not move any tail point, so
  // the spring's swing is the same; the final Tail1 rotation must then carry the same twist.
  auto run = [](const glm::quat& twist) {
    Tailed ch;
    auto s = ch.stack({spring_control(tail_settings(30.0f, 2.0f, {0.0f, -60.0f, 10.0f}))});
    for (int f = 0; f < 15; ++f) {
      reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
      ch.pose.local[static_cast<size_t>(ch.tail1)] = Transform::from_rotation(twist);
      ch.update(s, 1.0f / 60.0f);
    }
    return ch.world[static_cast<size_t>(ch.tail1)];
  };
  const glm::quat twist = glm::angleAxis(glm::radians(40.0f), glm::vec3(0, 1, 0));
  const Transform plain = run(glm::quat(1, 0, 0, 0));
  const Transform twisted = run(twist);
  const glm::quat expected = plain.rotation * twist;
  CHECK(std::fabs(glm::dot(expected, twisted.rotation)) == Approx(1.0f).margin(1e-5));
  CHECK(glm::length(plain.position - twisted.position) < 1e-4f);
}

TEST_CASE("spring: a nonfinite animated pose leaves the pose alone", "[spring]") {
  Tailed ch;
  auto s = ch.stack({spring_control(tail_settings(30.0f, 2.0f, {0.0f, -60.0f, 0.0f}))});
  ch.update(s, 1.0f / 60.0f);
  reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
  ch.pose.local[static_cast<size_t>(ch.tail2)].position = glm::vec3(kNan);
  const std::vector<Transform> before = ch.pose.local;
  ch.update(s, 1.0f / 60.0f);
  CHECK(s.report(0).status == ControlStatus::kBadTarget);
  CHECK(s.report(0).changed_joints == 0);
  CHECK(std::memcmp(before.data(), ch.pose.local.data(), before.size() * sizeof(Transform)) == 0);
}

TEST_CASE("spring: weight back after 2 s at zero starts from rest, not from where the root was (CS9)", "[spring]") {
  // Swing under gravity, then weight 0 for 2 s while the root walks 3 studs (under S6's
  // 8-segment snap), then weight 1 again. The tail must move exactly as a spring started fresh
  // at that moment does: from the animated pose, with no old points or velocity.
  const float dt = 1.0f / 60.0f;
  const SpringSettings sp = tail_settings(30.0f, 2.0f, {0.0f, -60.0f, 0.0f});
  Tailed ch;
  auto s = ch.stack({spring_control(sp)});
  const auto frame = [&](ControlStack& stack, Tailed& c) {
    reset_pose(c.pose.local_span(), c.pose.coverage_span());
    c.update(stack, dt);
  };
  for (int f = 0; f < 20; ++f) frame(s, ch);
  REQUIRE(max_distance(ch.tail_points(), ch.tail_points(make_pose(ch.rig).local)) > 0.3f);
  s.set_weight(0, 0.0f);
  for (int f = 1; f <= 120; ++f) {
    ch.root.position.x = 3.0f * static_cast<float>(f) / 120.0f;
    frame(s, ch);
    CHECK(s.report(0).status == ControlStatus::kZeroWeight);
  }
  s.set_weight(0, 1.0f);
  Tailed fresh;
  fresh.root = ch.root;
  auto reference = fresh.stack({spring_control(sp)});
  for (int f = 0; f < 30; ++f) {
    frame(s, ch);
    frame(reference, fresh);
    CHECK(s.report(0).distance <= reference.report(0).distance + 1e-6f);
    CHECK(max_distance(ch.tail_points(), fresh.tail_points()) < 1e-6f);
  }
}

TEST_CASE("spring: zero, negative and NaN frames between moving frames leave the S9 inputs' curve unpoisoned", "[spring]") {
  // The chain's root travels on a circle (the between-frame curve of rule S9 has work to do);
  // bad frame times (S3: they step nothing) must neither poison the pose nor bend the next
  // frames' curve: the run with them ends where the run without them ends.
  auto run = [](bool with_bad_frames) {
    Tailed ch;
    auto s = ch.stack({spring_control(tail_settings(30.0f, 2.0f, {0.0f, -40.0f, 0.0f}))});
    const float bad[] = {0.0f, -1.0f, kNan, 0.0f};
    for (int f = 0; f < 90; ++f) {
      const float t = static_cast<float>(f) / 60.0f;
      ch.root = Transform::from_position({2.0f * std::cos(3.0f * t), 3.0f, 2.0f * std::sin(3.0f * t)});
      reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
      ch.update(s, 1.0f / 60.0f, t);
      if (with_bad_frames && f % 20 == 10) {
        for (float dt : bad) {
          reset_pose(ch.pose.local_span(), ch.pose.coverage_span());
          ch.update(s, dt, t);
          for (const glm::vec3& p : ch.tail_points()) REQUIRE(std::isfinite(p.x + p.y + p.z));
        }
      }
    }
    return ch.tail_points();
  };
  const auto clean = run(false);
  const auto with_bad = run(true);
  for (const glm::vec3& p : with_bad) REQUIRE(std::isfinite(p.x + p.y + p.z));
  INFO("end of the run, with against without the bad frames: " << max_distance(with_bad, clean) << " studs");
  CHECK(max_distance(with_bad, clean) < 1e-4f);
}
