// Retarget sampling cost: the 31-joint CMU skeleton of cmu_49_04_run_leap.bvh
// driving builtin:r15 (15 joints) with automatic mapping, rest matching and auto scale.
//   BM_RetargetSample      sample_retarget() alone, from a pre-sampled source pose
//   BM_RetargetClipSample  clip sampling (31 joints) + sample_retarget(): one character's frame
//   BM_BakedClipSample     the same clip baked onto R15 (RT9), sampled natively
// Counters: ns per character (one call) and ns per target joint (per call / 15).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

#include "asterune/formats/bvh.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/bake.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "bench_rigs.hpp"

namespace {

using namespace asterune;

struct Fixture {
  Rig rig;
  io::BvhFile bvh;
  RetargetBinding binding;
  ClipBinding source_binding;
  Clip baked;
  ClipBinding baked_binding;

  Fixture() {
    rig = std::move(build_rig(*builtin_rig_desc("r15")).value());
    bvh = asterune::bench::load_cmu_or_die();
    binding = build_retarget_binding(bvh.skeleton, rig, asterune::bench::cmu_profile(bvh, rig)).value();
    source_binding = build_clip_binding(bvh.clip, bvh.skeleton).value();
    baked = bake_retarget(bvh.clip, source_binding, binding, rig).value();
    baked_binding = build_clip_binding(baked, rig).value();
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

void counters(benchmark::State& state, int joints) {
  state.counters["ns_per_character"] =
      benchmark::Counter(1e-9 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["ns_per_target_joint"] = benchmark::Counter(1e-9 * static_cast<double>(state.iterations()) * joints,
                                                             benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_RetargetSample(benchmark::State& state) {
  const Fixture& f = fixture();
  const size_t ns = static_cast<size_t>(f.bvh.skeleton.joint_count()), nt = static_cast<size_t>(f.rig.joint_count());
  std::vector<Transform> src(ns), local(nt);
  std::vector<float> src_cov(ns), cov(nt);
  RetargetContext ctx = make_retarget_context(f.binding);
  sample_clip(f.bvh.clip, f.source_binding, 1.0f, WrapMode::kLoop, src, src_cov);
  for (auto _ : state) {
    sample_retarget(f.binding, f.rig, src, src_cov, ctx, local, cov);
    benchmark::DoNotOptimize(local.data());
    benchmark::ClobberMemory();
  }
  counters(state, static_cast<int>(nt));
}
BENCHMARK(BM_RetargetSample);

void BM_RetargetClipSample(benchmark::State& state) {
  const Fixture& f = fixture();
  const size_t ns = static_cast<size_t>(f.bvh.skeleton.joint_count()), nt = static_cast<size_t>(f.rig.joint_count());
  std::vector<Transform> src(ns), local(nt);
  std::vector<float> src_cov(ns), cov(nt);
  RetargetContext ctx = make_retarget_context(f.binding);
  float t = 0.0f;
  for (auto _ : state) {
    t += 1.0f / 60.0f;
    sample_clip(f.bvh.clip, f.source_binding, t, WrapMode::kLoop, src, src_cov);
    sample_retarget(f.binding, f.rig, src, src_cov, ctx, local, cov);
    benchmark::DoNotOptimize(local.data());
    benchmark::ClobberMemory();
  }
  counters(state, static_cast<int>(nt));
}
BENCHMARK(BM_RetargetClipSample);

void BM_BakedClipSample(benchmark::State& state) {
  const Fixture& f = fixture();
  const size_t nt = static_cast<size_t>(f.rig.joint_count());
  std::vector<Transform> local(nt);
  std::vector<float> cov(nt);
  float t = 0.0f;
  for (auto _ : state) {
    t += 1.0f / 60.0f;
    sample_clip(f.baked, f.baked_binding, t, WrapMode::kLoop, local, cov);
    benchmark::DoNotOptimize(local.data());
    benchmark::ClobberMemory();
  }
  counters(state, static_cast<int>(nt));
}
BENCHMARK(BM_BakedClipSample);

}  // namespace

BENCHMARK_MAIN();
