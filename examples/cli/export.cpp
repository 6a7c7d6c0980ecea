#include "export.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "asterune/io/gltf_writer.hpp"

namespace asterune::cli {
namespace {

std::string lower_extension(const std::string& path) {
  std::string e = std::filesystem::path(path).extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e;
}

}  // namespace

std::string out_formats() { return ".rbxmx (Roblox KeyframeSequence), .glb or .gltf (glTF 2.0)"; }

void check_out_path(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".rbxmx" || ext == ".glb" || ext == ".gltf") return;
  throw CliError("--out " + path + ": unsupported format '" + ext + "' (expected " + out_formats() + ")");
}

void write_out_file(const std::string& path, const Run& run, std::span<const io::FrameRecord> frames,
                    const OutOptions& options) {
  check_out_path(path);
  const std::string ext = lower_extension(path);
  if (ext == ".rbxmx") {
    io::KeyframeSequenceOptions k;
    k.name = std::filesystem::path(path).stem().string();
    k.loop = options.loop;
    k.priority = options.priority;
    const Status s = io::write_keyframe_sequence_file(path, run.rig, frames, k);
    if (!s) throw CliError(s.message());
  } else {
    if (Status s = io::write_gltf_file(path, run.rig, run.root, frames); !s) throw CliError(s.message());
  }
}

io::SvgPrimitives frame_primitives(const io::FrameRecord& frame) {
  io::SvgPrimitives p;
  for (const io::ControlRecord& c : frame.controls) {
    p.points.push_back(io::SvgPoint{c.target, c.name + " target", io::svg_style::kTarget});
    if (c.pole) p.points.push_back(io::SvgPoint{*c.pole, c.name + " pole", io::svg_style::kPole});
  }
  return p;
}

io::SvgPrimitives scene_background(const Run&) { return {}; }

void write_svg_file(const SvgRequest& request, bool onion, const Run& run, std::span<const io::FrameRecord> frames) {
  const bool many = onion || request.animate;
  const int every = request.every > 0 ? request.every : (request.animate ? 1 : 10);
  std::vector<io::SvgFrame> drawn;
  for (size_t i = 0; i < frames.size(); ++i) {
    const bool last = i + 1 == frames.size();
    if (many && !last && (frames[i].frame - frames.front().frame) % every != 0) continue;
    const io::FrameRecord& rec = frames[i];
    drawn.push_back(io::SvgFrame{rec.frame, rec.time, run.root, rec.world, frame_primitives(rec)});
  }
  io::SvgOptions options;
  options.mode = request.animate ? io::SvgMode::kAnimate : io::SvgMode::kStill;
  options.frame_seconds = run.dt * static_cast<float>(many ? every : 1);
  options.title = request.title;
  options.background = scene_background(run);
  const Status s = io::write_svg_file(request.path, run.rig, drawn, options);
  if (!s) throw CliError(s.message());
}

}  // namespace asterune::cli
