// Test support for the scene-track tests: one clip sampled on its own, bound the way a scene binds
// it (native when the names match the rig, else retargeted with the default scene retarget
// settings, the synthetic first frame left out (rule RT23) and the feet levelled (rule RT22) as
// the CLI does), as the reference the CLI's composed output is checked against.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/first_frame.hpp"
#include "asterune/retarget/foot_level.hpp"

namespace asterune::test {

struct SampledClip {
  io::SourceClip clip;
  AnimationBinding binding;
  AnimationContext context;
  std::vector<Transform> local;
  std::vector<float> coverage;

  SampledClip(const std::string& path, const Rig& rig) {
    clip = io::load_source_clip(path).value();
    if (clip_binds_natively(clip.clip, rig)) {
      binding = build_animation_binding(clip.clip, rig, nullptr, nullptr).value();
    } else {
      const FirstFrameCheck first = detect_synthetic_first_frame(clip.clip, clip.skeleton);
      if (first.synthetic) drop_first_frame(clip.clip, first.frame_time);
      const RetargetProfile profile =
          io::build_scene_profile(io::SceneRetarget{}, clip.skeleton, rig, clip.rest_on_ground).value();
      REQUIRE(level_clip_feet(clip.clip, clip.skeleton, rig, profile));
      binding = build_animation_binding(clip.clip, rig, &clip.skeleton, &profile).value();
    }
    context = make_animation_context(binding);
    local.resize(static_cast<size_t>(rig.joint_count()));
    coverage.resize(static_cast<size_t>(rig.joint_count()));
  }
  /// The clip's local pose at `time` (looped); also left in `local` and `coverage`.
  const std::vector<Transform>& at(const Rig& rig, float time) {
    REQUIRE(sample_animation(clip.clip, binding, rig, time, WrapMode::kLoop, context, local, coverage));
    return local;
  }
};

}  // namespace asterune::test
