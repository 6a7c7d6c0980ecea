#include "asterune/clip/sample.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include "asterune/core/assert.hpp"
#include "asterune/rig/pose.hpp"
#include "clip/key_stream.hpp"
#include "math/sse_quat.hpp"  // ASTERUNE_SSE2 and the SSE2 intrinsics

namespace asterune {

namespace {

// Segment lookup shared by both channels: index of the key at or before t and the blend
// factor toward the next key. alpha = 0 means "exactly key i".
struct Segment {
  size_t index = 0;
  float alpha = 0.0f;
};

// The key index i with times[i] <= t < times[i + 1] (times non-decreasing, n >= 2,
// times[0] < t < times[n-1]); `hint` is where the previous frame found it. The condition names
// exactly one i (equal times are skipped), the one std::upper_bound - 1 gives, so a hint never
// changes the answer, only how fast it is found.
inline size_t locate(const float* times, size_t n, float t, size_t hint) {
  if (hint + 1 < n && times[hint] <= t) {
    // Forward playback: the same segment or one of the next few.
    for (size_t i = hint, stop = std::min(n - 1, hint + 4); i < stop; ++i)
      if (t < times[i + 1]) return i;
  }
  return static_cast<size_t>(std::upper_bound(times, times + n, t) - times) - 1;
}

inline Segment find_segment(const std::vector<float>& times, float t, Interpolation mode, size_t hint) {
  Segment s;
  const size_t n = times.size();
  if (n < 2 || !(t > times.front())) return s;  // before (or at) the first key: hold it
  if (t >= times.back()) {
    s.index = n - 1;
    return s;
  }
  s.index = locate(times.data(), n, t, hint);
  if (mode == Interpolation::kStep) return s;
  const float t0 = times[s.index];
  const float t1 = times[s.index + 1];
  const float dt = t1 - t0;
  s.alpha = dt > 0.0f ? std::clamp((t - t0) / dt, 0.0f, 1.0f) : 0.0f;
  return s;
}

// glTF cubic Hermite basis at s in [0, 1] for keys (v0, out-tangent b0) and (v1, in-tangent a1)
// spaced dt apart.
template <class V>
V hermite(const V& v0, const V& b0, const V& v1, const V& a1, float dt, float s) {
  const float s2 = s * s, s3 = s2 * s;
  return (2.0f * s3 - 3.0f * s2 + 1.0f) * v0 + (s3 - 2.0f * s2 + s) * dt * b0 + (-2.0f * s3 + 3.0f * s2) * v1 +
         (s3 - s2) * dt * a1;
}

bool has_tangents(size_t keys, size_t in, size_t out) { return in == keys && out == keys; }

glm::vec4 as_vec4(const glm::quat& q) { return glm::vec4(q.x, q.y, q.z, q.w); }

// The segment last located in one sampling pass, and the key times that define it. Real clips
// (BVH, the usual exports) key every channel of every track at the same times; a channel whose
// times match these takes the segment as it is instead of searching and dividing again.
struct SegmentCache {
  size_t keys = 0;  // 0 matches no sampled channel (those have at least one key)
  Interpolation mode = Interpolation::kLinear;
  std::uint64_t ends = 0;  // the bits of times[i] and times[i + 1] (times[i] alone for the last key)
  float first = 0.0f;      // times[0]
  bool past_t0 = false;    // t > times[i]: times[0] <= times[i] < t need not be read
  Segment s;
};

// The bits of times[i] and, unless i is the last key, times[i + 1], as one integer. Equal bits
// are equal floats for the finite times the cache keeps (and +0 / -0 merely miss).
inline std::uint64_t segment_ends(const float* times, size_t i, size_t n) {
  if (i + 1 < n) {
    std::uint64_t b;
    std::memcpy(&b, times + i, sizeof b);
    return b;
  }
  std::uint32_t b;
  std::memcpy(&b, times + i, sizeof b);
  return b;
}

// channel_segment's search: find_segment, and the segment kept for the channels that follow.
// Out of line: the per-joint loop stays small when most channels reuse the segment.
[[gnu::noinline]] Segment locate_and_cache(const std::vector<float>& times, Interpolation mode, float t,
                                           std::uint32_t& hint, SegmentCache& cache) {
  const Segment s = find_segment(times, t, mode, hint);
  const size_t n = times.size();
  hint = static_cast<std::uint32_t>(s.index);
  const bool finite = std::isfinite(times[s.index]) && (s.index + 1 == n || std::isfinite(times[s.index + 1]));
  cache.keys = finite ? n : 0;  // bit equality is float equality only for finite times
  cache.mode = mode;
  cache.ends = segment_ends(times.data(), s.index, n);
  cache.first = times[0];
  cache.past_t0 = t > times[s.index];
  cache.s = s;
  return s;
}

// find_segment(times, t, mode, hint), reusing the cached segment (found on times A, now asked
// for times B) when that is exactly the answer: the same key count and mode, B[i] = A[i] and
// B[i + 1] = A[i + 1] at the segment's ends (no i + 1 at the last key), and B[0] = A[0] unless
// t > A[i]. find_segment's answer depends on those alone:
//  - "before the first key" (t <= times[0]): when t > A[i] = B[i] >= B[0] it is false for B as
//    for A; otherwise B[0] = A[0] gives the same test.
//  - "after the last key" (t >= times[n - 1]): for the last key, times[n - 1] is the segment's
//    end; for an interior key t < A[i + 1] = B[i + 1] <= B[n - 1] rules it out for B too.
//  - the interior key i is the only one with times[i] <= t < times[i + 1]: the same ends, the
//    same i; the blend factor comes from t and those two times, the same bits.
// B[0] matters on its own: with times {0.5, 0.5, 1} at t = 0.5 a channel holds key 0, while one
// keyed {0, 0.5, 1} is at key 1. The argument needs finite, non-decreasing times, as
// validate_clip guarantees for a bound clip (and find_segment's search needs them anyway).
// `hint` gets the segment either way, as the cursor documents.
inline Segment channel_segment(const std::vector<float>& times, Interpolation mode, float t, std::uint32_t& hint,
                               SegmentCache& cache) {
  const float* k = times.data();
  const size_t n = times.size();
  const size_t i = cache.s.index;
  if (n == cache.keys && mode == cache.mode && segment_ends(k, i, n) == cache.ends &&
      (cache.past_t0 || k[0] == cache.first)) {
    hint = static_cast<std::uint32_t>(i);
    return cache.s;
  }
  return locate_and_cache(times, mode, t, hint, cache);
}

// A kCubicSpline vec3 between keys s.index and s.index + 1 (s.alpha > 0). Out of line, as above.
[[gnu::noinline]] glm::vec3 cubic_vec3(const std::vector<float>& times, const std::vector<glm::vec3>& values,
                                       const std::vector<glm::vec3>& in, const std::vector<glm::vec3>& out,
                                       const Segment& s) {
  return hermite(values[s.index], out[s.index], values[s.index + 1], in[s.index + 1],
                 times[s.index + 1] - times[s.index], s.alpha);
}

inline glm::vec3 blend_vec3(const std::vector<float>& times, const std::vector<glm::vec3>& values, Interpolation mode,
                            const std::vector<glm::vec3>& in, const std::vector<glm::vec3>& out, const Segment& s) {
  const glm::vec3& a = values[s.index];
  if (!(s.alpha > 0.0f)) return a;
  if (mode == Interpolation::kCubicSpline && has_tangents(values.size(), in.size(), out.size()))
    return cubic_vec3(times, values, in, out, s);
  const glm::vec3& b = values[s.index + 1];
  return a + (b - a) * s.alpha;
}

glm::vec3 sample_vec3(const std::vector<float>& times, const std::vector<glm::vec3>& values, Interpolation mode,
                      const std::vector<glm::vec3>& in, const std::vector<glm::vec3>& out, float t,
                      std::uint32_t& hint) {
  const Segment s = find_segment(times, t, mode, hint);
  hint = static_cast<std::uint32_t>(s.index);
  return blend_vec3(times, values, mode, in, out, s);
}

// nlerp_or_slerp(a, b, alpha) for alpha > 0, split in two so that the square roots of many
// joints can be taken together: either `out` is the final rotation (slerp_shortest, for keys
// wider than kNlerpMaxKeyAngle or alpha 1) and false is returned, or `out` is the nlerp blend
// before normalization, true is returned and unit_blend / normalize_blends finish it. Every
// operation is nlerp_or_slerp's, on the same operands in the same order, so the result is the
// same bits (tests/clip/sample_reference_test.cpp holds the two to it; rule RG2).
inline bool nlerp_blend(const glm::quat& a, const glm::quat& b, float alpha, glm::quat& out) {
  const float d = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
  if (std::fabs(d) < kNlerpMinKeyDot || alpha == 1.0f) {
    out = slerp_shortest(a, b, alpha);
    return false;
  }
  const float s = d < 0.0f ? -alpha : alpha;  // shortest arc: blend toward -b
  const float r = 1.0f - alpha;
#if defined(ASTERUNE_SSE2)
  // r * a.c + s * b.c in each lane: the scalar products and sum, one rounding each.
  _mm_storeu_ps(&out.x, _mm_add_ps(_mm_mul_ps(_mm_set1_ps(r), _mm_loadu_ps(&a.x)),
                                   _mm_mul_ps(_mm_set1_ps(s), _mm_loadu_ps(&b.x))));
#else
  out = glm::quat(r * a.w + s * b.w, r * a.x + s * b.x, r * a.y + s * b.y, r * a.z + s * b.z);
#endif
  return true;
}

// The second half of nlerp_or_slerp: q scaled by 1 / sqrt(w^2 + x^2 + y^2 + z^2), summed in that order.
inline glm::quat unit_blend(const glm::quat& q) {
  return q * (1.0f / std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z));
}

// unit_blend for the rotations of local[joint[0..count)], four at a time where SSE2 is there.
// _mm_sqrt_ps and _mm_div_ps round each lane exactly like sqrtss / divss (IEEE, correctly
// rounded; not rsqrtps, whose approximation differs between CPU vendors), and each lane sums
// w^2 + x^2 + y^2 + z^2 in unit_blend's order, so the bits are unit_blend's.
void normalize_blends(Transform* local, const std::uint32_t* joint, size_t count) {
  size_t k = 0;
#if defined(ASTERUNE_SSE2)
  for (; k + 4 <= count; k += 4) {
    float* p0 = &local[joint[k]].rotation.x;
    float* p1 = &local[joint[k + 1]].rotation.x;
    float* p2 = &local[joint[k + 2]].rotation.x;
    float* p3 = &local[joint[k + 3]].rotation.x;
    const __m128 q0 = _mm_loadu_ps(p0), q1 = _mm_loadu_ps(p1), q2 = _mm_loadu_ps(p2), q3 = _mm_loadu_ps(p3);
    __m128 x = q0, y = q1, z = q2, w = q3;
    _MM_TRANSPOSE4_PS(x, y, z, w);  // now x = the four x components, and so on
    const __m128 len2 =
        _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(w, w), _mm_mul_ps(x, x)), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
    const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(len2));
    _mm_storeu_ps(p0, _mm_mul_ps(q0, _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(0, 0, 0, 0))));
    _mm_storeu_ps(p1, _mm_mul_ps(q1, _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(1, 1, 1, 1))));
    _mm_storeu_ps(p2, _mm_mul_ps(q2, _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(2, 2, 2, 2))));
    _mm_storeu_ps(p3, _mm_mul_ps(q3, _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(3, 3, 3, 3))));
  }
