#include "scene_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>

#include "asterune/documents/pose_file.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/documents/scene_file.hpp"
#include "animation_source.hpp"
#include "animator_source.hpp"
#include "controls_step.hpp"
#include "graph_track.hpp"

namespace asterune::cli {

void apply_parameter_overrides(io::SceneDesc& scene, const std::vector<std::string>& set) {
  for (const std::string& text : set) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) throw CliError("--set " + text + ": expected NAME=VALUE");
    const std::string name = text.substr(0, eq);
    const std::string_view value = std::string_view(text).substr(eq + 1);
    std::string declared;
    bool found = false;
    for (io::SceneTrack& track : scene.tracks) {
      if (!track.graph) continue;
      for (GraphParameterDesc& p : track.graph->desc.parameters) {
        declared += (declared.empty() ? "" : ", ") + p.name;
        if (p.name != name) continue;
        io::SceneParameterValue v;
        if (!parse_parameter_value(value, p.type, v))
          throw CliError("--set " + text + ": the parameter '" + name + "' of track '" + track.name + "' is a " +
                         to_string(p.type) +
                         (p.type == GraphParameterType::kNumber ? ": the value must be a finite number"
                          : p.type == GraphParameterType::kBool ? ": the value must be true or false"
                                                                : ": any text"));
        p.number_default = v.number;
        p.bool_default = v.boolean;
        p.string_default = v.string;
        found = true;
      }
    }
    if (!found)
      throw CliError("--set " + text + ": no graph track has a parameter '" + name + "' (" +
                     (declared.empty() ? std::string("the run has no graph parameters") : "parameters: " + declared) +
                     ")");
  }
}

namespace {
// A whole-string number (std::strtod), or nullopt.
std::optional<double> number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}
}  // namespace

void apply_retarget_flags(const RunRequest& opt, io::SceneRetarget& rt) {
  if (opt.rest) {
    const std::optional<double> n = number(*opt.rest);
    if (*opt.rest == "auto") rt.rest = SourceRestMode::kAuto;
    else if (*opt.rest == "rest") rt.rest = SourceRestMode::kRest;
    else if (n && *n >= 0.0 && *n <= 1e9 && *n == std::floor(*n)) {
      rt.rest = SourceRestMode::kFrame;
      rt.rest_frame = static_cast<int>(*n);
    } else {
      throw CliError("--rest " + *opt.rest + ": expected auto, rest or a frame number N >= 0");
    }
  }
  if (opt.origin) {
    if (*opt.origin == "clip") rt.origin = SourceOrigin::kClip;
    else if (*opt.origin == "first_frame") rt.origin = SourceOrigin::kFirstFrame;
    else throw CliError("--origin " + *opt.origin + ": expected clip or first_frame");
  }
  if (opt.floor) {
    const std::optional<double> h = number(*opt.floor);
    if (*opt.floor == "auto") rt.floor = io::SceneRetarget::Floor::kAuto;
    else if (*opt.floor == "rest") rt.floor = io::SceneRetarget::Floor::kRest;
    else if (h && std::fabs(*h) <= 1e6) {
      rt.floor = io::SceneRetarget::Floor::kHeight;
      rt.floor_height = static_cast<float>(*h);
    } else {
      throw CliError("--floor " + *opt.floor + ": expected auto, rest or a height in source units in [-1e6, 1e6]");
    }
  }
  if (opt.plant_feet) rt.plant_feet = true;
}

void apply_retarget_flags_to_scene(const RunRequest& opt, io::SceneDesc& scene) {
  bool any = false;
  auto apply = [&](io::SceneRetarget& rt) {
    apply_retarget_flags(opt, rt);
    any = true;
  };
  if (scene.animation) apply(scene.animation->retarget);
  for (io::SceneTrack& track : scene.tracks) {
    if (!track.clip.empty()) apply(track.retarget);
    if (!track.graph) continue;
    for (size_t n = 0; n < track.graph->desc.nodes.size(); ++n)
      if (track.graph->desc.nodes[n].type == GraphNodeType::kClip) apply(track.graph->clip_retarget[n]);
  }
  if (!any)
    throw CliError(
        "--rest, --origin, --floor and --plant-feet need a clip (--clip, the scene's animation, a track's clip or a "
        "graph's Clip node)");
}

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
  // A --clip that brings the scene's only animation plays as its file says, else once (rule AN11).
  const bool once_by_default = !opt.clip.empty() && !scene.animation;
  if (!opt.clip.empty()) {  // keeps the scene's loop/retarget settings, else the defaults
    if (!scene.animation) scene.animation = io::SceneAnimation{};
    scene.animation->clip = opt.clip;
  }
  if (opt.loop && scene.animation) scene.animation->loop = *opt.loop;
  if (opt.rest || opt.origin || opt.floor || opt.plant_feet) apply_retarget_flags_to_scene(opt, scene);
  apply_parameter_overrides(scene, opt.set);
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
    if (scene.animation) run.loop = source->animator().desc(0).looped;  // the block is track 0
    run.source = std::move(source);
  } else if (scene.animation) {
    std::optional<Pose> base = base_pose();
    auto source = std::make_unique<AnimationPoseSource>(*scene.animation, run.rig, std::move(base), opt.bake,
                                                        opt.keep_first_frame, once_by_default);
    run.loop = source->looped();
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
