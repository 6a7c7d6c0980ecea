// World evaluation cost: ns per joint (counter ns_per_joint) on the 60-joint humanoid of the
// speed goals (BM_World60), an R15-shaped rig (BM_WorldR15) and a 100-joint synthetic tree.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "asterune/rig/pose.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "bench_rigs.hpp"

namespace {

using namespace asterune;

// R15 topology and attachment offsets (values of the standard rig, see tests/data/roblox).
RigDesc r15_shape() {
  RigDesc d;
  const char* parts[] = {"HumanoidRootPart", "LowerTorso", "UpperTorso", "Head", "LeftUpperArm", "LeftLowerArm",
                         "LeftHand", "RightUpperArm", "RightLowerArm", "RightHand", "LeftUpperLeg", "LeftLowerLeg",
                         "LeftFoot", "RightUpperLeg", "RightLowerLeg", "RightFoot"};
  for (const char* p : parts) d.parts.push_back({p, p, {1, 1, 1}, {}});
  auto j = [&](const char* name, const char* p0, const char* p1, glm::vec3 c0, glm::vec3 c1) {
    d.joints.push_back({name, p0, p1, Transform::from_position(c0), Transform::from_position(c1), true});
  };
  j("Root", "HumanoidRootPart", "LowerTorso", {0, -1, 0}, {0, -0.2f, 0});
  j("Waist", "LowerTorso", "UpperTorso", {0, 0.2f, 0}, {0, -0.8f, 0});
  j("Neck", "UpperTorso", "Head", {0, 0.8f, 0}, {0, -0.5f, 0});
  j("LeftShoulder", "UpperTorso", "LeftUpperArm", {-1, 0.563f, 0}, {0.5f, 0.394f, 0});
  j("LeftElbow", "LeftUpperArm", "LeftLowerArm", {0, -0.334f, 0}, {0, 0.259f, 0});
  j("LeftWrist", "LeftLowerArm", "LeftHand", {0, -0.501f, 0}, {0, 0.125f, 0});
  j("RightShoulder", "UpperTorso", "RightUpperArm", {1, 0.563f, 0}, {-0.5f, 0.394f, 0});
  j("RightElbow", "RightUpperArm", "RightLowerArm", {0, -0.334f, 0}, {0, 0.259f, 0});
  j("RightWrist", "RightLowerArm", "RightHand", {0, -0.501f, 0}, {0, 0.125f, 0});
  j("LeftHip", "LowerTorso", "LeftUpperLeg", {-0.5f, -0.2f, 0}, {0, 0.421f, 0});
  j("LeftKnee", "LeftUpperLeg", "LeftLowerLeg", {0, -0.401f, 0}, {0, 0.379f, 0});
  j("LeftAnkle", "LeftLowerLeg", "LeftFoot", {0, -0.547f, 0}, {0, 0.102f, 0});
  j("RightHip", "LowerTorso", "RightUpperLeg", {0.5f, -0.2f, 0}, {0, 0.421f, 0});
  j("RightKnee", "RightUpperLeg", "RightLowerLeg", {0, -0.401f, 0}, {0, 0.379f, 0});
  j("RightAnkle", "RightLowerLeg", "RightFoot", {0, -0.547f, 0}, {0, 0.102f, 0});
  return d;
}

// A branching tree: each part gets up to three children.
RigDesc synthetic(int joints) {
  RigDesc d;
  d.parts.push_back({"p0", "p0", {1, 1, 1}, {}});
  for (int i = 1; i <= joints; ++i) {
    const std::string id = "p" + std::to_string(i);
    d.parts.push_back({id, id, {1, 1, 1}, {}});
    const glm::quat tilt = glm::angleAxis(0.1f * static_cast<float>(i % 7), glm::vec3(0, 0, 1));
    d.joints.push_back({"j" + std::to_string(i), "p" + std::to_string((i - 1) / 3), id, {tilt, {0, -1, 0}},
                        Transform::from_position({0, 0.5f, 0}), true});
  }
  return d;
}

void run_world(benchmark::State& state, const RigDesc& desc) {
  const Rig rig = build_rig(desc).value();
  Pose pose = make_pose(rig);
  for (size_t i = 0; i < pose.local.size(); ++i)
    pose.local[i].rotation = glm::angleAxis(0.05f * static_cast<float>(i), glm::normalize(glm::vec3(1, 2, 3)));
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));
  const Transform root{glm::angleAxis(0.3f, glm::vec3(0, 1, 0)), {0, 3, 0}};
  for (auto _ : state) {
    evaluate_world(rig, root, pose.local, world);
    benchmark::DoNotOptimize(world.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * rig.joint_count());
  // kIsRate | kInvert gives seconds per unit; counting units of 1e-9 makes it nanoseconds.
  state.counters["ns_per_joint"] = benchmark::Counter(1e-9 * static_cast<double>(state.iterations() * rig.joint_count()),
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["joints"] = rig.joint_count();
}

void BM_World60(benchmark::State& state) { run_world(state, asterune::bench::humanoid60_desc()); }
void BM_WorldR15(benchmark::State& state) { run_world(state, r15_shape()); }
void BM_World100(benchmark::State& state) { run_world(state, synthetic(100)); }

BENCHMARK(BM_World60);
BENCHMARK(BM_WorldR15);
BENCHMARK(BM_World100);

}  // namespace

BENCHMARK_MAIN();
