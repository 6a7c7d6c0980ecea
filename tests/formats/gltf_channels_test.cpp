// glTF import of scale channels and CUBICSPLINE tangents (io/gltf.hpp), against values worked
// out by hand from the glTF spline formula p(s) = (2s^3-3s^2+1) v0 + (s^3-2s^2+s) dt b0 +
// (-2s^3+3s^2) v1 + (s^3-s^2) dt a1. The file is written by this test with nlohmann-json and an
// external .bin in a temporary folder under the build tree.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/formats/gltf.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;
using nlohmann::json;

namespace {

// Non-joint "Holder" (translation (0,0,5), 90 deg about +Y) > joint "A". A has a CUBICSPLINE
// translation, a LINEAR scale and a CUBICSPLINE rotation, keyed at t = 0 and t = 2.
std::string write_file(const test::TempDir& dir) {
  const float r = std::sqrt(0.5f);
  // clang-format off
  const std::vector<float> f = {
      0, 2,                                                    // 0: times
      0, 0, 0,  0, 0, 0,  3, 0, 0,   0, 0, 0,  6, 0, 0,  9, 9, 9,  // 8: translation in/value/out x 2
      1, 1, 1,  3, 5, 1,                                       // 80: scales
      0, 0, 0, 0,  0, 0, 0, 1,  0, 0, 0, 0,                    // 104: rotation key 0: in, value, out
      0, 0, 0, 0,  0, 0, r, r,  0, 0, 0, 0};                   //      key 1 (90 deg about +Z)
  // clang-format on
  {
    std::ofstream bin((dir / "data.bin").string(), std::ios::binary);
    bin.write(reinterpret_cast<const char*>(f.data()), static_cast<std::streamsize>(f.size() * 4));
  }
  const json doc = {
      {"asset", {{"version", "2.0"}}},
      {"nodes",
       {{{"name", "Holder"}, {"children", {1}}, {"translation", {0, 0, 5}}, {"rotation", {0, r, 0, r}}},
        {{"name", "A"}}}},
      {"skins", {{{"joints", {1}}}}},
      {"buffers", {{{"byteLength", f.size() * 4}, {"uri", "data.bin"}}}},
      {"bufferViews", {{{"buffer", 0}, {"byteLength", f.size() * 4}}}},
      {"accessors",
       {{{"bufferView", 0},
         {"byteOffset", 0},
         {"componentType", 5126},
         {"count", 2},
         {"type", "SCALAR"},
         {"min", {0.0}},
         {"max", {2.0}}},
        {{"bufferView", 0}, {"byteOffset", 8}, {"componentType", 5126}, {"count", 6}, {"type", "VEC3"}},
        {{"bufferView", 0}, {"byteOffset", 80}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}},
        {{"bufferView", 0}, {"byteOffset", 104}, {"componentType", 5126}, {"count", 6}, {"type", "VEC4"}}}},
      {"animations",
       {{{"samplers",
          {{{"input", 0}, {"output", 1}, {"interpolation", "CUBICSPLINE"}},
           {{"input", 0}, {"output", 2}, {"interpolation", "LINEAR"}},
           {{"input", 0}, {"output", 3}, {"interpolation", "CUBICSPLINE"}}}},
         {"channels",
          {{{"sampler", 0}, {"target", {{"node", 1}, {"path", "translation"}}}},
           {{"sampler", 1}, {"target", {{"node", 1}, {"path", "scale"}}}},
           {{"sampler", 2}, {"target", {{"node", 1}, {"path", "rotation"}}}}}}}}}};
  std::ofstream((dir / "channels.gltf").string()) << doc.dump();
  return (dir / "channels.gltf").string();
}

}  // namespace

