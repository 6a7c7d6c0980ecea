// Compressed clips (rule P8) on random rigs with random clips and on hand-made worst cases (a
// long chain, a tiny leaf part, 180-degree flips between keys): the bound is checked here, not
// taken from the compressor's report, by sampling the float clip (sample_clip) and the
// compressed one (sample_compressed_clip) at every frame and quarter frame and measuring the two
// poses with the metric (rule P7). Also: any time order, no allocation, checked stored data.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/compressed_clip.hpp"
#include "asterune/clip/error_metric.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/rig/rig.hpp"
#include "support/alloc_counter.hpp"
#include "support/math.hpp"

using namespace asterune;

namespace {

PartDesc part(const std::string& name, glm::vec3 size) {
  PartDesc p;
  p.id = p.name = name;
  p.size = size;
  return p;
}

// parent_of[k] < k + 1 names the parent part of part k + 1 (0: the root part).
Rig tree_rig(const std::vector<int>& parent_of, const std::vector<glm::vec3>& sizes, std::mt19937* rng) {
  RigDesc d;
  d.name = "tree";
  d.root = "P0";
  d.parts.push_back(part("P0", glm::vec3(1.0f)));
  for (size_t k = 0; k < parent_of.size(); ++k) {
    d.parts.push_back(part("P" + std::to_string(k + 1), sizes[k]));
    JointDesc j;
    j.name = "J" + std::to_string(k + 1);
    j.part0 = "P" + std::to_string(parent_of[k]);
    j.part1 = "P" + std::to_string(k + 1);
    const glm::vec3 parent_size = parent_of[k] == 0 ? glm::vec3(1.0f) : sizes[static_cast<size_t>(parent_of[k]) - 1];
    j.c0 = Transform::from_position({0.5f * parent_size.x, 0.0f, 0.0f});
    j.c1 = Transform::from_position({-0.5f * sizes[k].x, 0.0f, 0.0f});
    if (rng) {
      j.c0.rotation = test::random_rotation(*rng, 1.0f);
      j.c1.rotation = test::random_rotation(*rng, 0.5f);
    }
    d.joints.push_back(j);
  }
  auto rig = build_rig(d);
  if (!rig) FAIL(rig.message());
  return std::move(rig).value();
}

// The largest metric error over every frame (key grid of `rate`) and quarter frame.
float measured_error(const Clip& clip, const Rig& rig, const CompressedClip& c, float rate) {
  auto bound = build_clip_binding(clip, rig);
  REQUIRE(bound);
  const VirtualVertices vertices = make_virtual_vertices(rig);
  VertexErrorScratch scratch = make_vertex_error_scratch(rig);
  const auto n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> exact(n), approx(n);
  std::vector<float> c0(n), c1(n);
  float worst = 0.0f;
  const int quarters = static_cast<int>(std::lround(clip.duration * rate * 4.0f));
  for (int q = 0; q <= quarters; ++q) {
    const float t = std::min(0.25f * static_cast<float>(q) / rate, clip.duration);
    REQUIRE(sample_clip(clip, bound.value(), t, WrapMode::kClamp, exact, c0));
    REQUIRE(sample_compressed_clip(c, t, WrapMode::kClamp, approx, c1));
    REQUIRE(c0 == c1);
    VertexError e;
    REQUIRE(pose_vertex_error(rig, vertices, exact, approx, scratch, e));
    REQUIRE_FALSE(e.nonfinite);
    worst = std::max(worst, e.distance);
  }
  return worst;
}

ClipTrack rotation_track(const std::string& name, float rate, const std::vector<glm::quat>& keys) {
  ClipTrack t;
  t.name = name;
  for (size_t k = 0; k < keys.size(); ++k) {
    t.rotation_times.push_back(static_cast<float>(k) / rate);
    t.rotations.push_back(keys[k]);
  }
  return t;
}

}  // namespace

