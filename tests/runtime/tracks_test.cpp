// Characters with an animator: the single animation is one Core track giving the sampled clip
// bit for bit (rule AN10), several tracks with commands and events, and refusals: a native
// binding for another layout of the same joint count (rule R7), a stage that did not run (RG4).
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"
#include "support/alloc_counter.hpp"
#include "support/swing_clip.hpp"
#include "support/r15_rig.hpp"

using namespace asterune;

namespace {

// A native clip keying every joint with a rotation about X that swings with time.
Clip swing(const Rig& rig, const char* name, float amplitude, float length) {
  Clip clip = test::swing_clip(rig, name, {amplitude, length, 13, 0.0f, false, glm::vec3(0.0f)});
  clip.markers = {ClipMarker{0.5f * length, "step", "", ClipMarkerKind::kMarker}};
  return clip;
}

AnimationBinding native(const Clip& clip, const Rig& rig) {
  auto b = build_clip_binding(clip, rig);
  REQUIRE(b.ok());
  AnimationBinding out;
  out.clip_binding = std::move(b).value();
  return out;
}

bool same_bits(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)) == 0;
}

}  // namespace

TEST_CASE("the single animation is one Core track and gives the sampled clip bit for bit (rule AN10)",
          "[runtime]") {
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  const Clip clip = swing(rig, "swing", 0.6f, 1.3f);
  const AnimationBinding binding = native(clip, rig);
  for (const WrapMode wrap : {WrapMode::kLoop, WrapMode::kClamp}) {
    CharacterSetup setup{&rig, &clip, &binding, wrap, nullptr};
    Character c = build_character(setup, {}, Transform::from_position({0, 3, 0}), 0.2f).value();
    REQUIRE(c.animator.track_count() == 1);
    CHECK(c.animator.desc(0).priority == TrackPriority::kCore);
    c.playback_rate = 0.9f;
    AnimationContext ctx = make_animation_context(binding);
    std::vector<Transform> local(static_cast<size_t>(rig.joint_count()));
    std::vector<float> coverage(local.size());
    float t = 0.2f;
    for (int f = 0; f < 150; ++f) {
      const float dt = f % 7 == 3 ? 0.0f : 1.0f / 60.0f;
      if (dt > 0.0f) t = wrap_clip_time(t + 0.9f * dt, clip.duration, wrap);
      REQUIRE(update_character(setup, c, dt));
      REQUIRE(sample_animation(clip, binding, rig, t, wrap, ctx, local, coverage));
      INFO("frame " << f);
      REQUIRE(std::memcmp(&c.time, &t, sizeof(float)) == 0);
      REQUIRE(same_bits(c.pose.local, local));
    }
    // The engine may still set the time directly.
    c.time = 0.05f;
    REQUIRE(update_character(setup, c, 0.1f));
    CHECK(c.time == Approx(0.05f + 0.09f));
  }
}