#endif
  for (; k < count; ++k) local[joint[k]].rotation = unit_blend(local[joint[k]].rotation);
}

// A kCubicSpline rotation between keys s.index and s.index + 1 (s.alpha > 0): the Hermite
// spline of the tangents, normalized; nlerp_or_slerp of the keys when the track has no tangents
// or the spline passes through zero. Out of line: the per-joint loop is for the common case.
[[gnu::noinline]] glm::quat cubic_rotation(const ClipTrack& track, const Segment& s) {
  const glm::quat& a = track.rotations[s.index];
  const glm::quat& b = track.rotations[s.index + 1];
  if (has_tangents(track.rotations.size(), track.rotation_in_tangents.size(), track.rotation_out_tangents.size())) {
    const glm::vec4 v = hermite(as_vec4(a), as_vec4(track.rotation_out_tangents[s.index]), as_vec4(b),
                                as_vec4(track.rotation_in_tangents[s.index + 1]),
                                track.rotation_times[s.index + 1] - track.rotation_times[s.index], s.alpha);
    // A spline through opposite-sign keys can pass through zero: keep the interpolated key then.
    if (const std::optional<glm::quat> q = normalized_rotation(glm::quat(v.w, v.x, v.y, v.z))) return *q;
  }
  return nlerp_or_slerp(a, b, s.alpha);
}

