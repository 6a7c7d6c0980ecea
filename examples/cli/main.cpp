// asterune-solve: the example command line of asterune-rig (docs/cli.md, formats.md).
//   asterune-solve                      built-in demo: builtin:r15 waving, reaching (IK) and
//                                       tracking a target (look-at); last frame as a table
//   asterune-solve SCENE.json [flags]   run an asterune.scene/1 file; flags override its values
// Exit status: 0 on success, 2 on bad arguments or a bad file (one line on stderr).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>

#include "asterune/io/pose_file.hpp"
#include "asterune/io/rig_loader.hpp"
#include "asterune/io/scene_file.hpp"
#include "animation_source.hpp"
#include "controls_step.hpp"
#include "export.hpp"
#include "run.hpp"

namespace {

using namespace asterune;
using cli::CliError;

struct Options {
  std::string scene;
  std::string rig;
  std::string pose;
  std::string clip;
  std::optional<int> frames;
  std::optional<float> dt;
  std::string format = "table";
  std::optional<int> frame;
  bool all_frames = false;
  std::string svg;
  std::optional<int> svg_every;
  bool svg_animate = false;
  std::string out;
  bool loop = false;
  std::string priority = "Action";
  bool bake = false;
};

// The built-in demo scene: R15 at its rest root placement, waving for one second, with the
// control stack of cli::demo_controls() (left arm reaching, head tracking a moving target).
constexpr int kDemoFrames = 60;
constexpr float kDemoDt = 1.0f / 60.0f;
constexpr int kMaxFrames = 100000;  // the --frames and scene "frames" limit

cli::Run make_run(const Options& opt) {
  io::SceneDesc scene;
  const bool demo = opt.scene.empty() && opt.rig.empty() && opt.pose.empty() && opt.clip.empty();
  if (!opt.scene.empty()) {
    Result<io::SceneDesc> s = io::read_scene_file(opt.scene);
    if (!s) throw CliError(s.message());
    scene = std::move(s.value());
  } else if (demo) {
    scene.frames = kDemoFrames;
    scene.dt = kDemoDt;
  }
  // Command-line overrides (paths on the command line are relative to the current folder).
  if (!opt.rig.empty()) scene.rig = opt.rig;
  if (!opt.pose.empty()) scene.pose = opt.pose;
  if (!opt.clip.empty()) {  // keeps the scene's loop/retarget settings, else the defaults
    if (!scene.animation) scene.animation = io::SceneAnimation{};
    scene.animation->clip = opt.clip;
  }
  if (opt.frames) scene.frames = *opt.frames;
  if (opt.dt) scene.dt = *opt.dt;

  Result<Rig> rig = io::load_rig(scene.rig);
  if (!rig) throw CliError(rig.message());
  cli::Run run;
  run.rig = std::move(rig.value());
  if (run.rig.joint_count() == 0) throw CliError(scene.rig + ": the rig has no usable joints");
  run.root = scene.root ? *scene.root : io::default_root_placement(run.rig);
  run.root_path = scene.root_path;
  run.frames = scene.frames;
  run.dt = scene.dt;

  // Pose source: an animation (over the pose file, if any), a pose file, the demo wave, or rest.
  if (scene.animation) {
    std::optional<Pose> base;
    if (scene.pose) {
      Result<Pose> pose = io::read_pose_file(*scene.pose, run.rig);
      if (!pose) throw CliError(pose.message());
      base = std::move(pose.value());
    }
    auto source = std::make_unique<cli::AnimationPoseSource>(*scene.animation, run.rig, std::move(base), opt.bake);
    run.notes.push_back("animation: " + scene.animation->clip.string() + ", " + source->description());
    // --clip without a scene or --frames plays the whole clip once. The count is checked in
    // double before it becomes an int: a huge duration or a tiny dt must not overflow.
    if (opt.scene.empty() && !opt.frames) {
      const double count = std::floor(static_cast<double>(source->duration()) / run.dt + 1e-3) + 1.0;
      if (!std::isfinite(count) || count > kMaxFrames)
        throw CliError(opt.clip + ": playing the whole clip (" + std::to_string(source->duration()) + " s at dt " +
                       std::to_string(run.dt) + ") takes more than " + std::to_string(kMaxFrames) +
                       " frames; pass --frames");
      run.frames = std::max(1, static_cast<int>(count));
    }
    run.source = std::move(source);
  } else if (scene.pose) {
    Result<Pose> pose = io::read_pose_file(*scene.pose, run.rig);
    if (!pose) throw CliError(pose.message());
    run.source = std::make_unique<cli::StaticPoseSource>(std::move(pose.value()));
  } else if (demo) {
    run.source = std::make_unique<cli::WaveDemoSource>(run.rig);
  } else {
    run.source = std::make_unique<cli::StaticPoseSource>(make_pose(run.rig));
  }
  // Frame steps: the control stack (scene controls; the demo's reach + head tracking).
  if (!scene.controls.empty()) {
    auto step = std::make_unique<cli::ControlStackStep>(run.rig, scene.controls, scene.file.string());
    if (scene.ground) step->set_ground(*scene.ground, scene.file.string());
    run.steps.push_back(std::move(step));
  }
  else if (demo)
    run.steps.push_back(std::make_unique<cli::ControlStackStep>(run.rig, cli::demo_controls(), "demo"));
  return run;
}

int run_main(const Options& opt) {
  cli::Run run = make_run(opt);
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
    o.loop = opt.loop;
    o.priority = io::parse_animation_priority(opt.priority).value_or(io::AnimationPriority::kAction);
    cli::write_out_file(opt.out, run, recorded, o);
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
  app.add_option("scene", opt.scene, "asterune.scene/1 file to run (rig, root, pose, animation, ground, controls, frames, dt)");
  app.add_option("--rig", opt.rig,
                 "rig to use instead of the scene's: builtin:r15, builtin:r6, a .rig.json, a Roblox .joints.json "
                 "or a Roblox .rbxmx model")
      ->type_name("RIG");
  app.add_option("--pose", opt.pose, "asterune.pose/1 file to use instead of the scene's pose")->type_name("FILE");
  app.add_option("--clip", opt.clip,
                 "animation clip (.bvh, .gltf, .glb, or a Roblox KeyframeSequence .rbxmx) to play instead of the "
                 "scene's: natively when its track names are the rig's, else retargeted with automatic humanoid "
                 "mapping (or the scene's retarget block; a KeyframeSequence plays natively only). "
                 "Without a scene or --frames, the whole clip is played once at --dt")
      ->type_name("FILE");
  app.add_option("--frames", opt.frames, "number of frames to run (default: the scene's, else 1; demo 60)")
      ->check(CLI::Range(1, kMaxFrames));
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
                             "bones, the root part, control targets and poles, a scale bar in studs. Draws the printed "
                             "frame; with --all-frames an onion skin of every Nth frame (--svg-every)")
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
                             "KeyframeSequence (Keyframes at the frame times, Pose CFrame = the joint's T, Weight 1, "
                             "linear easing) for Roblox Studio's Animation Editor")
                  ->type_name("FILE");
  app.add_flag("--loop", opt.loop, "with --out FILE.rbxmx: KeyframeSequence.Loop = true (default false)")->needs(out);
  app.add_option("--priority", opt.priority,
                 "with --out FILE.rbxmx: KeyframeSequence.Priority, one of Idle, Movement, Action, Action2, Action3, "
                 "Action4, Core")
      ->check(CLI::IsMember({"Idle", "Movement", "Action", "Action2", "Action3", "Action4", "Core"}))
      ->capture_default_str()
      ->needs(out);
  app.add_flag("--bake", opt.bake,
               "retargeted clips: bake the retarget once (cached per clip and binding) and play the baked clip "
               "natively; the table header says so");
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
