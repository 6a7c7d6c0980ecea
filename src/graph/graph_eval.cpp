// The update's second pass: the nodes the first pass made active are evaluated bottom-up into
// their own pose buffers (rules GR2, GR7, GR8, GR10): clips sampled through their binding,
// blend spaces and transitions through the one weighted blend, Over/Add/Subtract/Mask by
// their kernels. Inactive nodes are not sampled.
#include <cmath>
#include <cstring>

#include <glm/gtc/quaternion.hpp>

#include "asterune/rig/rig.hpp"
#include "graph/graph_tick.hpp"
#include "graph/nodes_warp.hpp"

namespace asterune::graph_detail {
namespace {

void copy_pose(GraphInstance::Impl& impl, int from, int to) {
  const size_t n = static_cast<size_t>(impl.joints);
  std::memcpy(static_cast<void*>(impl.pose(to)), impl.pose(from), n * sizeof(Transform));
  std::memcpy(impl.cov(to), impl.cov(from), n * sizeof(float));
}

bool eval_blend(GraphInstance::Impl& impl, const Rig& rig, int node) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  const float* w = impl.input_weight.data() + d.weight_offset;
  const Transform* poses[64];
  const float* covs[64];
  float ws[64];
  int count = 0;
  bool inside = true;
  for (size_t k = 0; k < d.inputs.size() && count < 64; ++k) {
    if (w[k] == 0.0f) continue;
    const int c = d.inputs[k].node;
    if (!evaluate(impl, rig, c)) return false;
    poses[count] = impl.pose(c);
    covs[count] = impl.cov(c);
    ws[count++] = w[k];
    if (w[k] < 0.0f || w[k] > 1.0f) inside = false;
  }
  const int n = impl.joints;
  if (!inside && count == 2) {
    // Rule GR7: extrapolation beyond the end positions (one weight negative).
    blend_two(n, poses[0], covs[0], poses[1], covs[1], ws[1], impl.pose(node), impl.cov(node));
  } else {
    blend_weighted(n, count, poses, covs, ws, impl.pose(node), impl.cov(node));
  }
  return true;
}

bool eval_selector(GraphInstance::Impl& impl, const Rig& rig, int node) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  const int cur = d.inputs[static_cast<size_t>(st.cur)].node;
  if (!evaluate(impl, rig, cur)) return false;
  const size_t n = static_cast<size_t>(impl.joints);
  Transform* from = impl.from_poses.data() + static_cast<size_t>(d.from_slot) * n;
  float* from_cov = impl.from_covs.data() + static_cast<size_t>(d.from_slot) * (n > 0 ? n : 1);
  const float alpha = st.phase;
  if (st.inertial) {
    // Rule GR8 Inertial: the new input at full weight plus the offset from the shown pose,
    // taken once (turned into offsets in place), decaying to 0 at `duration`.
    const Transform* c = impl.pose(cur);
    if (st.inertial == 1) {
      for (size_t j = 0; j < n; ++j) {
        glm::quat off = from[j].rotation * glm::conjugate(c[j].rotation);
        if (off.w < 0.0f) off = -off;
        from[j].rotation = glm::normalize(off);
        from[j].position = from[j].position - c[j].position;
      }
      st.inertial = 2;
    }
    Transform* out = impl.pose(node);
    float* oc = impl.cov(node);
    const glm::quat one(1.0f, 0.0f, 0.0f, 0.0f);
    for (size_t j = 0; j < n; ++j) {
      out[j].rotation = glm::normalize(glm::slerp(one, from[j].rotation, alpha) * c[j].rotation);
      out[j].position = c[j].position + alpha * from[j].position;
      oc[j] = std::max(impl.cov(cur)[j], alpha * from_cov[j]);
    }
    return true;
  }
  if (st.frozen || st.prev >= 0) {
    const Transform* poses[2];
    const float* covs[2];
    if (st.frozen) {
      poses[0] = from;
      covs[0] = from_cov;
    } else {
      const int prev = d.inputs[static_cast<size_t>(st.prev)].node;
      if (!evaluate(impl, rig, prev)) return false;
      poses[0] = impl.pose(prev);
      covs[0] = impl.cov(prev);
    }
    poses[1] = impl.pose(cur);
    covs[1] = impl.cov(cur);
    const float ws[2] = {1.0f - alpha, alpha};
    blend_weighted(impl.joints, 2, poses, covs, ws, impl.pose(node), impl.cov(node));
    return true;
  }
  copy_pose(impl, cur, node);
  return true;
}

}  // namespace