// The rotation of an eased segment (s.alpha > 0): the key's easing applied to the segment's
// factor. Eased factors outside [0, 1] (Elastic) extrapolate along the same great circle.
// Out of line: eased channels are the rare case.
[[gnu::noinline]] glm::quat eased_rotation(const ClipTrack& track, const Segment& s) {
  const glm::quat& a = track.rotations[s.index];
  const float e = ease(track.rotation_easing[s.index], s.alpha);
  if (e == 0.0f) return a;
  if (e > 0.0f && e <= 1.0f) return nlerp_or_slerp(a, track.rotations[s.index + 1], e);
  return slerp_shortest(a, track.rotations[s.index + 1], e);
}

[[gnu::noinline]] glm::vec3 eased_translation(const ClipTrack& track, const Segment& s) {
  const glm::vec3& a = track.translations[s.index];
  const float e = ease(track.translation_easing[s.index], s.alpha);
  return e == 0.0f ? a : a + (track.translations[s.index + 1] - a) * e;
}

// Samples both channels into `out`, taking a missing channel from `fallback`. Returns
// true when out.rotation is an nlerp blend still to be normalized (unit_blend). Hints in/out
// are the channels' segment indexes (0 when unknown).
inline bool sample_channels(const ClipTrack& track, float t, const Transform& fallback, Transform& out,
                            std::uint32_t& rot_hint, std::uint32_t& pos_hint, SegmentCache& cache) {
  bool blend = false;
  if (!track.rotations.empty() && track.rotation_times.size() == track.rotations.size()) {
    const Segment s = channel_segment(track.rotation_times, track.rotation_interpolation, t, rot_hint, cache);
    const glm::quat& a = track.rotations[s.index];
    if (!(s.alpha > 0.0f))
      out.rotation = a;
    else if (track.rotation_easing.size() == track.rotations.size())
      out.rotation = eased_rotation(track, s);
    else if (track.rotation_interpolation == Interpolation::kCubicSpline)
      out.rotation = cubic_rotation(track, s);
    else
      blend = nlerp_blend(a, track.rotations[s.index + 1], s.alpha, out.rotation);
  } else {
    out.rotation = fallback.rotation;
  }
  if (!track.translations.empty() && track.translation_times.size() == track.translations.size()) {
    const Segment s =
        channel_segment(track.translation_times, track.translation_interpolation, t, pos_hint, cache);
    if (s.alpha > 0.0f && track.translation_easing.size() == track.translations.size())
      out.position = eased_translation(track, s);
    else
      out.position = blend_vec3(track.translation_times, track.translations, track.translation_interpolation,
                                track.translation_in_tangents, track.translation_out_tangents, s);
  } else {
    out.position = fallback.position;
  }
  return blend;
}

