// Characters with several animator tracks (rules AN1-AN8) updated by update_characters on 1 and
// on 3 threads give the same bits (rule RG2): tracks, fades, events and inertial state are per
// character; clips, bindings and the rig are shared read-only.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"
#include "support/swing_clip.hpp"

using namespace asterune;

namespace {

Clip swing(const Rig& rig, const char* name, float amplitude, float length, float phase) {
  Clip clip = test::swing_clip(rig, name, {amplitude, length, 17, phase, true, glm::vec3(0.0f, 0.0f, -2.0f * length)});
  clip.markers = {ClipMarker{0.25f * length, "step", "L", ClipMarkerKind::kMarker},
                  ClipMarker{0.75f * length, "step", "R", ClipMarkerKind::kMarker}};
  return clip;
}

struct Crowd {
  Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  Clip walk = swing(rig, "walk", 0.5f, 1.1f, 0.2f);
  Clip run = swing(rig, "run", 0.8f, 0.7f, 0.9f);
  Clip wave = swing(rig, "wave", 1.1f, 1.3f, 1.7f);
  AnimationBinding bw, br, bv;
  std::vector<TrackDesc> tracks;
  CharacterSetup setup;
  std::vector<Character> characters;

  explicit Crowd(int count) {
    bw.clip_binding = build_clip_binding(walk, rig).value();
    br.clip_binding = build_clip_binding(run, rig).value();
    bv.clip_binding = build_clip_binding(wave, rig).value();
    const auto desc = [](const char* name, const Clip& clip, const AnimationBinding& b, TrackPriority p) {
      TrackDesc d;
      d.name = name;
      d.clip = &clip;
      d.binding = &b;
      d.priority = p;
      return d;
    };
    TrackDesc w = desc("Walk", walk, bw, TrackPriority::kMovement);
    w.root_motion = true;
    TrackDesc r = desc("Run", run, br, TrackPriority::kMovement);
    r.weight = 0.0f;
    TrackDesc v = desc("Wave", wave, bv, TrackPriority::kAction);
    v.playing = false;
    v.mask.parts = {"RightUpperArm"};
    TrackDesc lean = desc("Lean", wave, bv, TrackPriority::kAction);
    lean.additive = true;
    lean.weight = 0.3f;
    tracks = {w, r, v, lean};
    setup.rig = &rig;
    setup.tracks = tracks;
    setup.event_capacity = 3;  // small: overflow is counted the same on every thread
    for (int i = 0; i < count; ++i) {
      Character c = build_character(setup, {}, Transform::from_position({static_cast<float>(i), 3, 0})).value();
      c.animator.set_time(0, 0.03f * static_cast<float>(i));
      characters.push_back(std::move(c));
    }
  }

  // The engine's commands, the same for every crowd (applied serially before each batch).
  void commands(int frame) {
    for (size_t i = 0; i < characters.size(); ++i) {
      Animator& a = characters[i].animator;
      const int k = static_cast<int>(i);
      if (frame == 5 + k % 7) a.adjust_weight(1, 0.6f, 0.25f);
      if (frame == 12 + k % 5) a.play(2, PlayOptions{0.2f, 0.8f, 1.0f + 0.1f * static_cast<float>(k % 3)});
      if (frame == 20 + k % 4) a.play(1, PlayOptions{0.15f, 1.0f, 1.2f, TransitionKind::kInertial});
      if (frame == 30) a.stop(2, 0.1f * static_cast<float>(k % 4));
    }
  }
};

bool same(const Character& a, const Character& b) {
  const auto bits = [](const auto& x, const auto& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
  };
  if (!bits(a.pose.local, b.pose.local) || !bits(a.pose.coverage, b.pose.coverage) || !bits(a.world, b.world)) return false;
  if (a.event_count != b.event_count || a.events_dropped != b.events_dropped || a.ok != b.ok) return false;
  if (std::memcmp(&a.root_delta, &b.root_delta, sizeof(Transform)) != 0) return false;
  for (int e = 0; e < a.event_count; ++e) {
    const AnimEvent& x = a.events[static_cast<size_t>(e)];
    const AnimEvent& y = b.events[static_cast<size_t>(e)];
    if (x.track != y.track || x.kind != y.kind || x.value != y.value || std::memcmp(&x.time, &y.time, sizeof(float)) != 0)
      return false;
  }
  // Field by field: TrackState has padding after `playing`, whose bytes nothing defines.
  const auto same_float = [](float x, float y) { return std::memcmp(&x, &y, sizeof(float)) == 0; };
  for (int t = 0; t < a.animator.track_count(); ++t) {
    const TrackState& x = a.animator.state(t);
    const TrackState& y = b.animator.state(t);
    if (x.playing != y.playing || !same_float(x.weight_current, y.weight_current) ||
        !same_float(x.weight_target, y.weight_target) || !same_float(x.time_position, y.time_position) ||
        !same_float(x.speed, y.speed))
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("multi-track characters give the same bits on 1 and 3 threads (rule RG2)", "[concurrency][anim]") {
  Crowd one(24), three(24);
  const auto serial = [](std::size_t n, CharacterRange body) { body(0, n); };
  const auto threads = [](std::size_t n, CharacterRange body) {
    std::thread a([&] { body(0, n / 3); });
    std::thread b([&] { body(n / 3, 2 * n / 3); });
    body(2 * n / 3, n);
    a.join();
    b.join();
  };
  int events = 0;
  for (int f = 0; f < 45; ++f) {
    const float dt = f % 11 == 4 ? 0.3f : 1.0f / 60.0f;
    one.commands(f);
    three.commands(f);
    update_characters(one.setup, one.characters, dt, serial);
    update_characters(three.setup, three.characters, dt, threads);
    for (size_t i = 0; i < one.characters.size(); ++i) {
      INFO("frame " << f << ", character " << i);
      REQUIRE(one.characters[i].ok);
      REQUIRE(same(one.characters[i], three.characters[i]));
      events += one.characters[i].event_count;
    }
  }
  CHECK(events > 0);
  CHECK_FALSE(same(one.characters[1], one.characters[2]));  // not vacuous: the characters differ
}
