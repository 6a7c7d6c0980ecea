// Roblox rig import: Roblox XML models (.rbxmx, as saved by Roblox Studio) and the JSON
// extraction of such models used in tests/data/roblox (*.joints.json, *_normalized.json).
#pragma once

#include <filesystem>
#include <string_view>

#include "asterune/core/result.hpp"
#include "asterune/rig/rig_desc.hpp"

namespace asterune::io {

/// Imports every part (classes Part, MeshPart, WedgePart, CornerWedgePart, TrussPart,
/// UnionOperation: Name, CFrame, Size) and every Motor6D (Name, Part0/Part1 referents, C0,
/// C1, Enabled) of a Roblox XML model, at any depth. Part ids are the part names when a name
/// is unique in the file, else the item's referent; a part's CFrame becomes its rest placement.
/// A Motor6D whose Part0/Part1 is empty or not an imported part keeps that referent as its
/// part id, so build_rig() drops it with reason "missing part" (rule R3). The rig name is the
/// first Model's Name (else `default_name`); the root is left for build_rig() to choose (rule R5).
/// Fails, naming the file, the item and the reason, on malformed XML, no parts, a nonfinite or
/// non-rotation CFrame, or a missing/unparsable required property.
Result<RigDesc> parse_rbxmx(std::string_view text, std::string_view file_label, std::string_view default_name = "");
Result<RigDesc> read_rbxmx_file(const std::filesystem::path& path);

/// Reads the Roblox JSON extraction format: {"parts": {NAME: {"size": [3], "CFrame": [12]
/// or "rest_position": [3]}}, "joints": [{"name", "Part0", "Part1", "C0": [12], "C1": [12]}]}.
/// Part ids are the names; CFrame / rest_position becomes the rest placement. Errors name the
/// file, the JSON path and the reason.
Result<RigDesc> parse_roblox_rig_json(std::string_view text, std::string_view file_label,
                                      std::string_view default_name = "");
Result<RigDesc> read_roblox_rig_json_file(const std::filesystem::path& path);

}  // namespace asterune::io
