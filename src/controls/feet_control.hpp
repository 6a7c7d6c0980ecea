// Rig-bound feet control (rules G1-G9, docs/ground.md): binds a FeetSettings to a rig at setup
// (leg chains, sole points, the pelvis joint, the rest soles' reference height), then each
// frame casts one ray per foot through the caller's GroundQuery, turns the hits into bounded,
// smoothed lifts and normals, optionally tilts the pelvis into the slope (G9) and pulls
// out-of-reach foot targets back toward the hips (G8), lowers the pelvis by the smooth two-leg
// compromise of the ground-induced reach deficits that remain, and solves each leg with the
// two-bone solver toward an ankle target that puts the (tilted) sole on the ground. Retains the
// smoothed lifts, normals, shortenings and lean; reset_feet_control() forgets them (rule CS7).
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "asterune/controls/control.hpp"
#include "asterune/controls/ground.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {
class Rig;
}

namespace asterune::detail {

struct FeetLegBound {
  std::array<int, 3> joints{};        // hip, knee, ankle (layout indexes, parent first)
  std::array<int, 3> slots{};         // their positions in FeetControl::joints
  glm::vec3 sole{0.0f};               // sole point in the foot part's frame
  glm::vec3 ankle_in_foot{0.0f};      // the ankle pivot in the foot part's frame (its C1 position)
  float rest_sole_height = 0.0f;      // the rest sole's height along up, in the root part's frame
};

struct FeetControl {
  std::vector<int> joints;            // every joint it may change, ascending layout order
  int leg_count = 0;
  std::array<FeetLegBound, kMaxFeet> legs{};
  int pelvis = -1;                    // layout index of the pelvis joint; -1 = pelvis adjustment off
  int pelvis_slot = -1;               // its position in joints
  float probe_height = 1.0f;
  float max_lift = 1.0f;
  bool align_to_normal = true;
  float max_tilt_rad = 0.0f;
  glm::vec3 up_local{0.0f, 1.0f, 0.0f};  // unit, root part frame
  float step_shorten_ratio = 0.0f;    // rule G8; 0 = off
  bool lean = false;                  // rule G9
  float max_lean_rad = 0.0f;
  // retained between frames (cleared by reset_feet_control)
  bool has_state = false;
  std::array<float, kMaxFeet> lift{};
  std::array<glm::vec3, kMaxFeet> normal{};
  std::array<float, kMaxFeet> shorten{};  // smoothed, before the under-the-hip bound
  glm::vec3 lean_direction{0.0f};         // smoothed mirrored normal the pelvis tilts toward
  // per-frame scratch, read by measure_feet_control
  std::array<glm::vec3, kMaxFeet> sole_target{};
  std::array<GroundRay, kMaxFeet> rays{};
  std::array<GroundHit, kMaxFeet> hits{};
};

/// Above this height of the animated sole over the reference ground a foot counts as swinging
/// (rule G9): its ground normal weighs nothing in the lean.
inline constexpr float kSwingClearance = 0.25f;  // studs

/// Rule G9: how much a foot's ground normal counts in the lean: 0 for a missed ray, else
/// 1 - clearance / kSwingClearance clamped to [0, 1] (`clearance` = the animated sole's height
/// over the reference ground; a planted foot 1, a swinging one 0). NaN gives 0.
float foot_ground_weight(bool hit, float clearance);

/// Rule G9 (seed 003 BlendGroundNormal): the weighted mean of two unit normals, normalized;
/// `up` when the weights sum to 0 (both feet airborne: level) or the mean vanishes.
glm::vec3 blend_ground_normal(const glm::vec3& a, float wa, const glm::vec3& b, float wb, const glm::vec3& up);

/// Rule G9 (seed 003 MirrorGroundNormalHorizontal): `normal` with its component across `up`
/// negated, 2 (n.up) up - n. A ground normal leans downhill; its mirror leans into the hill.
/// Keeps the length. `up` is unit.
glm::vec3 mirror_ground_normal(const glm::vec3& normal, const glm::vec3& up);

/// Rule G8 (seed 003 ComputeStepShortenMetres): studs to pull a foot target back toward the
/// point under the hip: ratio * deficit, at most |ahead| (the target's offset from the hip
/// along the facing: never past the point under the hip), 0 for a foot whose ray missed.
/// Negative or NaN inputs give 0.
float step_shorten(bool hit, float deficit, float ratio, float ahead);

/// Binds `settings` to `rig`. Fails on: no legs or more than kMaxFeet, unresolved names, a leg
/// chain that is not exactly hip-knee-ankle (3 joints), two legs sharing joints, legs that do
/// not hang from one joint (with pelvis on), nonfinite or out-of-range numbers (probe_height
/// > 0, max_lift >= 0, max_tilt_deg in [0, 90], step_shorten_ratio in [0, 1], max_lean_deg
/// in [0, 45]), a zero up vector, lean with pelvis off. Allocates.
Result<FeetControl> build_feet_control(const Rig& rig, const FeetSettings& settings, const std::string& what);

/// Forgets the smoothed lifts, normals, shortenings and lean (rule CS7).
void reset_feet_control(FeetControl& control);

/// One frame: writes one candidate per entry of control.joints (untouched joints keep their
/// current transform bit for bit) and fills report.feet (lift, hit, tilt, clamped, shorten,
/// pelvis drop, lean). `ground` may be nullptr (every ray misses). `smooth_time` smooths
/// lifts, normals, shortenings and the lean direction. Allocation-free.
void solve_feet_control(FeetControl& control, const Rig& rig, const Transform& root, float dt, float smooth_time,
                        const GroundQuery* ground, std::span<const Transform> local, std::span<const Transform> world,
                        std::span<Transform> candidates, ControlReport& report);

/// Measures on the blended pose: per-foot sole_error, distance = worst sole_error of the feet
/// whose ray hit (0 when none hit), reached = residual <= 1e-3 studs.
void measure_feet_control(const FeetControl& control, std::span<const Transform> world, ControlReport& report);

}  // namespace asterune::detail
