// Clip sampling: evaluates a bound clip at a time into caller-owned local transforms and
// coverage weights (SPEC P2). Per-frame: allocation-free, never throws, deterministic.
//
// Time: nonfinite times (NaN, +/-inf) are treated as 0. kLoop wraps into [0, duration)
// (negative times wrap backwards); kClamp clamps to [0, duration]. A clip with duration <= 0 or
// nonfinite duration samples at time 0.
// Channels: between two keys a rotation is slerped along the shortest arc and a translation
// lerped (or held, for Interpolation::kStep). Before a channel's first key it holds the first
// key; after the last key it holds the last (no wrap between last and first key).
// Coverage: 1 for a joint whose track has at least one key; 0 for a joint with no track (or an
// empty track), which receives binding.defaults()[j]. A track missing one channel takes that
// channel from the default (e.g. a rotation-only BVH joint keeps its rest OFFSET).
#pragma once

#include <span>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

struct Pose;

enum class WrapMode { kLoop, kClamp };

/// Maps a time onto the clip's time range per the rules above (nonfinite -> 0).
float wrap_clip_time(float time, float duration, WrapMode wrap);

/// Samples `clip` (which must be the clip `binding` was built from, unmodified) at `time` into
/// local[j] / coverage[j]. `local` and `coverage` must hold binding.joint_count() entries;
/// otherwise nothing is written and false is returned (rule RG4). A track index beyond
/// clip.tracks (wrong clip) samples as unbound. Allocation-free.
bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap,
                 std::span<Transform> local, std::span<float> coverage);

/// Same, into a Pose sized for the binding's target (make_pose / by hand).
bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap, Pose& pose);

/// Samples one track alone (both channels), using `fallback` for a missing channel.
/// Returns fallback unchanged for an empty track. Allocation-free.
Transform sample_track(const ClipTrack& track, float clip_time, const Transform& fallback);

}  // namespace asterune
