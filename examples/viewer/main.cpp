// asterune-viewer: a small engine host for asterune-rig (docs/viewer.md). Opens any scene
// asterune-solve opens and runs it live in a window with panels for playback, the controls,
// the animator's tracks and a crowd; or headless, --frames N --screenshot out.png.
// Exit status: 0 on success, 2 on bad arguments or a bad scene, 1 when the PNG cannot be written.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>

#include "loop.hpp"
#include "run.hpp"
#include "scene_host.hpp"

int main(int argc, char** argv) {
  using namespace asterune;
  viewer::ViewerOptions opt;
  std::string size;
  CLI::App app{"asterune-viewer: runs an asterune.scene/1 file live (GLFW + OpenGL 3.3 + Dear ImGui)"};
  app.add_option("scene", opt.scene, "the scene file (asterune.scene/1, as asterune-solve takes)")->required();
  app.add_option("--frames", opt.frames, "headless: frames to run before the screenshot (the scene's dt each)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--screenshot", opt.screenshot, "headless: render offscreen and write this PNG after --frames frames");
  app.add_option("--size", size, "window / screenshot size WIDTHxHEIGHT (default 1280x720)");
  app.add_option("--disable", opt.disable, "start with this control disabled (repeatable)");
  app.add_option("--crowd", opt.crowd, "characters on a grid, 4 studs apart")->check(CLI::Range(1, viewer::kMaxCrowd));
  bool no_ui = false;
  app.add_flag("--no-ui", no_ui, "draw no panels (also in the screenshot)");
  bool no_follow = false;
  app.add_flag("--no-follow", no_follow, "the camera stays where it opened (default: it follows the first character's travel)");
  CLI11_PARSE(app, argc, argv);
  opt.ui = !no_ui;
  opt.follow = !no_follow;
  if (!size.empty() && (std::sscanf(size.c_str(), "%dx%d", &opt.width, &opt.height) != 2 || opt.width < 16 ||
                        opt.height < 16 || opt.width > 8192 || opt.height > 8192)) {
    std::fprintf(stderr, "asterune-viewer: --size %s: expected WIDTHxHEIGHT, 16..8192 each\n", size.c_str());
    return 2;
  }
  if (!opt.screenshot.empty() && opt.frames < 1) opt.frames = 1;
  if (opt.screenshot.empty() && opt.frames > 0) {
    std::fprintf(stderr, "asterune-viewer: --frames needs --screenshot (the window runs until it is closed)\n");
    return 2;
  }
  try {
    return viewer::run_viewer(opt);
  } catch (const cli::CliError& e) {
    std::fprintf(stderr, "asterune-viewer: %s\n", e.what());
    return 2;
  }
}
