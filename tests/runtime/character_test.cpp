// Characters and the batch update (update_characters): sizes, time keeping, bad input, no
// allocation per frame, and bit-identical results against one-by-one updates in any order and
// on 1 or 2 threads (the test the ThreadSanitizer preset runs for the batch API).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/controls/ground.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;

namespace {

// A native clip on every joint of the rig: rotation keys swinging about a per-joint axis, root
// translation bobbing. Independent of the code under test (plain keys).
Clip swing_clip(const Rig& rig) {
  Clip clip;
  clip.name = "swing";
  clip.duration = 1.0f;
  for (int j = 0; j < rig.joint_count(); ++j) {
    ClipTrack track;
    track.name = rig.child_name(j);
    const glm::vec3 axis = glm::normalize(glm::vec3(1.0f, 0.2f * static_cast<float>(j % 4), 0.3f));
    for (int k = 0; k <= 30; ++k) {
      const float t = static_cast<float>(k) / 30.0f;
      track.rotation_times.push_back(t);
      track.rotations.push_back(glm::angleAxis(0.4f * std::sin(6.2831853f * t + static_cast<float>(j)), axis));
    }
    if (j == 0) {
      track.translation_times = {0.0f, 0.5f, 1.0f};
      track.translations = {glm::vec3(0.0f), glm::vec3(0.0f, 0.2f, 0.0f), glm::vec3(0.0f)};
    }
    clip.tracks.push_back(track);
  }
  return clip;
}

std::vector<ControlDesc> controls_for(int i) {
  ControlDesc look;
  look.name = "Look";
  look.smooth_time = 0.1f;
  look.target = target_path({{0.0f, {3.0f, 4.5f, -4.0f}}, {1.0f, {-3.0f, 4.0f + 0.1f * static_cast<float>(i % 5), -4.0f}}});
  LookAtSettings la;
  la.chain_root = "UpperTorso";
  la.end = "Head";
  look.settings = la;
  ControlDesc arm;
  arm.name = "Arm";
  arm.weight = 0.5f + 0.05f * static_cast<float>(i % 10);
  arm.target = target_at({-1.5f + 0.05f * static_cast<float>(i % 7), 3.0f, -0.8f});
  IkSettings ik;
  ik.chain_root = "LeftUpperArm";
  ik.end = "LeftHand";
  ik.end_offset = glm::vec3(0.0f, -0.15f, 0.0f);
  arm.settings = ik;
  ControlDesc feet;
  feet.name = "Feet";
  FeetSettings fs;
  fs.legs = {FeetLeg{"LeftUpperLeg", "LeftFoot", {}}, FeetLeg{"RightUpperLeg", "RightFoot", {}}};
  feet.settings = fs;
  if (i % 3 == 0) return {look};
  if (i % 3 == 1) return {look, arm, feet};
  return {look, arm};
}

struct Crowd {
  Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  Clip clip = swing_clip(rig);
  AnimationBinding binding;
  Ground ground = tilted_ground();
  CharacterSetup setup;
  std::vector<Character> characters;

  // A 15 degree slope through the origin, shared by every character's feet (rule G1).
  static Ground tilted_ground() {
    GroundDesc g;
    GroundPlane slope;
    slope.normal = {std::sin(0.2618f), std::cos(0.2618f), 0.0f};
    g.planes.push_back(slope);
    return build_ground(g).value();
  }

  explicit Crowd(int count) {
    Result<ClipBinding> b = build_clip_binding(clip, rig);
    REQUIRE(b.ok());
    binding.mode = AnimationMode::kNative;
    binding.clip_binding = std::move(b).value();
    setup = CharacterSetup{&rig, &clip, &binding, WrapMode::kLoop, &ground};
    for (int i = 0; i < count; ++i) {
      const Transform root{glm::angleAxis(0.1f * static_cast<float>(i), glm::vec3(0, 1, 0)),
                           {2.0f * static_cast<float>(i % 8), 3.0f, -2.0f * static_cast<float>(i / 8)}};
      const std::vector<ControlDesc> controls = controls_for(i);
      Result<Character> c = build_character(setup, controls, root, 0.037f * static_cast<float>(i));
      REQUIRE(c.ok());
      characters.push_back(std::move(c).value());
      characters.back().playback_rate = 0.8f + 0.03f * static_cast<float>(i % 9);
    }
  }
};

// Bitwise equality of two characters' per-frame results.
bool same(const Character& a, const Character& b) {
  auto bits = [](const auto& x, const auto& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
  };
  if (!bits(a.pose.local, b.pose.local) || !bits(a.pose.coverage, b.pose.coverage) || !bits(a.world, b.world))
    return false;
  if (std::memcmp(&a.time, &b.time, sizeof(float)) != 0 || a.ok != b.ok) return false;
  for (int k = 0; k < a.stack.size(); ++k) {
    const ControlReport& x = a.stack.report(k);
    const ControlReport& y = b.stack.report(k);
    if (x.status != y.status || std::memcmp(&x.distance, &y.distance, sizeof(float)) != 0 ||
        std::memcmp(&x.angle, &y.angle, sizeof(float)) != 0 ||
        std::memcmp(&x.target, &y.target, sizeof(glm::vec3)) != 0)
      return false;
  }
  return true;
}

const float kFrameDt[] = {1.0f / 60.0f, 1.0f / 30.0f, 0.0f, 1.0f / 60.0f, 0.25f, 1.0f / 144.0f};

}  // namespace

