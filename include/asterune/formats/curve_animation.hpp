// Roblox CurveAnimation files (.rbxmx holding one CurveAnimation, the AnimationClip whose
// channels are curves, rule F8): written from a key reduction with per-channel cubic keys, read
// back and evaluated as Roblox documents the curves.
//
//   CurveAnimation  Name, Loop, Priority
//     Folder  HumanoidRootPart (the rig's root part)       no curves (no Motor6D places it)
//       Folder  LowerTorso                                 one Folder per joint, named by its
//         Vector3Curve  Position   FloatCurve X, Y, Z        child part, nested as the parts are
//         EulerRotationCurve  Rotation  RotationOrder XYZ; FloatCurve X, Y, Z (radians)
//         Folder  UpperTorso ...
//
// A joint's Position and Rotation make the motor transform T (as a KeyframeSequence Pose's
// CFrame does): T = (position, rotation(X, Y, Z in the RotationOrder)). A FloatCurve's keys are
// its BinaryString property ValuesAndTimes (docs/formats.md "Roblox CurveAnimation"):
//   u32 2, u32 n, n x {u8 interpolation, u8 tangent flags (1 left, 2 right), f32 value,
//   f32 left tangent, f32 right tangent}, u32 1, u32 n, n x u32 time in ticks of 1/2400 s,
// little-endian, base64 in the XML. Roblox does not publish this layout: it is the one public
// readers and writers of Roblox files agree on (sources in docs/formats.md).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/formats/frame_record.hpp"
#include "asterune/formats/export_tracks.hpp"
#include "asterune/formats/keyframe_sequence.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::io {

/// Roblox Enum.KeyInterpolationMode: how the segment that starts at a key plays.
enum class KeyInterpolation : std::uint8_t { kConstant = 0, kLinear = 1, kCubic = 2 };

/// One FloatCurveKey. Tangents are slopes in value units per second; a tangent whose flag is
/// not set counts as 0 (as Roblox documents for an uninitialised tangent).
struct FloatCurveKey {
  float time = 0.0f;
  float value = 0.0f;
  KeyInterpolation interpolation = KeyInterpolation::kCubic;
  float left_tangent = 0.0f;
  float right_tangent = 0.0f;
  bool has_left = false;
  bool has_right = false;
};

/// Time resolution of ValuesAndTimes: key times are whole ticks of 1/2400 s.
inline constexpr float kCurveTicksPerSecond = 2400.0f;

/// A FloatCurve at `time` (rule F8): before the first key its value, after the last the last
/// key's value; between keys i and i + 1 (t_i <= time < t_i+1, s = (time - t_i) / (t_i+1 - t_i))
/// by key i's interpolation: Constant v_i; Linear v_i + s (v_i+1 - v_i); Cubic the Hermite
/// h00(s) v_i + h10(s) d r_i + h01(s) v_i+1 + h11(s) d l_i+1, d = t_i+1 - t_i, r_i key i's
/// right tangent, l_i+1 key i+1's left tangent. No key: 0.
float evaluate_float_curve(std::span<const FloatCurveKey> keys, float time);
/// Its slope d value / d time there (0 outside the keys and on Constant segments).
float float_curve_slope(std::span<const FloatCurveKey> keys, float time);

/// ValuesAndTimes bytes of `keys` (times rounded to ticks) and back. decode fails with a reason
/// on a short or overlong buffer, an unknown interpolation, a count mismatch, a value or tangent
/// that is not finite or beyond 1e6 in magnitude, or times that do not increase.
std::string encode_float_curve(std::span<const FloatCurveKey> keys);
Result<std::vector<FloatCurveKey>> decode_float_curve(std::string_view bytes);

