#include "controls/ik_control.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "controls/rig_chain.hpp"
#include "asterune/math/scalar.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "asterune/solvers/ccd.hpp"
#include "asterune/solvers/end_orientation.hpp"
#include "asterune/solvers/fabrik.hpp"
#include "asterune/solvers/two_bone.hpp"

namespace asterune::detail {
namespace {

// Unit v, or nullopt when zero or nonfinite.
std::optional<glm::vec3> unit(const glm::vec3& v) {
  const float len = glm::length(v);
  if (!std::isfinite(len) || !(len > 1e-6f)) return std::nullopt;
  return v / len;
}

// The numeric settings: reach softening, stretch, tolerance, passes, pole turn rate.
Status bind_numbers(const IkSettings& s, const std::string& what, IkControl& c) {
  if (!std::isfinite(s.soft_reach) || s.soft_reach < 0.0f || s.soft_reach >= 1.0f)
    return make_error(what + ": soft_reach must be in [0, 1) (0 = off)");
  if (!std::isfinite(s.stretch) || s.stretch < 1.0f) return make_error(what + ": stretch must be a factor >= 1 (1 = off)");
  if (!std::isfinite(s.tolerance) || s.tolerance < 0.0f) return make_error(what + ": tolerance must be >= 0 studs");
  if (s.max_passes < 1 || s.max_passes > 64) return make_error(what + ": max_passes must be in 1..64");
  if (!std::isfinite(s.max_extension) || s.max_extension < 0.0f || s.max_extension >= 1.0f)
    return make_error(what + ": max_extension must be in [0, 1) (0 = off)");
  if (std::isnan(s.pole_turn_rate_deg_per_s)) return make_error(what + ": pole_turn_rate_deg_per_s is not a number");
  c.soft_reach = s.soft_reach;
  c.max_extension = s.max_extension;
  c.pole_turn_rate = s.pole_turn_rate_deg_per_s * kDegToRad;
  c.two_bone.soft_reach_start = s.soft_reach;
  c.two_bone.max_stretch = s.stretch - 1.0f;
  c.two_bone.tolerance = s.tolerance;
  c.two_bone.max_extension = s.max_extension;
  c.chain.tolerance = s.tolerance;
  c.chain.max_passes = s.max_passes;
  return Success{};
}

// Joint limits (FABRIK / CCD): each names a part placed by a joint of the positional chain.
Status bind_limits(const Rig& rig, const IkSettings& s, const std::string& what, IkControl& c) {
  const size_t m = static_cast<size_t>(c.segments);
  if (!s.limits.empty()) {
    c.has_limits = true;
    c.limits.assign(m, JointLimit{});
    c.rest_local.resize(m);
    c.orientations.resize(m);
    const auto c0 = rig.c0();
    const auto c1 = rig.c1();
    for (size_t k = 0; k < m; ++k) {
      const size_t u = static_cast<size_t>(c.joints[k]);
      c.rest_local[k] = glm::normalize(c0[u].rotation * glm::conjugate(c1[u].rotation));
    }
    for (const IkJointLimit& l : s.limits) {
      const std::string lw = what + ": limit on '" + l.part + "'";
      const JointLookup j = rig.find_joint(l.part);
      if (!j.found()) return make_error(lw + ": " + j.message);
      size_t k = m;
      for (size_t i = 0; i < m; ++i)
        if (c.joints[i] == j.index) k = i;
      if (k == m) return make_error(lw + ": the part is not placed by a joint of the positional chain");
      const auto axis = unit(l.axis);
      if (!axis) return make_error(lw + ": axis is zero or not finite");
      if (!std::isfinite(l.min_deg) || !std::isfinite(l.max_deg) || l.min_deg > l.max_deg || l.min_deg < -180.0f ||
          l.max_deg > 180.0f)
        return make_error(lw + ": min_deg/max_deg must be finite, in [-180, 180], min <= max");
      if (l.kind == JointLimitKind::kHinge) {
        c.limits[k] = JointLimit::hinge(*axis, l.min_deg * kDegToRad, l.max_deg * kDegToRad);
      } else if (l.kind == JointLimitKind::kBallSocket) {
        if (!std::isfinite(l.cone_deg) || l.cone_deg < 0.0f || l.cone_deg > 180.0f)
          return make_error(lw + ": cone_deg must be in [0, 180]");
        c.limits[k] = JointLimit::ball_socket(*axis, l.cone_deg * kDegToRad, l.min_deg * kDegToRad, l.max_deg * kDegToRad);
      }
    }
  }
  return Success{};
}

// Stretch: only the two-bone solver with soft reach, on a chain ending at the joint after the
// lower segment.
Status bind_stretch(const IkSettings& s, const std::string& what, IkControl& c) {
  if (s.stretch > 1.0f) {
    if (c.solver != BoundIkSolver::kTwoBone) return make_error(what + ": stretch needs the two-bone solver (a 2-segment chain without limits)");
    if (!(s.soft_reach > 0.0f)) return make_error(what + ": stretch needs soft_reach (it acts across the softening band)");
    if (c.joints.size() != 3)
      return make_error(what + ": stretch needs the chain to end at the joint after the lower segment (end = that part, "
                               "end_offset = its pivot), so that both segments can grow");
    c.stretch_moves_end_joint = true;
  }
  return Success{};
}

// The reach window (seed 003 L11), in the root part's frame.
Status bind_reach_window(const Rig& rig, const IkSettings& s, const std::string& what, IkControl& c) {
  if (s.reach_window) {
    const ReachWindow& w = *s.reach_window;
    const auto fwd = unit(w.forward);
    const auto up = unit(w.up);
    if (!fwd || !up || std::fabs(glm::dot(*fwd, *up)) > 0.999f)
      return make_error(what + ": reach_window forward/up must be finite, nonzero and not parallel");
    for (float a : {w.up_limit_deg, w.across_limit_deg, w.behind_limit_deg, w.falloff_deg})
      if (!std::isfinite(a) || a < 0.0f || a > 180.0f) return make_error(what + ": reach_window angles must be in [0, 180] degrees");
    if (!std::isfinite(w.side)) return make_error(what + ": reach_window side must be -1, 0 or +1");
    c.has_window = true;
    c.window.up = *up;
    c.window.forward = glm::normalize(*fwd - *up * glm::dot(*fwd, *up));
    const glm::vec3 right = glm::cross(c.window.forward, c.window.up);
    float side = w.side;
    if (side == 0.0f) {
      // The chain root pivot's rest position in the root part's frame.
      std::vector<Transform> rest(static_cast<size_t>(rig.joint_count()));
      evaluate_rest_world(rig, Transform::identity(), rest);
      side = glm::dot(joint_pivot(rig, rest, c.joints[0]), right) >= 0.0f ? 1.0f : -1.0f;
    }
    c.window.outward = side >= 0.0f ? right : -right;
    c.window.up_limit = w.up_limit_deg * kDegToRad;
    c.window.across_limit = w.across_limit_deg * kDegToRad;
    c.window.behind_limit = w.behind_limit_deg * kDegToRad;
    c.window.falloff = w.falloff_deg * kDegToRad;
  }
  return Success{};
}

// A pole fixed in the character's frame.
Status bind_character_pole(const IkSettings& s, const std::string& what, IkControl& c) {
  if (s.character_pole) {
    if (s.pole) return make_error(what + ": give either a pole or a character_pole, not both");
    const CharacterPole& p = *s.character_pole;
    const auto back = unit(p.back);
    const auto out = unit(p.outward);
    if (!back || !out || std::fabs(glm::dot(*back, *out)) > 0.999f)
      return make_error(what + ": character_pole back/outward must be finite, nonzero and not parallel");
    if (!std::isfinite(p.outward_deg) || p.outward_deg < 0.0f || p.outward_deg > 90.0f)
      return make_error(what + ": character_pole outward_deg must be in [0, 90]");
    if (!std::isfinite(p.slide_deg) || !(p.slide_deg > 0.0f) || p.slide_deg > 90.0f)
      return make_error(what + ": character_pole slide_deg must be in (0, 90]");
    const glm::vec3 o = glm::normalize(*out - *back * glm::dot(*out, *back));
    const float a = p.outward_deg * kDegToRad;
    c.has_character_pole = true;
    c.character_pole.base = glm::normalize(std::cos(a) * *back + std::sin(a) * o);
    c.character_pole.outward = o;
    c.character_pole.slide_sine = std::sin(p.slide_deg * kDegToRad);
  }
  return Success{};
}

Status bind_settings(const Rig& rig, const IkSettings& s, const std::string& what, IkControl& c) {
  if (auto st = bind_numbers(s, what, c); !st) return st;
  if (auto st = bind_limits(rig, s, what, c); !st) return st;
  if (auto st = bind_stretch(s, what, c); !st) return st;
  if (auto st = bind_reach_window(rig, s, what, c); !st) return st;
  return bind_character_pole(s, what, c);
}

// Seed 003 ResolveAzimuthExcess: how far (radians) azimuth `az` lies outside [-across, behind],
// to the nearer edge across the +-pi wrap. 0 inside.
float azimuth_excess(float az, float across, float behind) {
  if (az >= -across && az <= behind) return 0.0f;
  const auto wrap = [](float x) {  // [0, 2 pi)
    x = std::fmod(x, 2.0f * kPi);
    return x < 0.0f ? x + 2.0f * kPi : x;
  };
  return std::min(wrap(az - behind), wrap(-across - az));
}

}  // namespace

float reach_window_weight(const BoundReachWindow& w, const glm::vec3& dir) {
  const auto d = unit(dir);
  if (!d) return 1.0f;
  const float y = glm::dot(*d, w.up);
  const float elevation = std::acos(std::clamp(-y, -1.0f, 1.0f));  // 0 hanging, pi overhead
  const float az = std::atan2(glm::dot(*d, w.outward), glm::dot(*d, w.forward));
  const float excess = std::max(azimuth_excess(az, w.across_limit, w.behind_limit) * std::sin(elevation),
                                elevation - w.up_limit);
  if (!(excess > 0.0f)) return 1.0f;
  if (!(w.falloff > 0.0f)) return 0.0f;
  return 1.0f - smoothstep01(excess / w.falloff);
}

glm::vec3 character_pole_direction(const BoundCharacterPole& p, const glm::vec3& aim) {
  const auto a = unit(aim);
  if (!a) return p.base;
  // Sine of the angle between the aim and the base pole's line: the pole's projection off the
  // aim axis is this long; as it vanishes the pole slides to `outward` (never collinear with
  // an aim the base is collinear with: they are outward_deg apart).
  const float sine = glm::length(glm::cross(*a, p.base));
  const float slide = 1.0f - smoothstep01(sine / p.slide_sine);
  return glm::normalize((1.0f - slide) * p.base + slide * p.outward);
}

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
  // The endpoint counts as the end joint's own pivot when it lies within a length-relative
  // tolerance of it (kPivotSnapRelative of the chain's last bone, the pivot-to-pivot distance
  // from the joint before): an offset typed to 4 digits (0.1019 for a pivot at 0.10194) must
  // not leave a 4e-5-stud extra segment that turns a two-bone limb into FABRIK.
  const size_t last = static_cast<size_t>(c.joints.back());
  const glm::vec3 end_pivot = rig.c1()[last].position;
  float reference = glm::length(end_pivot);
  if (n > 1) {
    const size_t before = static_cast<size_t>(c.joints[static_cast<size_t>(n) - 2]);
    reference = glm::length(rig.c0()[last].position - rig.c1()[before].position);
  }
  c.pivot_snap_tolerance = std::max(1e-6f, kPivotSnapRelative * reference);
  c.endpoint_is_pivot = glm::length(c.end_offset - end_pivot) <= c.pivot_snap_tolerance;
  if (c.endpoint_is_pivot) c.end_offset = end_pivot;  // reach (and report) with the pivot itself
  const bool endpoint_is_pivot = c.endpoint_is_pivot;
  c.segments = (endpoint_is_pivot && n > 1) ? n - 1 : n;
  if (c.position_goal && endpoint_is_pivot && n == 1)
    return make_error(what + ": the endpoint is the chain root's own pivot, so no joint can move it");

