// asterune-solve: builds the Run of one invocation from a scene file and the command-line
// overrides (--rig, --pose, --clip, --frames, --dt, --bake), or the built-in demo. Kept out of
// main.cpp so that tests can run a scene through the same code as the command line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "asterune/documents/scene_file.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "run.hpp"

namespace asterune::cli {

inline constexpr int kDemoFrames = 60;             // the built-in demo: 1 s at 60 Hz
inline constexpr float kDemoDt = 1.0f / 60.0f;
inline constexpr int kMaxFrames = 100000;          // the --frames and scene "frames" limit

/// What to run: a scene file and/or the overrides (paths relative to the current folder).
/// All empty: the built-in demo.
struct RunRequest {
  std::string scene;
  std::string rig;
  std::string pose;
  std::string clip;
  std::optional<int> frames;
  std::optional<float> dt;
  bool bake = false;
  bool keep_first_frame = false;  // --keep-first-frame (rule RT23)
  std::vector<std::string> set = {};  // --set NAME=VALUE: graph parameters' start values (rule F10)
  std::optional<bool> loop = {};  // --loop / --no-loop: the animation's looping (rule AN11)
  // The animation's retarget settings (formats.md "animation"), as the scene's retarget block:
  std::optional<std::string> rest = {};    // --rest auto | rest | N (frame N; rule RT13)
  std::optional<std::string> origin = {};  // --origin clip | first_frame (rule RT14)
  std::optional<std::string> floor = {};   // --floor auto | rest | HEIGHT in source units (rule RT16)
  bool plant_feet = false;            // --plant-feet (rule RT19)
  std::optional<io::ClipCycle> cycle{};  // --cycle auto|none: the animation's "cycle" (rule LO5)
};

/// Applies --set NAME=VALUE (rule F10): the value replaces the parameter's default in every graph
/// track of `scene` that declares NAME, so the run starts with it (the scene's set_parameter
/// commands still run). Throws CliError "--set TEXT: <reason>" for a missing '=', a name no
/// graph track declares, or a value not of the parameter's type.
void apply_parameter_overrides(io::SceneDesc& scene, const std::vector<std::string>& set);

/// Lays the --rest, --origin, --floor and --plant-feet values of `request` over `retarget`.
/// Throws CliError (one line naming the flag, the value and what is accepted) on a bad value.
void apply_retarget_flags(const RunRequest& request, io::SceneRetarget& retarget);

/// The same flags over every retarget block of `scene` (the same set of options, formats.md):
/// the animation's, each clip track's and each graph track's Clip nodes'. Throws CliError when
/// the scene has none of them.
void apply_retarget_flags_to_scene(const RunRequest& request, io::SceneDesc& scene);

/// Loads the files, binds the pose source and the control stack (over the scene's ground) and
/// returns the run. Throws CliError naming the file and the problem.
Run make_run(const RunRequest& request);

}  // namespace asterune::cli
