#include "asterune/clip/sample.hpp"

#include <algorithm>
#include <cmath>

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

Segment find_segment(const std::vector<float>& times, float t, Interpolation mode) {
  Segment s;
  const size_t n = times.size();
  if (n < 2 || !(t > times.front())) return s;  // before (or at) the first key: hold it
  if (t >= times.back()) {
    s.index = n - 1;
    return s;
  }
  const auto upper = std::upper_bound(times.begin(), times.end(), t);  // first key > t
  s.index = static_cast<size_t>(upper - times.begin()) - 1;
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

glm::vec3 sample_vec3(const std::vector<float>& times, const std::vector<glm::vec3>& values, Interpolation mode,
                      const std::vector<glm::vec3>& in, const std::vector<glm::vec3>& out, float t) {
  const Segment s = find_segment(times, t, mode);
  const glm::vec3& a = values[s.index];
  if (!(s.alpha > 0.0f)) return a;
  const glm::vec3& b = values[s.index + 1];
  if (mode == Interpolation::kCubicSpline && has_tangents(values.size(), in.size(), out.size()))
    return hermite(a, out[s.index], b, in[s.index + 1], times[s.index + 1] - times[s.index], s.alpha);
  return a + (b - a) * s.alpha;
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
  Transform out = fallback;
  if (!track.rotations.empty() && track.rotation_times.size() == track.rotations.size()) {
    const Segment s = find_segment(track.rotation_times, t, track.rotation_interpolation);
    const glm::quat& a = track.rotations[s.index];
    out.rotation = s.alpha > 0.0f ? slerp_shortest(a, track.rotations[s.index + 1], s.alpha) : a;
    if (s.alpha > 0.0f && track.rotation_interpolation == Interpolation::kCubicSpline &&
        has_tangents(track.rotations.size(), track.rotation_in_tangents.size(), track.rotation_out_tangents.size())) {
      const glm::vec4 v = hermite(glm::vec4(a.x, a.y, a.z, a.w),
                                  glm::vec4(track.rotation_out_tangents[s.index].x, track.rotation_out_tangents[s.index].y,
                                            track.rotation_out_tangents[s.index].z, track.rotation_out_tangents[s.index].w),
                                  glm::vec4(track.rotations[s.index + 1].x, track.rotations[s.index + 1].y,
                                            track.rotations[s.index + 1].z, track.rotations[s.index + 1].w),
                                  glm::vec4(track.rotation_in_tangents[s.index + 1].x,
                                            track.rotation_in_tangents[s.index + 1].y,
                                            track.rotation_in_tangents[s.index + 1].z,
                                            track.rotation_in_tangents[s.index + 1].w),
                                  track.rotation_times[s.index + 1] - track.rotation_times[s.index], s.alpha);
      // A spline through opposite-sign keys can pass through zero: keep the slerp then.
      if (auto q = normalized_rotation(glm::quat(v.w, v.x, v.y, v.z))) out.rotation = *q;
    }
  }
  if (!track.translations.empty() && track.translation_times.size() == track.translations.size())
    out.position = sample_vec3(track.translation_times, track.translations, track.translation_interpolation,
                               track.translation_in_tangents, track.translation_out_tangents, t);
  return out;
}

glm::vec3 sample_track_scale(const ClipTrack& track, float t, const glm::vec3& fallback) {
  if (track.scales.empty() || track.scale_times.size() != track.scales.size()) return fallback;
  return sample_vec3(track.scale_times, track.scales, track.scale_interpolation, track.scale_in_tangents,
                     track.scale_out_tangents, t);
}

bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap,
                 std::span<Transform> local, std::span<float> coverage) {
  const size_t n = static_cast<size_t>(binding.joint_count());
  ASTERUNE_EXPECT_OR_RETURN(local.size() == n && coverage.size() == n,
                            "local and coverage hold binding.joint_count() entries", false);
  const float t = wrap_clip_time(time, clip.duration, wrap);
  const std::span<const int> track_of = binding.track_of_joint();
  const std::span<const Transform> defaults = binding.defaults();
  for (size_t j = 0; j < n; ++j) {
    const int track = track_of[j];
    if (track < 0 || static_cast<size_t>(track) >= clip.tracks.size()) {
      local[j] = defaults[j];
      coverage[j] = 0.0f;
      continue;
    }
    const ClipTrack& tr = clip.tracks[static_cast<size_t>(track)];
    local[j] = sample_track(tr, t, defaults[j]);
    coverage[j] = (tr.rotations.empty() && tr.translations.empty()) ? 0.0f : 1.0f;
  }
  return true;
}

bool sample_clip(const Clip& clip, const ClipBinding& binding, float time, WrapMode wrap, Pose& pose) {
  return sample_clip(clip, binding, time, wrap, pose.local_span(), pose.coverage_span());
}

}  // namespace asterune
