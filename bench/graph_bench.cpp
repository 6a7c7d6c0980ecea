// Animation graph cost on the built-in R15 rig (15 joints). BM_GraphLocomotionR15, the graph
// speed goal's case (<= 30 Y per update): one Animator update of one graph track playing the
// locomotion graph of tests/support/locomotion_graph.hpp (a synced Blend1D of walk, run and
// sprint as the forward input of an 8-direction Blend2D, an Over of an upper-body action through
// a Mask, an Add of a lean; 17 nodes, 12 clips each keying every joint with 31 keys), parameters
// fixed inside the Blend2D's hull so about three directions and two speeds are sampled.
// Counters: nodes, joints.
//
// BM_LocomotionWarpR15, the warp speed goal's case (<= 15 Y on top of the walk it warps): the
// synthetic walker under a StrideWarp and an OrientationWarp (tests/support/warp_graph.hpp) as one
// root-motion track, speed and direction moving each update through the clamp and the 90-degree
// limit, so the pelvis drop and both leg solves run; BM_LocomotionWarpR15Base plays the same walk
// without the warps, and the difference is the warps' cost.
#include <benchmark/benchmark.h>

#include <array>
#include <memory>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "support/locomotion_graph.hpp"
#include "support/warp_graph.hpp"

namespace {

using namespace asterune;

void BM_GraphLocomotionR15(benchmark::State& state) {
  static const test::LocomotionGraph graph;
  const std::unique_ptr<GraphInstance> g = graph.instance();
  Animator a = graph.animator(*g);
  std::vector<Transform> local(static_cast<size_t>(graph.rig().joint_count()));
  std::vector<float> coverage(local.size());
  std::array<AnimEvent, 16> events;
  for (auto _ : state) {
    const AnimatorReport r = a.update(graph.rig(), 1.0f / 60.0f, local, coverage, events);
    if (!r.ok) state.SkipWithError("update failed");
    benchmark::DoNotOptimize(local.data());
  }
  state.counters["nodes"] = graph.node_count();
  state.counters["joints"] = graph.rig().joint_count();
}
BENCHMARK(BM_GraphLocomotionR15);

void locomotion_warp(benchmark::State& state, bool warps) {
  static const test::WarpGraph with(true), without(false);
  const test::WarpGraph& graph = warps ? with : without;
  const std::unique_ptr<GraphInstance> g = graph.instance();
  Animator a = graph.animator(*g);
  const GraphParameter speed = g->find_parameter("speed"), direction = g->find_parameter("direction");
  std::vector<Transform> local(static_cast<size_t>(graph.rig().joint_count()));
  std::vector<float> coverage(local.size());
  std::array<AnimEvent, 16> events;
  int i = 0;
  for (auto _ : state) {
    const float u = static_cast<float>(i++ % 240) / 240.0f;
    g->set_number(speed, 0.8f + 4.0f * u);         // 0.5x to 3x the walk's 1.6 studs/s
    g->set_number(direction, -1.2f + 2.4f * u);  // about -+70 degrees
    const AnimatorReport r = a.update(graph.rig(), 1.0f / 60.0f, local, coverage, events);
    if (!r.ok) state.SkipWithError("update failed");
    benchmark::DoNotOptimize(local.data());
  }
  state.counters["nodes"] = graph.node_count();
  state.counters["joints"] = graph.rig().joint_count();
}
void BM_LocomotionWarpR15(benchmark::State& state) { locomotion_warp(state, true); }
void BM_LocomotionWarpR15Base(benchmark::State& state) { locomotion_warp(state, false); }
BENCHMARK(BM_LocomotionWarpR15);
BENCHMARK(BM_LocomotionWarpR15Base);

}  // namespace

BENCHMARK_MAIN();
