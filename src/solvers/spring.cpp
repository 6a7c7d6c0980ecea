// Spring chains (rules S1-S9): the clock's steps, the exact step, the inputs' curve across a
// frame, length constraint, collider push-out and the per-frame chain step. See
// include/asterune/solvers/spring.hpp.
#include "asterune/solvers/spring.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/transform.hpp"

namespace asterune {

SpringSubsteps spring_substeps(float dt, float lag) {
  SpringSubsteps plan;
  const float kept = std::isfinite(lag) ? std::clamp(lag, 0.0f, kSpringStep) : 0.0f;
  plan.lag_before = kept;
  plan.lag_after = kept;
  if (!(dt > 0.0f)) return plan;  // zero, negative, NaN: the clock does not move
  const float clamped = std::min(dt, kSpringMaxFrameTime);
  // In double with a relative slack of 1e-5, so a float dt such as 1/60 (0.016666668), or a
  // scene's 0.0166667, is 4 whole steps with nothing (rather than a step less a hair) carried.
  const double owed = (static_cast<double>(kept) + static_cast<double>(clamped)) * kSpringSubstepRate;
  const double whole = std::floor(owed * (1.0 + 1e-5));
  plan.count = std::clamp(static_cast<int>(whole), 0, kSpringMaxSubsteps);
  plan.dt = clamped;
  plan.h = kSpringStep;
  // The same slack above a whole number: 1/60 in float (0.016666668 s) owes 4.0000003 steps,
  // and the 1.3e-9 s past the fourth is not carried (a carried lag costs a second propagator,
  // the exponential in double, every frame, for a step of nothing).
  const double rest = owed - static_cast<double>(plan.count);
  plan.lag_after = rest <= 1e-5 * owed ? 0.0f
                                       : static_cast<float>(std::clamp(rest / kSpringSubstepRate, 0.0,
                                                                       static_cast<double>(kSpringStep)));
  return plan;
}

SpringCurveAt spring_curve_at(float s, float dt, float prior_dt) {
  SpringCurveAt w;
  w.along = s;
  // No prior frame, or a frame much longer than it (a hitch after a short frame, where the
  // parabola would amplify the prior frame's noise by dt / prior_dt): the straight line.
  if (!(prior_dt > 0.0f) || !(dt > 0.0f) || !(dt <= kSpringCurveMaxRatio * prior_dt)) return w;
  // Newton's form of the parabola through (-prior_dt, P), (0, F), (dt, T) at t = s dt:
  //   F + s (T - F) - s (1 - s) dt^2 / (prior_dt + dt) ((T - F) / dt - (F - P) / prior_dt).
  const float c = s * (1.0f - s) * dt / (prior_dt + dt);
  w.along = s - c;
  w.bend = c * (dt / prior_dt);
  return w;
}

SpringPropagator spring_propagator(const SpringParams& params, float h) {
  SpringPropagator p;
  p.h = h;
  if (!(h > 0.0f)) return p;  // no time: the identity, no target motion to follow
  // State (z, v, f, q) with z = x - T0, f(t) = gravity + stiffness dT t / h, q = stiffness dT / h:
  //   z' = v,  v' = -k z - c v + f,  f' = q,  q' = 0   =>   (z, v, f, q)(h) = exp(M h) (z, v, g, q)(0).
  // exp by scaling and squaring of a Taylor series, in double: deterministic, any k, c, h.
  const double k = params.stiffness, c = params.damping, dh = h;
  double m[4][4] = {{0, dh, 0, 0}, {-k * dh, -c * dh, dh, 0}, {0, 0, 0, dh}, {0, 0, 0, 0}};
  double norm = 0.0;
  for (const auto& row : m) norm = std::max(norm, std::fabs(row[0]) + std::fabs(row[1]) + std::fabs(row[2]) + std::fabs(row[3]));
  int squarings = 0;
  while (norm > 0.25 && squarings < 40) {
    norm *= 0.5;
    ++squarings;
  }
  const double scale = std::ldexp(1.0, -squarings);
  for (auto& row : m)
    for (double& e : row) e *= scale;
  double e[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  double term[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  double next[4][4];
  for (int n = 1; n <= 14; ++n) {  // |M h / 2^s| <= 0.25: the 15th term is below 1e-22
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double sum = 0.0;
        for (int l = 0; l < 4; ++l) sum += term[i][l] * m[l][j];
        next[i][j] = sum / n;
      }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        term[i][j] = next[i][j];
        e[i][j] += term[i][j];
      }
  }
  for (int r = 0; r < squarings; ++r) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double sum = 0.0;
        for (int l = 0; l < 4; ++l) sum += e[i][l] * e[l][j];
        next[i][j] = sum;
      }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) e[i][j] = next[i][j];
  }
  // q = stiffness dT / h: fold the 1/h into the coefficient, so dT enters as it is.
  p.xz = static_cast<float>(e[0][0]);
  p.xv = static_cast<float>(e[0][1]);
  p.xg = static_cast<float>(e[0][2]);
  p.xd = static_cast<float>(e[0][3] / dh);
  p.vz = static_cast<float>(e[1][0]);
  p.vv = static_cast<float>(e[1][1]);
  p.vg = static_cast<float>(e[1][2]);
  p.vd = static_cast<float>(e[1][3] / dh);
  return p;
}

