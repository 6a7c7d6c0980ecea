#include "draw.hpp"

#define GLFW_INCLUDE_NONE
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "asterune/rig/world.hpp"

namespace asterune::viewer {
namespace {

constexpr const char* kMeshVertex = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in mat4 model;   // per instance (locations 2..5)
layout(location = 6) in vec4 colour;  // per instance
uniform mat4 view_projection;
out vec3 v_normal;
out vec4 v_colour;
void main() {
  gl_Position = view_projection * model * vec4(position, 1.0);
  v_normal = mat3(model) * normal;
  v_colour = colour;
})";

// Flat colour lit by one fixed light from above-front-right plus ambient, so a box's faces
// read apart; the light is fixed so screenshots do not depend on the camera.
constexpr const char* kMeshFragment = R"(#version 330 core
in vec3 v_normal;
in vec4 v_colour;
out vec4 frag;
void main() {
  vec3 n = normalize(v_normal);
  float light = 0.62 + 0.38 * max(dot(n, normalize(vec3(0.35, 0.85, -0.4))), 0.0);
  frag = vec4(v_colour.rgb * light, v_colour.a);
})";

constexpr const char* kLineVertex = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 colour;
uniform mat4 view_projection;
out vec4 v_colour;
void main() {
  gl_Position = view_projection * vec4(position, 1.0);
  v_colour = colour;
})";

constexpr const char* kLineFragment = R"(#version 330 core
in vec4 v_colour;
out vec4 frag;
void main() { frag = v_colour; })";

unsigned compile(GLenum kind, const char* source) {
  const GLuint s = glCreateShader(kind);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::fprintf(stderr, "asterune-viewer: shader: %s\n", log);
    std::abort();  // the shaders are fixed text: a failure is a broken build or driver
  }
  return s;
}

unsigned program(const char* vertex, const char* fragment) {
  const GLuint p = glCreateProgram();
  const GLuint v = compile(GL_VERTEX_SHADER, vertex), f = compile(GL_FRAGMENT_SHADER, fragment);
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  return p;
}

glm::mat4 to_mat4(const Transform& t) {
  glm::mat4 m = glm::mat4_cast(t.rotation);
  m[3] = glm::vec4(t.position, 1.0f);
  return m;
}

glm::vec4 rgba(const glm::vec3& c, float a = 1.0f) { return {c, a}; }

constexpr glm::vec4 kBone{0.11f, 0.21f, 0.34f, 1.0f};
constexpr glm::vec4 kPivot{1.0f, 1.0f, 1.0f, 1.0f};
constexpr glm::vec4 kRoot{0.63f, 0.35f, 0.0f, 1.0f};
constexpr glm::vec4 kTarget{0.84f, 0.16f, 0.16f, 1.0f};
constexpr glm::vec4 kHighlight{1.0f, 0.75f, 0.0f, 1.0f};
constexpr glm::vec4 kPole{0.12f, 0.47f, 0.71f, 1.0f};
constexpr glm::vec4 kRay{0.16f, 0.62f, 0.25f, 1.0f};
constexpr glm::vec4 kCollider{0.55f, 0.25f, 0.65f, 1.0f};
constexpr glm::vec4 kGroundOff{0.45f, 0.45f, 0.45f, 1.0f};
constexpr glm::vec4 kGridMinor{0.0f, 0.0f, 0.0f, 0.10f};
constexpr glm::vec4 kGridMajor{0.0f, 0.0f, 0.0f, 0.28f};

// A unit cube centred at the origin: 6 faces x 2 triangles, with face normals.
std::array<glm::vec3, 72> cube_vertices() {
  std::array<glm::vec3, 72> out{};
  size_t k = 0;
  for (int axis = 0; axis < 3; ++axis)
    for (int sign = -1; sign <= 1; sign += 2) {
      glm::vec3 n(0.0f);
      n[axis] = static_cast<float>(sign);
      glm::vec3 u(0.0f), v(0.0f);
      u[(axis + 1) % 3] = 0.5f;
      v[(axis + 2) % 3] = 0.5f;
      if (sign < 0) std::swap(u, v);  // counter-clockwise seen from outside
      const glm::vec3 c = 0.5f * n;
      const glm::vec3 quad[6] = {c - u - v, c + u - v, c + u + v, c - u - v, c + u + v, c - u + v};
      for (const glm::vec3& p : quad) {
        out[k++] = p;
        out[k++] = n;
      }
    }
  return out;
}

