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
  }
  if (!track.translations.empty() && track.translation_times.size() == track.translations.size()) {
    const Segment s = find_segment(track.translation_times, t, track.translation_interpolation);
    const glm::vec3& a = track.translations[s.index];
    out.position = s.alpha > 0.0f ? a + (track.translations[s.index + 1] - a) * s.alpha : a;
  }
  return out;
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
