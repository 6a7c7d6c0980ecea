// Internal: the one FNV-1a 64-bit hasher behind every stable key (rig layout signature, retarget
// profile key, source skeleton key). Stable across platforms and runs, unlike std::hash.
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>

namespace asterune::detail {

class Fnv1a {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      h_ ^= p[i];
      h_ *= 1099511628211ull;
    }
  }
  void u64(std::uint64_t v) { bytes(&v, sizeof v); }
  void i32(int v) { u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(v))); }
  void f32(float v) {
    if (v == 0.0f) v = 0.0f;  // -0 and +0 hash alike
    u64(std::bit_cast<std::uint32_t>(v));
  }
  void str(std::string_view s) {
    u64(s.size());
    bytes(s.data(), s.size());
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 14695981039346656037ull;
};

}  // namespace asterune::detail
