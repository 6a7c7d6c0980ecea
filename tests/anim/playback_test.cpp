// Track playback: fades (rule AN2), time, loops, backwards play and the end of a non-looped
// track (AN1), events (AN7), frame-rate independence, bad input and allocation (RG1, RG4).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "anim_support.hpp"
#include "support/alloc_counter.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

const glm::vec3 kX(1.0f, 0.0f, 0.0f);
const glm::quat kI(1.0f, 0.0f, 0.0f, 0.0f);

// A 1-second clip moving LeftUpperArm from x = 0 to x = 1, with markers.
Clip marked_clip(std::vector<ClipMarker> markers, float length = 1.0f) {
  Clip c = linear_clip("marked", "LeftUpperArm", Transform::identity(), Transform::from_position(kX * length), length);
  c.markers = std::move(markers);
  return c;
}

ClipMarker marker(float t, const char* name, const char* value = "") { return ClipMarker{t, name, value, ClipMarkerKind::kMarker}; }

void step(Animator& a, const Rig& rig, Out& out, float dt, int frames = 1) {
  for (int f = 0; f < frames; ++f) REQUIRE(a.update(rig, dt, out.local, out.coverage).ok);
}

}  // namespace

TEST_CASE("fades move the weight linearly from where it is (rule AN2)", "[anim]") {
  const Rig rig = r15_rig();
  const Clip clip = const_clip("c", {{"LeftUpperArm", kI, kX}});
  const auto b = native_binding(clip, rig);
  TrackDesc d = track("T", clip, *b, TrackPriority::kMovement);
  d.playing = false;
  Animator a = build_animator(rig, {d});
  Out out(rig);
  CHECK(a.state(0).weight_current == 0.0f);
  CHECK_FALSE(a.state(0).playing);
  // Half of a 0.1 s fade in: 0.5.
  a.play(0, PlayOptions{0.1f, 1.0f, 1.0f});
  CHECK(a.state(0).playing);
  CHECK(a.state(0).weight_target == 1.0f);
  step(a, rig, out, 0.05f);
  CHECK(a.state(0).weight_current == Approx(0.5f).margin(1e-6));
  // The claim shows in the pose (Movement alone at 0.5 over the rest pose).
  CHECK(out.local[static_cast<size_t>(joint_index(rig, "LeftUpperArm"))].position.x == Approx(0.5f).margin(1e-6));
  // Re-triggered mid-fade: from 0.5 (no snap) down to 0 over 0.1 s, 5 per second.
  a.adjust_weight(0, 0.0f, 0.1f);
  CHECK(a.state(0).weight_current == Approx(0.5f).margin(1e-6));
  step(a, rig, out, 0.05f);
  CHECK(a.state(0).weight_current == Approx(0.25f).margin(1e-6));
  // stop(2) from 0.6 reaches 0.3 at 1 s and 0 at exactly 2 s.
  a.adjust_weight(0, 0.6f, 0.0f);
  CHECK(a.state(0).weight_current == 0.6f);
  a.stop(0, 2.0f);
  CHECK_FALSE(a.state(0).playing);
  step(a, rig, out, 0.1f, 10);
  CHECK(a.state(0).weight_current == Approx(0.3f).margin(1e-5));
  step(a, rig, out, 0.1f, 9);
  CHECK(a.state(0).weight_current == Approx(0.03f).margin(1e-5));
  step(a, rig, out, 0.1f);
  CHECK(a.state(0).weight_current == 0.0f);
}

TEST_CASE("fades and time agree at 30, 60 and 144 Hz (rule AN2)", "[anim]") {
  const Rig rig = r15_rig();
  const Clip clip = marked_clip({}, 1.3f);
  const auto b = native_binding(clip, rig);
  const auto j = static_cast<size_t>(joint_index(rig, "LeftUpperArm"));
  struct Result {
    float weight, time, x;
  };
  const auto run = [&](int hz) {
    TrackDesc d = track("T", clip, *b, TrackPriority::kMovement);
    d.playing = false;
    Animator a = build_animator(rig, {d});
    Out out(rig);
    a.play(0, PlayOptions{0.7f, 0.8f, 1.7f});
    const float dt = 1.0f / static_cast<float>(hz);
    for (int f = 0; f < hz / 2; ++f) REQUIRE(a.update(rig, dt, out.local, out.coverage).ok);  // 0.5 s
    return Result{a.state(0).weight_current, a.state(0).time_position, out.local[j].position.x};
  };
  const Result r30 = run(30), r60 = run(60), r144 = run(144);
  // By hand: weight 0.8 * 0.5 / 0.7, time 1.7 * 0.5 = 0.85 s, x = weight * time / length.
  const float w = 0.8f * 0.5f / 0.7f;
  for (const Result& r : {r30, r60, r144}) {
    CHECK(r.weight == Approx(w).margin(1e-5));
    CHECK(r.time == Approx(0.85f).margin(1e-5));
    CHECK(r.x == Approx(w * 0.85f).margin(1e-5));  // the clip moves 1 stud per second
  }
}