// Joints are sampled in blocks of this many; the block's nlerp blends are then normalized
// together (a fixed stack buffer of joint indexes: no allocation, rule RG1).
constexpr size_t kBlendBlock = 64;

void sample_joints(const Clip& given, const ClipBinding& binding, float time, WrapMode wrap, ClipCursor* cursor,
                   std::span<Transform> local, std::span<float> coverage) {
  const size_t n = static_cast<size_t>(binding.joint_count());  // callers checked the span sizes
  // The keys come from the binding (its snapshot at bind: one source of truth with its key
  // stream); the given clip only bounds the tracks, as before, so another clip with fewer tracks
  // samples the missing ones as unbound.
  const Clip& clip = binding.bound_clip() ? *binding.bound_clip() : given;
  const float t = wrap_clip_time(time, clip.duration, wrap);
  std::uint32_t* hints = cursor ? cursor->keys.data() : nullptr;
  // With a cursor, the joints of the compiled key stream are sampled from it, the others by
  // search (below); the clip must have the binding's track count.
  const detail::KeyStream* stream = cursor ? binding.key_stream() : nullptr;
  if (stream && (stream->groups == 0 || cursor->lanes.size() != stream->initial.size() ||
                 given.tracks.size() != static_cast<size_t>(binding.track_count())))
    stream = nullptr;
  const int* track_of = binding.track_of_joint().data();
  const Transform* defaults = binding.defaults().data();
  const ClipTrack* tracks = clip.tracks.data();
  const size_t track_count = std::min(clip.tracks.size(), given.tracks.size());
  Transform* out = local.data();
  std::uint32_t scratch[2] = {0, 0};
  SegmentCache cache;
  std::uint32_t blends[kBlendBlock];
  bool jump = false;
  // Joint j by search (unbound: the default, coverage 0); true when its rotation is an nlerp
  // blend still to be normalized.
  const auto sample_joint = [&](size_t j) {
    const int track = track_of[j];
    if (track < 0 || static_cast<size_t>(track) >= track_count) {
      out[j] = defaults[j];
      coverage[j] = 0.0f;
      return false;
    }
    const ClipTrack& tr = tracks[track];
    std::uint32_t* h = hints ? hints + 2 * j : scratch;
    if (!hints) h[0] = h[1] = 0;
    coverage[j] = (tr.rotations.empty() && tr.translations.empty()) ? 0.0f : 1.0f;
    return sample_channels(tr, t, defaults[j], out[j], h[0], h[1], cache);
  };
  // A jump right after a jump (scrubbing, random seeks): the stateless path below, which costs
  // less than resetting every lane by search; the lanes stay stale until playback goes forward
  // again (rule P6, key_stream_streams). A single jump (a loop wrap) resets the lanes, as
  // forward playback follows.
  if (stream && !detail::key_stream_streams(*stream, t, *cursor, jump)) stream = nullptr;
  if (stream) {
    // The coverage of every joint is the binding's (compiled with the stream); the joints the
    // stream does not carry are searched, then the stream's lanes are interpolated.
    detail::advance_key_stream(*stream, clip, t, jump, *cursor);
    std::memcpy(coverage.data(), stream->coverage.data(), n * sizeof(float));
    const std::uint32_t* others = stream->others.data();
    const size_t count = stream->others.size();
    for (size_t begin = 0; begin < count; begin += kBlendBlock) {
      const size_t end = std::min(count, begin + kBlendBlock);
      size_t blend_count = 0;
      for (size_t i = begin; i < end; ++i)
        if (sample_joint(others[i])) blends[blend_count++] = others[i];
      normalize_blends(out, blends, blend_count);
    }
    detail::sample_key_stream(*stream, *cursor, t, out);
    return;
  }
  for (size_t begin = 0; begin < n; begin += kBlendBlock) {
    const size_t end = std::min(n, begin + kBlendBlock);
    size_t blend_count = 0;
    for (size_t j = begin; j < end; ++j)
      if (sample_joint(j)) blends[blend_count++] = static_cast<std::uint32_t>(j);
    normalize_blends(out, blends, blend_count);
  }
}

}  // namespace

