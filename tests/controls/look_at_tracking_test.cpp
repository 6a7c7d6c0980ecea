// Look-at tracking per seed 003 TrackLookAngle (rule LA1, LA3, CS7): a tracking speed in
// degrees per second, with or without easing, the same at 30, 60 and 144 Hz; easing back to
// the animated pose when the target is cleared or the control disabled; the eye as a point
// on the end part. References: constant rate (speed * t) and the closed-form critically
// damped ramp response, derived by hand below.
#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "control_helpers.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

// Head-only look-at (the Neck joint), facing -Z; +yaw turns toward -X (side = up x forward).
ControlDesc head_look(const glm::vec3& target, float speed_deg_s, bool easing) {
  ControlDesc d;
  d.name = "Look";
  d.target = target_at(target);
  LookAtSettings la;
  la.chain_root = "Head";
  la.end = "Head";
  la.tracking_speed_deg_per_s = speed_deg_s;
  la.easing = easing;
  la.ease_time = 0.25f;
  d.settings = la;
  return d;
}

float head_yaw(const Character& ch) {
  const auto w = ch.fresh_world();
  const glm::vec3 f = w[static_cast<size_t>(joint_index(ch.rig, "Head"))].rotation * glm::vec3(0, 0, -1);
  return std::atan2(glm::dot(f, glm::vec3(-1, 0, 0)), glm::dot(f, glm::vec3(0, 0, -1)));
}

glm::vec3 target_at_yaw(const Character& ch, float yaw_deg) {
  const glm::vec3 eye = ch.point_on("Head", {0, 0, 0});
  const float r = glm::radians(yaw_deg);
  return eye + 20.0f * glm::vec3(-std::sin(r), 0.0f, -std::cos(r));
}

// Yaw after `seconds` of tracking a fixed target at 60 degrees, at `hz`.
float yaw_after(float seconds, float hz, float speed, bool easing) {
  Character ch;
  auto s = ch.stack({head_look(target_at_yaw(ch, 60.0f), speed, easing)});
  const int frames = static_cast<int>(std::lround(seconds * hz));
  for (int f = 0; f < frames; ++f) {
    reset_pose(ch.pose.local, ch.pose.coverage);
    ch.update(s, 1.0f / hz);
  }
  return head_yaw(ch);
}

}  // namespace

TEST_CASE("look-at tracking speed is per second: constant rate, the same at 30, 60 and 144 Hz", "[look_at_tracking]") {
  // 90 degrees per second toward a target 60 degrees away: 45 degrees after 0.5 s.
  for (const float hz : {30.0f, 60.0f, 144.0f}) {
    INFO(hz << " Hz");
    CHECK(yaw_after(0.5f, hz, 90.0f, false) == Approx(glm::radians(45.0f)).margin(1e-3));
    CHECK(yaw_after(1.0f, hz, 90.0f, false) == Approx(glm::radians(60.0f)).margin(1e-3));
  }
}

TEST_CASE("look-at tracking with easing follows the critically damped ramp, the same at 30, 60 and 144 Hz",
          "[look_at_tracking]") {
  // The goal ramps at w = 90 deg/s; the gaze follows x'' = wn^2 (g - x) - 2 wn x' with
  // wn = 2 / 0.25 from rest. Ramp response (hand-derived, t before the goal stops at 2/3 s):
  //   x(t) = w (t - 2/wn) + (2 w / wn) exp(-wn t) + w t exp(-wn t)
  const float w = glm::radians(90.0f);
  const float wn = 8.0f;
  for (const float t : {1.0f / 3.0f, 0.5f}) {  // whole frames at 30, 60 and 144 Hz
    const float expected = w * (t - 2.0f / wn) + (2.0f * w / wn) * std::exp(-wn * t) + w * t * std::exp(-wn * t);
    for (const float hz : {30.0f, 60.0f, 144.0f}) {
      INFO(hz << " Hz, t = " << t);
      CHECK(yaw_after(t, hz, 90.0f, true) == Approx(expected).margin(1e-3));
    }
  }
  // It eases in: slower than the constant rate at first, never faster than the speed.
  CHECK(yaw_after(0.25f, 60.0f, 90.0f, true) < yaw_after(0.25f, 60.0f, 90.0f, false) - 0.05f);
  for (const float hz : {30.0f, 60.0f, 144.0f}) CHECK(yaw_after(3.0f, hz, 90.0f, true) == Approx(glm::radians(60.0f)).margin(1e-3));
}

TEST_CASE("clearing the target or disabling eases home within |delta| / speed + 5 ease_time", "[look_at_tracking]") {
  // The documented release time (docs/control-stack.md): 60 degrees at 90 deg/s plus five
  // ease times = 0.667 + 1.25 s; with easing off, 0.667 s.
  for (const bool easing : {false, true}) {
    for (const bool disable : {false, true}) {
      for (const float hz : {30.0f, 60.0f, 144.0f}) {
        Character ch;
        auto s = ch.stack({head_look(target_at_yaw(ch, 60.0f), 90.0f, easing)});
        const float dt = 1.0f / hz;
        for (int f = 0; f < static_cast<int>(3.0f * hz); ++f) {
          reset_pose(ch.pose.local, ch.pose.coverage);
          ch.update(s, dt);
        }
        REQUIRE(s.report(0).reached);
        if (disable) s.set_enabled(0, false);
        else s.clear_target(0);
        const float home_time = glm::radians(60.0f) / glm::radians(90.0f) + (easing ? 5.0f * 0.25f : 0.0f);
        const int home_frames = static_cast<int>(std::ceil(home_time * hz + 1e-3f));
        INFO("easing " << easing << " disable " << disable << " " << hz << " Hz");
        for (int f = 1; f <= home_frames; ++f) {
          reset_pose(ch.pose.local, ch.pose.coverage);
          ch.update(s, dt);
          if (f == 1) {
            CHECK(s.report(0).status == ControlStatus::kReleasing);
            CHECK(head_yaw(ch) > glm::radians(55.0f));  // no snap
          }
        }
        // Home: the control has stopped and the animated pose (identity) is left as it is.
        CHECK(s.report(0).status == (disable ? ControlStatus::kDisabled : ControlStatus::kNoTarget));
        CHECK(bitwise_equal(ch.pose.local[static_cast<size_t>(joint_index(ch.rig, "Head"))], Transform::identity()));
      }
    }
  }
}

TEST_CASE("look-at eye_offset: the gaze starts at a point on the end part", "[look_at_tracking]") {
  Character ch;
  const glm::vec3 eye_offset(0.0f, 0.2f, -0.5f);
  const glm::vec3 target(2.0f, 6.5f, -5.0f);
  ControlDesc d = head_look(target, 0.0f, false);
  std::get<LookAtSettings>(d.settings).eye_offset = eye_offset;
  auto s = ch.stack({d});
  ch.update(s);
  const auto w = ch.fresh_world();
  const Transform& head = w[static_cast<size_t>(joint_index(ch.rig, "Head"))];
  const glm::vec3 eye = transform_point(head, eye_offset);
  const glm::vec3 facing = head.rotation * glm::vec3(0, 0, -1);
  const float err = std::acos(std::clamp(glm::dot(facing, glm::normalize(target - eye)), -1.0f, 1.0f));
  CHECK(err < 1e-3f);
  CHECK(s.report(0).angle < 1e-3f);
  // Meaningful: from the head's origin the same facing misses the target by far more.
  const float from_origin = std::acos(std::clamp(glm::dot(facing, glm::normalize(target - head.position)), -1.0f, 1.0f));
  CHECK(from_origin > 0.02f);
}