void instance_attributes() {
  for (int i = 0; i < 4; ++i) {
    glEnableVertexAttribArray(2 + i);
    glVertexAttribPointer(2 + i, 4, GL_FLOAT, GL_FALSE, sizeof(float) * 20,
                          reinterpret_cast<void*>(sizeof(float) * 4 * static_cast<size_t>(i)));
    glVertexAttribDivisor(2 + i, 1);
  }
  glEnableVertexAttribArray(6);
  glVertexAttribPointer(6, 4, GL_FLOAT, GL_FALSE, sizeof(float) * 20, reinterpret_cast<void*>(sizeof(float) * 16));
  glVertexAttribDivisor(6, 1);
}

void mesh_attributes() {
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(float) * 6, nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(float) * 6, reinterpret_cast<void*>(sizeof(float) * 3));
}

}  // namespace

Renderer::Renderer() {
  mesh_program_ = program(kMeshVertex, kMeshFragment);
  line_program_ = program(kLineVertex, kLineFragment);
  const auto cube = cube_vertices();
  glGenVertexArrays(1, &cube_vao_);
  glBindVertexArray(cube_vao_);
  glGenBuffers(1, &cube_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, cube_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof cube, cube.data(), GL_STATIC_DRAW);
  mesh_attributes();
  glGenBuffers(1, &instance_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
  instance_attributes();

  glGenVertexArrays(1, &ground_vao_);
  glBindVertexArray(ground_vao_);
  glGenBuffers(1, &ground_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, ground_vbo_);
  mesh_attributes();
  glGenBuffers(1, &ground_instance_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, ground_instance_vbo_);
  const Instance identity{glm::mat4(1.0f), rgba(colour::kGround)};
  glBufferData(GL_ARRAY_BUFFER, sizeof identity, &identity, GL_STATIC_DRAW);
  instance_attributes();

  glGenVertexArrays(1, &line_vao_);
  glBindVertexArray(line_vao_);
  glGenBuffers(1, &line_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex), reinterpret_cast<void*>(sizeof(glm::vec3)));
  glBindVertexArray(0);
}

Renderer::~Renderer() {
  const GLuint buffers[] = {cube_vbo_, instance_vbo_, ground_vbo_, ground_instance_vbo_, line_vbo_};
  glDeleteBuffers(5, buffers);
  const GLuint arrays[] = {cube_vao_, ground_vao_, line_vao_};
  glDeleteVertexArrays(3, arrays);
  glDeleteProgram(mesh_program_);
  glDeleteProgram(line_program_);
}

void Renderer::line(const glm::vec3& a, const glm::vec3& b, const glm::vec4& c, bool on_top) {
  if (!is_finite(a) || !is_finite(b)) return;
  auto& out = on_top ? overlay_lines_ : lines_;
  out.push_back({a, c});
  out.push_back({b, c});
}

void Renderer::wire_box(const Transform& t, const glm::vec3& size, const glm::vec4& c, bool on_top) {
  const glm::vec3 h = 0.5f * size;
  auto corner = [&](int i) {
    return transform_point(t, glm::vec3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z));
  };
  for (int i = 0; i < 8; ++i)
    for (int bit : {1, 2, 4})
      if (!(i & bit)) line(corner(i), corner(i | bit), c, on_top);
}