float wrap_clip_time(float time, float duration, WrapMode wrap) {
  if (!std::isfinite(time)) time = 0.0f;
  if (!std::isfinite(duration) || duration <= 0.0f) return 0.0f;
  if (wrap == WrapMode::kClamp) return std::clamp(time, 0.0f, duration);
  float t = std::fmod(time, duration);
  if (t < 0.0f) t += duration;
  if (!(t < duration)) t = 0.0f;  // -tiny + duration may round up to duration
  return t;
}

Transform sample_track(const ClipTrack& track, float t, const Transform& fallback) {
  std::uint32_t rot = 0, pos = 0;
  SegmentCache cache;
  Transform out;
  if (sample_channels(track, t, fallback, out, rot, pos, cache)) out.rotation = unit_blend(out.rotation);
  return out;
}

glm::vec3 sample_track_scale(const ClipTrack& track, float t, const glm::vec3& fallback) {
  if (track.scales.empty() || track.scale_times.size() != track.scales.size()) return fallback;
  std::uint32_t hint = 0;
  return sample_vec3(track.scale_times, track.scales, track.scale_interpolation, track.scale_in_tangents,
                     track.scale_out_tangents, t, hint);
}

bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap,
                 std::span<Transform> local, std::span<float> coverage) {
  const size_t n = static_cast<size_t>(binding.joint_count());
  ASTERUNE_EXPECT_OR_RETURN(local.size() == n && coverage.size() == n,
                            "local and coverage hold binding.joint_count() entries", false);
  sample_joints(clip, binding, time, wrap, nullptr, local, coverage);
  return true;
}

ClipCursor make_clip_cursor(const ClipBinding& binding) {
  ClipCursor c;
  c.keys.assign(2 * static_cast<size_t>(binding.joint_count()), 0u);
  if (const detail::KeyStream* stream = binding.key_stream()) c.lanes.assign(stream->initial.size(), 0.0f);
  return c;
}

bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap, ClipCursor& cursor,
                 std::span<Transform> local, std::span<float> coverage) {
  const size_t n = static_cast<size_t>(binding.joint_count());
  ASTERUNE_EXPECT_OR_RETURN(local.size() == n && coverage.size() == n && cursor.keys.size() == 2 * n,
                            "local, coverage and the cursor are sized for the binding", false);
  sample_joints(clip, binding, time, wrap, &cursor, local, coverage);
  return true;
}

bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap, Pose& pose) {
  return sample_clip(clip, binding, time, wrap, pose.local_span(), pose.coverage_span());
}

}  // namespace asterune
