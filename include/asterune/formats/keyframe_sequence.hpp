// Roblox KeyframeSequence files (.rbxmx holding one KeyframeSequence, as saved from Roblox
// Studio's Animation Editor): written from solved frames, read back as a clip.
//
//   KeyframeSequence  Loop, Priority
//     Keyframe  Time = frame time (s), Name           one per frame
//       KeyframeMarker  Name, Value                   the clip's markers (ClipMarker)
//       Pose  HumanoidRootPart (the rig's root part)     identity CFrame (Roblox ignores it)
//         Pose  LowerTorso   CFrame = T of the joint placing LowerTorso; Weight, EasingStyle,
//           Pose  UpperTorso ...                       EasingDirection; the part hierarchy
//
// A Pose's CFrame is the motor transform T of the joint whose child part (Part1) the Pose names
// (child = P * C0 * T * C1^-1, docs/frames.md): Roblox's Animator writes it to Motor6D.Transform.
// No Motor6D has the root part as its Part1, so the top-level Pose's CFrame moves nothing in
// Roblox: root travel is the engine's (the Humanoid's) job and is not in the file (rule F5).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/formats/frame_record.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::io {

/// Roblox Enum.AnimationPriority (the token values stored in the file).
enum class AnimationPriority { kIdle = 0, kMovement = 1, kAction = 2, kAction2 = 3, kAction3 = 4, kAction4 = 5, kCore = 1000 };

/// "Idle", "Movement", "Action", "Action2", "Action3", "Action4", "Core".
const char* to_string(AnimationPriority priority);
/// The priority named `name` (the names of to_string, case-sensitive), or nullopt.
std::optional<AnimationPriority> parse_animation_priority(std::string_view name);

struct KeyframeSequenceOptions {
  std::string name = "Animation";                          // the KeyframeSequence's Name
  bool loop = false;                                       // KeyframeSequence.Loop
  AnimationPriority priority = AnimationPriority::kAction; // KeyframeSequence.Priority
  /// Written into the Keyframe whose Time equals the marker's time (an empty Keyframe is added
  /// when no frame has that time): a kKeyframe marker names the Keyframe, a kMarker becomes a
  /// KeyframeMarker (Name, Value) child of it.
  std::vector<ClipMarker> markers;
  /// Rule F7 (reduced keys, key_reduction.hpp): per joint (layout order), the indices into
  /// `frames` that key it. Empty: every frame keys every joint. A frame keying no joint writes
  /// no Keyframe; an unkeyed joint whose descendants are keyed gets a Weight 0 Pose (which
  /// carries no key) to hold their Poses.
  std::vector<std::vector<int>> joint_keys;
  /// Per joint, per key of joint_keys: the Pose CFrame written there (the key reduction's
  /// fitted values). Empty, or a joint's list not matching its keys: the frame's own T.
  std::vector<std::vector<Transform>> joint_key_values;
  /// Per joint, per key of joint_keys: the Pose's EasingStyle / EasingDirection (the easing of
  /// the segment that starts at the key, rule P5; the key reduction's choice). Empty, or a
  /// joint's list not matching its keys: Linear.
  std::vector<std::vector<KeyEasing>> joint_key_easing;
};

/// The animator's TrackPriority for a file's AnimationPriority: the same name (Core, Idle,
/// Movement, Action, Action2, Action3, Action4), whose rank orders composition (Core lowest).
TrackPriority to_track_priority(AnimationPriority priority);

/// Writes `frames` (their time and local T; coverage and world are not used) as a
/// KeyframeSequence document: one Keyframe per frame (per keyed frame with options.joint_keys) at FrameRecord::time, each holding a Pose
/// tree that mirrors the rig's part hierarchy from the root part. The root part's Pose has an
/// identity CFrame (Roblox ignores it, rule F5); every other Pose's CFrame is its joint's T.
/// Every Pose has Weight 1, easing style Linear, direction In (or options.joint_key_easing). Joints not reached from the root
/// part (rule R4) are left out. Markers of `options` as documented there.
/// Numbers are printed with 9 significant digits, so floats read back exactly.
/// Fails (naming the frame) when a record does not hold rig.joint_count() local transforms or
/// its time is not a finite number >= 0, as the glTF writer does. Allocates (export time).
Result<std::string> write_keyframe_sequence(const Rig& rig, std::span<const FrameRecord> frames,
                                            const KeyframeSequenceOptions& options = {});

