// Root motion and foot contacts of a graph (rule GR16): each Clip node extracts its root
// joint's heading change as a clip track does (rule AN9, the animator's heading helper) and
// keeps its pose in place; every other node blends its inputs' steps and contact states with
// the weights its pose blend gives the root joint, so the graph's output step is the delta of
// the blended motion and its contacts the blended contact states.
#include <algorithm>
#include <cmath>

#include "anim/animator_track.hpp"
#include "asterune/rig/rig.hpp"
#include "graph/graph_tick.hpp"
#include "graph/nodes_warp.hpp"

namespace asterune::graph_detail {
namespace {

using animator_detail::heading;

constexpr int kMaxRootLoops = 1024;  // whole laps one step walks (as rule AN9's tracks)
constexpr float kPi = 3.14159265358979f;

Transform head_of(float yaw, float x, float z) {
  return Transform{glm::angleAxis(yaw, glm::vec3(0.0f, 1.0f, 0.0f)), glm::vec3(x, 0.0f, z)};
}
// The turn of a rotation about +Y (a heading's), wrapped into (-pi, pi].
float yaw_of(const glm::quat& q) {
  float a = 2.0f * std::atan2(q.y, q.w);
  if (a > kPi) a -= 2.0f * kPi;
  if (a <= -kPi) a += 2.0f * kPi;
  return a;
}
// The heading of a pose's root joint, with its yaw as stored (so a restored state and an
// uninterrupted run rebuild the same transform).
Transform pose_heading(const Rig& rig, size_t r, const Transform& local, float& yaw) {
  const Transform h = heading(rig.c0()[r] * local * rig.c1_inverse()[r]);
  yaw = 2.0f * std::atan2(h.rotation.y, h.rotation.w);
  return head_of(yaw, h.position.x, h.position.z);
}

// The root heading of a Clip node at clip time t: from the build's cache for literal trims,
// else sampled (a bound trim moves).
Transform heading_at(GraphInstance::Impl& impl, const Rig& rig, const NodeDef& d, float t, bool at_end) {
  const size_t r = static_cast<size_t>(impl.root_joint);
  if (d.heads_cached) {
    const float yaw = at_end ? d.head_te_yaw : d.head_ts_yaw;
    const glm::vec3& p = at_end ? d.head_te_pos : d.head_ts_pos;
    return head_of(yaw, p.x, p.z);
  }
  float yaw = 0.0f;
  if (!sample_animation(*d.clip, *d.binding, rig, t, WrapMode::kClamp, impl.contexts[static_cast<size_t>(d.context)],
                        impl.scratch_pose, impl.scratch_cov))
    return Transform::identity();
  return pose_heading(rig, r, impl.scratch_pose[r], yaw);
}

void clip_motion(GraphInstance::Impl& impl, const Rig& rig, int node) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  RootStep& step = impl.steps[static_cast<size_t>(node)];
  step = RootStep{};
  const size_t feet = impl.foot_labels.size();
  for (size_t f = 0; f < feet; ++f) {
    const int k = d.feet.empty() ? -1 : d.feet[f];
    const size_t at = static_cast<size_t>(node) * feet + f;
    impl.foot_kw[at] = k >= 0 ? 1.0f : 0.0f;
    impl.foot_cw[at] = k >= 0 && d.contacts->in_contact(static_cast<size_t>(k), st.time) ? 1.0f : 0.0f;
  }
  if (!impl.extract_root) {
    st.head = 0;  // not extracted: the next extracting update walks from nowhere
    return;
  }
  const size_t r = static_cast<size_t>(impl.root_joint);
  const Ticker::Trim trim = Ticker{impl}.trim(d);
  const Transform h_ts = heading_at(impl, rig, d, trim.ts, false);
  const Transform h_te = heading_at(impl, rig, d, trim.te, true);
  const Transform& h0 = trim.forward ? h_ts : h_te;  // play progress u = 0
  const Transform& h1 = trim.forward ? h_te : h_ts;  // the lap's end, u -> 1
  Transform* pose = impl.pose(node);
  const Transform part = rig.c0()[r] * pose[r] * rig.c1_inverse()[r];
  float yaw = 0.0f;
  const Transform h = pose_heading(rig, r, pose[r], yaw);
  if (st.head != 0) {
    // Rule AN9's walk: from the last heading to this one across the laps crossed.
    Transform walk = inverse(st.head == 1 ? head_of(st.head_yaw, st.head_x, st.head_z) : h0);
    const int w = impl.wraps[static_cast<size_t>(node)];
    if (w != 0) {
      const Transform& first = w > 0 ? h1 : h0;
      const Transform& second = w > 0 ? h0 : h1;
      const Transform loop = inverse(second) * first;
      walk = walk * first;
      for (int k = 1; k < std::min(std::abs(w), kMaxRootLoops); ++k) walk = walk * loop;
      walk = walk * inverse(second);
    }
    const Transform s = h0 * (walk * h) * inverse(h0);
    step.yaw = yaw_of(s.rotation);
    step.travel = s.position;
  }
  st.head = 1;
  st.head_yaw = yaw;
  st.head_x = h.position.x;
  st.head_z = h.position.z;
  // The pose keeps the play start's heading (rule AN9).
  const Transform kept = h0 * inverse(h) * part;
  pose[r] = inverse(rig.c0()[r]) * kept * rig.c1()[r];
}

// node's step and contacts = sum a_k x input k's (input -1: a still pose of unknown contacts),
// divided by max(sum a_k, 1) when `normalize` (the weighted blend's rest share, rule GR10).
void combine(GraphInstance::Impl& impl, int node, int count, const int* inputs, const float* a, bool normalize) {
  float total = 0.0f;
  for (int k = 0; k < count; ++k) total += a[k];
  const float scale = normalize && total > 1.0f ? 1.0f / total : 1.0f;
  RootStep out;
  for (int k = 0; k < count; ++k) {
    if (inputs[k] < 0) continue;
    const RootStep& s = impl.steps[static_cast<size_t>(inputs[k])];
    out.yaw += a[k] * scale * s.yaw;
    out.travel += a[k] * scale * s.travel;
  }
  impl.steps[static_cast<size_t>(node)] = out;
  const size_t feet = impl.foot_labels.size();
  for (size_t f = 0; f < feet; ++f) {
    float cw = 0.0f, kw = 0.0f;
    for (int k = 0; k < count; ++k) {
      if (inputs[k] < 0) continue;
      const size_t at = static_cast<size_t>(inputs[k]) * feet + f;
      cw += a[k] * impl.foot_cw[at];
      kw += a[k] * impl.foot_kw[at];
    }
    impl.foot_cw[static_cast<size_t>(node) * feet + f] = cw;
    impl.foot_kw[static_cast<size_t>(node) * feet + f] = kw;
  }
}

void pass(GraphInstance::Impl& impl, int node, int input) {
  const float one = 1.0f;
  combine(impl, node, 1, &input, &one, false);
}

}  // namespace

