#include "asterune/retarget/cache.hpp"

#include "asterune/retarget/bake.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {

RetargetCache::Key RetargetCache::key_of(const SourceSkeleton& source, const Rig& rig, const RetargetProfile& profile) {
  return {profile_key(profile), rig.signature(), source_skeleton_key(source)};
}

Result<std::shared_ptr<const RetargetBinding>> RetargetCache::get(const SourceSkeleton& source, const Rig& rig,
                                                                  const RetargetProfile& profile) {
  const Key key = key_of(source, rig, profile);
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = bindings_.find(key); it != bindings_.end()) {
    ++hits_;
    return it->second;
  }
  ++misses_;
  auto built = build_retarget_binding(source, rig, profile);
  if (!built) return built.error();
  auto shared = std::make_shared<const RetargetBinding>(std::move(built).value());
  bindings_.emplace(key, shared);
  return std::shared_ptr<const RetargetBinding>(shared);
}

std::size_t RetargetCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}
std::size_t RetargetCache::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return misses_;
}
std::size_t RetargetCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bindings_.size();
}
void RetargetCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  bindings_.clear();
}

BakeCache::Key BakeCache::key_of(const Clip& clip, const RetargetBinding& binding) {
  return {clip_key(clip), binding.profile_key, binding.target_signature, binding.source_key};
}

Result<std::shared_ptr<const Clip>> BakeCache::get(const Clip& clip, const ClipBinding& source_binding,
                                                   const RetargetBinding& binding, const Rig& rig) {
  // A binding used with another rig is refused even when its bake is cached.
  if (rig.signature() != binding.target_signature)
    return make_error("bake '" + clip.name + "': the retarget binding was built for another rig than '" + rig.name() + "'");
  const Key key = key_of(clip, binding);
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = clips_.find(key); it != clips_.end()) {
    ++hits_;
    return it->second;
  }
  ++misses_;
  auto baked = bake_retarget(clip, source_binding, binding, rig);
  if (!baked) return baked.error();
  auto shared = std::make_shared<const Clip>(std::move(baked).value());
  clips_.emplace(key, shared);
  return std::shared_ptr<const Clip>(shared);
}

std::size_t BakeCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}
std::size_t BakeCache::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return misses_;
}
std::size_t BakeCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return clips_.size();
}
void BakeCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  clips_.clear();
}
bool BakeCache::erase(const Clip& clip, const RetargetBinding& binding) {
  const Key key = key_of(clip, binding);
  std::lock_guard<std::mutex> lock(mutex_);
  return clips_.erase(key) > 0;
}

}  // namespace asterune
