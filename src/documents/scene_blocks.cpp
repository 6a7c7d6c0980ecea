#include "scene_blocks.hpp"

#include "scene_controls.hpp"

namespace asterune::io::detail {

// Readers of the blocks, each in its own source file.
void read_scene_animation(const Json& value, const std::string& pointer, const SceneBlockContext& ctx, SceneDesc& scene);
void read_scene_tracks(const Json& value, const std::string& pointer, const SceneBlockContext& ctx, SceneDesc& scene);
void read_scene_commands(const Json& value, const std::string& pointer, const SceneBlockContext& ctx, SceneDesc& scene);
void read_scene_ground(const Json& value, const std::string& pointer, const SceneBlockContext& ctx, SceneDesc& scene);

namespace {

// One entry per optional block, each read by its own function. "commands" reads after
// "animation" and "tracks": it checks the track names it uses.
constexpr SceneBlock kBlocks[] = {
    {"animation", read_scene_animation},
    {"tracks", read_scene_tracks},
    {"commands", read_scene_commands},
    {"ground", read_scene_ground},
    {"controls", read_scene_controls},
};

}  // namespace

std::span<const SceneBlock> scene_blocks() { return kBlocks; }

}  // namespace asterune::io::detail
