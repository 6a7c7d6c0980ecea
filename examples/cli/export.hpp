// asterune-solve: file outputs beside the printed frames. `--out FILE` is dispatched by the
// file's extension in write_out_file() (.rbxmx = Roblox KeyframeSequence, .glb / .gltf = glTF 2.0);
// `--svg FILE` draws the frames (svg_writer.hpp). Both take the solved frames of run_frames().
#pragma once

#include <span>
#include <string>
#include <vector>

#include "asterune/io/keyframe_sequence.hpp"
#include "asterune/io/svg_writer.hpp"
#include "run.hpp"

namespace asterune::cli {

/// Settings of the --out formats (each format uses the ones that apply to it).
struct OutOptions {
  bool loop = false;                                             // --loop (KeyframeSequence.Loop)
  io::AnimationPriority priority = io::AnimationPriority::kAction;  // --priority (KeyframeSequence)
};

/// The --out extensions write_out_file() knows, for messages and --help.
std::string out_formats();

/// Throws CliError unless write_out_file() knows `path`'s extension (checked before the run).
void check_out_path(const std::string& path);

/// Writes `frames` (every frame of the run, in order) to `path` in the format its extension
/// names (case-insensitive): .rbxmx = Roblox KeyframeSequence, .glb / .gltf = glTF 2.0
/// (io/gltf_writer.hpp). Throws CliError naming the file.
void write_out_file(const std::string& path, const Run& run, std::span<const io::FrameRecord> frames,
                    const OutOptions& options);

/// What --svg draws.
struct SvgRequest {
  std::string path;
  bool animate = false;  // --svg-animate
  int every = 0;         // --svg-every (0: the default, 10 for an onion skin, 1 for an animation)
  std::string title;
};

/// Picks the frames to draw from `frames` (all recorded frames, ascending): with `onion` or
/// request.animate every Nth frame and always the last; otherwise `frames` as given.
/// Each control's target and pole become labelled markers; scene_background() goes under them.
void write_svg_file(const SvgRequest& request, bool onion, const Run& run, std::span<const io::FrameRecord> frames);

/// Per-frame extra drawing primitives from a solved frame: control targets and poles.
/// (Add foot rays and hit points here when the feet control reports them.)
io::SvgPrimitives frame_primitives(const io::FrameRecord& frame);

/// Primitives drawn once under every frame (ground shapes go here once scenes have ground).
io::SvgPrimitives scene_background(const Run& run);

}  // namespace asterune::cli