TEST_CASE("a character plays several tracks driven through its animator, with events (rules AN2, AN7)",
          "[runtime]") {
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  const Clip walk = swing(rig, "walk", 0.5f, 1.0f);
  const Clip wave = swing(rig, "wave", 1.2f, 0.8f);
  const AnimationBinding bw = native(walk, rig), bv = native(wave, rig);
  TrackDesc w;
  w.name = "Walk";
  w.clip = &walk;
  w.binding = &bw;
  w.priority = TrackPriority::kMovement;
  TrackDesc v;
  v.name = "Wave";
  v.clip = &wave;
  v.binding = &bv;
  v.priority = TrackPriority::kAction;
  v.playing = false;
  v.mask.parts = {"RightUpperArm"};
  const std::vector<TrackDesc> tracks{w, v};
  CharacterSetup setup;
  setup.rig = &rig;
  setup.tracks = tracks;
  setup.event_capacity = 4;
  Character c = build_character(setup, {}).value();
  REQUIRE(c.events.size() == 4);
  const int wave_track = c.animator.find_track("Wave");
  REQUIRE(wave_track == 1);
  c.animator.play(wave_track, PlayOptions{0.2f, 1.0f, 1.0f});
  REQUIRE(update_character(setup, c, 0.1f));
  CHECK(c.animator.state(wave_track).weight_current == Approx(0.5f));
  // 0.45 s more: the wave crosses its marker (0.4) 0.3 s in, the walk its own (0.5) 0.4 s in.
  REQUIRE(update_character(setup, c, 0.45f));
  REQUIRE(c.event_count == 2);
  CHECK(c.events_dropped == 0);
  CHECK(c.events[0].name == "step");
  CHECK(c.events[0].track == 1);
  CHECK(c.events[1].track == 0);
  // The masked wave moves the right arm only: the left arm is the walk's.
  const auto left = static_cast<size_t>(rig.find_joint("LeftUpperArm").index);
  const auto right = static_cast<size_t>(rig.find_joint("RightUpperArm").index);
  AnimationContext ctx = make_animation_context(bw);
  std::vector<Transform> local(static_cast<size_t>(rig.joint_count()));
  std::vector<float> coverage(local.size());
  REQUIRE(sample_animation(walk, bw, rig, c.animator.state(0).time_position, WrapMode::kLoop, ctx, local, coverage));
  CHECK(std::memcmp(&c.pose.local[left], &local[left], sizeof(Transform)) == 0);
  CHECK(std::memcmp(&c.pose.local[right], &local[right], sizeof(Transform)) != 0);
  // Per frame: no allocation.
  test::AllocationScope scope;
  for (int f = 0; f < 30; ++f) update_character(setup, c, 1.0f / 30.0f);
  CHECK(scope.count() == 0);
}

TEST_CASE("build_character refuses a native binding made for another layout of the same joint count (rule R7)",
          "[runtime]") {
  const Rig rig = test::r15_rig();
  const Rig twisted = test::r15_rig([](int k) { return k == 4 ? glm::angleAxis(0.3f, glm::vec3(0, 0, 1)) : glm::quat(1, 0, 0, 0); });
  REQUIRE(twisted.joint_count() == rig.joint_count());
  REQUIRE(twisted.signature() != rig.signature());
  const Clip clip = swing(rig, "swing", 0.3f, 1.0f);
  const AnimationBinding for_twisted = native(clip, twisted);
  const CharacterSetup setup{&rig, &clip, &for_twisted, WrapMode::kLoop, nullptr};
  const Result<Character> c = build_character(setup, {});
  REQUIRE_FALSE(c.ok());
  CHECK_THAT(c.message(), Catch::Contains("another rig"));
}

TEST_CASE("update_character reports ok = false whenever a stage did not run (rule RG4)", "[runtime]") {
  const Rig rig = test::r15_rig();
  const Rig twisted = test::r15_rig([](int k) { return k == 4 ? glm::angleAxis(0.3f, glm::vec3(0, 0, 1)) : glm::quat(1, 0, 0, 0); });
  const Clip clip = swing(rig, "swing", 0.3f, 1.0f);
  const AnimationBinding binding = native(clip, rig);
  const CharacterSetup setup{&rig, &clip, &binding, WrapMode::kLoop, nullptr};
  Character c = build_character(setup, {}).value();
  REQUIRE(update_character(setup, c, 0.1f));
  CHECK(c.ok);
  // Another rig of the same joint count: the animator refuses it, nothing runs.
  CharacterSetup other = setup;
  other.rig = &twisted;
  CHECK_FALSE(update_character(other, c, 0.1f));
  CHECK_FALSE(c.ok);
  // A nonfinite root: the stack cannot run, so the update is not ok.
  c.root.position.x = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(update_character(setup, c, 0.1f));
  CHECK_FALSE(c.ok);
  c.root = Transform::identity();
  CHECK(update_character(setup, c, 0.1f));
}
