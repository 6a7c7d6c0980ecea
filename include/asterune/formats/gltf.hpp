// glTF 2.0 source import (rule P4, beyond; rule F20): the skeleton of the animated nodes as a
// SourceSkeleton and the file's animations as Clips keyed by joint name, for retargeting onto
// rigs. Uses tinygltf. Reads .gltf, .glb, and the glTF binaries .vrm and .vrma.
//
// Conventions (see docs/clips.md):
//   - Which nodes are joints (rule F20): the union of every skin's joints (skin 0's first), so a
//     file whose skin 0 is a head skin still has the whole body; or one skin
//     (GltfSourceOptions::skin); or, in an animation-only file (no skin: VRM Animation .vrma,
//     PlayCanvas animation files, our own --out .glb), every node of the node trees that hold an
//     animated node or a VRM humanoid bone, except a VRM Animation's expression and lookAt nodes
//     (their transforms carry weights and a gaze target, not bones).
//   - Joints keep that order, except that a joint listed before its parent is moved after it
//     (parents first); joint_nodes maps back to glTF nodes. A joint's parent is its nearest
//     ancestor node that is also a joint.
//   - rest_local = the node's own TRS/matrix (scale is dropped). The transforms of non-joint
//     nodes between a joint and its joint-parent (or the scene root), e.g. CesiumMan's "Z_UP"
//     and "Armature", are folded into that joint's rest and keys, so skeleton space is the
//     scene's (Y-up) space. Animation of those non-joint nodes is ignored.
//   - VRM humanoid bones (VRMC_vrm_animation, VRMC_vrm, VRM 0.x "VRM") that are humanoid roles
//     (hips ... toes; fingers, eyes and jaw are not) fill skeleton.roles: the roles come from
//     the file, not from names or structure.
//   - Lengths stay in the file's metres; skeleton.units_to_studs = 1 / 0.28, except for files
//     this library wrote (asset.generator kAsteruneGenerator), which are in studs (1).
//   - Rotation, translation and scale channels become keys (ClipTrack::scales keeps the scale
//     keys; rigid rigs ignore them). LINEAR, STEP and CUBICSPLINE map to Interpolation::kLinear,
//     kStep and kCubicSpline; CUBICSPLINE's in-tangent/value/out-tangent triples fill the
//     track's values and *_in_tangents / *_out_tangents (rotated by the folded non-joint
//     transforms like the values).
//   - Unnamed joint nodes are called "node<index>". Clip duration = the last key time.
//   - Work and memory are linear in the node, channel and key counts (hierarchy, folds and the
//     parents-first order in one pass each), all bounded by the file's size.
#pragma once

#include <string>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune::io {

struct GltfSourceOptions {
  int skin = -1;                      // which skin provides the skeleton; -1: every skin (their union)
  float units_to_studs = 1.0f / 0.28f;  // glTF is in metres
};

struct GltfSource {
  SourceSkeleton skeleton;
  std::vector<int> joint_nodes;  // glTF node index of each skeleton joint
  std::vector<Clip> clips;       // one per animation; name = animation name or "animation<i>"
  bool asterune_export = false;  // asset.generator kAsteruneGenerator: a node per part (rule F28)
};

/// Loads a .gltf, .glb, .vrm or .vrma file. Fails with the file name and the reason (unreadable
/// file, parse error, skin index out of range, neither a skin nor an animated node, bad
/// accessor data, nonfinite values, a node hierarchy with a cycle).
Result<GltfSource> load_gltf_source(const std::string& path, const GltfSourceOptions& options = {});

/// The index of the clip `which` names in `clips`: an exact clip name first, else a decimal
/// index. Fails listing the clips' names when it names none.
Result<size_t> find_gltf_clip(const std::vector<Clip>& clips, const std::string& which);

}  // namespace asterune::io
