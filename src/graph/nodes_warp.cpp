// The warp nodes (rules LO6-LO9): StrideWarp fits a locomotion pose's stride to the gameplay
// speed (feet scaled along the travel, pelvis lowered, legs re-solved, the rest from the play
// rate) and OrientationWarp turns the lower body toward the movement direction while the spine
// keeps the upper body facing. The math is in solvers/locomotion_warp.hpp; this file measures
// the pose and writes the solved turns back into the node's local transforms.
#include "graph/nodes_warp.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/solvers/locomotion_warp.hpp"

namespace asterune::graph_detail {
namespace {

constexpr float kHalfPi = 1.57079632679f;
const glm::vec3 kUp(0.0f, 1.0f, 0.0f);       // the model frame's up (the rig's root part)
const glm::vec3 kFacing(0.0f, 0.0f, -1.0f);  // Roblox's look vector: -Z

bool is_warp(GraphNodeType t) { return t == GraphNodeType::kStrideWarp || t == GraphNodeType::kOrientationWarp; }

glm::quat yaw_turn(float yaw) { return glm::angleAxis(yaw, kUp); }

// The input's nominal root velocity in the pose's frame (studs/s): a Clip's trim travel over
// its length at its rate (literal trims; a bound trim has none cached: 0), blends weighted
// (Synced: each input at the shared cycle's rate), selectors their current input, a Speed its
// scale, a StrideWarp the gameplay speed along its input's travel, an OrientationWarp its turn.
glm::vec3 nominal_velocity(Ticker& t, int node);

StrideWarpRate stride_rate(Ticker& t, int node, glm::vec3* direction, float* pose_speed = nullptr) {
  const NodeDef& d = t.impl.defs[static_cast<size_t>(node)];
  glm::vec3 v = nominal_velocity(t, d.pose);
  v -= kUp * glm::dot(v, kUp);
  const float speed = glm::length(v);
  if (direction) *direction = speed > 1e-6f && std::isfinite(speed) ? v / speed : kFacing;
  if (pose_speed) *pose_speed = std::isfinite(speed) ? speed : 0.0f;
  return stride_warp_rate(t.impl.num(d.speed), std::isfinite(speed) ? speed : 0.0f, d.clamp_min, d.clamp_max);
}

glm::vec3 clip_velocity(Ticker& t, const NodeDef& d) {
  if (!d.heads_cached) return glm::vec3(0.0f);
  const Ticker::Trim trim = t.trim(d);
  const float len = trim.te - trim.ts;
  const float rate = std::abs(t.impl.num(d.speed));
  if (!(len > 0.0f) || !std::isfinite(rate)) return glm::vec3(0.0f);
  const glm::vec3 travel = d.head_te_pos - d.head_ts_pos;
  return (trim.forward ? rate : -rate) / len * travel;
}

glm::vec3 blend_velocity(Ticker& t, int node) {
  const NodeDef& d = t.impl.defs[static_cast<size_t>(node)];
  const float* w = t.weights(node);
  const bool synced = d.phase_sync == GraphPhaseSync::kSynced;
  const float shared = synced ? t.duration(node) : 0.0f;
  glm::vec3 v(0.0f);
  for (size_t k = 0; k < d.inputs.size(); ++k) {
    if (w[k] == 0.0f) continue;
    const int c = d.inputs[k].node;
    float scale = w[k];
    if (synced && shared > 0.0f) scale *= t.duration(c) / shared;  // each input plays one shared cycle
    v += scale * nominal_velocity(t, c);
  }
  return v;
}

glm::vec3 nominal_velocity(Ticker& t, int node) {
  const NodeDef& d = t.impl.defs[static_cast<size_t>(node)];
  const NodeState& st = t.impl.state[static_cast<size_t>(node)];
  switch (d.type) {
    case GraphNodeType::kClip: return clip_velocity(t, d);
    case GraphNodeType::kBlend1D:
    case GraphNodeType::kBlend2D: return blend_velocity(t, node);
    case GraphNodeType::kSelect:
    case GraphNodeType::kPrioritySelect:
    case GraphNodeType::kSequence:
    case GraphNodeType::kRandomSequence:
      return st.cur >= 0 ? nominal_velocity(t, d.inputs[static_cast<size_t>(st.cur)].node) : glm::vec3(0.0f);
    case GraphNodeType::kOver:
    case GraphNodeType::kAdd: return nominal_velocity(t, d.base);
    case GraphNodeType::kSubtract: return nominal_velocity(t, d.a);
    case GraphNodeType::kMask: return nominal_velocity(t, d.pose);
    case GraphNodeType::kSpeed: {
      const float s = t.impl.num(d.speed);
      return std::isfinite(s) ? s * nominal_velocity(t, d.pose) : glm::vec3(0.0f);
    }
    case GraphNodeType::kStrideWarp: {
      glm::vec3 dir(0.0f);
      const StrideWarpRate r = stride_rate(t, node, &dir);
      return r.valid && r.ratio != 1.0f ? t.impl.num(d.speed) * dir : nominal_velocity(t, d.pose);
    }
    case GraphNodeType::kOrientationWarp: {
      const OrientationWarpTurns o = orientation_warp_turns(t.impl.num(d.direction), kHalfPi, 0);
      return yaw_turn(o.yaw) * nominal_velocity(t, d.pose);
    }
  }
  return glm::vec3(0.0f);
}

void copy_pose(GraphInstance::Impl& impl, int from, int to) {
  const size_t n = static_cast<size_t>(impl.joints);
  std::memcpy(static_cast<void*>(impl.pose(to)), impl.pose(from), n * sizeof(Transform));
  std::memcpy(impl.cov(to), impl.cov(from), n * sizeof(float));
}

// p * c, skipping the rotation product when c's is exactly identity (most Roblox C0/C1).
Transform mul(const Transform& p, const Transform& c) {
  if (c.rotation == glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) return Transform{p.rotation, p.position + p.rotation * c.position};
  return p * c;
}
Transform child_world(const Rig& rig, const Transform& parent, std::span<const Transform> local, int j) {
  const size_t k = static_cast<size_t>(j);
  return mul(mul(mul(parent, rig.c0()[k]), local[k]), rig.c1_inverse()[k]);
}
// Joint j's child part placement with the root part at the origin, walking only its ancestors
// (the warps read a few chains, so the whole rig's walk is not needed).
Transform part_world(const Rig& rig, std::span<const Transform> local, int j) {
  int chain[64];
  int n = 0;
  for (int k = j; k >= 0 && n < 64; k = rig.parent(k)) chain[n++] = k;
  Transform w = rig.anchor()[static_cast<size_t>(chain[n - 1])];
  for (int i = n - 1; i >= 0; --i) w = child_world(rig, w, local, chain[i]);
  return w;
}
glm::vec3 pivot_of(const Rig& rig, const Transform& part, int j) {
  return transform_point(part, rig.c1()[static_cast<size_t>(j)].position);
}
// Gives joint j's child part the world rotation `part` under a parent part of world rotation
// `parent`: T = (P C0)^-1 part C1 in rotations alone (rule R8), identity factors skipped.
void set_part_rotation(const Rig& rig, std::span<Transform> local, const glm::quat& parent, int j, const glm::quat& part) {
  const size_t k = static_cast<size_t>(j);
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  const glm::quat& c0 = rig.c0()[k].rotation;
  const glm::quat& c1 = rig.c1()[k].rotation;
  const glm::quat a = c0 == identity ? parent : parent * c0;
  const glm::quat frame = c1 == identity ? part : part * c1;
  local[k].rotation = glm::normalize(glm::conjugate(a) * frame);
}

void warp_stride(GraphInstance::Impl& impl, const Rig& rig, int node) {
  WarpState& ws = impl.warp[static_cast<size_t>(node)];
  const WarpRig& wr = impl.warp_rig;
  if (ws.stride_scale == 1.0f) return;  // nothing to scale: the pose stays bit-identical
  const std::span<Transform> local(impl.pose(node), static_cast<size_t>(impl.joints));
  const Transform pelvis = part_world(rig, local, wr.pelvis);
  std::array<StrideWarpLeg, kMaxWarpLegs> legs{};
  std::array<std::array<glm::quat, 3>, kMaxWarpLegs> rot{};
  for (int i = 0; i < wr.legs; ++i) {
    const WarpLegJoints& l = wr.leg[static_cast<size_t>(i)];
    const Transform hip = child_world(rig, pelvis, local, l.hip);
    const Transform knee = child_world(rig, hip, local, l.knee);
    const Transform ankle = child_world(rig, knee, local, l.ankle);
    legs[static_cast<size_t>(i)] = {pivot_of(rig, hip, l.hip), pivot_of(rig, knee, l.knee), pivot_of(rig, ankle, l.ankle)};
    rot[static_cast<size_t>(i)] = {hip.rotation, knee.rotation, ankle.rotation};
  }
  StrideWarpInput in;
  in.pelvis = pivot_of(rig, pelvis, wr.pelvis);
  in.direction = ws.direction;
  in.up = kUp;
  in.stride_scale = ws.stride_scale;
  in.legs = std::span<const StrideWarpLeg>(legs.data(), static_cast<size_t>(wr.legs));
  const StrideWarpResult r = solve_stride_warp(in);
  if (!r.valid) return;
  ws.pelvis_drop = r.pelvis_drop;
  if (r.pelvis_drop > 0.0f) {
    // The drop is a translation along up of the pelvis joint's frame: T's position moves by it
    // taken into the attachment frame (the part's rotation, and so the legs' solve, unchanged).
    const int parent = rig.parent(wr.pelvis);
    const Transform above = parent < 0 ? rig.anchor()[static_cast<size_t>(wr.pelvis)] : part_world(rig, local, parent);
    const glm::quat attach = above.rotation * rig.c0()[static_cast<size_t>(wr.pelvis)].rotation;
    local[static_cast<size_t>(wr.pelvis)].position += glm::conjugate(attach) * (-r.pelvis_drop * kUp);
  }
  for (int i = 0; i < wr.legs; ++i) {
    const TwoBoneResult& leg = r.legs[static_cast<size_t>(i)];
    if (leg.report.residual < 0.0f) continue;  // the solver refused the leg: it keeps its pose
    const WarpLegJoints& l = wr.leg[static_cast<size_t>(i)];
    const auto& q = rot[static_cast<size_t>(i)];
    const glm::quat hip = leg.delta_upper * q[0];
    const glm::quat knee = leg.delta_lower * (leg.delta_upper * q[1]);
    set_part_rotation(rig, local, pelvis.rotation, l.hip, hip);
    set_part_rotation(rig, local, hip, l.knee, knee);
    set_part_rotation(rig, local, knee, l.ankle, q[2]);  // the foot keeps its animated orientation
  }
}

void warp_orientation(GraphInstance::Impl& impl, const Rig& rig, int node) {
  const WarpState& ws = impl.warp[static_cast<size_t>(node)];
  const WarpRig& wr = impl.warp_rig;
  if (ws.yaw == 0.0f) return;
  const std::span<Transform> local(impl.pose(node), static_cast<size_t>(impl.joints));
  const OrientationWarpTurns turns = orientation_warp_turns(ws.yaw, kHalfPi, wr.spine);
  const int parent = rig.parent(wr.pelvis);
  const Transform above = parent < 0 ? rig.anchor()[static_cast<size_t>(wr.pelvis)] : part_world(rig, local, parent);
  // The animated chain's rotations, before any turn.
  std::array<glm::quat, kMaxWarpSpine> spine{};
  Transform at = child_world(rig, above, local, wr.pelvis);
  const glm::quat pelvis = at.rotation;
  for (int k = 0; k < wr.spine; ++k) {
    at = child_world(rig, at, local, wr.spine_joint[static_cast<size_t>(k)]);
    spine[static_cast<size_t>(k)] = at.rotation;
  }
  // The lower body turns about up through the pelvis pivot (the legs and feet follow it); each
  // spine joint then ends at its share of the turn of the pose's own orientation.
  glm::quat turned = yaw_turn(turns.yaw) * pelvis;
  set_part_rotation(rig, local, above.rotation, wr.pelvis, turned);
  for (int k = 0; k < wr.spine; ++k) {
    const glm::quat next = yaw_turn(turns.spine_yaw[static_cast<size_t>(k)]) * spine[static_cast<size_t>(k)];
    set_part_rotation(rig, local, turned, wr.spine_joint[static_cast<size_t>(k)], next);
    turned = next;
  }
}

int role_joint(const Rig& rig, const RoleMap& roles, Role role) {
  if (!roles.has(role)) return -1;
  const JointLookup l = rig.find_joint(roles[role]);
  return l.found() ? l.index : -1;
}

}  // namespace

bool prepare_warp(GraphInstance::Impl& impl, const Rig& rig, std::string& error) {
  impl.warp.assign(impl.defs.size(), WarpState{});
  int first = -1;
  for (size_t i = 0; i < impl.defs.size() && first < 0; ++i)
    if (is_warp(impl.defs[i].type)) first = static_cast<int>(i);
  if (first < 0) return true;
  const NodeDef& d = impl.defs[static_cast<size_t>(first)];
  const std::string who = "graph node '" + d.id + "' (#" + std::to_string(first) + ", " + to_string(d.type) + ")";
  Result<RoleMap> roles = rig_roles(rig);
  if (!roles) return error = who + ": " + roles.message(), false;
  WarpRig& wr = impl.warp_rig;
  const Role sides[2][3] = {{Role::kLeftUpperLeg, Role::kLeftLowerLeg, Role::kLeftFoot},
                            {Role::kRightUpperLeg, Role::kRightLowerLeg, Role::kRightFoot}};
  for (const auto& side : sides) {
    WarpLegJoints l{role_joint(rig, roles.value(), side[0]), role_joint(rig, roles.value(), side[1]),
                    role_joint(rig, roles.value(), side[2])};
    if (l.hip < 0 || l.knee < 0 || l.ankle < 0 || rig.parent(l.knee) != l.hip || rig.parent(l.ankle) != l.knee)
      return error = who + ": the rig '" + rig.name() + "' has no " + role_name(side[0]) + " - " + role_name(side[1]) +
                     " - " + role_name(side[2]) + " chain (humanoid roles, rule RT8)",
             false;
    wr.leg[static_cast<size_t>(wr.legs++)] = l;
  }
  wr.pelvis = rig.parent(wr.leg[0].hip);
  if (wr.pelvis < 0 || rig.parent(wr.leg[1].hip) != wr.pelvis)
    return error = who + ": the legs of the rig '" + rig.name() + "' do not hang from one joint (the pelvis)", false;
  // The spine: from the highest torso role down to the pelvis, then pelvis side first.
  int top = -1;
  for (const Role r : {Role::kUpperChest, Role::kChest, Role::kSpine})
    if (top < 0) top = role_joint(rig, roles.value(), r);
  for (int j = top; j >= 0 && j != wr.pelvis; j = rig.parent(j)) {
    if (wr.spine == kMaxWarpSpine) return error = who + ": the spine has more than 8 joints", false;
    wr.spine_joint[static_cast<size_t>(wr.spine++)] = j;
  }
  bool orientation = false;
  for (const NodeDef& n : impl.defs) orientation = orientation || n.type == GraphNodeType::kOrientationWarp;
  if (orientation && (top < 0 || wr.spine == 0 || rig.parent(wr.spine_joint[static_cast<size_t>(wr.spine - 1)]) != wr.pelvis))
    return error = who + ": the rig '" + rig.name() + "' has no spine joint above the pelvis (chest role, rule RT8)", false;
  std::reverse(wr.spine_joint.begin(), wr.spine_joint.begin() + wr.spine);
  return true;
}

void tick_warp(Ticker& t, int node, float dt, float share, float escale, const Drive* drive) {
  const NodeDef& d = t.impl.defs[static_cast<size_t>(node)];
  WarpState& ws = t.impl.warp[static_cast<size_t>(node)];
  ws = WarpState{};
  if (d.type == GraphNodeType::kStrideWarp) {
    const StrideWarpRate r = stride_rate(t, node, &ws.direction, &ws.pose_speed);
    ws.stride_scale = r.stride_scale;
    ws.play_rate = r.play_rate;
    ws.clamped = r.clamped;
    ws.ignored = !r.valid;  // rule LO9: the pose plays unwarped
    t.tick(d.pose, dt * r.play_rate, share, escale, drive);
    return;
  }
  const OrientationWarpTurns o = orientation_warp_turns(t.impl.num(d.direction), kHalfPi, t.impl.warp_rig.spine);
  ws.yaw = o.yaw;
  ws.clamped = o.clamped;
  ws.ignored = !o.valid;
  t.tick(d.pose, dt, share, escale, drive);
}

float warp_duration(Ticker& t, int node) {
  const NodeDef& d = t.impl.defs[static_cast<size_t>(node)];
  const float base = t.duration(d.pose);
  if (d.type != GraphNodeType::kStrideWarp) return base;
  const StrideWarpRate r = stride_rate(t, node, nullptr);
  return r.play_rate > 0.0f ? base / r.play_rate : 0.0f;
}

bool evaluate_warp(GraphInstance::Impl& impl, const Rig& rig, int node) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  if (!evaluate(impl, rig, d.pose)) return false;
  copy_pose(impl, d.pose, node);
  if (d.type == GraphNodeType::kStrideWarp) warp_stride(impl, rig, node);
  else warp_orientation(impl, rig, node);
  return true;
}

void warp_step(GraphInstance::Impl& impl, int node) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  const WarpState& ws = impl.warp[static_cast<size_t>(node)];
  RootStep& step = impl.steps[static_cast<size_t>(node)];
  if (d.type == GraphNodeType::kStrideWarp) step.travel *= ws.stride_scale;
  else step.travel = yaw_turn(ws.yaw) * step.travel;
}

}  // namespace asterune::graph_detail

namespace asterune {

GraphWarpReport GraphInstance::warp_report(int node) const {
  GraphWarpReport r;
  if (node < 0 || node >= node_count()) return r;
  const auto& d = impl_->defs[static_cast<size_t>(node)];
  if (!graph_detail::is_warp(d.type) || !impl_->state[static_cast<size_t>(node)].active) return r;
  const graph_detail::WarpState& ws = impl_->warp[static_cast<size_t>(node)];
  r.warp = true;
  r.stride_scale = ws.stride_scale;
  r.play_rate = ws.play_rate;
  r.pose_speed = ws.pose_speed;
  r.pelvis_drop = ws.pelvis_drop;
  r.lower_body_yaw = ws.yaw;
  r.clamped = ws.clamped;
  r.ignored = ws.ignored;
  return r;
}

}  // namespace asterune
