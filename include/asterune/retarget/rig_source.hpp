// A Motor6D rig seen as a retarget source: lets a clip authored on one rig drive another rig
// (or the same rig, as a check) through the rest-space retargeter. The source joint frame of
// rig joint j is its joint frame J_j = P_j * C0_j * T_j, so relative to the parent joint's
// frame the full local transform is inverse(C1_parent) * C0_j * T_j.
#pragma once

#include <span>

#include "asterune/math/transform.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {

class Rig;

/// One source joint per rig joint, in layout order, named by child part name (parent-qualified
/// "Parent/Child" when the plain name is shared). rest_local = inverse(C1_parent) * C0 (or
/// anchor * C0 for joints without a parent index); units_to_studs = 1.
SourceSkeleton source_skeleton_from_rig(const Rig& rig);

/// Full source locals for a rig pose: out[j] = inverse(C1_parent) * C0_j * T_j. Allocation-free.
/// `motor` and `out` must hold rig.joint_count() entries and must not alias; otherwise nothing
/// is written and false is returned (rule RG4).
bool source_pose_from_rig(const Rig& rig, std::span<const Transform> motor, std::span<Transform> out);

}  // namespace asterune