namespace {

// The bodies of spring_integrate and spring_keep_length, inline for the step loop (which runs
// them for every point of every step). The gravity terms (p.xg * gravity, p.vg * gravity) are
// the same for every point of a step, so the loop takes them once (StepTerms).
struct StepTerms {
  float stiffness;
  glm::vec3 xg_gravity;
  glm::vec3 vg_gravity;
};

inline StepTerms step_terms(const SpringParams& params, const SpringPropagator& p) {
  return {params.stiffness, p.xg * params.gravity, p.vg * params.gravity};
}

inline void integrate(glm::vec3& point, glm::vec3& velocity, const glm::vec3& target_from, const glm::vec3& target_to,
                      const StepTerms& t, const SpringPropagator& p) {
  // Relative to the target at the step's start, so world coordinates far from the origin keep
  // their precision.
  const glm::vec3 z = point - target_from;
  const glm::vec3 d = t.stiffness * (target_to - target_from);
  const glm::vec3 v = velocity;
  point = target_from + (p.xz * z + p.xv * v + t.xg_gravity + p.xd * d);
  velocity = p.vz * z + p.vv * v + t.vg_gravity + p.vd * d;
}

inline glm::vec3 keep_length(const glm::vec3& pivot, const glm::vec3& point, float length, const glm::vec3& fallback) {
  const glm::vec3 d = point - pivot;
  const float l = glm::length(d);
  if (l > 1e-12f && std::isfinite(l)) [[likely]] return pivot + d * (length / l);
  const float lf = glm::length(fallback);
  return pivot + (lf > 1e-12f && std::isfinite(lf) ? fallback / lf : glm::vec3(0.0f, 1.0f, 0.0f)) * length;
}

}  // namespace

void spring_integrate(glm::vec3& point, glm::vec3& velocity, const glm::vec3& target_from, const glm::vec3& target_to,
                      const SpringParams& params, const SpringPropagator& step) {
  integrate(point, velocity, target_from, target_to, step_terms(params, step), step);
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
  // The prior frame (rule S9): prior_dt <= 0 means there is none; NaN or infinity is refused.
  if (std::isnan(f.prior_dt)) return false;
  if (!(f.prior_dt > 0.0f)) return true;
  if (!std::isfinite(f.prior_dt) || f.targets_prior.size() != n || f.shapes_prior.size() != f.shapes_to.size() ||
      !is_finite(f.root_prior))
    return false;
  for (size_t k = 0; k < n; ++k)
    if (!is_finite(f.targets_prior[k])) return false;
  for (const SpringShape& s : f.shapes_prior)
    if (!is_finite(s.a) || !is_finite(s.b)) return false;
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

void reset_to_targets(const SpringChainFrame& f, SpringChainState& state) {
  spring_start(state, f.root_to, f.targets_to);
}

// An input `s` of the way through the frame (rule S9). Relative to the previous frame's value,
// so coordinates far from the origin keep their precision; with bend 0 (no prior frame) this is
// from + s (to - from), and `prior` is not read.
inline glm::vec3 on_curve(const glm::vec3& prior, const glm::vec3& from, const glm::vec3& to, const SpringCurveAt& w) {
  if (w.bend == 0.0f) return from + (to - from) * w.along;
  return from + (to - from) * w.along + (from - prior) * w.bend;
}

// Where the curve is used, the prior frame's spans are present (usable() checked their sizes).
const glm::vec3& prior_target(const SpringChainFrame& f, size_t k) {
  return f.targets_prior.empty() ? f.targets_from[k] : f.targets_prior[k];
}

SpringShape shape_at(const SpringChainFrame& f, size_t c, float s, const SpringCurveAt& w) {
  const SpringShape& a = f.shapes_from[c];
  const SpringShape& b = f.shapes_to[c];
  const SpringShape& prior = f.shapes_prior.empty() ? a : f.shapes_prior[c];
  SpringShape r = b;
  r.a = on_curve(prior.a, a.a, b.a, w);
  if (b.capsule) r.b = on_curve(prior.b, a.b, b.b, w);  // a sphere reads only `a`
  r.radius = a.radius + (b.radius - a.radius) * s;
  return r;
}

// One step of the chain from the inputs at the clock's time (state.root, state.targets) to the
// inputs `s` of the way through the frame (at `w` on the curve): the exact spring step per
// point, then its length and the colliders there. The points go to `out`, and the velocities to
// `velocities_out` unless it is empty (the shown pose keeps no velocity). `advance`: the step
// is the clock's, and state.root and state.targets move to the inputs it ends at (each read
// before it is written).
void step_chain(const SpringParams& params, const SpringChainFrame& f, const SpringPropagator& p, float s,
                const SpringCurveAt& w, SpringChainState& state, std::span<glm::vec3> out,
                std::span<glm::vec3> velocities_out, bool advance) {
  const size_t n = state.points.size();
  const size_t shapes = f.shapes_to.size();
  const float h = p.h;
  const glm::vec3 root_b = on_curve(f.root_prior, f.root_from, f.root_to, w);
  glm::vec3 pivot = root_b;
  glm::vec3 pivot_velocity = (root_b - state.root) / h;
  if (advance) state.root = root_b;
  const StepTerms terms = step_terms(params, p);
  for (size_t k = 0; k < n; ++k) {
    const glm::vec3 target = on_curve(prior_target(f, k), f.targets_from[k], f.targets_to[k], w);
    const float length = f.lengths[k];
    const glm::vec3 start = state.points[k];
    glm::vec3 x = start;
    glm::vec3 v = state.velocities[k];
    integrate(x, v, state.targets[k], target, terms, p);
    if (advance) state.targets[k] = target;
    x = keep_length(pivot, x, length, target - pivot);
    // S7: out of every collider, along the circle of points at this length (so the point is
    // back at its length as it leaves). Two rounds for overlapping colliders.
    const glm::vec3 free = x;
    for (int round = 0; round < (shapes > 1 ? 2 : 1); ++round)
      for (size_t c = 0; c < shapes; ++c) x = spring_push_out(pivot, length, x, shape_at(f, c, s, w));
    if (!velocities_out.empty()) {
      if (x != free) {
        v = (x - start) / h;  // a collider moved it: the velocity the contact leaves
      } else {
        // The length constraint: no velocity along the segment relative to its pivot.
        const glm::vec3 axis = (x - pivot) / length;
        v -= axis * glm::dot(v - pivot_velocity, axis);
      }
      velocities_out[k] = v;
    }
    out[k] = x;
    pivot = x;
    pivot_velocity = v;
  }
}

}  // namespace

