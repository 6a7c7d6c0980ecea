// Clip sampling cost, counter ns_per_joint: BM_SampleClip60 is the speed goal's case (60 joints,
// rotation + translation tracks of 31 keys over 1 s, keys 8 degrees apart, forward at 60 fps
// with a playback cursor); also a real BVH clip on its 31-joint skeleton and an R15-named clip.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/formats/bvh.hpp"
#include "asterune/rig/pose.hpp"
#include "asterune/rig/rig.hpp"
#include "bench_rigs.hpp"

using namespace asterune;

namespace {

void report(benchmark::State& state, int joints) {
  state.counters["joints"] = static_cast<double>(joints);
  // Seconds per unit inverted; units of 1e-9 joints make it nanoseconds per joint.
  state.counters["ns_per_joint"] = benchmark::Counter(1e-9 * static_cast<double>(joints),
                                                      benchmark::Counter::kIsIterationInvariantRate |
                                                          benchmark::Counter::kInvert);
}

void BM_SampleBvhClip(benchmark::State& state) {
  Result<io::BvhFile> bvh = io::load_bvh(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_49_04_run_leap.bvh");
  if (!bvh) {
    state.SkipWithError(bvh.message().c_str());
    return;
  }
  Result<ClipBinding> binding = build_clip_binding(bvh.value().clip, bvh.value().skeleton);
  if (!binding) {
    state.SkipWithError(binding.message().c_str());
    return;
  }
  const int n = binding.value().joint_count();
  std::vector<Transform> local(static_cast<size_t>(n));
  std::vector<float> coverage(static_cast<size_t>(n));
  float t = 0.0f;
  for (auto _ : state) {
    sample_clip(bvh.value().clip, binding.value(), t, WrapMode::kLoop, local, coverage);
    benchmark::DoNotOptimize(local.data());
    t += 0.0137f;
  }
  report(state, n);
}
BENCHMARK(BM_SampleBvhClip);

void BM_SampleClip60(benchmark::State& state) {
  const Rig rig = asterune::bench::build_or_die(asterune::bench::humanoid60_desc());
  const Clip clip = asterune::bench::swing_clip(rig, 31, 1.0f, 8.0f);
  Result<ClipBinding> binding = build_clip_binding(clip, rig);
  if (!binding) {
    state.SkipWithError(binding.message().c_str());
    return;
  }
  Pose pose = make_pose(rig);
  ClipCursor cursor = make_clip_cursor(binding.value());
  float t = 0.0f;
  for (auto _ : state) {
    sample_clip(clip, binding.value(), t, WrapMode::kLoop, cursor, pose.local, pose.coverage);
    benchmark::DoNotOptimize(pose.local.data());
    benchmark::ClobberMemory();
    t += 1.0f / 60.0f;
    if (t >= 1.0f) t -= 1.0f;
  }
  report(state, rig.joint_count());
}
BENCHMARK(BM_SampleClip60);

// An R15-like rig: HumanoidRootPart > LowerTorso > UpperTorso > Head/arms, LowerTorso > legs.
Rig make_r15_like() {
  RigDesc desc;
  desc.name = "r15-like";
  const char* parts[] = {"HumanoidRootPart", "LowerTorso", "UpperTorso", "Head", "LeftUpperArm", "LeftLowerArm",
                         "LeftHand", "RightUpperArm", "RightLowerArm", "RightHand", "LeftUpperLeg", "LeftLowerLeg",
                         "LeftFoot", "RightUpperLeg", "RightLowerLeg", "RightFoot"};
  for (const char* p : parts) {
    PartDesc part;
    part.id = p;
    part.name = p;
    part.size = glm::vec3(1.0f);
    desc.parts.push_back(part);
  }
  struct J {
    const char *name, *p0, *p1;
    glm::vec3 c0;
  };
  const J joints[] = {{"Root", "HumanoidRootPart", "LowerTorso", {0, -0.2f, 0}},
                      {"Waist", "LowerTorso", "UpperTorso", {0, 0.2f, 0}},
                      {"Neck", "UpperTorso", "Head", {0, 0.8f, 0}},
                      {"LeftShoulder", "UpperTorso", "LeftUpperArm", {-1, 0.56f, 0}},
                      {"LeftElbow", "LeftUpperArm", "LeftLowerArm", {0, -0.33f, 0}},
                      {"LeftWrist", "LeftLowerArm", "LeftHand", {0, -0.5f, 0}},
                      {"RightShoulder", "UpperTorso", "RightUpperArm", {1, 0.56f, 0}},
                      {"RightElbow", "RightUpperArm", "RightLowerArm", {0, -0.33f, 0}},
                      {"RightWrist", "RightLowerArm", "RightHand", {0, -0.5f, 0}},
                      {"LeftHip", "LowerTorso", "LeftUpperLeg", {-0.5f, -0.2f, 0}},
                      {"LeftKnee", "LeftUpperLeg", "LeftLowerLeg", {0, -0.4f, 0}},
                      {"LeftAnkle", "LeftLowerLeg", "LeftFoot", {0, -0.7f, 0}},
                      {"RightHip", "LowerTorso", "RightUpperLeg", {0.5f, -0.2f, 0}},
                      {"RightKnee", "RightUpperLeg", "RightLowerLeg", {0, -0.4f, 0}},
                      {"RightAnkle", "RightLowerLeg", "RightFoot", {0, -0.7f, 0}}};
  for (const J& j : joints) {
    JointDesc d;
    d.name = j.name;
    d.part0 = j.p0;
    d.part1 = j.p1;
    d.c0 = Transform::from_position(j.c0);
    desc.joints.push_back(d);
  }
  desc.root = "HumanoidRootPart";
  Result<Rig> rig = build_rig(desc);
  if (!rig) {
    std::fprintf(stderr, "%s\n", rig.message().c_str());
    std::abort();
  }
  return std::move(rig).value();
}

void BM_SampleR15Clip(benchmark::State& state) {
  const Rig rig = make_r15_like();
  Clip clip;
  clip.name = "r15-synthetic";
  clip.duration = 2.0f;
  const int keys = static_cast<int>(state.range(0));
  for (int j = 0; j < rig.joint_count(); ++j) {
    ClipTrack track;
    track.name = rig.child_name(j);
    for (int k = 0; k < keys; ++k) {
      const float t = clip.duration * static_cast<float>(k) / static_cast<float>(keys - 1);
      track.rotation_times.push_back(t);
      track.rotations.push_back(glm::angleAxis(0.7f * std::sin(3.0f * t + static_cast<float>(j)),
                                               glm::normalize(glm::vec3(1.0f, 0.3f * static_cast<float>(j), 0.5f))));
    }
    if (j == 0) {
      track.translation_times = track.rotation_times;
      for (float t : track.rotation_times) track.translations.emplace_back(0.0f, 0.2f * std::sin(6.0f * t), 0.0f);
    }
    clip.tracks.push_back(track);
  }
  if (!clip_binds_natively(clip, rig)) {
    state.SkipWithError("R15 clip does not bind natively");
    return;
  }
  Result<ClipBinding> binding = build_clip_binding(clip, rig);
  if (!binding) {
    state.SkipWithError(binding.message().c_str());
    return;
  }
  Pose pose = make_pose(rig);
  float t = 0.0f;
  for (auto _ : state) {
    sample_clip(clip, binding.value(), t, WrapMode::kLoop, pose);
    benchmark::DoNotOptimize(pose.local.data());
    t += 0.0137f;
  }
  report(state, rig.joint_count());
}
BENCHMARK(BM_SampleR15Clip)->Arg(61)->Arg(601);

}  // namespace

BENCHMARK_MAIN();
