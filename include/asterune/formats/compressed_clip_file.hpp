// The .asclip file: a compressed clip (clip/compressed_clip.hpp, rule P8) as it is in memory,
// little-endian, versioned and checked on read (rule P9). docs/compression.md gives the layout:
// magic "ASCLIP\r\n", version, the clip's tables, its segment bytes, its markers, and an FNV-1a
// 64-bit checksum of everything before it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "asterune/clip/compressed_clip.hpp"
#include "asterune/core/result.hpp"

namespace asterune::io {

/// The version this build writes and the only one it reads.
inline constexpr std::uint32_t kCompressedClipFileVersion = 1;

/// The file's bytes for `clip`.
std::vector<std::uint8_t> write_compressed_clip_bytes(const CompressedClip& clip);

/// Reads a .asclip image. `label` names it in errors. Fails, with "<label>: <item>: <reason>" on
/// one line, on a wrong magic or version, a truncated or oversized table (every count is checked
/// against the bytes left before anything is allocated, so memory stays within a small multiple
/// of the input), a checksum mismatch, or data make_compressed_clip refuses.
Result<CompressedClip> parse_compressed_clip(std::span<const std::uint8_t> bytes, const std::string& label);

/// Reads the file at `path` (a regular file of at most 256 MiB) with parse_compressed_clip.
Result<CompressedClip> load_compressed_clip(const std::filesystem::path& path);

/// Writes write_compressed_clip_bytes(clip) to `path`. Fails naming the path.
Status save_compressed_clip(const std::filesystem::path& path, const CompressedClip& clip);

}  // namespace asterune::io
