// Rig-bound IK control (SPEC IK1, IK2, IK5, IK7, R8): binds an IkSettings to a rig at setup
// (chain, solver choice, scratch), then each frame reads the chain's pivots and endpoint from
// the current world pose, calls a pure solver (two-bone, FABRIK, CCD, or a one-segment aim),
// applies the optional end orientation goal, and converts the solver's world deltas into
// candidate local transforms through the parent and attachment frames. It retains the last
// bend direction (fed back to the two-bone solver for continuity); reset() forgets it.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "asterune/controls/control.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/solvers/solve_report.hpp"

namespace asterune {
class Rig;
}

namespace asterune::detail {

/// The solver actually used after the IK2 rule was applied at bind time.
enum class BoundIkSolver { kAim, kTwoBone, kFabrik, kCcd };

struct IkControl {
  std::vector<int> joints;    // the whole chain, root first; joints.back() places the end part
  int segments = 0;           // joints that take part in the positional solve (a prefix of joints)
  BoundIkSolver solver = BoundIkSolver::kAim;
  glm::vec3 end_offset{0.0f}; // in the end part's frame
  bool position_goal = true;
  bool has_orientation_goal = false;
  glm::quat orientation_goal{1.0f, 0.0f, 0.0f, 0.0f};
  // retained between frames (cleared by reset_ik_control)
  glm::vec3 previous_bend{0.0f};
  // scratch (sized at bind)
  std::vector<glm::vec3> points;
  std::vector<glm::vec3> solved;
  std::vector<glm::quat> deltas;  // one per positional segment
  std::vector<glm::quat> turns;   // one per chain joint
};

/// Binds `settings` to `rig` (SPEC IK1, IK2). The chain runs from the joint placing
/// chain_root to the joint placing end. The positional points are the chain's joint pivots
/// plus the endpoint (end part placement * end_offset); when end_offset IS the end joint's
/// own pivot (it equals that joint's C1 position, e.g. an ankle pivot given in the foot's
/// frame) that zero-length last segment is left out, so the end joint only takes the
/// orientation goal. Solver by segment count: 1 aims, 2 two-bone, more FABRIK; `kCcd` forces
/// CCD; `kTwoBone` on a chain that is not two segments, or `kFabrik` on one segment, fails.
/// Also fails on unresolved names, a non-descending end, nonfinite offsets or goals, a
/// control with neither a position nor an orientation goal. Allocates.
Result<IkControl> build_ik_control(const Rig& rig, const IkSettings& settings, const std::string& what);

/// Forgets the retained bend direction (SPEC CS7).
void reset_ik_control(IkControl& control);

/// One solve toward world point `target` with an optional world `pole` (nullptr: none).
/// Writes one candidate per chain joint into `candidates` (size joints.size()); a joint the
/// solve leaves alone gets its current transform bit for bit. Returns the solver's report
/// (residual -1 when nothing was solved). Allocation-free, never throws.
SolveReport solve_ik_control(IkControl& control, const Rig& rig, const Transform& root,
                             std::span<const Transform> local, std::span<const Transform> world,
                             const glm::vec3& target, const glm::vec3* pole, std::span<Transform> candidates);

/// Endpoint of the chain in the current world pose (end part placement * end_offset).
glm::vec3 ik_endpoint(const IkControl& control, std::span<const Transform> world);

}  // namespace asterune::detail
