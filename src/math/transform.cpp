#include "asterune/math/cframe.hpp"
#include "asterune/math/transform.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace asterune {

glm::quat slerp_shortest(const glm::quat& a, const glm::quat& b, float alpha) {
  if (alpha == 0.0f) return a;
  if (alpha == 1.0f) return b;
  glm::quat target = b;
  float cos_theta = glm::dot(a, b);
  if (cos_theta < 0.0f) {  // the two quaternions name the same rotation; take the short arc
    target = -b;
    cos_theta = -cos_theta;
  }
  glm::quat out;
  if (cos_theta > 0.9995f) {
    // Nearly parallel: normalized lerp avoids dividing by a tiny sin(theta).
    out = glm::quat(a.w + alpha * (target.w - a.w), a.x + alpha * (target.x - a.x),
                    a.y + alpha * (target.y - a.y), a.z + alpha * (target.z - a.z));
  } else {
    const float theta = std::acos(cos_theta);
    const float s = std::sin(theta);
    const float wa = std::sin((1.0f - alpha) * theta) / s;
    const float wb = std::sin(alpha * theta) / s;
    out = glm::quat(wa * a.w + wb * target.w, wa * a.x + wb * target.x, wa * a.y + wb * target.y,
                    wa * a.z + wb * target.z);
  }
  return glm::normalize(out);
}

Transform interpolate(const Transform& a, const Transform& b, float alpha) {
  Transform out;
  out.rotation = slerp_shortest(a.rotation, b.rotation, alpha);
  out.position = alpha == 1.0f ? b.position : a.position + alpha * (b.position - a.position);
  return out;
}

glm::mat3 rotation_matrix(const glm::quat& q) { return glm::mat3_cast(q); }

CFrameComponents to_cframe(const Transform& t) {
  const glm::mat3 m = glm::mat3_cast(t.rotation);
  CFrameComponents c{};
  c[0] = t.position.x;
  c[1] = t.position.y;
  c[2] = t.position.z;
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) c[3 + row * 3 + col] = m[col][row];
  return c;
}

Result<glm::quat> rotation_from_matrix(const glm::mat3& m, float tolerance) {
  for (int c = 0; c < 3; ++c)
    if (!is_finite(m[c])) return make_error("rotation matrix has a nonfinite value");
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const float d = glm::dot(m[i], m[j]) - (i == j ? 1.0f : 0.0f);
      if (std::fabs(d) > tolerance)
        return make_error("matrix is not a rotation: columns are not orthonormal (error " +
                          std::to_string(std::fabs(d)) + ")");
    }
  }
  const float det = glm::determinant(m);
  if (std::fabs(det - 1.0f) > tolerance)
    return make_error("matrix is not a rotation: determinant is " + std::to_string(det) + ", not +1");
  return glm::normalize(glm::quat_cast(m));
}

Result<Transform> from_cframe(const CFrameComponents& c, float tolerance) {
  for (float v : c)
    if (!std::isfinite(v)) return make_error("CFrame has a nonfinite component");
  glm::mat3 m;
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) m[col][row] = c[3 + row * 3 + col];
  auto q = rotation_from_matrix(m, tolerance);
  if (!q) return q.error();
  return Transform{q.value(), glm::vec3(c[0], c[1], c[2])};
}

std::optional<glm::quat> normalized_rotation(const glm::quat& q) {
  if (!is_finite(q)) return std::nullopt;
  const float len2 = glm::dot(q, q);
  if (!(len2 > 1e-12f) || !std::isfinite(len2)) return std::nullopt;
  return q * (1.0f / std::sqrt(len2));
}

glm::vec3 any_orthogonal(const glm::vec3& v) {
  // Cross with the world axis least aligned with v: well conditioned for every direction.
  const glm::vec3 a = std::fabs(v.x) < 0.57735f ? glm::vec3(1, 0, 0)
                      : std::fabs(v.y) < 0.57735f ? glm::vec3(0, 1, 0)
                                                  : glm::vec3(0, 0, 1);
  return glm::normalize(glm::cross(v, a));
}

float distance_between_wide(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 d = glm::dvec3(a) - glm::dvec3(b);
  const double len = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);  // at most ~1.2e39: fits a double
  return len > static_cast<double>(std::numeric_limits<float>::max()) ? std::numeric_limits<float>::max()
                                                                        : static_cast<float>(len);
}

float rotation_angle(const glm::quat& q) {
  const float w = std::fabs(q.w);
  const float s = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  return 2.0f * std::atan2(s, w);
}

}  // namespace asterune