TEST_CASE("batch update is bit-identical to one-by-one updates, in any order and on 1 or 2 threads",
          "[runtime][batch][concurrency]") {
  // rule RG2: the rig and bindings are shared read-only; every mutable thing is per character.
  Crowd reference(40);
  Crowd reversed(40);
  Crowd threaded(40);
  const auto serial_reverse = [](std::size_t n, CharacterRange body) {
    for (std::size_t i = n; i > 0; --i) body(i - 1, i);  // one character at a time, last first
  };
  const auto two_threads = [](std::size_t n, CharacterRange body) {
    // Interleaved chunks of 3 on two threads: neighbours run on different threads.
    std::thread other([&] {
      for (std::size_t b = 3; b < n; b += 6) body(b, std::min(n, b + 3));
    });
    for (std::size_t b = 0; b < n; b += 6) body(b, std::min(n, b + 3));
    other.join();
  };
  for (float dt : kFrameDt) {
    for (Character& c : reference.characters) REQUIRE(update_character(reference.setup, c, dt));
    update_characters(reversed.setup, reversed.characters, dt, serial_reverse);
    update_characters(threaded.setup, threaded.characters, dt, two_threads);
    for (size_t i = 0; i < reference.characters.size(); ++i) {
      INFO("character " << i << ", dt " << dt);
      CHECK(same(reference.characters[i], reversed.characters[i]));
      CHECK(same(reference.characters[i], threaded.characters[i]));
    }
  }
  // The characters really differ from each other (the comparison is not vacuous).
  CHECK_FALSE(same(reference.characters[1], reference.characters[2]));
  CHECK(reference.characters[5].stack.report(0).status == ControlStatus::kSolved);
  // The shared ground reached the feet controls (character 1 has one, on the slope).
  const ControlReport& feet = reference.characters[1].stack.report(2);
  REQUIRE(feet.feet.foot_count == 2);
  CHECK((feet.feet.feet[0].hit || feet.feet.feet[1].hit));  // the swinging legs may lift one out of reach
}

TEST_CASE("the setup's ground is what the characters' feet stand on", "[runtime]") {
  // rule G1: CharacterSetup::ground is passed to every character's stack; without it every
  // foot ray misses. On the slope (its surface at height -x tan 15deg under a foot at x), each
  // foot's ray ends on the plane.
  Crowd crowd(2);
  Character& c = crowd.characters[1];
  REQUIRE(update_character(crowd.setup, c, 1.0f / 60.0f));
  const ControlReport& on_slope = c.stack.report(2);
  REQUIRE(on_slope.feet.foot_count == 2);
  for (int f = 0; f < 2; ++f) {
    const FootReport& foot = on_slope.feet.feet[static_cast<size_t>(f)];
    CHECK(foot.hit);
    CHECK(foot.ray_end.y == Approx(-foot.ray_end.x * std::tan(0.2618f)).margin(1e-4));
  }
  CharacterSetup no_ground = crowd.setup;
  no_ground.ground = nullptr;
  REQUIRE(update_character(no_ground, c, 1.0f / 60.0f));
  for (int f = 0; f < 2; ++f) CHECK_FALSE(c.stack.report(2).feet.feet[static_cast<size_t>(f)].hit);
}

TEST_CASE("a batch frame allocates nothing", "[runtime][batch]") {
  // Per-frame path: no allocation (rule RG1).
  Crowd crowd(8);
  const auto serial = [](std::size_t n, CharacterRange body) { body(0, n); };
  update_characters(crowd.setup, crowd.characters, 1.0f / 60.0f, serial);
  test::AllocationScope scope;
  for (int f = 0; f < 5; ++f) update_characters(crowd.setup, crowd.characters, 1.0f / 60.0f, serial);
  CHECK(scope.count() == 0);
  for (const Character& c : crowd.characters) CHECK(c.ok);
}

TEST_CASE("character time: advances by rate * dt, wraps, holds on bad dt", "[runtime]") {
  Crowd crowd(1);
  Character& c = crowd.characters[0];
  c.time = 0.9f;
  c.playback_rate = 1.0f;
  REQUIRE(update_character(crowd.setup, c, 0.2f));
  CHECK(c.time == Approx(0.1f).margin(1e-5));
  for (float bad : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    const float before = c.time;
    REQUIRE(update_character(crowd.setup, c, bad));
    CHECK(c.time == before);
    for (const Transform& w : c.world) CHECK(is_finite(w));
  }
}

TEST_CASE("build_character refuses an incomplete or mismatched setup", "[runtime]") {
  Crowd crowd(0);
  CharacterSetup missing = crowd.setup;
  missing.clip = nullptr;
  CHECK_FALSE(build_character(missing, {}).ok());

  const Rig r6 = build_rig(*builtin_rig_desc("r6")).value();
  CharacterSetup other = crowd.setup;
  other.rig = &r6;  // the binding was made for R15
  const Result<Character> bad = build_character(other, {});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message().find("another rig") != std::string::npos);

  ControlDesc broken;
  broken.name = "Broken";
  IkSettings ik;
  ik.chain_root = "NoSuchPart";
  ik.end = "LeftHand";
  broken.settings = ik;
  const Result<Character> bad_control = build_character(crowd.setup, std::vector<ControlDesc>{broken});
  REQUIRE_FALSE(bad_control.ok());
  CHECK(bad_control.message().find("Broken") != std::string::npos);

  // A character updated against the wrong setup writes nothing and says so.
  Result<Character> c = build_character(crowd.setup, {});
  REQUIRE(c.ok());
  Character ch = std::move(c).value();
  CHECK_FALSE(update_character(other, ch, 0.1f));
  CHECK_FALSE(ch.ok);
}
