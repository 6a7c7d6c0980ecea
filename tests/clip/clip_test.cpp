// Clip binding and sampling (rule P2, P3). Reference values are hand-derived rotations
// (angle-axis about a coordinate axis) and hand-chosen keys, never sampler output.
#include <catch2/catch.hpp>

#include <cstring>
#include <cmath>
#include <limits>
#include <vector>

#include <glm/gtc/constants.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/rig/source_skeleton.hpp"
#include "asterune/rig/pose.hpp"
#include "asterune/rig/rig.hpp"
#include "support/alloc_counter.hpp"
#include "support/math.hpp"

using namespace asterune;

namespace {

using test::kPi;

glm::quat about(const glm::vec3& axis, float degrees) { return glm::angleAxis(glm::radians(degrees), axis); }

// Angle between two rotations (radians), independent of quaternion sign.
// Uses atan2 of the relative rotation's vector and scalar parts (precise near 0).
float angle_between(const glm::quat& a, const glm::quat& b) {
  const glm::dquat r = glm::conjugate(glm::dquat(a)) * glm::dquat(b);
  const double v = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z);
  return static_cast<float>(2.0 * std::atan2(v, std::fabs(r.w)));
}

// A small rig: Root -> Torso -> {LeftArm -> Hand, RightArm -> Hand}. The two hands share the
// part name "Hand" so a plain "Hand" is ambiguous (rule R6).
Rig make_test_rig() {
  RigDesc desc;
  desc.name = "test";
  for (const char* id : {"Root", "Torso", "LeftArm", "RightArm", "LeftHandPart", "RightHandPart"}) {
    PartDesc p;
    p.id = id;
    p.name = id;
    p.size = glm::vec3(1.0f);
    desc.parts.push_back(p);
  }
  desc.parts[4].name = "Hand";
  desc.parts[5].name = "Hand";
  auto joint = [&](const char* name, const char* p0, const char* p1, glm::vec3 c0) {
    JointDesc j;
    j.name = name;
    j.part0 = p0;
    j.part1 = p1;
    j.c0 = Transform::from_position(c0);
    desc.joints.push_back(j);
  };
  joint("RootJoint", "Root", "Torso", {0, 1, 0});
  joint("LeftShoulder", "Torso", "LeftArm", {-1, 0.5f, 0});
  joint("RightShoulder", "Torso", "RightArm", {1, 0.5f, 0});
  joint("LeftWrist", "LeftArm", "LeftHandPart", {0, -1, 0});
  joint("RightWrist", "RightArm", "RightHandPart", {0, -1, 0});
  desc.root = "Root";
  Result<Rig> rig = build_rig(desc);
  REQUIRE(rig.ok());
  return std::move(rig).value();
}

int joint_named(const Rig& rig, const char* name) {
  const JointLookup l = rig.find_joint(name);
  REQUIRE(l.found());
  return l.index;
}

ClipTrack rotation_track(const char* name, std::vector<float> times, std::vector<glm::quat> keys) {
  ClipTrack t;
  t.name = name;
  t.rotation_times = std::move(times);
  t.rotations = std::move(keys);
  return t;
}

}  // namespace

TEST_CASE("build_clip_binding to a rig resolves plain and parent-qualified names", "[clip][binding]") {
  // rule P2, R6
  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "wave";
  clip.duration = 1.0f;
  clip.tracks.push_back(rotation_track("LeftArm", {0.0f}, {about({0, 0, 1}, 10)}));
  clip.tracks.push_back(rotation_track("RightArm/Hand", {0.0f}, {about({0, 0, 1}, 20)}));
  clip.tracks.push_back(rotation_track("Tail", {0.0f}, {about({0, 0, 1}, 30)}));

  Result<ClipBinding> b = build_clip_binding(clip, rig);
  REQUIRE(b.ok());
  const ClipBinding& binding = b.value();
  CHECK(binding.joint_count() == rig.joint_count());
  CHECK(binding.track_count() == 3);
  CHECK(binding.track_of(joint_named(rig, "LeftArm")) == 0);
  CHECK(binding.track_of(joint_named(rig, "RightArm/Hand")) == 1);
  CHECK(binding.track_of(joint_named(rig, "LeftArm/Hand")) == -1);
  CHECK(binding.track_of(joint_named(rig, "Torso")) == -1);
  CHECK(binding.bound_count() == 2);
  REQUIRE(binding.unmatched_tracks().size() == 1);
  CHECK(binding.unmatched_tracks()[0] == "Tail");
  for (const Transform& d : binding.defaults()) {
    CHECK(d.position == glm::vec3(0.0f));
    CHECK(d.rotation == glm::quat(1, 0, 0, 0));
  }
}

