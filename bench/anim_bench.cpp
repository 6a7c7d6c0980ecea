// Animator cost on the built-in R15 rig (15 joints). BM_AnimatorR15: one update of four native
// tracks, the speed goal's case: idle, walk and run at Movement (weights 0.2 / 0.5 / 0.3, each
// clip keying every joint, 31 keys over its length, 8 degrees apart) and a wave at Action masked
// to the right arm with its descendants; fades, time, events, sampling and composition.
// BM_AnimatorR15Compose: the composition alone (Animator::compose on the same four samples, no
// sampling). Counter ns_per_joint_track: nanoseconds per joint per track.
// BM_Blend60x2, BM_Blend60x4: the blending job alone (blend_poses, kFast, the graph's blend) on a
// 60-joint pose of random local transforms, 2 and 4 layers of weight 1/layers each, no per-joint
// weights (ozz's BlendingJob case). Counter ns_per_joint_layer: nanoseconds per joint per layer.
// BM_BlendSoa60x2, BM_BlendSoa60x4: the same poses and weights with the poses four joints wide
// (SoaTransform in and out, rule BL5), as ozz's job reads and writes them: the like-for-like case.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/anim/blending_job.hpp"
#include "asterune/clip/binding.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "bench_rigs.hpp"

namespace {

using namespace asterune;

struct Fixture {
  Rig rig = bench::build_or_die(*builtin_rig_desc("r15"));
  Clip idle = bench::swing_clip(rig, 31, 2.0f, 8.0f);
  Clip walk = bench::swing_clip(rig, 31, 1.0f, 8.0f);
  Clip run = bench::swing_clip(rig, 31, 0.7f, 8.0f);
  Clip wave = bench::swing_clip(rig, 31, 1.5f, 8.0f);
  std::array<AnimationBinding, 4> bindings;
  std::vector<TrackDesc> tracks;

