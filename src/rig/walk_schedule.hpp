// The world walk's data layout, private to the rig module: the components of C0 and inverse(C1)
// of each block of four walk_order() slots, one lane of four floats per component and the
// block's lanes side by side (so a block reads one contiguous 224-byte record), each slot's
// parent joint, and the per-block identity flags, which build_rig fills and the four-at-a-time
// walk in world.cpp reads. Not part of the public Rig: nothing outside src/rig needs the layout.
#pragma once

#include <cstddef>
#include <span>

#include "asterune/rig/rig.hpp"

namespace asterune::detail {

/// The lanes of walk_lane(): C0's rotation and position, then inverse(C1)'s.
enum class FrameLane : int {
  kC0Qx,
  kC0Qy,
  kC0Qz,
  kC0Qw,
  kC0Px,
  kC0Py,
  kC0Pz,
  kC1InvQx,
  kC1InvQy,
  kC1InvQz,
  kC1InvQw,
  kC1InvPx,
  kC1InvPy,
  kC1InvPz,
  kCount
};

/// walk_block_bits() flags, per block of four walk_order() slots (a scoped bit set: the bytes
/// hold ORs of these values; read them with has()).
enum class WalkBlockBits : unsigned char {
  kC0Identity = 1,  // every C0 rotation in the block is exactly the identity
  kC1Identity = 2,  // every inverse(C1) rotation likewise
};
inline constexpr unsigned char bit(WalkBlockBits b) { return static_cast<unsigned char>(b); }
inline constexpr bool has(unsigned char bits, WalkBlockBits b) { return (bits & bit(b)) != 0; }

/// Floats per block in walk_lanes(): FrameLane::kCount lanes of four.
inline constexpr std::size_t kWalkBlockFloats = 4 * static_cast<std::size_t>(FrameLane::kCount);

/// Reads Rig's private walk storage (a friend of Rig).
struct RigWalkAccess {
  /// Block b's lane k is the four floats at lanes(rig) + b * kWalkBlockFloats + 4 * k.
  static const float* lanes(const Rig& rig) { return rig.walk_lanes_.data(); }
  /// The parent joint of each walk_order() slot's joint.
  static std::span<const int> parents(const Rig& rig) { return rig.walk_parents_; }
  /// The identity flags per block of four walk_order() slots.
  static std::span<const unsigned char> block_bits(const Rig& rig) { return rig.walk_block_bits_; }
};

inline const float* walk_lanes(const Rig& rig) { return RigWalkAccess::lanes(rig); }
inline std::span<const int> walk_parents(const Rig& rig) { return RigWalkAccess::parents(rig); }
inline std::span<const unsigned char> walk_block_bits(const Rig& rig) { return RigWalkAccess::block_bits(rig); }

}  // namespace asterune::detail
