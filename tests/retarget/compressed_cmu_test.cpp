// Compressed clips of real motion capture (rule P8): every CMU clip of tests/data/bvh baked on
// the built-in R15, compressed at the default tolerance, then measured independently of the
// compressor: the float clip and the compressed one sampled through their public samplers at
// every frame and quarter frame, compared with the metric (rule P7).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "asterune/clip/compressed_clip.hpp"
#include "asterune/clip/error_metric.hpp"
#include "asterune/clip/sample.hpp"
#include "support/cmu_bake.hpp"

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
