// Every file in examples/ loads; asterune.scene/1 reading, path resolution and the blocks that
// are not supported yet, and what the ground block accepts.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "asterune/documents/graph_file.hpp"
#include "asterune/documents/pose_file.hpp"
#include "asterune/documents/rig_file.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/documents/scene_file.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/world.hpp"
#include "support/reference_data.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {
const std::filesystem::path kExamples = ASTERUNE_EXAMPLES_DIR;
}

TEST_CASE("every example file loads with the reader its format tag names") {
  int checked = 0;
  Rig tailed = io::load_rig((kExamples / "tailed_r15.rig.json").string()).value();
  for (const auto& entry : std::filesystem::directory_iterator(kExamples)) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().string());
    const std::string tag = test::load_json(entry.path().string())["format"].get<std::string>();
    if (tag == "asterune.rig/1") {
      Result<Rig> rig = io::load_rig(entry.path().string());
      REQUIRE(rig);
      CHECK(rig.value().dropped().empty());
    } else if (tag == "asterune.pose/1") {
      CHECK(io::read_pose_file(entry.path(), tailed));
    } else if (tag == "asterune.scene/1") {
      Result<io::SceneDesc> scene = io::read_scene_file(entry.path());
      REQUIRE(scene);
      Result<Rig> rig = io::load_rig(scene.value().rig);
      REQUIRE(rig);
      if (scene.value().pose) CHECK(io::read_pose_file(*scene.value().pose, rig.value()));
      // Tracks: mask parts name parts of the rig, and every clip loads (rule F2).
      CHECK(io::check_track_masks(scene.value().tracks, rig.value(), entry.path()));
      for (const io::SceneTrack& track : scene.value().tracks) {
        INFO(track.clip.string());
        if (!track.graph) {
          CHECK(io::load_source_clip(track.clip, track.retarget.units_to_studs));
          continue;
        }
        // Rule F10: a graph track's Clip nodes load with their own retarget block's units.
        const GraphDesc& g = track.graph->desc;
        for (size_t i = 0; i < g.nodes.size(); ++i)
          if (g.nodes[i].type == GraphNodeType::kClip)
            CHECK(io::load_source_clip(g.nodes[i].clip_source, track.graph->clip_retarget[i].units_to_studs));
      }
      if (scene.value().animation) CHECK(io::load_source_clip(scene.value().animation->clip));
    } else if (tag == "asterune.graph/1") {
      // Rule F9: the graph reads and every Clip node's clip loads.
      Result<GraphDesc> graph = io::read_graph_file(entry.path());
      REQUIRE(graph);
      for (const GraphNodeDesc& node : graph.value().nodes)
        if (node.type == GraphNodeType::kClip) CHECK(io::load_source_clip(node.clip_source));
    } else {
      FAIL("unknown format tag " << tag);
    }
    ++checked;
  }
  CHECK(checked >= 3);
}

TEST_CASE("tailed_r15: the R15 rig unchanged plus Tail1..Tail3 hanging behind LowerTorso") {
  const RigDesc desc = io::read_rig_file(kExamples / "tailed_r15.rig.json").value();
  const RigDesc r15 = *builtin_rig_desc("r15");
  REQUIRE(desc.joints.size() == r15.joints.size() + 3);
  for (size_t i = 0; i < r15.joints.size(); ++i) {
    CHECK(desc.joints[i].name == r15.joints[i].name);
    CHECK(glm::length(desc.joints[i].c0.position - r15.joints[i].c0.position) < 1e-6f);
    CHECK(glm::length(desc.joints[i].c1.position - r15.joints[i].c1.position) < 1e-6f);
  }
  Rig rig = build_rig(desc).value();
  const int t1 = rig.find_joint("Tail1").index, t2 = rig.find_joint("Tail2").index, t3 = rig.find_joint("Tail3").index;
  REQUIRE((t1 >= 0 && t2 >= 0 && t3 >= 0));
  CHECK(rig.parent_name(t1) == "LowerTorso");
  CHECK(rig.parent(t2) == t1);
  CHECK(rig.parent(t3) == t2);
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));
  evaluate_rest_world(rig, io::default_root_placement(rig), world);
  // Hand-derived: LowerTorso centre (0, 2.2, 0); pivot 0.1 below and 0.5 behind it; tilted
  // 45 degrees back, so the segment centres step 0.4*sqrt(2)/2 down and back per half segment.
  const float h = 0.4f * std::sqrt(0.5f);
  const glm::vec3 tail1 = world[static_cast<size_t>(t1)].position;
  CHECK(tail1.x == Approx(0.0f).margin(1e-5));
  CHECK(tail1.y == Approx(2.2f - 0.1f - h).margin(1e-4));
  CHECK(tail1.z == Approx(0.5f + h).margin(1e-4));
  const glm::vec3 tail3 = world[static_cast<size_t>(t3)].position;
  CHECK(tail3.z > tail1.z);  // behind the character (+Z)
  CHECK(tail3.y > 0.3f);     // above the ground
  for (const char* name : {"Tail1", "Tail2", "Tail3"}) {
    const PartDesc& p = rig.part(rig.find_part_by_id(name));
    CHECK(p.size.x <= 0.5f);  // small parts
  }
}

