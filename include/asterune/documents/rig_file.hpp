// Rig files: the `asterune.rig/1` JSON format of docs/formats.md (reader and writer).
// Readers return a plain RigDesc (build it with asterune::build_rig, or use io::load_rig).
// Every failure names the file, the JSON path and the reason, e.g.
//   "hero.rig.json: /joints/3/c0/cframe: not a valid CFrame: ..."
// and nothing is returned on failure (a load fails whole).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "asterune/core/result.hpp"
#include "asterune/rig/rig_desc.hpp"

namespace asterune::io {

/// The format tag of rig files.
inline constexpr std::string_view kRigFormat = "asterune.rig/1";

/// Parses `asterune.rig/1` text. `file_label` is used in messages (usually the path).
/// Checks: the format tag; at least one part; every part has a non-empty name; ids (default:
/// the name) are unique; joints name existing part ids in part0/part1; placements are valid
/// (unit quaternion after normalization, or a rotation CFrame within 1e-3, all finite);
/// `root` names a part; no unknown keys (keys starting with '_' are comments). A missing
/// `name` defaults to `default_name`.
Result<RigDesc> parse_rig_json(std::string_view text, std::string_view file_label,
                               std::string_view default_name = "");

/// Reads a rig file (see parse_rig_json); the rig name defaults to the file name without
/// ".rig.json" / ".json".
Result<RigDesc> read_rig_file(const std::filesystem::path& path);

/// Serializes a description as `asterune.rig/1` (placements in the position/rotation form,
/// floats with the shortest text that reads back to the same value, so
/// parse_rig_json(write_rig_json(d)) == d for every valid d).
std::string write_rig_json(const RigDesc& desc);

/// Writes write_rig_json(desc) to `path`; fails with the path and reason if it cannot.
Status write_rig_file(const RigDesc& desc, const std::filesystem::path& path);

}  // namespace asterune::io
