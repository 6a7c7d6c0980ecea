// Pose blending job (rules BL1-BL5): weighted layers of local poses, per-joint weights, additive
// layers and a rest (bind) fallback pose in; one local pose and its per-joint coverage out. A
// pure function over caller-owned spans, in the style of the solvers: nothing allocated,
// nothing thrown, no state, the same bits on every thread. The animator's Roblox composition
// (priorities and budgets, rules AN4-AN6) and the animation graph's blend nodes both run on it;
// docs/animator.md ("The blending job") gives every formula.
//
//   layers[i]  : pose_i (n transforms), weight_i, joint_weights_i (n, optional: mask x coverage)
//   additive[k]: delta_k (n transforms), weight_k, joint_weights_k (n, optional)
//   rest_pose  : n transforms (optional: identities), blended in where the layers' weights sum below 1
//   --blend_poses--> output (n transforms), coverage (n, optional: 1 - rest share)
//
// Joints are blended four at a time (SSE2; a scalar path under ASTERUNE_SCALAR_KERNELS). The
// same job also takes poses four joints wide (SoaTransform, rule BL5), the layout a blend reads
// without transposing: a caller that keeps its poses so (a graph's buffers, a sampler writing
// four joints at a time) pays neither the transposes in nor out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "asterune/math/transform.hpp"