void node_motion(GraphInstance::Impl& impl, const Rig& rig, int node) {
  if (!impl.extract_root && impl.foot_labels.empty()) return;
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  const NodeState& st = impl.state[static_cast<size_t>(node)];
  const size_t r = static_cast<size_t>(std::max(impl.root_joint, 0));
  // The root joint's coverage of a node's pose (its joint weight in a blend, rule BL1).
  const auto cov = [&](int n) { return impl.root_joint >= 0 ? impl.cov(n)[r] : 1.0f; };
  switch (d.type) {
    case GraphNodeType::kClip: clip_motion(impl, rig, node); return;
    case GraphNodeType::kBlend1D:
    case GraphNodeType::kBlend2D: {
      // As eval_blend: the inputs of nonzero weight; two with one outside [0, 1] extrapolate.
      const float* w = impl.input_weight.data() + d.weight_offset;
      int ids[64];
      float a[64];
      int count = 0;
      bool inside = true;
      for (size_t k = 0; k < d.inputs.size() && count < 64; ++k) {
        if (w[k] == 0.0f) continue;
        ids[count] = d.inputs[k].node;
        a[count++] = w[k];
        if (w[k] < 0.0f || w[k] > 1.0f) inside = false;
      }
      if (!inside && count == 2) {
        const float t = a[1];
        a[0] = 1.0f - t;
        combine(impl, node, 2, ids, a, false);
        return;
      }
      for (int k = 0; k < count; ++k) a[k] *= cov(ids[k]);
      combine(impl, node, count, ids, a, true);
      return;
    }
    case GraphNodeType::kSelect:
    case GraphNodeType::kPrioritySelect:
    case GraphNodeType::kSequence:
    case GraphNodeType::kRandomSequence: {
      const int cur = d.inputs[static_cast<size_t>(st.cur)].node;
      if (st.inertial || !(st.frozen || st.prev >= 0)) {
        pass(impl, node, cur);
        return;
      }
      // A transition (rule GR8): from the frozen pose (still) or the live previous input.
      const float alpha = st.phase;
      const size_t n = static_cast<size_t>(impl.joints);
      const int from = st.frozen ? -1 : d.inputs[static_cast<size_t>(st.prev)].node;
      const float from_cov = st.frozen ? (impl.root_joint >= 0 ? impl.from_covs[static_cast<size_t>(d.from_slot) * n + r] : 1.0f)
                                       : cov(from);
      const int ids[2] = {from, cur};
      const float a[2] = {(1.0f - alpha) * from_cov, alpha * cov(cur)};
      combine(impl, node, 2, ids, a, true);
      return;
    }
    case GraphNodeType::kOver:
    case GraphNodeType::kAdd:
    case GraphNodeType::kSubtract: {
      // Add and Subtract move as their base (an additive pose carries no travel of its own).
      const int first = d.type == GraphNodeType::kSubtract ? d.a : d.base;
      const float w = impl.num(d.weight);
      const float a = d.type == GraphNodeType::kOver && impl.state[static_cast<size_t>(d.over)].active && std::isfinite(w)
                          ? w * cov(d.over)
                          : 0.0f;
      if (a == 0.0f || !std::isfinite(a)) {
        pass(impl, node, first);
        return;
      }
      const int ids[2] = {first, d.over};
      const float k[2] = {1.0f - a, a};
      combine(impl, node, 2, ids, k, false);
      return;
    }
    case GraphNodeType::kMask: pass(impl, node, d.pose); return;
    case GraphNodeType::kSpeed: pass(impl, node, d.pose); return;
    case GraphNodeType::kStrideWarp:
    case GraphNodeType::kOrientationWarp:
      pass(impl, node, d.pose);
      warp_step(impl, node);  // rules LO6, LO8: the travel follows the warp
      return;
  }
}

