// Cache prefetch hints for batch updates: a batch asks the CPU to start loading the next
// character's state while it updates the current one, so a crowd larger than the caches does
// not wait on memory at every character. A hint only: results never depend on it.
#pragma once

#include <cstddef>
#include <vector>

namespace asterune {

/// Hints that the `bytes` bytes at `data` will be read and written soon (every 64-byte line).
/// No effect on results; a no-op on compilers without a prefetch builtin.
inline void prefetch_bytes(const void* data, std::size_t bytes) {
#if defined(__GNUC__) || defined(__clang__)
  const char* p = static_cast<const char*>(data);
  for (std::size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(p + offset, 1, 3);
#else
  (void)data;
  (void)bytes;
#endif
}

/// prefetch_bytes() over the elements of each vector.
template <class... T>
void prefetch_vectors(const std::vector<T>&... vectors) {
  (prefetch_bytes(vectors.data(), vectors.size() * sizeof(T)), ...);
}

}  // namespace asterune
