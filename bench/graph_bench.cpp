// Animation graph cost on the built-in R15 rig (15 joints). BM_GraphLocomotionR15, the graph
// speed goal's case (<= 30 Y per update): one Animator update of one graph track playing the
// locomotion graph of tests/support/locomotion_graph.hpp (a synced Blend1D of walk, run and
// sprint as the forward input of an 8-direction Blend2D, an Over of an upper-body action through
// a Mask, an Add of a lean; 17 nodes, 12 clips each keying every joint with 31 keys), parameters
// fixed inside the Blend2D's hull so about three directions and two speeds are sampled.
// Counters: nodes, joints.
#include <benchmark/benchmark.h>

#include <array>
#include <memory>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "support/locomotion_graph.hpp"

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

}  // namespace

BENCHMARK_MAIN();
