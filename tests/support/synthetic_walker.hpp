// Test fixture: a synthetic R15 walker whose stride and contact timing are known by
// construction, for the warp nodes' tests and BM_LocomotionWarpR15. Framework-free (no test
// framework, no files) so the benchmark builds the same walk.
//
//   period T, root travel D per cycle along -Z (speed D / T), keyed at `keys` frames
//   hips:   left  alpha(t) = A sin(2 pi t / T) about +X (positive: the foot swings forward, -Z)
//           right -alpha(t)
//   knees:  a constant bend of K about -X (the foot behind the knee), so no leg is straight
//   stance: a foot is in stance while its hip angle decreases (it moves back under the body):
//           left t in [T/4, 3T/4], right t in [3T/4, 5T/4]
//
// Works on any rig with the R15 part names (the tests' hand-typed R15 and the built-in one).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/clip.hpp"

namespace asterune::test {

struct WalkerShape {
  float period = 1.0f;            // s
  float travel = 1.6f;            // studs per cycle along -Z
  // Small enough that a stride of twice the length stays within the legs' reach (the back
  // ankle 0.8219 sin 15 + 0.9262 sin 35 = 0.74 studs behind the hip on the R15, 1.49 doubled).
  float hip_amplitude = 0.2617994f;  // 15 degrees
  float knee_bend = 0.3490659f;      // 20 degrees: the leg at 98.5 % of its length
  int keys = 41;
};

/// The left hip's angle at time t (the right's is its negative).
inline float walker_hip_angle(const WalkerShape& s, float t) {
  return s.hip_amplitude * std::sin(6.28318530718f * t / s.period);
}

inline Clip synthetic_walker(const WalkerShape& s = {}) {
  Clip clip;
  clip.name = "SyntheticWalk";
  clip.duration = s.period;
  const glm::vec3 x(1.0f, 0.0f, 0.0f);
  auto track = [&](const std::string& part, auto rotation) {
    ClipTrack t;
    t.name = part;
    for (int k = 0; k < s.keys; ++k) {
      const float time = s.period * static_cast<float>(k) / static_cast<float>(s.keys - 1);
      t.rotation_times.push_back(time);
      t.rotations.push_back(rotation(time));
    }
    clip.tracks.push_back(std::move(t));
  };
  track("LeftUpperLeg", [&](float t) { return glm::angleAxis(walker_hip_angle(s, t), x); });
  track("RightUpperLeg", [&](float t) { return glm::angleAxis(-walker_hip_angle(s, t), x); });
  track("LeftLowerLeg", [&](float) { return glm::angleAxis(-s.knee_bend, x); });
  track("RightLowerLeg", [&](float) { return glm::angleAxis(-s.knee_bend, x); });
  ClipTrack root;
  root.name = "LowerTorso";
  root.rotation_times = {0.0f, s.period};
  root.rotations = {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)};
  root.translation_times = {0.0f, s.period};
  root.translations = {glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -s.travel)};
  clip.tracks.push_back(std::move(root));
  return clip;
}

}  // namespace asterune::test
