// Spring chains (rules S1-S9) as a pure function on caller spans: a chain of n segments, each
// with a retained endpoint and velocity, is stepped toward its animated endpoints over one
// frame. Geometry in, points out; no rig, no allocation, no exceptions. The rig-bound control
// (src/controls/spring_control.hpp) reads the points from the pose and turns the result into
// joint rotations. docs/springs.md explains the exact step, the clock, resets and colliders.
//
// Chain layout (as point_chain.hpp): segment k runs from its pivot to its endpoint. The pivot
// of segment 0 is the chain root's joint pivot (animated, moves with the character); the pivot
// of segment k > 0 is the already-solved endpoint of segment k - 1 (rule S2).
//
// One frame (rules S2, S3, S8, S9): the chain runs on a clock of its own in fixed steps of
// h = 1/240 s. The frame's dt (clamped to 0.05 s) is added to the time the clock lags behind
// the frame; every whole step is taken, and the remainder carried to the next frame. A step
// ending at `s` of the way through the frame sees the root pivot, the animated endpoints and
// the colliders at `s` along the parabola through the last three frames (rule S9; the straight
// line from the previous frame's when there is no frame before it); over the step the target moves
// linearly between its values at the step's two ends, and per segment, root first:
//     x, v = exact solution over h of x'' = stiffness (T(t) - x) - damping x' + gravity
//     x' back at the segment's length from its pivot                       (rule S2)
//     x' pushed out of every collider, then back at its length              (rule S7)
//     v' = v less its part along the segment relative to the pivot's velocity (the constraint);
//          (x' - x) / h when a collider moved the point
// The pose shown at the frame time is the retained state advanced (not kept) by the remaining
// lag, with the same exact step: every frame rate sees the same steps at the same times.
#pragma once

#include <span>

#include <glm/glm.hpp>

