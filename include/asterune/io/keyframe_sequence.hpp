// Roblox KeyframeSequence files (.rbxmx holding one KeyframeSequence, as saved from Roblox
// Studio's Animation Editor): written from solved frames, read back as a clip.
//
//   KeyframeSequence  Loop, Priority
//     Keyframe  Time = frame time (s)                   one per frame
//       Pose  HumanoidRootPart (the rig's root part)     identity CFrame
//         Pose  LowerTorso   CFrame = T of the joint placing LowerTorso
//           Pose  UpperTorso ...                         the part hierarchy, from the root part
//
// A Pose's CFrame is the motor transform T of the joint whose child part (Part1) the Pose names
// (child = P * C0 * T * C1^-1, docs/frames.md): Roblox's Animator writes it to Motor6D.Transform.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/io/frames_file.hpp"
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
  /// Rule F7 (reduced keys, key_reduction.hpp): per joint (layout order), the indices into
  /// `frames` that key it. Empty: every frame keys every joint. A frame keying no joint writes
  /// no Keyframe; an unkeyed joint whose descendants are keyed gets a Weight 0 Pose (which
  /// carries no key) to hold their Poses.
  std::vector<std::vector<int>> joint_keys;
};

/// Writes `frames` (their time and local T; coverage and world are not used) as a
/// KeyframeSequence document: one Keyframe per frame (per keyed frame with options.joint_keys) at FrameRecord::time, each holding a Pose
/// tree that mirrors the rig's part hierarchy from the root part. The root part's Pose has an
/// identity CFrame; every other Pose's CFrame is its joint's T. Every Pose has Weight 1, easing
/// style Linear, direction In. Joints not reached from the root part (rule R4) are left out.
/// Numbers are printed with 9 significant digits, so floats read back exactly.
/// Each record must hold rig.joint_count() local transforms (otherwise the frame is skipped).
/// Allocates (setup/export time, not per frame).
std::string write_keyframe_sequence(const Rig& rig, std::span<const FrameRecord> frames,
                                    const KeyframeSequenceOptions& options = {});

/// write_keyframe_sequence() to a file; fails naming the file when it cannot be written.
Status write_keyframe_sequence_file(const std::filesystem::path& path, const Rig& rig,
                                    std::span<const FrameRecord> frames, const KeyframeSequenceOptions& options = {});

/// A KeyframeSequence read as a clip.
struct KeyframeSequenceClip {
  Clip clip;          // one track per animated Pose name; duration = the last Keyframe's Time
  bool loop = false;
  AnimationPriority priority = AnimationPriority::kAction;
  std::string root_part;  // the Name of the first top-level Pose (the part the tree hangs from)
};

/// Reads the first KeyframeSequence item of a Roblox XML document. Each Pose below a top-level
/// Pose becomes keys of the track named by the Pose (its part name; "Parent/Child" when the same
/// name appears under two different parent Poses, rule R6) at its Keyframe's Time. Top-level
/// Poses name the root part, which no joint places: their CFrames are ignored (as in Roblox).
/// Poses with Weight 0 add no key (their joint is not animated by that Keyframe); a track with
/// no key is left out. EasingStyle Constant on every key of a track gives step interpolation;
/// every other style is read as linear (Cubic, Elastic, Bounce are approximated).
/// Fails, naming the file, the item (class, Name, referent), the property and the reason, on:
/// malformed XML, no KeyframeSequence, a Keyframe without a finite Time >= 0, a Pose without a
/// Name or with a missing/unparsable/non-rotation CFrame or a nonfinite/negative Weight, a bad
/// Priority token. Keyframes may come in any order (they are sorted by Time).
Result<KeyframeSequenceClip> parse_keyframe_sequence(std::string_view text, std::string_view file_label);
Result<KeyframeSequenceClip> read_keyframe_sequence_file(const std::filesystem::path& path);

}  // namespace asterune::io
