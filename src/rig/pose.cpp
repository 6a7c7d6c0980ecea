#include "asterune/rig/pose.hpp"

#include <algorithm>

#include "asterune/rig/rig.hpp"

namespace asterune {

Pose make_pose(const Rig& rig) {
  Pose pose;
  pose.local.assign(static_cast<size_t>(rig.joint_count()), Transform::identity());
  pose.coverage.assign(static_cast<size_t>(rig.joint_count()), 0.0f);
  return pose;
}

void reset_pose(std::span<Transform> local, std::span<float> coverage) {
  std::fill(local.begin(), local.end(), Transform::identity());
  std::fill(coverage.begin(), coverage.end(), 0.0f);
}

}  // namespace asterune
