#include "controls/spring_control.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "asterune/solvers/point_chain.hpp"
#include "controls/rig_chain.hpp"

namespace asterune::detail {

namespace {

constexpr float kMinSegment = 1e-4f;  // studs: shorter segments have no direction to swing

// Animated pivot of the chain root, endpoints and segment lengths from the current pose.
void read_animated(const SpringControl& c, const Rig& rig, std::span<const Transform> world, glm::vec3& root_pivot,
                   std::span<glm::vec3> targets, std::span<float> lengths) {
  const size_t n = c.joints.size();
  root_pivot = joint_pivot(rig, world, c.joints[0]);
  glm::vec3 pivot = root_pivot;
  for (size_t k = 0; k < n; ++k) {
    targets[k] = k + 1 < n ? joint_pivot(rig, world, c.joints[k + 1]) : spring_tip(c, world);
    lengths[k] = glm::length(targets[k] - pivot);
    pivot = targets[k];
  }
}

SpringShape shape_of(const BoundSpringCollider& b, const Transform& root, std::span<const Transform> world) {
  SpringShape s;
  s.a = evaluate_target(b.a, root, world, 0.0f);
  s.b = b.capsule ? evaluate_target(b.b, root, world, 0.0f) : s.a;
  s.radius = b.radius;
  s.capsule = b.capsule;
  return s;
}

}  // namespace

Result<SpringControl> build_spring_control(const Rig& rig, const SpringSettings& settings, const std::string& what) {
  auto chain = resolve_chain(rig, settings.chain_root, settings.end, what);
  if (!chain) return chain.error();
  SpringControl c;
  c.joints = std::move(chain).value();
  const size_t n = c.joints.size();
  c.end_offset = settings.end_offset ? *settings.end_offset : -rig.c1()[static_cast<size_t>(c.joints.back())].position;
  if (!is_finite(c.end_offset)) return make_error(what + ": end_offset is not finite");
  if (!std::isfinite(settings.stiffness) || settings.stiffness < 0.0f || settings.stiffness > kSpringMaxStiffness)
    return make_error(what + ": stiffness must be a number in [0, " + std::to_string(static_cast<int>(kSpringMaxStiffness)) +
                      "] (1/s^2)");
  if (!std::isfinite(settings.damping) || settings.damping < 0.0f || settings.damping > kSpringMaxDamping)
    return make_error(what + ": damping must be a number in [0, " + std::to_string(static_cast<int>(kSpringMaxDamping)) +
                      "] (1/s)");
  if (!is_finite(settings.gravity)) return make_error(what + ": gravity is not finite");
  c.params = SpringParams{settings.stiffness, settings.damping, settings.gravity};
  c.step = spring_propagator(c.params, kSpringStep);

  for (size_t i = 0; i < settings.colliders.size(); ++i) {
    const SpringCollider& sc = settings.colliders[i];
    const std::string cw = what + " collider " + std::to_string(i);
    if (!(sc.radius > 0.0f) || !std::isfinite(sc.radius)) return make_error(cw + ": radius must be a positive number");
    const JointLookup hit = rig.find_joint(sc.part);
    if (hit.found() && std::find(c.joints.begin(), c.joints.end(), hit.index) != c.joints.end())
      return make_error(cw + ": part '" + sc.part +
                        "' belongs to the spring chain itself, and a chain is not a collider for itself");
    BoundSpringCollider b;
    b.capsule = sc.shape == SpringColliderShape::kCapsule;
    b.radius = sc.radius;
    auto a = build_bound_target(target_on_part(sc.part, sc.offset), rig, cw);
    if (!a) return a.error();
    b.a = std::move(a).value();
    auto e = build_bound_target(target_on_part(sc.part, b.capsule ? sc.offset_end : sc.offset), rig, cw + " offset_end");
    if (!e) return e.error();
    b.b = std::move(e).value();
    c.colliders.push_back(std::move(b));
  }

  c.points.resize(n);
  c.velocities.resize(n);
  c.clock_targets.resize(n);
  c.shown.resize(n);
  c.lengths.resize(n);
  c.previous_targets.resize(n);
  c.previous_shapes.resize(c.colliders.size());
  c.prior_targets.resize(n);
  c.prior_shapes.resize(c.colliders.size());
  c.targets.resize(n);
  c.frame_lengths.resize(n);
  c.shapes.resize(c.colliders.size());
  c.before.resize(n + 1);
  c.after.resize(n + 1);
  c.turns.resize(n);

  // Zero-length segments have no direction: refuse them here rather than hold them each frame.
  std::vector<Transform> rest(static_cast<size_t>(rig.joint_count()));
  evaluate_rest_world(rig, Transform::identity(), rest);
  glm::vec3 root_pivot;
  read_animated(c, rig, rest, root_pivot, c.targets, c.frame_lengths);
  for (size_t k = 0; k < n; ++k) {
    if (!(c.frame_lengths[k] >= kMinSegment)) {
      const std::string part = rig.child_name(c.joints[k]);
      return make_error(what + ": segment " + std::to_string(k) + " (part '" + part +
                        "') has zero length in the rest pose: its endpoint" +
                        (k + 1 < n ? " (the next joint's pivot)" : " (end_offset)") +
                        " lies on its pivot, so it has no direction to swing");
    }
  }
  return c;
}

void reset_spring_control(SpringControl& c) {
  c.has_state = false;
  std::fill(c.points.begin(), c.points.end(), glm::vec3(0.0f));
  std::fill(c.velocities.begin(), c.velocities.end(), glm::vec3(0.0f));
  std::fill(c.clock_targets.begin(), c.clock_targets.end(), glm::vec3(0.0f));
  c.clock_root = glm::vec3(0.0f);
  c.lag = 0.0f;
  c.prior_dt = 0.0f;
}

glm::vec3 spring_tip(const SpringControl& c, std::span<const Transform> world) {
  return transform_point(world[static_cast<size_t>(c.joints.back())], c.end_offset);
}

SpringFrameReport solve_spring_control(SpringControl& c, const Rig& rig, const Transform& root,
                                       std::span<const Transform> local, std::span<const Transform> world, float dt,
                                       std::span<Transform> candidates) {
  const size_t n = c.joints.size();
  for (size_t k = 0; k < n; ++k) candidates[k] = local[static_cast<size_t>(c.joints[k])];
  SpringFrameReport report;

  glm::vec3 root_pivot;
  read_animated(c, rig, world, root_pivot, c.targets, c.frame_lengths);
  if (!is_finite(root_pivot)) return report;
  for (size_t k = 0; k < n; ++k)
    if (!is_finite(c.targets[k]) || !(c.frame_lengths[k] >= kMinSegment) || !std::isfinite(c.frame_lengths[k]))
      return report;
  for (size_t i = 0; i < c.colliders.size(); ++i) {
    c.shapes[i] = shape_of(c.colliders[i], root, world);
    if (!is_finite(c.shapes[i].a) || !is_finite(c.shapes[i].b)) return report;
  }

  // S5: storage built for other segment lengths (an animation that moves a pivot, a rescaled
  // part) is incompatible: start again from the animated pose.
  if (c.has_state) {
    for (size_t k = 0; k < n; ++k) {
      if (std::fabs(c.frame_lengths[k] - c.lengths[k]) > 1e-4f * std::max(1.0f, c.lengths[k])) {
        c.has_state = false;
        ++report.resets;
        break;
      }
    }
  }
  SpringChainState state;
  state.points = c.points;
  state.velocities = c.velocities;
  state.targets = c.clock_targets;
  state.root = c.clock_root;
  state.lag = c.lag;
  if (!c.has_state) {
    // A first frame (or one after a reset) starts on the animated pose at this frame's time,
    // with zero velocity, and does not step: there is no previous frame to move from.
    spring_start(state, root_pivot, c.targets);
    std::copy(c.targets.begin(), c.targets.end(), c.shown.begin());
    std::copy(c.frame_lengths.begin(), c.frame_lengths.end(), c.lengths.begin());
    c.prior_dt = 0.0f;
  } else {
    SpringChainFrame frame;
    frame.root_from = c.previous_root;
    frame.root_to = root_pivot;
    frame.targets_from = c.previous_targets;
    frame.targets_to = c.targets;
    frame.lengths = c.lengths;
    frame.shapes_from = c.previous_shapes;
    frame.shapes_to = c.shapes;
    frame.prior_dt = c.prior_dt;
    frame.root_prior = c.prior_root;
    frame.targets_prior = c.prior_targets;
    frame.shapes_prior = c.prior_shapes;
    frame.step = &c.step;
    const SpringStepReport step = step_spring_chain(c.params, frame, dt, state, c.shown);
    if (!step.ok) return report;
    report.substeps = step.substeps;
    report.resets += step.resets;
    // S9: the last frame becomes the prior one when time moved (by the clamped dt). A reset
    // (S6) started the chain at this frame, so frames before it are not part of its path; a
    // frame that did not move time replaces the last frame and keeps the prior one.
    const float moved = spring_substeps(dt).dt;
    if (step.resets > 0) {
      c.prior_dt = 0.0f;
    } else if (moved > 0.0f) {
      c.prior_dt = moved;
      c.prior_root = c.previous_root;
      std::copy(c.previous_targets.begin(), c.previous_targets.end(), c.prior_targets.begin());
      std::copy(c.previous_shapes.begin(), c.previous_shapes.end(), c.prior_shapes.begin());
    }
  }
  c.clock_root = state.root;
  c.lag = state.lag;
  c.has_state = true;
  c.previous_root = root_pivot;
  std::copy(c.targets.begin(), c.targets.end(), c.previous_targets.begin());
  std::copy(c.shapes.begin(), c.shapes.end(), c.previous_shapes.begin());

  // S4: each segment turns about its pivot onto its simulated direction (shortest arc, so the
  // animated twist stays), parents first.
  c.before[0] = root_pivot;
  c.after[0] = root_pivot;
  for (size_t k = 0; k < n; ++k) {
    c.before[k + 1] = c.targets[k];
    c.after[k + 1] = c.shown[k];
  }
  chain_deltas(c.before, c.after, c.turns);
  candidates_from_turns(rig, root, local, world, c.joints, c.turns, candidates);
  report.ok = true;
  return report;
}

}  // namespace asterune::detail