  Fixture() {
    const Clip* clips[4] = {&idle, &walk, &run, &wave};
    const char* names[4] = {"Idle", "Walk", "Run", "Wave"};
    const float weights[4] = {0.2f, 0.5f, 0.3f, 1.0f};
    for (size_t i = 0; i < 4; ++i) {
      bindings[i].clip_binding = build_clip_binding(*clips[i], rig).value();
      TrackDesc d;
      d.name = names[i];
      d.clip = clips[i];
      d.binding = &bindings[i];
      d.priority = i < 3 ? TrackPriority::kMovement : TrackPriority::kAction;
      d.weight = weights[i];
      d.time = 0.1f * static_cast<float>(i);
      if (i == 3) d.mask.parts = {"RightUpperArm"};
      tracks.push_back(d);
    }
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

void report(benchmark::State& state, const Rig& rig, int tracks) {
  const double units = static_cast<double>(rig.joint_count()) * tracks;
  state.counters["joints"] = rig.joint_count();
  state.counters["tracks"] = tracks;
  state.counters["ns_per_joint_track"] =
      benchmark::Counter(1e-9 * units, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_AnimatorR15(benchmark::State& state) {
  const Fixture& f = fixture();
  Animator a = Animator::build(f.rig, f.tracks).value();
  std::vector<Transform> local(static_cast<size_t>(f.rig.joint_count()));
  std::vector<float> coverage(local.size());
  std::array<AnimEvent, 16> events;
  for (auto _ : state) {
    const AnimatorReport r = a.update(f.rig, 1.0f / 60.0f, local, coverage, events);
    if (!r.ok) state.SkipWithError("update failed");
    benchmark::DoNotOptimize(local.data());
  }
  report(state, f.rig, a.track_count());
}
BENCHMARK(BM_AnimatorR15);

void BM_AnimatorR15Compose(benchmark::State& state) {
  const Fixture& f = fixture();
  Animator a = Animator::build(f.rig, f.tracks).value();
  std::vector<Transform> local(static_cast<size_t>(f.rig.joint_count()));
  std::vector<float> coverage(local.size());
  if (!a.update(f.rig, 1.0f / 60.0f, local, coverage).ok) state.SkipWithError("update failed");
  for (auto _ : state) {
    if (!a.compose(f.rig, local, coverage)) state.SkipWithError("compose failed");
    benchmark::DoNotOptimize(local.data());
  }
  report(state, f.rig, a.track_count());
}
BENCHMARK(BM_AnimatorR15Compose);

// A 60-joint humanoid's local pose per layer: rotations of up to about 100 degrees about random
// axes (either sign), positions within a stud; a fixed generator, the same on every library.
struct BlendFixture {
  static constexpr size_t kJoints = 60;
  std::vector<std::vector<Transform>> poses;
  std::vector<BlendLayer> layers;
  std::vector<Transform> out = std::vector<Transform>(kJoints);
  std::vector<float> coverage = std::vector<float>(kJoints);

  explicit BlendFixture(int layer_count) {
    std::uint32_t seed = 17u;
    const auto next = [&]() {
      seed = seed * 1664525u + 1013904223u;
      return static_cast<float>(seed >> 8) * (1.0f / 16777216.0f);
    };
    for (int l = 0; l < layer_count; ++l) {
      std::vector<Transform> pose(kJoints);
      for (Transform& t : pose) {
        const glm::vec3 axis(next() - 0.5f, next() - 0.5f, next() - 0.5f);
        t.rotation = glm::angleAxis(1.8f * (next() - 0.5f), glm::normalize(axis + glm::vec3(0.01f, 0.0f, 0.0f)));
        if (next() < 0.3f) t.rotation = -t.rotation;
        t.position = glm::vec3(next() - 0.5f, next(), next() - 0.5f);
      }
      poses.push_back(std::move(pose));
    }
    for (const auto& p : poses) layers.push_back(BlendLayer{p, 1.0f / static_cast<float>(layer_count), {}});
    for (const auto& p : poses) {
      std::vector<SoaTransform> blocks(soa_block_count(kJoints));
      to_soa(p, blocks);
      soa_poses.push_back(std::move(blocks));
    }
    for (const auto& p : soa_poses) soa_layers.push_back(SoaBlendLayer{p, 1.0f / static_cast<float>(layer_count), {}});
  }
  std::vector<std::vector<SoaTransform>> soa_poses;
  std::vector<SoaBlendLayer> soa_layers;
  std::vector<SoaTransform> soa_out = std::vector<SoaTransform>(soa_block_count(kJoints));
};

void blend_counters(benchmark::State& state, int layer_count) {
  const double units = static_cast<double>(BlendFixture::kJoints) * layer_count;
  state.counters["joints"] = static_cast<double>(BlendFixture::kJoints);
  state.counters["layers"] = layer_count;
  state.counters["ns_per_joint_layer"] =
      benchmark::Counter(1e-9 * units, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void run_blend(benchmark::State& state, int layer_count) {
  BlendFixture f(layer_count);
  BlendingJob job;
  job.layers = f.layers;
  job.output = f.out;
  job.coverage = f.coverage;
  for (auto _ : state) {
    if (!blend_poses(job)) state.SkipWithError("blend failed");
    benchmark::DoNotOptimize(f.out.data());
    benchmark::ClobberMemory();
  }
  blend_counters(state, layer_count);
}

void run_blend_soa(benchmark::State& state, int layer_count) {
  BlendFixture f(layer_count);
  SoaBlendingJob job;
  job.joint_count = BlendFixture::kJoints;
  job.layers = f.soa_layers;
  job.output = f.soa_out;
  job.coverage = f.coverage;
  for (auto _ : state) {
    if (!blend_poses(job)) state.SkipWithError("blend failed");
    benchmark::DoNotOptimize(f.soa_out.data());
    benchmark::ClobberMemory();
  }
  blend_counters(state, layer_count);
}

void BM_Blend60x2(benchmark::State& state) { run_blend(state, 2); }
BENCHMARK(BM_Blend60x2);
void BM_Blend60x4(benchmark::State& state) { run_blend(state, 4); }
BENCHMARK(BM_Blend60x4);
void BM_BlendSoa60x2(benchmark::State& state) { run_blend_soa(state, 2); }
BENCHMARK(BM_BlendSoa60x2);
void BM_BlendSoa60x4(benchmark::State& state) { run_blend_soa(state, 4); }
BENCHMARK(BM_BlendSoa60x4);

}  // namespace

BENCHMARK_MAIN();
