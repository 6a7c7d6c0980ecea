// Chain fixtures and independent checks shared by the FABRIK and CCD tests.
#pragma once

#include <array>
#include <cmath>
#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "support/math.hpp"

namespace asterune::test {

/// A gently zig-zagging chain of `N` segments along +X with decreasing lengths.
template <std::size_t N>
std::array<glm::vec3, N + 1> zigzag_chain() {
  std::array<glm::vec3, N + 1> p{};
  p[0] = {0.0f, 1.0f, 0.0f};
  for (std::size_t i = 0; i < N; ++i) {
    const float len = 1.0f - 0.1f * static_cast<float>(i);
    const float up = (i % 2 == 0) ? 0.15f : -0.1f;
    p[i + 1] = p[i] + len * glm::normalize(glm::vec3(1.0f, up, 0.05f * static_cast<float>(i)));
  }
  return p;
}

inline float seg_len(std::span<const glm::vec3> p, std::size_t i) { return glm::length(p[i + 1] - p[i]); }

/// Max |length change| over all segments.
inline float max_length_error(std::span<const glm::vec3> before, std::span<const glm::vec3> after) {
  float e = 0.0f;
  for (std::size_t i = 0; i + 1 < before.size(); ++i) e = std::fmax(e, std::fabs(seg_len(before, i) - seg_len(after, i)));
  return e;
}

/// Rebuilds the solved points from the deltas by the documented convention (point_chain.hpp):
/// A_i = deltas[i] * A_{i-1}; segment i becomes A_i * (before[i+1] - before[i]). Returns the
/// largest distance between rebuilt and solved points.
inline float delta_rebuild_error(std::span<const glm::vec3> before, std::span<const glm::vec3> after,
                                 std::span<const glm::quat> deltas) {
  glm::quat acc(1.0f, 0.0f, 0.0f, 0.0f);
  glm::vec3 p = before[0];
  float err = glm::length(after[0] - p);
  for (std::size_t i = 0; i < deltas.size(); ++i) {
    acc = deltas[i] * acc;
    p += acc * (before[i + 1] - before[i]);
    err = std::fmax(err, glm::length(after[i + 1] - p));
  }
  return err;
}

}  // namespace asterune::test

namespace asterune::test {

/// A perfectly straight chain along +X (a T-pose arm): the case where plain FABRIK and CCD
/// stall, since every point already lies on one line.
template <std::size_t N>
std::array<glm::vec3, N + 1> straight_chain() {
  std::array<glm::vec3, N + 1> p{};
  p[0] = {0.0f, 1.0f, 0.0f};
  for (std::size_t i = 0; i < N; ++i) p[i + 1] = p[i] + glm::vec3(1.0f - 0.1f * static_cast<float>(i), 0.0f, 0.0f);
  return p;
}

}  // namespace asterune::test
