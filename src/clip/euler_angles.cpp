// Euler angles in any Roblox RotationOrder (key_reduction.hpp): the CurveAnimation export's
// per-channel rotation curves and its reader.
#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/key_reduction.hpp"
#include "asterune/math/scalar.hpp"

namespace asterune {

namespace {
constexpr int kOrderAxes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
glm::vec3 unit_axis(int i) { return i == 0 ? glm::vec3(1, 0, 0) : i == 1 ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1); }
}  // namespace

glm::quat euler_rotation(const glm::vec3& angles, RotationOrder order) {
  const int* ax = kOrderAxes[static_cast<int>(order) % 6];
  glm::quat q(1.0f, 0.0f, 0.0f, 0.0f);
  for (int j = 0; j < 3; ++j) q = q * glm::angleAxis(angles[ax[j]], unit_axis(ax[j]));
  return q;
}

glm::vec3 euler_angles(const glm::quat& q, RotationOrder order, const glm::vec3& near) {
  // R = R_a(alpha) R_b(beta) R_c(gamma) (a, b, c the order's axes). For XYZ: R02 = sin beta,
  // R12 = -sin alpha cos beta, R22 = cos alpha cos beta, R01 = -cos beta sin gamma,
  // R00 = cos beta cos gamma; the other orders relabel the axes, with the signs flipped for the
  // odd permutations (e = +1 cyclic, -1 otherwise). glm's mat3 is column-major: R[r][c] = m[c][r].
  const int* ax = kOrderAxes[static_cast<int>(order) % 6];
  const int a = ax[0], b = ax[1], c = ax[2];
  const float e = (b == (a + 1) % 3) ? 1.0f : -1.0f;
  const glm::mat3 m = glm::mat3_cast(glm::normalize(q));
  auto R = [&](int r, int col) { return m[col][r]; };
  const float sb = std::clamp(e * R(a, c), -1.0f, 1.0f);
  const float beta = std::asin(sb);
  float alpha = 0.0f, gamma = 0.0f;
  if (std::fabs(sb) < 0.9999999f) {
    alpha = std::atan2(-e * R(b, c), R(c, c));
    gamma = std::atan2(-e * R(a, b), R(a, a));
  } else {  // gimbal lock: only alpha +- gamma is defined; keep gamma at its nearby value
    gamma = near[c];
    const glm::quat rest = q * glm::inverse(glm::angleAxis(beta, unit_axis(b)) * glm::angleAxis(gamma, unit_axis(c)));
    alpha = 2.0f * std::atan2(rest[a], rest.w);
  }
  constexpr float kTwoPi = 2.0f * kPi;
  auto wrap_near = [&](float v, float centre) { return v + kTwoPi * std::round((centre - v) / kTwoPi); };
  glm::vec3 best(0.0f);
  float best_d = -1.0f;
  for (int sol = 0; sol < 2; ++sol) {
    glm::vec3 cand(0.0f);
    cand[a] = sol == 0 ? alpha : alpha + kPi;
    cand[b] = sol == 0 ? beta : kPi - beta;
    cand[c] = sol == 0 ? gamma : gamma + kPi;
    for (int j = 0; j < 3; ++j) cand[j] = wrap_near(cand[j], near[j]);
    const float d = glm::dot(cand - near, cand - near);
    if (best_d < 0.0f || d < best_d) {
      best_d = d;
      best = cand;
    }
  }
  return best;
}

}  // namespace asterune
