// The damped least-squares refinement of limited chains (rule IK10; see chain_refine.hpp).
#include "chain_refine.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "asterune/math/transform.hpp"
#include "asterune/solvers/joint_limits.hpp"
#include "chain_limit_pass.hpp"
#include "point_chain_internal.hpp"

namespace asterune {

namespace detail {

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

}  // namespace detail

}  // namespace asterune
