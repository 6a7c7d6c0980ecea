// StateArchive: one walk over an object's retained state that sizes, writes or reads it, so a
// snapshot's layout is written once per type (rules GR14, AN14) and the three directions cannot
// disagree. Plain bytes in the platform's representation: a snapshot restores into an object
// built from the same description on the same build, not across machines. Allocation-free.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace asterune::detail {

enum class StateMode { kSize, kWrite, kRead };

struct StateArchive {
  StateMode mode = StateMode::kSize;
  std::byte* out = nullptr;       // kWrite
  const std::byte* in = nullptr;  // kRead
  std::size_t at = 0;             // bytes walked so far

  void bytes(void* p, std::size_t n) {
    if (n == 0) return;
    if (mode == StateMode::kWrite) std::memcpy(out + at, p, n);
    else if (mode == StateMode::kRead) std::memcpy(p, in + at, n);
    at += n;
  }
  template <class T>
  void field(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof(T));
  }
  template <class T>
  void array(T* p, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(p, count * sizeof(T));
  }
  /// A bool as one byte (its representation is not guaranteed to be 0/1 in memory otherwise).
  void flag(bool& b) {
    unsigned char c = b ? 1 : 0;
    field(c);
    b = c != 0;
  }
  bool reading() const { return mode == StateMode::kRead; }
};

}  // namespace asterune::detail
