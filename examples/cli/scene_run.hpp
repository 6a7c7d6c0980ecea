// asterune-solve: builds the Run of one invocation from a scene file and the command-line
// overrides (--rig, --pose, --clip, --frames, --dt, --bake), or the built-in demo. Kept out of
// main.cpp so that tests can run a scene through the same code as the command line.
#pragma once

#include <optional>
#include <string>

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
  std::optional<io::ClipCycle> cycle{};  // --cycle auto|none: the animation's "cycle" (rule LO5)
};

/// Loads the files, binds the pose source and the control stack (over the scene's ground) and
/// returns the run. Throws CliError naming the file and the problem.
Run make_run(const RunRequest& request);

}  // namespace asterune::cli
