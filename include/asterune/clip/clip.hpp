// Clip: keyframed animation tracks keyed by joint name (rule P2). A track targets a joint by its
// child part name ("LeftHand") or a parent-qualified name ("LeftLowerArm/LeftHand") for rigs;
// by joint name for source skeletons (BVH, glTF). Plain data, built by importers or by hand.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/easing.hpp"

namespace asterune {

/// How a channel moves between two keys. kLinear: slerp (shortest arc) for rotations, lerp
/// for translations. kStep: hold the earlier key's value until the next key time.
/// kCubicSpline: glTF's cubic Hermite spline through the keys with per-key in- and
/// out-tangents (the channel's *_in_tangents / *_out_tangents, value units per second);
/// rotations are interpolated component-wise and normalized, as glTF specifies.
enum class Interpolation { kLinear, kStep, kCubicSpline };

/// One joint's keys. Rotation and translation keys have their own times (ascending, seconds).
/// Either channel may be empty: the sampler then uses the binding's default for that joint
/// (identity for a rig's motor transform T, the rest local transform for a source skeleton).
struct ClipTrack {
  std::string name;
  std::vector<float> rotation_times;
  std::vector<glm::quat> rotations;
  std::vector<float> translation_times;
  std::vector<glm::vec3> translations;
  Interpolation rotation_interpolation = Interpolation::kLinear;
  Interpolation translation_interpolation = Interpolation::kLinear;
  // kCubicSpline only: one in- and one out-tangent per key (empty otherwise). Rotation tangents
  // are quaternion-shaped 4-vectors (not unit rotations).
  std::vector<glm::quat> rotation_in_tangents, rotation_out_tangents;
  std::vector<glm::vec3> translation_in_tangents, translation_out_tangents;
  // Scale keys (glTF scale channels). Motor6D rigs are rigid, so rig sampling ignores them;
  // sample_track_scale() evaluates them for tools that want them. Tangents as above.
  std::vector<float> scale_times;
  std::vector<glm::vec3> scales;
  Interpolation scale_interpolation = Interpolation::kLinear;
  std::vector<glm::vec3> scale_in_tangents, scale_out_tangents;
  // Per-key easing (Roblox Pose EasingStyle / EasingDirection, rule P5): empty, or one per key
  // of the channel; entry i eases the segment from key i to key i + 1 (the key at the segment's
  // START, as Roblox does). Empty: the channel's Interpolation alone, as for glTF and BVH clips.
  // With easing the channel's Interpolation must be kLinear (validate_clip).
  std::vector<KeyEasing> rotation_easing;
  std::vector<KeyEasing> translation_easing;
};

/// A named moment of a clip that playback reports when it crosses it (rule AN7): a Roblox
/// KeyframeMarker (name + value), a named Roblox Keyframe (its Name, no value), or an event a
/// tool derived from the motion (e.g. a footstep). glTF and BVH clips have none.
enum class ClipMarkerKind { kMarker, kKeyframe };

struct ClipMarker {
  float time = 0.0f;  // seconds, in [0, duration]
  std::string name;
  std::string value;  // KeyframeMarker.Value; empty for a named Keyframe
  ClipMarkerKind kind = ClipMarkerKind::kMarker;
};

struct Clip {
  std::string name;
  float duration = 0.0f;  // seconds; sampling wraps or clamps to [0, duration]
  std::vector<ClipTrack> tracks;
  /// Markers ordered by time (ties keep file order). Sampling ignores them; the animator
  /// reports each one a track crosses.
  std::vector<ClipMarker> markers;
};

}  // namespace asterune
