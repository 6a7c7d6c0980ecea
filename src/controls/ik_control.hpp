// Rig-bound IK control (rule IK1, IK2, IK5, IK7, R8): binds an IkSettings to a rig at setup
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
#include "asterune/solvers/point_chain.hpp"
#include "asterune/solvers/solve_report.hpp"
#include "asterune/solvers/two_bone.hpp"

namespace asterune {
class Rig;
}

namespace asterune::detail {

/// The solver actually used after the IK2 rule was applied at bind time.
enum class BoundIkSolver { kAim, kTwoBone, kFabrik, kCcd };

/// A reach window bound to the rig (angles in radians, axes unit, in the root part's frame).
struct BoundReachWindow {
  glm::vec3 forward{0.0f, 0.0f, -1.0f};
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  glm::vec3 outward{1.0f, 0.0f, 0.0f};  // forward x up mirrored by the side
  float up_limit = 0.0f, across_limit = 0.0f, behind_limit = 0.0f, falloff = 0.0f;
};

struct BoundCharacterPole {
  glm::vec3 base{0.0f, 0.0f, 1.0f};     // back turned toward outward (unit, root frame)
  glm::vec3 outward{1.0f, 0.0f, 0.0f};  // unit, root frame
  float slide_sine = 0.5f;              // sine of slide_deg
};

struct IkControl {
  std::vector<int> joints;    // the whole chain, root first; joints.back() places the end part
  int segments = 0;           // joints that take part in the positional solve (a prefix of joints)
  BoundIkSolver solver = BoundIkSolver::kAim;
  glm::vec3 end_offset{0.0f}; // in the end part's frame
  /// True when end_offset was taken as the end joint's own pivot (within pivot_snap_tolerance):
  /// the last zero-length segment is dropped and the solve reaches with the pivot itself.
  bool endpoint_is_pivot = false;
  float pivot_snap_tolerance = 0.0f;  // studs: kPivotSnapRelative * the chain's last bone length
  bool position_goal = true;
  bool has_orientation_goal = false;
  glm::quat orientation_goal{1.0f, 0.0f, 0.0f, 0.0f};
  // settings (bound)
  TwoBoneSettings two_bone;   // soft reach, stretch, tolerance, max_extension (max_bend_turn set per frame)
  ChainSettings chain;        // tolerance, max_passes
  float soft_reach = 0.0f;
  float max_extension = 0.0f;
  float pole_turn_rate = 0.0f;  // rad/s; <= 0: unlimited
  bool stretch_moves_end_joint = false;  // two-bone stretch also moves joints[2] (the end joint)
  bool has_limits = false;
  std::vector<JointLimit> limits;      // one per positional segment
  std::vector<glm::quat> rest_local;   // one per positional segment: rotation(C0 * inverse(C1))
  bool has_window = false;
  BoundReachWindow window;
  bool has_character_pole = false;
  BoundCharacterPole character_pole;
  // retained between frames (cleared by reset_ik_control)
  glm::vec3 previous_bend{0.0f};
  // last solve (read by the report)
  float stretch_used = 1.0f;
  float reach_weight = 1.0f;
  SolveReport last;
  // scratch (sized at bind)
  std::vector<glm::vec3> points;
  std::vector<glm::vec3> solved;
  std::vector<glm::quat> deltas;  // one per positional segment
  std::vector<glm::quat> turns;   // one per chain joint
  std::vector<glm::quat> orientations;  // limits: current world orientation per positional segment
};

/// Binds `settings` to `rig` (rule IK1, IK2, IK8). The chain runs from the joint placing
/// chain_root to the joint placing end. The positional points are the chain's joint pivots
/// plus the endpoint (end part placement * end_offset); when end_offset IS the end joint's
/// own pivot (it equals that joint's C1 position within kPivotSnapRelative of the last bone,
/// e.g. an ankle pivot given in the foot's frame to 4 digits) that zero-length last segment is
/// left out (IkControl::endpoint_is_pivot says so), so the end joint only takes the
/// orientation goal. Solver by segment count: 1 aims, 2 two-bone (FABRIK with joint limits),
/// more FABRIK; `kCcd` forces CCD; `kTwoBone` on a chain that is not two segments or with
/// limits, or `kFabrik` on one segment, fails. Also fails on unresolved names, a
/// non-descending end, nonfinite offsets or goals, a control with neither a position nor an
/// orientation goal, settings out of range (soft_reach outside [0, 1), stretch < 1 or without
/// two-bone and soft reach, max_extension outside [0, 1), max_passes outside 1..64, tolerance
/// < 0), a limit on a part outside the positional chain, both a pole and a character pole.
/// Allocates.
Result<IkControl> build_ik_control(const Rig& rig, const IkSettings& settings, const std::string& what);

/// Forgets the retained bend direction (rule CS7).
void reset_ik_control(IkControl& control);

/// One solve toward world point `target` with an optional world `pole` (nullptr: none), `dt`
/// seconds after the previous one (for the pole turn rate). Writes one candidate per chain
/// joint into `candidates` (size joints.size()); a joint the solve leaves alone gets its
/// current transform bit for bit. Sets control.reach_weight (reach window fade, 1 without
/// one), control.stretch_used and control.last. Returns the solver's report (residual -1
/// when nothing was solved). Allocation-free, never throws.
SolveReport solve_ik_control(IkControl& control, const Rig& rig, const Transform& root,
                             std::span<const Transform> local, std::span<const Transform> world,
                             const glm::vec3& target, const glm::vec3* pole, float dt, std::span<Transform> candidates);

/// Endpoint of the chain in the current world pose (end part placement * end_offset).
glm::vec3 ik_endpoint(const IkControl& control, std::span<const Transform> world);

/// Seed 003 L11 reach window fade for a reach direction `dir` (root frame, need not be unit):
/// 1 inside the window, 1 - smoothstep(excess / falloff) outside, where excess = max(azimuth
/// excess * sin(elevation), elevation - up_limit) (radians). Nonfinite or zero dir: 1.
float reach_window_weight(const BoundReachWindow& window, const glm::vec3& dir);

/// Seed 003 L11 character-frame pole direction (root frame, unit) for reach direction `aim`.
glm::vec3 character_pole_direction(const BoundCharacterPole& pole, const glm::vec3& aim);

}  // namespace asterune::detail
