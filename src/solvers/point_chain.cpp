// Chain helpers: solved points -> per-joint world deltas (rule IK5), and the private pieces
// shared by FABRIK and CCD (see point_chain_internal.hpp).
#include "asterune/solvers/point_chain.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "asterune/math/scalar.hpp"
#include "asterune/math/swing_twist.hpp"
#include "asterune/math/transform.hpp"
#include "point_chain_internal.hpp"

namespace asterune {

namespace detail {


bool chain_inputs_usable(std::span<const glm::vec3> points, const ChainGoal& goal,
                         std::span<glm::vec3> points_out, std::span<glm::quat> deltas_out,
                         const ChainLimits* limits, std::size_t min_segments) {
  for (auto& d : deltas_out) d = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  const std::size_t copy = std::min(points.size(), points_out.size());
  for (std::size_t i = 0; i < copy; ++i) points_out[i] = points[i];
  if (points.size() < min_segments + 1 || points_out.size() != points.size() ||
      deltas_out.size() + 1 != points.size()) {
    return false;
  }
  if (!is_finite(goal.target)) return false;
  for (const auto& p : points) {
    if (!is_finite(p)) return false;
  }
  if (limits != nullptr) {
    const std::size_t n = deltas_out.size();
    if (limits->orientations.size() != n || limits->rest_local.size() != n || limits->limits.size() != n) return false;
    if (!is_finite(limits->root_parent) || !normalized_rotation(limits->root_parent)) return false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!normalized_rotation(limits->orientations[i]) || !normalized_rotation(limits->rest_local[i])) return false;
    }
  }
  return true;
}

float segment_length(std::span<const glm::vec3> points, std::size_t i) { return glm::length(points[i + 1] - points[i]); }

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

