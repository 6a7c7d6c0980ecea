// Hostile input at load time (docs/formats.md, "Limits"): each refusal is one message naming
// the file, the item and the reason. The inputs of tests/fuzz/regression are replayed by
// test_fuzz; these tests pin the messages.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "asterune/formats/bvh.hpp"
#include "asterune/documents/frames_file.hpp"
#include "asterune/formats/gltf.hpp"
#include "asterune/documents/rig_file.hpp"
#include "asterune/documents/scene_file.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/pose.hpp"
#include "../support/temp_dir.hpp"

using namespace asterune;

namespace {

std::string nested(int levels) { return "{\"_\": " + std::string(static_cast<size_t>(levels - 1), '[') +
                                        std::string(static_cast<size_t>(levels - 1), ']') + ", \"a\": 1}"; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const char* kSmallBvh =
    "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n End Site\n {\n  OFFSET 0 1 0\n"
    " }\n}\nMOTION\nFrames: 2\nFrame Time: 0.5\n0 0 0\n1 2 3\n";

std::string bvh_with(const std::string& from, const std::string& to) {
  std::string s = kSmallBvh;
  s.replace(s.find(from), from.size(), to);
  return s;
}

}  // namespace

TEST_CASE("JSON nested deeper than 64 levels is refused before parsing, naming line and column", "[io][hostile]") {
  // 64 levels (the object and 63 arrays) parse; 65 do not.
  const auto ok = io::parse_rig_json(nested(64), "deep.rig.json");
  REQUIRE_FALSE(ok.ok());  // not a rig, but not refused for depth
  CHECK_FALSE(contains(ok.message(), "nested"));
  const auto deep = io::parse_rig_json(nested(65), "deep.rig.json");
  REQUIRE_FALSE(deep.ok());
  CHECK(deep.message() == "deep.rig.json: line 1, column 70: invalid JSON: nested deeper than 64 levels");
  // The finding: 87,552 levels used to overflow the stack.
  CHECK(contains(io::parse_rig_json(nested(87552), "deep.rig.json").message(), "nested deeper than 64 levels"));
  // Brackets inside strings (with escaped quotes) do not count.
  const std::string text = "{\"format\": \"asterune.rig/1\", \"name\": \"" + std::string(100, '[') + "\\\"[[\", \"parts\": []}";
  CHECK_FALSE(contains(io::parse_rig_json(text, "s.rig.json").message(), "nested"));
}

TEST_CASE("control characters from the input are escaped: every message stays one line (rule RG7)", "[io][hostile]") {
  // A part key holding an escaped line break, tab and an ESC (0x1b): the unknown-key message
  // echoes the key and its JSON pointer.
  const std::string text =
      "{\"format\": \"asterune.rig/1\", \"name\": \"x\", \"root\": \"A\", \"parts\": [{\"name\": \"A\", "
      "\"size\": [1, 1, 1], \"pla\\ncem\\t\\u001bnt\": 1}], \"joints\": []}";
  const auto rig = io::parse_rig_json(text, "k.rig.json");
  REQUIRE_FALSE(rig.ok());
  CHECK(rig.message().find_first_of("\n\r\t\x1b") == std::string::npos);
  CHECK(contains(rig.message(), "unknown key 'pla\\ncem\\t\\x1bnt'"));
  CHECK(make_error("a\nb\x7f").message == "a\\nb\\x7f");
  CHECK(make_error("plain text").message == "plain text");
}

TEST_CASE("devices and other non-regular files are refused, not read forever", "[io][hostile]") {
  if (!std::filesystem::exists("/dev/zero")) return;
  const auto rig = io::read_rig_file("/dev/zero");
  REQUIRE_FALSE(rig.ok());
  CHECK(rig.message() == "/dev/zero: is not a regular file (devices, pipes and sockets are refused)");
  const auto bvh = io::load_bvh("/dev/zero");
  REQUIRE_FALSE(bvh.ok());
  CHECK(contains(bvh.message(), "/dev/zero: not a regular file"));
}

TEST_CASE("BVH numbers past float range are refused where they are read", "[io][bvh][hostile]") {
  REQUIRE(io::parse_bvh(kSmallBvh, "s.bvh").ok());
  CHECK(io::parse_bvh(bvh_with("OFFSET 0 1 0", "OFFSET 0 1e39 0"), "s.bvh").message() ==
        "s.bvh:8: End Site OFFSET value is too large for a float ('1e39')");
  CHECK(io::parse_bvh(bvh_with("OFFSET 0 0 0", "OFFSET 1e39 0 0"), "s.bvh").message() ==
        "s.bvh:4: OFFSET value is too large for a float ('1e39')");
  CHECK(io::parse_bvh(bvh_with("1 2 3", "1 2 -1e39"), "s.bvh").message() ==
        "s.bvh:15: motion value is too large for a float ('-1e39')");
  CHECK(io::parse_bvh(bvh_with("Time: 0.5", "Time: 1e30"), "s.bvh").message() ==
        "s.bvh:13: frame time must be at most 3600 seconds, found 1000000000000000019884624838656.000000");
}

TEST_CASE("a BVH frame count with no data behind it allocates nothing per frame", "[io][bvh][hostile]") {
  // No channels: 10^8 declared frames used to allocate 395 MB of key times; now no track has keys.
  const std::string no_channels =
      "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 0\n}\nMOTION\nFrames: 100000000\nFrame Time: 0.03\n";
  const auto r = io::parse_bvh(no_channels, "n.bvh");
  REQUIRE(r.ok());
  CHECK(r.value().frame_count == 100000000);
  REQUIRE(r.value().clip.tracks.size() == 1);
  CHECK(r.value().clip.tracks[0].rotation_times.empty());
  CHECK(r.value().clip.tracks[0].translation_times.empty());
  CHECK(r.value().clip.duration == Approx(2999999.97));
  // With channels, every declared frame must be present before anything per frame is kept.
  CHECK(io::parse_bvh(bvh_with("Frames: 2", "Frames: 99999999"), "s.bvh").message() ==
        "s.bvh:15: truncated motion: 99999999 frames declared but only 2 present");
}

TEST_CASE("retarget scale and units outside [1e-6, 1e6] are refused by the scene reader", "[io][hostile]") {
  auto scene = [](const std::string& retarget) {
    return io::parse_scene_json("{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"animation\": "
                                "{\"clip\": \"c.bvh\", \"retarget\": " + retarget + "}}",
                                "/s/x.scene.json");
  };
  CHECK(scene("{\"scale\": 1e6}").ok());
  CHECK(scene("{\"units\": 1e-6}").ok());
  CHECK(scene("{\"scale\": 3.4028234e38}").message() ==
        "/s/x.scene.json: /animation/retarget/scale: must be \"auto\" or a number in [1e-6, 1e6]");
  CHECK(scene("{\"units\": 1e7}").message() ==
        "/s/x.scene.json: /animation/retarget/units: must be a number of studs per source unit in [1e-6, 1e6]");
  CHECK_FALSE(scene("{\"units\": 0}").ok());
}

TEST_CASE("glTF accessor counts and offsets near 2^64 fail with a message", "[io][gltf][hostile]") {
  const std::string dir = std::string(ASTERUNE_FUZZ_REGRESSION_DIR) + "/gltf/";
  for (const char* name : {"output_count_2pow62_plus1.gltf", "output_count_2pow64_minus1.gltf",
                           "output_byteoffset_near_2pow64.gltf", "view_byteoffset_near_2pow64.gltf"}) {
    INFO(name);
    const auto g = io::load_gltf_source(dir + name);
    REQUIRE_FALSE(g.ok());
    CHECK(contains(g.message(), dir + name + ": "));
    CHECK((contains(g.message(), "reads past the end of its buffer") || contains(g.message(), "out of range") ||
           contains(g.message(), "glTF parse error")));
  }
}

TEST_CASE("glTF and GLB JSON is depth-checked before tinygltf parses it; devices are refused", "[io][gltf][hostile]") {
  test::TempDir dir("gltf_depth");
  const std::string deep = nested(65);
  {
    std::ofstream(dir / "deep.gltf", std::ios::binary) << deep;
    // A GLB whose JSON chunk nests 65 levels (no BIN chunk: the depth check comes first).
    std::string chunk = deep + std::string((4 - deep.size() % 4) % 4, ' ');
    const auto u32 = [](std::uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
    std::ofstream(dir / "deep.glb", std::ios::binary)
        << "glTF" << u32(2) << u32(static_cast<std::uint32_t>(20 + chunk.size())) << u32(static_cast<std::uint32_t>(chunk.size()))
        << "JSON" << chunk;
  }
  for (const char* name : {"deep.gltf", "deep.glb"}) {
    INFO(name);
    const std::string path = (dir / name).string();
    const auto g = io::load_gltf_source(path);
    REQUIRE_FALSE(g.ok());
    CHECK(g.message() == path + ": line 1, column 70: invalid JSON: nested deeper than 64 levels");
  }
  if (std::filesystem::exists("/dev/zero")) {
    const auto g = io::load_gltf_source("/dev/zero");
    REQUIRE_FALSE(g.ok());
    CHECK(g.message() == "/dev/zero: is not a regular file (devices, pipes and sockets are refused)");
  }
}

TEST_CASE("the frames document written piece by piece is the whole document", "[io][hostile]") {
  const Rig rig = std::move(build_rig(*builtin_rig_desc("r6")).value());
  const size_t n = static_cast<size_t>(rig.joint_count());
  std::vector<io::FrameRecord> frames(3);
  for (size_t f = 0; f < frames.size(); ++f) {
    frames[f] = {static_cast<int>(f), 0.25f * static_cast<float>(f), std::vector<Transform>(n), std::vector<float>(n, 1.0f),
                 std::vector<Transform>(n), {}, Transform::identity(), {}, {}, 0, {}};
    io::ControlRecord reach;
    reach.name = "reach";
    reach.status = "solved";
    reach.reached = f == 2;
    reach.distance = 0.5f;
    frames[f].controls.push_back(reach);
  }
  std::string streamed = io::frames_json_head(rig);
  for (size_t f = 0; f < frames.size(); ++f) streamed += io::frames_json_frame(rig, frames[f], f);
  streamed += io::frames_json_tail(frames.size());
  CHECK(streamed == io::write_frames_json(rig, frames));
  const auto doc = nlohmann::json::parse(streamed);
  CHECK(doc["format"] == "asterune.frames/1");
  REQUIRE(doc["frames"].size() == 3);
  CHECK(doc["frames"][2]["time"] == 0.5);
  CHECK(doc["frames"][2]["controls"][0]["reached"] == true);
  CHECK(doc["frames"][1]["joints"].size() == n);
  const auto empty = nlohmann::json::parse(io::frames_json_head(rig) + io::frames_json_tail(0));
  CHECK(empty["frames"].empty());
}
