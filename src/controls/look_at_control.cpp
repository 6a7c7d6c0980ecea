#include "controls/look_at_control.hpp"

#include <cmath>

#include "controls/rig_chain.hpp"
#include "asterune/math/scalar.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

namespace asterune::detail {
Result<LookAtControl> build_look_at_control(const Rig& rig, const LookAtSettings& settings, const std::string& what) {
  auto chain = resolve_chain(rig, settings.chain_root, settings.end, what);
  if (!chain) return chain.error();
  LookAtControl c;
  c.joints = std::move(chain).value();
  c.end_joint = c.joints.back();
  const float f_len = glm::length(settings.forward);
  if (!is_finite(settings.forward) || !(f_len > 1e-6f)) return make_error(what + ": forward axis is zero or not finite");
  c.forward = settings.forward / f_len;
  if (!std::isfinite(settings.yaw_limit_deg) || settings.yaw_limit_deg < 0.0f)
    return make_error(what + ": yaw_limit_deg must be a finite angle >= 0");
  if (!std::isfinite(settings.pitch_limit_deg) || settings.pitch_limit_deg < 0.0f)
    return make_error(what + ": pitch_limit_deg must be a finite angle >= 0");
  c.params.yaw_limit = settings.yaw_limit_deg * kDegToRad;
  c.params.pitch_limit = settings.pitch_limit_deg * kDegToRad;
  const size_t n = c.joints.size();
  if (settings.joint_weights.empty()) {
    for (size_t k = 0; k < n; ++k) c.weights.push_back(1.0f / static_cast<float>(n - k));
  } else {
    if (settings.joint_weights.size() != n)
      return make_error(what + ": joint_weights has " + std::to_string(settings.joint_weights.size()) +
                        " entries but the chain has " + std::to_string(n) + " joints");
    for (float w : settings.joint_weights)
      if (!std::isfinite(w) || w < 0.0f) return make_error(what + ": joint_weights must be finite and >= 0");
    c.weights = settings.joint_weights;
  }
  // Rest facing in root space: the end part's rest placement with the root at identity (LA1).
  std::vector<Transform> rest(static_cast<size_t>(rig.joint_count()));
  evaluate_rest_world(rig, Transform::identity(), rest);
  c.params.rest_facing = glm::normalize(rest[static_cast<size_t>(c.end_joint)].rotation * c.forward);
  c.params.up = glm::vec3(0.0f, 1.0f, 0.0f);
  c.pivots.resize(n);
  c.turns.resize(n);
  c.world_turns.resize(n);
  return c;
}

LookAtReport solve_look_at_control(LookAtControl& c, const Rig& rig, const Transform& root,
                                   std::span<const Transform> local, std::span<const Transform> world,
                                   const glm::vec3& target, std::span<Transform> candidates) {
  const size_t n = c.joints.size();
  for (size_t k = 0; k < n; ++k) candidates[k] = local[static_cast<size_t>(c.joints[k])];
  const Transform& end = world[static_cast<size_t>(c.end_joint)];
  for (size_t k = 0; k < n; ++k)
    c.pivots[k] = inverse_transform_point(root, joint_pivot(rig, world, c.joints[k]));
  const glm::quat root_inv = glm::conjugate(root.rotation);
  const glm::vec3 eye = inverse_transform_point(root, end.position);
  const glm::vec3 facing = root_inv * (end.rotation * c.forward);
  const glm::vec3 target_root = inverse_transform_point(root, target);
  const LookAtReport report = solve_look_at(c.pivots, eye, facing, target_root, c.weights, c.params, c.turns);
  if (!report.valid) return report;
  // Root-space turns -> world-space turns: q_world = R * q_root * R^-1 (identity stays exact).
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  for (size_t k = 0; k < n; ++k)
    c.world_turns[k] = c.turns[k] == identity ? identity : glm::normalize(root.rotation * c.turns[k] * root_inv);
  candidates_from_turns(rig, root, local, world, c.joints, c.world_turns, candidates);
  return report;
}

LookAtReport measure_look_at_control(const LookAtControl& c, const Transform& root, std::span<const Transform> world,
                                     const glm::vec3& target) {
  const Transform& end = world[static_cast<size_t>(c.end_joint)];
  const glm::quat root_inv = glm::conjugate(root.rotation);
  return measure_look_at(inverse_transform_point(root, end.position), root_inv * (end.rotation * c.forward),
                         inverse_transform_point(root, target), c.params);
}

}  // namespace asterune::detail