void apply_pole(std::span<glm::vec3> out, const glm::vec3& pole) {
  for (std::size_t i = 1; i + 1 < out.size(); ++i) {
    glm::vec3 ax = out[i + 1] - out[i - 1];
    const float ax_len = glm::length(ax);
    // A nearly folded bend (neighbours almost coincide) has no well-conditioned axis.
    const float scale = glm::length(out[i] - out[i - 1]) + glm::length(out[i + 1] - out[i]);
    if (!(ax_len > 1e-3f * scale + kChainTiny)) continue;
    ax /= ax_len;
    const glm::vec3 foot = out[i - 1] + glm::dot(out[i] - out[i - 1], ax) * ax;
    const float radius = glm::length(out[i] - foot);
    if (!(radius > kChainTiny)) continue;
    const glm::vec3 to_pole = pole - foot;
    glm::vec3 toward = to_pole - glm::dot(to_pole, ax) * ax;
    const float t_len = glm::length(toward);
    // A pole (nearly) on this bend's axis says nothing about the bend: leave it.
    if (!(t_len > 1e-3f * glm::length(to_pole) + kChainTiny)) continue;
    toward /= t_len;
    toward = glm::normalize(toward - glm::dot(toward, ax) * ax);  // second Gram-Schmidt step
    out[i] = foot + radius * toward;
  }
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

glm::quat limit_frame(const ChainLimits& limits, std::span<const glm::quat> solved, std::size_t i) {
  const glm::quat parent = i == 0 ? limits.root_parent : solved[i - 1];
  return glm::normalize(parent * limits.rest_local[i]);
}

glm::quat limited_turn(const JointLimit& limit, const glm::quat& frame, const glm::vec3* bone, const glm::vec3& current,
                       const glm::vec3& desired) {
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  if (limit.kind != JointLimitKind::kHinge) {
    const float cl = glm::length(current);
    const float dl = glm::length(desired);
    if (!(cl > kChainTiny) || !(dl > kChainTiny)) return identity;
    const glm::quat arc = rotation_between(current / cl, desired / dl);
    if (limit.kind != JointLimitKind::kBallSocket || bone == nullptr) return arc;
    const float bl = glm::length(*bone);
    return bl > kChainTiny ? swing_twist(arc, *bone / bl).swing : arc;
  }
  const glm::vec3 h = glm::normalize(frame * limit.axis);
  const glm::vec3 c = current - glm::dot(current, h) * h;
  const glm::vec3 d = desired - glm::dot(desired, h) * h;
  const float cl = glm::length(c);
  const float dl = glm::length(d);
  if (!(cl > kChainTiny * (1.0f + glm::length(current))) || !(dl > kChainTiny * (1.0f + glm::length(desired))))
    return identity;
  return glm::angleAxis(std::atan2(glm::dot(glm::cross(c, d), h), glm::dot(c, d)), h);
}

bool limited_forward(std::span<const glm::vec3> points, std::span<glm::vec3> out, const ChainLimits& limits,
                     std::span<glm::quat> orientations_out) {
  bool limited = false;
  const std::size_t n = orientations_out.size();
  glm::quat carried(1.0f, 0.0f, 0.0f, 0.0f);  // total world delta of the previous part
  out[0] = points[0];
  for (std::size_t i = 0; i < n; ++i) {
    const glm::quat original = glm::normalize(limits.orientations[i]);
    const glm::vec3 seg = points[i + 1] - points[i];
    const glm::vec3 carried_seg = carried * seg;
    const glm::vec3 desired = out[i + 1] - out[i];
    const glm::quat frame = limit_frame(limits, orientations_out, i);
    const glm::quat q0 = glm::normalize(carried * original);
    glm::quat q = glm::normalize(limited_turn(limits.limits[i], frame, nullptr, carried_seg, desired) * q0);
    const glm::quat rel = glm::conjugate(frame) * q;
    const glm::quat rel_clamped = clamp_to_limit(limits.limits[i], rel);
    if (rotation_angle(glm::conjugate(rel) * rel_clamped) > 1e-4f) limited = true;
    q = glm::normalize(frame * rel_clamped);
    orientations_out[i] = q;
    carried = glm::normalize(q * glm::conjugate(original));
    out[i + 1] = out[i] + carried * seg;
  }
  return limited;
}

namespace {

// Turns part i (and so its subtree: the parts after it, the points after out[i]) by r about out[i].
void turn_subtree(std::span<glm::vec3> out, std::span<glm::quat> orient, std::size_t i, const glm::quat& r) {
  for (std::size_t j = i; j < orient.size(); ++j) orient[j] = glm::normalize(r * orient[j]);
  for (std::size_t j = i + 1; j < out.size(); ++j) out[j] = out[i] + r * (out[j] - out[i]);
}

}  // namespace

// Damping of the refinement steps, in units of the chain's reach: where it starts, its floor,
// and the factors applied after a step that helped and one that did not.
constexpr float kRefineDamping = 0.2f;
constexpr float kRefineDampingFloor = 0.01f;
constexpr float kRefineDampingDown = 0.5f;
constexpr float kRefineDampingUp = 2.0f;
// Steps without a 1% gain after which the refinement gives up (the limits hold the chain).
constexpr int kRefineStallSteps = 4;

// Rule IK10 (docs/solvers.md, "Limited chains").
int refine_limited(std::span<glm::vec3> out, std::span<glm::quat> orient, const ChainLimits& limits,
                   const glm::vec3& target, float tolerance, int max_steps, bool& limited) {
  const std::size_t n = orient.size();
  if (n > kMaxRefinedSegments || max_steps <= 0) return 0;
  float reach = 0.0f;
  for (std::size_t i = 0; i < n; ++i) reach += glm::length(out[i + 1] - out[i]);
  if (!(reach > kChainTiny)) return 0;
  // The best pose so far: the steps go on from wherever the last one left the chain (a step
  // that clamps can lose ground before the next one gains more), and the best is kept.
  std::array<glm::vec3, kMaxRefinedSegments + 1> best_out;
  std::array<glm::quat, kMaxRefinedSegments> best_orient;
  std::array<glm::vec3, kMaxRefinedSegments> hinge_axis;  // this step's world axis of each hinge
  std::copy(out.begin(), out.end(), best_out.begin());
  std::copy(orient.begin(), orient.end(), best_orient.begin());
  float best_error = glm::length(target - out[n]);
  bool best_limited = limited;
  // Damping (studs), adapted as in Levenberg-Marquardt: smaller after a step that helped, larger
  // after one that did not.
  float damping = kRefineDamping * reach;
  int steps = 0;
  int stalled = 0;  // steps since the best error last shrank by 1%
  float mark = best_error;
  while (steps < max_steps && best_error > tolerance && stalled < kRefineStallSteps) {
    ++steps;
    // Rotation vector of part i: w_i = P_i (r_i x y), with r_i = end - out[i], P_i the identity
    // or the projection onto a hinge's axis h_i, and y = (J J^T + damping^2 I)^-1 e. J J^T sums,
    // per part, |r|^2 I - r r^T (three free axes) or (h x r)(h x r)^T (a hinge).
    const glm::vec3 e = target - out[n];
    glm::mat3 jjt(damping * damping);
    for (std::size_t i = 0; i < n; ++i) {
      const glm::vec3 r = out[n] - out[i];
      if (limits.limits[i].kind == JointLimitKind::kHinge) {
        hinge_axis[i] = glm::normalize(limit_frame(limits, orient, i) * limits.limits[i].axis);
        const glm::vec3 c = glm::cross(hinge_axis[i], r);
        jjt += glm::outerProduct(c, c);
      } else {
        jjt += glm::mat3(glm::dot(r, r)) - glm::outerProduct(r, r);
      }
    }
    const glm::vec3 y = glm::inverse(jjt) * e;
    if (!is_finite(y)) break;
    // Every part turns by the same solve y, tip to root: a part's turn moves only the parts
    // after it, so its hinge axis is still the one y was solved with; its lever reaches the end
    // where the turns after it left it.
    for (std::size_t k = n; k-- > 0;) {
      const glm::vec3 r = out[n] - out[k];
      glm::vec3 w = glm::cross(r, y);
      if (limits.limits[k].kind == JointLimitKind::kHinge) w = glm::dot(w, hinge_axis[k]) * hinge_axis[k];
      const float angle = glm::length(w);
      if (angle > 1e-9f) turn_subtree(out, orient, k, glm::angleAxis(angle, w / angle));
    }
    // Back inside the limits, root to tip (each frame follows its clamped parent).
    bool step_limited = false;
    for (std::size_t i = 0; i < n; ++i) {
      const glm::quat frame = limit_frame(limits, orient, i);
      const glm::quat rel = glm::conjugate(frame) * orient[i];
      const glm::quat clamped = clamp_to_limit(limits.limits[i], rel);
      if (rotation_angle(glm::conjugate(rel) * clamped) > 1e-4f) {
        step_limited = true;
        turn_subtree(out, orient, i, glm::normalize(glm::normalize(frame * clamped) * glm::conjugate(orient[i])));
      }
    }
    const float error = glm::length(target - out[n]);
    if (error < best_error) {
      best_error = error;
      best_limited = step_limited;
      std::copy(out.begin(), out.end(), best_out.begin());
      std::copy(orient.begin(), orient.end(), best_orient.begin());
      damping = std::max(damping * kRefineDampingDown, kRefineDampingFloor * reach);
    } else {
      damping = std::min(damping * kRefineDampingUp, reach);
    }
    // A target the limits keep out of reach: the best stops improving, and the steps stop.
    if (best_error < 0.99f * mark) {
      mark = best_error;
      stalled = 0;
    } else {
      ++stalled;
    }
  }
  std::copy(best_out.begin(), best_out.begin() + static_cast<std::ptrdiff_t>(n + 1), out.begin());
  std::copy(best_orient.begin(), best_orient.begin() + static_cast<std::ptrdiff_t>(n), orient.begin());
  limited = best_limited;
  return steps;
}

void orientations_to_deltas(std::span<const glm::quat> original, std::span<glm::quat> q) {
  // total_i = q_i * inverse(original_i); delta_i = total_i * inverse(total_{i-1}). Walk
  // tip-to-root so q[i-1] is still the solved orientation when delta_i is formed.
  for (std::size_t k = q.size(); k-- > 0;) {
    const glm::quat total = q[k] * glm::conjugate(glm::normalize(original[k]));
    if (k == 0) {
      q[k] = glm::normalize(total);
    } else {
      const glm::quat parent_total = q[k - 1] * glm::conjugate(glm::normalize(original[k - 1]));
      q[k] = glm::normalize(total * glm::conjugate(parent_total));
    }
  }
}

}  // namespace detail

