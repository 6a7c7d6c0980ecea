// Test and benchmark fixtures: what a graph fixture (locomotion_graph.hpp, warp_graph.hpp) does
// once its GraphDesc is written: build instances of it and an Animator that plays one as its
// only track (rule GR15). A failure is a bug of the fixture, not of the code it measures, so
// it aborts naming the fixture; no test framework, so benchmarks can use it too.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/graph/graph.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::test {

[[noreturn]] inline void fixture_failed(const char* fixture, const char* what, const std::string& message) {
  std::fprintf(stderr, "%s: %s: %s\n", fixture, what, message.c_str());
  std::abort();
}

/// A new instance of `desc` on `rig`.
inline std::unique_ptr<GraphInstance> fixture_graph_instance(const char* fixture, const GraphDesc& desc,
                                                             const Rig& rig) {
  Result<GraphInstance> g = build_graph(desc, rig);
  if (!g) fixture_failed(fixture, "build_graph", g.message());
  return std::make_unique<GraphInstance>(std::move(g).value());
}

/// An animator playing `graph` as its one track "Locomotion" at Movement, weight 1.
inline Animator fixture_graph_animator(const char* fixture, const Rig& rig, GraphInstance& graph, bool root_motion) {
  TrackDesc t;
  t.name = "Locomotion";
  t.source = &graph;
  t.priority = TrackPriority::kMovement;
  t.root_motion = root_motion;
  const std::vector<TrackDesc> tracks = {t};
  Result<Animator> a = Animator::build(rig, tracks);
  if (!a) fixture_failed(fixture, "Animator::build", a.message());
  return std::move(a).value();
}

}  // namespace asterune::test
