// glTF of any layout (rule F20): the skeleton from the union of the skins or, without a skin,
// from the node trees of the animated nodes; VRM humanoid bones as roles; an animation chosen
// by name or index; our own export read back. Reference values are the files' own structure,
// written here by hand (or, for the VRM Animation, read from its JSON by hand: 53 nodes, two of
// them an expression and the lookAt target, 21 humanoid bones that are roles).
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "asterune/formats/gltf.hpp"
#include "asterune/formats/gltf_writer.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "formats/base64.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;
using nlohmann::json;

namespace {

// A buffer of times [0, 1] and two rotation keys (identity, then 90 degrees about X).
json animation_buffer() {
  const float data[10] = {0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.7071068f, 0.0f, 0.0f, 0.7071068f};
  std::string bytes(sizeof(data), '\0');
  std::memcpy(bytes.data(), data, sizeof(data));
  return json::array({{{"byteLength", bytes.size()},
                       {"uri", "data:application/octet-stream;base64," + io::detail::base64_encode(bytes)}}});
}

json base_doc() {
  json d;
  d["asset"] = {{"version", "2.0"}};
  d["buffers"] = animation_buffer();
  d["bufferViews"] = json::array({{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 8}},
                                  {{"buffer", 0}, {"byteOffset", 8}, {"byteLength", 32}}});
  d["accessors"] = json::array({{{"bufferView", 0}, {"componentType", 5126}, {"count", 2}, {"type", "SCALAR"},
                                 {"min", {0.0}}, {"max", {1.0}}},
                                {{"bufferView", 1}, {"componentType", 5126}, {"count", 2}, {"type", "VEC4"}}});
  return d;
}

json rotation_animation(const std::string& name, int node) {
  return {{"name", name},
          {"samplers", json::array({{{"input", 0}, {"output", 1}}})},
          {"channels", json::array({{{"sampler", 0}, {"target", {{"node", node}, {"path", "rotation"}}}}})}};
}

std::string write(const test::TempDir& dir, const std::string& name, const json& doc) {
  const std::string path = (dir.path() / name).string();
  std::ofstream(path) << doc.dump();
  return path;
}

}  // namespace

TEST_CASE("F20: the skeleton is the union of the skins, so a head skin 0 still has the body", "[io][gltf][layout]") {
  test::TempDir dir("gltf_layout");
  json d = base_doc();
  // hips(0) -> spine(1) -> head(2); hips -> leg(3). Skin 0: the head alone; skin 1: the rest.
  d["nodes"] = json::array({{{"name", "hips"}, {"children", {1, 3}}},
                            {{"name", "spine"}, {"translation", {0, 1, 0}}, {"children", {2}}},
                            {{"name", "head"}, {"translation", {0, 1, 0}}},
                            {{"name", "leg"}, {"translation", {0, -1, 0}}}});
  d["scenes"] = json::array({{{"nodes", {0}}}});
  d["skins"] = json::array({{{"joints", {2}}}, {{"joints", {0, 1, 3}}}});
  d["animations"] = json::array({rotation_animation("Idle", 1), rotation_animation("Walk", 3)});
  const std::string path = write(dir, "two_skins.gltf", d);

  auto all = io::load_gltf_source(path);
  REQUIRE(all);
  const SourceSkeleton& sk = all.value().skeleton;
  // Listed: head, hips, spine, leg; parents first moves head after spine.
  CHECK(sk.joint_names == std::vector<std::string>{"hips", "spine", "head", "leg"});
  CHECK(sk.parents == std::vector<int>{-1, 0, 1, 0});
  CHECK(all.value().joint_nodes == std::vector<int>{0, 1, 2, 3});
  REQUIRE(all.value().clips.size() == 2);
  CHECK(all.value().clips[1].tracks.at(0).name == "leg");

  io::GltfSourceOptions one;
  one.skin = 0;  // the old behaviour on request: skin 0 alone is the head
  auto head = io::load_gltf_source(path, one);
  REQUIRE(head);
  CHECK(head.value().skeleton.joint_names == std::vector<std::string>{"head"});

  // An animation by name or by index; a name that is neither lists the animations.
  CHECK(io::find_gltf_clip(all.value().clips, "Walk").value() == 1);
  CHECK(io::find_gltf_clip(all.value().clips, "0").value() == 0);
  auto none = io::find_gltf_clip(all.value().clips, "Run");
  REQUIRE_FALSE(none);
  CHECK(none.message().find("0 'Idle', 1 'Walk'") != std::string::npos);
}

