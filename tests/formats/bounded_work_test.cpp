// Readers and exports whose work is bounded by their input (rules F23, F26): a small hostile
// CurveAnimation whose every segment is 4 s long bakes to a number of samples linear in its
// keys, not 960 per segment; the key reduction's work (KeyReduction::work, a count, not a time)
// grows linearly with the frames of a clip that holds still (a span of every frame cost O(F^2)).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>

#include "asterune/clip/key_reduction.hpp"
#include "asterune/formats/curve_animation.hpp"
#include "formats/base64.hpp"

using namespace asterune;

namespace {

// A FloatCurve's ValuesAndTimes (docs/formats.md): version 2, n keys of 14 bytes (cubic, no
// tangents, the value), version 1, n times in ticks of 1/2400 s.
std::string values_and_times(int n, int seconds_apart) {
  std::string b;
  auto u32 = [&](std::uint32_t v) { b.append(reinterpret_cast<const char*>(&v), 4); };
  auto f32 = [&](float v) { b.append(reinterpret_cast<const char*>(&v), 4); };
  u32(2);
  u32(static_cast<std::uint32_t>(n));
  for (int i = 0; i < n; ++i) {
    b.push_back(2);  // Cubic
    b.push_back(0);  // no tangents
    f32(static_cast<float>(i % 2));
    f32(0.0f);
    f32(0.0f);
  }
  u32(1);
  u32(static_cast<std::uint32_t>(n));
  for (int i = 0; i < n; ++i) u32(static_cast<std::uint32_t>(i * seconds_apart * 2400));
  return b;
}

}  // namespace

TEST_CASE("F26: a CurveAnimation of long segments bakes to samples linear in its keys", "[io][curves][hostile]") {
  const int keys = 400, joints = 8;
  const std::string curve = io::detail::base64_encode(values_and_times(keys, 4));
  std::string folders;
  for (int j = 0; j < joints; ++j)
    folders += "<Item class=\"Folder\" referent=\"J" + std::to_string(j) + "\"><Properties><string name=\"Name\">P" +
               std::to_string(j) + "</string></Properties><Item class=\"Vector3Curve\" referent=\"V" +
               std::to_string(j) + "\"><Properties><string name=\"Name\">Position</string></Properties>"
               "<Item class=\"FloatCurve\" referent=\"F" + std::to_string(j) + "\"><Properties><string name=\"Name\">X"
               "</string><BinaryString name=\"ValuesAndTimes\">" + curve + "</BinaryString></Properties></Item></Item></Item>";
  const std::string text = "<roblox version=\"4\"><Item class=\"CurveAnimation\" referent=\"A\"><Properties>"
                           "<string name=\"Name\">hostile</string></Properties><Item class=\"Folder\" referent=\"R\">"
                           "<Properties><string name=\"Name\">HumanoidRootPart</string></Properties>" +
                           folders + "</Item></Item></roblox>";
  auto file = io::parse_curve_animation(text, "hostile.rbxmx");
  REQUIRE(file);
  const Clip clip = io::curve_animation_clip(file.value());
  size_t samples = 0;
  for (const ClipTrack& t : clip.tracks) samples += t.translation_times.size();
  // 960 samples per 4 s segment would be 8 x 399 x 960 = 3,064,320. The bound: 64 per key of
  // the file plus 8192, plus one per segment for rounding up.
  const size_t file_keys = static_cast<size_t>(keys) * joints;
  CHECK(samples <= 64 * file_keys + 8192 + file_keys);
  CHECK(samples >= file_keys);  // every key time is still a sample
  CHECK(text.size() < 200000);   // a small file
}

namespace {
// A chain of `tracks` joints holding still for `frames` frames.
KeyTracks still_chain(size_t frames, size_t tracks) {
  KeyTracks k;
  for (size_t i = 0; i < tracks; ++i) {
    k.parent.push_back(static_cast<int>(i) - 1);
    k.pre.push_back(Transform{glm::quat(1, 0, 0, 0), glm::vec3(0.0f, 1.0f, 0.0f)});
    k.post.push_back(Transform::identity());
  }
  for (size_t f = 0; f < frames; ++f) {
    k.times.push_back(static_cast<float>(f) / 30.0f);
    k.base.push_back(Transform::identity());
    for (size_t i = 0; i < tracks; ++i) k.local.push_back(Transform::identity());
  }
  return k;
}
}  // namespace

TEST_CASE("F23: the key reduction's work grows linearly with the frame count", "[clip][keys][hostile]") {
  for (KeyCurve curve : {KeyCurve::kLinear, KeyCurve::kCubicSpline}) {
    const KeyReduction a = reduce_keys(still_chain(500, 3), 0.005f, curve);
    const KeyReduction b = reduce_keys(still_chain(2000, 3), 0.005f, curve);
    REQUIRE(a.work > 0);
    // Four times the frames: about four times the work (a quadratic reduction does 16 times).
    const double ratio = static_cast<double>(b.work) / static_cast<double>(a.work);
    CHECK(ratio > 2.0);
    CHECK(ratio < 6.0);
    CHECK(b.max_error <= 0.005f);
  }
}
