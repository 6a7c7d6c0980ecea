// glTF 2.0 export of solved frames (formats.md "beyond"): the rig as a node hierarchy and the
// frames as one animation, for Blender and any glTF viewer. The reader (gltf.hpp) reads it back
// as part nodes, which clip_from_part_nodes() (retarget/rig_source.hpp) turns into Motor6D
// transforms on the rig it was written for (rule F28).
//
// What is written:
//   - one node per part that the rig places: the root part (a scene root) and the child part
//     of every joint, named by the part, parented like the joints (a joint with no parent
//     joint hangs under the root part's node). Each joint's node has a box mesh of its part's
//     size, centred on the part's placement (the part CFrame); the root part's node has no mesh
//     (rule F25: in Roblox it is an invisible mover, and its box would hide the body).
//   - one animation with a translation and a rotation channel per node, LINEAR, keyed at the
//     frame times (or, reduced, at each node's kept keys: LINEAR, or CUBICSPLINE with tangents).
//     Node locals are parent_world^-1 * world, so a viewer's world placement of
//     each node equals the frame record's world placement (the CLI's `world`).
//   - each node's own TRS: the rig's rest (every T identity) under the first frame's root, so a
//     reader taking node TRS as the rest measures travel from the rest pelvis (rule F28).
//   - units: 1 glTF unit = 1 stud (Roblox axes: +Y up, the character facing -Z). Scale by
//     0.28 for metres (Blender: import, then scale the scene root).
//   - .glb: one binary chunk. .gltf: JSON with the buffer embedded as a base64 data URI.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "asterune/core/result.hpp"
#include "asterune/formats/frame_record.hpp"
#include "asterune/clip/key_reduction.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::io {

/// The asset.generator of the files this writer makes: the reader (gltf.hpp) takes their units
/// as studs.
inline constexpr const char* kAsteruneGenerator = "asterune-rig";

struct GltfWriteOptions {
  bool binary = true;  // .glb (true) or .gltf with an embedded buffer
  std::string animation_name = "asterune";
  /// Rule F7 (reduced keys, key_reduction.hpp): per node (0 = the root part, 1 + j = joint j's
  /// child part), the increasing indices into `frames` that key it; each node's channels then
  /// get their own times. Empty: every frame keys every node.
  std::vector<std::vector<int>> node_keys;
  /// Per node, per key of node_keys: the node's local (translation, rotation) written there
  /// (the key reduction's fitted values). Empty, or a node's list not matching its keys: the
  /// frame's own.
  std::vector<std::vector<Transform>> node_key_values;
  /// Per node, per key of node_keys: glTF CUBICSPLINE tangents (KeyTangents, per second). Given
  /// for every node (with node_key_values), the channels are CUBICSPLINE, each key written as
  /// in-tangent, value, out-tangent, the rotation values with the signs given (the spline is of
  /// the 4-vectors); else LINEAR.
  std::vector<std::vector<KeyTangents>> node_key_tangents;
};

/// Encodes the rig and `frames` (in time order, each with rig.joint_count() world placements)
/// as a glTF 2.0 document: the bytes of a .glb, or the text of a .gltf. The root part's node
/// takes each frame's FrameRecord::root (so a root that moves along a path is keyed too). Fails,
/// naming the frame, when a record has the wrong number of entries, a nonfinite placement
/// (root included), or times that do not increase; and when `frames` is empty or the rig has
/// no root part. Allocates (export time, not per frame).
Result<std::vector<std::uint8_t>> encode_gltf(const Rig& rig, std::span<const FrameRecord> frames,
                                              const GltfWriteOptions& options);

/// encode_gltf() into `path`; binary when the extension is .glb (case-insensitive), else
/// .gltf text. Fails naming the file when it cannot be written.
Status write_gltf_file(const std::filesystem::path& path, const Rig& rig, std::span<const FrameRecord> frames,
                       const std::string& animation_name = "asterune");
/// The same with options (node_keys, animation_name); `binary` follows the extension.
Status write_gltf_file(const std::filesystem::path& path, const Rig& rig, std::span<const FrameRecord> frames,
                       GltfWriteOptions options);

}  // namespace asterune::io
