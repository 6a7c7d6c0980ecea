// One entry point for "give me a rig": a built-in name, an `asterune.rig/1` file, a Roblox
// JSON extraction (*.joints.json) or a Roblox XML model (.rbxmx).
#pragma once

#include <string_view>

#include "asterune/core/result.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/rig_desc.hpp"

namespace asterune::io {

/// Loads a rig description from `spec`:
///  - "builtin:r15" / "builtin:r6": the built-in rigs (asterune::builtin_rig_desc);
///  - a path ending in ".rbxmx": read_rbxmx_file;
///  - any other path: a JSON file; with a "format" key it must be `asterune.rig/1`
///    (read_rig_file), without one it is read as a Roblox JSON extraction when its "parts" is
///    an object (read_roblox_rig_json_file), else it fails for the missing format tag.
/// An unknown "builtin:" name fails listing the built-in names; a .gltf, .glb, .vrm, .vrma or
/// .bvh path fails saying it is a clip (--clip) and which rig forms are accepted (rule F21).
Result<RigDesc> load_rig_desc(std::string_view spec);

/// load_rig_desc() then asterune::build_rig(); build errors are prefixed with `spec`.
Result<Rig> load_rig(std::string_view spec);

}  // namespace asterune::io

namespace asterune::io {

/// Where to put the root part when nothing says otherwise: its rest placement from the rig
/// description when it has one (the built-in rigs: HumanoidRootPart at (0, 3, 0)), else identity.
Transform default_root_placement(const Rig& rig);

}  // namespace asterune::io