TEST_CASE("glTF import keeps scale channels and CUBICSPLINE tangents", "[io][gltf]") {
  const test::TempDir dir("gltf_channels");
  Result<io::GltfSource> src = io::load_gltf_source(write_file(dir));
  REQUIRE(src.ok());
  REQUIRE(src.value().clips.size() == 1);
  const Clip& clip = src.value().clips[0];
  REQUIRE(clip.tracks.size() == 1);
  const ClipTrack& a = clip.tracks[0];
  CHECK(a.translation_interpolation == Interpolation::kCubicSpline);
  CHECK(a.rotation_interpolation == Interpolation::kCubicSpline);
  CHECK(a.scale_interpolation == Interpolation::kLinear);
  // Tangents are turned by the folded Holder rotation (Ry(90): +X -> -Z), not moved by it.
  REQUIRE(a.translation_out_tangents.size() == 2);
  CHECK(glm::length(a.translation_out_tangents[0] - glm::vec3(0, 0, -3)) < 1e-6f);
  CHECK(glm::length(a.translation_in_tangents[1]) < 1e-6f);
  CHECK(a.rotation_in_tangents.size() == 2);

  Result<ClipBinding> b = build_clip_binding(clip, src.value().skeleton);
  REQUIRE(b.ok());
  std::vector<Transform> local(1);
  std::vector<float> cov(1);
  sample_clip(clip, b.value(), 1.0f, WrapMode::kClamp, local, cov);
  // t = 1, s = 0.5, dt = 2: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125.
  // Translation: 0.125 * 2 * (3,0,0) + 0.5 * (6,0,0) = (3.75,0,0); folded: (0,0,5) + Ry(90)(3.75,0,0)
  // = (0, 0, 1.25). (A LINEAR channel would give (3,0,0) -> (0,0,2).)
  CHECK(glm::length(local[0].position - glm::vec3(0, 0, 1.25f)) < 1e-5f);
  // Rotation with zero tangents: 0.5 * identity + 0.5 * Rz(90), normalized = Rz(45); folded Ry(90) Rz(45).
  const glm::quat want =
      glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0)) * glm::angleAxis(glm::radians(45.0f), glm::vec3(0, 0, 1));
  CHECK(std::fabs(glm::dot(local[0].rotation, want)) == Approx(1.0f).margin(1e-6));
  // Scale, LINEAR: (1,1,1) -> (3,5,1) over 2 s; at t = 0.5: (1.5, 2, 1).
  CHECK(glm::length(sample_track_scale(a, 0.5f) - glm::vec3(1.5f, 2.0f, 1.0f)) < 1e-6f);
  CHECK(sample_track_scale(ClipTrack{}, 0.5f) == glm::vec3(1.0f));
  // The cubic translation ends exactly on its last value (6,0,0) -> (0,0,-1).
  sample_clip(clip, b.value(), 2.0f, WrapMode::kClamp, local, cov);
  CHECK(glm::length(local[0].position - glm::vec3(0, 0, -1)) < 1e-5f);
}

TEST_CASE("cubic clips without matching tangents are refused", "[clip]") {
  Clip clip;
  clip.name = "c";
  clip.duration = 1.0f;
  ClipTrack t;
  t.name = "A";
  t.translation_times = {0.0f, 1.0f};
  t.translations = {glm::vec3(0), glm::vec3(1)};
  t.translation_interpolation = Interpolation::kCubicSpline;
  t.translation_in_tangents = {glm::vec3(0)};
  t.translation_out_tangents = {glm::vec3(0), glm::vec3(0)};
  clip.tracks.push_back(t);
  CHECK_THAT(validate_clip(clip).message(),
             Catch::Contains("cubic translation has 2 keys but 1 in- and 2 out-tangents"));
  clip.tracks[0].translation_in_tangents = {glm::vec3(0), glm::vec3(std::nanf(""))};
  CHECK_THAT(validate_clip(clip).message(), Catch::Contains("nonfinite tangent"));
  clip.tracks[0].translation_in_tangents = {glm::vec3(0), glm::vec3(0)};
  CHECK(validate_clip(clip).ok());
}
