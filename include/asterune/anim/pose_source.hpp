// PoseSource: what an Animator track plays when it is not a clip (rule GR15): something above
// the animator (an animation graph) that advances by the track's scaled dt and writes a pose
// and coverage. The animator owns none; the source must outlive it. anim knows only this
// interface, so the modules above it (graph) plug in without anim including them.
#pragma once

#include <span>

#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;

class PoseSource {
 public:
  virtual ~PoseSource() = default;
  /// Advances by `dt` seconds (the track's speed applied; 0 when the track does not move) and
  /// writes the motor transforms and coverage (rig.joint_count() each). Returns false (nothing
  /// written) on a wrong rig or span size. Must be allocation-free, no throw, deterministic.
  virtual bool sample_pose(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage) = 0;
};

}  // namespace asterune
