// build_graph(): validates a GraphDesc once (rules GR1-GR10) and lays out the runtime instance:
// parameters resolved to indexes, inputs checked, cycles and shared inputs refused, blend
// spaces ordered and triangulated, every buffer sized. Errors name the node and the reason.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "asterune/rig/rig.hpp"
#include "graph/graph_internal.hpp"
#include "graph/nodes_warp.hpp"

namespace asterune {

using graph_detail::BoolRef;
using graph_detail::InputDef;
using graph_detail::NodeDef;
using graph_detail::NodeState;
using graph_detail::NumRef;
using graph_detail::StrRef;

namespace {

struct Builder {
  const GraphDesc& desc;
  const Rig& rig;
  GraphInstance::Impl& impl;
  std::string error;

  bool fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return false;
  }
  std::string label(size_t i) const {
    const GraphNodeDesc& n = desc.nodes[i];
    return "graph node '" + n.id + "' (#" + std::to_string(i) + ", " + to_string(n.type) + ")";
  }
  int find_param(const std::string& name) const {
    for (size_t p = 0; p < desc.parameters.size(); ++p)
      if (desc.parameters[p].name == name) return static_cast<int>(p);
    return -1;
  }
  // Rule GR1: a binding names an existing parameter of the property's type.
  bool bind(const std::string& who, const char* prop, const std::string& name, GraphParameterType want, int& out) {
    out = -1;
    if (name.empty()) return true;
    const int p = find_param(name);
    if (p < 0) return fail(who + ": " + prop + " names the parameter '" + name + "', which the graph does not declare");
    if (desc.parameters[static_cast<size_t>(p)].type != want)
      return fail(who + ": " + prop + " is a " + to_string(want) + " but the parameter '" + name + "' is a " +
                  to_string(desc.parameters[static_cast<size_t>(p)].type));
    out = p;
    return true;
  }
  bool num(const std::string& who, const char* prop, const GraphNumber& g, NumRef& out) {
    if (!std::isfinite(g.value)) return fail(who + ": " + prop + " must be a finite number");
    out.literal = g.value;
    return bind(who, prop, g.parameter, GraphParameterType::kNumber, out.param);
  }
  bool flag(const std::string& who, const char* prop, const GraphBool& g, BoolRef& out) {
    out.literal = g.value;
    return bind(who, prop, g.parameter, GraphParameterType::kBool, out.param);
  }
  bool str(const std::string& who, const char* prop, const GraphString& g, StrRef& out) {
    out.literal = g.value;
    return bind(who, prop, g.parameter, GraphParameterType::kString, out.param);
  }
  bool node_index(const std::string& who, const char* what, int index, bool required) {
    if (index < 0 && !required) return true;
    if (index < 0) return fail(who + ": the " + std::string(what) + " input is missing");
    if (index >= static_cast<int>(desc.nodes.size()))
      return fail(who + ": the " + std::string(what) + " input names node #" + std::to_string(index) +
                  ", which does not exist");
    return true;
  }