bool evaluate(GraphInstance::Impl& impl, const Rig& rig, int node) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  const int n = impl.joints;
  const auto span_pose = [&](int i) { return std::span<Transform>(impl.pose(i), static_cast<size_t>(n)); };
  const auto span_cov = [&](int i) { return std::span<float>(impl.cov(i), static_cast<size_t>(n)); };
  bool ok = true;
  switch (d.type) {
    case GraphNodeType::kClip:
      ok = sample_animation(*d.clip, *d.binding, rig, st.time, WrapMode::kClamp,
                            impl.contexts[static_cast<size_t>(d.context)], span_pose(node), span_cov(node));
      break;
    case GraphNodeType::kBlend1D:
    case GraphNodeType::kBlend2D: ok = eval_blend(impl, rig, node); break;
    case GraphNodeType::kSelect:
    case GraphNodeType::kPrioritySelect:
    case GraphNodeType::kSequence:
    case GraphNodeType::kRandomSequence: ok = eval_selector(impl, rig, node); break;
    case GraphNodeType::kOver:
    case GraphNodeType::kAdd:
    case GraphNodeType::kSubtract: {
      const int first = d.type == GraphNodeType::kSubtract ? d.a : d.base;
      const int second = d.type == GraphNodeType::kOver ? d.over : (d.type == GraphNodeType::kAdd ? d.additive : d.b);
      ok = evaluate(impl, rig, first);
      const float w = impl.num(d.weight);
      if (!ok) break;
      if (!impl.state[static_cast<size_t>(second)].active || w == 0.0f || !std::isfinite(w)) {
        copy_pose(impl, first, node);
        break;
      }
      ok = evaluate(impl, rig, second);
      if (!ok) break;
      if (d.type == GraphNodeType::kOver)
        blend_over(n, impl.pose(first), impl.cov(first), impl.pose(second), impl.cov(second), w, impl.pose(node), impl.cov(node));
      else if (d.type == GraphNodeType::kAdd)
        blend_add(n, impl.pose(first), impl.cov(first), impl.pose(second), impl.cov(second), w, impl.pose(node), impl.cov(node));
      else
        blend_subtract(n, impl.pose(first), impl.cov(first), impl.pose(second), impl.cov(second), w, impl.pose(node),
                       impl.cov(node));
      break;
    }
    case GraphNodeType::kMask: {
      ok = evaluate(impl, rig, d.pose);
      if (!ok) break;
      copy_pose(impl, d.pose, node);
      // Rule GR10: the coverage is the part weight (invert: 1 - weight) times the input's.
      const bool invert = impl.flag(d.invert);
      float* c = impl.cov(node);
      for (int j = 0; j < n; ++j) {
        const float m = d.mask[static_cast<size_t>(j)];
        c[j] *= invert ? 1.0f - m : m;
      }
      break;
    }
    case GraphNodeType::kSpeed:
      ok = evaluate(impl, rig, d.pose);
      if (ok) copy_pose(impl, d.pose, node);
      break;
    case GraphNodeType::kStrideWarp:
    case GraphNodeType::kOrientationWarp: ok = evaluate_warp(impl, rig, node); break;  // rules LO6-LO8
  }
  if (ok) {
    st.shown = 1;
    node_motion(impl, rig, node);  // rule GR16
  }
  return ok;
}

}  // namespace asterune::graph_detail