/// One joint Folder of a CurveAnimation.
struct CurveAnimationJoint {
  std::string name;  // the Folder's Name: the part the joint places (its Part1)
  int parent = -1;   // the enclosing joint Folder's index; -1: directly below the root part's Folder
  bool has_position = false;  // a Vector3Curve "Position"
  bool has_rotation = false;  // an EulerRotationCurve "Rotation"
  RotationOrder order = RotationOrder::kXYZ;
  std::array<std::vector<FloatCurveKey>, 3> position;  // X, Y, Z
  std::array<std::vector<FloatCurveKey>, 3> rotation;  // X, Y, Z angles, radians
  /// The motor transform T at `time` (a missing channel: identity rotation / zero position).
  Transform evaluate(float time) const;
};

/// A CurveAnimation as read.
struct CurveAnimationFile {
  std::string name;
  bool loop = false;
  AnimationPriority priority = AnimationPriority::kAction;
  std::string root_part;                  // the top-level Folder's Name
  std::vector<CurveAnimationJoint> joints;  // parents before children
  float duration = 0.0f;                  // the last key time of any curve
};

/// Reads the first CurveAnimation item of a Roblox XML document, without recursion (rule RG5):
/// its first top-level Folder is the root part, each Folder below it a joint; Position and
/// Rotation channels as above (a FloatCurve missing from a channel leaves that component at 0).
/// Other items are ignored. Fails, naming the file, the item (class, Name, referent) and the
/// reason, on: malformed XML, no CurveAnimation, a Folder without a Name, a bad Loop / Priority
/// / RotationOrder, a FloatCurve without ValuesAndTimes, bad base64 or a ValuesAndTimes that
/// does not decode (decode_float_curve). Nothing is returned on failure.
Result<CurveAnimationFile> parse_curve_animation(std::string_view text, std::string_view file_label);
Result<CurveAnimationFile> read_curve_animation_file(const std::filesystem::path& path);

/// The clip that plays the CurveAnimation: one track per animated joint Folder (named by it,
/// "Parent/Child" when the name appears under two parents, rule R6), rotation and translation
/// as glTF-style cubic splines sampled from the curves at every key time and at least 240 times
/// a second between (each sample with the curves' exact derivatives on both sides; a segment
/// longer than 4 s gets 960 samples), so sampling the clip follows the curves to well under a
/// millimetre. duration = the file's.
Clip curve_animation_clip(const CurveAnimationFile& file);

/// A Roblox animation .rbxmx as a clip: a CurveAnimation (when the document's first animation
/// item is one) through curve_animation_clip(), otherwise parse_keyframe_sequence(). For a
/// CurveAnimation only clip, loop, priority and root_part are filled.
Result<KeyframeSequenceClip> read_roblox_animation_file(const std::filesystem::path& path);
Result<KeyframeSequenceClip> parse_roblox_animation(std::string_view text, std::string_view file_label);

struct CurveAnimationOptions {
  std::string name = "Animation";
  bool loop = false;
  AnimationPriority priority = AnimationPriority::kAction;
};

/// keyframe_sequence_tracks() with the frame times rounded to ticks of 1/2400 s (the file's
/// time resolution), so a reduction fitted on them plays exactly as written.
KeyTracks curve_animation_tracks(const Rig& rig, std::span<const FrameRecord> frames);

/// Writes a CurveAnimation of `tracks` (curve_animation_tracks) with the keys of `reduction`
/// (reduce_keys(tracks, tolerance, KeyCurve::kEulerCubic)): per joint, its Position and Rotation
/// FloatCurves on the joint's key times, Cubic keys with the fitted values and tangents (left
/// = in, right = out). An empty reduction (no keys) or one of another curve writes every frame
/// as a Linear key of the frame's T (angles unwrapped along time). Joints not reached from the
/// root part (rule R4) are left out. Fails when the tracks do not match the rig or a time is not
/// a finite number >= 0. Allocates (export time).
Result<std::string> write_curve_animation(const Rig& rig, const KeyTracks& tracks, const KeyReduction& reduction,
                                          const CurveAnimationOptions& options = {});
Status write_curve_animation_file(const std::filesystem::path& path, const Rig& rig, const KeyTracks& tracks,
                                  const KeyReduction& reduction, const CurveAnimationOptions& options = {});

}  // namespace asterune::io