TEST_CASE("looped, backwards and non-looped time (rule AN1)", "[anim]") {
  const Rig rig = r15_rig();
  const auto j = static_cast<size_t>(joint_index(rig, "LeftUpperArm"));
  const Clip clip = marked_clip({});
  const auto b = native_binding(clip, rig);
  Out out(rig);
  std::array<AnimEvent, 8> ev;

  SECTION("backwards play of a looped track wraps to the last key") {
    TrackDesc d = track("T", clip, *b, TrackPriority::kCore);
    d.time = 0.1f;
    d.speed = -1.0f;
    Animator a = build_animator(rig, {d});
    const AnimatorReport r = a.update(rig, 0.2f, out.local, out.coverage, ev);
    REQUIRE(r.ok);
    CHECK(a.state(0).time_position == Approx(0.9f).margin(1e-6));
    CHECK(out.local[j].position.x == Approx(0.9f).margin(1e-6));  // near the last key (x = 1)
    REQUIRE(r.events_written == 1);
    CHECK(ev[0].kind == AnimEventKind::kLooped);
    CHECK(ev[0].time == 1.0f);
    // play() with a negative speed starts from the end.
    a.play(0, PlayOptions{0.0f, 1.0f, -0.5f});
    CHECK(a.state(0).time_position == 1.0f);
  }
  SECTION("a non-looped track clamps at its end, stops, then fades out over its play fade") {
    TrackDesc d = track("T", clip, *b, TrackPriority::kCore);
    d.looped = false;
    d.playing = false;
    Animator a = build_animator(rig, {d});
    a.play(0, PlayOptions{0.0f, 1.0f, 1.0f});
    a.set_time(0, 0.75f);
    a.stop(0, 0.0f);  // a stopped track is not reported twice: play again
    a.play(0, PlayOptions{0.2f, 1.0f, 1.0f});
    a.adjust_weight(0, 1.0f, 0.0f);
    a.set_time(0, 0.9f);
    AnimatorReport r = a.update(rig, 0.2f, out.local, out.coverage, ev);  // reaches 1.0 at half the step
    REQUIRE(r.ok);
    CHECK(a.state(0).time_position == 1.0f);
    CHECK_FALSE(a.state(0).playing);
    REQUIRE(r.events_written == 1);
    CHECK(ev[0].kind == AnimEventKind::kStopped);
    CHECK(ev[0].time == 1.0f);
    // The fade-out (0.2 s, the last play's fade) started at the end: 0.1 s of it went by.
    CHECK(a.state(0).weight_current == Approx(0.5f).margin(1e-5));
    CHECK(out.local[j].position.x == Approx(0.5f).margin(1e-5));  // the last frame at weight 0.5
    r = a.update(rig, 0.2f, out.local, out.coverage, ev);
    REQUIRE(r.events_written == 1);
    CHECK(ev[0].kind == AnimEventKind::kEnded);
    CHECK(a.state(0).weight_current == 0.0f);
    r = a.update(rig, 0.2f, out.local, out.coverage, ev);
    CHECK(r.events_written == 0);
    CHECK(out.coverage[j] == 0.0f);
  }
  SECTION("stop() reports stopped at once and ended when the weight reaches 0") {
    Animator a = build_animator(rig, {track("T", clip, *b, TrackPriority::kCore)});
    a.stop(0, 0.25f);
    AnimatorReport r = a.update(rig, 0.1f, out.local, out.coverage, ev);
    REQUIRE(r.events_written == 1);
    CHECK(ev[0].kind == AnimEventKind::kStopped);
    r = a.update(rig, 0.1f, out.local, out.coverage, ev);
    CHECK(r.events_written == 0);
    r = a.update(rig, 0.1f, out.local, out.coverage, ev);
    REQUIRE(r.events_written == 1);
    CHECK(ev[0].kind == AnimEventKind::kEnded);
  }
  SECTION("play on a playing track restarts it") {
    Animator a = build_animator(rig, {track("T", clip, *b, TrackPriority::kCore)});
    step(a, rig, out, 0.3f);
    CHECK(a.state(0).time_position == Approx(0.3f));
    a.play(0);
    CHECK(a.state(0).time_position == 0.0f);
    CHECK(a.state(0).playing);
  }
}