TEST_CASE("compressed random clips on random rigs stay within the tolerance", "[clip][compress]") {
  std::mt19937 rng(36);
  for (int trial = 0; trial < 12; ++trial) {
    INFO("trial " << trial);
    std::uniform_int_distribution<int> count(2, 14);
    const int parts = count(rng);
    std::vector<int> parent_of;
    std::vector<glm::vec3> sizes;
    std::uniform_real_distribution<float> size(0.03f, 2.5f);
    for (int k = 0; k < parts; ++k) {
      parent_of.push_back(std::uniform_int_distribution<int>(0, k)(rng));
      sizes.emplace_back(size(rng), size(rng), size(rng));
    }
    const Rig rig = tree_rig(parent_of, sizes, &rng);
    const float rate = std::array<float, 3>{24.0f, 30.0f, 60.0f}[static_cast<size_t>(trial % 3)];
    const int frames = std::uniform_int_distribution<int>(1, 120)(rng);
    Clip clip;
    clip.name = "random";
    clip.duration = static_cast<float>(frames - 1) / rate;
    for (int j = 0; j < rig.joint_count(); ++j) {
      const int kind = std::uniform_int_distribution<int>(0, 4)(rng);
      if (kind == 0) continue;  // no track: coverage 0
      std::vector<glm::quat> keys{test::random_rotation(rng)};
      const float step = kind == 1 ? 0.0f : std::uniform_real_distribution<float>(0.01f, 0.4f)(rng);
      for (int f = 1; f < frames; ++f) keys.push_back(glm::normalize(test::random_rotation(rng, step) * keys.back()));
      ClipTrack t = rotation_track(rig.lookup_name(j), rate, keys);
      if (kind == 4) {  // a translation channel too
        glm::vec3 p(0.0f);
        for (int f = 0; f < frames; ++f) {
          p += glm::vec3(std::uniform_real_distribution<float>(-0.05f, 0.05f)(rng));
          t.translation_times.push_back(static_cast<float>(f) / rate);
          t.translations.push_back(p);
        }
      }
      clip.tracks.push_back(std::move(t));
    }
    if (clip.tracks.empty()) clip.tracks.push_back(rotation_track(rig.lookup_name(0), rate, {glm::quat(1, 0, 0, 0)}));
    auto c = compress_clip(clip, rig);
    REQUIRE(c);
    CHECK(measured_error(clip, rig, c.value(), rate) <= 0.0018f);
  }
}

TEST_CASE("compressed hand-made worst cases stay within the tolerance", "[clip][compress]") {
  constexpr float kRate = 30.0f;
  SECTION("a 30-link chain: the leaf 30 studs from the root's joint") {
    const Rig rig = tree_rig([] {
      std::vector<int> p;
      for (int k = 0; k < 30; ++k) p.push_back(k);
      return p;
    }(), std::vector<glm::vec3>(30, glm::vec3(1.0f, 0.3f, 0.3f)), nullptr);
    Clip clip;
    clip.name = "chain";
    clip.duration = 2.0f;
    for (int j = 0; j < rig.joint_count(); ++j) {
      std::vector<glm::quat> keys;
      for (int f = 0; f <= 60; ++f)
        keys.push_back(test::axis_angle_deg(20.0f * std::sin(0.2f * static_cast<float>(f) + static_cast<float>(j)),
                                            glm::normalize(glm::vec3(0.3f, 1.0f, 0.2f * static_cast<float>(j % 3)))));
      clip.tracks.push_back(rotation_track(rig.lookup_name(j), kRate, keys));
    }
    auto c = compress_clip(clip, rig);
    REQUIRE(c);
    CHECK(measured_error(clip, rig, c.value(), kRate) <= 0.0018f);
  }
  SECTION("a tiny leaf part spinning about its own axis") {
    const Rig rig = tree_rig({0, 1}, {glm::vec3(2.0f, 0.5f, 0.5f), glm::vec3(0.02f)}, nullptr);
    Clip clip;
    clip.name = "tiny";
    clip.duration = 1.0f;
    std::vector<glm::quat> spin, arm;
    for (int f = 0; f <= 30; ++f) {
      spin.push_back(test::axis_angle_deg(15.0f * static_cast<float>(f), {1, 0, 0}));
      arm.push_back(test::axis_angle_deg(2.0f * static_cast<float>(f), {0, 0, 1}));
    }
    clip.tracks = {rotation_track("P1", kRate, arm), rotation_track("P2", kRate, spin)};
    auto c = compress_clip(clip, rig);
    REQUIRE(c);
    CHECK(measured_error(clip, rig, c.value(), kRate) <= 0.0018f);
  }
  SECTION("180-degree flips between keys, about the axes and about a slanted one") {
    const Rig rig = tree_rig({0, 1}, {glm::vec3(2.0f, 1.0f, 1.0f), glm::vec3(1.0f)}, nullptr);
    for (const glm::vec3 axis : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::normalize(glm::vec3(1, 2, 3))}) {
      Clip clip;
      clip.name = "flip";
      clip.duration = 1.0f;
      std::vector<glm::quat> flips, near;
      for (int f = 0; f <= 30; ++f) {
        flips.push_back(test::axis_angle_deg(f % 2 ? 180.0f : 0.0f, axis));
        near.push_back(test::axis_angle_deg(f % 2 ? 179.5f : -0.25f, axis));
      }
      clip.tracks = {rotation_track("P1", kRate, flips), rotation_track("P2", kRate, near)};
      auto c = compress_clip(clip, rig);
      REQUIRE(c);
      CHECK(measured_error(clip, rig, c.value(), kRate) <= 0.0018f);
    }
  }
}

