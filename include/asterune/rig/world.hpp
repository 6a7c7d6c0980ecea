// World evaluation: the forward walk that places every part of a rig from a root placement
// and a pose (rule R1, R2), plus the frame helpers a solver needs to go back from a desired
// world orientation to a joint's local transform T (rule R8).
//
// Frames of joint j, with P the placement of its parent part (part0):
//   attachment frame (before T)  A = P * C0
//   joint frame (after T)        J = P * C0 * T          (its origin is the joint pivot)
//   child part placement         W = P * C0 * T * inverse(C1)
// All functions here are allocation-free, never throw, and touch only caller-owned spans.
#pragma once

#include <span>

#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;

/// Writes the world placement of every joint's child part (part1) into `world`, in layout
/// order. `local` and `world` must both hold rig.joint_count() entries; `world` must not alias
/// `local`. Joints without a parent index take their part0 from `root * rig.anchor()[j]`.
/// Wrong sizes (rule RG4): nothing is written and false is returned. No allocation.
bool evaluate_world(const Rig& rig, const Transform& root, std::span<const Transform> local,
                    std::span<Transform> world);

/// Re-evaluates only joint j and its descendants (the layout range [j, subtree_end(j))),
/// for use after a change to local[j]; the rest of `world` must already be current.
/// Wrong sizes or j out of range (rule RG4): nothing is written and false is returned.
bool evaluate_world_subtree(const Rig& rig, const Transform& root, std::span<const Transform> local,
                            std::span<Transform> world, int j);

/// Placement of joint j's parent part (part0), given current world placements.
Transform parent_placement(const Rig& rig, const Transform& root, std::span<const Transform> world, int j);

/// A = P * C0: joint j's attachment frame in world, before its animated transform.
Transform attachment_frame(const Rig& rig, const Transform& parent_world, int j);

/// World position of joint j's pivot: the origin of P * C0 * T, which equals W * C1's origin.
glm::vec3 joint_pivot(const Rig& rig, std::span<const Transform> world, int j);

/// Local rotation of T that makes joint j's child part take world rotation `part_world`,
/// with the parent part at `parent_world`: (P C0)^-1 * part_world * C1 (rotations only).
glm::quat local_rotation_for_part(const Rig& rig, const Transform& parent_world, int j,
                                  const glm::quat& part_world);

/// Local rotation of T that makes the joint frame P * C0 * T take world rotation `frame_world`.
glm::quat local_rotation_for_frame(const Rig& rig, const Transform& parent_world, int j,
                                   const glm::quat& frame_world);

/// The local T (rotation and translation) that places joint j's child part exactly at
/// `part_world`: T = (P C0)^-1 * part_world * C1.
Transform local_for_part(const Rig& rig, const Transform& parent_world, int j, const Transform& part_world);

/// Rest world placements (T = identity) of every child part with the root at `root`.
/// `world` must hold rig.joint_count() entries; otherwise nothing is written and false is
/// returned (rule RG4).
bool evaluate_rest_world(const Rig& rig, const Transform& root, std::span<Transform> world);

}  // namespace asterune