TEST_CASE("build_clip_binding refuses an ambiguous plain name and names the qualified ones", "[clip][binding]") {
  // rule R6
  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "grab";
  clip.tracks.push_back(rotation_track("Hand", {0.0f}, {glm::quat(1, 0, 0, 0)}));
  Result<ClipBinding> b = build_clip_binding(clip, rig);
  REQUIRE_FALSE(b.ok());
  CHECK_THAT(b.message(), Catch::Contains("grab"));
  CHECK_THAT(b.message(), Catch::Contains("'Hand'"));
  CHECK_THAT(b.message(), Catch::Contains("LeftArm/Hand"));
  CHECK_THAT(b.message(), Catch::Contains("RightArm/Hand"));
  CHECK_FALSE(clip_binds_natively(clip, rig));
}

TEST_CASE("build_clip_binding refuses two tracks on one joint", "[clip][binding]") {
  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "double";
  clip.tracks.push_back(rotation_track("LeftArm", {0.0f}, {glm::quat(1, 0, 0, 0)}));
  clip.tracks.push_back(rotation_track("Torso/LeftArm", {0.0f}, {glm::quat(1, 0, 0, 0)}));
  Result<ClipBinding> b = build_clip_binding(clip, rig);
  REQUIRE_FALSE(b.ok());
  CHECK_THAT(b.message(), Catch::Contains("Torso/LeftArm"));
  CHECK_THAT(b.message(), Catch::Contains("already driven"));
  CHECK_FALSE(clip_binds_natively(clip, rig));
}

TEST_CASE("build_clip_binding validates keys and names the track", "[clip][binding]") {
  const Rig rig = make_test_rig();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto expect_fail = [&](const ClipTrack& track, const char* reason) {
    Clip clip;
    clip.name = "bad";
    clip.duration = 1.0f;
    clip.tracks.push_back(track);
    Result<ClipBinding> b = build_clip_binding(clip, rig);
    REQUIRE_FALSE(b.ok());
    CHECK_THAT(b.message(), Catch::Contains("LeftArm"));
    CHECK_THAT(b.message(), Catch::Contains(reason));
  };
  expect_fail(rotation_track("LeftArm", {0.0f, 1.0f}, {glm::quat(1, 0, 0, 0)}), "2 times but 1 values");
  expect_fail(rotation_track("LeftArm", {0.5f, 0.25f}, {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)}), "backwards");
  expect_fail(rotation_track("LeftArm", {nan}, {glm::quat(1, 0, 0, 0)}), "nonfinite time");
  expect_fail(rotation_track("LeftArm", {0.0f}, {glm::quat(nan, 0, 0, 0)}), "nonfinite");
  expect_fail(rotation_track("LeftArm", {0.0f}, {glm::quat(2, 0, 0, 0)}), "not unit length");
  ClipTrack t;
  t.name = "LeftArm";
  t.translation_times = {0.0f};
  t.translations = {glm::vec3(std::numeric_limits<float>::infinity(), 0, 0)};
  expect_fail(t, "translation key 0 is nonfinite");
}

TEST_CASE("build_clip_binding_from_tracks checks its mapping", "[clip][binding]") {
  Clip clip;
  clip.name = "c";
  clip.tracks.push_back(rotation_track("a", {0.0f}, {glm::quat(1, 0, 0, 0)}));
  CHECK_FALSE(build_clip_binding_from_tracks(clip, {0, 1}, {Transform{}, Transform{}}).ok());   // track 1 missing
  CHECK_FALSE(build_clip_binding_from_tracks(clip, {0, 0}, {Transform{}, Transform{}}).ok());   // track used twice
  CHECK_FALSE(build_clip_binding_from_tracks(clip, {0, -1}, {Transform{}}).ok());               // size mismatch
  Transform bad;
  bad.position.x = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(build_clip_binding_from_tracks(clip, {-1}, {bad}).ok());
  Result<ClipBinding> ok = build_clip_binding_from_tracks(clip, {-1, 0}, {Transform{}, Transform{}});
  REQUIRE(ok.ok());
  CHECK(ok.value().track_of(1) == 0);
}

