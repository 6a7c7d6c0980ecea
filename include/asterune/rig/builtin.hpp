// Built-in rigs: the standard Roblox R15 and R6 block rigs (Rig-Builder dummies), as plain
// RigDesc values. The numbers are the real Roblox-saved values (tests/data/roblox/, see its
// PROVENANCE.md); R15 is the x4.32 Dummy divided back to unscaled studs. Both rigs stand with
// the HumanoidRootPart's centre at (0, 3, 0) and the soles at y = 0, facing -Z.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "asterune/rig/rig_desc.hpp"

namespace asterune {

/// The description of a built-in rig: "r15" or "r6", with or without the "builtin:" prefix
/// (case-sensitive). Every part carries its size and rest placement (rotation identity, all
/// parts upright); every joint is an enabled Motor6D with Roblox's C0/C1; root is
/// "HumanoidRootPart". Part ids equal part names. Returns nullopt for any other name.
std::optional<RigDesc> builtin_rig_desc(std::string_view name);

/// The names builtin_rig_desc() accepts without prefix: {"r15", "r6"}.
std::span<const std::string_view> builtin_rig_names();

}  // namespace asterune
