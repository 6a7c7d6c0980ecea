#include "asterune/clip/sample.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "asterune/core/assert.hpp"
#include "asterune/rig/pose.hpp"

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

glm::vec3 sample_vec3(const std::vector<float>& times, const std::vector<glm::vec3>& values, Interpolation mode,
                      const std::vector<glm::vec3>& in, const std::vector<glm::vec3>& out, float t,
                      std::uint32_t& hint) {
  const Segment s = find_segment(times, t, mode, hint);
  hint = static_cast<std::uint32_t>(s.index);
  const glm::vec3& a = values[s.index];
  if (!(s.alpha > 0.0f)) return a;
  const glm::vec3& b = values[s.index + 1];
  if (mode == Interpolation::kCubicSpline && has_tangents(values.size(), in.size(), out.size()))
    return hermite(a, out[s.index], b, in[s.index + 1], times[s.index + 1] - times[s.index], s.alpha);
  return a + (b - a) * s.alpha;
}

// True when the translation channel's segment for this t is exactly `s`, found on the rotation
// keys: same key count and mode, the same first time and the same times at the segment's ends.
// find_segment's answer depends on those alone: "before the first key" tests times[0]; the
// interior key i is the one with times[i] <= t < times[i + 1], and t < times[i + 1] <= times[n - 1]
// rules out "after the last key"; after the last key tests times[n - 1] = the segment's end. So the
// lookup and the blend factor carry over bit for bit. The first time matters on its own: with
// times {0.5, 0.5, 1} at t = 0.5 a channel holds key 0, while one keyed {0, 0.5, 1} is at key 1.
// Mocap and most exported clips key both channels together.
inline bool same_segment(const ClipTrack& track, const Segment& s) {
  const std::vector<float>& rt = track.rotation_times;
  const std::vector<float>& pt = track.translation_times;
  if (pt.size() != rt.size() || track.translation_interpolation != track.rotation_interpolation) return false;
  if (pt[0] != rt[0] || pt[s.index] != rt[s.index]) return false;
  return s.index + 1 == rt.size() || pt[s.index + 1] == rt[s.index + 1];
}

// Samples both channels; hints in/out are the segment indexes (0 when unknown).
inline Transform sample_channels(const ClipTrack& track, float t, const Transform& fallback, std::uint32_t& rot_hint,
                                 std::uint32_t& pos_hint) {
  Transform out = fallback;
  const bool has_translation = !track.translations.empty() && track.translation_times.size() == track.translations.size();
  if (!track.rotations.empty() && track.rotation_times.size() == track.rotations.size()) {
    const Segment s = find_segment(track.rotation_times, t, track.rotation_interpolation, rot_hint);
    rot_hint = static_cast<std::uint32_t>(s.index);
    const glm::quat& a = track.rotations[s.index];
    out.rotation = s.alpha > 0.0f ? nlerp_or_slerp(a, track.rotations[s.index + 1], s.alpha) : a;
    if (s.alpha > 0.0f && track.rotation_interpolation == Interpolation::kCubicSpline &&
        has_tangents(track.rotations.size(), track.rotation_in_tangents.size(), track.rotation_out_tangents.size())) {
      const glm::vec4 v = hermite(as_vec4(a), as_vec4(track.rotation_out_tangents[s.index]),
                                  as_vec4(track.rotations[s.index + 1]), as_vec4(track.rotation_in_tangents[s.index + 1]),
                                  track.rotation_times[s.index + 1] - track.rotation_times[s.index], s.alpha);
      // A spline through opposite-sign keys can pass through zero: keep the interpolated key then.
      if (auto q = normalized_rotation(glm::quat(v.w, v.x, v.y, v.z))) out.rotation = *q;
    }
    if (has_translation && track.translation_interpolation != Interpolation::kCubicSpline && same_segment(track, s)) {
      pos_hint = rot_hint;
      const glm::vec3& pa = track.translations[s.index];
      out.position = s.alpha > 0.0f ? pa + (track.translations[s.index + 1] - pa) * s.alpha : pa;
      return out;
    }
  }
  if (has_translation)
    out.position = sample_vec3(track.translation_times, track.translations, track.translation_interpolation,
                               track.translation_in_tangents, track.translation_out_tangents, t, pos_hint);
  return out;
}

void sample_joints(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap, std::uint32_t* hints,
                   std::span<Transform> local, std::span<float> coverage) {
  const size_t n = static_cast<size_t>(binding.joint_count());  // callers checked the span sizes
  const float t = wrap_clip_time(time, clip.duration, wrap);
  const int* track_of = binding.track_of_joint().data();
  const Transform* defaults = binding.defaults().data();
  const ClipTrack* tracks = clip.tracks.data();
  const size_t track_count = clip.tracks.size();
  std::uint32_t scratch[2] = {0, 0};
  for (size_t j = 0; j < n; ++j) {
    const int track = track_of[j];
    if (track < 0 || static_cast<size_t>(track) >= track_count) {
      local[j] = defaults[j];
      coverage[j] = 0.0f;
      continue;
    }
    const ClipTrack& tr = tracks[track];
    std::uint32_t* h = hints ? hints + 2 * j : scratch;
    if (!hints) h[0] = h[1] = 0;
    local[j] = sample_channels(tr, t, defaults[j], h[0], h[1]);
    coverage[j] = (tr.rotations.empty() && tr.translations.empty()) ? 0.0f : 1.0f;
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
  return sample_channels(track, t, fallback, rot, pos);
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
  return c;
}

bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap, ClipCursor& cursor,
                 std::span<Transform> local, std::span<float> coverage) {
  const size_t n = static_cast<size_t>(binding.joint_count());
  ASTERUNE_EXPECT_OR_RETURN(local.size() == n && coverage.size() == n && cursor.keys.size() == 2 * n,
                            "local, coverage and the cursor are sized for the binding", false);
  sample_joints(clip, binding, time, wrap, cursor.keys.data(), local, coverage);
  return true;
}

bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap, Pose& pose) {
  return sample_clip(clip, binding, time, wrap, pose.local_span(), pose.coverage_span());
}

}  // namespace asterune
