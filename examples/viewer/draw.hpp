// asterune-viewer: drawing a scene with OpenGL 3.3 core. Two shaders: lit boxes (instanced:
// one model matrix and colour per box, so 10,000 characters of 15 parts are one draw call) and
// coloured lines and points. What is drawn follows the CLI's SVG (src/drawing/svg_writer.cpp):
// part boxes, joint pivots, bones, the root part, ground shapes (non-colliding ones as
// outlines), foot rays, hits and normals, control targets (crosses) and poles (diamonds), plus
// spring chains and their colliders and a grid in studs.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "asterune/controls/ground.hpp"
#include "camera.hpp"
#include "palette.hpp"
#include "scene_host.hpp"

namespace asterune::viewer {


struct DrawOptions {
  bool parts = true;
  bool skeleton = true;   // bones and joint pivots, drawn over the parts
  bool ground = true;
  bool grid = true;
  bool controls = true;   // targets, poles, foot rays, spring chains and colliders
  int detail_limit = 1;   // characters beyond this many (the crowd) get their part boxes only
  int highlight_control = -1;  // a control whose target is hovered or dragged
};

class Renderer {
 public:
  /// Compiles the shaders and makes the buffers (needs a current GL 3.3 core context).
  Renderer();
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  /// Clears the bound framebuffer to the background and draws the scene as `camera` sees it in
  /// a width x height viewport.
  void draw(const SceneHost& host, const OrbitCamera& camera, int width, int height, const DrawOptions& options);

 private:
  struct Instance {
    glm::mat4 model;
    glm::vec4 colour;
  };
  struct LineVertex {
    glm::vec3 position;
    glm::vec4 colour;
  };
  struct MeshVertex {
    glm::vec3 position;
    glm::vec3 normal;
  };

  void line(const glm::vec3& a, const glm::vec3& b, const glm::vec4& c, bool on_top = true);
  void wire_box(const Transform& placement, const glm::vec3& size, const glm::vec4& c, bool on_top);
  void circle(const glm::vec3& centre, const glm::vec3& axis, float radius, const glm::vec4& c);
  void cross(const glm::vec3& p, float size, const glm::vec4& c);
  void diamond(const glm::vec3& p, float size, const glm::vec4& c);
  void build_ground(const GroundDesc& ground);
  void collect(const SceneHost& host, const OrbitCamera& camera, const DrawOptions& options);

  unsigned mesh_program_ = 0, line_program_ = 0;
  unsigned cube_vao_ = 0, cube_vbo_ = 0, instance_vbo_ = 0;
  unsigned ground_vao_ = 0, ground_vbo_ = 0, ground_instance_vbo_ = 0;
  unsigned line_vao_ = 0, line_vbo_ = 0;
  int ground_vertices_ = 0;
  const GroundDesc* ground_built_ = nullptr;
  // Per-frame data, reused between frames (cleared, not freed).
  std::vector<Instance> boxes_;
  std::vector<LineVertex> lines_, overlay_lines_, points_;  // depth-tested lines; lines and points drawn on top
};

}  // namespace asterune::viewer
