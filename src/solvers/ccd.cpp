// CCD (see include/asterune/solvers/ccd.hpp, docs/solvers.md).
#include "asterune/solvers/ccd.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/transform.hpp"
#include "chain_finish.hpp"
#include "chain_limit_pass.hpp"
#include "chain_refine.hpp"
#include "chain_warm_start.hpp"
#include "point_chain_internal.hpp"

namespace asterune {

namespace {

using detail::kChainTiny;

// The CCD step at joint i: the shortest arc r taking (endpoint - pivot) toward (target -
// pivot) turns joint i's subtree about out[i]. With limits, r is the turn the limit suits
// (limited_turn: about a hinge's axis, no twist of a ball-and-socket's bone), and part i's new
// orientation is clamped first (the part orientations live in `orient`) before the clamped
// turn is applied.
// Returns true when a limit changed the turn.
bool ccd_step(std::size_t i, std::span<glm::vec3> out, std::span<glm::quat> orient, const glm::vec3& target,
              const ChainLimits* limits) {
  const std::size_t n = orient.size();
  const glm::vec3 pivot = out[i];
  const glm::vec3 e = out[n] - pivot;
  const glm::vec3 t = target - pivot;
  const float el = glm::length(e);
  const float tl = glm::length(t);
  if (!(el > kChainTiny) || !(tl > kChainTiny)) return false;
  glm::quat r = rotation_between(e / el, t / tl);
  bool limited = false;
  if (limits != nullptr) {
    const glm::quat current = orient[i];
    const glm::quat frame = detail::limit_frame(*limits, orient, i);
    const glm::vec3 bone = out[i + 1] - pivot;
    r = detail::limited_turn(limits->limits[i], frame, &bone, e, t);
    const glm::quat wanted = glm::conjugate(frame) * (r * current);
    const glm::quat rel = clamp_to_limit(limits->limits[i], wanted);
    limited = rotation_angle(glm::conjugate(wanted) * rel) > 1e-4f;
    r = glm::normalize(glm::normalize(frame * rel) * glm::conjugate(current));
    for (std::size_t j = i; j < n; ++j) orient[j] = glm::normalize(r * orient[j]);
  }
  for (std::size_t j = i + 1; j <= n; ++j) out[j] = pivot + r * (out[j] - pivot);
  return limited;
}

}  // namespace

SolveReport solve_ccd(std::span<const glm::vec3> points, const ChainGoal& goal, std::span<glm::vec3> out,
                      std::span<glm::quat> deltas, const ChainSettings& settings, const ChainLimits* limits) {
  if (!detail::chain_inputs_usable(points, goal, out, deltas, limits, 1)) return SolveReport{false, false, -1.0f, 0};
  const std::size_t n = deltas.size();
  const float tol = detail::sanitized_tolerance(settings);
  const int max_passes = detail::sanitized_max_passes(settings);
  const glm::vec3& target = goal.target;

  SolveReport report;
  bool limited_last_pass = false;
  // `deltas` holds, in turn: scale_bends' per-joint bends (the warm start's scratch), then
  // with limits the parts' world orientations (the sweeps turn and clamp them), and at the
  // end the per-joint deltas finish_chain_solve writes. Each use has its own name.
  const std::span<glm::quat> bend_scratch = deltas;
  const std::span<glm::quat> orientations = deltas;
  const auto start_orientations = [&] {
    for (std::size_t i = 0; i < n; ++i) orientations[i] = glm::normalize(limits->orientations[i]);
  };
  const bool unreachable = glm::length(target - points[0]) >= chain_length(points);
  if (limits == nullptr && unreachable) {
    // A free chain's CCD sweeps converge to the straight line toward the target; lay it
    // directly (same result, bounded cost).
    detail::lay_straight(points, target, out);
    report.passes = 1;
    report.clamped = true;
  } else {
    if (glm::length(out[n] - target) > tol) {
      // Warm start (measured in docs/solvers.md). CCD stalls on a straight chain aimed at the
      // target (every joint already "points" at it) and creeps when a nearly straight chain
      // must bend or unbend a lot (each sweep grows the bend by a factor). So a nearly
      // straight chain is laid as a planar arc reaching the target, and a bent one has all its
      // bend angles scaled by one factor so its chord matches the target distance; with
      // limits the part orientations are then rebuilt (and clamped) from those points. Then
      // the root's own step aims the whole chain at the target before the first sweep. The
      // orientations are set only after the warm start, so its scratch never has to be undone.
      const bool warm = detail::arc_warm_start(points, target, goal, out) ||
                        detail::scale_bends(points, target, out, bend_scratch, false);
      if (limits != nullptr) {
        if (warm) {
          detail::limited_forward(points, out, *limits, orientations);
        } else {
          start_orientations();
          for (std::size_t i = 0; i <= n; ++i) out[i] = points[i];
        }
      }
      ccd_step(0, out, orientations, target, limits);
      for (int pass = 1; pass <= max_passes; ++pass) {
        limited_last_pass = false;
        for (std::size_t i = n; i-- > 0;) limited_last_pass |= ccd_step(i, out, orientations, target, limits);
        report.passes = pass;
        if (glm::length(out[n] - target) <= tol) break;
      }
      // A limited chain the sweeps left short: coupled steps of every joint (see refine_limited).
      if (limits != nullptr && glm::length(out[n] - target) > tol)
        report.passes += detail::refine_limited(out, orientations, *limits, target, tol, max_passes, limited_last_pass);
    } else if (limits != nullptr) {
      start_orientations();
    }
    report.clamped = unreachable;
  }

  // CCD's sweeps honour the limits already; only the pole can break them.
  return detail::finish_chain_solve(points, out, goal, limits, /*reapply_limits=*/false, limited_last_pass, tol,
                                    orientations, report);
}

}  // namespace asterune