namespace asterune {

/// Spring parameters. Units: stiffness 1/s^2 (acceleration per stud of offset), damping 1/s,
/// gravity studs/s^2 (world). build-time checks keep stiffness in [0, kSpringMaxStiffness] and
/// damping in [0, kSpringMaxDamping] (the exact step is stable for any; the bounds keep the
/// motion within what a 1/240 s clock can show).
struct SpringParams {
  float stiffness = 60.0f;
  float damping = 6.0f;
  glm::vec3 gravity{0.0f};
};

inline constexpr float kSpringMaxStiffness = 10000.0f;
inline constexpr float kSpringMaxDamping = 100.0f;
/// Rules S3, S8: frame time clamp (seconds), the clock's rate and step, and the most steps one
/// frame can take (0.05 s of them, plus the one a carried lag completes).
inline constexpr float kSpringMaxFrameTime = 0.05f;
inline constexpr float kSpringSubstepRate = 240.0f;
inline constexpr float kSpringStep = 1.0f / kSpringSubstepRate;
inline constexpr int kSpringMaxSubsteps = 13;
/// Rule S6: a retained endpoint farther than this many segment lengths from its target resets.
inline constexpr float kSpringResetLengths = 8.0f;

/// How one frame advances the spring's clock (rules S3, S8).
struct SpringSubsteps {
  float dt = 0.0f;         ///< the clamped frame time (0 when the frame does not advance)
  int count = 0;           ///< whole steps of h taken this frame
  float h = 0.0f;          ///< the fixed step, kSpringStep (0 when dt is 0)
  float lag_before = 0.0f; ///< seconds the clock was behind the previous frame, in [0, h)
  float lag_after = 0.0f;  ///< seconds it is behind this frame after the steps, in [0, h)
};

/// Rules S3, S8: dt clamped to [0, 0.05] is added to `lag` (seconds the clock is behind the
/// previous frame); the whole steps of 1/240 s in it are taken and the rest carried. dt <= 0,
/// NaN: no step, the lag stays. +infinity counts as 0.05. A total within 1e-5 (relative) of a
/// whole number of steps, below or above, counts as that number with nothing carried (1/60 s
/// in float, 4.0000003 steps, or 0.0166667, is 4 steps, lag 0).
SpringSubsteps spring_substeps(float dt, float lag = 0.0f);

/// The exact step of rule S2 over `h` for given parameters: with z = x - T0 (the offset from
/// the target at the step's start), dT = T1 - T0 (the target's move over the step),
///     z(h) = xz z + xv v + xg gravity + xd stiffness dT,  v(h) = vz z + vv v + vg gravity + vd stiffness dT,
/// the coefficients being entries of exp(M h), M the 4x4 matrix of docs/springs.md (same for
/// every axis; computed in double, no regime cases).
struct SpringPropagator {
  float h = 0.0f;
  float xz = 1.0f, xv = 0.0f, xg = 0.0f, xd = 0.0f;
  float vz = 0.0f, vv = 1.0f, vg = 0.0f, vd = 0.0f;
};
SpringPropagator spring_propagator(const SpringParams& params, float h);

/// A collider shape in world space (rule S7). A sphere uses `a`; a capsule is every point
/// within `radius` of the segment a-b.
struct SpringShape {
  glm::vec3 a{0.0f};
  glm::vec3 b{0.0f};
  float radius = 0.0f;
  bool capsule = false;
};

/// One exact step of x'' = stiffness (T(t) - x) - damping v + gravity, the target moving
/// linearly from `target_from` to `target_to` over the propagator's h (rule S2). No constraint.
void spring_integrate(glm::vec3& point, glm::vec3& velocity, const glm::vec3& target_from, const glm::vec3& target_to,
                      const SpringParams& params, const SpringPropagator& step);

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

/// One frame of a spring chain of n segments. With the frame before the previous one
/// (`prior_dt` > 0), the inputs between the previous frame and this one follow the parabola
/// through the three frames (rule S9); without it (`prior_dt` 0, a first frame), the straight line.
struct SpringChainFrame {
  glm::vec3 root_from{0.0f};                  ///< chain root pivot at the previous frame
  glm::vec3 root_to{0.0f};                    ///< chain root pivot now
  std::span<const glm::vec3> targets_from;    ///< n animated endpoints at the previous frame
  std::span<const glm::vec3> targets_to;      ///< n animated endpoints now
  std::span<const float> lengths;             ///< n segment lengths (> 0)
  std::span<const SpringShape> shapes_from;   ///< colliders at the previous frame (may be empty)
  std::span<const SpringShape> shapes_to;     ///< the same colliders now (same size)
  float prior_dt = 0.0f;                      ///< s (clamped, S3) from the prior frame to the previous; <= 0: none
  glm::vec3 root_prior{0.0f};                 ///< chain root pivot at the prior frame (before the previous one)
  std::span<const glm::vec3> targets_prior;   ///< n animated endpoints then (read when prior_dt > 0)
  std::span<const SpringShape> shapes_prior;  ///< the colliders then (same size as shapes_to)
  /// The caller's spring_propagator(params, kSpringStep) for the params it passes, kept from
  /// frame to frame (its 4x4 exponential in double is most of a short chain's frame); used only
  /// when its h is kSpringStep. nullptr: computed here. The steps are the same bits either way.
  const SpringPropagator* step = nullptr;
};

/// Rule S9: where the inputs are `s` of the way through a frame of clamped length `dt`, as
/// value = from + along (to - from) + bend (from - prior). The parabola through the prior, the
/// previous and this frame (times -prior_dt, 0, dt); the straight line (along = s, bend = 0)
/// when there is no prior frame or this frame is more than kSpringCurveMaxRatio times as long.
struct SpringCurveAt {
  float along = 0.0f;
  float bend = 0.0f;
};
inline constexpr float kSpringCurveMaxRatio = 4.0f;
SpringCurveAt spring_curve_at(float s, float dt, float prior_dt);

/// The retained state of a chain (rule S1), at the clock's time: n endpoints and velocities,
/// and the animated inputs at that time (root pivot, n endpoints) the next step starts from.
struct SpringChainState {
  std::span<glm::vec3> points;
  std::span<glm::vec3> velocities;
  std::span<glm::vec3> targets;
  glm::vec3 root{0.0f};
  float lag = 0.0f;  ///< seconds from the clock's time to the last frame's time, in [0, kSpringStep)
};

/// Puts the state on the animated pose at a frame's time, zero velocity, nothing lagging.
void spring_start(SpringChainState& state, const glm::vec3& root, std::span<const glm::vec3> targets);

struct SpringStepReport {
  bool ok = false;  ///< false: bad sizes or nonfinite inputs; nothing was written
  int substeps = 0; ///< rule S3
  int resets = 0;   ///< rule S6 resets (chain put on its targets with zero velocity)
};

/// Advances `state` through one frame of `dt` (rules S3, S8) and writes the chain at the
/// frame's time to `shown` (n). Rule S6 is checked before the steps (a retained endpoint that
/// is nonfinite or more than 8 segment lengths from its target now: the chain starts again on
/// targets_to, substeps = 0, so a teleport snaps instead of flinging) and after them (a
/// nonfinite result is reset the same way). Unusable input (span sizes, nonfinite pivots,
/// targets or shapes, a length <= 0): nothing written, ok = false. No allocation.
SpringStepReport step_spring_chain(const SpringParams& params, const SpringChainFrame& frame, float dt,
                                   SpringChainState& state, std::span<glm::vec3> shown);

}  // namespace asterune
