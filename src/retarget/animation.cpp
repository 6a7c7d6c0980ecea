#include "asterune/retarget/animation.hpp"

#include "asterune/core/assert.hpp"
#include "asterune/retarget/cache.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {

Result<AnimationBinding> build_animation_binding(const Clip& clip, const Rig& rig, const SourceSkeleton* source,
                                        const RetargetProfile* profile, RetargetCache* cache, bool allow_native) {
  AnimationBinding out;
  if (allow_native && clip_binds_natively(clip, rig)) {  // rule P3: names win over any profile
    auto b = build_clip_binding(clip, rig);
    if (!b) return b.error();
    out.mode = AnimationMode::kNative;
    out.clip_binding = std::move(b).value();
    return out;
  }
  if (!source || !profile)
    return make_error("clip '" + clip.name + "' does not use the names of rig '" + rig.name() +
                      "' and no source skeleton and retarget profile were given");
  auto b = build_clip_binding(clip, *source);
  if (!b) return b.error();
  out.mode = AnimationMode::kRetarget;
  out.clip_binding = std::move(b).value();
  if (cache) {
    auto r = cache->get(*source, rig, *profile);
    if (!r) return r.error();
    out.retarget = r.value();
  } else {
    auto r = build_retarget_binding(*source, rig, *profile);
    if (!r) return r.error();
    out.retarget = std::make_shared<const RetargetBinding>(std::move(r).value());
  }
  // Sampling reads only the source joints that drive a target joint or are an ancestor of one
  // (RetargetBinding::source_needed: not CMU's fingers, thumbs and toes on an R15), so the
  // clip is bound to those alone: the others are written their rest local with coverage 0 and
  // never enter the key stream. sample_retarget reads the same values as before (same bits,
  // rule RT4).
  const RetargetBinding& rb = *out.retarget;
  const auto all = out.clip_binding.track_of_joint();
  if (rb.source_needed.size() == all.size()) {
    std::vector<int> track_of(all.begin(), all.end());
    bool dropped = false;
    for (size_t s = 0; s < track_of.size(); ++s)
      if (!rb.source_needed[s] && track_of[s] >= 0) {
        track_of[s] = -1;
        dropped = true;
      }
    if (dropped) {
      const auto defaults = out.clip_binding.defaults();
      const auto unmatched = out.clip_binding.unmatched_tracks();
      auto needed = build_clip_binding_from_tracks(clip, std::move(track_of),
                                                   std::vector<Transform>(defaults.begin(), defaults.end()),
                                                   std::vector<std::string>(unmatched.begin(), unmatched.end()));
      if (!needed) return needed.error();
      out.clip_binding = std::move(needed).value();
    }
  }
  return out;
}

Result<AnimationBinding> build_compressed_animation_binding(const Clip& shell,
                                                            std::shared_ptr<const CompressedClip> compressed,
                                                            const Rig& rig) {
  if (!compressed) return make_error("clip '" + shell.name + "': no compressed clip given");
  if (compressed->data().rig_signature != rig.signature() || compressed->joint_count() != rig.joint_count())
    return make_error("compressed clip '" + compressed->name() + "' was made for another rig layout than '" + rig.name() +
                      "' (rule R7); compress it again for this rig");
  if (!clip_binds_natively(shell, rig))
    return make_error("clip '" + shell.name + "' does not bind natively to rig '" + rig.name() +
                      "'; give compressed_clip_shell() of the compressed clip");
  auto b = build_clip_binding(shell, rig);
  if (!b) return b.error();
  AnimationBinding out;
  out.mode = AnimationMode::kNative;
  out.clip_binding = std::move(b).value();
  out.compressed = std::move(compressed);
  return out;
}

AnimationContext make_animation_context(const AnimationBinding& binding) {
  AnimationContext c;
  c.cursor = make_clip_cursor(binding.clip_binding);
  if (binding.compressed) c.compressed_cursor = make_compressed_clip_cursor(*binding.compressed);
  if (binding.mode == AnimationMode::kRetarget && binding.retarget) {
    c.source_local.assign(static_cast<size_t>(binding.clip_binding.joint_count()), Transform::identity());
    c.source_coverage.assign(c.source_local.size(), 0.0f);
    c.retarget = make_retarget_context(*binding.retarget);
    if (binding.plant) c.world.assign(static_cast<size_t>(binding.retarget->target_joint_count), Transform::identity());
  }
  return c;
}

bool sample_animation(const Clip& clip, const AnimationBinding& binding, const Rig& rig, float time, WrapMode wrap,
                      AnimationContext& context, std::span<Transform> local, std::span<float> coverage) {
  const auto n = static_cast<size_t>(rig.joint_count());
  ASTERUNE_EXPECT_OR_RETURN(local.size() == n && coverage.size() == n, "local and coverage hold rig.joint_count() entries",
                            false);
  // The context's playback cursor when it was made for this binding; a context built by hand
  // without one samples by search (same results).
  const bool cursor_fits = context.cursor.keys.size() == 2 * static_cast<size_t>(binding.clip_binding.joint_count());
  const auto sample = [&](std::span<Transform> l, std::span<float> c) {
    if (binding.compressed) return sample_compressed_clip(*binding.compressed, time, wrap, context.compressed_cursor, l, c);
    return cursor_fits ? sample_clip(clip, binding.clip_binding, time, wrap, context.cursor, l, c)
                       : sample_clip(clip, binding.clip_binding, time, wrap, l, c);
  };
  if (binding.mode == AnimationMode::kNative) return sample(local, coverage);
  if (!binding.retarget) return false;
  if (!sample(context.source_local, context.source_coverage)) return false;
  if (!sample_retarget(*binding.retarget, rig, context.source_local, context.source_coverage, context.retarget, local,
                       coverage)
           .ok)
    return false;
  if (binding.plant) apply_foot_plant(*binding.plant, rig, wrap_clip_time(time, clip.duration, wrap), local, context.world);
  return true;
}

}  // namespace asterune
