// Rig-bound spring control (rules S1-S9, CS7): binds a SpringSettings to a rig at setup (chain,
// endpoint, colliders, state and scratch sized once), then each frame reads the animated
// pivots and endpoints from the current world pose, steps the pure spring chain
// (asterune/solvers/spring.hpp) from the previous frame's animated pose to this one, and turns
// the simulated endpoints into candidate local transforms (shortest-arc turns about each
// pivot, so the animation's twist is kept; rule S4). It owns its state: the endpoints and
// velocities (rule S1) at its own clock's time (rule S8), the animated inputs at that time, and
// the animated pivot, endpoints and collider shapes of the last two frames (the curve of S9).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "asterune/controls/control.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/solvers/spring.hpp"
#include "controls/bound_target.hpp"

namespace asterune {
class Rig;
}

namespace asterune::detail {

/// A collider bound to the rig: its end points are part-relative targets.
struct BoundSpringCollider {
  BoundTarget a;
  BoundTarget b;  // capsule only (a sphere repeats `a`)
  float radius = 0.0f;
  bool capsule = false;
};

struct SpringControl {
  std::vector<int> joints;     // the chain, root first; joint k carries segment k
  glm::vec3 end_offset{0.0f};  // the last segment's endpoint, in the end part's frame
  SpringParams params;
  SpringPropagator step;       // spring_propagator(params, kSpringStep): the params never change after bind
  std::vector<BoundSpringCollider> colliders;
  // retained between frames (cleared by reset_spring_control)
  bool has_state = false;
  std::vector<glm::vec3> points;      // simulated endpoints (rule S1)
  std::vector<glm::vec3> velocities;  // their velocities (rule S1)
  std::vector<glm::vec3> clock_targets;  // animated endpoints at the spring clock's time (rule S8)
  glm::vec3 clock_root{0.0f};         // animated chain root pivot at the clock's time
  float lag = 0.0f;                   // seconds the clock is behind the last frame (rule S8)
  std::vector<float> lengths;         // segment lengths the state was built for (rule S5)
  glm::vec3 previous_root{0.0f};      // last frame's animated chain root pivot
  std::vector<glm::vec3> previous_targets;
  std::vector<SpringShape> previous_shapes;
  float prior_dt = 0.0f;              // seconds from the frame before the last one to the last (rule S9); 0: none
  glm::vec3 prior_root{0.0f};         // that frame's animated chain root pivot
  std::vector<glm::vec3> prior_targets;
  std::vector<SpringShape> prior_shapes;
  // scratch (sized at bind)
  std::vector<glm::vec3> targets;     // this frame's animated endpoints
  std::vector<glm::vec3> shown;       // the simulated endpoints at this frame's time (rule S8)
  std::vector<float> frame_lengths;   // this frame's animated segment lengths
  std::vector<SpringShape> shapes;    // this frame's collider shapes
  std::vector<glm::vec3> before;      // animated chain points: pivot, then the n endpoints
  std::vector<glm::vec3> after;       // simulated chain points
  std::vector<glm::quat> turns;
};

/// Binds `settings` to `rig`. Fails (message naming `what`) on unresolved or ambiguous names,
/// an end that does not descend from chain_root, nonfinite values, stiffness outside
/// [0, kSpringMaxStiffness], damping outside [0, kSpringMaxDamping], a collider whose radius is
/// not positive or whose part does not resolve or is one of the chain's own parts (a chain is
/// not a collider for itself, rule S7), and a segment of zero length in the rest pose (below
/// 1e-4 studs: it has no direction to swing). Allocates.
Result<SpringControl> build_spring_control(const Rig& rig, const SpringSettings& settings, const std::string& what);

/// Forgets the simulated state and the previous frame (rule CS7): the next frame starts on
/// the animated pose with zero velocity.
void reset_spring_control(SpringControl& control);

/// Per-frame outcome.
struct SpringFrameReport {
  bool ok = false;  // false: nonfinite animated pose; candidates are the current transforms
  int substeps = 0;
  int resets = 0;
};

/// One frame: advances the chain by `dt` on its own clock (rules S3, S8) and writes one candidate per chain joint into
/// `candidates` (size joints.size()). A segment whose animated length changed since the state
/// was built resets the chain (rule S5). Allocation-free, never throws.
SpringFrameReport solve_spring_control(SpringControl& control, const Rig& rig, const Transform& root,
                                       std::span<const Transform> local, std::span<const Transform> world, float dt,
                                       std::span<Transform> candidates);

/// The chain's tip in the current world pose (end part placement * end_offset).
glm::vec3 spring_tip(const SpringControl& control, std::span<const Transform> world);

}  // namespace asterune::detail