TEST_CASE("a compressed clip samples the same in any time order, keeps markers and allocates nothing",
          "[clip][compress][alloc]") {
  const Rig rig = tree_rig({0, 1, 1}, {glm::vec3(2, 1, 1), glm::vec3(1, 0.5f, 0.5f), glm::vec3(0.05f)}, nullptr);
  Clip clip;
  clip.name = "walk";
  clip.duration = 2.0f;
  std::vector<glm::quat> keys;
  for (int f = 0; f <= 60; ++f) keys.push_back(test::axis_angle_deg(40.0f * std::sin(0.3f * static_cast<float>(f)), {0, 0, 1}));
  clip.tracks = {rotation_track("P1", 30.0f, keys), rotation_track("P3", 30.0f, keys)};
  clip.markers.push_back(ClipMarker{0.5f, "step", "left", ClipMarkerKind::kMarker});
  auto made = compress_clip(clip, rig);
  REQUIRE(made);
  const CompressedClip& c = made.value();
  REQUIRE(c.markers().size() == 1);
  CHECK(c.markers()[0].name == "step");
  CHECK(c.markers()[0].value == "left");
  const auto n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> a(n), b(n);
  std::vector<float> ca(n), cb(n);
  std::vector<float> times;
  for (int k = 0; k <= 200; ++k) times.push_back(0.013f * static_cast<float>(k));
  std::vector<std::vector<Transform>> forward;
  for (float t : times) {
    sample_compressed_clip(c, t, WrapMode::kLoop, a, ca);
    forward.push_back(a);
  }
  // Rule P11: the cursor gives the same bits. Several segments, so that it changes segment.
  REQUIRE(c.data().segment_offsets.size() > 2);
  CompressedClipCursor cursor = make_compressed_clip_cursor(c);
  auto same = [&](const std::vector<Transform>& x, const std::vector<Transform>& y) {
    for (size_t j = 0; j < n; ++j) {
      REQUIRE(x[j].rotation == y[j].rotation);
      REQUIRE(x[j].position == y[j].position);
    }
  };
  test::AllocationScope scope;
  for (size_t k = times.size(); k-- > 0;) {  // backward, without and with the cursor
    REQUIRE(sample_compressed_clip(c, times[k], WrapMode::kLoop, b, cb));
    same(b, forward[k]);
    REQUIRE(sample_compressed_clip(c, times[k], WrapMode::kLoop, cursor, b, cb));
    same(b, forward[k]);
  }
  for (size_t k = 0; k < times.size(); ++k) {  // forward through the cursor
    REQUIRE(sample_compressed_clip(c, times[k], WrapMode::kLoop, cursor, b, cb));
    same(b, forward[k]);
  }
  std::minstd_rand rng(7);
  for (int k = 0; k < 500; ++k) {  // random seeks, odd times included, with and without the cursor
    const float t = std::uniform_real_distribution<float>(-5.0f, 5.0f)(rng);
    REQUIRE(sample_compressed_clip(c, t, WrapMode::kLoop, b, cb));
    REQUIRE(sample_compressed_clip(c, t, WrapMode::kLoop, cursor, a, ca));
    same(a, b);
    REQUIRE(sample_compressed_clip(c, std::numeric_limits<float>::quiet_NaN(), WrapMode::kClamp, b, cb));
    for (const Transform& x : b) REQUIRE(is_finite(x));
  }
  CHECK(scope.count() == 0);
  CHECK_FALSE(sample_compressed_clip(c, 0.0f, WrapMode::kLoop, std::span<Transform>(b).first(1), cb));
}

