// Pose: the per-character animated state of a rig, one local transform T and one coverage
// weight per joint in layout order (rule P1). Coverage says how much of that joint some
// contribution (a clip, a retarget, a control) has set; a joint nothing touched has 0.
// A Pose is sized once at setup; per-frame code only writes into its spans.
#pragma once

#include <span>
#include <vector>

#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;

struct Pose {
  std::vector<Transform> local;  // the Motor6D transform T of each joint
  std::vector<float> coverage;   // in [0, 1]

  int size() const { return static_cast<int>(local.size()); }
  std::span<Transform> local_span() { return local; }
  std::span<const Transform> local_span() const { return local; }
  std::span<float> coverage_span() { return coverage; }
  std::span<const float> coverage_span() const { return coverage; }
};

/// A rest pose for `rig`: identity T and coverage 0 on every joint. Allocates (setup only).
Pose make_pose(const Rig& rig);

/// Resets every joint to identity with coverage 0, without allocating.
void reset_pose(std::span<Transform> local, std::span<float> coverage);

}  // namespace asterune
