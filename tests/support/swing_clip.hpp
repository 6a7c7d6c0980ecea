// Test fixture: a synthetic clip keying every joint of a rig with a rotation that swings with
// time, and optionally a travelling root. Tests that only need "some motion on every joint"
// (animator composition, snapshots, threads, the graph benchmark) share it, so their clips
// differ by parameters, not by hand-copied loops. No files; header-only.
#pragma once

#include <cmath>
#include <string>
#include <utility>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/clip.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::test {

struct SwingSpec {
  float amplitude = 0.5f;    // radians at the swing's peak
  float length = 1.0f;       // seconds
  int keys = 13;             // rotation keys per joint, the first at 0 and the last at `length`
  float phase = 0.0f;        // added to every joint's swing angle (and tilts the axes below)
  bool tilted_axes = false;  // false: every joint swings about X; true: a per-joint axis
  glm::vec3 root_travel{0.0f};  // the root's translation at `length`, linear from 0
};

/// Joint j's rotation at key k (u = k / (keys - 1)) is amplitude * sin(2 pi u + phase + j)
/// about its axis; markers are the caller's.
inline Clip swing_clip(const Rig& rig, const std::string& name, const SwingSpec& spec) {
  Clip clip;
  clip.name = name;
  clip.duration = spec.length;
  for (int j = 0; j < rig.joint_count(); ++j) {
    ClipTrack t;
    t.name = rig.child_name(j);
    const float fj = static_cast<float>(j);
    const glm::vec3 axis = spec.tilted_axes
                               ? glm::normalize(glm::vec3(1.0f, 0.3f * static_cast<float>(j % 5), spec.phase - 0.1f * fj))
                               : glm::vec3(1.0f, 0.0f, 0.0f);
    for (int k = 0; k < spec.keys; ++k) {
      const float u = static_cast<float>(k) / static_cast<float>(spec.keys - 1);
      t.rotation_times.push_back(spec.length * u);
      t.rotations.push_back(glm::angleAxis(spec.amplitude * std::sin(6.2831853f * u + spec.phase + fj), axis));
    }
    if (j == 0 && spec.root_travel != glm::vec3(0.0f)) {
      t.translation_times = {0.0f, spec.length};
      t.translations = {glm::vec3(0.0f), spec.root_travel};
    }
    clip.tracks.push_back(std::move(t));
  }
  return clip;
}

}  // namespace asterune::test
