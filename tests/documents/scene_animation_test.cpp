// The scene "animation" block (formats.md) and clip loading for it.
#include <catch2/catch.hpp>

#include "asterune/documents/scene_file.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {
const std::string kHead = R"({"format": "asterune.scene/1", "rig": "builtin:r15", )";
}

TEST_CASE("scene animation block: formats.md example, defaults and paths", "[io][scene][animation]") {
  auto s = io::parse_scene_json(kHead + R"("animation": {"clip": "../../data/bvh/walk.bvh", "loop": false,
      "retarget": {"map": "auto", "rest_matching": false, "translation": false, "scale": "auto"}}})",
                                "/scenes/a/x.scene.json");
  REQUIRE(s.ok());
  REQUIRE(s.value().animation);
  const io::SceneAnimation& a = *s.value().animation;
  CHECK(a.clip == std::filesystem::path("/data/bvh/walk.bvh"));
  REQUIRE(a.loop);
  CHECK_FALSE(*a.loop);
  CHECK(a.retarget.auto_map);
  CHECK_FALSE(a.retarget.rest_matching);
  CHECK_FALSE(a.retarget.translation);
  CHECK(a.retarget.auto_scale);

  auto d = io::parse_scene_json(kHead + R"("animation": {"clip": "w.bvh"}})", "/s/x.scene.json");
  REQUIRE(d.ok());
  const io::SceneAnimation& b = *d.value().animation;
  CHECK_FALSE(b.loop);  // unset: the file's Loop, else looped (rule AN11)
  CHECK(b.retarget.auto_map);
  CHECK(b.retarget.rest_matching);
  CHECK(b.retarget.translation);
  CHECK(b.retarget.auto_scale);
  CHECK_FALSE(b.retarget.facing);

  auto e = io::parse_scene_json(kHead + R"("animation": {"clip": "w.bvh", "retarget": {"scale": 0.5,
      "map": {"LowerTorso": "Hips", "UpperTorso": "Spine1"}, "facing": [0, 0, 1, 0], "units": 0.2}}})",
                                "/s/x.scene.json");
  REQUIRE(e.ok());
  const io::SceneRetarget& r = e.value().animation->retarget;
  CHECK_FALSE(r.auto_scale);
  CHECK(r.scale == 0.5f);
  CHECK_FALSE(r.auto_map);
  REQUIRE(r.map.size() == 2);
  CHECK(r.map[1].first == "UpperTorso");
  CHECK(r.map[1].second == "Spine1");
  REQUIRE(r.facing);
  CHECK(r.facing->y == 1.0f);
  CHECK(r.units_to_studs == 0.2f);
}

TEST_CASE("scene animation block: bad values name the JSON path", "[io][scene][animation]") {
  auto err = [&](const std::string& body) {
    auto s = io::parse_scene_json(kHead + body + "}", "x.scene.json");
    REQUIRE_FALSE(s.ok());
    return s.message();
  };
  CHECK_THAT(err(R"("animation": {})"), Contains("x.scene.json: /animation"));
  CHECK_THAT(err(R"("animation": {"clip": "a.bvh", "speed": 2})"), Contains("/animation"));
  CHECK_THAT(err(R"("animation": {"clip": "a.bvh", "retarget": {"map": "manual"}})"), Contains("/animation/retarget/map"));
  CHECK_THAT(err(R"("animation": {"clip": "a.bvh", "retarget": {"scale": -1}})"), Contains("/animation/retarget/scale"));
  CHECK_THAT(err(R"("animation": {"clip": "a.bvh", "retarget": {"scale": "big"}})"), Contains("/animation/retarget/scale"));
  CHECK_THAT(err(R"("animation": {"clip": "a.bvh", "retarget": {"facing": [0, 0, 0, 0]}})"), Contains("/animation/retarget/facing"));
  CHECK_THAT(err(R"("animation": {"clip": "a.bvh", "loop": 1})"), Contains("/animation/loop"));
}

TEST_CASE("source clips load from BVH and glTF and build scene profiles", "[io][animation]") {
  const Rig rig = std::move(build_rig(*builtin_rig_desc("r15")).value());
  auto bvh = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_131_01_start_walk_stop.bvh");
  REQUIRE(bvh.ok());
  CHECK(bvh.value().rest_on_ground);
  CHECK(bvh.value().skeleton.units_to_studs == Approx(0.056444 / 0.28));
  io::SceneRetarget rt;
  auto p = io::build_scene_profile(rt, bvh.value().skeleton, rig, true);
  REQUIRE(p.ok());
  CHECK(p.value().joints.size() == 15);
  CHECK(p.value().rest_on_ground);
  CHECK(build_retarget_binding(bvh.value().skeleton, rig, p.value()).ok());

  rt.auto_map = false;
  rt.map = {{"LowerTorso", "Hips"}, {"LeftUpperArm", "LeftShoulder"}};
  auto q = io::build_scene_profile(rt, bvh.value().skeleton, rig, true);
  REQUIRE(q.ok());
  CHECK(q.value().joints.size() == 2);
  CHECK(q.value().source_leg.size() == 3);
  CHECK(build_retarget_binding(bvh.value().skeleton, rig, q.value()).ok());

  auto gltf = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/gltf/CesiumMan.glb");
  REQUIRE(gltf.ok());
  CHECK_FALSE(gltf.value().rest_on_ground);
  auto g = io::build_scene_profile(io::SceneRetarget{}, gltf.value().skeleton, rig);
  REQUIRE(g.ok());
  CHECK(g.value().joints.size() == 15);  // CesiumMan has no clavicles; R15 has none either
  CHECK(build_retarget_binding(gltf.value().skeleton, rig, g.value()).ok());

  auto bad = io::load_source_clip("walk.fbx");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.message(), Contains("walk.fbx"));
}

TEST_CASE("scene animation block: retarget.floor (rule RT16)", "[io][scene][animation]") {
  auto floor_of = [&](const std::string& value) {
    auto s = io::parse_scene_json(kHead + R"("animation": {"clip": "w.bvh", "retarget": {"floor": )" + value + "}}}",
                                  "x.scene.json");
    REQUIRE(s.ok());
    return s.value().animation->retarget;
  };
  auto d = io::parse_scene_json(kHead + R"("animation": {"clip": "w.bvh"}})", "x.scene.json");
  REQUIRE(d.ok());
  CHECK(d.value().animation->retarget.floor == io::SceneRetarget::Floor::kAuto);  // the default
  CHECK(floor_of(R"("auto")").floor == io::SceneRetarget::Floor::kAuto);
  CHECK(floor_of(R"("rest")").floor == io::SceneRetarget::Floor::kRest);
  const io::SceneRetarget h = floor_of("-2.5");
  CHECK(h.floor == io::SceneRetarget::Floor::kHeight);
  CHECK(h.floor_height == -2.5f);
  for (const char* bad : {R"("up")", "true", "1e7", "[0]"}) {
    INFO(bad);
    auto s = io::parse_scene_json(kHead + R"("animation": {"clip": "w.bvh", "retarget": {"floor": )" + bad + "}}}",
                                  "x.scene.json");
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.message(), Contains("/animation/retarget/floor"));
  }
}