void spring_start(SpringChainState& state, const glm::vec3& root, std::span<const glm::vec3> targets) {
  for (size_t k = 0; k < state.points.size(); ++k) {
    state.points[k] = targets[k];
    state.velocities[k] = glm::vec3(0.0f);
    state.targets[k] = targets[k];
  }
  state.root = root;
  state.lag = 0.0f;
}

SpringStepReport step_spring_chain(const SpringParams& params, const SpringChainFrame& frame, float dt,
                                   SpringChainState& state, std::span<glm::vec3> shown) {
  SpringStepReport report;
  const size_t n = state.points.size();
  if (state.velocities.size() != n || state.targets.size() != n || shown.size() != n || !usable(frame, n))
    return report;
  report.ok = true;

  // S6 before stepping: a teleport (or stale state) snaps the chain onto this frame's targets;
  // the frame ends there (the chain starts again at this frame's time, as on a first frame).
  if (needs_reset(frame, state.points, state.velocities) || !is_finite(state.root)) {
    reset_to_targets(frame, state);
    std::copy(frame.targets_to.begin(), frame.targets_to.end(), shown.begin());
    report.resets = 1;
    return report;
  }

  // S8: whole steps of the clock; a step ending (m h - lag) into the frame sees the inputs at
  // s = that / dt of the way from the previous frame's to this one's, on the curve of S9.
  const SpringSubsteps plan = spring_substeps(dt, state.lag);
  const float prior_dt = frame.prior_dt > 0.0f ? frame.prior_dt : 0.0f;

  report.substeps = plan.count;
  if (plan.count > 0) {
    const SpringPropagator p =
        frame.step != nullptr && frame.step->h == plan.h ? *frame.step : spring_propagator(params, plan.h);
    for (int m = 1; m <= plan.count; ++m) {
      const float into = static_cast<float>(m) * plan.h - plan.lag_before;
      const float s = std::clamp(into / plan.dt, 0.0f, 1.0f);
      const SpringCurveAt w = spring_curve_at(s, plan.dt, prior_dt);
      step_chain(params, frame, p, s, w, state, state.points, state.velocities, true);
    }
  }
  state.lag = plan.lag_after;

  // S6 after stepping: nothing nonfinite is ever retained.
  for (size_t k = 0; k < n; ++k) {
    if (!is_finite(state.points[k]) || !is_finite(state.velocities[k])) {
      reset_to_targets(frame, state);
      ++report.resets;
      break;
    }
  }

  // The pose at the frame's time: the state advanced by the lag that is left (not kept), with
  // the inputs moving from the clock's time to this frame's.
  if (state.lag > 0.0f) {
    const SpringPropagator rest = spring_propagator(params, state.lag);
    step_chain(params, frame, rest, 1.0f, SpringCurveAt{1.0f, 0.0f}, state, shown, {}, false);
    for (size_t k = 0; k < n; ++k)
      if (!is_finite(shown[k])) shown[k] = state.points[k];
  } else {
    std::copy(state.points.begin(), state.points.end(), shown.begin());
  }
  return report;
}

}  // namespace asterune
