// SourceSkeleton: the skeleton a source clip was authored on (a BVH hierarchy, a glTF skin,
// another rig), described the way retargeting needs it (rule RT1): per joint a name, a parent
// index (parents first) and the rest local transform relative to the parent, from which rest
// orientations and rest positions in skeleton space follow.
//
// A sampled source pose holds FULL local transforms (not rest-relative deltas): a joint with
// no track samples to its rest local transform. For BVH, rest local = (OFFSET, identity) and a
// sampled local = (OFFSET or the root's position channels, channel rotation).
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "asterune/math/transform.hpp"

namespace asterune {

struct SourceSkeleton {
  std::string name;
  std::vector<std::string> joint_names;
  std::vector<int> parents;             // -1 for roots; parents[j] < j
  std::vector<Transform> rest_local;    // rest transform relative to the parent joint
  std::vector<glm::vec3> end_sites;     // per joint: BVH End Site offset, or zero when none
  float units_to_studs = 1.0f;          // multiply source lengths by this to get studs
  // Roles the file itself names (role name -> joint name; a VRM humanoid bone map, rule F20):
  // source_roles() lays them over the names and the structure, under explicit overrides.
  std::map<std::string, std::string> roles;

  int joint_count() const { return static_cast<int>(joint_names.size()); }
  /// Index of the joint with this exact name, or -1.
  int find(const std::string& joint_name) const {
    for (size_t j = 0; j < joint_names.size(); ++j)
      if (joint_names[j] == joint_name) return static_cast<int>(j);
    return -1;
  }
};

/// Skeleton-space placements for full local transforms (a sampled pose, or rest_local):
/// world[j] = world[parent] * local[j] with the rotation renormalised; a root is its local.
/// `local` and `world` hold s.joint_count() entries, parents first; otherwise nothing is
/// written. Allocation-free.
inline void source_world(const SourceSkeleton& s, std::span<const Transform> local, std::span<Transform> world) {
  const size_t n = s.parents.size();
  if (local.size() != n || world.size() != n) return;
  for (size_t j = 0; j < n; ++j) {
    const glm::quat q = glm::normalize(local[j].rotation);
    const int p = s.parents[j];
    if (p < 0) {
      world[j] = Transform{q, local[j].position};
    } else {
      const Transform& up = world[static_cast<size_t>(p)];
      world[j] = Transform{glm::normalize(up.rotation * q), up.position + up.rotation * local[j].position};
    }
  }
}

}  // namespace asterune
