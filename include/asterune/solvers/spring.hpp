// Spring chains (rules S1-S7) as a pure function on caller spans: a chain of n segments, each
// with a retained endpoint and velocity, is stepped toward its animated endpoints over one
// frame. Geometry in, points out; no rig, no allocation, no exceptions. The rig-bound control
// (src/controls/spring_control.hpp) reads the points from the pose and turns the result into
// joint rotations. docs/springs.md explains the integrator, the substeps, resets and colliders.
//
// Chain layout (as point_chain.hpp): segment k runs from its pivot to its endpoint. The pivot
// of segment 0 is the chain root's joint pivot (animated, moves with the character); the pivot
// of segment k > 0 is the already-solved endpoint of segment k - 1 (rule S2).
//
// One frame, with dt clamped to 0.05 s and split into n = min(8, ceil(dt * 240)) substeps of
// h = dt / n (rule S3), and for every substep i = 1..n at s = i / n:
//     root pivot, animated endpoints, collider shapes = lerp(previous frame's, this frame's, s)
//     per segment, root first:
//         a  = stiffness * (target - x) - damping * v + gravity     (rule S2)
//         v' = v + h a;   x' = x + h v'                             (semi-implicit Euler)
//         x' back at the segment's length from its pivot            (rule S2)
//         x' pushed out of every collider, then back at its length   (rule S7)
//         v  = (x' - x) / h                                          (the velocity the constraints leave)
#pragma once

#include <span>

#include <glm/glm.hpp>

namespace asterune {

/// Spring parameters. Units: stiffness 1/s^2 (acceleration per stud of offset), damping 1/s,
/// gravity studs/s^2 (world). build-time checks keep stiffness in [0, kSpringMaxStiffness] and
/// damping in [0, kSpringMaxDamping], where the integrator is stable at every substep size S3
/// allows (h <= 1/160 s).
struct SpringParams {
  float stiffness = 60.0f;
  float damping = 6.0f;
  glm::vec3 gravity{0.0f};
};

inline constexpr float kSpringMaxStiffness = 10000.0f;
inline constexpr float kSpringMaxDamping = 100.0f;
/// Rule S3: frame time clamp (seconds), substeps per second and the substep cap.
inline constexpr float kSpringMaxFrameTime = 0.05f;
inline constexpr float kSpringSubstepRate = 240.0f;
inline constexpr int kSpringMaxSubsteps = 8;
/// Rule S6: a retained endpoint farther than this many segment lengths from its target resets.
inline constexpr float kSpringResetLengths = 8.0f;

/// How one frame is divided (rule S3).
struct SpringSubsteps {
  float dt = 0.0f;  ///< the clamped frame time actually simulated (0 when nothing is stepped)
  int count = 0;    ///< substeps
  float h = 0.0f;   ///< seconds per substep (dt / count; 0 when count is 0)
};

/// Rule S3: dt clamped to [0, 0.05] and split into min(8, ceil(dt * 240)) substeps. dt <= 0,
/// NaN: no substep (the chain holds still). +infinity counts as 0.05. A float dt within 1e-5
/// (relative) above a whole number of 1/240 s steps does not gain a substep from rounding
/// (1/60 s in float, or 0.0166667, is 4 substeps, not 5).
SpringSubsteps spring_substeps(float dt);

/// A collider shape in world space (rule S7). A sphere uses `a`; a capsule is every point
/// within `radius` of the segment a-b.
struct SpringShape {
  glm::vec3 a{0.0f};
  glm::vec3 b{0.0f};
  float radius = 0.0f;
  bool capsule = false;
};

/// One step of the spring ODE x'' = stiffness (target - x) - damping v + gravity by
/// semi-implicit Euler (velocity first, then position with the new velocity). No constraint.
void spring_integrate(glm::vec3& point, glm::vec3& velocity, const glm::vec3& target, const SpringParams& params,
                      float h);

/// `point` moved along the line from `pivot` to lie exactly `length` from it. A point on the
/// pivot (no direction) goes along `fallback` (unit), else along +Y.
glm::vec3 spring_keep_length(const glm::vec3& pivot, const glm::vec3& point, float length, const glm::vec3& fallback);

/// A point at `length` from `pivot` moved out of `shape` along the circle of points at that
/// length, to the nearest point of the shape's surface (exact for a sphere; for a capsule the
/// sphere about the nearest axis point, repeated a few times). Unchanged when already outside,
/// and when no point at that length lies outside (then the point farthest from the shape).
glm::vec3 spring_push_out(const glm::vec3& pivot, float length, const glm::vec3& point, const SpringShape& shape);

/// Distance from `point` to the surface of `shape`: negative inside.
float spring_shape_distance(const glm::vec3& point, const SpringShape& shape);

/// One frame of a spring chain of n segments.
struct SpringChainFrame {
  glm::vec3 root_from{0.0f};                   ///< chain root pivot at the previous frame
  glm::vec3 root_to{0.0f};                     ///< chain root pivot now
  std::span<const glm::vec3> targets_from;     ///< n animated endpoints at the previous frame
  std::span<const glm::vec3> targets_to;       ///< n animated endpoints now
  std::span<const float> lengths;              ///< n segment lengths (> 0)
  std::span<const SpringShape> shapes_from;    ///< colliders at the previous frame (may be empty)
  std::span<const SpringShape> shapes_to;      ///< the same colliders now (same size)
};

struct SpringStepReport {
  bool ok = false;  ///< false: bad sizes or nonfinite inputs; nothing was written
  int substeps = 0; ///< rule S3
  int resets = 0;   ///< rule S6 resets (chain put on its targets with zero velocity)
};

/// Steps `points`/`velocities` (n each, the retained state of rule S1) through one frame.
/// Rule S6 is checked before the substeps (a retained endpoint that is nonfinite or more than
/// 8 segment lengths from its target now: the whole chain goes onto targets_to with zero
/// velocity and the frame ends there, substeps = 0, so a teleport snaps instead of flinging)
/// and after them (a nonfinite result is reset the same way). With `substeps.count`
/// 0 nothing moves except by those resets. Unusable input (span sizes, nonfinite pivots,
/// targets or shapes, a length <= 0): nothing written, ok = false. No allocation.
SpringStepReport step_spring_chain(const SpringParams& params, const SpringChainFrame& frame,
                                   const SpringSubsteps& substeps, std::span<glm::vec3> points,
                                   std::span<glm::vec3> velocities);

}  // namespace asterune
