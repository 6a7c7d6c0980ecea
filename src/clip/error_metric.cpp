#include "asterune/clip/error_metric.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

namespace asterune {

VirtualVertices make_virtual_vertices(const Rig& rig, float min_size) {
  VirtualVertices v;
  const int n = rig.joint_count();
  v.begin.reserve(static_cast<size_t>(n) + 1);
  v.begin.push_back(0);
  for (int j = 0; j < n; ++j) {
    const glm::vec3 size = rig.part(rig.part1()[static_cast<size_t>(j)]).size;
    const glm::vec3 half = 0.5f * glm::abs(size);
    if (std::max({std::fabs(size.x), std::fabs(size.y), std::fabs(size.z)}) < min_size) {
      // Too small for its corners to show a turn: points min_size from the pivot, which is the
      // origin of C1 in the part (child = P * C0 * T * inverse(C1)).
      const glm::vec3 pivot = rig.c1()[static_cast<size_t>(j)].position;
      for (int axis = 0; axis < 3; ++axis) {
        for (float sign : {-1.0f, 1.0f}) {
          glm::vec3 p = pivot;
          p[axis] += sign * min_size;
          v.points.push_back(p);
        }
      }
    } else {
      for (int corner = 0; corner < 8; ++corner)
        v.points.emplace_back((corner & 1) ? half.x : -half.x, (corner & 2) ? half.y : -half.y,
                              (corner & 4) ? half.z : -half.z);
    }
    v.begin.push_back(static_cast<std::uint32_t>(v.points.size()));
  }
  return v;
}

VertexErrorScratch make_vertex_error_scratch(const Rig& rig) {
  const size_t n = static_cast<size_t>(rig.joint_count());
  VertexErrorScratch s;
  s.exact_local.resize(n);
  s.approx_local.resize(n);
  s.exact_world.resize(n);
  s.approx_world.resize(n);
  return s;
}

namespace {

bool sized_for(const Rig& rig, const VirtualVertices& vertices, const VertexErrorScratch& scratch) {
  const size_t n = static_cast<size_t>(rig.joint_count());
  return vertices.begin.size() == n + 1 && vertices.begin.back() == vertices.points.size() &&
         scratch.exact_local.size() == n && scratch.approx_local.size() == n && scratch.exact_world.size() == n &&
         scratch.approx_world.size() == n;
}

// Both poses placed in rig space, every point compared; `best` keeps the first largest (rule P7).
// A nonfinite distance counts as +inf and is flagged: the measure is never fooled by a NaN.
void measure(const Rig& rig, const VirtualVertices& vertices, std::span<const Transform> exact,
             std::span<const Transform> approx, float frame, VertexErrorScratch& s, VertexError& best) {
  evaluate_world(rig, Transform{}, exact, s.exact_world);
  evaluate_world(rig, Transform{}, approx, s.approx_world);
  const size_t n = s.exact_world.size();
  for (size_t j = 0; j < n; ++j) {
    const Transform& e = s.exact_world[j];
    const Transform& a = s.approx_world[j];
    float worst = 0.0f;
    bool bad = false;
    for (std::uint32_t k = vertices.begin[j]; k < vertices.begin[j + 1]; ++k) {
      const glm::vec3& p = vertices.points[k];
      const float d = glm::length(transform_point(e, p) - transform_point(a, p));
      if (!std::isfinite(d)) bad = true;
      else worst = std::max(worst, d);
    }
    if (bad) {
      if (!best.nonfinite) {
        best = VertexError{std::numeric_limits<float>::infinity(), frame, static_cast<int>(j), true};
      }
      continue;
    }
    if (!best.nonfinite && (best.joint < 0 || worst > best.distance))
      best = VertexError{worst, frame, static_cast<int>(j), false};
  }
}

// Locals at `alpha` between two frames, as a clip of linear keys plays them.
void between(std::span<const Transform> a, std::span<const Transform> b, float alpha, std::span<Transform> out) {
  for (size_t j = 0; j < out.size(); ++j) {
    out[j].rotation = nlerp_or_slerp(a[j].rotation, b[j].rotation, alpha);
    out[j].position = a[j].position + (b[j].position - a[j].position) * alpha;
  }
}

}  // namespace

bool pose_vertex_error(const Rig& rig, const VirtualVertices& vertices, std::span<const Transform> exact_local,
                       std::span<const Transform> approx_local, VertexErrorScratch& scratch, VertexError& out) {
  const size_t n = static_cast<size_t>(rig.joint_count());
  if (!sized_for(rig, vertices, scratch) || exact_local.size() != n || approx_local.size() != n) return false;
  VertexError best;
  measure(rig, vertices, exact_local, approx_local, 0.0f, scratch, best);
  out = best;
  return true;
}

bool frames_vertex_error(const Rig& rig, const VirtualVertices& vertices, std::span<const Transform> exact,
                         std::span<const Transform> approx, VertexErrorScratch& scratch, VertexError& out) {
  const size_t n = static_cast<size_t>(rig.joint_count());
  if (!sized_for(rig, vertices, scratch) || exact.size() != approx.size() || (n == 0 && !exact.empty()) ||
      (n > 0 && exact.size() % n != 0))
    return false;
  const size_t frames = n > 0 ? exact.size() / n : 0;
  VertexError best;
  for (size_t f = 0; f < frames; ++f) {
    const std::span<const Transform> e0 = exact.subspan(f * n, n), a0 = approx.subspan(f * n, n);
    measure(rig, vertices, e0, a0, static_cast<float>(f), scratch, best);
    if (f + 1 == frames) break;
    const std::span<const Transform> e1 = exact.subspan((f + 1) * n, n), a1 = approx.subspan((f + 1) * n, n);
    for (int q = 1; q < 4; ++q) {
      const float alpha = 0.25f * static_cast<float>(q);
      between(e0, e1, alpha, scratch.exact_local);
      between(a0, a1, alpha, scratch.approx_local);
      measure(rig, vertices, scratch.exact_local, scratch.approx_local, static_cast<float>(f) + alpha, scratch, best);
    }
  }
  out = best;
  return true;
}

}  // namespace asterune
