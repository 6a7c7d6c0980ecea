#include "asterune/retarget/bake.hpp"

#include <algorithm>

#include "asterune/clip/sample.hpp"
#include "asterune/rig/rig.hpp"
#include "core/hash.hpp"

namespace asterune {

std::uint64_t clip_key(const Clip& clip) {
  detail::Fnv1a h;
  h.str("asterune.clip/1");
  h.str(clip.name);
  h.f32(clip.duration);
  h.u64(clip.tracks.size());
  for (const ClipTrack& t : clip.tracks) {
    h.str(t.name);
    h.i32(static_cast<int>(t.rotation_interpolation));
    h.i32(static_cast<int>(t.translation_interpolation));
    h.u64(t.rotation_times.size());
    for (float v : t.rotation_times) h.f32(v);
    h.u64(t.translation_times.size());
    for (float v : t.translation_times) h.f32(v);
    auto vec3s = [&](const std::vector<glm::vec3>& a) {
      h.u64(a.size());
      for (const glm::vec3& p : a)
        for (float v : {p.x, p.y, p.z}) h.f32(v);
    };
    auto quats = [&](const std::vector<glm::quat>& a) {
      h.u64(a.size());
      for (const glm::quat& q : a)
        for (float v : {q.w, q.x, q.y, q.z}) h.f32(v);
    };
    quats(t.rotations);
    vec3s(t.translations);
    quats(t.rotation_in_tangents);
    quats(t.rotation_out_tangents);
    vec3s(t.translation_in_tangents);
    vec3s(t.translation_out_tangents);
    h.i32(static_cast<int>(t.scale_interpolation));
    h.u64(t.scale_times.size());
    for (float v : t.scale_times) h.f32(v);
    vec3s(t.scales);
    vec3s(t.scale_in_tangents);
    vec3s(t.scale_out_tangents);
  }
  return h.value();
}

std::vector<float> clip_key_times(const Clip& clip) {
  std::vector<float> t;
  for (const auto& track : clip.tracks) {
    t.insert(t.end(), track.rotation_times.begin(), track.rotation_times.end());
    t.insert(t.end(), track.translation_times.begin(), track.translation_times.end());
  }
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

Result<Clip> bake_retarget(const Clip& clip, const ClipBinding& source_binding, const RetargetBinding& binding,
                           const Rig& rig) {
  if (rig.signature() != binding.target_signature || rig.joint_count() != binding.target_joint_count)
    return make_error("bake '" + clip.name + "': the retarget binding was built for another rig than '" + rig.name() + "'");
  if (source_binding.joint_count() != binding.source_joint_count)
    return make_error("bake '" + clip.name + "': the clip binding and the retarget binding disagree on the source skeleton");
  const std::vector<float> times = clip_key_times(clip);
  if (times.empty()) return make_error("bake '" + clip.name + "': the clip has no keys");

  const auto nt = static_cast<size_t>(rig.joint_count());
  const auto ns = static_cast<size_t>(binding.source_joint_count);
  Clip out;
  out.name = clip.name + "@" + rig.name();
  out.duration = clip.duration;
  out.markers = clip.markers;  // events (Footstep markers, rule RT17) keep their times
  std::vector<int> track_of(nt, -1);
  for (size_t t = 0; t < nt; ++t) {
    const int s = binding.source_index[t];
    if (s < 0 || source_binding.track_of(s) < 0) continue;
    ClipTrack track;
    const int j = static_cast<int>(t);
    track.name = rig.lookup_name(j);
    track_of[t] = static_cast<int>(out.tracks.size());
    out.tracks.push_back(std::move(track));
  }

  std::vector<Transform> source_local(ns), local(nt);
  std::vector<float> source_cov(ns), cov(nt);
  RetargetContext ctx = make_retarget_context(binding);
  for (float time : times) {
    sample_clip(clip, source_binding, time, WrapMode::kClamp, source_local, source_cov);
    if (!sample_retarget(binding, rig, source_local, source_cov, ctx, local, cov).ok)
      return make_error("bake '" + clip.name + "': retarget sampling failed (sizes)");
    for (size_t t = 0; t < nt; ++t) {
      if (track_of[t] < 0) continue;
      ClipTrack& track = out.tracks[static_cast<size_t>(track_of[t])];
      // Keep consecutive keys in the same hemisphere so slerp between them takes the short arc.
      glm::quat q = local[t].rotation;
      if (!track.rotations.empty() && glm::dot(track.rotations.back(), q) < 0.0f) q = -q;
      track.rotation_times.push_back(time);
      track.rotations.push_back(q);
      if (binding.translates[t]) {
        track.translation_times.push_back(time);
        track.translations.push_back(local[t].position);
      }
    }
  }
  return out;
}

}  // namespace asterune
