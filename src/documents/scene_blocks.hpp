// Private: the registry of optional scene blocks ("animation", "controls", "ground", ...).
// Each block is read by its own function, in its own source file, that fills its own field of
// SceneDesc. To add one: write `void read_scene_<key>(const Json&, const std::string& pointer,
// const SceneBlockContext&, SceneDesc&)` (throw via detail::fail on bad input) and put it in
// the table of scene_blocks.cpp in place of the "not supported yet" entry.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "asterune/documents/scene_file.hpp"
#include "formats/json_read.hpp"

namespace asterune::io::detail {

struct SceneBlockContext {
  std::filesystem::path scene_file;
  std::filesystem::path base_dir;  // folder that relative paths in the scene are resolved against

  /// A path from the scene resolved against base_dir (absolute paths unchanged).
  std::filesystem::path resolve(const std::string& path) const;
};

using SceneBlockReader = void (*)(const Json& value, const std::string& pointer, const SceneBlockContext& ctx,
                                  SceneDesc& scene);

struct SceneBlock {
  std::string_view key;
  SceneBlockReader read;
};

/// The "retarget" object of the "animation" block and of each track (scene_animation.hpp).
SceneRetarget read_scene_retarget(const Json& value, const std::string& pointer);
/// "cycle": "auto" or "none" (rule LO1).
ClipCycle read_clip_cycle(const Json& value, const std::string& pointer);

/// The registered optional blocks, in the order they are read.
std::span<const SceneBlock> scene_blocks();

}  // namespace asterune::io::detail
