// Animator cost on the built-in R15 rig (15 joints). BM_AnimatorR15: one update of four native
// tracks, the speed goal's case: idle, walk and run at Movement (weights 0.2 / 0.5 / 0.3, each
// clip keying every joint, 31 keys over its length, 8 degrees apart) and a wave at Action masked
// to the right arm with its descendants; fades, time, events, sampling and composition.
// BM_AnimatorR15Compose: the composition alone (Animator::compose on the same four samples, no
// sampling). Counter ns_per_joint_track: nanoseconds per joint per track.
#include <benchmark/benchmark.h>

#include <array>
#include <vector>

#include "asterune/anim/animator.hpp"
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

}  // namespace

BENCHMARK_MAIN();