TEST_CASE("sample_clip slerps rotations and lerps translations between keys", "[clip][sample]") {
  // rule P2
  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "swing";
  clip.duration = 2.0f;
  clip.tracks.push_back(rotation_track("LeftArm", {0.0f, 1.0f, 2.0f},
                                       {about({0, 1, 0}, 0), about({0, 1, 0}, 90), about({0, 1, 0}, 0)}));
  ClipTrack move;
  move.name = "Torso";
  move.translation_times = {0.0f, 2.0f};
  move.translations = {glm::vec3(0, 0, 0), glm::vec3(4, -2, 8)};
  clip.tracks.push_back(move);
  Result<ClipBinding> b = build_clip_binding(clip, rig);
  REQUIRE(b.ok());
  Pose pose = make_pose(rig);
  const int arm = joint_named(rig, "LeftArm");
  const int torso = joint_named(rig, "Torso");
  const int hand = joint_named(rig, "LeftArm/Hand");

  sample_clip(clip, b.value(), 0.25f, WrapMode::kClamp, pose);
  CHECK(angle_between(pose.local[static_cast<size_t>(arm)].rotation, about({0, 1, 0}, 22.5f)) < 1e-4f);
  CHECK(pose.local[static_cast<size_t>(arm)].position == glm::vec3(0.0f));  // default channel
  CHECK(pose.local[static_cast<size_t>(torso)].position.x == Approx(0.5f));
  CHECK(pose.local[static_cast<size_t>(torso)].position.y == Approx(-0.25f));
  CHECK(pose.local[static_cast<size_t>(torso)].position.z == Approx(1.0f));
  CHECK(pose.local[static_cast<size_t>(torso)].rotation == glm::quat(1, 0, 0, 0));  // default channel
  CHECK(pose.coverage[static_cast<size_t>(arm)] == 1.0f);
  CHECK(pose.coverage[static_cast<size_t>(torso)] == 1.0f);
  CHECK(pose.coverage[static_cast<size_t>(hand)] == 0.0f);

  sample_clip(clip, b.value(), 1.5f, WrapMode::kClamp, pose);
  CHECK(angle_between(pose.local[static_cast<size_t>(arm)].rotation, about({0, 1, 0}, 45.0f)) < 1e-4f);
  // Exactly at a key: that key.
  sample_clip(clip, b.value(), 1.0f, WrapMode::kClamp, pose);
  CHECK(angle_between(pose.local[static_cast<size_t>(arm)].rotation, about({0, 1, 0}, 90.0f)) < 1e-5f);
}

TEST_CASE("sample_clip takes the shortest arc across a quaternion sign flip", "[clip][sample]") {
  // Keys at 170 and 190 degrees about Z (the second stored with the opposite sign, as an Euler
  // flip produces): the midpoint must be 180 degrees, not 0 (the long way round).
  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "flip";
  clip.duration = 1.0f;
  clip.tracks.push_back(rotation_track("LeftArm", {0.0f, 1.0f}, {about({0, 0, 1}, 170), -about({0, 0, 1}, 190)}));
  Result<ClipBinding> b = build_clip_binding(clip, rig);
  REQUIRE(b.ok());
  Pose pose = make_pose(rig);
  sample_clip(clip, b.value(), 0.5f, WrapMode::kClamp, pose);
  const glm::vec3 x = pose.local[static_cast<size_t>(joint_named(rig, "LeftArm"))].rotation * glm::vec3(1, 0, 0);
  CHECK(x.x == Approx(-1.0f).margin(1e-5));
  CHECK(x.y == Approx(0.0f).margin(1e-5));
}

