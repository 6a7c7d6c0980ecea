// asterune-viewer: the orbit camera (yaw and pitch about a focus point, distance, pan) and its
// matrices. Header-only and free of OpenGL so that the viewer's headless test projects world
// points with exactly the matrices the renderer uses (tests/viewer). Rule R0: +Y up, characters
// face -Z; yaw 0 looks at the character's face (the camera sits on -Z of the focus).
#pragma once

#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace asterune::viewer {

struct OrbitCamera {
  glm::vec3 focus{0.0f, 2.5f, 0.0f};  // the point the camera orbits and looks at (studs)
  float yaw_deg = 35.0f;              // about +Y; 0: on the focus's -Z side, looking toward +Z
  float pitch_deg = 15.0f;            // above the horizon, in (-89, 89)
  float distance = 16.0f;             // studs from the focus
  float fov_y_deg = 45.0f;
  float near_plane = 0.1f;
  float far_plane = 1000.0f;
};

/// The camera's world position.
inline glm::vec3 camera_eye(const OrbitCamera& c) {
  const float yaw = glm::radians(c.yaw_deg), pitch = glm::radians(c.pitch_deg);
  const glm::vec3 back(std::sin(yaw) * std::cos(pitch), std::sin(pitch), -std::cos(yaw) * std::cos(pitch));
  return c.focus + c.distance * back;
}

inline glm::mat4 view_matrix(const OrbitCamera& c) {
  return glm::lookAt(camera_eye(c), c.focus, glm::vec3(0.0f, 1.0f, 0.0f));
}

inline glm::mat4 projection_matrix(const OrbitCamera& c, float aspect) {
  return glm::perspective(glm::radians(c.fov_y_deg), aspect, c.near_plane, c.far_plane);
}

/// The pixel (x right, y down from the top-left corner, pixel centres at .5) where `world`
/// lands in a width x height image; z is the depth in [0, 1] (outside: behind or clipped).
inline glm::vec3 project_to_pixel(const OrbitCamera& c, int width, int height, const glm::vec3& world) {
  const glm::vec4 clip = projection_matrix(c, static_cast<float>(width) / static_cast<float>(height)) *
                         view_matrix(c) * glm::vec4(world, 1.0f);
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  return {(ndc.x * 0.5f + 0.5f) * static_cast<float>(width), (0.5f - ndc.y * 0.5f) * static_cast<float>(height),
          ndc.z * 0.5f + 0.5f};
}

/// The world ray through pixel (x, y): origin at the eye, unit direction.
inline void pixel_ray(const OrbitCamera& c, int width, int height, float x, float y, glm::vec3& origin,
                      glm::vec3& direction) {
  const glm::mat4 inv =
      glm::inverse(projection_matrix(c, static_cast<float>(width) / static_cast<float>(height)) * view_matrix(c));
  const float nx = 2.0f * x / static_cast<float>(width) - 1.0f, ny = 1.0f - 2.0f * y / static_cast<float>(height);
  glm::vec4 a = inv * glm::vec4(nx, ny, -1.0f, 1.0f), b = inv * glm::vec4(nx, ny, 1.0f, 1.0f);
  a /= a.w;
  b /= b.w;
  origin = glm::vec3(a);
  direction = glm::normalize(glm::vec3(b - a));
}

/// Mouse edits: orbit by pixels dragged, pan in the view plane, zoom by wheel steps.
inline void orbit(OrbitCamera& c, float dx_px, float dy_px) {
  c.yaw_deg = std::fmod(c.yaw_deg - 0.3f * dx_px, 360.0f);
  c.pitch_deg = std::clamp(c.pitch_deg + 0.3f * dy_px, -89.0f, 89.0f);
}
inline void pan(OrbitCamera& c, float dx_px, float dy_px, int height) {
  const glm::mat4 v = view_matrix(c);
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
  const float studs_per_px = 2.0f * c.distance * std::tan(glm::radians(c.fov_y_deg) * 0.5f) / static_cast<float>(height);
  c.focus += studs_per_px * (-dx_px * right + dy_px * up);
}
inline void zoom(OrbitCamera& c, float wheel_steps) {
  c.distance = std::clamp(c.distance * std::pow(0.9f, wheel_steps), 1.0f, 500.0f);
}

/// The camera a scene opens with (and the headless screenshot uses): focused 2.5 studs above
/// the root's start position, seen from the character's front-left and a little above.
inline OrbitCamera default_camera(const glm::vec3& root_start) {
  OrbitCamera c;
  c.focus = glm::vec3(root_start.x, 2.5f, root_start.z);
  return c;
}

/// Follows a character's travel: the focus moves by the anchor's horizontal change from
/// `before` to `after` (the character's root placement on two frames), so the user's orbit,
/// zoom and pan stay as they were; a bob or a jump of the root does not shake the view.
/// A nonfinite anchor moves nothing.
inline void follow_travel(OrbitCamera& c, const glm::vec3& before, const glm::vec3& after) {
  const glm::vec3 d = after - before;
  if (std::isfinite(d.x) && std::isfinite(d.z)) c.focus += glm::vec3(d.x, 0.0f, d.z);
}

/// The camera for a crowd of `count` characters on a square grid `spacing` studs apart whose
/// first character starts at `root_start` (rows along +Z, columns along +X): the grid's middle,
/// far enough back to see it whole. One character: default_camera.
inline OrbitCamera crowd_camera(const glm::vec3& root_start, int count, float spacing) {
  OrbitCamera c = default_camera(root_start);
  if (count <= 1) return c;
  const float side = std::ceil(std::sqrt(static_cast<float>(count)));
  const float extent = (side - 1.0f) * spacing;
  c.focus += glm::vec3(0.5f * extent, 0.0f, 0.5f * extent);
  c.distance = std::max(c.distance, 1.3f * extent + 8.0f);
  c.pitch_deg = 30.0f;
  return c;
}

}  // namespace asterune::viewer
