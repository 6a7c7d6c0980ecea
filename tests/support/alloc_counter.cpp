#include "support/alloc_counter.hpp"

#include <cstdlib>
#include <new>

namespace {
thread_local std::size_t g_allocations = 0;
thread_local std::size_t g_bytes = 0;
}

namespace asterune::test {
std::size_t allocation_count() { return g_allocations; }
std::size_t allocated_bytes() { return g_bytes; }
}  // namespace asterune::test

// Replacement global allocation functions: count, then defer to malloc. ThreadSanitizer's
// runtime replaces them itself, so the tsan build (concurrency tests only, none of which counts
// allocations) defines ASTERUNE_TEST_NO_ALLOC_HOOKS and allocation_count() then stays 0.
#if !defined(ASTERUNE_TEST_NO_ALLOC_HOOKS)
void* operator new(std::size_t size) {
  ++g_allocations;
  g_bytes += size;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  ++g_allocations;
  g_bytes += size;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  g_bytes += size;
  return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  g_bytes += size;
  return std::malloc(size ? size : 1);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif  // !ASTERUNE_TEST_NO_ALLOC_HOOKS
