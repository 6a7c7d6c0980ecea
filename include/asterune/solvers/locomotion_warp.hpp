// Locomotion warping as pure math (rules LO6-LO9): the stride warp's split of a speed mismatch
// into a stride scale and a play rate, the stride warp's leg solve (feet scaled along the travel
// about the pelvis, the pelvis lowered where a leg would over-extend, each leg re-solved with the
// two-bone solver), and the orientation warp's lower-body turn with its counter-turn spread over
// the spine. No rig, no state, no allocation, no exceptions: the graph's StrideWarp and
// OrientationWarp nodes (src/graph/nodes_warp.cpp) measure the pose, call these, and apply the
// turns. Formulas: docs/graph.md, "Warp nodes".
#pragma once

#include <array>
#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/two_bone.hpp"

namespace asterune {

/// How a speed mismatch is taken (rule LO6): ratio r = gameplay / pose speed, stride scale
/// s = clamp(r, min_scale, max_scale), play rate p = r / s, so s * p = r exactly.
struct StrideWarpRate {
  float ratio = 1.0f;
  float stride_scale = 1.0f;
  float play_rate = 1.0f;
  bool clamped = false;  // r was outside [min_scale, max_scale]: the play rate took the rest
  /// False (scale and rate 1: the pose plays as it is) for a negative or nonfinite gameplay
  /// speed, a nonfinite ratio or play rate, or unusable clamp bounds (rule LO9). A pose speed
  /// <= 0 (a pose that does not travel) is valid: nothing to warp, scale and rate 1.
  bool valid = true;
};

/// Rule LO6. min_scale and max_scale must be finite with 0 < min_scale <= max_scale.
StrideWarpRate stride_warp_rate(float gameplay_speed, float pose_speed, float min_scale, float max_scale);

inline constexpr int kMaxWarpLegs = 4;

/// One leg's pivots in the pose (any one frame shared with the pelvis, direction and up).
struct StrideWarpLeg {
  glm::vec3 hip{0.0f};
  glm::vec3 knee{0.0f};
  glm::vec3 ankle{0.0f};
};

struct StrideWarpInput {
  glm::vec3 pelvis{0.0f};            ///< the point the feet scale about (only its travel coordinate matters)
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  ///< travel direction; its component across `up` is used
  glm::vec3 up{0.0f, 1.0f, 0.0f};    ///< unit
  float stride_scale = 1.0f;         ///< StrideWarpRate::stride_scale
  /// Largest leg extension as a fraction of its length (hip-knee + knee-ankle) before the
  /// pelvis lowers (rule LO7). Kept below 1 so a solved leg is never locked straight.
  float max_extension = 0.995f;
  std::span<const StrideWarpLeg> legs;  ///< at most kMaxWarpLegs
};

struct StrideWarpResult {
  bool valid = false;       ///< false: nonfinite input, no legs or too many, bad scale; nothing to apply
  float pelvis_drop = 0.0f; ///< studs the pelvis lowers along -up (>= 0), the same for every leg
  int leg_count = 0;
  /// Per leg: the ankle target (the animated ankle moved by (s - 1) x its offset from the pelvis
  /// along the travel) and the two-bone solve from the lowered hip toward it. Apply
  /// legs[i].delta_upper to the upper leg and delta_lower to the lower leg (two_bone.hpp).
  std::array<glm::vec3, kMaxWarpLegs> target{};
  std::array<TwoBoneResult, kMaxWarpLegs> legs{};
};

/// Rule LO7. Every foot scales, a swinging one too, so a foot lands where its stance continues
/// (no jump at a contact's start). The drop is the largest any leg needs to keep
/// |target - lowered hip| <= max_extension x its length; a target that no drop brings in reach
/// (too far along the ground) lowers the hip at most to the target's height and the two-bone
/// solver reaches toward it as far as it can (report.clamped).
StrideWarpResult solve_stride_warp(const StrideWarpInput& input);

/// Rule LO7: the drop along -up that brings `hip` within `limit` of `target`: 0 when already
/// within, v - sqrt(limit^2 - h^2) with v the hip's height over the target and h their distance
/// across up, at most max(v, 0) when h >= limit. Never negative; NaN inputs give 0.
float warp_pelvis_drop(const glm::vec3& hip, const glm::vec3& target, const glm::vec3& up, float limit);

inline constexpr int kMaxWarpSpine = 8;

/// The orientation warp's turns (rule LO8): the lower body turns by `yaw` about up; spine joint
/// k (pelvis side first) ends at spine_yaw[k] of the pose's own yaw, spine_yaw[k] =
/// yaw x (1 - (k + 1) / n), so the counter-turn is spread evenly over the chain as a look-at
/// spreads its turn (each joint takes its share of what remains, the last all of it) and the
/// top of the spine keeps the pose's facing exactly.
struct OrientationWarpTurns {
  bool valid = false;   ///< false (yaw 0, no turn) for a nonfinite direction (rule LO9)
  bool clamped = false; ///< |direction| > limit
  float yaw = 0.0f;     ///< the lower body's turn, radians, positive toward the rig's left
  int spine_count = 0;
  std::array<float, kMaxWarpSpine> spine_yaw{};
};

/// Rule LO8. `limit` in (0, pi] (the nodes use pi / 2); spine_count in [0, kMaxWarpSpine].
OrientationWarpTurns orientation_warp_turns(float direction, float limit, int spine_count);

}  // namespace asterune