  switch (settings.solver) {
    case IkSolver::kAuto:
      c.solver = c.segments == 1   ? BoundIkSolver::kAim
                 : c.segments == 2 ? (settings.limits.empty() ? BoundIkSolver::kTwoBone : BoundIkSolver::kFabrik)
                                   : BoundIkSolver::kFabrik;
      if (c.segments == 1 && !settings.limits.empty())
        return make_error(what + ": joint limits need fabrik or ccd (a one-segment chain aims); use solver ccd");
      break;
    case IkSolver::kTwoBone:
      if (c.segments != 2)
        return make_error(what + ": solver two_bone needs a chain of 2 segments, this one has " + std::to_string(c.segments));
      if (!settings.limits.empty()) return make_error(what + ": solver two_bone takes no joint limits (use fabrik or ccd)");
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
  if (auto st = bind_settings(rig, settings, what, c); !st) return st.error();
  return c;
}

void reset_ik_control(IkControl& control) { control.previous_bend = glm::vec3(0.0f); }

glm::vec3 ik_endpoint(const IkControl& control, std::span<const Transform> world) {
  return transform_point(world[static_cast<size_t>(control.joints.back())], control.end_offset);
}

namespace {

// The aim solver (one segment): the shortest arc from the segment to the target.
SolveReport solve_aim(IkControl& c, const glm::vec3& target) {
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  SolveReport report;
  const glm::vec3 from = c.points[1] - c.points[0];
  const glm::vec3 to = target - c.points[0];
  const float lf = glm::length(from);
  const float lt = glm::length(to);
  if (lf > 1e-6f && lt > 1e-6f && std::isfinite(lt)) c.deltas[0] = rotation_between(from / lf, to / lt);
  else c.deltas[0] = identity;
  const glm::vec3 end = c.points[0] + c.deltas[0] * from;
  report.residual = distance_between(end, target);
  report.reached = report.residual <= c.chain.tolerance;
  report.clamped = std::fabs(lt - lf) > c.chain.tolerance;
  report.passes = 1;
  return report;
}

// The two-bone solver, with last frame's bend carried onto this frame's axis and the pole's
// turn limited per second (rule IK8).
SolveReport solve_two_bone_step(IkControl& c, const glm::vec3& target, bool has_pole, const glm::vec3& pole, float dt) {
  SolveReport report;
  TwoBoneInput in;
  in.root = c.points[0];
  in.mid = c.points[1];
  in.end = c.points[2];
  in.target = target;
  in.has_pole = has_pole;
  if (has_pole) in.pole = pole;
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
  // Pole continuity per second (rule IK8): the solver's per-solve turn is rate * dt.
  // dt <= 0 or NaN holds the bend (a tiny positive turn; 0 would mean unlimited).
  TwoBoneSettings settings = c.two_bone;
  if (!(c.pole_turn_rate > 0.0f)) settings.max_bend_turn = 0.0f;  // unlimited
  else settings.max_bend_turn = dt > 0.0f ? c.pole_turn_rate * dt : 1e-9f;
  const TwoBoneResult r = solve_two_bone(in, settings);
  report = r.report;
  c.deltas[0] = r.delta_upper;
  c.deltas[1] = r.delta_lower;
  if (report.residual >= 0.0f && is_finite(r.bend_direction)) c.previous_bend = r.bend_direction;
  if (report.residual >= 0.0f && std::isfinite(r.stretch)) c.stretch_used = r.stretch;
  return report;
}

// FABRIK or CCD, with the joint limits read from the current pose.
SolveReport solve_point_chain(IkControl& c, const Rig& rig, const Transform& root, std::span<const Transform> world,
                              const glm::vec3& target, bool has_pole, const glm::vec3& pole) {
  const size_t m = static_cast<size_t>(c.segments);
  SolveReport report;
  ChainGoal goal;
  goal.target = target;
  goal.has_pole = has_pole;
  if (has_pole) goal.pole = pole;
  ChainLimits limits;
  if (c.has_limits) {
    for (size_t k = 0; k < m; ++k) c.orientations[k] = world[static_cast<size_t>(c.joints[k])].rotation;
    limits.orientations = c.orientations;
    limits.rest_local = c.rest_local;
    limits.root_parent = parent_placement(rig, root, world, c.joints[0]).rotation;
    limits.limits = c.limits;
  }
  const ChainLimits* lp = c.has_limits ? &limits : nullptr;
  report = c.solver == BoundIkSolver::kFabrik ? solve_fabrik(c.points, goal, c.solved, c.deltas, c.chain, lp)
                                              : solve_ccd(c.points, goal, c.solved, c.deltas, c.chain, lp);
  return report;
}

// Chains (FABRIK, CCD, aim) take soft reach and max_extension as a target-distance map about
// the chain root; the two-bone solver applies them itself (and stretch on top). Returns
// whether the target was pulled in.
bool soften_target(const IkControl& c, glm::vec3& target) {
  if (c.solver == BoundIkSolver::kTwoBone || !(c.soft_reach > 0.0f || c.max_extension > 0.0f)) return false;
  const glm::vec3 origin = c.points[0];
  const float length = chain_length(c.points);
  const glm::vec3 to = target - origin;
  const float d = glm::length(to);
  if (d > 1e-6f && std::isfinite(d) && length > 0.0f) {
    const float usable = c.max_extension > 0.0f ? c.max_extension * length : length;
    const float d2 = std::min(soft_reach_distance(d, usable, c.soft_reach), usable);
    if (d2 < d) {
      target = origin + to * (d2 / d);
      return true;
    }
  }
  return false;
}

// The end part's orientation goal (rule IK7), on top of the positional turns.
void add_orientation_goal(IkControl& c, std::span<const Transform> world, SolveReport& report) {
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  const size_t n = c.joints.size();
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

// Stretch on a Motor6D rig (seed 003 ResolveStretchedJointPositions): the chain is scaled
// about its root, so the elbow pivot moves (k-1)*a along the solved upper bone and the wrist
// pivot a further (k-1)*b along the solved lower bone. A pivot is origin(P * C0 * T), so
// each move shows as a T translation of that joint in its C0 frame:
//   T.position += inverse(rotation(P' * C0)) * (k - 1) * solved segment
void apply_stretch(const IkControl& c, const Rig& rig, const Transform& root, std::span<const Transform> world,
                   std::span<Transform> candidates) {
  if (c.stretch_used == 1.0f || !c.stretch_moves_end_joint) return;
  const size_t n = c.joints.size();
  const auto c0 = rig.c0();
  const auto c1 = rig.c1();
  const float extra = c.stretch_used - 1.0f;
  const glm::quat a0 = c.turns[0];
  const glm::quat a1 = glm::normalize(c.turns[1] * a0);
  const glm::vec3 seg[2] = {a0 * (c.points[1] - c.points[0]), a1 * (c.points[2] - c.points[1])};
  Transform parent = parent_placement(rig, root, world, c.joints[0]);
  for (size_t k = 0; k < n; ++k) {
    const size_t u = static_cast<size_t>(c.joints[k]);
    const Transform attach = parent * c0[u];
    if (k == 1 || k == 2) candidates[k].position += glm::conjugate(attach.rotation) * (extra * seg[k - 1]);
    parent = attach * candidates[k] * inverse(c1[u]);
  }
}

}  // namespace

SolveReport solve_ik_control(IkControl& c, const Rig& rig, const Transform& root, std::span<const Transform> local,
                             std::span<const Transform> world, const glm::vec3& target_in, const glm::vec3* pole_in,
                             float dt, std::span<Transform> candidates) {
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  const size_t n = c.joints.size();
  const size_t m = static_cast<size_t>(c.segments);
  for (size_t k = 0; k < n; ++k) {
    candidates[k] = local[static_cast<size_t>(c.joints[k])];
    c.turns[k] = identity;
  }
  c.stretch_used = 1.0f;
  c.reach_weight = 1.0f;
  SolveReport report;
  c.last = report;
  if (!is_finite(target_in)) return report;
  glm::vec3 target = target_in;
  glm::vec3 pole(0.0f);
  bool has_pole = pole_in != nullptr && is_finite(*pole_in);
  if (has_pole) pole = *pole_in;

  if (c.position_goal) {
    for (size_t k = 0; k < m; ++k) c.points[k] = joint_pivot(rig, world, c.joints[k]);
    c.points[m] = ik_endpoint(c, world);
    const glm::vec3 origin = c.points[0];
    const glm::quat root_inv = glm::conjugate(root.rotation);
    const glm::vec3 reach_dir = root_inv * (target - origin);  // character frame
    if (c.has_window) c.reach_weight = reach_window_weight(c.window, reach_dir);
    if (c.has_character_pole) {
      has_pole = true;
      pole = origin + root.rotation * character_pole_direction(c.character_pole, reach_dir) * chain_length(c.points);
    }
    const bool pre_clamped = soften_target(c, target);
    switch (c.solver) {
      case BoundIkSolver::kAim: report = solve_aim(c, target); break;
      case BoundIkSolver::kTwoBone: report = solve_two_bone_step(c, target, has_pole, pole, dt); break;
      case BoundIkSolver::kFabrik:
      case BoundIkSolver::kCcd: report = solve_point_chain(c, rig, root, world, target, has_pole, pole); break;
    }
    if (report.residual < 0.0f) {  // the solver refused the input: nothing changes
      c.stretch_used = 1.0f;
      c.last = report;
      return report;
    }
    report.clamped = report.clamped || pre_clamped;
    for (size_t k = 0; k < m; ++k) c.turns[k] = is_finite(c.deltas[k]) ? c.deltas[k] : identity;
  }

  if (c.has_orientation_goal) add_orientation_goal(c, world, report);
  candidates_from_turns(rig, root, local, world, c.joints, c.turns, candidates);
  apply_stretch(c, rig, root, world, candidates);
  c.last = report;
  return report;
}

}  // namespace asterune::detail