TEST_CASE("markers are reported once per crossing, in time order, across loop wraps (rule AN7)", "[anim]") {
  const Rig rig = r15_rig();
  const Clip clip = marked_clip({marker(0.3f, "step", "L"), marker(0.8f, "step", "R")});
  const auto b = native_binding(clip, rig);
  Out out(rig);
  std::array<AnimEvent, 16> ev;
  TrackDesc d = track("Walk", clip, *b, TrackPriority::kMovement);
  d.time = 0.5f;
  Animator a = build_animator(rig, {d});
  // 0.5 -> 2.4 (1.9 s): R at 0.8, wrap, L at 1.3, R at 1.8, wrap, L at 2.3. "L" twice in one step.
  const AnimatorReport r = a.update(rig, 1.9f, out.local, out.coverage, ev);
  REQUIRE(r.ok);
  REQUIRE(r.events_written == 6);
  CHECK(r.events_dropped == 0);
  const AnimEventKind M = AnimEventKind::kMarker, W = AnimEventKind::kLooped;
  const std::array<AnimEventKind, 6> kinds{M, W, M, M, W, M};
  const std::array<const char*, 6> values{"R", "", "L", "R", "", "L"};
  for (int i = 0; i < 6; ++i) {
    INFO("event " << i);
    CHECK(ev[static_cast<size_t>(i)].kind == kinds[static_cast<size_t>(i)]);
    CHECK(ev[static_cast<size_t>(i)].value == values[static_cast<size_t>(i)]);
    CHECK(ev[static_cast<size_t>(i)].track == 0);
  }
  CHECK(ev[0].name == "step");
  CHECK(ev[0].time == 0.8f);
  CHECK(a.state(0).time_position == Approx(0.4f).margin(1e-5));
  // The next step starts where this one ended: 0.4 -> 0.9 crosses R only.
  const AnimatorReport r2 = a.update(rig, 0.5f, out.local, out.coverage, ev);
  REQUIRE(r2.events_written == 1);
  CHECK(ev[0].value == "R");

  SECTION("backwards: descending time order, a marker at the start position is not repeated") {
    a.set_time(0, 0.8f);
    a.adjust_speed(0, -1.0f);
    const AnimatorReport rb = a.update(rig, 1.0f, out.local, out.coverage, ev);  // 0.8 -> -0.2 = 0.8
    REQUIRE(rb.events_written == 3);
    CHECK(ev[0].value == "L");
    CHECK(ev[1].kind == AnimEventKind::kLooped);
    CHECK(ev[2].value == "R");  // 0.8 reached again, one loop later
  }
  SECTION("a full buffer keeps the first events and counts the rest") {
    std::array<AnimEvent, 4> small;
    a.set_time(0, 0.0f);
    const AnimatorReport rs = a.update(rig, 100.0f, out.local, out.coverage, small);  // 100 loops
    CHECK(rs.events_written == 4);
    CHECK(rs.events_dropped == 300 - 4);  // per loop: L, R, wrap
    CHECK(small[0].value == "L");
    CHECK(small[2].kind == AnimEventKind::kLooped);
  }
}

TEST_CASE("events of several tracks merge by when in the step they happen (rule AN7)", "[anim]") {
  const Rig rig = r15_rig();
  const Clip a_clip = marked_clip({marker(0.6f, "a")});
  const Clip b_clip = marked_clip({marker(0.2f, "b")});
  const auto ba = native_binding(a_clip, rig), bb = native_binding(b_clip, rig);
  TrackDesc ta = track("A", a_clip, *ba, TrackPriority::kMovement);
  ta.time = 0.45f;  // crosses 0.6 after 0.15 s
  TrackDesc tb = track("B", b_clip, *bb, TrackPriority::kMovement);
  tb.speed = 0.5f;  // crosses 0.2 after 0.4 s
  Animator anim = build_animator(rig, {ta, tb});
  Out out(rig);
  std::array<AnimEvent, 4> ev;
  const AnimatorReport r = anim.update(rig, 0.5f, out.local, out.coverage, ev);
  REQUIRE(r.events_written == 2);
  CHECK(ev[0].track == 0);
  CHECK(ev[0].name == "a");
  CHECK(ev[1].track == 1);
  CHECK(ev[1].name == "b");
  // Swap which comes first: A now crosses 0.6 after 0.45 s.
  anim.set_time(0, 0.15f);
  anim.set_time(1, 0.0f);
  const AnimatorReport r2 = anim.update(rig, 0.5f, out.local, out.coverage, ev);
  REQUIRE(r2.events_written == 2);
  CHECK(ev[0].name == "b");
  CHECK(ev[1].name == "a");
}

