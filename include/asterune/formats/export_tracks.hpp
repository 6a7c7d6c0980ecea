// The key tracks each export plays back, built from a run's solved frames: the input of the
// error-bounded key reduction (clip/key_reduction.hpp) for the Roblox KeyframeSequence and
// CurveAnimation writers and for the glTF writer.
#pragma once

#include <span>

#include "asterune/clip/key_reduction.hpp"
#include "asterune/formats/frame_record.hpp"

namespace asterune {
class Rig;
}

namespace asterune::io {

/// The tracks --out FILE.rbxmx plays: one per joint (layout order), local = the frame's motor
/// transform T, pre = C0 (after the joint's anchor when it has no parent joint), post = C1^-1,
/// base = identity (the KeyframeSequence does not move the root part). Frames must hold
/// rig.joint_count() locals each.
KeyTracks keyframe_sequence_tracks(const Rig& rig, std::span<const FrameRecord> frames);

/// The tracks --out FILE.glb/.gltf plays: node 0 = the root part (local = FrameRecord::root),
/// node 1 + j = joint j's child part, local = parent world^-1 * world (gltf_writer.hpp).
KeyTracks gltf_node_tracks(const Rig& rig, std::span<const FrameRecord> frames);

}  // namespace asterune::io
