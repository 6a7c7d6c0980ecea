// Test fixture: a CMU clip of tests/data/bvh baked onto the built-in R15 as the CLI retargets it
// (scene defaults: an empty SceneRetarget, the floor resolved), for tests of what is done with
// baked clips (compression). Reads the clip through asterune::io.
#pragma once

#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/bake.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::test {

inline Rig builtin_r15() {
  auto desc = builtin_rig_desc("r15");
  REQUIRE(desc);
  auto rig = build_rig(*desc);
  REQUIRE(rig);
  return std::move(rig).value();
}

inline Clip cmu_baked(const std::string& file, const Rig& rig) {
  auto loaded = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  REQUIRE(loaded);
  io::SourceClip clip = std::move(loaded).value();
  auto profile = io::build_scene_profile(io::SceneRetarget{}, clip.skeleton, rig, clip.rest_on_ground);
  REQUIRE(profile);
  REQUIRE(io::resolve_scene_floor(io::SceneRetarget{}, clip, rig, profile.value()));
  auto binding = build_animation_binding(clip.clip, rig, &clip.skeleton, &profile.value());
  REQUIRE(binding);
  REQUIRE(binding.value().retarget);
  auto baked = bake_retarget(clip.clip, binding.value().clip_binding, *binding.value().retarget, rig);
  REQUIRE(baked);
  return std::move(baked).value();
}

}  // namespace asterune::test
