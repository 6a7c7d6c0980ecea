#include "asterune/rig/world.hpp"

#include "asterune/core/assert.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {
namespace {

inline Transform place_child(const Transform& parent, const Transform& c0, const Transform& t,
                             const Transform& c1_inverse) {
  return parent * c0 * t * c1_inverse;
}

// One forward walk over the layout range [begin, end); parents come before children.
void evaluate_range(const Rig& rig, const Transform& root, std::span<const Transform> local,
                    std::span<Transform> world, int begin, int end) {
  const auto parents = rig.parents();
  const auto c0 = rig.c0();
  const auto c1_inverse = rig.c1_inverse();
  const auto anchor = rig.anchor();
  for (int i = begin; i < end; ++i) {
    const size_t u = static_cast<size_t>(i);
    const int p = parents[u];
    const Transform parent = p >= 0 ? world[static_cast<size_t>(p)] : root * anchor[u];
    world[u] = place_child(parent, c0[u], local[u], c1_inverse[u]);
  }
}

}  // namespace

static bool pose_sizes_match(const Rig& rig, std::span<const Transform> local, std::span<Transform> world) {
  const size_t n = static_cast<size_t>(rig.joint_count());
  return local.size() == n && world.size() == n;
}

bool evaluate_world_subtree(const Rig& rig, const Transform& root, std::span<const Transform> local,
                            std::span<Transform> world, int j) {
  ASTERUNE_EXPECT_OR_RETURN(pose_sizes_match(rig, local, world) && j >= 0 && j < rig.joint_count(),
                            "local and world hold rig.joint_count() entries and j is a joint", false);
  evaluate_range(rig, root, local, world, j, rig.subtree_end(j));
  return true;
}

bool evaluate_world(const Rig& rig, const Transform& root, std::span<const Transform> local,
                    std::span<Transform> world) {
  ASTERUNE_EXPECT_OR_RETURN(pose_sizes_match(rig, local, world), "local and world hold rig.joint_count() entries",
                            false);
  evaluate_range(rig, root, local, world, 0, rig.joint_count());
  return true;
}

Transform parent_placement(const Rig& rig, const Transform& root, std::span<const Transform> world, int j) {
  const int p = rig.parents()[static_cast<size_t>(j)];
  return p >= 0 ? world[static_cast<size_t>(p)] : root * rig.anchor()[static_cast<size_t>(j)];
}

Transform attachment_frame(const Rig& rig, const Transform& parent_world, int j) {
  return parent_world * rig.c0()[static_cast<size_t>(j)];
}

glm::vec3 joint_pivot(const Rig& rig, std::span<const Transform> world, int j) {
  return transform_point(world[static_cast<size_t>(j)], rig.c1()[static_cast<size_t>(j)].position);
}

glm::quat local_rotation_for_frame(const Rig& rig, const Transform& parent_world, int j, const glm::quat& frame_world) {
  const glm::quat a = parent_world.rotation * rig.c0()[static_cast<size_t>(j)].rotation;
  return glm::normalize(glm::conjugate(a) * frame_world);
}

glm::quat local_rotation_for_part(const Rig& rig, const Transform& parent_world, int j, const glm::quat& part_world) {
  return local_rotation_for_frame(rig, parent_world, j, part_world * rig.c1()[static_cast<size_t>(j)].rotation);
}

Transform local_for_part(const Rig& rig, const Transform& parent_world, int j, const Transform& part_world) {
  const Transform a = attachment_frame(rig, parent_world, j);
  Transform t = inverse(a) * part_world * rig.c1()[static_cast<size_t>(j)];
  t.rotation = glm::normalize(t.rotation);
  return t;
}

bool evaluate_rest_world(const Rig& rig, const Transform& root, std::span<Transform> world) {
  ASTERUNE_EXPECT_OR_RETURN(world.size() == static_cast<size_t>(rig.joint_count()),
                            "world holds rig.joint_count() entries", false);
  const auto parents = rig.parents();
  const auto c0 = rig.c0();
  const auto c1_inverse = rig.c1_inverse();
  const auto anchor = rig.anchor();
  const size_t n = static_cast<size_t>(rig.joint_count());
  for (size_t u = 0; u < n; ++u) {
    const int p = parents[u];
    const Transform parent = p >= 0 ? world[static_cast<size_t>(p)] : root * anchor[u];
    world[u] = parent * c0[u] * c1_inverse[u];
  }
  return true;
}

}  // namespace asterune
