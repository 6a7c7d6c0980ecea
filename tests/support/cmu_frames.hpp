// Test fixture: a CMU clip of tests/data/bvh (by default 131_01, cmu_131_01_start_walk_stop.bvh)
// retargeted onto a rig at 60 Hz, every frame of the clip, as the CLI records them: the scene defaults (an empty
// SceneRetarget, the floor resolved), sampled clamped, world placements from the default root
// placement. Reads the clip through asterune::io, so only test modules that link it include this.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/documents/frames_file.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

namespace asterune::test {

inline std::vector<io::FrameRecord> cmu_frames(const Rig& rig, const std::string& file = "cmu_131_01_start_walk_stop.bvh") {
  auto loaded = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  REQUIRE(loaded);
  io::SourceClip clip = std::move(loaded).value();
  auto profile = io::build_scene_profile(io::SceneRetarget{}, clip.skeleton, rig, clip.rest_on_ground);
  REQUIRE(profile);
  REQUIRE(io::resolve_scene_floor(io::SceneRetarget{}, clip, rig, profile.value()));
  auto binding = build_animation_binding(clip.clip, rig, &clip.skeleton, &profile.value());
  REQUIRE(binding);
  AnimationContext ctx = make_animation_context(binding.value());
  const auto n = static_cast<size_t>(rig.joint_count());
  std::vector<io::FrameRecord> frames;
  const int count = static_cast<int>(clip.clip.duration * 60.0f) + 1;
  for (int f = 0; f < count; ++f) {
    io::FrameRecord r;
    r.frame = f;
    r.time = static_cast<float>(f) / 60.0f;
    r.local.resize(n);
    r.coverage.resize(n);
    r.world.resize(n);
    r.root = io::default_root_placement(rig);
    REQUIRE(sample_animation(clip.clip, binding.value(), rig, r.time, WrapMode::kClamp, ctx, r.local, r.coverage));
    REQUIRE(evaluate_world(rig, r.root, r.local, r.world));
    frames.push_back(std::move(r));
  }
  return frames;
}

}  // namespace asterune::test
