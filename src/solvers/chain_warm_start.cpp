// Warm starts of the positional chain solvers (see chain_warm_start.hpp).
#include "chain_warm_start.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/scalar.hpp"
#include "asterune/math/transform.hpp"
#include "point_chain_internal.hpp"

namespace asterune {

namespace detail {

void lay_straight(std::span<const glm::vec3> points, const glm::vec3& target, std::span<glm::vec3> out) {
  const glm::vec3 to = target - points[0];
  const float len = glm::length(to);
  glm::vec3 dir = len > kChainTiny ? to / len : glm::vec3(0.0f);
  if (dir == glm::vec3(0.0f)) {
    const glm::vec3 cur = points.back() - points[0];
    const float cl = glm::length(cur);
    dir = cl > kChainTiny ? cur / cl : glm::vec3(0.0f, 1.0f, 0.0f);
  }
  out[0] = points[0];
  for (std::size_t i = 0; i + 1 < points.size(); ++i) out[i + 1] = out[i] + segment_length(points, i) * dir;
}

bool arc_warm_start(std::span<const glm::vec3> points, const glm::vec3& target, const ChainGoal& goal,
                    std::span<glm::vec3> out) {
  const std::size_t n = points.size() - 1;
  const float total = chain_length(points);
  const glm::vec3 chain_vec = points[n] - points[0];
  const float chord_now = glm::length(chain_vec);
  if (n < 2 || !(total > kChainTiny) || chord_now < 0.9995f * total) return false;
  const glm::vec3 to_target = target - points[0];
  const float d = glm::length(to_target);
  if (!(d > kChainTiny) || d >= total) return false;
  const glm::vec3 u = to_target / d;

  // Bulge side v, orthogonal to u.
  glm::vec3 v(0.0f);
  if (goal.has_pole && is_finite(goal.pole)) {
    const glm::vec3 pv = goal.pole - points[0];
    const glm::vec3 perp = pv - glm::dot(pv, u) * u;
    if (glm::length(perp) > 1e-3f * glm::length(pv) + kChainTiny) v = glm::normalize(perp);
  }
  if (v == glm::vec3(0.0f)) {
    const glm::vec3 w = chain_vec / chord_now;
    const glm::vec3 perp = w - glm::dot(w, u) * u;
    v = glm::length(perp) > 1e-3f ? glm::normalize(perp) : any_orthogonal(u);
  }

  // Chord of the arc whose segment k points at angle -k*phi (2D, first segment along +x).
  const auto chord = [&](float phi, float& cx, float& cy) {
    const float c = std::cos(phi);
    const float s = std::sin(phi);
    float dx = 1.0f, dy = 0.0f;
    cx = cy = 0.0f;
    for (std::size_t k = 0; k < n; ++k) {
      const float len = segment_length(points, k);
      cx += len * dx;
      cy += len * dy;
      const float nx = dx * c + dy * s;  // turn by -phi
      dy = dy * c - dx * s;
      dx = nx;
    }
    return std::sqrt(cx * cx + cy * cy);
  };
  float lo = 0.0f;
  float hi = 2.0f * kPi / static_cast<float>(n);
  float cx = 0.0f, cy = 0.0f;
  if (chord(hi, cx, cy) < d) {
    for (int it = 0; it < 24; ++it) {
      const float mid = 0.5f * (lo + hi);
      if (chord(mid, cx, cy) > d) lo = mid; else hi = mid;
    }
  }
  const float phi = hi;
  chord(phi, cx, cy);
  const float first = -std::atan2(cy, cx);  // first segment's angle from the chord, toward v
  out[0] = points[0];
  for (std::size_t k = 0; k < n; ++k) {
    const float a = first - static_cast<float>(k) * phi;
    out[k + 1] = out[k] + segment_length(points, k) * (std::cos(a) * u + std::sin(a) * v);
  }
  return true;
}

// Warm start for a free chain: scales every joint's bend angle (about its own world bend axis
// in the input shape) by one factor lambda so that the chain's chord equals the target
// distance. lambda > 1 bends a chain that must come closer, lambda < 1 straightens one that
// must reach farther; the shape's bend planes and proportions are kept. `scratch` (n entries)
// holds (angle, axis) per joint. CCD sweeps then only need to correct the direction and the
// residual non-planarity.
bool scale_bends(std::span<const glm::vec3> points, const glm::vec3& target, std::span<glm::vec3> out,
                 std::span<glm::quat> scratch, bool fold_as_far_as_possible) {
  const std::size_t n = scratch.size();
  const float d = glm::length(target - points[0]);
  float max_angle = 0.0f;
  glm::vec3 prev = points[1] - points[0];
  const float l0 = glm::length(prev);
  if (!(l0 > kChainTiny)) return false;
  prev /= l0;
  const glm::vec3 first = prev;
  scratch[0] = glm::quat(0.0f, 0.0f, 0.0f, 0.0f);
  for (std::size_t i = 1; i < n; ++i) {
    const glm::vec3 seg = points[i + 1] - points[i];
    const float len = glm::length(seg);
    glm::vec3 dir = len > kChainTiny ? seg / len : prev;
    const glm::vec3 c = glm::cross(prev, dir);
    const float s = glm::length(c);
    const float angle = std::atan2(s, glm::dot(prev, dir));
    const glm::vec3 axis = s > 1e-9f ? c / s : glm::vec3(0.0f);
    scratch[i] = glm::quat(angle, axis.x, axis.y, axis.z);
    max_angle = std::max(max_angle, angle);
    prev = dir;
  }
  if (!(max_angle > 1e-4f)) return false;
  const auto build = [&](float lambda) {
    glm::vec3 dir = first;
    out[0] = points[0];
    out[1] = points[0] + l0 * dir;
    for (std::size_t i = 1; i < n; ++i) {
      const glm::quat& e = scratch[i];
      const float h = 0.5f * lambda * e.w;
      const float sh = std::sin(h);
      const glm::quat r(std::cos(h), sh * e.x, sh * e.y, sh * e.z);
      dir = r * dir;
      out[i + 1] = out[i] + segment_length(points, i) * dir;
    }
    return glm::length(out[n] - out[0]);
  };
  const float now = glm::length(points[n] - points[0]);
  float lo = 0.0f, hi = 1.0f;
  if (now > d) {
    lo = 1.0f;
    hi = kPi / max_angle;
    if (build(hi) > d) {  // cannot fold that far by scaling
      if (fold_as_far_as_possible) return true;
      for (std::size_t i = 0; i <= n; ++i) out[i] = points[i];
      return false;
    }
  }
  // Bisection on chord(lambda) = d (chord(lo) > d > chord(hi)).
  for (int it = 0; it < 14; ++it) {
    const float mid = 0.5f * (lo + hi);
    if (build(mid) > d) lo = mid; else hi = mid;
  }
  build(0.5f * (lo + hi));
  return true;
}


void aim_about_root(std::span<glm::vec3> out, const glm::vec3& target) {
  const glm::vec3 e = out.back() - out[0];
  const glm::vec3 t = target - out[0];
  const float el = glm::length(e);
  const float tl = glm::length(t);
  if (!(el > kChainTiny) || !(tl > kChainTiny)) return;
  const glm::quat turn = rotation_between(e / el, t / tl);
  for (std::size_t j = 1; j < out.size(); ++j) out[j] = out[0] + turn * (out[j] - out[0]);
}

}  // namespace detail

}  // namespace asterune
