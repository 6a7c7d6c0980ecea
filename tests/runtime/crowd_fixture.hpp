// A crowd for the runtime tests: R15 characters on one native clip and a shared slope, with
// controls that differ from character to character, and a bitwise comparison of their results.
// Shared by tests/runtime and tests/concurrency.
#pragma once

#include <cmath>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/controls/ground.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"

namespace asterune::test {

// A native clip on every joint of the rig: rotation keys swinging about a per-joint axis, root
// translation bobbing. Independent of the code under test (plain keys).
inline Clip swing_clip(const Rig& rig) {
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

inline std::vector<ControlDesc> controls_for(int i) {
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
inline bool same(const Character& a, const Character& b) {
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

}  // namespace asterune::test