  bool parameters();
  bool node(size_t i);
  bool clip(size_t i, NodeDef& d);
  bool distance(size_t i, NodeDef& d);
  bool inputs(size_t i, NodeDef& d);
  bool blend_space(size_t i, NodeDef& d);
  bool mask(size_t i, NodeDef& d);
  bool structure();
};

bool Builder::parameters() {
  for (size_t p = 0; p < desc.parameters.size(); ++p) {
    const GraphParameterDesc& g = desc.parameters[p];
    const std::string who = "graph parameter '" + g.name + "'";
    if (g.name.empty()) return fail("graph parameter #" + std::to_string(p) + ": the name is empty");
    if (find_param(g.name) != static_cast<int>(p)) return fail(who + ": declared twice");
    if (g.type == GraphParameterType::kNumber && !std::isfinite(g.number_default))
      return fail(who + ": the default must be a finite number");
    impl.string_capacity = std::max(impl.string_capacity, g.string_default.size());
  }
  impl.params = desc.parameters;
  for (const GraphParameterDesc& g : desc.parameters) {
    impl.numbers.push_back(g.number_default);
    impl.bools.push_back(g.bool_default ? 1 : 0);
  }
  return true;
}

bool Builder::clip(size_t i, NodeDef& d) {
  const GraphNodeDesc& g = desc.nodes[i];
  const std::string who = label(i);
  if (!g.clip || !g.binding) return fail(who + ": the clip and its binding are required");
  const AnimationBinding& b = *g.binding;
  if (b.mode == AnimationMode::kNative && b.clip_binding.target_signature() != rig.signature())
    return fail(who + ": the clip binding was made for another rig (layout signature differs, rule R7)");
  if (b.mode == AnimationMode::kRetarget && (!b.retarget || b.retarget->target_signature != rig.signature()))
    return fail(who + ": the retarget binding was not made for this rig (layout signature differs, rule R7)");
  if (!std::isfinite(g.clip->duration) || g.clip->duration < 0.0f)
    return fail(who + ": the clip's duration must be a finite number >= 0");
  d.clip = g.clip;
  d.binding = g.binding;
  d.play_mode = g.play_mode;
  if (!flag(who, "reverse", g.reverse, d.reverse) || !num(who, "speed", g.speed, d.speed) ||
      !num(who, "trim start", g.trim_start, d.trim_start) || !num(who, "trim end", g.trim_end, d.trim_end))
    return false;
  const float len = g.clip->duration;
  const float ts = g.trim_start.value, te = g.trim_end.value < 0.0f ? len : g.trim_end.value;
  if (g.trim_start.parameter.empty() && (ts < 0.0f || ts > len))
    return fail(who + ": trim start " + std::to_string(ts) + " is outside the clip [0, " + std::to_string(len) + "]");
  if (g.trim_end.parameter.empty() && g.trim_start.parameter.empty() && (te > len || te < ts))
    return fail(who + ": trim [" + std::to_string(ts) + ", " + std::to_string(te) + "] is not inside the clip [0, " +
                std::to_string(len) + "] with start <= end");
  for (size_t m = 0; m < g.clip->markers.size(); ++m) {
    if (!std::isfinite(g.clip->markers[m].time))
      return fail(who + ": marker '" + g.clip->markers[m].name + "' has a nonfinite time");
    d.markers.push_back(static_cast<int>(m));
  }
  std::stable_sort(d.markers.begin(), d.markers.end(), [&](int x, int y) {
    return g.clip->markers[static_cast<size_t>(x)].time < g.clip->markers[static_cast<size_t>(y)].time;
  });
  d.context = static_cast<int>(impl.contexts.size());
  impl.contexts.push_back(make_animation_context(b));
  return distance(i, d);
}

// Rule LO12: a distance-matched clip is a start or a stop, played once and forward.
bool Builder::distance(size_t i, NodeDef& d) {
  const GraphNodeDesc& g = desc.nodes[i];
  d.distance_matching = g.distance_matching;
  if (g.distance_matching == GraphDistanceMatching::kNone) return true;
  const std::string who = label(i) + ": distance_matching " + to_string(g.distance_matching);
  if (g.play_mode != GraphPlayMode::kOnceAndHold && g.play_mode != GraphPlayMode::kOnceAndReset)
    return fail(who + " plays the clip once: play_mode must be OnceAndHold or OnceAndReset, not " +
                to_string(g.play_mode));
  if (g.reverse.value || !g.reverse.parameter.empty()) return fail(who + " plays forward: reverse must be false");
  if (g.speed.parameter.empty() && g.speed.value < 0.0f) return fail(who + " plays forward: speed must be >= 0");
  return num(who, "distance", g.distance, d.distance);
}

bool Builder::inputs(size_t i, NodeDef& d) {
  const GraphNodeDesc& g = desc.nodes[i];
  const std::string who = label(i);
  if (g.default_transition.duration < 0.0f || !std::isfinite(g.default_transition.duration))
    return fail(who + ": default_transition duration must be a finite number >= 0");
  if (g.inputs.empty()) return fail(who + ": the node needs at least one input");
  if (g.loop_count < 0 || g.play_count < 0) return fail(who + ": loop_count and play_count must be >= 0");
  for (size_t k = 0; k < g.inputs.size(); ++k) {
    const GraphInputDesc& in = g.inputs[k];
    const std::string iw = who + " input #" + std::to_string(k) + (in.name.empty() ? "" : " '" + in.name + "'");
    if (!node_index(iw, "node", in.node, true)) return false;
    InputDef o;
    o.name = in.name;
    o.node = in.node;
    o.interruptible = in.interruptible == GraphInterruptible::kDefault ? g.default_interruptible : in.interruptible;
    if (o.interruptible == GraphInterruptible::kDefault) o.interruptible = GraphInterruptible::kAlways;
    o.wait_for = in.wait_for == GraphWaitFor::kDefault ? g.default_wait_for : in.wait_for;
    if (o.wait_for == GraphWaitFor::kDefault) o.wait_for = GraphWaitFor::kFinished;
    o.transition = in.transition ? *in.transition : g.default_transition;
    if (o.transition.duration < 0.0f || !std::isfinite(o.transition.duration))
      return fail(iw + ": the transition duration must be a finite number >= 0");
    if (!flag(iw, "trigger", in.trigger, o.trigger) ||
        !flag(iw, "interruptible_trigger", in.interruptible_trigger, o.interruptible_trigger) ||
        !flag(iw, "wait_for_trigger", in.wait_for_trigger, o.wait_for_trigger) || !num(iw, "weight", in.weight, o.weight))
      return false;
    if (g.type == GraphNodeType::kRandomSequence && in.weight.parameter.empty() && in.weight.value < 0.0f)
      return fail(iw + ": the weight must be >= 0");
    if (!std::isfinite(in.position) || !std::isfinite(in.x) || !std::isfinite(in.y))
      return fail(iw + ": position, x and y must be finite numbers");
    o.position = in.position;
    o.x = in.x;
    o.y = in.y;
    impl.string_capacity = std::max(impl.string_capacity, in.name.size());
    d.inputs.push_back(std::move(o));
  }
  d.loop_count = g.loop_count;
  d.play_count = g.play_count;
  d.seed = g.seed;
  if (!str(who, "selection", g.selection, d.selection)) return false;
  impl.string_capacity = std::max(impl.string_capacity, g.selection.value.size());
  return true;
}

bool Builder::blend_space(size_t i, NodeDef& d) {
  const GraphNodeDesc& g = desc.nodes[i];
  const std::string who = label(i);
  const int n = static_cast<int>(d.inputs.size());
  if (n > 64) return fail(who + ": a blend space holds at most 64 inputs");
  d.phase_sync = g.phase_sync;
  d.sync_marker = g.sync_marker;
  d.order.resize(static_cast<size_t>(n));
  std::iota(d.order.begin(), d.order.end(), 0);
  if (g.type == GraphNodeType::kBlend1D) {
    if (!num(who, "position", g.position, d.position)) return false;
    std::stable_sort(d.order.begin(), d.order.end(), [&](int x, int y) {
      return d.inputs[static_cast<size_t>(x)].position < d.inputs[static_cast<size_t>(y)].position;
    });
    for (int k = 1; k < n; ++k) {
      const InputDef& p = d.inputs[static_cast<size_t>(d.order[static_cast<size_t>(k - 1)])];
      const InputDef& q = d.inputs[static_cast<size_t>(d.order[static_cast<size_t>(k)])];
      if (p.position == q.position)
        return fail(who + ": inputs '" + p.name + "' and '" + q.name + "' share the position " + std::to_string(p.position) +
                    " (rule GR7: Blend1D positions must differ)");
    }
    return true;
  }
  if (!num(who, "x", g.x, d.x) || !num(who, "y", g.y, d.y)) return false;
  d.input_mode = g.input_mode;
  std::vector<float> xs, ys;
  for (const InputDef& in : d.inputs) {
    if (g.input_mode == GraphInputMode::kPolar) {
      if (in.y < 0.0f) return fail(who + ": input '" + in.name + "' has a negative magnitude (Polar y)");
      xs.push_back(in.y * std::cos(in.x));
      ys.push_back(in.y * std::sin(in.x));
    } else {
      xs.push_back(in.x);
      ys.push_back(in.y);
    }
  }
  d.tris = graph_detail::delaunay(xs, ys);
  if (d.tris.empty())
    return fail(who + ": a Blend2D needs at least 3 non-collinear points (rule GR7), it has " + std::to_string(n) +
                (n >= 3 ? " on one line" : ""));
  d.hull = graph_detail::hull_edges(d.tris);
  if (g.input_mode == GraphInputMode::kPolar) {
    d.order.clear();
    for (int k = 0; k < n; ++k) {
      if (d.inputs[static_cast<size_t>(k)].y == 0.0f) {
        if (d.centre >= 0) return fail(who + ": more than one input at magnitude 0");
        d.centre = k;
      } else {
        d.order.push_back(k);
      }
    }
    constexpr float kTwoPi = 6.28318530717958647692f;
    auto dir = [&](int k) {
      float a = std::fmod(d.inputs[static_cast<size_t>(k)].x, kTwoPi);
      if (a < 0.0f) a += kTwoPi;
      return a >= kTwoPi ? 0.0f : a;
    };
    std::stable_sort(d.order.begin(), d.order.end(), [&](int x, int y) {
      if (dir(x) != dir(y)) return dir(x) < dir(y);
      return d.inputs[static_cast<size_t>(x)].y < d.inputs[static_cast<size_t>(y)].y;
    });
    for (size_t k = 1; k < d.order.size(); ++k)
      if (dir(d.order[k]) == dir(d.order[k - 1]) &&
          d.inputs[static_cast<size_t>(d.order[k])].y == d.inputs[static_cast<size_t>(d.order[k - 1])].y)
        return fail(who + ": two inputs at the same direction and magnitude");
  }
  return true;
}

bool Builder::mask(size_t i, NodeDef& d) {
  const GraphNodeDesc& g = desc.nodes[i];
  const std::string who = label(i);
  if (!flag(who, "invert", g.invert, d.invert)) return false;
  d.mask.assign(static_cast<size_t>(rig.joint_count()), 0.0f);
  // Parts in layout order, so a part named inside another's subtree overrides it (the more
  // specific part wins, whatever the file order).
  std::vector<std::pair<int, float>> named;
  for (const GraphMaskWeight& w : g.weights) {
    if (!std::isfinite(w.weight)) return fail(who + ": the weight of '" + w.part + "' must be finite");
    const JointLookup lookup = rig.find_joint(w.part);
    if (!lookup.found())
      return fail(who + ": mask part '" + w.part + "' is not a joint of the rig '" + rig.name() + "'" +
                  (lookup.message.empty() ? "" : " (" + lookup.message + ")"));
    named.emplace_back(lookup.index, std::clamp(w.weight, 0.0f, 1.0f));
  }
  std::stable_sort(named.begin(), named.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [joint, weight] : named) {
    const int end = g.descendants ? rig.subtree_end(joint) : joint + 1;
    for (int j = joint; j < end; ++j) d.mask[static_cast<size_t>(j)] = weight;
  }
  return true;
}

bool Builder::node(size_t i) {
  const GraphNodeDesc& g = desc.nodes[i];
  const std::string who = label(i);
  if (g.id.empty()) return fail("graph node #" + std::to_string(i) + ": the id is empty");
  for (size_t u = 0; u < i; ++u)
    if (desc.nodes[u].id == g.id) return fail(who + ": another node has that id");
  NodeDef d;
  d.type = g.type;
  d.id = g.id;
  d.weight.literal = 1.0f;
  switch (g.type) {
    case GraphNodeType::kClip:
      if (!clip(i, d)) return false;
      break;
    case GraphNodeType::kSelect:
    case GraphNodeType::kPrioritySelect:
    case GraphNodeType::kSequence:
    case GraphNodeType::kRandomSequence:
      if (!inputs(i, d)) return false;
      d.from_slot = static_cast<int>(impl.from_covs.size() / static_cast<size_t>(std::max(rig.joint_count(), 1)));
      impl.from_poses.resize(impl.from_poses.size() + static_cast<size_t>(rig.joint_count()));
      impl.from_covs.resize(impl.from_covs.size() + static_cast<size_t>(std::max(rig.joint_count(), 1)));
      break;
    case GraphNodeType::kBlend1D:
    case GraphNodeType::kBlend2D:
      if (!inputs(i, d) || !blend_space(i, d)) return false;
      break;
    case GraphNodeType::kOver:
      if (!node_index(who, "base", g.base, true) || !node_index(who, "over", g.over, true)) return false;
      d.base = g.base;
      d.over = g.over;
      if (!num(who, "weight", g.weight, d.weight)) return false;
      break;
    case GraphNodeType::kAdd:
      if (!node_index(who, "base", g.base, true) || !node_index(who, "additive", g.additive, true)) return false;
      d.base = g.base;
      d.additive = g.additive;
      if (!num(who, "weight", g.weight, d.weight)) return false;
      break;
    case GraphNodeType::kSubtract:
      if (!node_index(who, "a", g.a, true) || !node_index(who, "b", g.b, true)) return false;
      d.a = g.a;
      d.b = g.b;
      if (!num(who, "weight", g.weight, d.weight)) return false;
      break;
    case GraphNodeType::kMask:
      if (!node_index(who, "pose", g.pose, true) || !mask(i, d)) return false;
      d.pose = g.pose;
      break;
    case GraphNodeType::kSpeed:
      if (!node_index(who, "pose", g.pose, true) || !num(who, "speed", g.speed, d.speed)) return false;
      d.pose = g.pose;
      break;
    case GraphNodeType::kStrideWarp:
      if (!node_index(who, "pose", g.pose, true) || !num(who, "speed", g.speed, d.speed)) return false;
      if (!(g.clamp_min > 0.0f) || !(g.clamp_max >= g.clamp_min) || !std::isfinite(g.clamp_max))
        return fail(who + ": clamp must be [min, max] with 0 < min <= max, finite (rule LO6)");
      d.pose = g.pose;
      d.clamp_min = g.clamp_min;
      d.clamp_max = g.clamp_max;
      break;
    case GraphNodeType::kOrientationWarp:
      if (!node_index(who, "pose", g.pose, true) || !num(who, "direction", g.direction, d.direction)) return false;
      d.pose = g.pose;
      break;
    default:
      return fail(who + ": unknown node type");
  }
  impl.defs.push_back(std::move(d));
  return true;
}

// The node's inputs, in evaluation order.
std::vector<int> children(const NodeDef& d) {
  std::vector<int> out;
  for (const InputDef& in : d.inputs) out.push_back(in.node);
  for (const int c : {d.base, d.over, d.additive, d.a, d.b, d.pose})
    if (c >= 0) out.push_back(c);
  return out;
}

bool Builder::structure() {
  const size_t n = impl.defs.size();
  // A tree: every node is the input of at most one node (its state advances once per update).
  std::vector<int> parent(n, -1);
  for (size_t i = 0; i < n; ++i)
    for (const int c : children(impl.defs[i])) {
      if (c == static_cast<int>(i)) return fail(label(i) + ": the node is its own input (a cycle)");
      if (parent[static_cast<size_t>(c)] >= 0 && parent[static_cast<size_t>(c)] != static_cast<int>(i))
        return fail(label(static_cast<size_t>(c)) + ": the node is an input of both '" +
                    desc.nodes[static_cast<size_t>(parent[static_cast<size_t>(c)])].id + "' and '" + desc.nodes[i].id +
                    "' (a graph is a tree: each node has one place, rule GR12)");
      if (parent[static_cast<size_t>(c)] == static_cast<int>(i))
        return fail(label(i) + ": node '" + desc.nodes[static_cast<size_t>(c)].id + "' is given twice as an input");
      parent[static_cast<size_t>(c)] = static_cast<int>(i);
    }
  // Cycles: walking up the single parents from any node must end at a root.
  for (size_t i = 0; i < n; ++i) {
    int at = static_cast<int>(i);
    for (size_t steps = 0; at >= 0; ++steps) {
      if (steps > n) return fail(label(i) + ": the node is part of a cycle of inputs");
      at = parent[static_cast<size_t>(at)];
    }
  }
  if (parent[static_cast<size_t>(impl.output)] >= 0)
    return fail("graph output '" + desc.nodes[static_cast<size_t>(impl.output)].id + "' is the input of another node");
  // Markers sync (rule GR9): a blend's Clip inputs keep the markers named its sync_marker.
  for (size_t i = 0; i < n; ++i) {
    const NodeDef& d = impl.defs[i];
    if ((d.type != GraphNodeType::kBlend1D && d.type != GraphNodeType::kBlend2D) || d.phase_sync != GraphPhaseSync::kMarkers)
      continue;
    for (const InputDef& in : d.inputs) {
      NodeDef& c = impl.defs[static_cast<size_t>(in.node)];
      if (c.type != GraphNodeType::kClip) continue;
      for (const int m : c.markers)
        if (c.clip->markers[static_cast<size_t>(m)].name == d.sync_marker) c.sync_markers.push_back(m);
    }
  }
  return true;
}

}  // namespace