bool chain_deltas(std::span<const glm::vec3> before, std::span<const glm::vec3> after, std::span<glm::quat> deltas) {
  const std::size_t n = deltas.size();
  if (n == 0 || before.size() != n + 1 || after.size() != n + 1) return false;
  glm::quat acc(1.0f, 0.0f, 0.0f, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 s0 = acc * (before[i + 1] - before[i]);
    const glm::vec3 s1 = after[i + 1] - after[i];
    const float l0 = glm::length(s0);
    const float l1 = glm::length(s1);
    glm::quat d(1.0f, 0.0f, 0.0f, 0.0f);
    if (l0 > detail::kChainTiny && l1 > detail::kChainTiny && std::isfinite(l0) && std::isfinite(l1)) {
      // The half-way quaternion of the unnormalized segments, (|s0| |s1| + s0 . s1, s0 x s1),
      // is rotation_between's (1 + d, u0 x u1) scaled by |s0| |s1|: one normalization instead
      // of six divisions first. Nearly opposite segments (or a product that overflows) take
      // rotation_between's own fallback.
      const float ll = l0 * l1;
      const float dot = glm::dot(s0, s1);
      if (std::isfinite(ll) && dot >= -0.999999f * ll) {
        const glm::vec3 c = glm::cross(s0, s1);
        d = glm::normalize(glm::quat(ll + dot, c.x, c.y, c.z));
      } else {
        d = rotation_between(s0 / l0, s1 / l1);
      }
    }
    deltas[i] = d;
    acc = glm::normalize(d * acc);
  }
  return true;
}

