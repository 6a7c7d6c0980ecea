// RetargetBinding: a RetargetProfile resolved against one source skeleton and one target rig,
// with everything the per-frame path needs precomputed (rule RT2-RT6), and the allocation-free
// sampler that turns a sampled source pose into target motor transforms (rule RT4).
//
// Frames. Target orientations are those of the JOINT frame J = P * C0 * T (P: parent part
// placement in rig space, i.e. with the root part at identity); its origin is the joint
// pivot. Source orientations are those of the source joints in skeleton space. With
//   G_s   source rest orientation of joint s (accumulated from rest_local),
//   S_s   sampled orientation of s (accumulated from the sampled full locals),
//   R_t   target rest joint-frame orientation (P_rest * C0),
//   F     facing alignment, M_t the rest-matching correction (identity when off),
// the carry is   K_t = G_s^-1 * F^-1 * M_t^-1 * R_t   and the target joint frame is driven to
//   J_t = F * S_s * K_t,   converted through the CURRENT parent placement into
//   T_t = (P_t * C0_t)^-1 * J_t.   See docs/retarget.md for the derivation.
//
// A binding is immutable after build and can be shared between characters and threads.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/retarget/profile.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {

class Rig;

struct RetargetBinding {
  // Identity of what it was built from (RT7).
  std::uint64_t profile_key = 0;
  std::uint64_t target_signature = 0;
  std::uint64_t source_key = 0;

  int target_joint_count = 0;
  int source_joint_count = 0;

  glm::quat facing{1.0f, 0.0f, 0.0f, 0.0f};  // normalized F

  // Per target joint, layout order.
  std::vector<int> source_index;           // driving source joint, -1 when unmapped (RT5)
  std::vector<glm::quat> carry;            // K_t (identity when unmapped)
  std::vector<glm::quat> rest_correction;  // M_t: rotation taking F*source bone dir onto target bone dir at rest
  // Rule RT21: the source joint the part points at (a limb's end), -1 for none; and the rest
  // direction from the driving source joint to it, in the driving joint's own frame (unit).
  std::vector<int> aim_source;
  std::vector<glm::vec3> aim_rest;
  // 1 when this joint carries travel (RT6, RT10): its source joint is a source root, or hangs
  // below one through single-child joints (a root bone above the hips), whose animated motion
  // then folds into its travel; such an ancestor may itself be mapped (onto a target root bone).
  std::vector<unsigned char> translates;
  std::vector<glm::vec3> source_rest_position;  // skeleton-space rest position of the driving source joint
  // Translating joints: the joint's rig-space rest pivot (root part at identity). The sampler
  // puts the pivot at rest_pivot + travel, re-expressed through the current parent (RT10).
  std::vector<glm::vec3> rest_pivot;
  // 1 when the joint is mapped or an ancestor of a mapped joint: its rig-space rotation is
  // needed. The others (an unmapped tail or accessory chain) are written identity, coverage 0.
  std::vector<unsigned char> target_needed;

  // Per source joint.
  std::vector<int> source_parents;
  std::vector<glm::quat> source_rest_rotation;  // rest_local rotations (fallback for bad samples)
  std::vector<unsigned char> source_travel_chain;  // 1: a translating source joint or one of its ancestors
  // 1: drives a target joint or is an ancestor of one. The others (fingers, toes no target
  // has) are not read by sample_retarget.
  std::vector<unsigned char> source_needed;

  // Translation (RT6): travel (source units) * translation_scale = target studs.
  float scale = 1.0f;              // resolved profile scale (auto, or the fallback to 1)
  float translation_scale = 1.0f;  // units_to_studs * scale, or 0 when translation is off
  bool translation = true;
  float source_leg_length = 0.0f;  // studs; filled when auto_scale was requested
  float target_leg_length = 0.0f;

  int mapped_count() const;
};

/// Stable hash of a source skeleton (names, parents, rest locals, end sites, units): the
/// source identity in the binding cache.
std::uint64_t source_skeleton_key(const SourceSkeleton& source);

/// Resolves `profile` against `source` and `rig` and precomputes the carry rotations.
/// Fails, naming the joint and the reason, on: an inconsistent source skeleton (sizes,
/// parents not before children, nonfinite rest values), a target name that is missing or
/// ambiguous in the rig, a source name that is not in the skeleton, a target joint mapped
/// twice, a zero or nonfinite facing, or auto_scale without usable leg chains.
Result<RetargetBinding> build_retarget_binding(const SourceSkeleton& source, const Rig& rig,
                                               const RetargetProfile& profile);

/// Caller-owned scratch for sample_retarget(); one per character (or per thread).
struct RetargetContext {
  std::vector<glm::quat> source_orientation;  // S_s of every source joint, skeleton space
  std::vector<glm::vec3> source_position;     // X_s, skeleton space (travel chains only)
  std::vector<glm::quat> target_rotation;     // rig-space part rotations of the retargeted pose
};

/// Sizes a context for `binding` (setup time; allocates).
RetargetContext make_retarget_context(const RetargetBinding& binding);

struct RetargetReport {
  bool ok = false;     // false: sizes or the rig did not match the binding; nothing was written
  int mapped = 0;      // target joints written with a source's motion
  int sanitized = 0;   // source values read that were nonfinite (or whose travel overflowed) and replaced by rest values
};

/// rule RT4-RT6. `source_local` holds the FULL sampled local transform of every source joint
/// (source_skeleton.hpp); `source_coverage` its coverage (empty span: all 1). Writes every
/// target joint's T and coverage: mapped joints get the retargeted rotation (and travel on the
/// translating joints: the pivot lands at its rest pivot plus the scaled skeleton-space travel
/// of its source joint, whatever its animated parents did) with the source coverage; unmapped
/// joints get identity and coverage 0. Only the source joints that drive a target joint, and
/// their ancestors, are read (binding.source_needed); a bad value elsewhere is not counted.
/// `context.target_rotation` receives the rig-space part rotations (root part at identity) of
/// the target joints that are mapped or have a mapped descendant (binding.target_needed).
/// Allocation-free, never throws, deterministic. A nonfinite source rotation is replaced by
/// its rest rotation; a nonfinite position on a travel chain gives no travel that frame.
RetargetReport sample_retarget(const RetargetBinding& binding, const Rig& rig,
                               std::span<const Transform> source_local,
                               std::span<const float> source_coverage, RetargetContext& context,
                               std::span<Transform> target_local, std::span<float> target_coverage);

}  // namespace asterune
