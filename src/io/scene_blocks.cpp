#include "scene_blocks.hpp"

#include "scene_controls.hpp"

namespace asterune::io::detail {

// Readers of the blocks, each in its own source file.
void read_scene_animation(const Json& value, const std::string& pointer, const SceneBlockContext& ctx, SceneDesc& scene);

namespace {

void not_supported_yet(const Json&, const std::string& pointer, const SceneBlockContext&, SceneDesc&) {
  const std::string key = pointer.substr(1);
  fail(pointer, "'" + key + "' is not supported yet by this version of asterune (remove the block to run the scene)");
}

// One entry per optional block. Replace not_supported_yet by the block's reader when it lands.
constexpr SceneBlock kBlocks[] = {
    {"animation", read_scene_animation},
    {"ground", not_supported_yet},
    {"controls", read_scene_controls},
};

}  // namespace

std::span<const SceneBlock> scene_blocks() { return kBlocks; }

}  // namespace asterune::io::detail