void Renderer::circle(const glm::vec3& centre, const glm::vec3& axis, float radius, const glm::vec4& c) {
  const glm::vec3 a = glm::normalize(axis);
  const glm::vec3 u = glm::normalize(glm::cross(a, std::fabs(a.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0)));
  const glm::vec3 v = glm::cross(a, u);
  constexpr int kSegments = 24;
  for (int i = 0; i < kSegments; ++i) {
    const float t0 = 6.2831853f * static_cast<float>(i) / kSegments, t1 = 6.2831853f * static_cast<float>(i + 1) / kSegments;
    line(centre + radius * (std::cos(t0) * u + std::sin(t0) * v), centre + radius * (std::cos(t1) * u + std::sin(t1) * v), c);
  }
}

void Renderer::cross(const glm::vec3& p, float s, const glm::vec4& c) {
  line(p - glm::vec3(s, s, 0), p + glm::vec3(s, s, 0), c);
  line(p - glm::vec3(s, -s, 0), p + glm::vec3(s, -s, 0), c);
  line(p - glm::vec3(0, 0, s), p + glm::vec3(0, 0, s), c);
}

void Renderer::diamond(const glm::vec3& p, float s, const glm::vec4& c) {
  const glm::vec3 ring[4] = {p + glm::vec3(s, 0, 0), p + glm::vec3(0, 0, s), p - glm::vec3(s, 0, 0), p - glm::vec3(0, 0, s)};
  for (int i = 0; i < 4; ++i) {
    line(ring[i], ring[(i + 1) % 4], c);
    line(ring[i], p + glm::vec3(0, s, 0), c);
    line(ring[i], p - glm::vec3(0, s, 0), c);
  }
}

// The ground's planes (a 400-stud square around their point) and height fields as triangles,
// built once per ground (it never changes while the scene is open).
void Renderer::build_ground(const GroundDesc& g) {
  std::vector<MeshVertex> v;
  auto tri = [&](const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
    glm::vec3 n = glm::cross(b - a, c - a);
    n = glm::length(n) > 0.0f ? glm::normalize(n) : glm::vec3(0, 1, 0);
    v.push_back({a, n});
    v.push_back({b, n});
    v.push_back({c, n});
  };
  for (const GroundPlane& p : g.planes) {
    if (!p.collide) continue;
    const glm::vec3 n = glm::normalize(p.normal);
    const glm::vec3 u = 200.0f * glm::normalize(glm::cross(n, std::fabs(n.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0)));
    const glm::vec3 w = glm::cross(n, u);
    tri(p.point - u - w, p.point - u + w, p.point + u + w);
    tri(p.point - u - w, p.point + u + w, p.point + u - w);
  }
  for (const GroundHeightField& f : g.heightfields) {
    auto at = [&](int r, int c) {
      return f.origin + glm::vec3(static_cast<float>(c) * f.cell_size,
                                  f.heights[static_cast<size_t>(r * f.columns + c)],
                                  static_cast<float>(r) * f.cell_size);
    };
    for (int r = 0; r + 1 < f.rows; ++r)
      for (int c = 0; c + 1 < f.columns; ++c) {  // upward-facing triangles (counter-clockwise from +Y)
        tri(at(r, c), at(r + 1, c), at(r + 1, c + 1));
        tri(at(r, c), at(r + 1, c + 1), at(r, c + 1));
      }
  }
  glBindBuffer(GL_ARRAY_BUFFER, ground_vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(MeshVertex)), v.data(), GL_STATIC_DRAW);
  ground_vertices_ = static_cast<int>(v.size());
  ground_built_ = &g;
}

