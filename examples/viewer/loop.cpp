#include "loop.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "camera.hpp"
#include "draw.hpp"
#include "headless.hpp"
#include "panels.hpp"
#include "run.hpp"
#include "scene_host.hpp"
#include "worker_pool.hpp"

namespace asterune::viewer {
namespace {

using Clock = std::chrono::steady_clock;

float ms_since(Clock::time_point t) { return std::chrono::duration<float, std::milli>(Clock::now() - t).count(); }
void average(float& into, float sample) { into += 0.1f * (sample - into); }

// Mouse state of the window: orbit (left drag on empty space), pan (right or middle drag),
// zoom (wheel), and dragging a control's target (left press within 12 px of its cross).
struct Input {
  double x = 0.0, y = 0.0;
  bool orbiting = false, panning = false;
  int dragging = -1;            // control whose target follows the mouse, or -1
  glm::vec3 drag_plane_point{0.0f};
  float wheel = 0.0f;
};

void scroll_callback(GLFWwindow* w, double dx, double dy) {
  ImGui_ImplGlfw_ScrollCallback(w, dx, dy);
  if (ImGui::GetIO().WantCaptureMouse) return;
  static_cast<Input*>(glfwGetWindowUserPointer(w))->wheel += static_cast<float>(dy);
}

// What the camera follows: the part the first joint places (the pelvis of a humanoid), which
// carries a clip's own travel as well as root motion; the root before the first update.
glm::vec3 travel_anchor(const Character& c) { return c.world.empty() ? c.root.position : c.world.front().position; }

// The control of character 0 whose target cross is drawn nearest (x, y), within 12 px.
int pick_target(const SceneHost& host, const OrbitCamera& cam, int w, int h, double x, double y) {
  const Character& c = host.characters().front();
  int best = -1;
  float best_d = 12.0f;
  for (int i = 0; i < c.stack.size(); ++i) {
    const ControlDesc& d = c.stack.desc(i);
    if (!d.enabled || std::holds_alternative<FeetSettings>(d.settings) ||
        std::holds_alternative<SpringSettings>(d.settings) || c.stack.report(i).status == ControlStatus::kNotRun)
      continue;
    const glm::vec3 p = project_to_pixel(cam, w, h, c.stack.report(i).target);
    const float dist = glm::length(glm::vec2(p.x - static_cast<float>(x), p.y - static_cast<float>(y)));
    if (p.z > 0.0f && p.z < 1.0f && dist < best_d) {
      best = i;
      best_d = dist;
    }
  }
  return best;
}

void handle_input(GLFWwindow* window, Input& in, OrbitCamera& cam, SceneHost& host, int& hover) {
  int w = 1, h = 1;
  glfwGetFramebufferSize(window, &w, &h);
  double x, y;
  glfwGetCursorPos(window, &x, &y);
  const float dx = static_cast<float>(x - in.x), dy = static_cast<float>(y - in.y);
  in.x = x;
  in.y = y;
  const bool ui = ImGui::GetIO().WantCaptureMouse;
  const bool left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  const bool right = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
                     glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
  hover = in.dragging >= 0 ? in.dragging : (ui ? -1 : pick_target(host, cam, w, h, x, y));
  if (!left) in.orbiting = false, in.dragging = -1;
  if (!right) in.panning = false;
  if (left && !in.orbiting && in.dragging < 0 && !ui) {  // a press: grab a target, else orbit
    in.dragging = hover;
    if (in.dragging >= 0) in.drag_plane_point = host.characters().front().stack.report(in.dragging).target;
    else in.orbiting = true;
  }
  if (right && !in.panning && !ui) in.panning = true;
  if (in.dragging >= 0) {  // the target moves in the plane through it that faces the camera
    glm::vec3 origin, dir;
    pixel_ray(cam, w, h, static_cast<float>(x), static_cast<float>(y), origin, dir);
    const glm::vec3 n = glm::normalize(camera_eye(cam) - cam.focus);
    const float denom = glm::dot(dir, n);
    if (std::fabs(denom) > 1e-6f) {
      const glm::vec3 p = origin + dir * (glm::dot(in.drag_plane_point - origin, n) / denom);
      host.set_target(in.dragging, p);
      in.drag_plane_point = p;
    }
  } else if (in.orbiting) {
    orbit(cam, dx, dy);
  }
  if (in.panning) pan(cam, dx, dy, h);
  if (in.wheel != 0.0f) zoom(cam, in.wheel);
  in.wheel = 0.0f;
}

}  // namespace

int run_viewer(const ViewerOptions& opt) {
  SceneHost host(opt.scene);  // throws cli::CliError naming the file
  for (const std::string& name : opt.disable) {
    const int i = host.find_control(name);
    if (i < 0) throw cli::CliError("--disable " + name + ": the scene has no control of that name");
    host.set_enabled(i, false);
  }
  if (opt.crowd != 1) host.set_crowd(opt.crowd);
  const bool headless = !opt.screenshot.empty();

  if (!glfwInit()) throw cli::CliError("cannot open a window (no display? run under xvfb-run)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  if (headless) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "asterune-viewer", nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    throw cli::CliError("cannot create an OpenGL 3.3 core context (is Mesa's libgl1-mesa-dri installed?)");
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(headless ? 0 : 1);
  Input input;
  glfwSetWindowUserPointer(window, &input);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left in the working folder
  ImGui::StyleColorsLight();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  glfwSetScrollCallback(window, scroll_callback);  // chains to ImGui's
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int status = 0;
  {
    Renderer renderer;
    WorkerPool pool(2);
    std::unique_ptr<OffscreenTarget> offscreen;
    if (headless) offscreen = std::make_unique<OffscreenTarget>(opt.width, opt.height);
    const glm::vec3 root_start = host.start_root().position;
    OrbitCamera camera = crowd_camera(root_start, static_cast<int>(host.characters().size()), kCrowdSpacing);
    Playback playback;
    playback.crowd = static_cast<int>(host.characters().size());
    playback.follow = opt.follow;
    glm::vec3 anchor(0.0f);  // where character 0 was drawn last frame
    bool anchored = false;   // false before frame 0
    StageTimes times;
    DrawOptions draw;
    const float scene_dt = host.scene().dt;
    Clock::time_point last = Clock::now();
    for (int frame = 0; headless ? frame < opt.frames : !glfwWindowShouldClose(window); ++frame) {
      const Clock::time_point start = Clock::now();
      // 1. Input.
      glfwPollEvents();
      if (!headless) handle_input(window, input, camera, host, draw.highlight_control);
      const float input_ms = ms_since(start);
      // 2. Time: real seconds scaled by the speed slider (capped so a stall is not a jump);
      // headless steps the scene's own dt so the screenshot is reproducible.
      const float real = std::min(std::chrono::duration<float>(start - last).count(), 0.1f);
      last = start;
      if (playback.reset) host.reset(), playback.reset = false;  // the follow brings the camera back too
      if (playback.crowd_apply) {
        host.set_crowd(playback.crowd);
        camera = crowd_camera(root_start, playback.crowd, kCrowdSpacing);
        anchored = false;  // set_crowd resets every character to frame 0, under the new camera
        playback.crowd_apply = false;
      }
      // 3. Update: every character in one batch on the pool.
      const Clock::time_point update_start = Clock::now();
      if (headless) host.advance(scene_dt, pool);
      else if (playback.playing) host.advance(real * playback.speed, pool);
      else if (playback.step) host.advance(scene_dt, pool), playback.step = false;
      const float update_ms = ms_since(update_start);
      const glm::vec3 moved_to = travel_anchor(host.characters().front());
      if (playback.follow && anchored) follow_travel(camera, anchor, moved_to);
      anchor = moved_to;
      anchored = true;
      // 4. Draw: the scene, then the panels over it.
      const Clock::time_point draw_start = Clock::now();
      int w = opt.width, h = opt.height;
      if (offscreen) offscreen->bind();
      else glfwGetFramebufferSize(window, &w, &h);
      renderer.draw(host, camera, w, h, draw);
      const float draw_ms = ms_since(draw_start);
      const Clock::time_point ui_start = Clock::now();
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      if (opt.ui) draw_panels(host, playback, times, draw, pool.size());
      ImGui::Render();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      const float ui_ms = ms_since(ui_start);
      if (!headless) glfwSwapBuffers(window);
      average(times.input, input_ms);
      average(times.update, update_ms);
      average(times.draw, draw_ms);
      average(times.ui, ui_ms);
      average(times.frame, ms_since(start));
    }
    if (offscreen) {
      const std::string error = offscreen->write_png(opt.screenshot);
      if (!error.empty()) {
        std::fprintf(stderr, "asterune-viewer: %s\n", error.c_str());
        status = 1;
      } else {
        std::printf("asterune-viewer: %d frame(s) of %s, %zu character(s), batch %.3f ms/frame; wrote %s\n",
                    opt.frames, opt.scene.c_str(), host.characters().size(), times.update, opt.screenshot.c_str());
      }
      offscreen->unbind();
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return status;
}

}  // namespace asterune::viewer
