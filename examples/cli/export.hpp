// asterune-solve --out: writes the solved frames to a file whose format follows its extension.
#pragma once

#include <span>
#include <string>

#include "asterune/io/frames_file.hpp"
#include "run.hpp"

namespace asterune::cli {

/// Writes `frames` (every frame of the run, in order) to `path`: .glb / .gltf -> glTF 2.0
/// (io/gltf_writer.hpp). Throws CliError naming the file on an unknown extension or a failed write.
void write_out_file(const std::string& path, const Run& run, std::span<const io::FrameRecord> frames);

}  // namespace asterune::cli
