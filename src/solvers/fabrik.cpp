// FABRIK (see include/asterune/solvers/fabrik.hpp, docs/solvers.md).
#include "asterune/solvers/fabrik.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/transform.hpp"
#include "chain_internal.hpp"

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

float sanitized_tolerance(const ChainSettings& s) {
  return (std::isfinite(s.tolerance) && s.tolerance >= 0.0f) ? s.tolerance : 1e-3f;
}

}  // namespace

SolveReport solve_fabrik(std::span<const glm::vec3> points, const ChainGoal& goal, std::span<glm::vec3> out,
                         std::span<glm::quat> deltas, const ChainSettings& settings, const ChainLimits* limits) {
  if (!detail::chain_inputs_usable(points, goal, out, deltas, limits, 2)) return SolveReport{false, false, -1.0f, 0};
  const std::size_t n = deltas.size();
  const float tol = sanitized_tolerance(settings);
  const int max_passes = std::clamp(settings.max_passes, 1, 64);
  const glm::vec3 root = points[0];
  const glm::vec3& target = goal.target;
  const float total = chain_length(points);

  SolveReport report;
  report.passes = 0;
  if (glm::length(target - root) >= total) {
    detail::lay_straight(points, target, out);
    report.passes = 1;
    report.clamped = true;
  } else if (glm::length(out[n] - target) > tol) {
    // Warm start: one CCD sweep (tip to root) on the input shape. Lengths are untouched (rigid
    // turns); it bends a nearly straight chain that must fold toward a near or rear target,
    // the case where plain FABRIK creeps, and its last step aims the whole chain at the target.
    for (std::size_t i = n; i-- > 0;) {
      const glm::vec3 e = out[n] - out[i];
      const glm::vec3 t = target - out[i];
      const float el = glm::length(e);
      const float tl = glm::length(t);
      if (!(el > kChainTiny) || !(tl > kChainTiny)) continue;
      const glm::quat turn = rotation_between(e / el, t / tl);
      for (std::size_t j = i + 1; j <= n; ++j) out[j] = out[i] + turn * (out[j] - out[i]);
    }
    for (int pass = 1; pass <= max_passes; ++pass) {
      out[n] = target;  // backward: endpoint onto the target, each point follows toward the root
      for (std::size_t i = n; i-- > 0;) {
        out[i] = reach(out[i + 1], out[i], detail::segment_length(points, i), points[i] - points[i + 1]);
      }
      out[0] = root;  // forward: root fixed, each point follows toward the endpoint
      if (limits != nullptr) {
        detail::limited_forward(points, out, *limits, deltas);
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          out[i + 1] = reach(out[i], out[i + 1], detail::segment_length(points, i), points[i + 1] - points[i]);
        }
      }
      report.passes = pass;
      if (glm::length(out[n] - target) <= tol) break;
    }
  }

  if (goal.has_pole && detail::finite3(goal.pole)) detail::apply_pole(out, goal.pole);

  if (limits != nullptr) {
    if (detail::limited_forward(points, out, *limits, deltas)) report.clamped = true;
    detail::orientations_to_deltas(limits->orientations, deltas);
  } else {
    chain_deltas(points, out, deltas);
  }
  report.residual = glm::length(out[n] - target);
  report.reached = report.residual <= tol;
  return report;
}

}  // namespace asterune