TEST_CASE("asterune.scene/1: keys, defaults and path resolution") {
  const test::TempDir tmp("scene_test");
  const auto dir = tmp / "sub";
  std::filesystem::create_directories(dir);
  const auto file = dir / "s.scene.json";
  SECTION("full scene") {
    Result<io::SceneDesc> s = io::parse_scene_json(
        R"({"format": "asterune.scene/1", "rig": "../rigs/hero.rig.json", "root": {"position": [1, 3, 0]},
            "pose": "p.pose.json", "frames": 12, "dt": 0.02, "_comment": "ignored"})",
        file);
    REQUIRE(s);
    CHECK(s.value().rig == (dir.parent_path() / "rigs" / "hero.rig.json").string());
    REQUIRE(s.value().pose);
    CHECK(*s.value().pose == dir / "p.pose.json");
    REQUIRE(s.value().root);
    CHECK(s.value().root->position == glm::vec3(1, 3, 0));
    CHECK(s.value().frames == 12);
    CHECK(s.value().dt == 0.02f);
  }
  SECTION("defaults; built-in rigs are not paths") {
    Result<io::SceneDesc> s = io::parse_scene_json(R"({"format": "asterune.scene/1", "rig": "builtin:r6"})", file);
    REQUIRE(s);
    CHECK(s.value().rig == "builtin:r6");
    CHECK_FALSE(s.value().root);
    CHECK_FALSE(s.value().pose);
    CHECK(s.value().frames == 1);
    CHECK(s.value().dt == Approx(1.0f / 60.0f));
  }
  SECTION("errors") {
    auto err = [&](const std::string& text) {
      Result<io::SceneDesc> s = io::parse_scene_json(text, "x.scene.json");
      REQUIRE_FALSE(s);
      return s.message();
    };
    const std::string head = R"({"format": "asterune.scene/1", "rig": "builtin:r15", )";
    // "ground" (src/documents/scene_ground.cpp) wants an array of shapes; "controls" an array of controls.
    CHECK_THAT(err(head + R"("ground": {}})"), Contains("x.scene.json: /ground"));
    CHECK_THAT(err(head + R"("ground": [{"type": "box", "center": [0, 0, 0], "size": [1, 0, 1]}]})"),
               Contains("x.scene.json: /ground/0/size: every edge length must be > 0"));
    CHECK_THAT(err(head + R"("ground": [{"type": "cone"}]})"), Contains("/ground/0/type: unknown ground shape 'cone'"));
    CHECK_THAT(err(head + R"("ground": [{"type": "heightfield", "origin": [0, 0, 0], "cell_size": 1,
                                          "heights": [[0, 0], [0]]}]})"),
               Contains("/ground/0/heights/1: has 1 heights; every row needs 2"));
    CHECK_THAT(err(head + R"("controls": {}})"), Contains("x.scene.json: /controls"));
    CHECK_THAT(err(head + R"("controls": [{"type": "spring", "name": "F"}]})"),
               Contains("/controls/0: missing required key 'chain_root'"));
    CHECK_THAT(err(head + R"("controls": [{"type": "wobble", "name": "F"}]})"),
               Contains("/controls/0/type: unknown control type 'wobble'"));
    CHECK_THAT(err(head + R"("frames": 0})"), Contains("/frames: must be between 1 and 100000"));
    CHECK_THAT(err(head + R"("frames": 2.5})"), Contains("/frames: expected an integer, found a fractional number"));
    CHECK_THAT(err(head + R"("dt": 0})"), Contains("/dt: must be a time step"));
    CHECK_THAT(err(head + R"("root": {"rotation": [0, 0, 0, 0]}})"), Contains("/root/rotation"));
    CHECK_THAT(err(head + R"("svg": "x.svg"})"), Contains("/svg: unknown key 'svg'"));
    CHECK_THAT(err(R"({"format": "asterune.scene/1"})"), Contains("x.scene.json: /: missing required key 'rig'"));
    CHECK_THAT(err(R"({"format": "asterune.scene/2", "rig": "builtin:r15"})"), Contains("/format: unsupported format"));
  }
  SECTION("a scene file on disk; missing file") {
    { std::ofstream(file) << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": 3})"; }
    CHECK(io::read_scene_file(file).value().frames == 3);
    CHECK_THAT(io::read_scene_file(dir / "none.json").message(), Contains("none.json: cannot open file"));
  }
}
