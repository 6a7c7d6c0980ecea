// RetargetCache: shares immutable RetargetBindings between characters (rule RT7). A binding is
// keyed by profile_key(profile), the target rig's layout signature and source_skeleton_key():
// the same three give the same shared binding; any change to the mapping, the profile, the
// rig layout or the source skeleton gives a new binding, never a stale one.
// BakeCache: shares baked clips (rule RT9): a clip retargeted once per (clip, binding) and then
// played natively. Keyed by clip_key(clip) and the binding's identity (profile, rig signature,
// source skeleton), with an explicit clear() to call after editing a rig or a profile.
// Lookups lock a mutex: use the caches at setup time; per-frame sampling never touches them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <tuple>

#include "asterune/core/result.hpp"
#include "asterune/core/shared_cache.hpp"
#include "asterune/clip/binding.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/retarget/binding.hpp"

namespace asterune {

class RetargetCache {
 public:
  using Key = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>;  // profile, rig, source

  static Key key_of(const SourceSkeleton& source, const Rig& rig, const RetargetProfile& profile);

  /// The cached binding for (profile, rig, source), building and inserting it on a miss.
  /// Build failures are returned and not cached. Thread-safe.
  Result<std::shared_ptr<const RetargetBinding>> get(const SourceSkeleton& source, const Rig& rig,
                                                     const RetargetProfile& profile);

  /// Number of hits and misses so far (for diagnostics and tests).
  std::size_t hits() const { return bindings_.hits(); }
  std::size_t misses() const { return bindings_.misses(); }
  std::size_t size() const { return bindings_.size(); }

  /// Drops every binding (holders of a shared_ptr keep theirs alive).
  void clear() { bindings_.clear(); }

 private:
  SharedCache<Key, RetargetBinding> bindings_;
};

class BakeCache {
 public:
  using Key = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t>;  // clip, profile, rig, source

  static Key key_of(const Clip& clip, const RetargetBinding& binding);

  /// The cached bake of `clip` through `binding` onto `rig` (see bake_retarget()), baking and
  /// inserting it on a miss. `source_binding` binds the clip to the binding's source skeleton.
  /// Bake failures (and a `rig` the binding was not built for, even on a hit) are returned and
  /// not cached. Thread-safe; allocates on a miss.
  Result<std::shared_ptr<const Clip>> get(const Clip& clip, const ClipBinding& source_binding,
                                          const RetargetBinding& binding, const Rig& rig);

  std::size_t hits() const { return clips_.hits(); }
  std::size_t misses() const { return clips_.misses(); }
  std::size_t size() const { return clips_.size(); }

  /// Drops every baked clip (holders of a shared_ptr keep theirs alive).
  void clear() { clips_.clear(); }
  /// Drops the bake of `clip` through `binding`; returns whether there was one.
  bool erase(const Clip& clip, const RetargetBinding& binding) { return clips_.erase(key_of(clip, binding)); }

 private:
  SharedCache<Key, Clip> clips_;
};

}  // namespace asterune