TEST_CASE("wrap modes: loop, clamp, nonfinite time", "[clip][sample]") {
  CHECK(wrap_clip_time(0.25f, 2.0f, WrapMode::kLoop) == Approx(0.25f));
  CHECK(wrap_clip_time(2.25f, 2.0f, WrapMode::kLoop) == Approx(0.25f));
  CHECK(wrap_clip_time(-0.25f, 2.0f, WrapMode::kLoop) == Approx(1.75f));
  CHECK(wrap_clip_time(2.0f, 2.0f, WrapMode::kLoop) == 0.0f);
  CHECK(wrap_clip_time(2.25f, 2.0f, WrapMode::kClamp) == 2.0f);
  CHECK(wrap_clip_time(-1.0f, 2.0f, WrapMode::kClamp) == 0.0f);
  for (WrapMode w : {WrapMode::kLoop, WrapMode::kClamp}) {
    CHECK(wrap_clip_time(std::numeric_limits<float>::quiet_NaN(), 2.0f, w) == 0.0f);
    CHECK(wrap_clip_time(std::numeric_limits<float>::infinity(), 2.0f, w) == 0.0f);
    CHECK(wrap_clip_time(-std::numeric_limits<float>::infinity(), 2.0f, w) == 0.0f);
    CHECK(wrap_clip_time(1.0f, 0.0f, w) == 0.0f);
    CHECK(wrap_clip_time(1.0f, -3.0f, w) == 0.0f);
    CHECK(wrap_clip_time(1.0f, std::numeric_limits<float>::quiet_NaN(), w) == 0.0f);
  }

  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "spin";
  clip.duration = 1.0f;
  clip.tracks.push_back(rotation_track("LeftArm", {0.0f, 1.0f}, {about({1, 0, 0}, 0), about({1, 0, 0}, 80)}));
  Result<ClipBinding> b = build_clip_binding(clip, rig);
  REQUIRE(b.ok());
  Pose pose = make_pose(rig);
  const size_t arm = static_cast<size_t>(joint_named(rig, "LeftArm"));
  sample_clip(clip, b.value(), 3.25f, WrapMode::kLoop, pose);
  CHECK(angle_between(pose.local[arm].rotation, about({1, 0, 0}, 20)) < 1e-4f);
  sample_clip(clip, b.value(), 3.25f, WrapMode::kClamp, pose);
  CHECK(angle_between(pose.local[arm].rotation, about({1, 0, 0}, 80)) < 1e-5f);
  sample_clip(clip, b.value(), std::numeric_limits<float>::quiet_NaN(), WrapMode::kLoop, pose);
  CHECK(angle_between(pose.local[arm].rotation, about({1, 0, 0}, 0)) < 1e-5f);
  CHECK(is_finite(pose.local[arm]));
}

TEST_CASE("keys outside a track's range hold; step interpolation holds the earlier key", "[clip][sample]") {
  ClipTrack t = rotation_track("j", {0.5f, 1.5f}, {about({0, 1, 0}, 10), about({0, 1, 0}, 50)});
  t.translation_times = {0.5f, 1.5f};
  t.translations = {glm::vec3(1, 0, 0), glm::vec3(3, 0, 0)};
  const Transform fallback = Transform::from_position({9, 9, 9});
  CHECK(angle_between(sample_track(t, 0.0f, fallback).rotation, about({0, 1, 0}, 10)) < 1e-5f);
  CHECK(angle_between(sample_track(t, 2.0f, fallback).rotation, about({0, 1, 0}, 50)) < 1e-5f);
  CHECK(sample_track(t, 1.0f, fallback).position.x == Approx(2.0f));
  t.rotation_interpolation = Interpolation::kStep;
  t.translation_interpolation = Interpolation::kStep;
  CHECK(angle_between(sample_track(t, 1.4f, fallback).rotation, about({0, 1, 0}, 10)) < 1e-5f);
  CHECK(sample_track(t, 1.4f, fallback).position.x == 1.0f);
  CHECK(sample_track(t, 1.5f, fallback).position.x == 3.0f);
  ClipTrack empty;
  const Transform got = sample_track(empty, 1.0f, fallback);
  CHECK(got.position == fallback.position);
}

