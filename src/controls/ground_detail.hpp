// The pure pieces of ground adaptation (docs/ground.md), private to the controls module: lift
// clamping, the missed-foot policy, leg reach deficits, the pelvis compromise, tilt capping and
// direction smoothing, as free functions the feet control is built from, so that each can be
// checked on its own (tests/controls/ground_test.cpp includes this header through src/).
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace asterune::detail {

/// Lift of one foot (rule G2): `delta` = ground height - reference ground height (studs along
/// up). `clamped` is set when |delta| > max_lift (the lift is then +-max_lift); a miss gives
/// lift 0 and missed = true. max_lift <= 0 or NaN allows no lift.
struct GroundLift {
  float lift = 0.0f;
  bool missed = false;
  bool clamped = false;
};
GroundLift clamp_ground_lift(bool hit, float delta, float max_lift);

/// The missed-foot policy (rule G6): a foot whose ray missed takes the other foot's lift when
/// that foot hit (so it stays within a normal stride of it instead of straining toward ground
/// that is not there), and 0 (the animated height) when both missed.
float resolve_missed_lift(bool other_hit, float other_lift);

/// How far (studs along `up`) the leg's root must move down so that a straight leg of length
/// `reach` can touch `target` from `hip`: the smallest p >= 0 with |target - (hip - p up)| <= reach,
/// i.e. p = max(0, -(v.up) - sqrt((v.up)^2 - |v|^2 + reach^2)) with v = target - hip; when no
/// drop brings it within reach, the drop of closest approach max(0, -(v.up)). `up` is unit.
float leg_drop_needed(const glm::vec3& hip, const glm::vec3& target, const glm::vec3& up, float reach);

/// Pelvis drop caused by the ground alone (rule G3): the drop needed for the corrected target
/// minus the drop the animated pose already needed, never negative, so flat ground gives 0
/// however stretched the animated stride is.
float ground_induced_drop(float corrected_drop, float animated_drop);

/// The smooth compromise between two legs' drops (rule G6), instead of max(l, r):
///   (l + r + sqrt((l - r)^2 + 4 k^2 l r)) / 2,   k = kPelvisCompromise,
/// then capped at max_drop. It equals max(l, r) when either leg needs nothing, is never below
/// max(l, r) (no leg is left short), and is C-infinity where both are positive, so the hips do
/// not jerk where the two needs cross (max() has a kink there). Negative or NaN inputs count as 0.
inline constexpr float kPelvisCompromise = 0.2f;
float compromise_pelvis_drop(float left, float right, float max_drop);

/// The rotation that turns `up` toward `normal`, its angle capped at `max_tilt_rad` (rule G5).
/// Both unit. `tilt_rad` receives the applied angle, `capped` whether the cap cut it. Opposite or
/// degenerate inputs give the identity.
glm::quat capped_tilt(const glm::vec3& up, const glm::vec3& normal, float max_tilt_rad, float* tilt_rad = nullptr,
                      bool* capped = nullptr);

/// Smoothing response for a step of dt with time constant tau: 1 - exp(-dt / tau). tau <= 0 or
/// nonfinite: 1 (no smoothing); dt <= 0 or NaN: 0 (hold still); dt = +inf: 1.
float smoothing_response(float dt, float tau);

/// One smoothing step of a unit direction toward a unit target: the slerp by `response` of the
/// angle between them (frame-rate independent with smoothing_response). Opposite directions
/// turn about an axis orthogonal to `current`. Nonfinite input returns `target`.
glm::vec3 smooth_direction(const glm::vec3& current, const glm::vec3& target, float response);

}  // namespace asterune::detail
