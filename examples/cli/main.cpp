// asterune-solve: the example command line of asterune-rig (docs/cli.md, formats.md).
//   asterune-solve                      built-in demo: builtin:r15 waving, reaching (IK) and
//                                       tracking a target (look-at); last frame as a table
//   asterune-solve SCENE.json [flags]   run an asterune.scene/1 file; flags override its values
// Exit status: 0 on success, 2 on bad arguments or a bad file (one line on stderr).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>

#include "export.hpp"
#include "run.hpp"
#include "scene_run.hpp"

namespace {

using namespace asterune;
using cli::CliError;

struct Options {
  std::string scene;
  std::string rig;
  std::string pose;
  std::string clip;
  std::string animation;  // --animation NAME: which animation of a glTF --clip (rule F20)
  std::string gltf_interpolation = "cubic";  // --gltf-interpolation (rule F22)
  std::optional<int> frames;
  std::optional<float> dt;
  std::string format = "table";
  std::optional<int> frame;
  bool all_frames = false;
  std::string svg;
  std::optional<int> svg_every;
  bool svg_animate = false;
  std::string out;
  bool loop = false;     // --loop
  bool no_loop = false;  // --no-loop
  std::string priority = "Action";
  std::string rbxmx_kind = "keyframes";  // --rbxmx-kind: keyframes (KeyframeSequence) or curves (CurveAnimation)
  bool bake = false;
  bool keep_first_frame = false;  // --keep-first-frame (rule RT23)
  std::string cycle;              // --cycle auto|none (rule LO5); empty: the scene's
  std::optional<std::string> tolerance;  // --tolerance STUDS (checked in run_main: one line, exit 2)
  std::vector<std::string> set;          // --set NAME=VALUE (rule F10; checked by make_run)
  std::optional<std::string> rest, origin, floor;  // the animation's retarget settings (scene_run.hpp)
  bool plant_feet = false;
};

cli::RunRequest run_request(const Options& opt) {
  cli::RunRequest r;
  r.scene = opt.scene;
  r.rig = opt.rig;
  r.pose = opt.pose;
  // --animation is the '#' selector of the clip path (load_source_clip), so scenes can name one too.
  r.clip = opt.animation.empty() ? opt.clip : opt.clip + "#" + opt.animation;
  r.frames = opt.frames;
  r.dt = opt.dt;
  r.bake = opt.bake;
  r.keep_first_frame = opt.keep_first_frame;
  r.set = opt.set;
  if (opt.loop || opt.no_loop) r.loop = opt.loop;
  r.rest = opt.rest;
  r.origin = opt.origin;
  r.floor = opt.floor;
  r.plant_feet = opt.plant_feet;
  if (!opt.cycle.empty()) r.cycle = opt.cycle == "auto" ? io::ClipCycle::kAuto : io::ClipCycle::kNone;
  return r;
}

// --tolerance: a finite number of studs > 0 (rule F7).
float parse_tolerance(const std::string& text) {
  char* end = nullptr;
  const float v = std::strtof(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || !(v > 0.0f))
    throw CliError("--tolerance " + text + ": must be a finite number of studs greater than 0");
  return v;
}

int run_main(const Options& opt) {
  if (opt.tolerance) parse_tolerance(*opt.tolerance);  // a bad value fails before the run
  if (opt.rbxmx_kind != "keyframes") {
    std::string ext = std::filesystem::path(opt.out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext != ".rbxmx") throw CliError("--rbxmx-kind " + opt.rbxmx_kind + ": needs --out FILE.rbxmx (got " + opt.out + ")");
  }
  cli::Run run = cli::make_run(run_request(opt));
  for (const std::string& w : run.warnings) std::cerr << "asterune-solve: note: " << w << "\n";
  int first = run.frames - 1, last = run.frames - 1;
  if (opt.all_frames) first = 0;
  if (opt.frame) {
    if (*opt.frame < 0 || *opt.frame >= run.frames)
      throw CliError("--frame " + std::to_string(*opt.frame) + " is out of range: the run has " +
                     std::to_string(run.frames) + " frame(s), numbered 0.." + std::to_string(run.frames - 1));
    first = last = *opt.frame;
  }
  if (opt.bake && run.notes.empty()) throw CliError("--bake needs a clip to bake (--clip or the scene's animation)");
  if (!opt.out.empty()) cli::check_out_path(opt.out);
  auto write = [](const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); };
  size_t printed = 0;
  auto print_frame = [&](const io::FrameRecord& rec) {
    if (opt.format == "json") write(io::frames_json_frame(run.rig, rec, printed));
    else if (opt.format == "csv") write(cli::format_csv_frame(run, rec));
    else write(cli::format_table_frame(run, rec));
    ++printed;
  };
  auto print_head = [&] {
    if (opt.format == "json") write(io::frames_json_head(run.rig));
    else if (opt.format == "csv") write(cli::format_csv_header());
    else write(cli::format_table_header(run));
  };
  auto print_tail = [&] {
    if (opt.format == "json") write(io::frames_json_tail(printed));
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) throw CliError("cannot write the output");
  };
  if (opt.out.empty() && opt.svg.empty()) {
    // Printed frames stream as soon as they are solved, so a long --all-frames run holds one frame.
    print_head();
    cli::run_frames(run, first, last, print_frame);
    print_tail();
    return 0;
  }
  // --out writes every frame of the run; --svg with --all-frames or --svg-animate draws them.
  const bool svg_many = !opt.svg.empty() && (opt.all_frames || opt.svg_animate);
  const bool record_all = !opt.out.empty() || svg_many;
  std::vector<io::FrameRecord> recorded;
  cli::run_frames(run, record_all ? 0 : first, record_all ? run.frames - 1 : last,
                  [&](const io::FrameRecord& rec) { recorded.push_back(rec); });
  std::vector<io::FrameRecord> frames;
  for (const io::FrameRecord& rec : recorded)
    if (rec.frame >= first && rec.frame <= last) frames.push_back(rec);
  // Files first: a failure then exits 2 with nothing printed.
  if (!opt.out.empty()) {
    cli::OutOptions o;
    o.loop = cli::export_loop(run, opt.loop);
    o.priority = io::parse_animation_priority(opt.priority).value_or(io::AnimationPriority::kAction);
    o.curves = opt.rbxmx_kind == "curves";
    if (opt.tolerance) o.tolerance = parse_tolerance(*opt.tolerance), o.tolerance_given = true;
    o.gltf_linear = opt.gltf_interpolation == "linear";
    const cli::OutReport r = cli::write_out_file(opt.out, run, recorded, o);
    if (!r.summary.empty()) std::cerr << "asterune-solve: " << opt.out << ": " << r.summary << "\n";
    else std::cerr << "asterune-solve: " << opt.out << ": " << r.keys_before << " keys reduced to " << r.keys_after << " ("
              << (r.keys_before > 0 ? 100.0 * static_cast<double>(r.keys_after) / static_cast<double>(r.keys_before) : 0.0)
              << "%), largest virtual-vertex error " << r.max_error << " studs (tolerance " << o.tolerance << ")\n";
  }
  if (!opt.svg.empty()) {
    cli::SvgRequest r;
    r.path = opt.svg;
    r.animate = opt.svg_animate;
    r.every = opt.svg_every.value_or(0);
    r.title = "asterune-solve " + (opt.scene.empty() ? std::string(opt.clip.empty() ? "demo" : opt.clip) : opt.scene) +
              ": rig " + run.rig.name();
    cli::write_svg_file(r, opt.all_frames, run, svg_many ? std::span<const io::FrameRecord>(recorded) : frames);
  }
  print_head();
  for (const io::FrameRecord& rec : frames) print_frame(rec);
  print_tail();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  CLI::App app{
      "asterune-solve: runs an asterune scene and prints the solved joint transforms.\n"
      "With no argument it runs the built-in demo (builtin:r15 waving its right arm, the left arm reaching\n"
      "forward by IK and the head tracking a moving target; 60 frames at 60 Hz)\n"
      "and prints the last frame as a table. Exit status: 0 ok, 2 bad arguments or bad file.",
      "asterune-solve"};
  app.add_option("scene", opt.scene, "asterune.scene/1 file to run (rig, root, pose, animation, tracks, commands, ground, controls, frames, dt)");
  app.add_option("--rig", opt.rig,
                 "rig to use instead of the scene's: builtin:r15, builtin:r6, a .rig.json, a Roblox .joints.json "
                 "or a Roblox .rbxmx model")
      ->type_name("RIG");
  app.add_option("--pose", opt.pose, "asterune.pose/1 file to use instead of the scene's pose")->type_name("FILE");
  app.add_option("--clip", opt.clip,
                 "animation clip (.bvh, .gltf, .glb, .vrm, .vrma, FILE.glb#NAME for one animation by name or index, a Roblox "
                 "KeyframeSequence or CurveAnimation .rbxmx, or an .asclip compressed clip made for the same rig by --out) to play instead of the "
                 "scene's: natively when its track names are the rig's, else retargeted with automatic humanoid "
                 "mapping (or the scene's retarget block; a Roblox .rbxmx made on another built-in rig retargets from it). "
                 "Without a scene or --frames, the whole clip is played once at --dt")
      ->type_name("FILE");
  app.add_option("--animation", opt.animation,
                 "with a glTF --clip: the animation to play, by name or index (default: the first)")
      ->type_name("NAME")
      ->needs("--clip");
  app.add_option("--frames", opt.frames, "number of frames to run (default: the scene's, else 1; demo 60)")
      ->check(CLI::Range(1, cli::kMaxFrames));
  app.add_option("--dt", opt.dt, "seconds per frame (default: the scene's, else 1/60)")
      ->check(CLI::Range(1e-6f, 1.0f));
  app.add_option("--format", opt.format, "output: table (for people), json (asterune.frames/1) or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  auto* frame = app.add_option("--frame", opt.frame, "print only frame N (0-based; default: the last frame)");
  auto* all = app.add_flag("--all-frames", opt.all_frames, "print every frame");
  frame->excludes(all);
  auto* svg = app.add_option("--svg", opt.svg,
                             "also draw the solved skeleton to an SVG file: front and side views, part boxes, pivots, "
                             "bones, the root part, control targets and poles, the scene's ground with the feet "
                             "control's rays and hit points, a scale bar in studs. Draws the printed frame; with "
                             "--all-frames an onion skin of every Nth frame (--svg-every)")
                  ->type_name("FILE");
  app.add_option("--svg-every", opt.svg_every,
                 "with --svg: draw every Nth frame (default 10 for --all-frames, 1 for --svg-animate; the last "
                 "frame is always drawn)")
      ->check(CLI::Range(1, 100000))
      ->needs(svg);
  app.add_flag("--svg-animate", opt.svg_animate,
               "with --svg: write an animated SVG that plays every frame of the run (or every Nth) in a browser, "
               "looping, without script")
      ->needs(svg)
      ->excludes(frame);
  auto* out = app.add_option("--out", opt.out,
                             "also write every solved frame of the run to FILE, format by extension: .rbxmx = Roblox "
                             "KeyframeSequence (Keyframes at the frame times that key a joint after the --tolerance key "
                             "reduction, Pose CFrame = the joint's T as the reduction fits it, Weight 1, easing Linear or "
                             "CubicV2 per segment as the reduction picks it) for Roblox Studio's Animation Editor, or "
                             "with --rbxmx-kind curves a Roblox CurveAnimation (per joint Position and XYZ Euler "
                             "Rotation FloatCurves of cubic keys); .glb / .gltf = glTF 2.0 (CUBICSPLINE keys, or LINEAR with "
                             "--gltf-interpolation linear); .asclip = a compressed clip of the run's joint transforms on its rig, "
                             "every part within --tolerance (default 0.0018 studs), that --clip plays back")
                  ->type_name("FILE");
  app.add_option("--tolerance", opt.tolerance,
                 "with --out: keys are removed per joint while every corner of every part's box (rule P7's "
                 "virtual vertices), at every frame and every quarter frame between, stays within STUDS of the "
                 "unreduced export (default 0.005); stderr reports the keys before and after")
      ->type_name("STUDS")
      ->needs(out);
  app.add_option("--rbxmx-kind", opt.rbxmx_kind,
                 "with --out FILE.rbxmx: keyframes = a KeyframeSequence (eased slerp between Poses), curves = a "
                 "CurveAnimation (cubic Hermite keys per channel: fewer keys for the same --tolerance)")
      ->type_name("KIND")
      ->check(CLI::IsMember({"keyframes", "curves"}))
      ->capture_default_str()
      ->needs(out);
  app.add_option("--gltf-interpolation", opt.gltf_interpolation,
                 "with --out FILE.glb/.gltf: cubic = CUBICSPLINE keys (fewest keys; three.js, Babylon, Godot), "
                 "linear = LINEAR keys (Blender, whose importer drops CUBICSPLINE tangents)")
      ->check(CLI::IsMember({"linear", "cubic"}))
      ->capture_default_str()
      ->needs(out);
  auto* loop = app.add_flag("--loop", opt.loop,
                            "the animation (--clip or the scene's) loops, whatever its file or the scene says; "
                            "default: the scene's \"loop\", else the file's Loop (.rbxmx), else looped in a scene and "
                            "once for --clip alone. An --out .rbxmx's Loop is the playback's (without an animation: "
                            "--loop, else false)");
  app.add_flag("--no-loop", opt.no_loop, "the animation plays once and holds its last pose (see --loop)")->excludes(loop);
  app.add_option("--priority", opt.priority,
                 "with --out FILE.rbxmx: the animation's Priority, one of Idle, Movement, Action, Action2, Action3, "
                 "Action4, Core")
      ->check(CLI::IsMember({"Idle", "Movement", "Action", "Action2", "Action3", "Action4", "Core"}))
      ->capture_default_str()
      ->needs(out);
  app.add_flag("--bake", opt.bake,
               "retargeted clips: bake the retarget once (cached per clip and binding) and play the baked clip "
               "natively; the table header says so");
  app.add_flag("--keep-first-frame", opt.keep_first_frame,
               "skeleton clips (.bvh, .gltf): keep a synthetic first frame (a converter's rest-like T-pose followed by a "
               "jump), which is otherwise left out with a note");
  app.add_option("--set", opt.set,
                 "set a graph parameter of the scene's graph tracks for the run (repeatable): its start value "
                 "instead of the graph's default; the scene's set_parameter commands still run. A number, true/false "
                 "or text, as the parameter's type")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  app.add_option("--rest", opt.rest,
                 "retargeted clips (the animation's, every clip track's and every graph Clip node's; so are "
                 "--origin, --floor and --plant-feet): the source's reference pose, as the scene's retarget \"rest\": "
                 "auto (the rest, or frame 0 when the rest is not a standing body or its roles fail), rest, or a "
                 "frame number N")
      ->type_name("auto|rest|N");
  app.add_option("--origin", opt.origin,
                 "retargeted clips: where the travel starts, as retarget \"origin\": clip (the clip's positions) or "
                 "first_frame (frame 0's hips on the rig's root part)")
      ->type_name("clip|first_frame");
  app.add_option("--floor", opt.floor,
                 "retargeted clips: the floor, as retarget \"floor\": auto (under the clip's foot contacts), rest "
                 "(the rest pose stands on it) or a height in source units")
      ->type_name("auto|rest|HEIGHT");
  app.add_flag("--plant-feet", opt.plant_feet,
               "retargeted clips: hold each contacting foot where its contact began, as retarget \"plant_feet\": true");
  app.add_option("--cycle", opt.cycle,
                 "the animation's clip (--clip or the scene's): auto = cut the best seamless loop of whole strides "
                 "from a raw walk or run (same foot's contact start at both ends, seam blended, root motion "
                 "continuing each loop; the span is reported on stderr), none = as captured (default: the scene's "
                 "\"cycle\", else none); also what --out writes")
      ->type_name("MODE")
      ->check(CLI::IsMember({"auto", "none"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "asterune-solve: " << e.what() << " (see --help)\n";
    return 2;
  }
  try {
    return run_main(opt);
  } catch (const CliError& e) {
    std::cerr << "asterune-solve: " << e.what() << "\n";
    return 2;
  }
}
