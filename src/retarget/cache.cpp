#include "asterune/retarget/cache.hpp"

#include "asterune/retarget/bake.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {

RetargetCache::Key RetargetCache::key_of(const SourceSkeleton& source, const Rig& rig, const RetargetProfile& profile) {
  return {profile_key(profile), rig.signature(), source_skeleton_key(source)};
}

Result<std::shared_ptr<const RetargetBinding>> RetargetCache::get(const SourceSkeleton& source, const Rig& rig,
                                                                  const RetargetProfile& profile) {
  return bindings_.get(key_of(source, rig, profile),
                       [&] { return build_retarget_binding(source, rig, profile); });
}

BakeCache::Key BakeCache::key_of(const Clip& clip, const RetargetBinding& binding) {
  return {clip_key(clip), binding.profile_key, binding.target_signature, binding.source_key};
}

Result<std::shared_ptr<const Clip>> BakeCache::get(const Clip& clip, const ClipBinding& source_binding,
                                                   const RetargetBinding& binding, const Rig& rig) {
  // A binding used with another rig is refused even when its bake is cached.
  if (rig.signature() != binding.target_signature)
    return make_error("bake '" + clip.name + "': the retarget binding was built for another rig than '" + rig.name() + "'");
  return clips_.get(key_of(clip, binding), [&] { return bake_retarget(clip, source_binding, binding, rig); });
}

}  // namespace asterune
