// The warp speed goal's graph (BM_LocomotionWarpR15), shared by the benchmark and the test that
// proves it allocation-free, so both measure one graph: the synthetic walker
// (support/synthetic_walker.hpp) on the built-in R15 under a StrideWarp (speed parameter) under an
// OrientationWarp (direction parameter), played as one Animator track with root motion. With
// `warps` false the same walk plays alone (the baseline the warps' cost is measured against).
// No files, no test framework.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/clip/binding.hpp"
#include "asterune/graph/graph.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "support/graph_track_fixture.hpp"
#include "support/synthetic_walker.hpp"

namespace asterune::test {

class WarpGraph {
 public:
  explicit WarpGraph(bool warps = true) {
    Result<ClipBinding> cb = build_clip_binding(clip_, rig_);
    if (!cb) die("build_clip_binding", cb.message());
    binding_.clip_binding = std::move(cb).value();
    desc_.parameters = {{"speed", GraphParameterType::kNumber, 2.4f, false, {}},
                        {"direction", GraphParameterType::kNumber, 0.5f, false, {}}};
    GraphNodeDesc walk;
    walk.id = "Walk";
    walk.type = GraphNodeType::kClip;
    walk.clip = &clip_;
    walk.binding = &binding_;
    desc_.nodes.push_back(std::move(walk));
    desc_.output = 0;
    if (!warps) return;
    GraphNodeDesc stride;
    stride.id = "Stride";
    stride.type = GraphNodeType::kStrideWarp;
    stride.pose = 0;
    stride.speed.parameter = "speed";
    desc_.nodes.push_back(std::move(stride));
    GraphNodeDesc turn;
    turn.id = "Turn";
    turn.type = GraphNodeType::kOrientationWarp;
    turn.pose = 1;
    turn.direction.parameter = "direction";
    desc_.nodes.push_back(std::move(turn));
    desc_.output = 2;
  }
  WarpGraph(const WarpGraph&) = delete;
  WarpGraph& operator=(const WarpGraph&) = delete;

  const Rig& rig() const { return rig_; }
  int node_count() const { return static_cast<int>(desc_.nodes.size()); }

  /// A new instance of the graph; a build failure is a bug of this fixture, so it aborts.
  std::unique_ptr<GraphInstance> instance() const { return fixture_graph_instance("warp graph", desc_, rig_); }
  /// An animator playing `graph` as its one track at Movement, weight 1, with root motion.
  Animator animator(GraphInstance& graph) const { return fixture_graph_animator("warp graph", rig_, graph, true); }

 private:
  [[noreturn]] static void die(const char* what, const std::string& message) { fixture_failed("warp graph", what, message); }
  Rig rig_ = build_rig(*builtin_rig_desc("r15")).value();
  Clip clip_ = synthetic_walker();
  AnimationBinding binding_;
  GraphDesc desc_;
};

}  // namespace asterune::test
