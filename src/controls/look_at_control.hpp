// Rig-bound look-at control (rule LA1-LA3): binds a LookAtSettings to a rig at setup (chain,
// end part, rest facing in root space, per-joint weights, scratch), then each frame reads the
// current world pose, converts pivots, eye, facing and target into ROOT space, calls the pure
// solve_look_at() and turns its root-space turns into candidate local transforms (R8).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "asterune/controls/control.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/solvers/look_at.hpp"
#include "solvers/look_at_measure.hpp"

namespace asterune {
class Rig;
}

namespace asterune::detail {

/// Seed 003 TrackLookAngle state, per angle (yaw, pitch relative to the rest facing): the
/// goal `g` moves toward the wanted angle at the tracking speed; with easing the gaze `x`
/// follows g as a critically damped spring (omega = 2 / ease_time), integrated exactly
/// for a goal moving at constant speed, so the result does not depend on the frame rate.
struct GazeTrack {
  bool active = false;
  glm::vec2 gaze{0.0f};      // x: the angles the look-at turns to (radians)
  glm::vec2 goal{0.0f};      // g
  glm::vec2 velocity{0.0f};  // dx/dt (rad/s)
};

/// Bound look-at state: immutable after bind except the tracking state and scratch buffers.
struct LookAtControl {
  std::vector<int> joints;       // chain, root first
  std::vector<float> weights;    // one per joint
  int end_joint = -1;            // joint placing the end part (= joints.back())
  glm::vec3 forward{0.0f, 0.0f, -1.0f};  // unit, end part frame
  glm::vec3 eye_offset{0.0f};    // end part frame
  LookAtParams params;           // rest facing in root space, limits in radians
  LookAtFrame frame;             // params prepared once at bind (prepare_look_at)
  float rest_pitch = 0.0f;       // absolute pitch of the rest facing (radians)
  glm::vec3 basis_forward{0.0f, 0.0f, -1.0f};  // rest facing projected off params.up (unit)
  glm::vec3 basis_side{1.0f, 0.0f, 0.0f};      // up x basis_forward: +yaw side
  float tracking_speed = 0.0f;   // rad/s; 0 = no tracking (the gaze jumps to the target)
  bool easing = true;
  float ease_time = 0.25f;       // seconds
  GazeTrack track;               // retained (reset_look_at_control clears it)
  // scratch (sized at bind)
  std::vector<glm::vec3> pivots;
  std::vector<glm::quat> turns;
  std::vector<glm::quat> world_turns;
};

/// Binds `settings` to `rig`. Fails on unresolved or ambiguous names, an end that does not
/// descend from chain_root, a zero or nonfinite forward axis, a nonfinite eye_offset,
/// nonfinite or negative limits, tracking speed or ease time, or a weight list whose length
/// differs from the chain's joint count. Allocates.
Result<LookAtControl> build_look_at_control(const Rig& rig, const LookAtSettings& settings, const std::string& what);

/// Forgets the tracked gaze (rule CS7).
void reset_look_at_control(LookAtControl& control);

/// True while a tracking look-at has a gaze to ease back from (tracking on and active).
bool look_at_releasing(const LookAtControl& control);

/// One solve: writes a candidate local transform per chain joint into `candidates` (size =
/// joints.size()). `target` nullptr: no target (cleared or disabled), so a tracking look-at
/// eases its gaze back to the animated facing. `dt`: seconds since the previous solve (<= 0
/// or NaN: the gaze holds still). Returns false when there is nothing to do: no target and
/// no tracking, or the release is home (the gaze is within 1e-3 rad of the animated facing
/// and nearly at rest), or invalid input; candidates are then the current transforms.
/// Allocation-free, never throws.
bool solve_look_at_control(LookAtControl& control, const Rig& rig, const Transform& root,
                           std::span<const Transform> local, std::span<const Transform> world,
                           const glm::vec3* target, float dt, std::span<Transform> candidates);

/// The gaze report of the current pose (after blending), without changing anything: what
/// measure_look_at() gives for it but the yaw and pitch (the stack reports none).
LookAtResidual measure_look_at_control(const LookAtControl& control, const Transform& root,
                                       std::span<const Transform> world, const glm::vec3& target);

/// Advances one tracked angle by dt (seed 003 TrackLookAngle, see GazeTrack). `wrap`: the
/// angle is a yaw, moved the short way round and kept canonical. Exposed for tests.
void track_angle(float& gaze, float& goal, float& velocity, float wanted, float speed, float dt, bool easing,
                 float ease_time, bool wrap);

}  // namespace asterune::detail
