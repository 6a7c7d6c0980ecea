// ClipBinding: the setup-time link between a Clip's tracks and the joints of a target (a Rig or
// a SourceSkeleton), rule P2/P3. For every target joint it records which track drives it (or
// none) and the default local transform used when the joint has no track or a track lacks a
// channel. Built once, never modified afterwards: share it (const) between characters/threads.
//
// Name rules:
//   Rig            - a track name is a child part name ("LeftHand") or a parent-qualified name
//                    ("LeftLowerArm/LeftHand"), resolved with Rig::find_joint (rule R6). A
//                    plain name shared by several joints is refused (the binding fails with the
//                    lookup's message listing the qualified names). Defaults: identity T.
//   SourceSkeleton - a track name is a joint name (exact). Defaults: the skeleton's rest_local,
//                    because sampled source poses are FULL local transforms.
// Tracks whose names match no joint are not an error: they are listed in unmatched_tracks().
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;
struct SourceSkeleton;
namespace detail {
struct KeyStream;
}

class ClipBinding {
 public:
  ClipBinding() = default;

  /// Number of target joints (the size sample_clip() writes).
  int joint_count() const { return static_cast<int>(track_of_joint_.size()); }
  /// Number of tracks of the clip this binding was built for.
  int track_count() const { return track_count_; }
  /// Index into clip.tracks driving joint j, or -1 when no track drives it.
  int track_of(int j) const { return track_of_joint_[static_cast<size_t>(j)]; }
  std::span<const int> track_of_joint() const { return track_of_joint_; }
  /// Local transform used for joint j when it has no track, or for a missing channel.
  std::span<const Transform> defaults() const { return defaults_; }
  /// Names of clip tracks that matched no target joint (in clip order).
  std::span<const std::string> unmatched_tracks() const { return unmatched_; }
  /// Number of joints driven by some track.
  int bound_count() const;
  /// Layout signature (Rig::signature(), rule R7) of the rig this binding was made for by
  /// build_clip_binding(clip, rig); 0 for a source-skeleton binding or one built from tracks.
  /// Players refuse a native binding whose signature is not their rig's.
  std::uint64_t target_signature() const { return target_signature_; }
  /// The clip's keys compiled at bind for forward playback with a ClipCursor (ozz's layout:
  /// four joints per SIMD lane, keys in the order they are needed; src/clip/key_stream.hpp).
  /// Shared, read-only, by copies of the binding; null for a default-constructed binding.
  const detail::KeyStream* key_stream() const { return stream_.get(); }
  /// The keys this binding samples: the clip it was built from as it was at bind (its tracks
  /// and duration; no markers). One source of truth: sample_clip() and the key stream read
  /// these, never the Clip passed to them, so editing that Clip after binding changes nothing
  /// (bind again to play the edit). Shared, read-only, by copies; null for a default binding.
  const Clip* bound_clip() const { return clip_.get(); }

 private:
  friend Result<ClipBinding> build_clip_binding_from_tracks(const Clip& clip, std::vector<int> track_of_joint,
                                               std::vector<Transform> defaults,
                                               std::vector<std::string> unmatched_tracks);
  std::vector<int> track_of_joint_;
  std::vector<Transform> defaults_;
  std::vector<std::string> unmatched_;
  int track_count_ = 0;
  std::uint64_t target_signature_ = 0;
  std::shared_ptr<const detail::KeyStream> stream_;
  std::shared_ptr<const Clip> clip_;  // the keys as bound (bound_clip)
  friend Result<ClipBinding> build_clip_binding(const Clip& clip, const Rig& rig);
};

/// Checks a clip's keys (setup time, so sampling needs no checks): every track's key counts
/// match their time counts, times are finite and non-decreasing, values are finite and
/// rotations unit length within 1e-3, per-key easing is empty or one known style and direction
/// per key of a kLinear channel (rule P5). Fails naming the clip, the track and the reason.
Status validate_clip(const Clip& clip);

/// Generic constructor used by the binders below (and by other modules that compute their own
/// mapping): track_of_joint[j] in [-1, clip.tracks.size()), defaults sized like track_of_joint
/// and finite, no track used by two joints. Validates the clip (validate_clip). Fails with a
/// message naming the clip and the reason; nothing half-built.
Result<ClipBinding> build_clip_binding_from_tracks(const Clip& clip, std::vector<int> track_of_joint,
                                      std::vector<Transform> defaults,
                                      std::vector<std::string> unmatched_tracks = {});

/// Binds a clip to a rig by child part name or parent-qualified name (rule P2, R6). Fails on an
/// ambiguous plain name (message lists the qualified names), on two tracks resolving to the
/// same joint, and on invalid keys. Unresolved names are listed in unmatched_tracks().
Result<ClipBinding> build_clip_binding(const Clip& clip, const Rig& rig);

/// Binds a clip to a source skeleton by exact joint name; defaults are skeleton.rest_local.
/// Fails on two tracks naming the same joint and on invalid keys.
Result<ClipBinding> build_clip_binding(const Clip& clip, const SourceSkeleton& skeleton);

/// True when the clip binds natively to the rig (rule P3): it has at least one track and every
/// track resolves to exactly one joint of the rig (no unmatched, no ambiguous names). A player
/// prefers native binding over any retarget profile when this holds.
bool clip_binds_natively(const Clip& clip, const Rig& rig);

}  // namespace asterune
