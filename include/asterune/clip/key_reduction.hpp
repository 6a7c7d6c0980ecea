// Error-bounded key reduction for the exports (rule F7): which frames each animated track keeps,
// and the values (and easing or tangents) to write there, so that, played back as the file
// plays (KeyCurve: slerp/lerp between keys, optionally eased per segment as a Roblox Pose is, or
// a glTF CUBICSPLINE Hermite spline), every part stays within a tolerance of the unreduced
// playback (the frames, linear between them), at every frame time and every quarter frame
// between frames. A part's error is measured on its virtual vertices (rule P7: the corners of
// its box, KeyTracks::points), so a hand turning about the line from its joint to its centre
// counts, which a part's centre alone never shows. The check is on the whole body: a track's
// error moves everything below it.
//
// Algorithm: curve fitting with fitted key values (as ACL-style compressors do), checked in
// world space. Tracks are fitted one at a time, parents first. A track's target at each sample
// is the local that puts its part exactly where the unreduced export has it, given its parent
// as already reduced: so a child corrects its ancestors' errors instead of adding to them, and
// the budget is not split along a chain. Keys are chosen greedily: from each key, the farthest
// next key whose least-squares segment keeps every part of the track's subtree (descendants
// still unreduced) within 95% of the tolerance over the span: for kLinear / kEased the end
// value given the start (the first span fits both; kEased tries each easing and keeps the best),
// then all the track's values refitted together (kept when they hold too); for kCubicSpline the
// start's out-tangent, the end value and its in-tangent given the start value. A track that
// never translates keeps its position. Every check plays the keys as the file does, so when the
// last track is fitted every part has been checked on its final state; a final whole-body check
// over every sample (with nlerp and with exact slerp) confirms it, retrying at smaller budgets
// if it ever fails. First and last frames always key. docs/cli.md "Compact exports" has the
// figures and why Roblox's easing cannot go as far as cubic keys.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "asterune/clip/easing.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

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
  /// The virtual vertices (rule P7) measured on each track's part, in the frame of its
  /// placement world(i, f): track i's points are points[point_begin[i] .. point_begin[i + 1]).
  /// Empty point_begin: each part's origin alone (its position). A track with no points of its
  /// own (a root node) is still checked through the parts below it.
  std::vector<std::uint32_t> point_begin;
  std::vector<glm::vec3> points;
  size_t track_count() const { return parent.size(); }
};

/// How the kept keys play back between them.
///   kLinear: slerp / lerp (Roblox's Linear easing, glTF LINEAR).
///   kEased: the same with the blend factor through a per-segment Roblox easing curve
///     (ease(), clip/easing.hpp): each segment picks Linear or CubicV2 In / Out / InOut,
///     whichever lets it span the most frames. Still a slerp between two key values: easing
///     changes the timing along it, not the path.
///   kCubicSpline: glTF CUBICSPLINE, a Hermite spline of each key's value and its own in- and
///     out-tangent, the rotation's 4-vector normalised after interpolation (glTF 2.0
///     Appendix C; the library's sampler, clip/sample.hpp).
///   kEulerCubic: Roblox CurveAnimation (rule F8): per channel a cubic Hermite FloatCurve of
///     the position's x, y, z and of three Euler angles (radians, in the track's RotationOrder,
///     euler_rotation()), the angles unwrapped to be continuous along time; every channel of a
///     track shares the track's key times. Each track takes the order whose middle angle stays
///     farthest from +-90 degrees (gimbal lock) over the clip.
enum class KeyCurve : std::uint8_t { kLinear, kEased, kCubicSpline, kEulerCubic };

/// Roblox Enum.RotationOrder: rotation = R_first * R_second * R_third (kXYZ: Rx * Ry * Rz, as
/// CFrame.fromEulerAnglesXYZ), angles in radians.
enum class RotationOrder : std::uint8_t { kXYZ = 0, kXZY = 1, kYZX = 2, kYXZ = 3, kZXY = 4, kZYX = 5 };

