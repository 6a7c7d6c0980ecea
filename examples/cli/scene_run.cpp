#include "scene_run.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "asterune/documents/pose_file.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/documents/scene_file.hpp"
#include "animation_source.hpp"
#include "animator_source.hpp"
#include "controls_step.hpp"

namespace asterune::cli {

// Without a scene or any of --rig/--pose/--clip: the built-in demo, R15 at its rest root
// placement waving for kDemoFrames frames, with the control stack of demo_controls() (left arm
// reaching, head tracking a moving target).
Run make_run(const RunRequest& opt) {
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
  // A --clip that brings the scene's only animation plays as its file says (rule AN11).
  const bool file_loop = !opt.clip.empty() && !scene.animation;
  if (!opt.clip.empty()) {  // keeps the scene's loop/retarget settings, else the defaults
    if (!scene.animation) scene.animation = io::SceneAnimation{};
    scene.animation->clip = opt.clip;
  }
  if (opt.cycle && scene.animation) scene.animation->cycle = *opt.cycle;
  if (opt.frames) scene.frames = *opt.frames;
  if (opt.dt) scene.dt = *opt.dt;

  Result<Rig> rig = io::load_rig(scene.rig);
  if (!rig) throw CliError(rig.message());
  Run run;
  run.rig = std::move(rig.value());
  if (run.rig.joint_count() == 0) throw CliError(scene.rig + ": the rig has no usable joints");
  run.root = scene.root ? *scene.root : io::default_root_placement(run.rig);
  run.root_path = scene.root_path;
  run.ground = scene.ground;
  run.frames = scene.frames;
  run.dt = scene.dt;

  // Pose source: the animator's tracks, or an animation (each over the pose file, if any), a
  // pose file, the demo wave, or rest. The "animation" block alone keeps its own player (today's
  // output exactly); with "tracks" or "commands" it becomes the Core track "animation".
  auto base_pose = [&]() -> std::optional<Pose> {
    if (!scene.pose) return std::nullopt;
    Result<Pose> pose = io::read_pose_file(*scene.pose, run.rig);
    if (!pose) throw CliError(pose.message());
    return std::move(pose.value());
  };
  if (!scene.tracks.empty() || !scene.commands.empty()) {
    auto source = std::make_unique<AnimatorPoseSource>(scene, run.rig, run.dt, base_pose(), opt.bake,
                                                       opt.keep_first_frame);
    for (std::string& note : source->notes()) run.notes.push_back(std::move(note));
    for (std::string& note : source->contact_notes()) run.warnings.push_back(std::move(note));  // rule RT16
    run.source = std::move(source);
  } else if (scene.animation) {
    std::optional<Pose> base = base_pose();
    auto source = std::make_unique<AnimationPoseSource>(*scene.animation, run.rig, std::move(base), opt.bake,
                                                        opt.keep_first_frame, file_loop);
    run.notes.push_back("animation: " + scene.animation->clip.string() + ", " + source->description());
    if (!source->contact_note().empty()) run.warnings.push_back(source->contact_note());
    run.markers = source->markers();
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
    run.source = std::make_unique<StaticPoseSource>(std::move(pose.value()));
  } else if (demo) {
    run.source = std::make_unique<WaveDemoSource>(run.rig);
  } else {
    run.source = std::make_unique<StaticPoseSource>(make_pose(run.rig));
  }
  // Frame steps: the control stack (scene controls; the demo's reach + head tracking).
  if (!scene.controls.empty()) {
    auto step = std::make_unique<ControlStackStep>(run.rig, scene.controls, scene.file.string());
    if (scene.ground) step->set_ground(*scene.ground, scene.file.string());
    run.steps.push_back(std::move(step));
  } else if (demo) {
    run.steps.push_back(std::make_unique<ControlStackStep>(run.rig, demo_controls(), "demo"));
  }
  return run;
}

}  // namespace asterune::cli