namespace asterune {

/// One weighted layer: a full local pose and its weight. The effective weight of joint j is
/// `weight * joint_weights[j]` (or `weight` when joint_weights is empty); it contributes only
/// when that product is positive and at most 1e15 (rule BL3: zero, negative, infinite, NaN
/// and larger weights contribute nothing and never reach the pose; the bound keeps every sum
/// finite).
struct BlendLayer {
  std::span<const Transform> pose;       // n local transforms
  float weight = 1.0f;                   // any value; see above
  std::span<const float> joint_weights;  // empty (1 for every joint) or n: mask x coverage
};

/// One additive layer (rule BL2): a delta pose (rotation q_d, translation p_d; e.g. a sample
/// times the inverse of its reference pose: q_d = q conj(q_ref), p_d = p - p_ref) applied on
/// top of the blended pose with weight a = weight * joint_weights[j]; a negative a subtracts,
/// a zero or nonfinite a leaves the joint as it is.
struct AdditiveLayer {
  std::span<const Transform> delta;      // n deltas
  float weight = 1.0f;                   // any value; see above
  std::span<const float> joint_weights;  // empty (1 for every joint) or n
};

/// How rotations are brought back to unit length (rule BL1).
enum class BlendNormalize : std::uint8_t {
  /// A reciprocal square root estimate refined by one Newton step, four joints per
  /// instruction: unit within 1e-6. The default (the graph's blends).
  kFast,
  /// q * (1 / sqrt(|q|^2)) rounded as the scalar expression rounds it (still four joints per
  /// instruction): the animator uses it so that its composition keeps its documented bits.
  kExact,
};

/// Everything one blend reads and writes. Every span holds n = output.size() entries unless
/// it is documented as optional and left empty.
struct BlendingJob {
  std::span<const BlendLayer> layers;       // any number, in order: the first contributing
                                            // layer of a joint is its sign reference
  std::span<const AdditiveLayer> additive;  // any number, applied after the layers, in order
  std::span<const Transform> rest_pose;     // optional (empty or n): the fallback pose (the
                                            // bind pose); empty: identity transforms
  /// Optional (empty or n): the rest share of each joint decided by the caller's own budget
  /// (the animator's priority levels). Given, the layers' weights and these shares are used as
  /// they are, with no renormalisation (a nonfinite or negative share counts as 0). Empty: the
  /// rest share is max(0, 1 - W) with W the joint's summed contributing weight, and when W > 1
  /// the weights are divided by W (rule BL1).
  std::span<const float> rest_weights;
  BlendNormalize normalize = BlendNormalize::kFast;
  std::span<Transform> output;  // n: the blended local pose
  std::span<float> coverage;    // optional (empty or n): 1 - rest share; 0 where no layer contributes
};

/// Blends the job's layers into job.output (rules BL1-BL4). Per joint j, with e_i the
/// contributing effective weights (layer order) and r the rest share:
///   s_i = sign(dot(q_ref, q_i))   (q_ref: the first contributing layer's rotation)
///   q   = normalize(sum_i s_i e_i q_i + s_r r q_rest),  p = sum_i e_i p_i + r p_rest
/// (divided by W when rest_weights is empty and W > 1); then the additive layers in order:
///   d = a < 0 ? conj(q_d) : q_d, sign-aligned to w >= 0, b = |a|,
///   q = normalize(normalize((1 - b) identity + b d) q),  p += a p_d.
/// A joint no layer contributes to is the rest pose (coverage 0) before the additive layers; a
/// joint whose only contribution has weight exactly 1 gets that layer's transform unchanged
/// (coverage 1; a rest share the caller gives is then not blended in). Output rotations are unit within 1e-6 (kFast) or
/// to rounding (kExact) for unit inputs.
/// Returns false and writes nothing (rule RG4) when a span has the wrong size: a layer's pose,
/// a non-empty joint_weights, an additive delta, a non-empty rest_pose, rest_weights or
/// coverage not of n entries. n = 0 is valid (nothing to do). Allocation-free, no exceptions.
bool blend_poses(const BlendingJob& job);

/// Four joints' local transforms component by component (rule BL5): lane k of block b is joint
/// 4b + k. Lanes past a pose's last joint are padding (to_soa writes identities there).
struct alignas(16) SoaTransform {
  float qx[4], qy[4], qz[4], qw[4];  // rotation
  float px[4], py[4], pz[4];         // position
};

/// Blocks that hold `joint_count` joints: ceil(joint_count / 4).
constexpr std::size_t soa_block_count(std::size_t joint_count) { return (joint_count + 3) / 4; }

/// pose -> blocks (out.size() == soa_block_count(pose.size())), padding lanes the identity;
/// from_soa: blocks -> the first out.size() joints (blocks.size() == soa_block_count(out.size())).
/// Exact moves, no arithmetic. Return false and write nothing when the sizes disagree.
bool to_soa(std::span<const Transform> pose, std::span<SoaTransform> out);
bool from_soa(std::span<const SoaTransform> blocks, std::span<Transform> out);

struct SoaBlendLayer {
  std::span<const SoaTransform> pose;    // soa_block_count(joint_count) blocks
  float weight = 1.0f;                   // as BlendLayer::weight
  std::span<const float> joint_weights;  // empty or joint_count (not padded)
};
struct SoaAdditiveLayer {
  std::span<const SoaTransform> delta;  // soa_block_count(joint_count) blocks
  float weight = 1.0f;
  std::span<const float> joint_weights;  // empty or joint_count
};

/// BlendingJob with its poses four joints wide (rule BL5): every field means what it means
/// there; pose spans hold soa_block_count(joint_count) blocks, per-joint spans joint_count
/// floats. The output's padding lanes are left unspecified.
struct SoaBlendingJob {
  std::size_t joint_count = 0;
  std::span<const SoaBlendLayer> layers;
  std::span<const SoaAdditiveLayer> additive;
  std::span<const SoaTransform> rest_pose;  // optional (empty or the blocks)
  std::span<const float> rest_weights;      // optional (empty or joint_count)
  BlendNormalize normalize = BlendNormalize::kFast;
  std::span<SoaTransform> output;  // the blocks
  std::span<float> coverage;       // optional (empty or joint_count)
};

/// The formula of blend_poses(const BlendingJob&), lane for lane: the same bits for the same
/// joints whichever layout they come in (rule BL5). Returns false and writes nothing when a
/// span has the wrong size (rule RG4).
bool blend_poses(const SoaBlendingJob& job);

}  // namespace asterune
