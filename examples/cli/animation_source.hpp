// asterune-solve: a PoseSource that plays a clip (scene "animation" block or --clip), natively
// when the clip uses the rig's names (SPEC P3), retargeted otherwise (docs/retarget.md).
#pragma once

#include <memory>
#include <optional>
#include <vector>
#include <string>

#include "asterune/io/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "run.hpp"

namespace asterune::cli {

class AnimationPoseSource final : public PoseSource {
 public:
  /// Loads the clip and binds it to `rig` (throws CliError with the file and reason). `base`
  /// (optional, e.g. the scene's pose) is written first; the clip then replaces the joints it
  /// covers (coverage > 0).
  AnimationPoseSource(const io::SceneAnimation& animation, const Rig& rig, std::optional<Pose> base = {});
  void sample(float time, std::span<Transform> local, std::span<float> coverage) override;

  float duration() const { return clip_.clip.duration; }
  /// "native" or "retargeted (N of M joints mapped)": printed nowhere by default, for --help/tests.
  std::string description() const;

 private:
  Rig rig_;  // a copy: the Run that owns this source may move its own rig
  std::optional<Pose> base_;
  std::vector<Transform> scratch_local_;
  std::vector<float> scratch_coverage_;
  io::SourceClip clip_;
  AnimationBinding binding_;
  AnimationContext context_;
  WrapMode wrap_ = WrapMode::kLoop;
};

}  // namespace asterune::cli
