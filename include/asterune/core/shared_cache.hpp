// SharedCache: a keyed store of immutable values shared by shared_ptr and built on the first
// request, the machinery of the setup-time caches (RetargetCache, BakeCache in
// retarget/cache.hpp). Lookups lock a mutex; a build that fails is returned and not stored.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "asterune/core/result.hpp"

namespace asterune {

template <class Key, class Value>
class SharedCache {
 public:
  /// The value stored for `key`, else build() (returning Result<Value>) stored and returned.
  /// Counts a hit or a miss. Thread-safe: builds run under the lock, one at a time.
  template <class Build>
  Result<std::shared_ptr<const Value>> get(const Key& key, Build&& build) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = values_.find(key); it != values_.end()) {
      ++hits_;
      return it->second;
    }
    ++misses_;
    Result<Value> built = std::forward<Build>(build)();
    if (!built) return built.error();
    auto shared = std::make_shared<const Value>(std::move(built).value());
    values_.emplace(key, shared);
    return std::shared_ptr<const Value>(std::move(shared));
  }

  std::size_t hits() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return hits_;
  }
  std::size_t misses() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return misses_;
  }
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return values_.size();
  }
  /// Drops every value (holders of a shared_ptr keep theirs alive).
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    values_.clear();
  }
  /// Drops the value of `key`; returns whether there was one.
  bool erase(const Key& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    return values_.erase(key) > 0;
  }

 private:
  mutable std::mutex mutex_;
  std::map<Key, std::shared_ptr<const Value>> values_;
  std::size_t hits_ = 0;
  std::size_t misses_ = 0;
};

}  // namespace asterune
