#include "export.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include <unistd.h>

#include "asterune/clip/compressed_clip.hpp"
#include "asterune/formats/compressed_clip_file.hpp"
#include "asterune/formats/curve_animation.hpp"
#include "asterune/formats/gltf_writer.hpp"
#include "asterune/formats/export_tracks.hpp"

namespace asterune::cli {
namespace {

std::string lower_extension(const std::string& path) {
  std::string e = std::filesystem::path(path).extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e;
}

// The run's markers as the frames recorded them, at frame (scene) times, so loops and scene
// tracks export where they played: every foot contact start is a Footstep marker, value Left or
// Right (rule RT17), and every KeyframeMarker or named Keyframe an animator track crossed
// (rule AN7) is written again.
std::vector<ClipMarker> frame_markers(std::span<const io::FrameRecord> frames) {
  std::vector<ClipMarker> out;
  const io::FrameRecord* previous = nullptr;
  for (const io::FrameRecord& rec : frames) {
    for (size_t i = 0; i < rec.contacts.size(); ++i) {
      const io::FootContactRecord& c = rec.contacts[i];
      const bool was = previous && i < previous->contacts.size() && previous->contacts[i].contact;
      if (!c.contact || was) continue;
      const std::string side = c.foot.rfind("Left", 0) == 0 ? "Left" : c.foot.rfind("Right", 0) == 0 ? "Right" : c.foot;
      out.push_back(ClipMarker{rec.time, "Footstep", side, ClipMarkerKind::kMarker});
    }
    for (const io::EventRecord& e : rec.events) {
      if (e.kind == "marker") out.push_back(ClipMarker{rec.time, e.name, e.value, ClipMarkerKind::kMarker});
      else if (e.kind == "keyframe") out.push_back(ClipMarker{rec.time, e.name, "", ClipMarkerKind::kKeyframe});
    }
    previous = &rec;
  }
  return out;
}

// The run's frames as a float clip on the run's rig: one key per frame for every joint some
// frame covers, times from the first frame; then compressed and written (rules P8, P9).
OutReport write_asclip(const std::string& path, const Run& run, std::span<const io::FrameRecord> frames,
                       const OutOptions& options) {
  Clip clip;
  clip.name = std::filesystem::path(path).stem().string();
  const float t0 = frames.empty() ? 0.0f : frames.front().time;
  clip.duration = frames.empty() ? 0.0f : frames.back().time - t0;
  for (int j = 0; j < run.rig.joint_count(); ++j) {
    const auto jj = static_cast<size_t>(j);
    if (std::none_of(frames.begin(), frames.end(), [&](const io::FrameRecord& r) { return r.coverage[jj] > 0.0f; })) continue;
    ClipTrack t;
    t.name = run.rig.lookup_name(j);
    for (const io::FrameRecord& r : frames) {
      t.rotation_times.push_back(r.time - t0);
      t.rotations.push_back(r.local[jj].rotation);
      t.translation_times.push_back(r.time - t0);
      t.translations.push_back(r.local[jj].position);
    }
    clip.tracks.push_back(std::move(t));
  }
  for (ClipMarker m : frame_markers(frames)) {
    m.time -= t0;
    clip.markers.push_back(std::move(m));
  }
  CompressionSettings settings;
  settings.tolerance = options.tolerance_given ? options.tolerance : OutOptions::kDefaultClipTolerance;
  CompressionReport cr;
  auto compressed = compress_clip(clip, run.rig, settings, &cr);
  if (!compressed) throw CliError(path + ": " + compressed.message());
  if (Status s = io::save_compressed_clip(path, compressed.value()); !s) throw CliError(s.message());
  const CompressedClip& c = compressed.value();
  OutReport report;
  report.max_error = cr.worst_error;
  char line[200];
  std::snprintf(line, sizeof line, "%zu bytes, %.1f:1 against raw floats, largest part error %.5f studs (tolerance %g)",
                c.byte_size(), static_cast<double>(c.raw_byte_size()) / static_cast<double>(c.byte_size()),
                static_cast<double>(cr.worst_error), static_cast<double>(settings.tolerance));
  report.summary = line;
  return report;
}

}  // namespace

std::string out_formats() {
  return ".rbxmx (Roblox KeyframeSequence, or CurveAnimation with --rbxmx-kind curves), .glb or .gltf (glTF 2.0), "
         ".asclip (compressed clip)";
}

void check_out_path(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".rbxmx" || ext == ".glb" || ext == ".gltf" || ext == ".asclip") return;
  throw CliError("--out " + path + ": unsupported format '" + ext + "' (expected " + out_formats() + ")");
}