/// The rotation of Euler angles (x, y, z about those axes, radians) in `order`.
glm::quat euler_rotation(const glm::vec3& angles, RotationOrder order);
/// Euler angles of `q` in `order` (euler_rotation(result, order) == q): of the two solutions and
/// their 2 pi multiples, the one nearest `near` (unwrapping along time).
glm::vec3 euler_angles(const glm::quat& q, RotationOrder order, const glm::vec3& near = glm::vec3(0.0f));

/// glTF CUBICSPLINE tangents of one key, per second (the spec's a_k and b_k): rotations as
/// quaternion-shaped 4-vectors, not unit rotations. kEulerCubic: the rotation fields hold the
/// Euler angles' slopes (radians per second) in x, y, z (w = 0): FloatCurveKey Left/RightTangent.
struct KeyTangents {
  glm::quat in_rotation{0.0f, 0.0f, 0.0f, 0.0f};
  glm::quat out_rotation{0.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 in_position{0.0f};
  glm::vec3 out_position{0.0f};
};

struct KeyReduction {
  KeyCurve curve = KeyCurve::kLinear;
  std::vector<std::vector<int>> keys;  // per track: the kept frame indices, increasing
  /// Per track, per kept key: the local to write at that key (fitted, not the frame's own).
  std::vector<std::vector<Transform>> values;
  /// kEased: per track, per key, the easing of the segment that starts at the key (Roblox's
  /// convention; the last key's is Linear). Empty otherwise.
  std::vector<std::vector<KeyEasing>> easing;
  /// kCubicSpline: per track, per key, its tangents. Values and tangents are written as they
  /// are (not flipped to a hemisphere): the spline is of the 4-vectors as stored. Empty otherwise.
  std::vector<std::vector<KeyTangents>> tangents;
  /// kEulerCubic: per track, per key, the Euler angles written (unwrapped along time; values'
  /// rotation is euler_rotation() of them in the track's order). Empty otherwise.
  std::vector<std::vector<glm::vec3>> euler;
  std::vector<RotationOrder> rotation_order;  // kEulerCubic: per track
  size_t keys_before = 0;              // tracks x frames
  size_t keys_after = 0;
  float max_error = 0.0f;              // studs: the largest virtual-vertex error found, checked after reduction
  /// The work done: part placements checked over all fits (not a time). Past 32 frames a span's
  /// candidate ends are probed at doubling steps, so this grows linearly with the frame count
  /// (rule F23).
  size_t work = 0;
};

/// Reduces every track's keys within `tolerance` (studs, > 0; otherwise every frame keys every
/// track with its own value). Time and memory linear in frames x tracks x subtree size (rule
/// F23). kEulerCubic: a segment that no Euler cubic follows within the tolerance keeps its own
/// frames' keys (per joint and segment, rule F24) and max_error says how far it is; the other
/// curves always hold the tolerance. Allocates (export time).
/// `progress`, when set, is called after each track is fitted with (tracks fitted, tracks to fit
/// over all attempts so far), for a progress display.
KeyReduction reduce_keys(const KeyTracks& tracks, float tolerance, KeyCurve curve = KeyCurve::kLinear,
                         const std::function<void(size_t done, size_t total)>& progress = {});

/// The largest distance between any virtual vertex (KeyTracks::points; the part's origin when
/// there are none) played linearly from `keys` (with
/// `values`, per track per key; empty: the frames' own locals) and from every frame, over every
/// frame time and every quarter frame between frames, the larger of nlerp_or_slerp playback
/// (the library's sampler) and exact slerp (Roblox, glTF viewers): the check reduce_keys()
/// keeps; tests and the CLI report use it.
float key_reduction_error(const KeyTracks& tracks, const std::vector<std::vector<int>>& keys,
                          const std::vector<std::vector<Transform>>& values = {});
/// The same for a reduction played with its own curve (easing, tangents).
float key_reduction_error(const KeyTracks& tracks, const KeyReduction& reduction);

}  // namespace asterune
