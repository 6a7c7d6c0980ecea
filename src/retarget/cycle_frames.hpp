// The source clip sampled on its contact grid, as the cycle search and the cut need it (rules
// LO1-LO4): full locals and skeleton-space placements per frame, the travelling joint and its
// heading (yaw about up, unwrapped). Setup-time only.
#pragma once

#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune::detail {

struct CycleFrames {
  int frames = 0;
  int joints = 0;
  float dt = 0.0f;
  std::vector<Transform> local;  // [f * joints + j]
  std::vector<Transform> world;  // same layout, skeleton space
  std::vector<int> track_of;     // clip track driving joint j, or -1
  int travel = 0;                // the joint carrying the travel (rule RT6)
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  std::vector<float> heading;    // per frame: the travel joint's yaw about up from its rest, radians, unwrapped

  const Transform& l(int f, int j) const { return local[static_cast<size_t>(f * joints + j)]; }
  const Transform& w(int f, int j) const { return world[static_cast<size_t>(f * joints + j)]; }
};

/// Samples `clip` at t = f * dt, f = 0 .. frames - 1 (clamped to the clip's duration).
Result<CycleFrames> sample_cycle_frames(const Clip& clip, const SourceSkeleton& source, int frames, float dt,
                                        const glm::vec3& up);

/// The rotation vector (axis * angle, shortest way) of a unit quaternion, and back.
glm::vec3 rotation_log(const glm::quat& q);
glm::quat rotation_exp(const glm::vec3& v);

/// The turn about `up` by `angle` radians.
inline glm::quat yaw(float angle, const glm::vec3& up) { return glm::angleAxis(angle, up); }

}  // namespace asterune::detail
