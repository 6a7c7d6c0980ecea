// Compressed clips of real motion capture (rule P8): every CMU clip of tests/data/bvh baked on
// the built-in R15, compressed at the default tolerance, then measured independently of the
// compressor: the float clip and the compressed one sampled through their public samplers at
// every frame and quarter frame, compared with the metric (rule P7).
#include <catch2/catch.hpp>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "asterune/clip/compressed_clip.hpp"
#include "asterune/clip/error_metric.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/anim/animator.hpp"
#include "support/cmu_bake.hpp"
#include "support/math.hpp"

using namespace asterune;

TEST_CASE("compressed CMU clips on R15 stay within the tolerance at every frame and quarter frame", "[clip][compress]") {
  const Rig rig = test::builtin_r15();
  const VirtualVertices vertices = make_virtual_vertices(rig);
  VertexErrorScratch scratch = make_vertex_error_scratch(rig);
  const auto n = static_cast<size_t>(rig.joint_count());
  for (const char* file : {"cmu_01_01_jumps_first900.bvh", "cmu_05_20_daz_names.bvh", "cmu_131_01_start_walk_stop.bvh",
                           "cmu_35_01_walk.bvh", "cmu_35_17_run.bvh", "cmu_49_04_run_leap.bvh"}) {
    INFO(file);
    const Clip baked = test::cmu_baked(file, rig);
    auto bound = build_clip_binding(baked, rig);
    REQUIRE(bound);
    CompressionReport report;
    auto compressed = compress_clip(baked, rig, {}, &report);
    REQUIRE(compressed);
    const CompressedClip& c = compressed.value();
    // The frames are the bake's keys (the source's, 120 Hz): the samples fall on them.
    const std::vector<float> keys = clip_key_times(baked);
    REQUIRE(keys.size() >= 2);
    std::vector<Transform> exact(n), approx(n);
    std::vector<float> c0(n), c1(n);
    float worst = 0.0f;
    for (size_t k = 0; k + 1 < keys.size(); ++k)
      for (int q = 0; q < 4; ++q) {
        const float t = keys[k] + 0.25f * static_cast<float>(q) * (keys[k + 1] - keys[k]);
        REQUIRE(sample_clip(baked, bound.value(), t, WrapMode::kClamp, exact, c0));
        REQUIRE(sample_compressed_clip(c, t, WrapMode::kClamp, approx, c1));
        REQUIRE(c0 == c1);
        VertexError e;
        REQUIRE(pose_vertex_error(rig, vertices, exact, approx, scratch, e));
        REQUIRE_FALSE(e.nonfinite);
        if (e.distance > worst) worst = e.distance;
      }
    CHECK(worst <= 0.0018f);
    CHECK(report.worst_error <= 0.0018f);
    CHECK(c.byte_size() * 8 < c.raw_byte_size());  // well under an eighth of raw floats
  }
}

TEST_CASE("players use a compressed clip through its binding as they use a float clip", "[clip][compress][anim]") {
  const Rig rig = test::builtin_r15();
  const Clip baked = test::cmu_baked("cmu_35_01_walk.bvh", rig);
  auto made = compress_clip(baked, rig);
  REQUIRE(made);
  auto compressed = std::make_shared<const CompressedClip>(std::move(made).value());
  const Clip shell = compressed_clip_shell(*compressed, rig);
  CHECK(shell.duration == baked.duration);
  for (const ClipTrack& t : shell.tracks) CHECK(t.rotations.empty());
  auto binding = build_compressed_animation_binding(shell, compressed, rig);
  REQUIRE(binding);
  const auto n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> direct(n), played(n), composed(n);
  std::vector<float> c0(n), c1(n), c2(n);
  AnimationContext ctx = make_animation_context(binding.value());
  TrackDesc desc;
  desc.name = "walk";
  desc.clip = &shell;
  desc.binding = &binding.value();
  auto animator = Animator::build(rig, std::span<const TrackDesc>(&desc, 1));
  REQUIRE(animator);
  float time = 0.0f;
  for (int f = 0; f < 120; ++f) {
    const float dt = 1.0f / 60.0f;
    REQUIRE(animator.value().update(rig, dt, composed, c2).ok);
    time += dt;
    const float t = wrap_clip_time(time, shell.duration, WrapMode::kLoop);
    REQUIRE(sample_compressed_clip(*compressed, t, WrapMode::kLoop, direct, c0));
    REQUIRE(sample_animation(shell, binding.value(), rig, t, WrapMode::kLoop, ctx, played, c1));
    for (size_t j = 0; j < n; ++j) {
      REQUIRE(played[j].rotation == direct[j].rotation);
      REQUIRE(played[j].position == direct[j].position);
      REQUIRE(c1[j] == c0[j]);
      if (c0[j] > 0.0f) CHECK(test::angle_between(composed[j].rotation, direct[j].rotation) < 1e-4f);
    }
  }
  // Another layout is refused (rule R7).
  auto other_desc = builtin_rig_desc("r6");
  REQUIRE(other_desc);
  auto other = build_rig(*other_desc);
  REQUIRE(other);
  CHECK_FALSE(build_compressed_animation_binding(shell, compressed, other.value()));
}
