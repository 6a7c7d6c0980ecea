#include "asterune/retarget/cache.hpp"

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

}  // namespace asterune
