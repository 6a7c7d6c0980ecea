// asterune-solve: a PoseSource that plays a clip (scene "animation" block or --clip), natively
// when the clip uses the rig's names (rule P3), retargeted otherwise (docs/retarget.md).
#pragma once

#include <memory>
#include <optional>
#include <vector>
#include <string>

#include "asterune/io/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/cache.hpp"
#include "run.hpp"

namespace asterune::cli {

class AnimationPoseSource final : public PoseSource {
 public:
  /// Loads the clip and binds it to `rig` (throws CliError with the file and reason). `base`
  /// (optional, e.g. the scene's pose) is written first; the clip then replaces the joints it
  /// covers (coverage > 0).
  /// `bake` (--bake): a retargeted clip is baked once through a BakeCache (rule RT9) and
  /// played natively from the baked clip; a native clip is played as it is.
  AnimationPoseSource(const io::SceneAnimation& animation, const Rig& rig, std::optional<Pose> base = {},
                      bool bake = false);
  void sample(float time, std::span<Transform> local, std::span<float> coverage) override;

  void foot_contacts(float time, std::vector<io::FootContactRecord>& out) const override;

  float duration() const { return clip_.clip.duration; }
  /// Retargeted clips: why the floor comes from the rest pose (no feet, or feet that never
  /// touch; rule RT16), else empty.
  const std::string& contact_note() const { return contact_note_; }
  /// The clip's markers, Footstep markers of the contacts included (rule RT17).
  const std::vector<ClipMarker>& markers() const { return clip_.clip.markers; }
  /// "native", "retargeted (N of M joints mapped)", or with --bake "retarget baked once into
  /// '<clip>' (N tracks, K keys), played natively": printed in the table's header.
  std::string description() const;

 private:
  Rig rig_;  // a copy: the Run that owns this source may move its own rig
  std::optional<Pose> base_;
  std::vector<Transform> scratch_local_;
  std::vector<float> scratch_coverage_;
  io::SourceClip clip_;
  FootContacts contacts_;    // retargeted clips: the source's foot contacts (rule RT17)
  std::string contact_note_;
  std::shared_ptr<const Clip> baked_;  // --bake: the clip that is played instead of clip_.clip
  int mapped_ = 0;                     // retargeted joints (kept for the description when baked)
  AnimationBinding binding_;
  AnimationContext context_;
  WrapMode wrap_ = WrapMode::kLoop;
};

}  // namespace asterune::cli
