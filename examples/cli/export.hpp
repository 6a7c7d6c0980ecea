// asterune-solve: file outputs beside the printed frames. `--out FILE` is dispatched by the
// file's extension in write_out_file() (.rbxmx = Roblox KeyframeSequence, .glb / .gltf = glTF 2.0);
// `--svg FILE` draws the frames (svg_writer.hpp). Both take the solved frames of run_frames().
#pragma once

#include <span>
#include <string>
#include <vector>

#include "asterune/formats/keyframe_sequence.hpp"
#include "asterune/drawing/svg_writer.hpp"
#include "run.hpp"

namespace asterune::cli {

/// The Loop an exported .rbxmx carries (rule AN11): the run's playback looping (its animation,
/// after the scene, --loop / --no-loop and the file's own Loop), else `loop_flag` (--loop on a
/// run without an animation).
inline bool export_loop(const Run& run, bool loop_flag) { return run.loop.value_or(loop_flag); }

/// Settings of the --out formats (each format uses the ones that apply to it).
struct OutOptions {
  bool loop = false;                                             // the Loop of a KeyframeSequence / CurveAnimation: the run's playback (rule AN11)
  bool curves = false;  // --rbxmx-kind curves: .rbxmx as a CurveAnimation (rule F8) instead of a KeyframeSequence
  io::AnimationPriority priority = io::AnimationPriority::kAction;  // --priority (KeyframeSequence)
  bool gltf_linear = false;  // --gltf-interpolation linear: glTF LINEAR keys (rule F22) instead of CUBICSPLINE
  float tolerance = kDefaultTolerance;  // --tolerance (studs, rule F7); 0 keeps every key (not from the command line)
  static constexpr float kDefaultTolerance = 0.005f;
  bool tolerance_given = false;  // --tolerance was given (.asclip: else kDefaultClipTolerance)
  static constexpr float kDefaultClipTolerance = 0.0018f;  // .asclip: CompressionSettings' default
};

/// What the key reduction of write_out_file() did, for the one line on stderr.
struct OutReport {
  size_t keys_before = 0, keys_after = 0;
  float max_error = 0.0f;  // studs
  std::string summary;     // .asclip: the line to print instead of the key counts
};

/// The --out extensions write_out_file() knows, for messages and --help.
std::string out_formats();

/// Throws CliError unless write_out_file() knows `path`'s extension (checked before the run).
void check_out_path(const std::string& path);

/// Writes `frames` (every frame of the run, in order) to `path` in the format its extension
/// names (case-insensitive): .rbxmx = Roblox KeyframeSequence, .glb / .gltf = glTF 2.0
/// (io/gltf_writer.hpp). Keys are first reduced per joint (node for glTF) within
/// options.tolerance of every part's unreduced world position (rule F7, io/key_reduction.hpp).
/// .asclip: the frames' joint transforms as a compressed clip (rule P8) within the tolerance
/// (default kDefaultClipTolerance) of every virtual vertex, read back by --clip.
/// Throws CliError naming the file.
OutReport write_out_file(const std::string& path, const Run& run, std::span<const io::FrameRecord> frames,
                         const OutOptions& options);

/// What --svg draws.
struct SvgRequest {
  std::string path;
  bool animate = false;  // --svg-animate
  int every = 0;         // --svg-every (0: the default, 10 for an onion skin, 1 for an animation)
  std::string title;
};

/// Picks the frames to draw from `frames` (all recorded frames, ascending): with `onion` or
/// request.animate every Nth frame and always the last; otherwise `frames` as given. Each
/// frame's root part is drawn at its FrameRecord::root; frame_primitives() adds its markers
/// and scene_background() goes under them.
void write_svg_file(const SvgRequest& request, bool onion, const Run& run, std::span<const io::FrameRecord> frames);

/// Studs of the ground normal drawn at a foot's hit point.
inline constexpr float kSvgNormalLength = 0.5f;
/// Most grid lines drawn per axis of a height field (larger fields: every k-th, plus the last).
inline constexpr int kSvgMaxProfiles = 64;

/// Per-frame extra drawing primitives from a solved frame (each frame's root part comes from
/// FrameRecord::root): control targets (kTarget) and poles (kPole), labelled by the control;
/// for a feet control, per foot its ray (kRay, from the ray origin to the hit point, or to the
/// ray's full length when it missed, then labelled "<control> miss"), its hit point (kHit) and
/// the ground normal there (kNormal, kSvgNormalLength studs). Ids: "<control> foot <i> ray",
/// "... hit", "... normal".
io::SvgPrimitives frame_primitives(const io::FrameRecord& frame);

/// Primitives drawn once under every frame: the run's ground shapes (kGround, or kGroundOff for
/// shapes that do not collide), ids "ground plane <i>", "ground box <i>" and "ground heightfield
/// <i> row <r>" / "... column <c>" (i counts per shape type in file order): planes as their
/// section line, boxes as their outline, height fields as their grid lines (the profiles along
/// X and along Z, the first and last of each outlining the field).
io::SvgPrimitives scene_background(const Run& run);

}  // namespace asterune::cli