void Renderer::collect(const SceneHost& host, const OrbitCamera& camera, const DrawOptions& o) {
  boxes_.clear();
  lines_.clear();
  overlay_lines_.clear();
  points_.clear();
  const Rig& rig = host.rig();
  const int joints = rig.joint_count();
  const std::vector<Character>& characters = host.characters();

  // Ground: boxes lit like the parts; non-colliding shapes as outlines (the SVG's dashed ones).
  if (o.ground && host.ground()) {
    const GroundDesc& g = host.ground()->desc();
    for (const GroundBox& b : g.boxes) {
      const Transform t{glm::normalize(b.rotation), b.center};
      if (b.collide) boxes_.push_back({to_mat4(t) * glm::scale(glm::mat4(1.0f), b.size), rgba(colour::kGround)});
      else wire_box(t, b.size, kGroundOff, false);
    }
    for (const GroundPlane& p : g.planes)
      if (!p.collide) circle(p.point, p.normal, 5.0f, kGroundOff);
  }

  // Grid in studs on y = 0 around the focus: a line every stud, darker every 5.
  if (o.grid) {
    constexpr int kHalf = 30;
    const float cx = std::round(camera.focus.x), cz = std::round(camera.focus.z);
    for (int i = -kHalf; i <= kHalf; ++i) {
      const glm::vec4& c = ((static_cast<int>(cx) + i) % 5 == 0) ? kGridMajor : kGridMinor;
      const glm::vec4& d = ((static_cast<int>(cz) + i) % 5 == 0) ? kGridMajor : kGridMinor;
      const float f = static_cast<float>(i), h = static_cast<float>(kHalf);
      line({cx + f, 0.003f, cz - h}, {cx + f, 0.003f, cz + h}, c, false);
      line({cx - h, 0.003f, cz + f}, {cx + h, 0.003f, cz + f}, d, false);
    }
  }

  // Which joints belong to a spring chain (coloured apart).
  std::vector<char> spring_joint(static_cast<size_t>(joints), 0);
  for (int i = 0; i < host.control_count(); ++i) {
    const ControlDesc& d = host.control_desc(i);
    const auto* s = std::get_if<SpringSettings>(&d.settings);
    if (!s) continue;
    const JointLookup root = rig.find_joint(s->chain_root), end = rig.find_joint(s->end);
    if (!root.found() || !end.found()) continue;
    for (int j = end.index; j >= 0; j = rig.parent(j)) {
      spring_joint[static_cast<size_t>(j)] = 1;
      if (j == root.index) break;
    }
  }

  for (size_t k = 0; k < characters.size(); ++k) {
    const Character& ch = characters[k];
    if (ch.world.size() != static_cast<size_t>(joints)) continue;
    if (o.parts)
      for (int j = 0; j < joints; ++j) {
        const PartDesc& part = rig.part(rig.part1()[static_cast<size_t>(j)]);
        const Transform& w = ch.world[static_cast<size_t>(j)];
        if (!is_finite(w)) continue;
        boxes_.push_back({to_mat4(w) * glm::scale(glm::mat4(1.0f), part.size),
                          rgba(spring_joint[static_cast<size_t>(j)] ? colour::kSpringPart : colour::kPart)});
      }
    if (static_cast<int>(k) >= o.detail_limit) continue;
    if (o.skeleton) {
      if (rig.root_part() >= 0) wire_box(ch.root, rig.part(rig.root_part()).size, kRoot, false);
      for (int j = 0; j < joints; ++j) {
        const glm::vec3 pivot = joint_pivot(rig, ch.world, j);
        const int p = rig.parent(j);
        const glm::vec3 from = p >= 0 ? joint_pivot(rig, ch.world, p) : parent_placement(rig, ch.root, ch.world, j).position;
        line(from, pivot, kBone);
        bool leaf = true;
        for (int c = j + 1; c < joints && leaf; ++c) leaf = rig.parent(c) != j;
        if (leaf) line(pivot, ch.world[static_cast<size_t>(j)].position, kBone);
        if (is_finite(pivot)) points_.push_back({pivot, kPivot});
      }
      if (is_finite(ch.root.position)) points_.push_back({ch.root.position, kRoot});
    }
    if (!o.controls) continue;
    for (int i = 0; i < ch.stack.size(); ++i) {
      const ControlDesc& d = ch.stack.desc(i);
      const ControlReport& r = ch.stack.report(i);
      if (const auto* s = std::get_if<SpringSettings>(&d.settings)) {
        for (const SpringCollider& c : s->colliders) {
          const JointLookup l = rig.find_joint(c.part);
          Transform at = ch.root;
          if (l.found()) at = ch.world[static_cast<size_t>(l.index)];
          else if (rig.root_part() < 0 || rig.part(rig.root_part()).name != c.part) continue;
          const glm::vec3 a = transform_point(at, c.offset);
          const glm::vec3 b = c.shape == SpringColliderShape::kCapsule ? transform_point(at, c.offset_end) : a;
          for (const glm::vec3& centre : {a, b})
            for (const glm::vec3 axis : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)})
              circle(centre, axis, c.radius, kCollider);
          if (c.shape == SpringColliderShape::kCapsule) {
            const glm::vec3 along = b - a;
            const glm::vec3 side = glm::length(along) > 0.0f
                                       ? c.radius * glm::normalize(glm::cross(along, glm::vec3(0.3f, 1.0f, 0.2f)))
                                       : glm::vec3(0.0f);
            const glm::vec3 side2 = glm::length(along) > 0.0f ? c.radius * glm::normalize(glm::cross(along, side)) : side;
            for (const glm::vec3& s2 : {side, -side, side2, -side2}) line(a + s2, b + s2, kCollider);
          }
        }
        continue;
      }
      if (std::holds_alternative<FeetSettings>(d.settings)) {  // rays, hits and ground normals
        for (int f = 0; f < r.feet.foot_count && f < kMaxFeet; ++f) {
          const FootReport& foot = r.feet.feet[static_cast<size_t>(f)];
          line(foot.ray_origin, foot.ray_end, kRay);
          if (!foot.hit) continue;
          cross(foot.ray_end, 0.12f, kRay);
          line(foot.ray_end, foot.ray_end + 0.6f * foot.hit_normal, kRay);
        }
        continue;
      }
      if (r.status == ControlStatus::kNotRun || !d.enabled) continue;
      const bool hot = static_cast<int>(i) == o.highlight_control && k == 0;
      cross(r.target, hot ? 0.35f : 0.22f, hot ? kHighlight : kTarget);
      if (r.has_pole) diamond(r.pole, 0.2f, kPole);
    }
  }
}

