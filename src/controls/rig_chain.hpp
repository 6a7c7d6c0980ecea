// Internal: joint chains for rig-bound controls. Resolving "from the joint placing part A down to the
// joint placing part B" at setup, and turning world-space rotations chosen by a solver back
// into local motor transforms T through each parent and attachment frame (rule R8, IK5).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {
class Rig;
}

namespace asterune::detail {

/// Layout indexes of the chain's joints, root first: the joint placing `chain_root` (a part
/// name, resolved with Rig::find_joint), then each child down to the joint placing `end`.
/// Fails when a name does not resolve, is ambiguous, or `end` does not descend from
/// `chain_root`. Each joint's rig.parent() is the joint before it. Allocates (setup only).
Result<std::vector<int>> resolve_chain(const Rig& rig, const std::string& chain_root, const std::string& end,
                                       const std::string& what);

/// Candidate local transforms for a chain after world-space turns.
///
/// turns[k] is the world rotation joint k applies about its own pivot AFTER the turns of the
/// joints above it have carried it (a solver's per-joint turns, parent first). Joint k's
/// new frame is turns[k] * (its carried frame), so with A' = new P * C0 (the attachment frame
/// rebuilt from the previous candidates) the new T rotation is A'^-1 * turns[k] * A' * T.
/// An exact identity turn leaves T bit-identical (a joint carried by its parent keeps T);
/// the translation of T is always kept. `world` holds the current child-part placements,
/// `local` the current transforms; out[k] receives joint k's candidate.
/// Allocation-free; never throws.
void candidates_from_turns(const Rig& rig, const Transform& root, std::span<const Transform> local,
                           std::span<const Transform> world, std::span<const int> joints,
                           std::span<const glm::quat> turns, std::span<Transform> out);

}  // namespace asterune::detail
