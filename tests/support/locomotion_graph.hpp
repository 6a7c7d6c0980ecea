// The locomotion graph of the graph speed goal (BM_GraphLocomotionR15), shared by the benchmark
// and by the tests that prove it allocation-free and bit-identical across threads, so all three
// measure one graph. Synthetic clips keyed on every R15 joint; no files, no test framework.
//
//   Add(base, additive Lean 0.3)
//     Over(base, Mask(UpperTorso subtree) of Wave, weight 1)
//       Blend2D Cartesian, 8 directions on the unit circle (x, y parameters)
//         forward: Blend1D Walk / Run / Sprint at 1, 3, 5 (speed parameter), Synced
//         7 other directions: one Clip each
//
// A graph is a tree (rule GR12): the eight directions are eight distinct inputs, so the graph
// has 17 nodes (3 + Blend1D + 7 + Blend2D + Wave + Mask + Over + Lean + Add).
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/clip/binding.hpp"
#include "asterune/graph/graph.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "support/graph_track_fixture.hpp"
#include "support/swing_clip.hpp"

namespace asterune::test {

/// A clip keying every joint of `rig`: `keys` rotation keys over `length` seconds swinging by
/// `amplitude` radians about a per-joint axis, phase-shifted by `phase`; the root also travels.
inline Clip locomotion_clip(const Rig& rig, const std::string& name, float length, float amplitude, float phase,
                            int keys = 31) {
  return swing_clip(rig, name, SwingSpec{amplitude, length, keys, phase, true, glm::vec3(0.0f, 0.0f, -length)});
}

/// The rig, clips, bindings and description of the locomotion graph; build instances from it.
/// Clips and bindings are shared read-only by every instance (rule GR13), so it must outlive them.
class LocomotionGraph {
 public:
  LocomotionGraph() {
    desc_.parameters = {{"speed", GraphParameterType::kNumber, 2.0f, false, {}},
                        {"move_x", GraphParameterType::kNumber, 0.35f, false, {}},
                        {"move_y", GraphParameterType::kNumber, 0.6f, false, {}}};
    const int walk = clip_node("Walk", 1.1f, 0.4f, 0.1f);
    const int run = clip_node("Run", 0.8f, 0.6f, 0.5f);
    const int sprint = clip_node("Sprint", 0.6f, 0.8f, 0.9f);
    GraphNodeDesc loco = node("Forward", GraphNodeType::kBlend1D);
    loco.position.parameter = "speed";
    const float positions[3] = {1.0f, 3.0f, 5.0f};
    const int speeds[3] = {walk, run, sprint};
    for (int i = 0; i < 3; ++i) loco.inputs.push_back(input(speeds[i], positions[i], 0.0f));
    const int forward = add(std::move(loco));

    GraphNodeDesc dirs = node("Directions", GraphNodeType::kBlend2D);
    dirs.x.parameter = "move_x";
    dirs.y.parameter = "move_y";
    dirs.inputs.push_back(input(forward, 0.0f, 1.0f));
    for (int d = 1; d < 8; ++d) {  // 45 degrees apart, counter-clockwise from forward (+y)
      const float a = 1.5707963f + 0.7853982f * static_cast<float>(d);
      const int c = clip_node("Dir" + std::to_string(d), 0.9f + 0.05f * static_cast<float>(d), 0.5f,
                              0.3f * static_cast<float>(d));
      dirs.inputs.push_back(input(c, std::cos(a), std::sin(a)));
    }
    const int directions = add(std::move(dirs));

    const int wave = clip_node("Wave", 1.5f, 1.0f, 1.7f);
    GraphNodeDesc mask = node("UpperBody", GraphNodeType::kMask);
    mask.pose = wave;
    mask.weights = {{"UpperTorso", 1.0f}};
    const int upper = add(std::move(mask));
    GraphNodeDesc over = node("Action", GraphNodeType::kOver);
    over.base = directions;
    over.over = upper;
    const int action = add(std::move(over));

    const int lean = clip_node("Lean", 1.3f, 0.15f, 2.3f);
    GraphNodeDesc sum = node("Lean+", GraphNodeType::kAdd);
    sum.base = action;
    sum.additive = lean;
    sum.weight.value = 0.3f;
    desc_.output = add(std::move(sum));
  }
  LocomotionGraph(const LocomotionGraph&) = delete;
  LocomotionGraph& operator=(const LocomotionGraph&) = delete;

  const Rig& rig() const { return rig_; }
  const GraphDesc& desc() const { return desc_; }
  int node_count() const { return static_cast<int>(desc_.nodes.size()); }

  /// A new instance of the graph; a build failure is a bug of this fixture, so it aborts.
  std::unique_ptr<GraphInstance> instance() const { return fixture_graph_instance("locomotion graph", desc_, rig_); }
  /// An animator playing `graph` as its one track at Movement, weight 1 (rule GR15).
  Animator animator(GraphInstance& graph) const { return fixture_graph_animator("locomotion graph", rig_, graph, false); }

 private:
  [[noreturn]] static void die(const char* what, const std::string& message) { fixture_failed("locomotion graph", what, message); }
  static GraphNodeDesc node(const std::string& id, GraphNodeType type) {
    GraphNodeDesc n;
    n.id = id;
    n.type = type;
    return n;
  }
  static GraphInputDesc input(int node, float x, float y) {
    GraphInputDesc in;
    in.node = node;
    in.position = x;
    in.x = x;
    in.y = y;
    return in;
  }
  int add(GraphNodeDesc n) {
    desc_.nodes.push_back(std::move(n));
    return static_cast<int>(desc_.nodes.size()) - 1;
  }
  int clip_node(const std::string& id, float length, float amplitude, float phase) {
    const Clip& clip = clips_.emplace_back(locomotion_clip(rig_, id, length, amplitude, phase));
    AnimationBinding& b = bindings_.emplace_back();
    Result<ClipBinding> cb = build_clip_binding(clip, rig_);
    if (!cb) die("build_clip_binding", cb.message());
    b.clip_binding = std::move(cb).value();
    GraphNodeDesc n = node(id, GraphNodeType::kClip);
    n.clip = &clip;
    n.binding = &b;
    return add(std::move(n));
  }

  Rig rig_ = build_rig(*builtin_rig_desc("r15")).value();
  std::deque<Clip> clips_;  // deque: stable addresses as nodes are added
  std::deque<AnimationBinding> bindings_;
  GraphDesc desc_;
};

}  // namespace asterune::test
