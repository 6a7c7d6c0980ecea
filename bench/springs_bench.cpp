// Spring chains (rules S1-S9, docs/springs.md): one 60 Hz frame (4 clock steps, inputs on the
// parabola through the last three frames) of a 3-segment chain, with and without two colliders.
// `ns_per_segment` (CPU time per segment per frame) is the figure.
// BM_SpringChain* time the pure step (asterune/solvers/spring.hpp); BM_SpringControl* the
// whole stack update of the tail of examples/tailed_r15.rig.json (reading the animated pose,
// the step, the joint rotations, blending and the world refresh) with the root moving.
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "asterune/controls/stack.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/solvers/spring.hpp"

using namespace asterune;

namespace {

void set_per_segment(benchmark::State& state, int segments) {
  // CPU ns per segment: kInvert gives seconds per unit, and counting units of 1e-9 makes it ns.
  state.counters["ns_per_segment"] = benchmark::Counter(1e-9 * static_cast<double>(segments),
                                                        benchmark::Counter::kIsIterationInvariantRate |
                                                            benchmark::Counter::kInvert);
}

void BM_SpringChain(benchmark::State& state) {
  const bool colliders = state.range(0) != 0;
  const std::array<float, 3> lengths{0.8f, 0.8f, 0.6f};
  std::array<glm::vec3, 3> points{}, velocities{}, clock_targets{}, shown{};
  std::array<SpringShape, 2> shapes{};
  shapes[0].a = glm::vec3(-0.5f, -1.0f, 0.3f);
  shapes[0].b = glm::vec3(-0.5f, 0.0f, 0.3f);
  shapes[0].radius = 0.55f;
  shapes[0].capsule = true;
  shapes[1].a = glm::vec3(0.5f, -1.0f, 0.6f);
  shapes[1].radius = 0.5f;
  // The animated inputs of 1024 frames at 60 Hz (a swaying, yawing root), made before the
  // timed loop so that it times the step alone.
  struct Frame {
    glm::vec3 root;
    std::array<glm::vec3, 3> targets;
  };
  std::vector<Frame> frames(1024);
  for (size_t i = 0; i < frames.size(); ++i) {
    const float t = static_cast<float>(i) / 60.0f;
    frames[i].root = glm::vec3(0.2f * std::sin(3.0f * t), 0.0f, 0.0f);
    const glm::quat q = glm::angleAxis(0.6f * std::sin(2.0f * t), glm::vec3(0, 1, 0));
    glm::vec3 p = frames[i].root;
    for (size_t k = 0; k < 3; ++k) p = frames[i].targets[k] = p + q * glm::vec3(0.0f, -0.7071f, 0.7071f) * lengths[k];
  }
  points = frames[0].targets;
  clock_targets = frames[0].targets;
  SpringChainState chain{points, velocities, clock_targets, frames[0].root, 0.0f};
  const SpringParams params{40.0f, 3.0f, glm::vec3(0.0f, -60.0f, 0.0f)};
  // Kept from frame to frame, as the spring control keeps it from bind.
  const SpringPropagator step = spring_propagator(params, kSpringStep);
  size_t i = 0;
  for (auto _ : state) {
    const Frame& prior = frames[(i + 1023) & 1023];
    const Frame& from = frames[i & 1023];
    const Frame& to = frames[(i + 1) & 1023];
    ++i;
    SpringChainFrame f;
    f.root_from = from.root;
    f.root_to = to.root;
    f.targets_from = from.targets;
    f.targets_to = to.targets;
    f.lengths = lengths;
    f.step = &step;
    // The frame before the previous one, as the control passes it: the inputs between frames
    // follow the parabola through the three (rule S9).
    f.prior_dt = 1.0f / 60.0f;
    f.root_prior = prior.root;
    f.targets_prior = prior.targets;
    if (colliders) {
      f.shapes_from = shapes;
      f.shapes_to = shapes;
      f.shapes_prior = shapes;
    }
    benchmark::DoNotOptimize(step_spring_chain(params, f, 1.0f / 60.0f, chain, shown));
  }
  set_per_segment(state, 3);
}
BENCHMARK(BM_SpringChain)->Arg(0)->Arg(2)->ArgName("colliders");

void BM_SpringControl(benchmark::State& state) {
  auto loaded = io::load_rig(std::string(ASTERUNE_TEST_DATA_DIR) + "/../../examples/tailed_r15.rig.json");
  if (!loaded) {
    state.SkipWithError(loaded.message().c_str());
    return;
  }
  const Rig rig = std::move(loaded).value();
  SpringSettings sp;
  sp.chain_root = "Tail1";
  sp.end = "Tail3";
  sp.stiffness = 40.0f;
  sp.damping = 3.0f;
  sp.gravity = glm::vec3(0.0f, -60.0f, 0.0f);
  if (state.range(0) != 0) {
    SpringCollider leg;
    leg.shape = SpringColliderShape::kCapsule;
    leg.part = "LeftUpperLeg";
    leg.offset = glm::vec3(0.0f, 0.4f, 0.0f);
    leg.offset_end = glm::vec3(0.0f, -0.6f, 0.0f);
    leg.radius = 0.55f;
    SpringCollider ball;
    ball.part = "RightUpperLeg";
    ball.offset = glm::vec3(0.0f, 0.0f, 0.6f);
    ball.radius = 0.4f;
    sp.colliders = {leg, ball};
  }
  ControlDesc d;
  d.name = "Tail";
  d.settings = sp;
  auto built = ControlStack::build(rig, std::vector<ControlDesc>{d});
  if (!built) {
    state.SkipWithError(built.message().c_str());
    return;
  }
  ControlStack stack = std::move(built).value();
  Pose pose = make_pose(rig);
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));
  int i = 0;
  for (auto _ : state) {
    const float t = static_cast<float>(i++ & 1023) / 60.0f;
    const Transform root{glm::angleAxis(0.5f * std::sin(2.0f * t), glm::vec3(0, 1, 0)),
                         glm::vec3(0.3f * std::sin(3.0f * t), 3.0f, 0.0f)};
    reset_pose(pose.local_span(), pose.coverage_span());
    stack.update(rig, StackFrame{root, 1.0f / 60.0f, t}, pose, world);
    benchmark::DoNotOptimize(world.data());
  }
  set_per_segment(state, 3);
}
BENCHMARK(BM_SpringControl)->Arg(0)->Arg(2)->ArgName("colliders");

}  // namespace

BENCHMARK_MAIN();