TEST_CASE("compression refuses what it cannot bound and stored data that is not consistent", "[clip][compress]") {
  const Rig rig = tree_rig({0}, {glm::vec3(2, 1, 1)}, nullptr);
  Clip step;
  step.name = "step";
  step.duration = 1.0f;
  step.tracks = {rotation_track("P1", 30.0f, {glm::quat(1, 0, 0, 0), test::axis_angle_deg(90.0f, {0, 0, 1})})};
  step.tracks[0].rotation_times = {0.0f, 0.51f};
  step.tracks[0].rotation_interpolation = Interpolation::kStep;
  auto refused = compress_clip(step, rig);
  REQUIRE_FALSE(refused);
  CHECK(refused.message().find("higher sample rate") != std::string::npos);
  CompressionSettings bad;
  bad.tolerance = 0.0f;
  CHECK_FALSE(compress_clip(step, rig, bad));
  Clip none;
  none.name = "none";
  none.tracks = {rotation_track("Nothing", 30.0f, {glm::quat(1, 0, 0, 0)})};
  CHECK_FALSE(compress_clip(none, rig));

  Clip wave;
  wave.name = "wave";
  wave.duration = 3.0f;
  std::vector<glm::quat> keys;
  for (int f = 0; f <= 90; ++f) keys.push_back(test::axis_angle_deg(60.0f * std::sin(0.2f * static_cast<float>(f)), {0, 1, 0}));
  wave.tracks = {rotation_track("P1", 30.0f, keys)};
  auto good = compress_clip(wave, rig);
  REQUIRE(good);
  const CompressedClipData& d = good.value().data();
  REQUIRE(make_compressed_clip(d));
  auto broken = [&](auto edit) {
    CompressedClipData copy = d;
    edit(copy);
    return make_compressed_clip(std::move(copy));
  };
  CHECK_FALSE(broken([](CompressedClipData& x) { x.bytes.resize(x.bytes.size() - 9); }));
  CHECK_FALSE(broken([](CompressedClipData& x) { x.bytes[0] = kCompressedBitRateCount; }));
  CHECK_FALSE(broken([](CompressedClipData& x) { x.segment_offsets.pop_back(); }));
  CHECK_FALSE(broken([](CompressedClipData& x) { x.sample_count += 64; }));
  CHECK_FALSE(broken([](CompressedClipData& x) { x.constants[0].position.x = std::numeric_limits<float>::infinity(); }));
  CHECK_FALSE(broken([](CompressedClipData& x) { x.channels[0].joint = 9; }));
  CHECK_FALSE(broken([](CompressedClipData& x) { x.channels[0].range_extent[1] = -1.0f; }));
  CHECK_FALSE(broken([](CompressedClipData& x) { x.coverage.push_back(1); }));
  auto raw_nan = broken([](CompressedClipData& x) {
    x.bytes[0] = kCompressedBitRateCount - 1;  // raw floats: the first one a NaN
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(x.bytes.data() + 7, &nan, sizeof nan);
  });
  CHECK_FALSE(raw_nan);
  // Any byte of the samples changed: accepted or not, sampling stays finite.
  std::mt19937 rng(3);
  std::vector<Transform> local(static_cast<size_t>(rig.joint_count()));
  std::vector<float> cov(local.size());
  for (int k = 0; k < 300; ++k) {
    auto mutated = broken([&](CompressedClipData& x) {
      x.bytes[std::uniform_int_distribution<size_t>(0, x.bytes.size() - 9)(rng)] = static_cast<std::uint8_t>(rng());
    });
    if (!mutated) continue;
    for (float t = 0.0f; t <= 3.0f; t += 0.07f) {
      REQUIRE(sample_compressed_clip(mutated.value(), t, WrapMode::kClamp, local, cov));
      for (const Transform& x : local) REQUIRE(is_finite(x));
    }
  }
}