OutReport write_out_file(const std::string& path, const Run& run, std::span<const io::FrameRecord> frames,
                         const OutOptions& options) {
  check_out_path(path);
  const std::string ext = lower_extension(path);
  if (ext == ".asclip") return write_asclip(path, run, frames, options);
  OutReport report;
  // Progress on stderr, only to a terminal and only once the export has taken ~2 s (rule F23).
  const auto start = std::chrono::steady_clock::now();
  const bool terminal = isatty(STDERR_FILENO) != 0;
  bool shown = false;
  auto progress = [&](size_t done, size_t total) {
    if (!terminal || std::chrono::steady_clock::now() - start < std::chrono::seconds(2)) return;
    std::fprintf(stderr, "\rasterune-solve: %s: reducing keys, joint %zu of %zu ", path.c_str(), done, total);
    std::fflush(stderr);
    shown = true;
  };
  auto reduce = [&](const KeyTracks& tracks, KeyCurve curve) -> KeyReduction {  // rule F7
    if (!(options.tolerance > 0.0f)) {  // every key kept
      report.keys_before = report.keys_after = tracks.track_count() * tracks.times.size();
      return {};
    }
    KeyReduction r = reduce_keys(tracks, options.tolerance, curve, progress);
    if (shown) std::fprintf(stderr, "\n");
    report = OutReport{r.keys_before, r.keys_after, r.max_error, {}};
    return r;
  };
  if (ext == ".rbxmx" && options.curves) {  // rule F8
    io::CurveAnimationOptions c;
    c.name = std::filesystem::path(path).stem().string();
    c.loop = options.loop;
    c.priority = options.priority;
    const KeyTracks tracks = io::curve_animation_tracks(run.rig, frames);
    const KeyReduction r = reduce(tracks, KeyCurve::kEulerCubic);
    const Status s = io::write_curve_animation_file(path, run.rig, tracks, r, c);
    if (!s) throw CliError(s.message());
  } else if (ext == ".rbxmx") {
    io::KeyframeSequenceOptions k;
    k.name = std::filesystem::path(path).stem().string();
    k.loop = options.loop;
    k.priority = options.priority;
    KeyReduction r = reduce(io::keyframe_sequence_tracks(run.rig, frames), KeyCurve::kEased);
    k.joint_keys = std::move(r.keys);
    k.joint_key_values = std::move(r.values);
    k.joint_key_easing = std::move(r.easing);
    k.markers = frame_markers(frames);
    const Status s = io::write_keyframe_sequence_file(path, run.rig, frames, k);
    if (!s) throw CliError(s.message());
  } else {
    io::GltfWriteOptions g;
    // Rule F22: LINEAR for players that drop CUBICSPLINE tangents (Blender), else cubic keys.
    KeyReduction r = reduce(io::gltf_node_tracks(run.rig, frames), options.gltf_linear ? KeyCurve::kLinear : KeyCurve::kCubicSpline);
    g.node_keys = std::move(r.keys);
    g.node_key_values = std::move(r.values);
    g.node_key_tangents = std::move(r.tangents);
    if (Status s = io::write_gltf_file(path, run.rig, frames, std::move(g)); !s) throw CliError(s.message());
  }
  return report;
}

