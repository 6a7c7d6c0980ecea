// Rig-bound look-at control on R15 (rule LA1-LA3): waist + neck turning the head.
#include <cmath>
#include <cstring>

#include <catch2/catch.hpp>

#include "control_helpers.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

struct Gaze {
  float yaw;    // about the character's +Y from its -Z facing (left positive)
  float pitch;  // elevation
};

// Head facing measured in the character's own frame, from a fresh world evaluation.
Gaze head_gaze(const Character& ch) {
  const auto w = ch.fresh_world();
  const glm::quat head = w[static_cast<size_t>(joint_index(ch.rig, "Head"))].rotation;
  const glm::vec3 f = glm::conjugate(ch.root.rotation) * (head * glm::vec3(0, 0, -1));
  return {std::atan2(-f.x, -f.z), std::asin(std::clamp(f.y, -1.0f, 1.0f))};
}

// Yaw of the target as seen from the head origin, in the character's frame.
float target_yaw(const Character& ch, const glm::vec3& target) {
  const auto w = ch.fresh_world();
  const glm::vec3 eye = w[static_cast<size_t>(joint_index(ch.rig, "Head"))].position;
  const glm::vec3 d = glm::conjugate(ch.root.rotation) * (target - eye);
  return std::atan2(-d.x, -d.z);
}

}  // namespace

TEST_CASE("look-at turns the head onto a target in front", "[look_at_control]") {
  // rule LA1, LA2
  Character ch;
  const glm::vec3 target(-2.0f, 5.0f, -3.0f);
  auto s = ch.stack({look_at_control("Look", target)});
  ch.update(s);
  const auto w = ch.fresh_world();
  const Transform& head = w[static_cast<size_t>(joint_index(ch.rig, "Head"))];
  const glm::vec3 facing = head.rotation * glm::vec3(0, 0, -1);
  CHECK(glm::length(facing - glm::normalize(target - head.position)) < 2e-3f);
  CHECK(s.report(0).reached);
  CHECK(s.report(0).angle < 1e-3f);
  // Both the waist and the neck took part (LA2 spread), nothing else moved.
  CHECK(rotation_angle(ch.pose.local[static_cast<size_t>(joint_index(ch.rig, "UpperTorso"))].rotation) > 0.05f);
  CHECK(rotation_angle(ch.pose.local[static_cast<size_t>(joint_index(ch.rig, "Head"))].rotation) > 0.05f);
  CHECK(s.report(0).changed_joints == 2);
  // No roll: the head's side axis stays horizontal.
  CHECK(std::fabs((head.rotation * glm::vec3(1, 0, 0)).y) < 1e-4f);
}

TEST_CASE("turning the whole character leaves the local head turn unchanged", "[look_at_control]") {
  // rule LA1: limits and result live in root space.
  const glm::vec3 local_target(2.5f, 1.2f, -3.0f);  // relative to the root part
  Character ref;
  auto s_ref = ref.stack({look_at_control("Look", transform_point(ref.root, local_target), 70.0f, 40.0f)});
  ref.update(s_ref);
  const Transform turns[] = {
      {glm::angleAxis(2.5f, glm::vec3(0, 1, 0)), {4.0f, 3.0f, 9.0f}},
      {glm::angleAxis(-1.0f, glm::vec3(0, 1, 0)), {0.0f, 3.0f, 0.0f}},
      {glm::angleAxis(0.4f, glm::normalize(glm::vec3(1, 0.2f, 0.3f))), {-2.0f, 7.0f, 1.0f}},  // tilted too
  };
  for (const Transform& root : turns) {
    Character ch;
    ch.root = root;
    auto s = ch.stack({look_at_control("Look", transform_point(root, local_target), 70.0f, 40.0f)});
    ch.update(s);
    for (size_t j = 0; j < ch.pose.local.size(); ++j) {
      const glm::quat a = ch.pose.local[j].rotation;
      const glm::quat b = ref.pose.local[j].rotation;
      CHECK(std::fabs(std::fabs(glm::dot(a, b)) - 1.0f) < 2e-6f);
    }
    CHECK(s.report(0).clamped == s_ref.report(0).clamped);
  }
}

