// FABRIK (see include/asterune/solvers/fabrik.hpp, docs/solvers.md).
#include "asterune/solvers/fabrik.hpp"

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

// Places `to` at distance len from `from` along (to - from); keeps the original segment's
// direction `fallback` when the two points coincide.
glm::vec3 reach(const glm::vec3& from, const glm::vec3& to, float len, const glm::vec3& fallback) {
  const glm::vec3 v = to - from;
  const float l = glm::length(v);
  if (l > kChainTiny) return from + v * (len / l);
  const float fl = glm::length(fallback);
  return fl > kChainTiny ? from + fallback * (len / fl) : from;
}

}  // namespace

SolveReport solve_fabrik(std::span<const glm::vec3> points, const ChainGoal& goal, std::span<glm::vec3> out,
                         std::span<glm::quat> deltas, const ChainSettings& settings, const ChainLimits* limits) {
  if (!detail::chain_inputs_usable(points, goal, out, deltas, limits, 2)) return SolveReport{false, false, -1.0f, 0};
  const std::size_t n = deltas.size();
  const float tol = detail::sanitized_tolerance(settings);
  const int max_passes = detail::sanitized_max_passes(settings);
  const glm::vec3 root = points[0];
  const glm::vec3& target = goal.target;
  const float total = chain_length(points);

  SolveReport report;
  report.passes = 0;
  // `deltas` holds, in turn: scale_bends' per-joint bends (the warm start's scratch), then
  // with limits the parts' world orientations (each limited pass rebuilds all of them), and at
  // the end the per-joint deltas finish_chain_solve writes. Each use has its own name.
  const std::span<glm::quat> bend_scratch = deltas;
  const std::span<glm::quat> orientations = deltas;
  bool limited_last_pass = false;  // a limit changed a joint in the last forward pass
  bool limits_applied = false;     // `out` came from a limited pass or the refinement, and
                                   // `orientations` holds its orientations
  if (glm::length(target - root) >= total) {
    detail::lay_straight(points, target, out);
    report.passes = 1;
    report.clamped = true;
  } else if (glm::length(out[n] - target) > tol) {
    // Warm start (measured in docs/solvers.md). FABRIK cannot bend a chain whose points all
    // lie on one line and creeps when a nearly straight chain must fold or unfold a lot, so:
    // a nearly straight chain is laid as a planar arc whose chord reaches the target; a bent
    // one has all its bend angles scaled by one factor so its chord matches the target
    // distance, then is aimed at the target about the root. Only when neither applies, one CCD
    // sweep (tip to root, rigid turns) bends the input shape toward the target.
    if (!detail::arc_warm_start(points, target, goal, out)) {
      if (detail::scale_bends(points, target, out, bend_scratch, true)) {
        detail::aim_about_root(out, target);
      } else {
        for (std::size_t i = n; i-- > 0;) {
          const glm::vec3 e = out[n] - out[i];
          const glm::vec3 t = target - out[i];
          const float el = glm::length(e);
          const float tl = glm::length(t);
          if (!(el > kChainTiny) || !(tl > kChainTiny)) continue;
          const glm::quat turn = rotation_between(e / el, t / tl);
          for (std::size_t j = i + 1; j <= n; ++j) out[j] = out[i] + turn * (out[j] - out[i]);
        }
      }
    }
    for (int pass = 1; pass <= max_passes; ++pass) {
      out[n] = target;  // backward: endpoint onto the target, each point follows toward the root
      for (std::size_t i = n; i-- > 0;) {
        out[i] = reach(out[i + 1], out[i], detail::segment_length(points, i), points[i] - points[i + 1]);
      }
      out[0] = root;  // forward: root fixed, each point follows toward the endpoint
      if (limits != nullptr) {
        limited_last_pass = detail::limited_forward(points, out, *limits, orientations);
        limits_applied = true;
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          out[i + 1] = reach(out[i], out[i + 1], detail::segment_length(points, i), points[i + 1] - points[i]);
        }
      }
      report.passes = pass;
      if (glm::length(out[n] - target) <= tol) break;
    }
    // A limited chain the passes left short: coupled steps of every joint (see refine_limited).
    if (limits != nullptr && glm::length(out[n] - target) > tol)
      report.passes += detail::refine_limited(out, orientations, *limits, target, tol, max_passes, limited_last_pass);
  }

  // The limits are imposed once more only on points no limited pass placed (a chain laid
  // straight, or one already at the target): a second limited pass over its own result would
  // move it (its swing-only steps need not land a segment exactly where the points ask), and
  // rebuilding orientations from points would drop the twist the refinement chose.
  return detail::finish_chain_solve(points, out, goal, limits, /*reapply_limits=*/!limits_applied, limited_last_pass,
                                    tol, orientations, report);
}

}  // namespace asterune
