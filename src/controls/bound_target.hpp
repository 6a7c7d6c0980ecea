// Internal: a Target checked and bound to a rig (the part name resolved to the joint that
// places it), and its per-frame evaluation. Built by the ControlStack at setup.
#pragma once

#include <span>
#include <string>

#include "asterune/controls/target.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {
class Rig;
}

namespace asterune::detail {

struct BoundTarget {
  Target target;
  int part_joint = -1;  ///< kPart: the joint placing the part, or -1 for the root part
};

/// Checks `target` against `rig`: finite values; a nonempty path with nondecreasing times; a
/// part name that the rig resolves (rule R6: ambiguous names are refused) or that names the
/// root part. `what` names the item in the message (e.g. "control 'Reach' target"). Allocates.
Result<BoundTarget> build_bound_target(const Target& target, const Rig& rig, const std::string& what);

/// The world point of `bound` at scene time `time`, reading part placements from `world`
/// (child-part placements in layout order) and the root placement. A path with a nonfinite
/// time gives its first key. A nonfinite result is returned as is: callers test it with
/// is_finite(). Allocation-free, never throws.
glm::vec3 evaluate_target(const BoundTarget& bound, const Transform& root, std::span<const Transform> world,
                          float time);

}  // namespace asterune::detail