void Renderer::draw(const SceneHost& host, const OrbitCamera& camera, int width, int height, const DrawOptions& o) {
  collect(host, camera, o);
  if (host.ground() && ground_built_ != &host.ground()->desc()) build_ground(host.ground()->desc());

  glViewport(0, 0, width, height);
  glClearColor(colour::kBackground.r, colour::kBackground.g, colour::kBackground.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  const glm::mat4 vp = projection_matrix(camera, static_cast<float>(width) / static_cast<float>(height)) * view_matrix(camera);

  glUseProgram(mesh_program_);
  glUniformMatrix4fv(glGetUniformLocation(mesh_program_, "view_projection"), 1, GL_FALSE, &vp[0][0]);
  if (o.ground && host.ground() && ground_vertices_ > 0) {
    glDisable(GL_CULL_FACE);  // height fields and planes are seen from both sides
    glBindVertexArray(ground_vao_);
    glDrawArraysInstanced(GL_TRIANGLES, 0, ground_vertices_, 1);
    glEnable(GL_CULL_FACE);
  }
  if (!boxes_.empty()) {
    glBindVertexArray(cube_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(boxes_.size() * sizeof(Instance)), boxes_.data(), GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 36, static_cast<GLsizei>(boxes_.size()));
  }

  glUseProgram(line_program_);
  glUniformMatrix4fv(glGetUniformLocation(line_program_, "view_projection"), 1, GL_FALSE, &vp[0][0]);
  glBindVertexArray(line_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  auto draw_lines = [](const std::vector<LineVertex>& v, GLenum mode) {
    if (v.empty()) return;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(LineVertex)), v.data(), GL_STREAM_DRAW);
    glDrawArrays(mode, 0, static_cast<GLsizei>(v.size()));
  };
  glLineWidth(1.0f);
  draw_lines(lines_, GL_LINES);       // grid, non-colliding ground: hidden behind what is in front
  glDisable(GL_DEPTH_TEST);           // the skeleton and the control markers: always visible
  glLineWidth(2.0f);
  draw_lines(overlay_lines_, GL_LINES);
  glPointSize(5.0f);
  draw_lines(points_, GL_POINTS);
  glLineWidth(1.0f);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

}  // namespace asterune::viewer