TEST_CASE("look-at limits hold for targets behind and a circling target never sticks", "[look_at_control]") {
  // rule LA1, LA3: yaw limit 70, pitch limit 40; the target circles the character 10 times.
  const float limit = 70.0f * kDeg;
  const int frames_per_turn = 90;
  Character ch;
  ch.root = Transform{glm::angleAxis(0.8f, glm::vec3(0, 1, 0)), {3.0f, 3.0f, -2.0f}};
  auto s = ch.stack({look_at_control("Look", {}, 70.0f, 40.0f)});
  int tracked = 0;
  int limited = 0;
  for (int f = 0; f <= 10 * frames_per_turn; ++f) {
    const float a = 2.0f * kPi * static_cast<float>(f) / static_cast<float>(frames_per_turn);
    const glm::vec3 target = transform_point(ch.root, {-4.0f * std::sin(a), 1.5f, -4.0f * std::cos(a)});
    s.set_target_position(0, target);
    reset_pose(ch.pose.local, ch.pose.coverage);
    ch.update(s);
    REQUIRE(s.report(0).status == ControlStatus::kSolved);
    const Gaze g = head_gaze(ch);
    CHECK(std::fabs(g.yaw) <= limit + 1e-3f);
    CHECK(std::fabs(g.pitch) <= 40.0f * kDeg + 1e-3f);
    const float want = target_yaw(ch, target);
    if (std::fabs(want) < limit - 2.0f * kDeg) {
      CHECK(g.yaw == Approx(want).margin(2e-3));  // follows again every time the target comes round
      ++tracked;
    } else if (std::fabs(want) > limit + 2.0f * kDeg && std::fabs(want) < kPi - 2.0f * kDeg) {
      CHECK(g.yaw == Approx(want > 0 ? limit : -limit).margin(2e-3));  // pinned on the target's side
      ++limited;
    }
  }
  CHECK(tracked > 300);
  CHECK(limited > 400);
}

TEST_CASE("ten smoothed circles leave no drift", "[look_at_control]") {
  // rule LA3, CS6: after circling and then holding the target, the pose equals a fresh solve.
  Character ch;
  ControlDesc d = look_at_control("Look", {}, 70.0f, 40.0f);
  d.smooth_time = 0.1f;
  auto s = ch.stack({d});
  const glm::vec3 centre(0.0f, 4.5f, 0.0f);
  glm::vec3 target{};
  for (int f = 0; f <= 10 * 120; ++f) {
    const float a = 2.0f * kPi * static_cast<float>(f) / 120.0f;
    target = centre + glm::vec3(-4.0f * std::sin(a), 0.5f, -4.0f * std::cos(a));
    s.set_target_position(0, target);
    reset_pose(ch.pose.local, ch.pose.coverage);
    ch.update(s, 1.0f / 60.0f);
  }
  for (int f = 0; f < 240; ++f) {  // hold still for 4 s = 40 smoothing time constants
    reset_pose(ch.pose.local, ch.pose.coverage);
    ch.update(s, 1.0f / 60.0f);
  }
  Character fresh;
  auto s2 = fresh.stack({look_at_control("Look", target, 70.0f, 40.0f)});
  fresh.update(s2);
  for (size_t j = 0; j < ch.pose.local.size(); ++j) {
    const glm::quat a = ch.pose.local[j].rotation;
    const glm::quat b = fresh.pose.local[j].rotation;
    CHECK(std::fabs(std::fabs(glm::dot(a, b)) - 1.0f) < 1e-6f);
  }
  CHECK(s.report(0).reached == s2.report(0).reached);
}

TEST_CASE("look-at joint weights and setup errors", "[look_at_control]") {
  // rule LA3
  Character ch;
  ControlDesc d = look_at_control("Look", {-3.0f, 4.5f, -3.0f});
  std::get<LookAtSettings>(d.settings).joint_weights = {0.0f, 0.0f};
  auto s = ch.stack({d});
  ch.update(s);
  CHECK(s.report(0).changed_joints == 0);
  for (const Transform& t : ch.pose.local) CHECK(bitwise_equal(t, Transform::identity()));
  CHECK_FALSE(s.report(0).reached);
  CHECK(std::isfinite(s.report(0).angle));

  ControlDesc neck_only = look_at_control("Neck", {-3.0f, 4.5f, -3.0f});
  std::get<LookAtSettings>(neck_only.settings).joint_weights = {0.0f, 1.0f};
  Character c2;
  auto s2 = c2.stack({neck_only});
  c2.update(s2);
  CHECK(s2.report(0).changed_joints == 1);
  CHECK(bitwise_equal(c2.pose.local[static_cast<size_t>(joint_index(c2.rig, "UpperTorso"))], Transform::identity()));
  CHECK(s2.report(0).reached);

  auto fails = [&](ControlDesc bad, const std::string& needle) {
    auto r = ControlStack::build(ch.rig, std::vector<ControlDesc>{bad});
    REQUIRE_FALSE(r.ok());
    INFO(r.message());
    CHECK(r.message().find(needle) != std::string::npos);
  };
  ControlDesc w3 = look_at_control("W", {});
  std::get<LookAtSettings>(w3.settings).joint_weights = {1.0f, 1.0f, 1.0f};
  fails(w3, "joint_weights");
  ControlDesc fz = look_at_control("F", {});
  std::get<LookAtSettings>(fz.settings).forward = glm::vec3(0.0f);
  fails(fz, "forward");
  ControlDesc lim = look_at_control("L", {}, -5.0f);
  fails(lim, "yaw_limit_deg");
  ControlDesc chain = look_at_control("C", {});
  std::get<LookAtSettings>(chain.settings).chain_root = "LeftHand";
  fails(chain, "does not descend");
}
