// Ground for foot placement (rule G1): the query interface an engine implements so that the
// feet control can ask for ray hits, and the library's own ground (infinite planes, oriented
// boxes, height fields) for tests, the CLI and engines without physics. Also the pure pieces of
// ground adaptation (lift clamping, the missed-foot policy, the pelvis compromise, tilt capping,
// direction smoothing) as free functions, so that each can be checked on its own.
// Concepts, diagram and formulas: docs/ground.md.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/core/result.hpp"

namespace asterune {

/// One ray: from `origin` along the unit `direction` for `length` studs (world space).
struct GroundRay {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, -1.0f, 0.0f};
  float length = 0.0f;
};

/// What a ray found. `hit` false = a miss (the other fields are then meaningless).
struct GroundHit {
  bool hit = false;
  glm::vec3 point{0.0f};                   ///< world hit point
  glm::vec3 normal{0.0f, 1.0f, 0.0f};      ///< unit surface normal at the point, facing the ray
  float distance = 0.0f;                   ///< studs from the ray origin
  std::uint32_t surface = 0;               ///< caller-defined surface id (library ground: shape index)
};

/// The ground query of rule G1: the engine's side of foot placement. An abstract interface
/// (not a function_ref) because an engine wraps its physics scene in one object that offers
/// two entry points: single rays, and a batch that it may answer in one physics call.
///
/// Contract for implementations: no allocation, no exceptions, no locks the caller could
/// contend on; only collision-enabled surfaces are hit, and never the character's own rig
/// (filter its colliders out, e.g. by layer or by ignoring the character's bodies). A ray
/// whose origin is inside a solid does not hit that solid. Hits beyond `length` are misses.
/// The feet control treats a hit with a nonfinite point or a zero/nonfinite normal as a miss.
class GroundQuery {
 public:
  virtual ~GroundQuery() = default;
  /// The nearest hit along `ray`, or a miss.
  virtual GroundHit cast(const GroundRay& ray) const = 0;
  /// Batch form: hits[i] = cast(rays[i]). Sizes must match; otherwise nothing is written.
  /// The default loops over cast(); override to batch in one physics call.
  virtual void cast(std::span<const GroundRay> rays, std::span<GroundHit> hits) const;
};

// --- library ground -----------------------------------------------------------------------

/// An infinite plane through `point` with normal `normal` (need not be unit). Solid below it:
/// a ray starting below the plane does not hit it.
struct GroundPlane {
  glm::vec3 point{0.0f};
  glm::vec3 normal{0.0f, 1.0f, 0.0f};
  bool collide = true;
};

/// An oriented box: `center`, full edge lengths `size` (all > 0) along the axes of `rotation`.
struct GroundBox {
  glm::vec3 center{0.0f};
  glm::vec3 size{1.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  bool collide = true;
};

/// A grid of heights over the world XZ plane. Sample (row r, column c) lies at
/// origin + (c * cell_size, heights[r * columns + c], r * cell_size): columns run along +X,
/// rows along +Z, heights are relative to origin.y. Between samples the surface is the bilinear
/// interpolation of the cell's four corners; its normal is the exact normal of that bilinear
/// patch. Outside the grid's footprint there is no surface. Solid below the surface.
struct GroundHeightField {
  glm::vec3 origin{0.0f};
  float cell_size = 1.0f;
  int rows = 0;                  ///< >= 2
  int columns = 0;               ///< >= 2
  std::vector<float> heights;    ///< rows * columns values, row-major
  bool collide = true;
};

/// The library ground description: every shape, in surface-id order (planes first, then boxes,
/// then height fields: surface id = index in that concatenated order).
struct GroundDesc {
  std::vector<GroundPlane> planes;
  std::vector<GroundBox> boxes;
  std::vector<GroundHeightField> heightfields;
};

/// The library's ground: a GroundQuery over planes, boxes and height fields. Non-colliding
/// shapes are never hit. Built once (allocates); cast() is allocation-free, const and thread-safe.
class Ground final : public GroundQuery {
 public:
  Ground() = default;
  GroundHit cast(const GroundRay& ray) const override;
  using GroundQuery::cast;
  const GroundDesc& desc() const { return desc_; }

 private:
  friend Result<Ground> build_ground(const GroundDesc& desc);
  GroundDesc desc_;  // normals unit, rotations normalized
};

/// Checks and normalizes a ground description. Fails (naming the shape, e.g. "box 2: size must
/// be > 0") on nonfinite values, a zero normal, a non-positive box size or cell size, a
/// height field smaller than 2 x 2, or a heights array that is not rows * columns long.
Result<Ground> build_ground(const GroundDesc& desc);

/// Single-shape ray tests (nearest hit within the ray's length; `surface` left 0).
GroundHit cast_plane(const GroundPlane& plane, const GroundRay& ray);
GroundHit cast_box(const GroundBox& box, const GroundRay& ray);
GroundHit cast_heightfield(const GroundHeightField& field, const GroundRay& ray);

// --- pure pieces of ground adaptation (docs/ground.md) ------------------------------------

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

}  // namespace asterune