/// write_keyframe_sequence() to a file; fails naming the file when it cannot be written.
Status write_keyframe_sequence_file(const std::filesystem::path& path, const Rig& rig,
                                    std::span<const FrameRecord> frames, const KeyframeSequenceOptions& options = {});

/// One Pose of a KeyframeSequence's Pose tree (the union over its Keyframes, in file order).
struct KeyframeSequencePose {
  std::string name;  // the Pose's Name
  int parent = -1;   // index of the enclosing Pose in KeyframeSequenceClip::poses; -1 top-level
  int track = -1;    // the clip track its keys went to; -1 for top-level Poses and Poses never keyed
};

/// What the file says of a track's keys beyond their values, one entry per key (the keys of a
/// KeyframeSequence track share their rotation and translation times).
struct KeyframeSequenceKeys {
  std::vector<float> weights;     // Pose.Weight (> 0: Weight 0 adds no key)
  std::vector<KeyEasing> easing;  // Pose.EasingStyle / EasingDirection as read
};

/// A KeyframeSequence read as a clip.
struct KeyframeSequenceClip {
  Clip clip;          // one track per animated Pose name; duration = the last Keyframe's Time;
                      // markers = named Keyframes and KeyframeMarkers
  bool loop = false;                                        // the track's default Looped
  AnimationPriority priority = AnimationPriority::kAction;  // the track's default priority
  std::string root_part;  // the Name of the first top-level Pose (the part the tree hangs from)
  std::vector<KeyframeSequencePose> poses;  // parents before children
  std::vector<KeyframeSequenceKeys> keys;   // parallel to clip.tracks
};

/// Reads the first KeyframeSequence item of a Roblox XML document, without recursion at any
/// nesting depth (rule RG5). Each Pose below a top-level Pose becomes keys of the track named by
/// the Pose (its part name; "Parent/Child" when the same name appears under two different parent
/// Poses, rule R6) at its Keyframe's Time. Top-level Poses name the root part, which no joint
/// places: their CFrames are ignored (as in Roblox). Poses with Weight 0 add no key (their joint
/// is not animated by that Keyframe); a track with no key is left out.
/// Easing (rule P5): a track whose keys are all EasingStyle Constant steps (kStep); one whose
/// keys are all Linear is plain linear (no per-key easing); any other gets per-key easing
/// (ClipTrack::rotation_easing and translation_easing, from the key's style and direction).
/// Markers: a Keyframe whose Name is neither empty nor "Keyframe" gives a kKeyframe marker;
/// each KeyframeMarker child (Name, Value) a kMarker; ordered by time, a Keyframe's name before
/// its markers, ties in file order.
/// Fails, naming the file, the item (class, Name, referent), the property and the reason, on:
/// malformed XML, no KeyframeSequence, a Keyframe without a finite Time >= 0, a Pose without a
/// Name or with a missing/unparsable/non-rotation CFrame or a nonfinite/negative Weight, an
/// unknown EasingStyle or EasingDirection token, a bad Priority token. Keyframes may come in
/// any order (they are sorted by Time).
Result<KeyframeSequenceClip> parse_keyframe_sequence(std::string_view text, std::string_view file_label);
Result<KeyframeSequenceClip> read_keyframe_sequence_file(const std::filesystem::path& path);

/// Writes a KeyframeSequence read by parse_keyframe_sequence back: its Name, Loop, Priority,
/// markers, and the Pose tree at every key time of its tracks (plus the marker times and the
/// duration), each Pose with its key's CFrame, Weight and easing, or Weight 0 and an identity
/// CFrame where its track has no key at that time. Reading the result gives the same clip,
/// poses, weights, easing and markers (rotations within float rounding of the CFrame).
/// Fails when `keys` or a track's weights or easing do not match the clip's key counts.
Result<std::string> write_keyframe_sequence(const KeyframeSequenceClip& sequence);

}  // namespace asterune::io
