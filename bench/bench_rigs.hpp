// Rigs and clips shared by the benchmark programs: a 60-joint humanoid tree (the shape of the
// project's speed goals and of the yardstick in ../shared/perf), a clip for it, and the CMU
// motion-capture clip with its automatic retarget profile onto R15.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/formats/bvh.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::bench {

/// A 60-joint humanoid: 4-joint spine, neck, head, jaw, two eyes, two arms of clavicle, upper
/// arm, forearm, hand and 5 three-joint fingers, two legs of thigh, shin, foot, toe, toe tip, and
/// a 3-joint tail. C0 carries the offsets (rotated for clavicles and fingers); C1 the part
/// origin offsets, translation-only as in Roblox's R15.
inline RigDesc humanoid60_desc() {
  RigDesc d;
  d.name = "humanoid60";
  d.root = "Root";
  d.parts.push_back({"Root", "Root", {2, 2, 1}, {}});
  auto joint = [&](const std::string& parent, const std::string& child, glm::vec3 c0, glm::quat c0_rot,
                   glm::vec3 c1) {
    d.parts.push_back({child, child, {1, 1, 1}, {}});
    d.joints.push_back({child + "Joint", parent, child, Transform{c0_rot, c0}, Transform::from_position(c1), true});
  };
  const glm::quat none(1, 0, 0, 0);
  joint("Root", "Hips", {0, -0.2f, 0}, none, {0, 0.1f, 0});
  joint("Hips", "Spine1", {0, 0.2f, 0}, none, {0, -0.2f, 0});
  joint("Spine1", "Spine2", {0, 0.25f, 0}, none, {0, -0.2f, 0});
  joint("Spine2", "Chest", {0, 0.25f, 0}, none, {0, -0.3f, 0});
  joint("Chest", "Neck", {0, 0.4f, 0}, none, {0, -0.1f, 0});
  joint("Neck", "Head", {0, 0.15f, 0}, none, {0, -0.4f, 0});
  joint("Head", "Jaw", {0, -0.1f, -0.15f}, none, {0, 0.05f, 0.1f});
  joint("Head", "LeftEye", {-0.12f, 0.1f, -0.3f}, none, {0, 0, 0});
  joint("Head", "RightEye", {0.12f, 0.1f, -0.3f}, none, {0, 0, 0});
  for (int side = 0; side < 2; ++side) {
    const float s = side == 0 ? -1.0f : 1.0f;
    const std::string n = side == 0 ? "Left" : "Right";
    joint("Chest", n + "Clavicle", {s * 0.2f, 0.3f, 0}, glm::angleAxis(s * 0.2f, glm::vec3(0, 0, 1)), {-s * 0.2f, 0, 0});
    joint(n + "Clavicle", n + "UpperArm", {s * 0.25f, 0, 0}, none, {0, 0.4f, 0});
    joint(n + "UpperArm", n + "LowerArm", {0, -0.35f, 0}, none, {0, 0.3f, 0});
    joint(n + "LowerArm", n + "Hand", {0, -0.3f, 0}, none, {0, 0.1f, 0});
    const char* fingers[] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
    for (int f = 0; f < 5; ++f) {
      const std::string base = n + fingers[f];
      const float x = 0.04f * static_cast<float>(f - 2);
      joint(n + "Hand", base + "1", {x, -0.1f, 0}, glm::angleAxis(0.15f * static_cast<float>(f - 2), glm::vec3(0, 0, 1)),
            {0, 0.03f, 0});
      joint(base + "1", base + "2", {0, -0.04f, 0}, none, {0, 0.02f, 0});
      joint(base + "2", base + "3", {0, -0.03f, 0}, none, {0, 0.015f, 0});
    }
  }
  for (int side = 0; side < 2; ++side) {
    const float s = side == 0 ? -1.0f : 1.0f;
    const std::string n = side == 0 ? "Left" : "Right";
    joint("Hips", n + "UpperLeg", {s * 0.25f, -0.1f, 0}, none, {0, 0.45f, 0});
    joint(n + "UpperLeg", n + "LowerLeg", {0, -0.45f, 0}, none, {0, 0.4f, 0});
    joint(n + "LowerLeg", n + "Foot", {0, -0.5f, 0}, none, {0, 0.1f, 0.05f});
    joint(n + "Foot", n + "Toe", {0, -0.1f, -0.2f}, none, {0, 0, 0.05f});
    joint(n + "Toe", n + "ToeTip", {0, 0, -0.08f}, none, {0, 0, 0});
  }
  joint("Hips", "Tail1", {0, -0.1f, 0.2f}, none, {0, 0, -0.15f});
  joint("Tail1", "Tail2", {0, 0, 0.15f}, none, {0, 0, -0.15f});
  joint("Tail2", "Tail3", {0, 0, 0.15f}, none, {0, 0, -0.15f});
  return d;
}

inline Rig build_or_die(const RigDesc& desc) {
  Result<Rig> rig = build_rig(desc);
  if (!rig) {
    std::fprintf(stderr, "bench rig %s: %s\n", desc.name.c_str(), rig.message().c_str());
    std::abort();
  }
  return std::move(rig).value();
}

/// A clip for `rig` in the shape of ozz's sampling benchmark: every joint has a rotation and a
/// translation track of `keys` keys spread evenly over `duration` seconds; consecutive rotation
/// keys are `step_deg` degrees apart (about a per-joint axis, swinging back and forth).
inline Clip swing_clip(const Rig& rig, int keys, float duration, float step_deg) {
  Clip clip;
  clip.name = "swing";
  clip.duration = duration;
  for (int j = 0; j < rig.joint_count(); ++j) {
    ClipTrack track;
    track.name = rig.child_name(j);
    const glm::vec3 axis = glm::normalize(glm::vec3(1.0f, 0.3f * static_cast<float>(j % 5), 0.5f - 0.1f * static_cast<float>(j % 3)));
    for (int k = 0; k < keys; ++k) {
      const float t = duration * static_cast<float>(k) / static_cast<float>(keys - 1);
      const int phase = (k + j) % 8;  // up 4 steps, down 4 steps
      const float steps = static_cast<float>(phase < 4 ? phase : 8 - phase);
      track.rotation_times.push_back(t);
      track.rotations.push_back(glm::angleAxis(glm::radians(step_deg) * steps, axis));
      track.translation_times.push_back(t);
      track.translations.emplace_back(0.0f, 0.01f * steps, 0.0f);
    }
    clip.tracks.push_back(track);
  }
  return clip;
}

/// tests/data/bvh/cmu_49_04_run_leap.bvh (31 joints) in studs; exits with the reason on failure.
inline io::BvhFile load_cmu_or_die() {
  auto b = io::load_bvh(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_49_04_run_leap.bvh");
  if (!b) {
    std::fprintf(stderr, "%s\n", b.message().c_str());
    std::exit(1);
  }
  io::BvhFile bvh = std::move(b).value();
  bvh.skeleton.units_to_studs = io::kCmuUnitsToStuds;
  return bvh;
}

/// The automatic humanoid profile from the CMU skeleton to `rig`, with auto scale and rest on
/// the ground (the setup of the retarget and character benchmarks).
inline RetargetProfile cmu_profile(const io::BvhFile& bvh, const Rig& rig) {
  AutoProfileOptions opt;
  opt.auto_scale = true;
  opt.rest_on_ground = true;
  return build_auto_profile(bvh.skeleton, rig, opt).value();
}

}  // namespace asterune::bench
