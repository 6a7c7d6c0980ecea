// Per-key easing of a clip channel: Roblox's PoseEasingStyle and PoseEasingDirection, as a pure
// function from a segment's linear blend factor to its eased factor. Clip sampling applies the
// easing of the key at the START of a segment to the segment (ClipTrack::rotation_easing,
// translation_easing; rule P5). Curves and their sources: docs/clips.md "Easing".
#pragma once

#include <cstdint>

namespace asterune {

/// Roblox Enum.PoseEasingStyle; the values are the file tokens.
enum class EasingStyle : std::uint8_t { kLinear = 0, kConstant = 1, kElastic = 2, kCubic = 3, kBounce = 4, kCubicV2 = 5 };

/// Roblox Enum.PoseEasingDirection; the values are the file tokens. Roblox's names: kOut applies
/// the style's curve forward (TweenService's EasingDirection.In), kIn reversed (TweenService's
/// Out), kInOut two curves back to back (TweenService's InOut). Legacy kCubic swaps kIn and kOut
/// (docs/clips.md).
enum class EasingDirection : std::uint8_t { kIn = 0, kOut = 1, kInOut = 2 };

/// The easing of the segment that starts at a key.
struct KeyEasing {
  EasingStyle style = EasingStyle::kLinear;
  EasingDirection direction = EasingDirection::kIn;
  friend bool operator==(const KeyEasing&, const KeyEasing&) = default;
};

/// The eased blend factor for a segment's linear factor `alpha`, expected in [0, 1] (values
/// outside are clamped; NaN reads as 0). kLinear returns alpha; kConstant returns 0 (the earlier
/// key is held until the next key's time, whatever the direction); the others return their
/// curve, 0 at alpha 0 and 1 at alpha 1, which Elastic leaves (below 0 or above 1) between the
/// ends. Unknown enum values read as kLinear / kIn. Pure, allocation-free, never throws.
float ease(KeyEasing easing, float alpha);

/// True when the token is a known Enum.PoseEasingStyle / PoseEasingDirection value.
bool is_easing_style(int token);
bool is_easing_direction(int token);

}  // namespace asterune
