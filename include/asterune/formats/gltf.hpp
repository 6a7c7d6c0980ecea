// glTF 2.0 source import (rule P4, beyond): a skin's joints as a SourceSkeleton and the
// file's animations as Clips keyed by joint name, for retargeting onto rigs. Uses tinygltf.
//
// Conventions (see docs/clips.md):
//   - Joints keep the skin's order, except that a joint listed before its parent is moved
//     after it (parents first); joint_nodes maps back to glTF nodes. A joint's parent is its
//     nearest ancestor node that is also a joint of the skin.
//   - rest_local = the node's own TRS/matrix (scale is dropped). The transforms of non-joint
//     nodes between a joint and its joint-parent (or the scene root), e.g. CesiumMan's "Z_UP"
//     and "Armature", are folded into that joint's rest and keys, so skeleton space is the
//     scene's (Y-up) space. Animation of those non-joint nodes is ignored.
//   - Lengths stay in the file's metres; skeleton.units_to_studs = 1 / 0.28.
//   - Rotation, translation and scale channels become keys (ClipTrack::scales keeps the scale
//     keys; rigid rigs ignore them). LINEAR, STEP and CUBICSPLINE map to Interpolation::kLinear,
//     kStep and kCubicSpline; CUBICSPLINE's in-tangent/value/out-tangent triples fill the
//     track's values and *_in_tangents / *_out_tangents (rotated by the folded non-joint
//     transforms like the values).
//   - Unnamed joint nodes are called "node<index>". Clip duration = the last key time.
#pragma once

#include <string>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune::io {

struct GltfSourceOptions {
  int skin = 0;                       // which skin provides the skeleton
  float units_to_studs = 1.0f / 0.28f;  // glTF is in metres
};

struct GltfSource {
  SourceSkeleton skeleton;
  std::vector<int> joint_nodes;  // glTF node index of each skeleton joint
  std::vector<Clip> clips;       // one per animation; name = animation name or "animation<i>"
};

/// Loads a .gltf or .glb file. Fails with the file name and the reason (unreadable file,
/// parse error, no skin / skin index out of range, bad accessor data, nonfinite values).
Result<GltfSource> load_gltf_source(const std::string& path, const GltfSourceOptions& options = {});

}  // namespace asterune::io
