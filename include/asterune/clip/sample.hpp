// Clip sampling: evaluates a bound clip at a time into caller-owned local transforms and
// coverage weights (rule P2). Per-frame: allocation-free, never throws, deterministic.
//
// Time: nonfinite times (NaN, +/-inf) are treated as 0. kLoop wraps into [0, duration)
// (negative times wrap backwards); kClamp clamps to [0, duration]. A clip with duration <= 0 or
// nonfinite duration samples at time 0.
// Channels: between two keys a rotation is interpolated along the shortest arc and a
// translation lerped (or held, for Interpolation::kStep; or follows the Hermite spline of its
// tangents, for kCubicSpline: p(s) = (2s^3-3s^2+1) v0 + (s^3-2s^2+s) dt b0 + (-2s^3+3s^2) v1 +
// (s^3-s^2) dt a1, s in [0, 1], b0 the out-tangent of the earlier key, a1 the in-tangent of the
// later one). Rotation keys at most 20 degrees apart are blended by normalized lerp, wider ones
// slerped: the result is within kNlerpMaxError (1.8e-4 rad) of true slerp (math/transform.hpp,
// nlerp_or_slerp). Before a channel's first key it holds the first
// key; after the last key it holds the last (no wrap between last and first key).
// Per-key easing (ClipTrack::rotation_easing / translation_easing, rule P5): the blend factor
// of a segment goes through ease() of the key at the segment's start (clip/easing.hpp); an
// eased factor outside [0, 1] (Elastic) extends the slerp arc / lerp line past a key.
// Coverage: 1 for a joint whose track has at least one key; 0 for a joint with no track (or an
// empty track), which receives binding.defaults()[j]. A track missing one channel takes that
// channel from the default (e.g. a rotation-only BVH joint keeps its rest OFFSET).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

struct Pose;

enum class WrapMode { kLoop, kClamp };

/// Maps a time onto the clip's time range per the rules above (nonfinite -> 0).
float wrap_clip_time(float time, float duration, WrapMode wrap);

/// Samples the clip `binding` was built from at `time` into local[j] / coverage[j]. The keys
/// and the duration are the binding's (ClipBinding::bound_clip(): the clip as it was at bind,
/// one source of truth with the key stream a cursor plays), so an edit of `clip` after binding
/// is not seen; `clip` should be that clip: a track index beyond clip.tracks (a wrong clip)
/// samples as unbound. `local` and `coverage` must hold binding.joint_count() entries;
/// otherwise nothing is written and false is returned (rule RG4). Allocation-free.
bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap,
                 std::span<Transform> local, std::span<float> coverage);

/// A playback cursor: the key segment each joint's channels used last time, so that forward
/// (or slow) playback finds the next segment in a step or two instead of a binary search. Owned
/// by the caller, one per playing character; it only speeds sampling up: results are bit-identical
/// to sampling without it, for any sequence of times (jumps and reversals fall back to search).
struct ClipCursor {
  std::vector<std::uint32_t> keys;  // 2 per joint: rotation segment, translation segment
  // The binding's key stream (ClipBinding::key_stream) as far as this cursor has played it:
  // each streamed joint's current key segments, four joints per group, and the position in the
  // stream's records. Forward playback applies the records it passes; going back (a loop wrap)
  // or a long jump sets every segment by search instead; a jump right after a jump (scrubbing)
  // samples as without a cursor, so scrubbing costs no more than that (rule P6).
  std::vector<float> lanes;
  std::uint64_t stream_id = 0;  // the stream the lanes belong to (0: none yet)
  std::uint32_t stream_position = 0;  // in the one-lane records
  std::uint32_t group_position = 0;   // in the four-lane records
  float stream_time = 0.0f;
  // The last sample jumped (went back, or far forward): a second jump in a row is sampled
  // without the lanes (scrubbing), which are then stale until playback goes forward again.
  bool jumped = false;
  bool stale = false;
  std::uint32_t stale_steps = 0;  // short steps forward since the lanes went stale
};

/// A cursor for `binding` (setup time; allocates 2 * joint_count entries).
ClipCursor make_clip_cursor(const ClipBinding& binding);

/// sample_clip() with a cursor made for `binding`. Returns false and writes nothing when the
/// cursor was not sized for this binding. Allocation-free, never throws.
bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap, ClipCursor& cursor,
                 std::span<Transform> local, std::span<float> coverage);

/// Same, into a Pose sized for the binding's target (make_pose / by hand).
bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap, Pose& pose);

/// Samples one track alone (both channels), using `fallback` for a missing channel.
/// Returns fallback unchanged for an empty track. Allocation-free. The track is not validated
/// here: its key times must be finite and non-decreasing, as validate_clip() checks for a
/// clip's tracks (other times give an unspecified key, or blend of keys, of the track).
Transform sample_track(const ClipTrack& track, float clip_time, const Transform& fallback);

/// Samples the track's scale channel (ClipTrack::scales) at `clip_time`, or returns `fallback`
/// when it has none. Same segment and interpolation rules as the other channels.
glm::vec3 sample_track_scale(const ClipTrack& track, float clip_time, const glm::vec3& fallback = glm::vec3(1.0f));

}  // namespace asterune
