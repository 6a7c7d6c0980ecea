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
};

// The built-in demo scene: R15 at its rest root placement, waving for one second, with the
// control stack of cli::demo_controls() (left arm reaching, head tracking a moving target).
constexpr int kDemoFrames = 60;
constexpr float kDemoDt = 1.0f / 60.0f;

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
    auto source = std::make_unique<cli::AnimationPoseSource>(*scene.animation, run.rig, std::move(base));
    // --clip without a scene or --frames plays the whole clip once.
    if (opt.scene.empty() && !opt.frames)
      run.frames = std::max(1, static_cast<int>(std::floor(source->duration() / run.dt + 1e-3f)) + 1);
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
  const std::vector<io::FrameRecord> frames = cli::run_frames(run, first, last);
  std::string out;
  if (opt.format == "json") out = io::write_frames_json(run.rig, frames);
  else if (opt.format == "csv") out = cli::format_csv(run, frames);
  else out = cli::format_table(run, frames);
  std::fwrite(out.data(), 1, out.size(), stdout);
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
                 "animation clip (.bvh, .gltf, .glb) to play instead of the scene's: natively when its track names "
                 "are the rig's, else retargeted with automatic humanoid mapping (or the scene's retarget block). "
                 "Without a scene or --frames, the whole clip is played once at --dt")
      ->type_name("FILE");
  app.add_option("--frames", opt.frames, "number of frames to run (default: the scene's, else 1; demo 60)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--dt", opt.dt, "seconds per frame (default: the scene's, else 1/60)")
      ->check(CLI::Range(1e-6f, 1.0f));
  app.add_option("--format", opt.format, "output: table (for people), json (asterune.frames/1) or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  auto* frame = app.add_option("--frame", opt.frame, "print only frame N (0-based; default: the last frame)");
  auto* all = app.add_flag("--all-frames", opt.all_frames, "print every frame");
  frame->excludes(all);
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
