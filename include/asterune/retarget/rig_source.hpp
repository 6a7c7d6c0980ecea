// A Motor6D rig seen as a retarget source: lets a clip authored on one rig drive another rig
// (or the same rig, as a check) through the rest-space retargeter. The source joint frame of
// rig joint j is its joint frame J_j = P_j * C0_j * T_j, so relative to the parent joint's
// frame the full local transform is inverse(C1_parent) * C0_j * T_j.
#pragma once

#include <optional>
#include <span>

#include "asterune/clip/clip.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {

class Rig;

/// One source joint per rig joint, in layout order, named by child part name (parent-qualified
/// "Parent/Child" when the plain name is shared). rest_local = inverse(C1_parent) * C0 (or
/// anchor * C0 for joints without a parent index); units_to_studs = 1.
SourceSkeleton source_skeleton_from_rig(const Rig& rig);

/// Gives every joint with no child joint an end site at the bottom centre of its child part's box
/// (the part's -Y face; a part without a size keeps a zero end site), so a rig used as a clip's
/// source (rule RT15) has feet and hands that reach to the end of their parts: an R6 leg then
/// measures 2 studs from the hip pivot for scale "auto", as the rig itself does.
void add_part_end_sites(const Rig& rig, SourceSkeleton& skeleton);

/// Full source locals for a rig pose: out[j] = inverse(C1_parent) * C0_j * T_j. Allocation-free.
/// `motor` and `out` must hold rig.joint_count() entries and must not alias; otherwise nothing
/// is written and false is returned (rule RG4).
bool source_pose_from_rig(const Rig& rig, std::span<const Transform> motor, std::span<Transform> out);

/// A clip of motor transforms T keyed by the rig's joint names (a KeyframeSequence) as a clip of
/// full source locals for source_skeleton_from_rig(rig) (rule RT15): each key becomes
/// rest_local_j * T (rotation keys and their tangents turned by the rest rotation, translation keys
/// moved to the rest offset). Tracks naming no joint of the rig are dropped.
Clip clip_as_rig_source(const Clip& clip, const Rig& rig);

/// Rule F28: a clip of part-node locals (our own glTF export read back, gltf_writer.hpp: a node
/// per part, local = inverse(part0 placement) * part1 placement = C0 * T * inverse(C1)) as motor
/// transforms T keyed by the rig's joint names, when `skeleton` is that rig's part tree: every
/// joint's child part is a skeleton joint whose parent is its part0's node (the root part's for
/// a joint hanging off it), and no joint is disconnected. Rotation keys and their tangents map
/// exactly (T = inverse(C0) * L * C1 is linear in the 4-vector); T's position depends on L's
/// rotation through C1's offset, so it is keyed at the track's rotation and translation times
/// as a cubic spline with the exact value and one-sided slopes there. nullopt when the skeleton
/// is not the rig's part tree (the clip then retargets).
std::optional<Clip> clip_from_part_nodes(const Clip& clip, const SourceSkeleton& skeleton, const Rig& rig);

}  // namespace asterune
