// Look-at solver (rule LA1-LA3): turns a chain of joints (e.g. waist, neck) so that an end
// part's facing axis points at a target, within yaw / pitch limits measured from the end
// part's REST facing. Pure: no rig, no state, no allocation; everything is in ROOT space
// (the character's own frame), so turning the whole character changes nothing here.
//
//            up (+Y)
//             |   target
//             |  /
//             | / pitch
//   rest -----+------- yaw is measured about `up` from the rest facing, pitch from the
//   facing   eye        horizontal plane, relative to the rest facing's own pitch.
#pragma once

#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/math/scalar.hpp"  // canonical_angle (rule LA3)

namespace asterune {

/// Limits and reference axes of a look-at solve, all in root space.
struct LookAtParams {
  glm::vec3 rest_facing{0.0f, 0.0f, -1.0f};  // end part's facing axis at rest (unit)
  glm::vec3 up{0.0f, 1.0f, 0.0f};            // yaw axis (unit); character up
  float yaw_limit = 1.3962634f;    // radians, |yaw| <= limit; clamped to [0, pi]
  float pitch_limit = 1.0471976f;  // radians, |pitch - rest pitch| <= limit; total pitch kept within +-89 deg
};

/// A LookAtParams prepared once (prepare_look_at): the orthonormal basis, the rest pitch and
/// the limits as angles and as sines/cosines, so that a solve needs no trigonometry to clamp a
/// direction. Plain data; share it freely.
struct LookAtFrame {
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  glm::vec3 forward{0.0f, 0.0f, -1.0f};  // rest facing projected off `up`, unit
  glm::vec3 side{-1.0f, 0.0f, 0.0f};     // up x forward
  float rest_pitch = 0.0f;               // radians, of the rest facing
  float yaw_limit = 0.0f;                // radians, sanitized into [0, pi]
  float pitch_limit = 0.0f;              // radians, sanitized into [0, pi]
  float cos_yaw_limit = 1.0f;
  float sin_yaw_limit = 0.0f;
  float sin_pitch_low = 0.0f;   // sine of the lowest allowed absolute pitch
  float sin_pitch_high = 0.0f;  // sine of the highest allowed absolute pitch
  float sin_pitch_max = 0.0f;   // sine of 89 degrees: the facing's yaw stays defined
};

/// Prepares `params` for repeated solves (a few sines and cosines; no allocation).
LookAtFrame prepare_look_at(const LookAtParams& params);

/// What a look-at solve did.
struct LookAtReport {
  bool valid = false;    // false: nonfinite input or target at the eye; turns are identity
  bool reached = false;  // the final facing is within 1e-3 rad of the unclamped target direction
  bool clamped = false;  // a limit cut the requested yaw or pitch
  float residual = 0.0f; // radians between the final facing and the (clamped) desired direction
  float yaw = 0.0f;      // desired yaw after clamping, radians in (-pi, pi], relative to rest facing
  float pitch = 0.0f;    // desired pitch after clamping, radians, relative to rest facing
};

/// Yaw and pitch (radians) of unit direction `dir` in the basis given by `params`:
/// yaw about params.up from the rest facing's horizontal projection, in (-pi, pi];
/// pitch is the ABSOLUTE elevation above the plane orthogonal to up, in [-pi/2, pi/2].
glm::vec2 look_angles(const LookAtParams& params, const glm::vec3& dir);
/// The same with the limits prepared once (prepare_look_at): no trigonometry beyond the two
/// angles themselves.
glm::vec2 look_angles(const LookAtFrame& frame, const glm::vec3& dir);

/// Solves a look-at over a chain, root first.
///
/// pivots[k]: current pivot of chain joint k; eye: current point the facing starts from
/// (e.g. the end part's origin); facing: current facing direction of the end part (unit);
/// target: the point to look at. All in root space.
/// weights[k]: fraction of the REMAINING turn joint k takes, clamped to [0, 1] (nonfinite = 0);
/// they need not sum to 1, the last joint usually has 1. All zero: nothing turns (valid, not
/// reached). weights must be as long as pivots; an empty chain or a size mismatch is invalid.
/// After each joint turns, the eye and facing are re-measured before the next share is chosen
/// (LA2). Each joint's turn is a yaw about params.up followed by a pitch about the horizontal
/// axis, so no roll is introduced.
/// turns[k] (output, same size as pivots): the root-space rotation joint k applies about its
/// pivot AFTER the turns of joints 0..k-1 have moved it. Joint k's frame therefore ends up
/// rotated by turns[k] * ... * turns[0].
/// Allocation-free, never throws; invalid input leaves identity turns and never NaN.
LookAtReport solve_look_at(std::span<const glm::vec3> pivots, const glm::vec3& eye, const glm::vec3& facing,
                           const glm::vec3& target, std::span<const float> weights, const LookAtParams& params,
                           std::span<glm::quat> turns);

/// The same solve with the limits prepared once (prepare_look_at(params)); identical contract.
/// A joint that takes its whole remaining turn (weight >= 1, e.g. the last joint, or a one-joint
/// look-at) is turned without trigonometry: a shortest-arc yaw between the headings then a
/// shortest-arc pitch, the same no-roll turn as the angle form.
LookAtReport solve_look_at(std::span<const glm::vec3> pivots, const glm::vec3& eye, const glm::vec3& facing,
                           const glm::vec3& target, std::span<const float> weights, const LookAtFrame& frame,
                           std::span<glm::quat> turns);

/// Measures, without turning anything, how far `facing` (unit, from `eye`) is from looking at
/// `target` within the limits: fills clamped, yaw, pitch, residual and reached as
/// solve_look_at() would for a chain that has already turned. Invalid input: valid == false.
LookAtReport measure_look_at(const glm::vec3& eye, const glm::vec3& facing, const glm::vec3& target,
                             const LookAtParams& params);
/// The same with prepared limits.
LookAtReport measure_look_at(const glm::vec3& eye, const glm::vec3& facing, const glm::vec3& target,
                             const LookAtFrame& frame);

}  // namespace asterune
