#include "asterune/retarget/first_frame.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/retarget/contacts.hpp"

namespace asterune {
namespace {

constexpr float kDegrees = 57.29577951308232f;
constexpr float kMinJumpOfHeight = 0.05f;  // the jump is at least this fraction of the rest height
constexpr float kJumpOverTypical = 4.0f;   // and this many times the clip's 99th-percentile step

// Largest displacement, relative to the root joint, of any joint or end site between frames a, b.
float step(const SampledSource& s, size_t root, size_t a, size_t b) {
  const auto n = static_cast<size_t>(s.joint_count);
  float largest = 0.0f;
  for (const auto* set : {&s.joint, &s.end_site})
    for (size_t j = 0; j < n; ++j) {
      const glm::vec3 pa = (*set)[a * n + j] - s.joint[a * n + root];
      const glm::vec3 pb = (*set)[b * n + j] - s.joint[b * n + root];
      const float d = glm::length(pb - pa);
      if (std::isfinite(d)) largest = std::max(largest, d);
    }
  return largest;
}

// Mean angle (degrees) of the non-root joints' sampled local rotations from their rest rotations.
float rest_distance(const Clip& clip, const ClipBinding& binding, const SourceSkeleton& source, float time) {
  const size_t n = source.joint_names.size();
  std::vector<Transform> local(n);
  std::vector<float> coverage(n);
  sample_clip(clip, binding, time, WrapMode::kClamp, local, coverage);
  double sum = 0.0;
  int count = 0;
  for (size_t j = 0; j < n; ++j) {
    if (source.parents[j] < 0) continue;
    const glm::quat d = glm::conjugate(glm::normalize(source.rest_local[j].rotation)) * glm::normalize(local[j].rotation);
    const float a = 2.0f * std::acos(std::clamp(std::abs(d.w), 0.0f, 1.0f)) * kDegrees;
    if (!std::isfinite(a)) continue;
    sum += a;
    ++count;
  }
  return count > 0 ? static_cast<float>(sum / count) : 0.0f;
}

}  // namespace

FirstFrameCheck detect_synthetic_first_frame(const Clip& clip, const SourceSkeleton& source) {
  FirstFrameCheck out;
  // Fewer than four keyed frames cannot show a rest frame followed by a jump; checked before
  // sampling, whose frame count follows the duration and not the keys (a keyless clip of 10^8
  // frames must not be sampled: rule RG5, memory bounded by the input).
  size_t keys = 0;
  for (const ClipTrack& t : clip.tracks) keys = std::max({keys, t.rotation_times.size(), t.translation_times.size()});
  if (keys < 4) return out;
  auto samples = sample_source(clip, source);
  auto binding = build_clip_binding(clip, source);
  if (!samples || !binding) return out;
  const SampledSource& s = samples.value();
  const auto frames = static_cast<size_t>(std::max(0, s.frame_count));
  const auto n = static_cast<size_t>(s.joint_count);
  if (frames < 4 || n == 0) return out;
  size_t root = 0;
  while (root < n && source.parents[root] >= 0) ++root;
  if (root >= n) return out;
  out.frame_time = s.dt;

  // The rest's height: its extent along +Y, joints and end sites.
  std::vector<Transform> world(n);
  source_world(source, source.rest_local, world);
  float low = INFINITY, high = -INFINITY;
  for (size_t j = 0; j < n; ++j) {
    const glm::vec3 p = world[j].position;
    const glm::vec3 e = source.end_sites.empty() ? p : p + world[j].rotation * source.end_sites[j];
    low = std::min({low, p.y, e.y});
    high = std::max({high, p.y, e.y});
  }
  const float height = high - low;
  if (!(height > 0.0f) || !std::isfinite(height)) return out;

  out.jump = step(s, root, 0, 1);
  std::vector<float> later;
  for (size_t f = 1; f + 1 < frames; ++f) later.push_back(step(s, root, f, f + 1));
  std::sort(later.begin(), later.end());
  out.typical = later[static_cast<size_t>(std::lround(0.99 * static_cast<double>(later.size() - 1)))];
  out.rest_distance0 = rest_distance(clip, binding.value(), source, 0.0f);
  out.rest_distance1 = rest_distance(clip, binding.value(), source, s.dt);
  out.synthetic = out.jump > kMinJumpOfHeight * height && out.jump > kJumpOverTypical * out.typical &&
                  out.rest_distance0 <= 0.5f * out.rest_distance1;
  if (out.synthetic) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "frame 0 is a rest-like pose (%.1f deg from the rest, frame 1 %.1f) that jumps %.2f of the body height "
                  "to frame 1: not motion, left out",
                  static_cast<double>(out.rest_distance0), static_cast<double>(out.rest_distance1),
                  static_cast<double>(out.jump / height));
    out.note = line;
  }
  return out;
}

namespace {
template <class T>
void erase_front(std::vector<T>& v, size_t count) {
  if (v.size() >= count) v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(count));
}

// Drops the keys before `cut` of one channel (times, values and per-key arrays) and shifts it.
template <class V, class Tangent>
void drop_channel(std::vector<float>& times, std::vector<V>& values, std::vector<Tangent>& in, std::vector<Tangent>& out,
                  std::vector<KeyEasing>* easing, float cut, float shift) {
  size_t count = 0;
  while (count < times.size() && times[count] < cut) ++count;
  if (count == times.size() && count > 0) count = times.size() - 1;  // keep one key: the channel's value
  erase_front(times, count);
  erase_front(values, count);
  erase_front(in, count);
  erase_front(out, count);
  if (easing) erase_front(*easing, count);
  for (float& t : times) t = std::max(0.0f, t - shift);
}
}  // namespace

void drop_first_frame(Clip& clip, float frame_time) {
  if (!(frame_time > 0.0f) || !std::isfinite(frame_time)) return;
  const float cut = 0.5f * frame_time;
  for (ClipTrack& t : clip.tracks) {
    drop_channel(t.rotation_times, t.rotations, t.rotation_in_tangents, t.rotation_out_tangents, &t.rotation_easing, cut,
                 frame_time);
    drop_channel(t.translation_times, t.translations, t.translation_in_tangents, t.translation_out_tangents,
                 &t.translation_easing, cut, frame_time);
    drop_channel(t.scale_times, t.scales, t.scale_in_tangents, t.scale_out_tangents, nullptr, cut, frame_time);
  }
  std::vector<ClipMarker> kept;
  for (ClipMarker m : clip.markers) {
    m.time -= frame_time;
    if (m.time >= 0.0f) kept.push_back(m);
  }
  clip.markers = std::move(kept);
  clip.duration = std::max(0.0f, clip.duration - frame_time);
}

}  // namespace asterune
