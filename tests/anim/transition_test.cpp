// Inertial transitions (rule AN8), root motion (AN9) and the single animation's equivalence with
// plain sampling (AN10).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <random>

#include "anim_support.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/retarget/rig_source.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

const glm::vec3 kX(1.0f, 0.0f, 0.0f), kY(0.0f, 1.0f, 0.0f), kZ(0.0f, 0.0f, 1.0f);
const glm::quat kI(1.0f, 0.0f, 0.0f, 0.0f);

// Angle of a * conj(b) from its vector part (accurate near 0, where acos of the dot is not).
float angle_between_deg(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = a * glm::conjugate(b);
  return 2.0f * std::atan2(glm::length(glm::vec3(d.x, d.y, d.z)), std::fabs(d.w)) / kDeg;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

TEST_CASE("an inertial transition is continuous at the switch and settles on the incoming pose (rule AN8)",
          "[anim]") {
  const Rig rig = r15_rig();
  const auto j = static_cast<size_t>(joint_index(rig, "LeftUpperArm"));
  // Outgoing: turns 0 -> 90 degrees about X and moves 0 -> 1 stud along X in 1 s (90 deg/s, 1 stud/s).
  const Clip swing = linear_clip("swing", "LeftUpperArm", Transform::identity(),
                                 Transform{axis_angle_deg(90.0f, kX), kX});
  // Incoming: held at 45 degrees about Z, 0.5 stud up.
  const Clip hold = const_clip("hold", {{"LeftUpperArm", axis_angle_deg(45.0f, kZ), 0.5f * kY}});
  const auto bs = native_binding(swing, rig), bh = native_binding(hold, rig);
  TrackDesc in = track("Hold", hold, *bh, TrackPriority::kMovement);
  in.playing = false;
  Animator a = build_animator(rig, {track("Swing", swing, *bs, TrackPriority::kMovement), in});
  Out out(rig);
  std::array<AnimEvent, 8> ev;
  const float dt = 1.0f / 60.0f;
  for (int f = 0; f < 30; ++f) REQUIRE(a.update(rig, dt, out.local, out.coverage).ok);
  const Transform before = out.local[j];

  const float blend = 0.3f;
  a.play(1, PlayOptions{blend, 1.0f, 1.0f, TransitionKind::kInertial});
  CHECK(a.state(1).weight_current == 1.0f);  // the weight jumps
  CHECK(a.state(0).weight_current == 0.0f);  // the other Movement track stops at once
  CHECK_FALSE(a.state(0).playing);
  const AnimatorReport r = a.update(rig, dt, out.local, out.coverage, ev);
  REQUIRE(r.ok);
  REQUIRE(r.events_written == 2);
  CHECK(ev[0].track == 0);
  CHECK(ev[0].kind == AnimEventKind::kStopped);
  CHECK(ev[1].kind == AnimEventKind::kEnded);
  // Continuity: the switch frame is the previous output moved by one frame (dt) along the decay
  // curve, which starts at the offset x0 with the outgoing velocity v0 and Bollo's acceleration
  // a0 = -(8 v0 t1 + 20 x0) / t1^2: within |v0| dt + |a0| dt^2 / 2 of it (bounds computed here
  // with v0 = 90 deg/s, 1 stud/s). A plain switch would jump by about 60 degrees.
  const float x0_deg = angle_between_deg(before.rotation, axis_angle_deg(45.0f, kZ));
  CHECK(x0_deg > 50.0f);
  const float a0_deg = (8.0f * 90.0f * blend + 20.0f * x0_deg) / (blend * blend);
  CHECK(angle_between_deg(before.rotation, out.local[j].rotation) <= 90.0f * dt + 0.5f * a0_deg * dt * dt + 1e-3f);
  const float x0_pos = glm::length(before.position - 0.5f * kY);
  const float a0_pos = (8.0f * 1.0f * blend + 20.0f * x0_pos) / (blend * blend);
  CHECK(glm::length(out.local[j].position - before.position) <= 1.0f * dt + 0.5f * a0_pos * dt * dt + 1e-5f);
  // The next frame moves on smoothly (no second jump).
  Transform switch_frame = out.local[j];
  REQUIRE(a.update(rig, dt, out.local, out.coverage).ok);
  CHECK(angle_between_deg(switch_frame.rotation, out.local[j].rotation) <= 90.0f * dt + a0_deg * dt * dt);

  // Halfway the offset has shrunk; after the blend time the output is the incoming pose alone.
  float last_gap = angle_between_deg(out.local[j].rotation, axis_angle_deg(45.0f, kZ));
  const int frames = static_cast<int>(std::ceil(blend / dt)) + 1;
  for (int f = 0; f < frames; ++f) {
    REQUIRE(a.update(rig, dt, out.local, out.coverage).ok);
    const float gap = angle_between_deg(out.local[j].rotation, axis_angle_deg(45.0f, kZ));
    CHECK(gap <= last_gap + 1e-3f);  // no overshoot away from the incoming pose
    last_gap = gap;
  }
  Out incoming(rig);
  AnimationContext ctx = make_animation_context(*bh);
  REQUIRE(sample_animation(hold, *bh, rig, a.state(1).time_position, WrapMode::kLoop, ctx, incoming.local,
                           incoming.coverage));
  CHECK(same_bits(out.local, incoming.local));
  CHECK(same_bits(out.coverage, incoming.coverage));
}

TEST_CASE("root motion: travel and turn become the report's delta and the pose stays in place (rule AN9)",
          "[anim]") {
  const Rig rig = r15_rig();
  const int root = joint_index(rig, "LowerTorso");
  const auto r = static_cast<size_t>(root);
  // A 2-second loop walking 4 studs along -Z (forward), bobbing 0.1 up.
  Clip walk = linear_clip("walk", "LowerTorso", Transform::identity(), Transform::from_position({0.0f, 0.0f, -4.0f}), 2.0f);
  walk.tracks[0].translation_times = {0.0f, 1.0f, 2.0f};
  walk.tracks[0].translations = {glm::vec3(0.0f), glm::vec3(0.0f, 0.1f, -2.0f), glm::vec3(0.0f, 0.0f, -4.0f)};
  // A 2-second loop turning 90 degrees left (about +Y) on the spot.
  const Clip turn = linear_clip("turn", "LowerTorso", Transform::identity(),
                                Transform::from_rotation(axis_angle_deg(90.0f, kY)), 2.0f);
  const auto bw = native_binding(walk, rig), bt = native_binding(turn, rig);
  Out out(rig);
  const float dt = 1.0f / 60.0f;

  SECTION("straight line, across a loop wrap") {
    TrackDesc d = track("Walk", walk, *bw, TrackPriority::kMovement);
    d.root_motion = true;
    Animator a = build_animator(rig, {d});
    REQUIRE(a.root_motion_joint() == root);
    Transform placed = Transform::identity();
    for (int f = 0; f < 180; ++f) {  // 3 s = 1.5 loops
      const AnimatorReport rep = a.update(rig, dt, out.local, out.coverage);
      REQUIRE(rep.ok);
      placed = placed * rep.root_delta;
      // In place: no horizontal travel left in the pose, the bob kept.
      CHECK(std::fabs(out.local[r].position.x) < 1e-5f);
      CHECK(std::fabs(out.local[r].position.z) < 1e-5f);
    }
    CHECK(placed.position.z == Approx(-6.0f).margin(1e-3));
    CHECK(placed.position.x == Approx(0.0f).margin(1e-4));
    CHECK(placed.position.y == 0.0f);
    CHECK(out.local[r].position.y == Approx(0.1f).margin(1e-4));  // at 1 s into the loop: the bob at its top
  }
  SECTION("turning, across a loop wrap") {
    TrackDesc d = track("Turn", turn, *bt, TrackPriority::kMovement);
    d.root_motion = true;
    Animator a = build_animator(rig, {d});
    float yaw = 0.0f;
    for (int f = 0; f < 180; ++f) {
      const AnimatorReport rep = a.update(rig, dt, out.local, out.coverage);
      REQUIRE(rep.ok);
      yaw += 2.0f * std::atan2(rep.root_delta.rotation.y, rep.root_delta.rotation.w);
      CHECK(angle_between_deg(out.local[r].rotation, kI) < 1e-3f);  // the pose keeps its start yaw
    }
    CHECK(yaw / kDeg == Approx(135.0f).margin(0.01));
  }
  SECTION("the delta is blended by the root joint's effective weight") {
    TrackDesc d = track("Walk", walk, *bw, TrackPriority::kMovement, 0.5f);
    d.root_motion = true;
    Animator a = build_animator(rig, {d});
    float z = 0.0f;
    for (int f = 0; f < 60; ++f) z += a.update(rig, dt, out.local, out.coverage).root_delta.position.z;
    CHECK(z == Approx(-1.0f).margin(1e-3));  // half of 2 studs in 1 s
  }
}

TEST_CASE("one looped Core track at weight 1 is exactly the sampled clip (rule AN10)", "[anim]") {
  const Rig rig = r15_rig();
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const auto clip_on = [&](const std::vector<std::string>& names, const std::vector<Transform>& rest) {
    Clip c;
    c.name = "swing";
    c.duration = 1.7f;
    for (size_t k = 0; k < names.size(); ++k) {
      ClipTrack t;
      t.name = names[k];
      for (int key = 0; key <= 10; ++key) {
        t.rotation_times.push_back(0.17f * static_cast<float>(key));
        t.rotations.push_back(rest[k].rotation * glm::angleAxis(0.7f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), 1.0f))));
      }
      if (k == 0) {
        t.translation_times = {0.0f, 0.85f, 1.7f};
        t.translations = {rest[k].position, rest[k].position + glm::vec3(0.3f, 0.1f, -1.0f), rest[k].position};
      }
      c.tracks.push_back(std::move(t));
    }
    return c;
  };
  const auto check_equivalence = [&](const Clip& clip, const AnimationBinding& binding) {
    TrackDesc d = track("animation", clip, binding, TrackPriority::kCore);
    d.time = 0.3f;
    Animator a = build_animator(rig, {d});
    AnimationContext ctx = make_animation_context(binding);
    Out got(rig), want(rig);
    float t = 0.3f;
    const float dts[] = {1.0f / 60.0f, 1.0f / 30.0f, 0.0f, 0.4f, 1.0f / 144.0f};
    for (int f = 0; f < 200; ++f) {
      const float dt = dts[f % 5];
      if (dt > 0.0f) t = wrap_clip_time(t + 1.0f * dt, clip.duration, WrapMode::kLoop);
      REQUIRE(a.update(rig, dt, got.local, got.coverage).ok);
      REQUIRE(sample_animation(clip, binding, rig, t, WrapMode::kLoop, ctx, want.local, want.coverage));
      INFO("frame " << f);
      REQUIRE(std::memcmp(&t, &a.state(0).time_position, sizeof(float)) == 0);
      REQUIRE(same_bits(got.local, want.local));
      REQUIRE(same_bits(got.coverage, want.coverage));
    }
  };
  SECTION("native") {
    std::vector<std::string> names;
    for (int k = 0; k < rig.joint_count(); ++k) names.push_back(rig.child_name(k));
    const Clip clip = clip_on(names, std::vector<Transform>(names.size(), Transform::identity()));
    check_equivalence(clip, *native_binding(clip, rig));
  }
  SECTION("retargeted") {
    const SourceSkeleton source = source_skeleton_from_rig(rig);
    const Clip clip = clip_on(source.joint_names, source.rest_local);
    auto cb = build_clip_binding(clip, source);
    REQUIRE(cb.ok());
    auto profile = build_auto_profile(source, rig);
    REQUIRE(profile.ok());
    auto rb = build_retarget_binding(source, rig, profile.value());
    REQUIRE(rb.ok());
    AnimationBinding binding;
    binding.mode = AnimationMode::kRetarget;
    binding.clip_binding = std::move(cb).value();
    binding.retarget = std::make_shared<const RetargetBinding>(std::move(rb).value());
    check_equivalence(clip, binding);
  }
}
