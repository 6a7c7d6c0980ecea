// The compressed clip's bit-level codec (rule P8), shared by the sampler and the compressor so
// that the compressor measures exactly the values the sampler will decode.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/compressed_clip.hpp"

namespace asterune::detail {

static_assert(std::endian::native == std::endian::little, "the compressed clip reads its bit stream little-endian");

// The sampler reads a sample's three components with one 64-bit word after a shift of up to 7.
static_assert(3 * kCompressedBitRates[kCompressedBitRateCount - 2] + 7 <= 64, "a sample's components fit one word");

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

/// 1 / (2^bits - 1) per bit count (0 at 0 bits): a multiply in the sampler instead of a divide.
inline constexpr auto kInverseLevels = [] {
  std::array<float, 33> t{};
  for (int b = 1; b < 33; ++b) t[static_cast<std::size_t>(b)] = static_cast<float>(1.0 / (static_cast<double>(std::uint64_t{1} << b) - 1.0));
  return t;
}();

inline ComponentRange component_range(const CompressedChannel& c, int component, std::uint8_t min8, std::uint8_t extent8,
                                      int bits) {
  constexpr float kByte = 1.0f / 255.0f;
  const float extent = c.range_extent[component];
  const float lo = c.range_min[component] + extent * (static_cast<float>(min8) * kByte);
  const float seg_extent = extent * (static_cast<float>(extent8) * kByte);
  return {lo, seg_extent * kInverseLevels[static_cast<std::size_t>(bits)]};
}

/// A rotation rebuilt from its stored x, y, z (w >= 0). Inside the unit ball w = sqrt(1 - |xyz|^2)
/// makes it unit already (to rounding, which nlerp_or_slerp's normalisation absorbs), so only
/// a point quantized outside the ball pays a second square root.
inline glm::quat rebuild_rotation(float x, float y, float z) {
  const float w2 = 1.0f - (x * x + y * y + z * z);
  if (w2 > 0.0f) return glm::quat(std::sqrt(w2), x, y, z);
  const float n = std::sqrt(x * x + y * y + z * z);
  return n > 0.0f ? glm::quat(0.0f, x / n, y / n, z / n) : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}

/// The 64 bits at bit `position` of `bytes`, shifted so that bit `position` is bit 0 (its top
/// `position & 7` bits are zero). The caller guarantees 8 readable bytes from position / 8.
inline std::uint64_t read_word(const std::uint8_t* bytes, std::uint64_t position) {
  std::uint64_t word;
  std::memcpy(&word, bytes + (position >> 3), sizeof word);
  return word >> (position & 7u);
}

}  // namespace asterune::detail
