// Root motion's heading and turn (rules AN9, AN15) on clips built here with hand-derived
// answers: a face-down swim (the facing axis -Z points at the floor), a flip (upside down at its
// top) and a 170 -> 190 degree turn across +-180 at weight 0.5.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "anim_support.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

const glm::vec3 kX(1, 0, 0), kY(0, 1, 0);

float yaw_deg(const glm::quat& q) { return 2.0f * std::atan2(q.y, q.w) / kDeg; }

// A clip on LowerTorso with rotation keys every `step` seconds from `rotation(t)` and
// translation keys from `position(t)` at the same times.
template <class R, class P>
Clip sampled_clip(float length, float step, R rotation, P position) {
  Clip c;
  c.name = "sampled";
  c.duration = length;
  ClipTrack t;
  t.name = "LowerTorso";
  const int n = static_cast<int>(std::lround(length / step));
  for (int k = 0; k <= n; ++k) {
    const float time = static_cast<float>(k) * step;
    t.rotation_times.push_back(time);
    t.rotations.push_back(rotation(time));
    t.translation_times.push_back(time);
    t.translations.push_back(position(time));
  }
  c.tracks.push_back(std::move(t));
  return c;
}

}  // namespace

TEST_CASE("AN15: a face-down swim travels forward and keeps its heading through every loop", "[anim][root_heading]") {
  const Rig rig = r15_rig();
  // Prone (pitched -90 degrees: head forward, face and -Z down), pitching +-10 degrees once a
  // second, heading 30 degrees left, swimming 2 studs/s along that heading: a 2 s loop.
  const glm::quat heading = axis_angle_deg(30.0f, kY);
  const glm::vec3 forward = heading * glm::vec3(0, 0, -1);
  const Clip swim = sampled_clip(
      2.0f, 0.05f,
      [&](float t) { return heading * axis_angle_deg(-90.0f + 10.0f * std::sin(2.0f * kPi * t), kX); },
      [&](float t) { return 2.0f * t * forward; });
  const auto b = native_binding(swim, rig);
  TrackDesc d = track("Swim", swim, *b, TrackPriority::kMovement);
  d.root_motion = true;
  Animator a = build_animator(rig, {d});
  Out out(rig);
  Transform placed = Transform::identity();
  float worst_turn = 0.0f;
  const float dt = 1.0f / 60.0f;
  for (int f = 0; f < 180; ++f) {  // 3 s: 1.5 loops; the pitch is back at -90 at the end
    const AnimatorReport rep = a.update(rig, dt, out.local, out.coverage);
    REQUIRE(rep.ok);
    worst_turn = std::max(worst_turn, std::fabs(yaw_deg(rep.root_delta.rotation)));
    placed = placed * rep.root_delta;
  }
  // Before rule AN15 the heading of -Z flipped by 180 degrees whenever the pitch crossed -90.
  INFO("travel " << placed.position.x << ", " << placed.position.y << ", " << placed.position.z << "; largest turn "
                 << worst_turn << " deg");
  CHECK(worst_turn < 1e-3f);
  const glm::vec3 want = 6.0f * forward;  // 2 studs/s for 3 s
  CHECK(placed.position.x == Approx(want.x).margin(2e-3));
  CHECK(placed.position.z == Approx(want.z).margin(2e-3));
}

TEST_CASE("AN15: a flip keeps its heading over the top", "[anim][root_heading]") {
  const Rig rig = r15_rig();
  // One back flip a second about the body's side axis, heading 20 degrees left, on the spot
  // (the pitch passes exactly 180 degrees, upside down, at t = 0.5).
  const glm::quat heading = axis_angle_deg(20.0f, kY);
  const Clip flip = sampled_clip(
      1.0f, 1.0f / 24.0f, [&](float t) { return heading * axis_angle_deg(360.0f * t, kX); },
      [](float) { return glm::vec3(0.0f); });
  const auto b = native_binding(flip, rig);
  TrackDesc d = track("Flip", flip, *b, TrackPriority::kMovement);
  d.root_motion = true;
  Animator a = build_animator(rig, {d});
  Out out(rig);
  float turned = 0.0f, worst_turn = 0.0f;
  for (int f = 0; f < 96; ++f) {  // 2 flips at 48 updates a second: the exact top is sampled
    const AnimatorReport rep = a.update(rig, 1.0f / 48.0f, out.local, out.coverage);
    REQUIRE(rep.ok);
    const float turn = yaw_deg(rep.root_delta.rotation);
    worst_turn = std::max(worst_turn, std::fabs(turn));
    turned += turn;
  }
  INFO("largest turn " << worst_turn << " deg, total " << turned);
  CHECK(worst_turn < 1e-3f);
  CHECK(std::fabs(turned) < 1e-3f);
}

TEST_CASE("AN15: a 170 -> 190 degree turn at weight 0.5 turns +5 degrees a step", "[anim][root_heading]") {
  const Rig rig = r15_rig();
  // 170 degrees at t = 0 to 190 at t = 1 (slerp: the 20 degrees the short way), once.
  const Clip turn = linear_clip("turn", "LowerTorso", Transform::from_rotation(axis_angle_deg(170.0f, kY)),
                                Transform::from_rotation(axis_angle_deg(190.0f, kY)), 1.0f);
  const auto b = native_binding(turn, rig);
  TrackDesc d = track("Turn", turn, *b, TrackPriority::kMovement, 0.5f);
  d.root_motion = true;
  d.looped = false;
  Animator a = build_animator(rig, {d});
  Out out(rig);
  REQUIRE(a.update(rig, 0.0f, out.local, out.coverage).ok);
  // Two steps of 10 degrees (170 -> 180 -> 190), each weighted 0.5; the second crosses +-180
  // (before rule AN15: -175 there, the 350-degree way round weighted).
  for (int step = 0; step < 2; ++step) {
    const AnimatorReport rep = a.update(rig, 0.5f, out.local, out.coverage);
    REQUIRE(rep.ok);
    INFO("step " << step);
    CHECK(yaw_deg(rep.root_delta.rotation) == Approx(5.0f).margin(1e-3));
  }
  // And across +-180 within a step, thirds of a second: 176.67 -> 183.33 is +6.67, weighted
  // +3.33 (within 0.02 degrees: the sampler's interpolation between the keys is not exactly
  // uniform in angle), the three adding up to half the 20 degrees.
  Animator c = build_animator(rig, {d});
  REQUIRE(c.update(rig, 0.0f, out.local, out.coverage).ok);
  float total = 0.0f;
  for (int step = 0; step < 3; ++step) {
    const AnimatorReport rep = c.update(rig, 1.0f / 3.0f, out.local, out.coverage);
    REQUIRE(rep.ok);
    INFO("step " << step);
    CHECK(yaw_deg(rep.root_delta.rotation) == Approx(10.0f / 3.0f).margin(0.02));
    total += yaw_deg(rep.root_delta.rotation);
  }
  CHECK(total == Approx(10.0f).margin(1e-3));
}
