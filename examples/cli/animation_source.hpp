// asterune-solve: a PoseSource that plays a clip (scene "animation" block or --clip), natively
// when the clip uses the rig's names (rule P3), retargeted otherwise (docs/retarget.md), and the
// clip loading and binding it shares with the animator's tracks (animator_source.hpp).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>
#include <string>

#include "asterune/anim/animator.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/documents/scene_tracks.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/cache.hpp"
#include "run.hpp"

namespace asterune::cli {

/// A clip loaded from a file and bound to a rig: natively when its track names are the rig's
/// (rule P3), else retargeted; with --bake a retargeted clip is baked once (rule RT9) and
/// played natively. Not movable once bound (an Animator keeps pointers to clip() and binding).
struct BoundClip {
  io::SourceClip source;               // a KeyframeSequence keeps only the Poses naming a joint of the rig
  std::shared_ptr<const Clip> baked;   // --bake: the clip that is played instead of source.clip
  int mapped = 0;                      // retargeted joints (kept for the description when baked)
  std::string roles;                   // describe_roles() of the source roles (rule RT11)
  FootContacts contacts;               // retargeted clips: the source's foot contacts (rule RT17)
  std::string contact_note;            // why the floor comes from the rest (rule RT16), else empty
  std::string cycle;                   // "cycle": "auto": the span cut (CycleSpan::describe, rule LO5), else empty
  AnimationBinding binding;

  const Clip& clip() const { return baked ? *baked : source.clip; }
  /// "native", "retargeted (N of M joints mapped); source roles: ...", or with --bake
  /// "retargeted (...), baked once into '<clip>' (N tracks, K rotation keys) and played
  /// natively; source roles: ...".
  std::string description(const Rig& rig) const;
};

/// Loads `path` (io::load_source_clip) and binds it to `rig` into `out`, retargeting with
/// `retarget` when the names do not bind natively; `cache` (optional) shares retarget bindings
/// between clips of one skeleton. A skeleton clip's synthetic first frame (rule RT23) is left
/// out, with a note on stderr, unless `keep_first_frame` (--keep-first-frame). With `cycle` auto
/// (rules LO1-LO5) a skeleton clip is cut to its best loop of whole strides once its floor is
/// found (the contacts and floor are then found again on the loop); the span goes to stderr as a
/// note and into the description. Throws CliError naming the clip and the reason.
void bind_clip(BoundClip& out, const std::filesystem::path& path, const io::SceneRetarget& retarget, const Rig& rig,
               bool bake, RetargetCache* cache = nullptr, bool keep_first_frame = false,
               io::ClipCycle cycle = io::ClipCycle::kNone);

/// The animator track a scene track plays: its settings over `bound`'s clip and binding (which
/// must outlive it). A KeyframeSequence's Priority and Loop are the defaults (docs/formats.md,
/// "tracks"); the scene's "animation" block (`is_animation_block`) clamps at its end like a single
/// sampled clip when it does not loop (rule AN10).
TrackDesc scene_track_desc(const io::SceneTrack& track, const BoundClip& bound, bool is_animation_block);

class AnimationPoseSource final : public PoseSource {
 public:
  /// Loads the clip and binds it to `rig` (throws CliError with the file and reason). `base`
  /// (optional, e.g. the scene's pose) is written first; the clip then replaces the joints it
  /// covers (coverage > 0).
  /// `bake` (--bake): a retargeted clip is baked once through a BakeCache (rule RT9) and
  /// played natively from the baked clip; a native clip is played as it is.
  /// Looping (rule AN11): `animation.loop` when set (the scene's "loop", --loop, --no-loop),
  /// else the file's own Loop (a Roblox KeyframeSequence or CurveAnimation), else looped, or
  /// once when `once_by_default` (a --clip run without a scene); once is clamped at the last pose.
  AnimationPoseSource(const io::SceneAnimation& animation, const Rig& rig, std::optional<Pose> base = {},
                      bool bake = false, bool keep_first_frame = false, bool once_by_default = false);
  void sample(float time, float dt, std::span<Transform> local, std::span<float> coverage) override;

  void foot_contacts(float time, std::vector<io::FootContactRecord>& out) const override;

  float duration() const { return clip_.source.clip.duration; }
  /// Whether the clip loops (else it plays once, clamped at its ends).
  bool looped() const { return wrap_ == WrapMode::kLoop; }
  /// Retargeted clips: why the floor comes from the rest pose (no feet, or feet that never
  /// touch; rule RT16), else empty.
  const std::string& contact_note() const { return clip_.contact_note; }
  /// The clip's markers, Footstep markers of the contacts included (rule RT17).
  const std::vector<ClipMarker>& markers() const { return clip_.clip().markers; }
  /// "native", "retargeted (N of M joints mapped)", or with --bake "retarget baked once into
  /// '<clip>' (N tracks, K keys), played natively": printed in the table's header.
  std::string description() const;

 private:
  Rig rig_;  // a copy: the Run that owns this source may move its own rig
  std::optional<Pose> base_;
  std::vector<Transform> scratch_local_;
  std::vector<float> scratch_coverage_;
  BoundClip clip_;
  AnimationContext context_;
  WrapMode wrap_ = WrapMode::kLoop;
};

}  // namespace asterune::cli
