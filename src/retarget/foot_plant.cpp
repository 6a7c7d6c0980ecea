#include "asterune/retarget/foot_plant.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/math/scalar.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "asterune/solvers/two_bone.hpp"

namespace asterune {
namespace {

constexpr float kDefaultBlendOut = 0.2f;
constexpr float kReachMargin = 0.002f;  // the held leg stays this fraction short of straight
constexpr float kMaxDrop = 0.25f;       // the pelvis goes down by at most this fraction of the leg

glm::vec3 sole_point(const Transform& foot_part, const glm::vec3& sole) { return foot_part.position + foot_part.rotation * sole; }

}  // namespace

glm::vec3 planted_sole_goal(const FootPlant& plant, const PlantedFoot& foot, float time, const glm::vec3& sole) {
  // The last contact that started at or before `time` decides (contacts are by start).
  const auto next = std::upper_bound(foot.contacts.begin(), foot.contacts.end(), time,
                                     [](float t, const PlantedContact& c) { return t < c.start; });
  if (next == foot.contacts.begin()) return sole;
  const PlantedContact& c = *(next - 1);
  if (time <= c.end) return c.anchor;
  const float fade = 1.0f - smoothstep01((time - c.end) / plant.blend_out);
  return fade > 0.0f ? sole + c.release * fade : sole;
}

Result<FootPlant> build_foot_plant(const Clip& clip, const AnimationBinding& binding, const Rig& rig,
                                   const FootContacts& contacts, const FootPlantSettings& settings) {
  if (binding.mode != AnimationMode::kRetarget || !binding.retarget)
    return make_error("planted feet: clip '" + clip.name + "' is not retargeted");
  FootPlant plant;
  plant.blend_out = std::isfinite(settings.blend_out) && settings.blend_out > 0.0f ? settings.blend_out : kDefaultBlendOut;
  auto roles = rig_roles(rig);
  if (!roles) return roles.error();
  const auto joint = [&](Role r) {
    if (!roles.value().has(r)) return -1;
    const JointLookup j = rig.find_joint(roles.value()[r]);
    return j.found() ? j.index : -1;
  };
  // Per source foot: its target leg, or none.
  std::vector<int> slot(contacts.feet.size(), -1);
  for (size_t i = 0; i < contacts.feet.size(); ++i) {
    const bool left = contacts.feet[i].side == "Left";
    PlantedFoot f;
    f.upper = joint(left ? Role::kLeftUpperLeg : Role::kRightUpperLeg);
    f.lower = joint(left ? Role::kLeftLowerLeg : Role::kRightLowerLeg);
    f.foot = joint(left ? Role::kLeftFoot : Role::kRightFoot);
    if (f.upper < 0 || f.lower < 0 || f.foot < 0) continue;
    // A leg is upper -> lower -> foot, each placed by the one before.
    if (rig.parents()[static_cast<size_t>(f.lower)] != f.upper || rig.parents()[static_cast<size_t>(f.foot)] != f.lower)
      continue;
    const glm::vec3 size = rig.part(rig.part1()[static_cast<size_t>(f.foot)]).size;
    f.sole = glm::vec3(0.0f, -0.5f * size.y, 0.0f);
    slot[i] = static_cast<int>(plant.feet.size());
    plant.feet.push_back(f);
  }

  const auto n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> local(n), world(n);
  std::vector<float> coverage(n);
  AnimationContext ctx = make_animation_context(binding);
  const auto sole_at = [&](const PlantedFoot& f, int frame) -> Result<glm::vec3> {
    const float t = std::min(clip.duration, static_cast<float>(frame) * contacts.dt);
    if (!sample_animation(clip, binding, rig, t, WrapMode::kClamp, ctx, local, coverage) ||
        !evaluate_world(rig, Transform::identity(), local, world))
      return make_error("planted feet: clip '" + clip.name + "' does not sample on rig '" + rig.name() + "'");
    return sole_point(world[static_cast<size_t>(f.foot)], f.sole);
  };
  for (const ContactSpan& span : contacts.spans()) {
    if (slot[span.foot] < 0) continue;
    PlantedFoot& f = plant.feet[static_cast<size_t>(slot[span.foot])];
    auto first = sole_at(f, span.first);
    if (!first) return first.error();
    auto last = sole_at(f, span.last);
    if (!last) return last.error();
    PlantedContact c;
    c.start = static_cast<float>(span.first) * contacts.dt;
    c.end = static_cast<float>(span.last) * contacts.dt;
    // Starting while the previous contact's release still fades: start from where the foot is.
    c.anchor = planted_sole_goal(plant, f, c.start, first.value());
    c.release = c.anchor - last.value();
    f.contacts.push_back(c);
  }
  return plant;
}

bool apply_foot_plant(const FootPlant& plant, const Rig& rig, float time, std::span<Transform> local,
                      std::span<Transform> world) {
  const auto n = static_cast<size_t>(rig.joint_count());
  if (local.size() != n || world.size() != n) return false;
  if (!evaluate_world(rig, Transform::identity(), local, world)) return false;

  // A held foot the leg cannot reach lowers the pelvis (the part the legs hang from) just enough:
  // the hip goes down until |ankle goal - hip| <= (a + b)(1 - kReachMargin), at most
  // kMaxDrop (a + b). Continuous in time, since every goal is.
  float drop = 0.0f;
  int pelvis = -1;
  for (const PlantedFoot& f : plant.feet) {
    if (f.contacts.empty() || time < f.contacts.front().start) continue;
    const glm::vec3 sole = sole_point(world[static_cast<size_t>(f.foot)], f.sole);
    const glm::vec3 goal = planted_sole_goal(plant, f, time, sole);
    if (goal == sole || !std::isfinite(goal.x + goal.y + goal.z)) continue;
    const glm::vec3 hip = joint_pivot(rig, world, f.upper);
    const glm::vec3 knee = joint_pivot(rig, world, f.lower);
    const glm::vec3 ankle = joint_pivot(rig, world, f.foot);
    const float span = glm::length(knee - hip) + glm::length(ankle - knee);
    const float reach = span * (1.0f - kReachMargin);
    const glm::vec3 d = ankle + (goal - sole) - hip;
    const float across2 = d.x * d.x + d.z * d.z;
    const float need = across2 < reach * reach ? -d.y - std::sqrt(reach * reach - across2) : -d.y;
    drop = std::max(drop, std::min(need, kMaxDrop * span));
    pelvis = rig.parents()[static_cast<size_t>(f.upper)];
  }
  if (drop > 0.0f && pelvis >= 0) {
    const Transform parent = parent_placement(rig, Transform::identity(), world, pelvis);
    const Transform attach = attachment_frame(rig, parent, pelvis);
    local[static_cast<size_t>(pelvis)].position += glm::conjugate(attach.rotation) * glm::vec3(0.0f, -drop, 0.0f);
    evaluate_world_subtree(rig, Transform::identity(), local, world, pelvis);
  }

  for (const PlantedFoot& f : plant.feet) {
    if (f.contacts.empty() || time < f.contacts.front().start) continue;
    const auto u = static_cast<size_t>(f.upper), l = static_cast<size_t>(f.lower), ft = static_cast<size_t>(f.foot);
    const glm::vec3 sole = sole_point(world[ft], f.sole);
    const glm::vec3 goal = planted_sole_goal(plant, f, time, sole);
    if (goal == sole || !std::isfinite(goal.x + goal.y + goal.z)) continue;

    const glm::vec3 hip = joint_pivot(rig, world, f.upper);
    const glm::vec3 knee = joint_pivot(rig, world, f.lower);
    const glm::vec3 ankle = joint_pivot(rig, world, f.foot);
    TwoBoneInput in;
    in.root = hip;
    in.mid = knee;
    in.end = ankle;
    in.target = ankle + (goal - sole);  // the foot keeps its orientation: move it rigidly
    // The knee keeps its retargeted bend; a straight leg bends toward the thigh's forward (-Z, rule R0).
    const glm::vec3 axis = ankle - hip;
    const float axis_len2 = glm::dot(axis, axis);
    glm::vec3 bend = knee - hip;
    if (axis_len2 > 0.0f) bend -= axis * (glm::dot(bend, axis) / axis_len2);
    if (glm::length(bend) < 1e-3f * std::sqrt(axis_len2)) bend = world[u].rotation * glm::vec3(0.0f, 0.0f, -1.0f);
    in.previous_bend = bend;
    const TwoBoneResult r = solve_two_bone(in);
    if (r.report.residual < 0.0f) continue;

    // New placements: the thigh turns about the hip, the shin about the solved knee; the foot
    // keeps its world rotation.
    const glm::quat foot_rotation = world[ft].rotation;
    const glm::quat upper_rotation = glm::normalize(r.delta_upper * world[u].rotation);
    const glm::quat lower_rotation = glm::normalize(r.delta_lower * r.delta_upper * world[l].rotation);
    const Transform parent_upper = parent_placement(rig, Transform::identity(), world, f.upper);
    local[u].rotation = local_rotation_for_part(rig, parent_upper, f.upper, upper_rotation);
    Transform upper_part{upper_rotation, hip + r.delta_upper * (world[u].position - hip)};
    local[l].rotation = local_rotation_for_part(rig, upper_part, f.lower, lower_rotation);
    Transform lower_part{lower_rotation, r.mid + lower_rotation * glm::conjugate(world[l].rotation) * (world[l].position - knee)};
    local[ft].rotation = local_rotation_for_part(rig, lower_part, f.foot, foot_rotation);
    evaluate_world_subtree(rig, Transform::identity(), local, world, f.upper);
  }
  return true;
}

}  // namespace asterune