TEST_CASE("bad per-frame input never poisons the pose (rule RG4)", "[anim]") {
  const Rig rig = r15_rig();
  const Clip clip = marked_clip({});
  const auto b = native_binding(clip, rig);
  Animator a = build_animator(rig, {track("T", clip, *b, TrackPriority::kCore)});
  Out out(rig);
  step(a, rig, out, 0.25f);
  const TrackState before = a.state(0);
  // Nonfinite or non-positive dt: nothing advances, the pose is still composed.
  for (const float dt : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -1.0f, 0.0f}) {
    REQUIRE(a.update(rig, dt, out.local, out.coverage).ok);
    CHECK(a.state(0).time_position == before.time_position);
    CHECK(out.local[static_cast<size_t>(joint_index(rig, "LeftUpperArm"))].position.x == Approx(0.25f));
  }
  // NaN commands are ignored.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  a.adjust_weight(0, nan, 0.1f);
  a.adjust_weight(0, 0.5f, nan);
  a.adjust_speed(0, nan);
  a.play(0, PlayOptions{nan, 1.0f, 1.0f});
  a.stop(0, nan);
  a.set_time(0, nan);
  a.play(7, PlayOptions{});  // bad index
  CHECK(a.state(0).weight_target == before.weight_target);
  CHECK(a.state(0).speed == before.speed);
  CHECK(a.state(0).time_position == before.time_position);
  CHECK(a.state(0).playing);
  // Wrong span sizes or another rig: ok = false, nothing written.
  std::vector<Transform> short_local(3, Transform::from_position(glm::vec3(7.0f)));
  std::vector<float> short_cov(3, 7.0f);
  CHECK_FALSE(a.update(rig, 0.1f, short_local, short_cov).ok);
  CHECK(short_local[0].position.x == 7.0f);
  CHECK(short_cov[0] == 7.0f);
  const Rig twisted = r15_rig([](int k) { return k == 3 ? axis_angle_deg(10.0f, kX) : kI; });
  std::fill(out.local.begin(), out.local.end(), Transform::from_position(glm::vec3(7.0f)));
  CHECK_FALSE(a.update(twisted, 0.1f, out.local, out.coverage).ok);
  CHECK(out.local[0].position.x == 7.0f);
  CHECK(a.state(0).time_position == before.time_position);
}

TEST_CASE("the animator's build refuses bad tracks, naming them (rule AN1, R7)", "[anim]") {
  const Rig rig = r15_rig();
  const Clip clip = marked_clip({});
  const auto b = native_binding(clip, rig);
  const auto refused = [&](const std::vector<TrackDesc>& tracks, const char* reason) {
    const auto r = Animator::build(rig, tracks);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.message(), Catch::Contains("'T'") && Catch::Contains(reason));
  };
  TrackDesc no_clip = track("T", clip, *b, TrackPriority::kCore);
  no_clip.clip = nullptr;
  refused({no_clip}, "required");
  refused({track("T", clip, *b, TrackPriority::kCore), track("T", clip, *b, TrackPriority::kIdle)}, "already exists");
  TrackDesc nan_weight = track("T", clip, *b, TrackPriority::kCore);
  nan_weight.weight = std::numeric_limits<float>::quiet_NaN();
  refused({nan_weight}, "finite");
  // A binding made for another rig of the same joint count (rule R7: the layout, not the count).
  const Rig twisted = r15_rig([](int k) { return k == 3 ? axis_angle_deg(10.0f, kX) : kI; });
  REQUIRE(twisted.joint_count() == rig.joint_count());
  const auto other = native_binding(clip, twisted);
  refused({track("T", clip, *other, TrackPriority::kCore)}, "another rig");
}

