// Ground for foot placement (rule G1): the query interface an engine implements so that the
// feet control can ask for ray hits, and the library's own ground (infinite planes, oriented
// boxes, height fields) for tests, the CLI and engines without physics. The pure pieces of
// ground adaptation that the feet control is built from are private (src/controls/ground_detail.hpp).
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

}  // namespace asterune
