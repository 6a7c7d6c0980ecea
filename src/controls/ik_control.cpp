#include "controls/ik_control.hpp"

#include <cmath>

#include "controls/rig_chain.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "asterune/solvers/ccd.hpp"
#include "asterune/solvers/end_orientation.hpp"
#include "asterune/solvers/fabrik.hpp"
#include "asterune/solvers/two_bone.hpp"

namespace asterune::detail {

Result<IkControl> build_ik_control(const Rig& rig, const IkSettings& settings, const std::string& what) {
  auto chain = resolve_chain(rig, settings.chain_root, settings.end, what);
  if (!chain) return chain.error();
  IkControl c;
  c.joints = std::move(chain).value();
  if (!is_finite(settings.end_offset)) return make_error(what + ": end_offset is not finite");
  c.end_offset = settings.end_offset;
  c.position_goal = settings.position_goal;
  if (settings.orientation_goal) {
    const auto q = normalized_rotation(*settings.orientation_goal);
    if (!q) return make_error(what + ": orientation goal is zero or not finite");
    c.has_orientation_goal = true;
    c.orientation_goal = *q;
  }
  if (!c.position_goal && !c.has_orientation_goal)
    return make_error(what + ": has neither a position goal nor an orientation goal");

  const int n = static_cast<int>(c.joints.size());
  const glm::vec3 end_pivot = rig.c1()[static_cast<size_t>(c.joints.back())].position;
  const bool endpoint_is_pivot = glm::length(c.end_offset - end_pivot) <= 1e-6f;
  c.segments = (endpoint_is_pivot && n > 1) ? n - 1 : n;
  if (c.position_goal && endpoint_is_pivot && n == 1)
    return make_error(what + ": the endpoint is the chain root's own pivot, so no joint can move it");

  switch (settings.solver) {
    case IkSolver::kAuto:
      c.solver = c.segments == 1 ? BoundIkSolver::kAim : c.segments == 2 ? BoundIkSolver::kTwoBone : BoundIkSolver::kFabrik;
      break;
    case IkSolver::kTwoBone:
      if (c.segments != 2)
        return make_error(what + ": solver two_bone needs a chain of 2 segments, this one has " + std::to_string(c.segments));
      c.solver = BoundIkSolver::kTwoBone;
      break;
    case IkSolver::kFabrik:
      if (c.segments < 2)
        return make_error(what + ": solver fabrik needs at least 2 segments, this one has " + std::to_string(c.segments));
      c.solver = BoundIkSolver::kFabrik;
      break;
    case IkSolver::kCcd:
      c.solver = BoundIkSolver::kCcd;
      break;
  }
  const size_t m = static_cast<size_t>(c.segments);
  c.points.resize(m + 1);
  c.solved.resize(m + 1);
  c.deltas.resize(m);
  c.turns.resize(static_cast<size_t>(n));
  return c;
}

void reset_ik_control(IkControl& control) { control.previous_bend = glm::vec3(0.0f); }

glm::vec3 ik_endpoint(const IkControl& control, std::span<const Transform> world) {
  return transform_point(world[static_cast<size_t>(control.joints.back())], control.end_offset);
}

SolveReport solve_ik_control(IkControl& c, const Rig& rig, const Transform& root, std::span<const Transform> local,
                             std::span<const Transform> world, const glm::vec3& target, const glm::vec3* pole,
                             std::span<Transform> candidates) {
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  const size_t n = c.joints.size();
  const size_t m = static_cast<size_t>(c.segments);
  for (size_t k = 0; k < n; ++k) {
    candidates[k] = local[static_cast<size_t>(c.joints[k])];
    c.turns[k] = identity;
  }
  SolveReport report;
  if (!is_finite(target)) return report;
  const bool has_pole = pole != nullptr && is_finite(*pole);

  if (c.position_goal) {
    for (size_t k = 0; k < m; ++k) c.points[k] = joint_pivot(rig, world, c.joints[k]);
    c.points[m] = ik_endpoint(c, world);
    switch (c.solver) {
      case BoundIkSolver::kAim: {
        const glm::vec3 from = c.points[1] - c.points[0];
        const glm::vec3 to = target - c.points[0];
        const float lf = glm::length(from);
        const float lt = glm::length(to);
        if (lf > 1e-6f && lt > 1e-6f && std::isfinite(lt)) c.deltas[0] = rotation_between(from / lf, to / lt);
        else c.deltas[0] = identity;
        const glm::vec3 end = c.points[0] + c.deltas[0] * from;
        report.residual = glm::length(end - target);
        report.reached = report.residual <= 1e-3f;
        report.clamped = std::fabs(lt - lf) > 1e-3f;
        report.passes = 1;
        break;
      }
      case BoundIkSolver::kTwoBone: {
        TwoBoneInput in;
        in.root = c.points[0];
        in.mid = c.points[1];
        in.end = c.points[2];
        in.target = target;
        in.has_pole = has_pole;
        if (has_pole) in.pole = *pole;
        in.previous_bend = c.previous_bend;
        // The solver carries previous_bend from the CURRENT pose's root->end axis onto the new
        // root->target axis (two_bone.hpp). That is right when the pose persists between
        // frames, but the stack usually runs on a freshly composed pose, and when the target
        // axis is nearly opposite the animated one that carry is ill-conditioned. Last frame's
        // bend belongs to last frame's axis: project it off the new axis (well conditioned for
        // frame-to-frame motion) and pre-rotate it by the inverse carry, so that the solver's
        // carry lands exactly on the projection.
        const glm::vec3 to_target = target - in.root;
        const glm::vec3 to_end = in.end - in.root;
        const float lt = glm::length(to_target);
        const float le = glm::length(to_end);
        if (glm::length(c.previous_bend) > 0.5f && lt > 1e-6f && le > 1e-6f && std::isfinite(lt)) {
          const glm::vec3 axis_new = to_target / lt;
          const glm::vec3 perp = c.previous_bend - axis_new * glm::dot(c.previous_bend, axis_new);
          const float perp_len = glm::length(perp);
          if (perp_len > 1e-3f) in.previous_bend = rotation_between(axis_new, to_end / le) * (perp / perp_len);
        }
        const TwoBoneResult r = solve_two_bone(in);
        report = r.report;
        c.deltas[0] = r.delta_upper;
        c.deltas[1] = r.delta_lower;
        if (report.residual >= 0.0f && is_finite(r.bend_direction)) c.previous_bend = r.bend_direction;
        break;
      }
      case BoundIkSolver::kFabrik:
      case BoundIkSolver::kCcd: {
        ChainGoal goal;
        goal.target = target;
        goal.has_pole = has_pole;
        if (has_pole) goal.pole = *pole;
        report = c.solver == BoundIkSolver::kFabrik ? solve_fabrik(c.points, goal, c.solved, c.deltas)
                                                    : solve_ccd(c.points, goal, c.solved, c.deltas);
        break;
      }
    }
    if (report.residual < 0.0f) return report;  // the solver refused the input: nothing changes
    for (size_t k = 0; k < m; ++k) c.turns[k] = is_finite(c.deltas[k]) ? c.deltas[k] : identity;
  }

  if (c.has_orientation_goal) {
    // End part orientation after the positional turns (each carries the ones below it).
    glm::quat carried = identity;
    for (size_t k = 0; k < n; ++k) carried = c.turns[k] * carried;
    const glm::quat end_now = glm::normalize(carried * world[static_cast<size_t>(c.joints.back())].rotation);
    const glm::quat d = end_orientation_delta(end_now, c.orientation_goal, 1.0f);
    c.turns[n - 1] = glm::normalize(d * c.turns[n - 1]);
    if (!c.position_goal) {
      report.residual = 0.0f;
      report.reached = true;
      report.passes = 1;
    }
  }
  candidates_from_turns(rig, root, local, world, c.joints, c.turns, candidates);
  return report;
}

}  // namespace asterune::detail