Result<GraphInstance> build_graph(const GraphDesc& desc, const Rig& rig) {
  GraphInstance g;
  g.impl_ = std::make_unique<GraphInstance::Impl>();
  GraphInstance::Impl& impl = *g.impl_;
  Builder b{desc, rig, impl, {}};
  if (desc.output < 0 || desc.output >= static_cast<int>(desc.nodes.size()))
    return make_error("graph: the output names node #" + std::to_string(desc.output) + ", which does not exist");
  impl.output = desc.output;
  impl.joints = rig.joint_count();
  impl.rig_signature = rig.signature();
  if (!b.parameters()) return make_error(b.error);
  for (size_t i = 0; i < desc.nodes.size(); ++i)
    if (!b.node(i)) return make_error(b.error);
  if (!b.structure()) return make_error(b.error);
  for (const GraphParameterDesc& p : desc.parameters) {
    impl.strings.emplace_back();
    impl.strings.back().reserve(impl.string_capacity);
    impl.strings.back() = p.string_default;
  }
  const size_t n = impl.defs.size(), j = static_cast<size_t>(impl.joints);
  impl.state.assign(n, NodeState{});
  for (size_t i = 0; i < n; ++i) impl.state[i].rng = impl.defs[i].seed;  // rule GR6
  impl.poses.assign(n * j, Transform::identity());
  impl.covs.assign(n * j, 0.0f);
  int offset = 0;
  for (NodeDef& d : impl.defs) {
    d.weight_offset = offset;
    offset += static_cast<int>(d.inputs.size());
  }
  impl.input_weight.assign(static_cast<size_t>(offset), 0.0f);
  impl.weights_fresh.assign(n, 0);
  std::string motion_error;
  if (!graph_detail::prepare_motion(impl, rig, desc, motion_error)) return make_error(motion_error);  // rule GR16
  if (!graph_detail::prepare_distance(impl, rig, motion_error)) return make_error(motion_error);  // rule LO13
  if (!graph_detail::prepare_plant(impl, rig, desc, motion_error)) return make_error(motion_error);  // rule LO15
  if (!graph_detail::prepare_warp(impl, rig, motion_error)) return make_error(motion_error);  // rules LO6-LO8
  // The snapshot's shape signature: node types and input counts, joints, parameter types.
  std::uint64_t s = 0xcbf29ce484222325ull;
  auto mix = [&](std::uint64_t v) { s = (s ^ v) * 0x100000001b3ull; };
  mix(j);
  for (const NodeDef& d : impl.defs) {
    mix(static_cast<std::uint64_t>(d.type));
    mix(d.inputs.size());
  }
  for (const GraphParameterDesc& p : desc.parameters) mix(static_cast<std::uint64_t>(p.type));
  impl.signature = s;
  return g;
}

}  // namespace asterune