TEST_CASE("translations keyed with the rotations, or at other times, lerp between their own keys", "[clip][sample]") {
  // rule P2. Three tracks share the rotation keys 0, 1, 2 (s); their translation keys are the
  // same times, the same count at other times, and a different count. Expected positions are
  // hand lerps of each track's own keys, before, between, on and after the keys, and in step
  // mode.
  const std::vector<float> rot_times{0.0f, 1.0f, 2.0f};
  const std::vector<glm::quat> rots{about({0, 1, 0}, 0), about({0, 1, 0}, 30), about({0, 1, 0}, 60)};
  ClipTrack same = rotation_track("a", rot_times, rots);
  same.translation_times = {0.0f, 1.0f, 2.0f};
  same.translations = {glm::vec3(0, 0, 0), glm::vec3(2, 0, 0), glm::vec3(2, 4, 0)};
  ClipTrack shifted = rotation_track("b", rot_times, rots);
  shifted.translation_times = {0.0f, 1.5f, 2.0f};  // same count, middle key elsewhere
  shifted.translations = same.translations;
  ClipTrack fewer = rotation_track("c", rot_times, rots);
  fewer.translation_times = {0.0f, 2.0f};
  fewer.translations = {glm::vec3(0, 0, 0), glm::vec3(2, 4, 0)};
  const Transform fallback = Transform::from_position({9, 9, 9});
  struct Case {
    float t;
    glm::vec3 same, shifted, fewer;
  };
  for (const Case& c : {Case{-1.0f, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, Case{0.5f, {1, 0, 0}, {2.0f / 3.0f, 0, 0}, {0.5f, 1, 0}},
                        Case{1.0f, {2, 0, 0}, {4.0f / 3.0f, 0, 0}, {1, 2, 0}}, Case{1.25f, {2, 1, 0}, {5.0f / 3.0f, 0, 0}, {1.25f, 2.5f, 0}},
                        Case{1.75f, {2, 3, 0}, {2, 2, 0}, {1.75f, 3.5f, 0}}, Case{3.0f, {2, 4, 0}, {2, 4, 0}, {2, 4, 0}}}) {
    INFO("t " << c.t);
    CHECK(glm::length(sample_track(same, c.t, fallback).position - c.same) < 1e-6f);
    CHECK(glm::length(sample_track(shifted, c.t, fallback).position - c.shifted) < 1e-6f);
    CHECK(glm::length(sample_track(fewer, c.t, fallback).position - c.fewer) < 1e-6f);
  }
  same.rotation_interpolation = same.translation_interpolation = Interpolation::kStep;
  CHECK(sample_track(same, 1.9f, fallback).position == glm::vec3(2, 0, 0));
  // Rotation in step mode, translation linear: not the same segment rule, still its own lerp.
  same.translation_interpolation = Interpolation::kLinear;
  CHECK(glm::length(sample_track(same, 1.5f, fallback).position - glm::vec3(2, 2, 0)) < 1e-6f);
}

TEST_CASE("empty tracks and missing joints sample the default with coverage 0", "[clip][sample]") {
  // rule P1/P2 coverage
  SourceSkeleton sk;
  sk.name = "chain";
  sk.joint_names = {"root", "mid", "tip"};
  sk.parents = {-1, 0, 1};
  sk.rest_local = {Transform::from_position({0, 1, 0}), Transform::from_position({0, 2, 0}),
                   Transform::from_position({0, 3, 0})};
  sk.end_sites.assign(3, glm::vec3(0.0f));
  Clip clip;
  clip.name = "c";
  clip.duration = 1.0f;
  clip.tracks.push_back(rotation_track("mid", {0.0f}, {about({0, 0, 1}, 90)}));
  ClipTrack empty;
  empty.name = "tip";
  clip.tracks.push_back(empty);
  clip.tracks.push_back(rotation_track("nope", {0.0f}, {glm::quat(1, 0, 0, 0)}));
  Result<ClipBinding> b = build_clip_binding(clip, sk);
  REQUIRE(b.ok());
  REQUIRE(b.value().unmatched_tracks().size() == 1);
  CHECK(b.value().unmatched_tracks()[0] == "nope");
  std::vector<Transform> local(3);
  std::vector<float> coverage(3, 0.5f);
  sample_clip(clip, b.value(), 0.3f, WrapMode::kLoop, local, coverage);
  CHECK(coverage == std::vector<float>{0.0f, 1.0f, 0.0f});
  CHECK(local[0].position == glm::vec3(0, 1, 0));
  CHECK(local[1].position == glm::vec3(0, 2, 0));  // rotation-only track keeps the rest offset
  CHECK(angle_between(local[1].rotation, about({0, 0, 1}, 90)) < 1e-5f);
  CHECK(local[2].position == glm::vec3(0, 3, 0));

  // Short output spans (rule RG4): nothing is written, nothing out of bounds.
  std::vector<Transform> small(2);
  std::vector<float> small_cov(1, 0.5f);
  CHECK_FALSE(sample_clip(clip, b.value(), 0.3f, WrapMode::kLoop, small, small_cov));
  CHECK(small_cov[0] == 0.5f);                    // untouched
  CHECK(small[1].position == glm::vec3(0.0f));  // untouched

  // Two tracks naming one source joint are refused.
  clip.tracks.push_back(rotation_track("mid", {0.0f}, {glm::quat(1, 0, 0, 0)}));
  CHECK_FALSE(build_clip_binding(clip, sk).ok());
}

TEST_CASE("clip_binds_natively: every track resolves to a distinct joint", "[clip][binding]") {
  // rule P3
  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "native";
  clip.tracks.push_back(rotation_track("LeftArm", {0.0f}, {glm::quat(1, 0, 0, 0)}));
  clip.tracks.push_back(rotation_track("LeftArm/Hand", {0.0f}, {glm::quat(1, 0, 0, 0)}));
  CHECK(clip_binds_natively(clip, rig));
  clip.tracks.push_back(rotation_track("Hips", {0.0f}, {glm::quat(1, 0, 0, 0)}));
  CHECK_FALSE(clip_binds_natively(clip, rig));
  CHECK_FALSE(clip_binds_natively(Clip{}, rig));
}

TEST_CASE("sample_clip allocates nothing and never produces nonfinite output", "[clip][sample][alloc]") {
  // rule RG1 (per-frame path)
  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "busy";
  clip.duration = 1.0f;
  std::vector<float> times;
  std::vector<glm::quat> keys;
  for (int k = 0; k <= 30; ++k) {
    times.push_back(static_cast<float>(k) / 30.0f);
    keys.push_back(about(glm::normalize(glm::vec3(1, 2, 3)), static_cast<float>(k) * 37.0f));
  }
  clip.tracks.push_back(rotation_track("LeftArm", times, keys));
  clip.tracks.push_back(rotation_track("RightArm/Hand", times, keys));
  Result<ClipBinding> b = build_clip_binding(clip, rig);
  REQUIRE(b.ok());
  Pose pose = make_pose(rig);
  const float samples[] = {0.0f, 0.013f, 0.5f, 0.999f, 1.0f, 7.3f, -2.2f,
                           std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(), 1e30f, -1e30f};
  bool finite = true;
  {
    asterune::test::AllocationScope scope;
    for (float t : samples) {
      for (WrapMode w : {WrapMode::kLoop, WrapMode::kClamp}) {
        sample_clip(clip, b.value(), t, w, pose.local_span(), pose.coverage_span());
        for (const Transform& x : pose.local) finite = finite && is_finite(x);
      }
    }
    REQUIRE(scope.count() == 0);
  }
  CHECK(finite);
}

TEST_CASE("a playback cursor gives the same bits as sampling without one, for any time sequence",
          "[clip][sample][cursor]") {
  // The cursor only remembers where each channel's segment was; it must never change a result.
  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "cursor";
  clip.duration = 2.0f;
  // Uneven key times with a repeated time (a step in the curve) and different channel timings.
  ClipTrack arm = rotation_track("LeftArm", {0.0f, 0.1f, 0.1f, 0.35f, 0.9f, 1.0f, 1.6f, 2.0f},
                                 {about({0, 1, 0}, 0), about({0, 1, 0}, 5), about({1, 0, 0}, 30), about({1, 0, 0}, 38),
                                  about({0, 0, 1}, 120), about({0, 0, 1}, 125), about({0, 1, 0}, 10), about({0, 1, 0}, 0)});
  arm.translation_times = {0.5f, 1.5f};
  arm.translations = {glm::vec3(0, 0, 0), glm::vec3(1, 2, 3)};
  clip.tracks.push_back(arm);
  ClipTrack torso = rotation_track("Torso", {0.0f, 1.0f, 2.0f}, {about({0, 1, 0}, 0), about({0, 1, 0}, 15), about({0, 1, 0}, 0)});
  torso.rotation_interpolation = Interpolation::kStep;
  clip.tracks.push_back(torso);
  Result<ClipBinding> b = build_clip_binding(clip, rig);
  REQUIRE(b.ok());
  const size_t n = static_cast<size_t>(rig.joint_count());
  ClipCursor cursor = make_clip_cursor(b.value());
  std::vector<Transform> with(n), without(n);
  std::vector<float> cov_with(n), cov_without(n);
  // Forward at 60 fps over several loops, then jumps, reversals, exact key times, NaN.
  std::vector<float> times;
  for (int f = 0; f < 300; ++f) times.push_back(static_cast<float>(f) / 60.0f);
  for (float t : {1.7f, 0.2f, 0.1f, 0.1f, 1.0f, 0.0f, -0.3f, 5.55f, 0.35f, 0.34f, 2.0f,
                  std::numeric_limits<float>::quiet_NaN(), 0.95f})
    times.push_back(t);
  for (int f = 0; f < 120; ++f) times.push_back(2.0f - static_cast<float>(f) / 60.0f);  // backwards
  for (WrapMode wrap : {WrapMode::kLoop, WrapMode::kClamp}) {
    for (float t : times) {
      REQUIRE(sample_clip(clip, b.value(), t, wrap, cursor, with, cov_with));
      sample_clip(clip, b.value(), t, wrap, without, cov_without);
      INFO("time " << t);
      CHECK(std::memcmp(with.data(), without.data(), n * sizeof(Transform)) == 0);
      CHECK(cov_with == cov_without);
    }
  }
  // A cursor made for another binding is refused and nothing is written.
  ClipCursor wrong;
  std::vector<Transform> untouched(n, Transform::from_position({7, 7, 7}));
  CHECK_FALSE(sample_clip(clip, b.value(), 0.5f, WrapMode::kLoop, wrong, untouched, cov_with));
  CHECK(untouched[0].position == glm::vec3(7, 7, 7));
  // Sampling with a cursor allocates nothing.
  test::AllocationScope scope;
  for (float t : times) sample_clip(clip, b.value(), t, WrapMode::kLoop, cursor, with, cov_with);
  CHECK(scope.count() == 0);
}

TEST_CASE("sample_clip given spans of the wrong size writes nothing and returns false (rule RG4)", "[clip][sample]") {
  const Rig rig = make_test_rig();
  Clip clip;
  clip.name = "swing";
  clip.duration = 1.0f;
  clip.tracks.push_back(rotation_track("LeftArm", {0.0f, 1.0f}, {about({0, 1, 0}, 0), about({0, 1, 0}, 90)}));
  Result<ClipBinding> b = build_clip_binding(clip, rig);
  REQUIRE(b.ok());
  const size_t n = static_cast<size_t>(rig.joint_count());
  const Transform marker = Transform::from_position({3, 3, 3});
  std::vector<Transform> local(n - 1, marker);
  std::vector<float> coverage(n, 0.5f);
  CHECK_FALSE(sample_clip(clip, b.value(), 0.5f, WrapMode::kClamp, local, coverage));
  for (const Transform& t : local) CHECK(t.position == marker.position);
  for (float c : coverage) CHECK(c == 0.5f);
  std::vector<Transform> full(n, marker);
  CHECK(sample_clip(clip, b.value(), 0.5f, WrapMode::kClamp, full, coverage));
  CHECK(coverage[static_cast<size_t>(joint_named(rig, "LeftArm"))] == 1.0f);
}