io::SvgPrimitives frame_primitives(const io::FrameRecord& frame) {
  io::SvgPrimitives p;
  for (const io::ControlRecord& c : frame.controls) {
    if (c.feet) {  // a feet control has no target: its rays, hits and ground normals instead
      for (int i = 0; i < c.feet->foot_count && i < kMaxFeet; ++i) {
        const FootReport& foot = c.feet->feet[static_cast<size_t>(i)];
        const std::string id = c.name + " foot " + std::to_string(i);
        p.lines.push_back(io::SvgLine{foot.ray_origin, foot.ray_end, foot.hit ? "" : c.name + " miss",
                                      io::svg_style::kRay, id + " ray"});
        if (!foot.hit) continue;
        p.points.push_back(io::SvgPoint{foot.ray_end, "", io::svg_style::kHit, id + " hit"});
        p.lines.push_back(io::SvgLine{foot.ray_end, foot.ray_end + kSvgNormalLength * foot.hit_normal, "",
                                      io::svg_style::kNormal, id + " normal"});
      }
      continue;
    }
    p.points.push_back(io::SvgPoint{c.target, c.name + " target", io::svg_style::kTarget, ""});
    if (c.pole) p.points.push_back(io::SvgPoint{*c.pole, c.name + " pole", io::svg_style::kPole, ""});
  }
  return p;
}

io::SvgPrimitives scene_background(const Run& run) {
  io::SvgPrimitives p;
  if (!run.ground) return p;
  const GroundDesc& g = *run.ground;
  auto style = [](bool collide) { return collide ? io::svg_style::kGround : io::svg_style::kGroundOff; };
  for (size_t i = 0; i < g.planes.size(); ++i)
    p.planes.push_back(io::SvgPlane{g.planes[i].point, g.planes[i].normal, "", style(g.planes[i].collide),
                                    "ground plane " + std::to_string(i)});
  for (size_t i = 0; i < g.boxes.size(); ++i) {
    const GroundBox& b = g.boxes[i];
    p.boxes.push_back(io::SvgBox{Transform{glm::normalize(b.rotation), b.center}, b.size, "", style(b.collide),
                                 "ground box " + std::to_string(i)});
  }
  for (size_t i = 0; i < g.heightfields.size(); ++i) {
    const GroundHeightField& f = g.heightfields[i];
    if (f.rows < 2 || f.columns < 2 || f.heights.size() != static_cast<size_t>(f.rows) * static_cast<size_t>(f.columns))
      continue;
    const std::string id = "ground heightfield " + std::to_string(i);
    auto sample = [&](int r, int c) {
      return f.origin + glm::vec3(static_cast<float>(c) * f.cell_size,
                                  f.heights[static_cast<size_t>(r) * static_cast<size_t>(f.columns) + static_cast<size_t>(c)],
                                  static_cast<float>(r) * f.cell_size);
    };
    // The grid lines (profiles) along both axes: every row and every column, or every k-th of
    // a large field, always with the first and the last, which outline it.
    auto picked = [](int count) {
      std::vector<int> out;
      const int step = std::max(1, (count - 1 + kSvgMaxProfiles - 1) / kSvgMaxProfiles);
      for (int k = 0; k < count - 1; k += step) out.push_back(k);
      out.push_back(count - 1);
      return out;
    };
    for (int r : picked(f.rows)) {
      io::SvgPolyline line{{}, "", style(f.collide), id + " row " + std::to_string(r)};
      for (int c = 0; c < f.columns; ++c) line.points.push_back(sample(r, c));
      p.polylines.push_back(std::move(line));
    }
    for (int c : picked(f.columns)) {
      io::SvgPolyline line{{}, "", style(f.collide), id + " column " + std::to_string(c)};
      for (int r = 0; r < f.rows; ++r) line.points.push_back(sample(r, c));
      p.polylines.push_back(std::move(line));
    }
  }
  return p;
}

void write_svg_file(const SvgRequest& request, bool onion, const Run& run, std::span<const io::FrameRecord> frames) {
  const bool many = onion || request.animate;
  const int every = request.every > 0 ? request.every : (request.animate ? 1 : 10);
  std::vector<io::SvgFrame> drawn;
  for (size_t i = 0; i < frames.size(); ++i) {
    const bool last = i + 1 == frames.size();
    if (many && !last && (frames[i].frame - frames.front().frame) % every != 0) continue;
    const io::FrameRecord& rec = frames[i];
    drawn.push_back(io::SvgFrame{rec.frame, rec.time, rec.root, rec.world, frame_primitives(rec)});
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
