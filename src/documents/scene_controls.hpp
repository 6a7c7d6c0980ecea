// Private: reader of the scene's "controls" block (formats.md): control types "ik",
// "look_at", "spring" and "feet" become asterune::ControlDesc values in SceneDesc::controls.
#pragma once

#include <string>

#include "scene_blocks.hpp"

namespace asterune::io::detail {

void read_scene_controls(const Json& value, const std::string& pointer, const SceneBlockContext& ctx, SceneDesc& scene);

}  // namespace asterune::io::detail
