// Joint-limit passes of the positional chain solvers (private): the clamp frame, the turn a
// limit suits, the root-to-tip limited pass, and solved orientations turned into deltas.
#pragma once

#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/point_chain.hpp"

namespace asterune::detail {

/// Rotation-invariant clamp frame of joint i: parent orientation (solved) * rest_local[i].
glm::quat limit_frame(const ChainLimits& limits, std::span<const glm::quat> solved, std::size_t i);

/// The world turn that brings `current` (a vector from part i's pivot, carried by the part)
/// toward `desired`, in the motion the part's limit suits. A hinge turns about its axis
/// (frame * limit.axis in world, `frame` = limit_frame()) by the angle between the two
/// vectors' projections on the hinge plane: the shortest arc would be mostly swing, which the
/// hinge drops, so the joint would hardly move. A ball-and-socket takes the shortest arc without
/// its twist about the part's `bone` (its segment in world; nullptr when `current` is the bone,
/// whose arc has no such twist): when `current` reaches past a bent child (CCD's end vector) the
/// arc twists the bone, and twist piled up step after step ends at the twist limit, with the
/// child hinges' planes turned away for good. Twist is left to refine_limited, which knows what
/// it does to the chain. No limit: the shortest arc. Identity when a vector (or a projection)
/// is degenerate.
glm::quat limited_turn(const JointLimit& limit, const glm::quat& frame, const glm::vec3* bone, const glm::vec3& current,
                       const glm::vec3& desired);

/// Root-to-tip pass that rebuilds every part's world orientation from the points in `out`
/// (limited_turn from the parent-carried orientation), clamps it by the joint limit, writes
/// the orientation into orientations_out[i] and re-places out[i+1] from it. Returns true when
/// some limit changed a joint by more than ~0.006 degrees.
bool limited_forward(std::span<const glm::vec3> points, std::span<glm::vec3> out, const ChainLimits& limits,
                     std::span<glm::quat> orientations_out);

/// Converts solved world orientations (in place in `q`) into the incremental delta convention
/// of point_chain.hpp, given the original orientations.
void orientations_to_deltas(std::span<const glm::quat> original, std::span<glm::quat> q);

}  // namespace asterune::detail