bool apply_chain_deltas(std::span<const glm::quat> deltas, std::span<glm::quat> orientations) {
  if (deltas.size() != orientations.size()) return false;
  glm::quat acc(1.0f, 0.0f, 0.0f, 0.0f);
  for (std::size_t i = 0; i < deltas.size(); ++i) {
    acc = glm::normalize(deltas[i] * acc);
    orientations[i] = glm::normalize(acc * orientations[i]);
  }
  return true;
}

float chain_length(std::span<const glm::vec3> points) {
  float total = 0.0f;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) total += detail::segment_length(points, i);
  return total;
}


namespace {

// Within `margin` radians of the boundary of its limit: a hinge or twist angle at an end of its
// range, or a ball-socket swing at the cone. A joint held there can be what stops the chain,
// however small the clamp that put it there last (the refinement's last steps can be tiny).
bool at_limit(const JointLimit& limit, const glm::quat& rest_relative, float margin) {
  if (limit.kind == JointLimitKind::kNone) return false;
  const auto unit = normalized_rotation(rest_relative);
  if (!unit) return false;
  const float axis_length = glm::length(limit.axis);
  if (!(axis_length > 1e-6f) || !std::isfinite(axis_length)) return false;
  const glm::vec3 axis = limit.axis / axis_length;
  const SwingTwist st = swing_twist(*unit, axis);
  if (limit.max_angle - limit.min_angle < 2.0f * kPi - margin) {
    const float twist = twist_angle(st.twist, axis);
    if (std::fabs(canonical_angle(twist - limit.min_angle)) <= margin ||
        std::fabs(canonical_angle(twist - limit.max_angle)) <= margin)
      return true;
  }
  return limit.kind == JointLimitKind::kBallSocket && limit.cone_angle < kPi - margin &&
         swing_angle(st.swing) >= limit.cone_angle - margin;
}

// Rule IK10: margin (radians) within which a joint counts as held by its limit.
constexpr float kAtLimitMargin = 1e-3f;

}  // namespace

SolveReport detail::finish_chain_solve(std::span<const glm::vec3> points, std::span<glm::vec3> out,
                                       const ChainGoal& goal, const ChainLimits* limits, bool reapply_limits,
                                       bool limited_last_pass, float tolerance, std::span<glm::quat> deltas,
                                       SolveReport report) {
  const bool has_pole = goal.has_pole && is_finite(goal.pole);
  if (has_pole) detail::apply_pole(out, goal.pole);
  if (limits != nullptr) {
    if ((reapply_limits || has_pole) && detail::limited_forward(points, out, *limits, deltas)) report.clamped = true;
    // `deltas` holds the solved orientations until orientations_to_deltas: a chain left short
    // with a joint on its limit was stopped by it (clamped), whatever the last clamp's size.
    if (distance_between(out[out.size() - 1], goal.target) > tolerance)
      for (std::size_t i = 0; i < deltas.size() && !report.clamped; ++i)
        if (at_limit(limits->limits[i], glm::conjugate(detail::limit_frame(*limits, deltas, i)) * deltas[i],
                     kAtLimitMargin))
          report.clamped = true;
    detail::orientations_to_deltas(limits->orientations, deltas);
  } else {
    chain_deltas(points, out, deltas);
  }
  const std::size_t n = out.size() - 1;
  report.residual = distance_between(out[n], goal.target);
  report.reached = report.residual <= tolerance;
  if (limited_last_pass && !report.reached) report.clamped = true;
  return report;
}

}  // namespace asterune
