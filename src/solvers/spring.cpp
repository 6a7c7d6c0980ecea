// Spring chains (rules S1-S7): substep plan, semi-implicit Euler step, length constraint,
// collider push-out and the per-frame chain step. See include/asterune/solvers/spring.hpp.
#include "asterune/solvers/spring.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/transform.hpp"

namespace asterune {

SpringSubsteps spring_substeps(float dt) {
  SpringSubsteps plan;
  if (!(dt > 0.0f)) return plan;  // zero, negative, NaN: hold still
  const float clamped = std::min(dt, kSpringMaxFrameTime);
  // In double with a relative slack of 1e-5, so a float dt such as 1/60 (0.016666668), or a
  // scene's 0.0166667, is 4 substeps as meant, not 5.
  const double steps = std::ceil(static_cast<double>(clamped) * kSpringSubstepRate * (1.0 - 1e-5));
  plan.count = std::clamp(static_cast<int>(steps), 1, kSpringMaxSubsteps);
  plan.dt = clamped;
  plan.h = clamped / static_cast<float>(plan.count);
  return plan;
}

namespace {

// The bodies of spring_integrate and spring_keep_length, inline for the substep loop (which
// runs them for every point of every substep).
inline void integrate(glm::vec3& point, glm::vec3& velocity, const glm::vec3& target, const SpringParams& params,
                      float h) {
  const glm::vec3 a = params.stiffness * (target - point) - params.damping * velocity + params.gravity;
  velocity += h * a;
  point += h * velocity;
}

inline glm::vec3 keep_length(const glm::vec3& pivot, const glm::vec3& point, float length, const glm::vec3& fallback) {
  const glm::vec3 d = point - pivot;
  const float l = glm::length(d);
  if (l > 1e-12f && std::isfinite(l)) [[likely]] return pivot + d * (length / l);
  const float lf = glm::length(fallback);
  return pivot + (lf > 1e-12f && std::isfinite(lf) ? fallback / lf : glm::vec3(0.0f, 1.0f, 0.0f)) * length;
}

}  // namespace

void spring_integrate(glm::vec3& point, glm::vec3& velocity, const glm::vec3& target, const SpringParams& params,
                      float h) {
  integrate(point, velocity, target, params, h);
}

glm::vec3 spring_keep_length(const glm::vec3& pivot, const glm::vec3& point, float length, const glm::vec3& fallback) {
  return keep_length(pivot, point, length, fallback);
}

namespace {

glm::vec3 closest_on_segment(const glm::vec3& a, const glm::vec3& b, const glm::vec3& p) {
  const glm::vec3 ab = b - a;
  const float l2 = glm::dot(ab, ab);
  if (!(l2 > 1e-12f)) return a;
  const float t = std::clamp(glm::dot(p - a, ab) / l2, 0.0f, 1.0f);
  return a + t * ab;
}

// The point on the circle {|y - pivot| = length, |y - centre| = radius} nearest to `point`
// (which is inside the sphere): the circle's points are those at the angle theta from the
// pivot->centre axis given by the law of cosines; points at a larger angle are farther from
// the centre, so `point` (at a smaller angle) moves out to theta in its own half-plane.
glm::vec3 push_out_of_sphere(const glm::vec3& pivot, float length, const glm::vec3& point, const glm::vec3& centre,
                             float radius) {
  const glm::vec3 rel = point - centre;
  if (glm::dot(rel, rel) >= radius * radius) return point;
  // A hair beyond the surface, so rounding never leaves the result inside.
  const float r = radius * (1.0f + 1e-6f) + 1e-6f;
  const glm::vec3 axis = centre - pivot;
  const float d = glm::length(axis);
  if (!(d > 1e-9f) || !(length > 0.0f)) return point;  // pivot at the centre: every direction is as good
  const glm::vec3 e = axis / d;
  const float cos_theta = (length * length + d * d - r * r) / (2.0f * length * d);
  if (cos_theta <= -1.0f) return pivot - e * length;  // no point at this length is outside: the farthest one
  if (cos_theta >= 1.0f) return point;
  const glm::vec3 from_pivot = point - pivot;
  glm::vec3 u = from_pivot - e * glm::dot(from_pivot, e);
  const float lu = glm::length(u);
  u = lu > 1e-9f ? u / lu : any_orthogonal(e);
  const float sin_theta = std::sqrt(std::max(0.0f, 1.0f - cos_theta * cos_theta));
  return pivot + length * (cos_theta * e + sin_theta * u);
}

}  // namespace

float spring_shape_distance(const glm::vec3& point, const SpringShape& shape) {
  const glm::vec3 c = shape.capsule ? closest_on_segment(shape.a, shape.b, point) : shape.a;
  return glm::length(point - c) - shape.radius;
}

glm::vec3 spring_push_out(const glm::vec3& pivot, float length, const glm::vec3& point, const SpringShape& shape) {
  if (!shape.capsule) return push_out_of_sphere(pivot, length, point, shape.a, shape.radius);
  // Capsule: the sphere about the nearest axis point; moving along the circle can bring another
  // axis point nearer, so repeat (each round only moves the point outward).
  glm::vec3 p = point;
  for (int round = 0; round < 4; ++round) {
    const glm::vec3 c = closest_on_segment(shape.a, shape.b, p);
    if (glm::dot(p - c, p - c) >= shape.radius * shape.radius) break;
    p = push_out_of_sphere(pivot, length, p, c, shape.radius);
  }
  return p;
}

namespace {

bool usable(const SpringChainFrame& f, size_t n) {
  if (f.targets_from.size() != n || f.targets_to.size() != n || f.lengths.size() != n ||
      f.shapes_from.size() != f.shapes_to.size())
    return false;
  if (!is_finite(f.root_from) || !is_finite(f.root_to)) return false;
  for (size_t k = 0; k < n; ++k) {
    if (!is_finite(f.targets_from[k]) || !is_finite(f.targets_to[k])) return false;
    if (!(f.lengths[k] > 0.0f) || !std::isfinite(f.lengths[k])) return false;
  }
  for (size_t c = 0; c < f.shapes_to.size(); ++c)
    for (const SpringShape* s : {&f.shapes_from[c], &f.shapes_to[c]})
      if (!is_finite(s->a) || !is_finite(s->b) || !(s->radius >= 0.0f) || !std::isfinite(s->radius)) return false;
  return true;
}

// Rule S6: nonfinite state, or an endpoint more than 8 segment lengths from its target.
bool needs_reset(const SpringChainFrame& f, std::span<const glm::vec3> points, std::span<const glm::vec3> velocities) {
  for (size_t k = 0; k < points.size(); ++k) {
    if (!is_finite(points[k]) || !is_finite(velocities[k])) return true;
    const float limit = kSpringResetLengths * f.lengths[k];
    const glm::vec3 off = points[k] - f.targets_to[k];
    if (glm::dot(off, off) > limit * limit) return true;
  }
  return false;
}

void reset_to_targets(const SpringChainFrame& f, std::span<glm::vec3> points, std::span<glm::vec3> velocities) {
  for (size_t k = 0; k < points.size(); ++k) {
    points[k] = f.targets_to[k];
    velocities[k] = glm::vec3(0.0f);
  }
}

SpringShape lerp_shape(const SpringShape& a, const SpringShape& b, float s) {
  SpringShape r = b;
  r.a = a.a + (b.a - a.a) * s;
  r.b = a.b + (b.b - a.b) * s;
  r.radius = a.radius + (b.radius - a.radius) * s;
  return r;
}

}  // namespace

SpringStepReport step_spring_chain(const SpringParams& params, const SpringChainFrame& frame,
                                   const SpringSubsteps& substeps, std::span<glm::vec3> points,
                                   std::span<glm::vec3> velocities) {
  SpringStepReport report;
  const size_t n = points.size();
  if (velocities.size() != n || !usable(frame, n)) return report;
  report.ok = true;
  report.substeps = substeps.count;

  // S6 before stepping: a teleport (or stale state) snaps the chain onto this frame's targets;
  // the frame ends there (the chain starts again at this frame's time, as on a first frame).
  if (needs_reset(frame, points, velocities)) {
    reset_to_targets(frame, points, velocities);
    report.resets = 1;
    report.substeps = 0;
    return report;
  }

  const size_t shapes = frame.shapes_to.size();
  const float h = substeps.h;
  if (substeps.count > 0 && h > 0.0f) {
    for (int i = 1; i <= substeps.count; ++i) {
      // Animated inputs move linearly across the frame's substeps (frame-rate independence).
      const float s = static_cast<float>(i) / static_cast<float>(substeps.count);
      glm::vec3 pivot = frame.root_from + (frame.root_to - frame.root_from) * s;
      for (size_t k = 0; k < n; ++k) {
        const glm::vec3 target = frame.targets_from[k] + (frame.targets_to[k] - frame.targets_from[k]) * s;
        const float length = frame.lengths[k];
        const glm::vec3 start = points[k];
        glm::vec3 x = start;
        glm::vec3 v = velocities[k];
        integrate(x, v, target, params, h);
        x = keep_length(pivot, x, length, target - pivot);
        // S7: out of every collider, along the circle of points at this length (so the point
        // is back at its length as it leaves). Two rounds for overlapping colliders.
        for (int round = 0; round < (shapes > 1 ? 2 : 1); ++round)
          for (size_t c = 0; c < shapes; ++c)
            x = spring_push_out(pivot, length, x, lerp_shape(frame.shapes_from[c], frame.shapes_to[c], s));
        velocities[k] = (x - start) / h;
        points[k] = x;
        pivot = x;
      }
    }
  }

  // S6 after stepping: nothing nonfinite is ever retained.
  for (size_t k = 0; k < n; ++k) {
    if (!is_finite(points[k]) || !is_finite(velocities[k])) {
      reset_to_targets(frame, points, velocities);
      ++report.resets;
      break;
    }
  }
  return report;
}

}  // namespace asterune
