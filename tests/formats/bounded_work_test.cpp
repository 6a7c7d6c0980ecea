// Readers and exports whose work is bounded by their input (rules F23, F26, F29): a small hostile
// CurveAnimation whose every segment is 4 s long bakes to a number of samples linear in its
// keys, not 960 per segment; the key reduction's work (KeyReduction::work, a count, not a time)
// grows linearly with the frames of a clip that holds still (a span of every frame cost O(F^2)).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>

#include "asterune/clip/key_reduction.hpp"
#include "asterune/formats/bvh.hpp"
#include "asterune/formats/curve_animation.hpp"
#include "asterune/formats/keyframe_sequence.hpp"
#include "formats/base64.hpp"
#include "support/alloc_counter.hpp"

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

TEST_CASE("F29: a BVH of motion allocates at most 12 bytes per byte of its text, and a KeyframeSequence at most 40",
          "[io][bvh][rbxmx][hostile]") {
  // Sums of every allocation while parsing (frees not subtracted): bounds of the peak. At 12
  // bytes per byte the 64 MiB BVH limit stays under 1 GiB (formats.md "Limits"); a token list
  // kept before the motion was parsed took 24 bytes per number on its own (a 60 MB file of
  // "0 0 0 0 0 0" rows peaked at 1.25 GB).
  std::string bvh = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\n"
                    "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
                    "End Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 200000\nFrame Time: 0.01\n";
  for (int f = 0; f < 200000; ++f) bvh += "0 0 0 0 0 0\n";
  {
    const std::size_t before = test::allocated_bytes();
    const auto parsed = io::parse_bvh(bvh, "rows.bvh");
    const std::size_t used = test::allocated_bytes() - before;
    REQUIRE(parsed);
    CHECK(parsed.value().frame_count == 200000);
    INFO("BVH: " << used << " bytes allocated for " << bvh.size() << " bytes of text");
    CHECK(used <= 12 * bvh.size());
  }
  // A KeyframeSequence of 20,000 Keyframes, one Pose each under the root part's.
  const std::string cf =
      "<CoordinateFrame name=\"CFrame\"><X>0</X><Y>0</Y><Z>0</Z><R00>1</R00><R01>0</R01><R02>0</R02><R10>0</R10>"
      "<R11>1</R11><R12>0</R12><R20>0</R20><R21>0</R21><R22>1</R22></CoordinateFrame>";
  auto pose = [&](const std::string& name, const std::string& inner) {
    return "<Item class=\"Pose\"><Properties><string name=\"Name\">" + name + "</string>" + cf +
           "<float name=\"Weight\">1</float></Properties>" + inner + "</Item>";
  };
  std::string ks = "<roblox version=\"4\"><Item class=\"KeyframeSequence\"><Properties><string name=\"Name\">k</string>"
                   "</Properties>";
  for (int k = 0; k < 20000; ++k)
    ks += "<Item class=\"Keyframe\"><Properties><float name=\"Time\">" + std::to_string(0.01 * k) + "</float></Properties>" +
          pose("HumanoidRootPart", pose("LowerTorso", "")) + "</Item>";
  ks += "</Item></roblox>";
  const std::size_t before = test::allocated_bytes();
  const auto parsed = io::parse_keyframe_sequence(ks, "many.rbxmx");
  const std::size_t used = test::allocated_bytes() - before;
  REQUIRE(parsed);
  CHECK(parsed.value().clip.tracks.size() == 1);
  INFO("KeyframeSequence: " << used << " bytes allocated for " << ks.size() << " bytes of text");
  CHECK(used <= 40 * ks.size());
}
