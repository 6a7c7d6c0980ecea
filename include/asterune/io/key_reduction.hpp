// Error-bounded key reduction for the exports (rule F7): which frames each animated track keeps
// so that, played back with linear interpolation between kept keys (slerp for rotations, lerp
// for positions, as Roblox's Linear easing and glTF's LINEAR do), every part's world position
// stays within a tolerance of the unreduced playback, at every frame time and halfway between
// frames. The check is on the whole body: a track's error moves everything below it.
//
// Algorithm: greedy removal with a world-space check. Passes over the tracks (parents first),
// each trying to remove every interior key of every track (left to right): a removal is kept
// when every part in the track's subtree, over the span between the key's kept neighbours
// (which is all the removal changes), stays within the pass's budget of the unreduced
// positions, with every other track as currently reduced. The budget grows over four passes
// (1/4, 1/2, 3/4, 1 of the tolerance) so no single track (the root) spends all of it. Every
// accepted step is checked against the current state of every track, so the result holds the
// tolerance by construction. First and last keys always stay.
#pragma once

#include <vector>

#include <span>

#include "asterune/io/frames_file.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::io {

/// A chain of animated local transforms: part placement of track i at frame f is
///   world(i, f) = world(parent[i], f) * pre[i] * local[f * tracks + i] * post[i]
/// (parent -1: base[f] * pre[i] * local * post[i]).
struct KeyTracks {
  std::vector<int> parent;       // per track, parents first; -1 for none
  std::vector<Transform> pre;    // per track, constant
  std::vector<Transform> post;   // per track, constant
  std::vector<Transform> base;   // per frame: the placement tracks without a parent hang from
  std::vector<float> times;      // per frame, increasing
  std::vector<Transform> local;  // [frame * tracks + track]
  size_t track_count() const { return parent.size(); }
};

struct KeyReduction {
  std::vector<std::vector<int>> keys;  // per track: the kept frame indices, increasing
  /// Per track, per kept key: the local to write at that key (fitted, not the frame's own).
  std::vector<std::vector<Transform>> values;
  size_t keys_before = 0;              // tracks x frames
  size_t keys_after = 0;
  float max_error = 0.0f;              // studs: the largest world position error found, checked after reduction
};

/// Reduces every track's keys within `tolerance` (studs, > 0). Allocates (export time).
KeyReduction reduce_keys(const KeyTracks& tracks, float tolerance);

/// The largest distance between any part's world position played from `keys` and from every
/// frame, over every frame time and every midpoint between consecutive frames (the check
/// reduce_keys() keeps; tests and the CLI report use it).
float key_reduction_error(const KeyTracks& tracks, const std::vector<std::vector<int>>& keys,
                          const std::vector<std::vector<Transform>>& values = {});

/// The tracks --out FILE.rbxmx plays: one per joint (layout order), local = the frame's motor
/// transform T, pre = C0 (after the joint's anchor when it has no parent joint), post = C1^-1,
/// base = identity (the KeyframeSequence does not move the root part). Frames must hold
/// rig.joint_count() locals each.
KeyTracks keyframe_sequence_tracks(const Rig& rig, std::span<const FrameRecord> frames);

/// The tracks --out FILE.glb/.gltf plays: node 0 = the root part (local = FrameRecord::root),
/// node 1 + j = joint j's child part, local = parent world^-1 * world (gltf_writer.hpp).
KeyTracks gltf_node_tracks(const Rig& rig, std::span<const FrameRecord> frames);

}  // namespace asterune::io