TEST_CASE("F20: an animation-only glTF takes the node tree of its animated nodes", "[io][gltf][layout]") {
  test::TempDir dir("gltf_layout");
  json d = base_doc();
  // Tree A: root(0) -> arm(1) -> hand(2), animated at the hand. Tree B: a lone camera-like node.
  d["nodes"] = json::array({{{"name", "root"}, {"children", {1}}},
                            {{"name", "arm"}, {"translation", {1, 0, 0}}, {"children", {2}}},
                            {{"name", "hand"}, {"translation", {1, 0, 0}}},
                            {{"name", "other"}}});
  d["scenes"] = json::array({{{"nodes", {0, 3}}}});
  d["animations"] = json::array({rotation_animation("", 2)});
  auto g = io::load_gltf_source(write(dir, "no_skin.gltf", d));
  REQUIRE(g);
  CHECK(g.value().skeleton.joint_names == std::vector<std::string>{"root", "arm", "hand"});
  CHECK(g.value().skeleton.parents == std::vector<int>{-1, 0, 1});
  REQUIRE(g.value().clips.size() == 1);
  CHECK(g.value().clips[0].name == "animation0");

  // Neither a skin nor an animated node: nothing to take a skeleton from, said so on one line.
  d["animations"] = json::array();
  auto empty = io::load_gltf_source(write(dir, "nothing.gltf", d));
  REQUIRE_FALSE(empty);
  CHECK(empty.message().find("no skin and no animated node") != std::string::npos);

  // A cycle in the node tree (each node one parent) is refused, not walked forever.
  d["nodes"] = json::array({{{"name", "a"}, {"children", {1}}}, {{"name", "b"}, {"children", {0}}}});
  d["scenes"] = json::array({{{"nodes", json::array()}}});
  auto cycle = io::load_gltf_source(write(dir, "cycle.gltf", d));
  REQUIRE_FALSE(cycle);
  CHECK(cycle.message().find("cycle") != std::string::npos);
}

TEST_CASE("F20: a VRM Animation's skeleton and roles come from its humanoid bone map", "[io][gltf][layout][vrma]") {
  auto g = io::load_gltf_source(ASTERUNE_TEST_DATA_DIR "/gltf/threevrm_test.vrma");
  REQUIRE(g);
  const SourceSkeleton& sk = g.value().skeleton;
  // 53 nodes less the expression "happy" and the "lookAt" target.
  CHECK(sk.joint_count() == 51);
  CHECK(sk.find("happy") < 0);
  CHECK(sk.find("lookAt") < 0);
  CHECK(sk.joint_names[0] == "hips");
  // The 21 bones that are humanoid roles (hips ... toes; upperChest is not in the file; fingers
  // are no role).
  CHECK(sk.roles.size() == 21);
  CHECK(sk.roles.at("leftUpperLeg") == "leftUpperLeg");
  CHECK(sk.roles.at("rightToes") == "rightToes");
  CHECK(sk.roles.count("leftThumbProximal") == 0);
  // One animation; of its three channels only the right upper arm's rotation is a bone's.
  REQUIRE(g.value().clips.size() == 1);
  REQUIRE(g.value().clips[0].tracks.size() == 1);
  CHECK(g.value().clips[0].tracks[0].name == "rightUpperArm");
  CHECK(g.value().clips[0].duration == Approx(3.0f));
}

TEST_CASE("F20: our own --out .glb reads back, in studs, its part nodes as the skeleton", "[io][gltf][layout]") {
  test::TempDir dir("gltf_layout");
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  std::vector<io::FrameRecord> frames(2);
  for (size_t f = 0; f < frames.size(); ++f) {
    frames[f].frame = static_cast<int>(f);
    frames[f].time = static_cast<float>(f) / 30.0f;
    frames[f].root = Transform{glm::quat(1, 0, 0, 0), glm::vec3(0.0f, 3.0f, -static_cast<float>(f))};
    for (int j = 0; j < rig.joint_count(); ++j)
      frames[f].world.push_back(Transform{glm::quat(1, 0, 0, 0), glm::vec3(0.0f, 3.0f + 0.1f * static_cast<float>(j), 0.0f)});
  }
  const std::string path = (dir.path() / "ours.glb").string();
  REQUIRE(io::write_gltf_file(path, rig, frames));
  auto g = io::load_gltf_source(path);
  REQUIRE(g);
  CHECK(g.value().skeleton.units_to_studs == 1.0f);
  CHECK(g.value().skeleton.joint_count() == rig.joint_count() + 1);
  CHECK(g.value().skeleton.joint_names[0] == rig.part(rig.root_part()).name);
  REQUIRE(g.value().clips.size() == 1);
  CHECK(g.value().clips[0].tracks.size() == static_cast<size_t>(rig.joint_count()) + 1);
}
