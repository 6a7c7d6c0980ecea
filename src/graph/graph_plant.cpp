// Planted feet on a graph's output (rule LO15): rule RT19 holds a clip's feet from that clip's
// own contacts, which a blend of clips at other phases no longer matches; here the contacts are
// the graph's blended ones (rule GR16), so the hold is decided per update on the output pose.
// A foot that goes down is held where its sole is, moved by the inverse of each update's root
// step so it stays put in the world while root motion carries the character; when it lifts, the
// offset fades out over RT19's blend time. The leg solve (and the pelvis drop for a held foot
// out of reach) is RT19's apply_foot_plant, fed one rewritten contact per leg: no allocation.
#include <algorithm>
#include <cmath>

#include "asterune/math/scalar.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "graph/graph_tick.hpp"

namespace asterune::graph_detail {
namespace {

// The one instant apply_foot_plant is asked about; each leg's contact is placed around it.
constexpr float kNow = 0.0f;

// The side ("Left"/"Right") the Clip nodes' contacts give a graph foot, or empty.
std::string side_of(const GraphDesc& desc, const std::string& label) {
  for (const GraphNodeDesc& n : desc.nodes)
    if (n.type == GraphNodeType::kClip && n.contacts)
      for (const FootSpec& f : n.contacts->feet)
        if (f.label == label) return f.side;
  return {};
}

glm::vec3 sole_of(const Transform& foot_part, const glm::vec3& sole) { return foot_part.position + foot_part.rotation * sole; }

}  // namespace

bool prepare_plant(GraphInstance::Impl& impl, const Rig& rig, const GraphDesc& desc, std::string& error) {
  if (!desc.plant_feet) return true;
  if (impl.foot_labels.empty()) {
    error = "graph: plant_feet needs foot contacts: no Clip node has any (rule GR16)";
    return false;
  }
  auto roles = rig_roles(rig);
  if (!roles) {
    error = "graph: plant_feet: " + roles.message();
    return false;
  }
  const auto joint = [&](Role r) {
    if (!roles.value().has(r)) return -1;
    const JointLookup j = rig.find_joint(roles.value()[r]);
    return j.found() ? j.index : -1;
  };
  for (size_t f = 0; f < impl.foot_labels.size(); ++f) {
    const std::string side = side_of(desc, impl.foot_labels[f]);
    if (side != "Left" && side != "Right") continue;
    const bool left = side == "Left";
    PlantedFoot leg;
    leg.upper = joint(left ? Role::kLeftUpperLeg : Role::kRightUpperLeg);
    leg.lower = joint(left ? Role::kLeftLowerLeg : Role::kRightLowerLeg);
    leg.foot = joint(left ? Role::kLeftFoot : Role::kRightFoot);
    // As rule RT19: only a full leg, upper -> lower -> foot, is planted.
    if (leg.upper < 0 || leg.lower < 0 || leg.foot < 0 ||
        rig.parents()[static_cast<size_t>(leg.lower)] != leg.upper ||
        rig.parents()[static_cast<size_t>(leg.foot)] != leg.lower)
      continue;
    leg.sole = glm::vec3(0.0f, -0.5f * rig.part(rig.part1()[static_cast<size_t>(leg.foot)]).size.y, 0.0f);
    leg.contacts.assign(1, PlantedContact{});
    impl.plant.feet.push_back(std::move(leg));
    impl.plant_foot.push_back(static_cast<int>(f));
  }
  if (impl.plant.feet.empty()) {
    error = "graph: plant_feet: no foot of the graph has a full leg (upper leg, lower leg, foot) on rig '" + rig.name() + "'";
    return false;
  }
  PlantFoot idle;
  idle.since = impl.plant.blend_out;  // no release fading
  impl.plant_state.assign(impl.plant.feet.size(), idle);
  impl.plant_world.assign(static_cast<size_t>(impl.joints), Transform::identity());
  return true;
}

void plant_output(GraphInstance::Impl& impl, const Rig& rig, float dt, std::span<Transform> local) {
  if (impl.plant.feet.empty()) return;
  if (!evaluate_world(rig, Transform::identity(), local, impl.plant_world)) return;
  // The character is drawn at root * step after this update (rule AN16): undo it on what is held.
  Transform back = Transform::identity();
  if (impl.extract_root) {
    const RootStep& s = impl.steps[static_cast<size_t>(impl.output)];
    back = inverse(Transform{glm::angleAxis(s.yaw, glm::vec3(0.0f, 1.0f, 0.0f)), s.travel});
  }
  const float blend = impl.plant.blend_out;
  for (size_t k = 0; k < impl.plant.feet.size(); ++k) {
    PlantedFoot& leg = impl.plant.feet[k];
    PlantFoot& st = impl.plant_state[k];
    st.anchor = transform_point(back, st.anchor);
    st.release = back.rotation * st.release;
    const glm::vec3 sole = sole_of(impl.plant_world[static_cast<size_t>(leg.foot)], leg.sole);
    const bool down = impl.foot_weight[static_cast<size_t>(impl.plant_foot[k])] >= 0.5f;
    const float fade = st.since < blend ? 1.0f - smoothstep01(st.since / blend) : 0.0f;
    if (down && !st.held) {
      st.held = 1;
      st.anchor = sole + st.release * fade;  // a release still fading: start from where the foot is
    } else if (!down && st.held) {
      st.held = 0;
      st.since = 0.0f;
      st.release = st.anchor - sole;
    } else if (!down) {
      st.since = std::min(st.since + (dt > 0.0f ? dt : 0.0f), blend);
    }
    // One contact around kNow gives apply_foot_plant this leg's goal: the anchor while held, the
    // fading release after (kNow - end = since), nothing when the release is over.
    PlantedContact& c = leg.contacts.front();
    c.anchor = st.anchor;
    c.release = st.release;
    if (st.held) {
      c.start = kNow - 1.0f;
      c.end = kNow + 1.0f;
    } else if (st.since < blend) {
      c.end = kNow - st.since;
      c.start = c.end - 1.0f;
    } else {
      c.start = c.end = kNow + 1.0f;  // after now: not applied
    }
    if (!std::isfinite(c.anchor.x + c.anchor.y + c.anchor.z + c.release.x + c.release.y + c.release.z)) {
      st = PlantFoot{};  // a poisoned hold is dropped, never drawn
      st.since = blend;
      c.start = c.end = kNow + 1.0f;
    }
  }
  apply_foot_plant(impl.plant, rig, kNow, local, impl.plant_world);
}

}  // namespace asterune::graph_detail
