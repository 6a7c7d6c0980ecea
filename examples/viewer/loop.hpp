// asterune-viewer: the frame loop, as an engine runs it (docs/runtime.md walks through it):
//
//   per frame:  input    poll the window, move the camera, drag a target (SceneHost::set_target)
//               time     dt = real seconds x speed (headless: the scene's dt)
//               update   SceneHost::advance: update_characters on the two-thread pool
//               draw     Renderer::draw, then the ImGui panels over it
//
// Headless (--screenshot) runs the same loop for --frames frames with the scene's dt into an
// offscreen framebuffer, then writes the PNG.
#pragma once

#include <string>
#include <vector>

namespace asterune::viewer {

struct ViewerOptions {
  std::string scene;
  int frames = 0;                     // headless: frames to run (>= 1 with a screenshot)
  std::string screenshot;             // headless: the PNG to write after the frames
  int width = 1280, height = 720;
  std::vector<std::string> disable;   // controls disabled from the start
  int crowd = 1;
  bool ui = true;                     // draw the panels (also into the screenshot)
  bool follow = true;                 // the camera follows the first character's travel
};

/// Opens the window (hidden when headless) and runs the loop; returns the exit status.
/// Throws cli::CliError for a bad scene or option.
int run_viewer(const ViewerOptions& options);

}  // namespace asterune::viewer
