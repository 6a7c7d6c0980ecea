// The compressed clip's bit-level codec (rule P8), shared by the sampler and the compressor so
// that the compressor measures exactly the values the sampler will decode.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/compressed_clip.hpp"

namespace asterune::detail {

static_assert(std::endian::native == std::endian::little, "the compressed clip reads its bit stream little-endian");

/// Components stored per sample of a channel at `bits`: rotations keep all four at 32 bits.
inline int channel_components(ChannelKind kind, int bits) { return kind == ChannelKind::kRotation && bits == 32 ? 4 : 3; }

/// Bits one segment's samples of a channel take: (intervals + 1) samples.
inline std::uint64_t channel_stream_bits(ChannelKind kind, int bits, std::uint32_t samples) {
  return static_cast<std::uint64_t>(samples) * static_cast<std::uint64_t>(channel_components(kind, bits)) *
         static_cast<std::uint64_t>(bits);
}

/// `bits` (<= 32) bits at bit `position` of `bytes` (LSB first). The caller guarantees 8 readable
/// bytes from position / 8.
inline std::uint32_t read_bits(const std::uint8_t* bytes, std::uint64_t position, int bits) {
  std::uint64_t word;
  std::memcpy(&word, bytes + (position >> 3), sizeof word);
  word >>= (position & 7u);
  return static_cast<std::uint32_t>(word & ((std::uint64_t{1} << bits) - 1u));
}

/// One segment's range of a component: min and the step of one quantum.
struct ComponentRange {
  float min;
  float scale;  // extent / (2^bits - 1); 0 at 0 bits
};

inline ComponentRange component_range(const CompressedChannel& c, int component, std::uint8_t min8, std::uint8_t extent8,
                                      int bits) {
  constexpr float kByte = 1.0f / 255.0f;
  const float extent = c.range_extent[component];
  const float lo = c.range_min[component] + extent * (static_cast<float>(min8) * kByte);
  const float seg_extent = extent * (static_cast<float>(extent8) * kByte);
  const float levels = bits == 0 ? 0.0f : static_cast<float>((std::uint32_t{1} << bits) - 1u);
  return {lo, bits == 0 ? 0.0f : seg_extent / levels};
}

/// A rotation rebuilt from its stored x, y, z (w >= 0).
inline glm::quat rebuild_rotation(float x, float y, float z) {
  const float w2 = 1.0f - (x * x + y * y + z * z);
  const float w = w2 > 0.0f ? std::sqrt(w2) : 0.0f;
  const glm::quat q(w, x, y, z);
  const float n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return n > 0.0f ? q * (1.0f / n) : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}

}  // namespace asterune::detail