TEST_CASE("an update allocates nothing (rule RG1)", "[anim]") {
  const Rig rig = r15_rig();
  const Clip walk = marked_clip({marker(0.3f, "step")});
  const Clip wave = linear_clip("wave", "RightUpperArm", Transform::identity(),
                                Transform::from_rotation(axis_angle_deg(90.0f, kX)));
  const auto bw = native_binding(walk, rig), bv = native_binding(wave, rig);
  TrackDesc v = track("Wave", wave, *bv, TrackPriority::kAction, 0.5f);
  v.mask.parts = {"RightUpperArm"};
  TrackDesc add = track("Add", wave, *bv, TrackPriority::kAction, 0.3f);
  add.additive = true;
  Animator a = build_animator(rig, {track("Walk", walk, *bw, TrackPriority::kMovement), v, add});
  Out out(rig);
  std::array<AnimEvent, 2> ev;
  step(a, rig, out, 1.0f / 60.0f);
  AllocationScope scope;
  for (int f = 0; f < 120; ++f) {
    if (f == 30) a.play(1, PlayOptions{0.2f, 1.0f, 1.0f, TransitionKind::kInertial});
    if (f == 60) a.stop(0, 0.3f);
    if (f == 90) a.adjust_weight(2, -0.5f, 0.1f);
    (void)a.update(rig, 1.0f / 60.0f, out.local, out.coverage, ev);
  }
  (void)a.update(rig, 50.0f, out.local, out.coverage, ev);  // overflowing events
  CHECK(scope.count() == 0);
}

TEST_CASE("a loop's end and start are one instant: a marker twin at both is reported once a lap (rule AN17)", "[anim]") {
  const Rig rig = r15_rig();
  // A contact that spans the seam: the detector sees a start at the last frame and at frame 0.
  const Clip clip = marked_clip({marker(0.0f, "Footstep", "Right"), marker(0.5f, "Footstep", "Left"),
                                 marker(1.0f, "Footstep", "Right")});
  const auto b = native_binding(clip, rig);
  Out out(rig);
  std::array<AnimEvent, 32> ev;
  auto values = [&](const AnimatorReport& r) {
    std::string s;
    for (int i = 0; i < r.events_written; ++i)
      if (ev[static_cast<size_t>(i)].kind == AnimEventKind::kMarker) s += ev[static_cast<size_t>(i)].value.substr(0, 1);
    return s;
  };
  SECTION("looped forward: 0.25 -> 3.25 crosses three laps, one Right per lap") {
    TrackDesc d = track("Walk", clip, *b, TrackPriority::kMovement);
    d.time = 0.25f;
    Animator a = build_animator(rig, {d});
    const AnimatorReport r = a.update(rig, 3.0f, out.local, out.coverage, ev);
    REQUIRE(r.ok);
    CHECK(values(r) == "LRLRLR");
    CHECK(r.events_dropped == 0);
    std::array<AnimEvent, 2> small;  // the dropped count agrees with the walk (L, R, wrap per lap)
    a.set_time(0, 0.25f);
    const AnimatorReport rs = a.update(rig, 3.0f, out.local, out.coverage, small);
    CHECK(rs.events_written + rs.events_dropped == 9);
  }
  SECTION("looped backwards: the start is the end, the twin at 0 is left out") {
    TrackDesc d = track("Walk", clip, *b, TrackPriority::kMovement);
    d.time = 0.75f;
    d.speed = -1.0f;
    Animator a = build_animator(rig, {d});
    const AnimatorReport r = a.update(rig, 2.0f, out.local, out.coverage, ev);  // 0.75 -> -1.25
    CHECK(values(r) == "LRLR");
  }
  SECTION("not looped: both ends are distinct instants and both report") {
    TrackDesc d = track("Walk", clip, *b, TrackPriority::kMovement);
    d.looped = false;
    d.time = 0.0f;
    Animator a = build_animator(rig, {d});
    a.update(rig, 0.0f, out.local, out.coverage, ev);
    const AnimatorReport r = a.update(rig, 1.5f, out.local, out.coverage, ev);
    CHECK(values(r) == "LR");
  }
  SECTION("a marker alone at the end has no twin and stays") {
    const Clip lone = marked_clip({marker(0.5f, "Footstep", "Left"), marker(1.0f, "Footstep", "Right")});
    const auto lb = native_binding(lone, rig);
    TrackDesc d = track("Walk", lone, *lb, TrackPriority::kMovement);
    d.time = 0.25f;
    Animator a = build_animator(rig, {d});
    const AnimatorReport r = a.update(rig, 2.0f, out.local, out.coverage, ev);
    CHECK(values(r) == "LRLR");
  }
}
