#include "asterune/retarget/rig_source.hpp"

#include "asterune/core/assert.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {
namespace {

Transform rest_local_of(const Rig& rig, int j) {
  const auto u = static_cast<size_t>(j);
  const int p = rig.parent(j);
  const Transform base = p >= 0 ? inverse(rig.c1()[static_cast<size_t>(p)]) : rig.anchor()[u];
  return base * rig.c0()[u];
}

}  // namespace

SourceSkeleton source_skeleton_from_rig(const Rig& rig) {
  SourceSkeleton s;
  s.name = rig.name();
  const int n = rig.joint_count();
  for (int j = 0; j < n; ++j) {
    s.joint_names.push_back(rig.lookup_name(j));
    s.parents.push_back(rig.parent(j));
    s.rest_local.push_back(rest_local_of(rig, j));
  }
  s.end_sites.assign(static_cast<size_t>(n), glm::vec3(0.0f));
  s.units_to_studs = 1.0f;
  return s;
}

bool source_pose_from_rig(const Rig& rig, std::span<const Transform> motor, std::span<Transform> out) {
  const int n = rig.joint_count();
  ASTERUNE_EXPECT_OR_RETURN(motor.size() == static_cast<size_t>(n) && out.size() == static_cast<size_t>(n),
                            "motor and out hold rig.joint_count() entries", false);
  for (int j = 0; j < n; ++j) out[static_cast<size_t>(j)] = rest_local_of(rig, j) * motor[static_cast<size_t>(j)];
  return true;
}

}  // namespace asterune