bool prepare_motion(GraphInstance::Impl& impl, const Rig& rig, const GraphDesc& desc, std::string& error) {
  const size_t n = impl.defs.size(), joints = static_cast<size_t>(impl.joints);
  impl.root_joint = root_motion_joint(rig);
  impl.steps.assign(n, RootStep{});
  impl.wraps.assign(n, 0);
  impl.scratch_pose.assign(joints, Transform::identity());
  impl.scratch_cov.assign(joints, 0.0f);
  // The graph's feet: every label the Clip nodes' contacts name, in order of first appearance.
  for (size_t i = 0; i < n; ++i) {
    NodeDef& d = impl.defs[i];
    if (d.type != GraphNodeType::kClip) continue;
    d.contacts = desc.nodes[i].contacts;
    if (!d.contacts) continue;
    for (const FootSpec& foot : d.contacts->feet)
      if (std::find(impl.foot_labels.begin(), impl.foot_labels.end(), foot.label) == impl.foot_labels.end())
        impl.foot_labels.push_back(foot.label);
  }
  const size_t feet = impl.foot_labels.size();
  for (size_t i = 0; i < n; ++i) {
    NodeDef& d = impl.defs[i];
    if (d.type != GraphNodeType::kClip) continue;
    if (d.contacts) {
      d.feet.assign(feet, -1);
      for (size_t f = 0; f < feet; ++f)
        for (size_t k = 0; k < d.contacts->feet.size(); ++k)
          if (d.contacts->feet[k].label == impl.foot_labels[f]) d.feet[f] = static_cast<int>(k);
    }
    // Literal trims: the root headings at the trim's ends, sampled once.
    if (impl.root_joint < 0 || d.trim_start.param >= 0 || d.trim_end.param >= 0) continue;
    const Ticker::Trim trim = Ticker{impl}.trim(d);
    const size_t r = static_cast<size_t>(impl.root_joint);
    AnimationContext& context = impl.contexts[static_cast<size_t>(d.context)];
    for (const bool end : {false, true}) {
      if (!sample_animation(*d.clip, *d.binding, rig, end ? trim.te : trim.ts, WrapMode::kClamp, context,
                            impl.scratch_pose, impl.scratch_cov)) {
        error = "graph node '" + d.id + "' (#" + std::to_string(i) + "): the root joint could not be sampled";
        return false;
      }
      float yaw = 0.0f;
      const Transform h = pose_heading(rig, r, impl.scratch_pose[r], yaw);
      (end ? d.head_te_yaw : d.head_ts_yaw) = yaw;
      (end ? d.head_te_pos : d.head_ts_pos) = h.position;
    }
    d.heads_cached = true;
    context = make_animation_context(*d.binding);  // the build's samples leave no cursor behind
  }
  impl.foot_cw.assign(n * feet, 0.0f);
  impl.foot_kw.assign(n * feet, 0.0f);
  impl.foot_weight.assign(feet, 0.0f);
  return true;
}

}  // namespace asterune::graph_detail
