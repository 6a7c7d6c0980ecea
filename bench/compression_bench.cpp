// Compressed clips (rule P8), per CMU clip of tests/data/bvh baked on the built-in R15:
// counters ratio (ACL's raw size, 10 floats per joint per sample, over the compressed bytes),
// worst_studs and p99_studs (the compressor's measure at every sample and quarter sample),
// compress_ms (one compression, timed at setup); cases ns_per_joint for sampling the float clip
// forward with its cursor (Float), the compressed clip forward with its cursor (Compressed) and
// both at random times without a cursor (...Seek). Forward: 60 fps playback, looping.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/compressed_clip.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/bake.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"

using namespace asterune;

namespace {

constexpr const char* kClips[] = {"cmu_01_01_jumps_first900.bvh", "cmu_05_20_daz_names.bvh",
                                  "cmu_131_01_start_walk_stop.bvh", "cmu_35_01_walk.bvh",
                                  "cmu_35_17_run.bvh", "cmu_49_04_run_leap.bvh"};

struct Prepared {
  Rig rig;
  Clip baked;
  ClipBinding binding;
  CompressedClip compressed;
  CompressionReport report;
  double compress_ms = 0.0;
  std::string error;
};

std::string prepare(const std::string& file, Prepared& p) {
  p.rig = std::move(build_rig(*builtin_rig_desc("r15")).value());
  auto loaded = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  if (!loaded) return loaded.message();
  io::SourceClip clip = std::move(loaded).value();
  auto profile = io::build_scene_profile(io::SceneRetarget{}, clip.skeleton, p.rig, clip.rest_on_ground);
  if (!profile) return profile.message();
  if (auto floor = io::resolve_scene_floor(io::SceneRetarget{}, clip, p.rig, profile.value()); !floor) return floor.message();
  auto binding = build_animation_binding(clip.clip, p.rig, &clip.skeleton, &profile.value());
  if (!binding) return binding.message();
  auto baked = bake_retarget(clip.clip, binding.value().clip_binding, *binding.value().retarget, p.rig);
  if (!baked) return baked.message();
  p.baked = std::move(baked).value();
  auto native = build_clip_binding(p.baked, p.rig);
  if (!native) return native.message();
  p.binding = std::move(native).value();
  const auto start = std::chrono::steady_clock::now();
  auto c = compress_clip(p.baked, p.rig, {}, &p.report);
  p.compress_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!c) return c.message();
  p.compressed = std::move(c).value();
  return "";
}

const Prepared& prepared(const std::string& file) {
  static std::map<std::string, std::unique_ptr<Prepared>> cache;
  auto& slot = cache[file];
  if (!slot) {
    slot = std::make_unique<Prepared>();
    slot->error = prepare(file, *slot);
  }
  return *slot;
}

void report(benchmark::State& state, const Prepared& p) {
  const int joints = p.rig.joint_count();
  state.counters["ns_per_joint"] = benchmark::Counter(1e-9 * static_cast<double>(joints),
                                                      benchmark::Counter::kIsIterationInvariantRate |
                                                          benchmark::Counter::kInvert);
  state.counters["ratio"] = static_cast<double>(p.compressed.raw_byte_size()) / static_cast<double>(p.compressed.byte_size());
  state.counters["worst_studs"] = static_cast<double>(p.report.worst_error);
  state.counters["p99_studs"] = static_cast<double>(p.report.p99_error);
  state.counters["compress_ms"] = p.compress_ms;
}

enum class Case { kFloat, kCompressed, kFloatSeek, kCompressedSeek };

void sample_case(benchmark::State& state, const std::string& file, Case which) {
  const Prepared& p = prepared(file);
  if (!p.error.empty()) {
    state.SkipWithError(p.error.c_str());
    return;
  }
  const auto n = static_cast<size_t>(p.rig.joint_count());
  std::vector<Transform> local(n);
  std::vector<float> coverage(n);
  ClipCursor cursor = make_clip_cursor(p.binding);
  CompressedClipCursor compressed_cursor = make_compressed_clip_cursor(p.compressed);
  std::vector<float> times(1024);
  std::uint32_t seed = 12345u;
  for (float& t : times) {
    seed = seed * 1664525u + 1013904223u;
    t = static_cast<float>(seed >> 8) * (1.0f / 16777216.0f) * p.baked.duration;
  }
  std::size_t i = 0;
  float t = 0.0f;
  for (auto _ : state) {
    switch (which) {
      case Case::kFloat: sample_clip(p.baked, p.binding, t, WrapMode::kLoop, cursor, local, coverage); break;
      case Case::kCompressed: sample_compressed_clip(p.compressed, t, WrapMode::kLoop, compressed_cursor, local, coverage); break;
      case Case::kFloatSeek: sample_clip(p.baked, p.binding, times[i], WrapMode::kLoop, local, coverage); break;
      case Case::kCompressedSeek: sample_compressed_clip(p.compressed, times[i], WrapMode::kLoop, local, coverage); break;
    }
    benchmark::DoNotOptimize(local.data());
    benchmark::ClobberMemory();
    i = (i + 1) & 1023u;
    t += 1.0f / 60.0f;
    if (t >= p.baked.duration) t -= p.baked.duration;
  }
  report(state, p);
}

const bool kRegistered = [] {
  for (const char* file : kClips) {
    const std::string stem = std::string(file).substr(0, std::string(file).size() - 4);
    for (auto [name, which] : {std::pair{"Float", Case::kFloat}, std::pair{"Compressed", Case::kCompressed},
                               std::pair{"FloatSeek", Case::kFloatSeek},
                               std::pair{"CompressedSeek", Case::kCompressedSeek}})
      benchmark::RegisterBenchmark((std::string("BM_Sample") + name + "/" + stem).c_str(),
                                   [file = std::string(file), which = which](benchmark::State& s) {
                                     sample_case(s, file, which);
                                   });
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
