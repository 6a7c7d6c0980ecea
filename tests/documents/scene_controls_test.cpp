// The scene "controls" block (formats.md): ik, look_at and spring controls, targets, poles,
// colliders; the moving root path; other types fail clearly. Bound against the built-in R15 rig to check the names resolve.
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/controls/stack.hpp"
#include "asterune/documents/scene_file.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"

using namespace asterune;

namespace {

std::string scene_with(const std::string& controls) {
  return R"({"format": "asterune.scene/1", "rig": "builtin:r15", "controls": )" + controls + "}";
}

}  // namespace

TEST_CASE("scene controls: the formats.md ik and look_at examples read and bind", "[scene][controls]") {
  const std::string text = scene_with(R"([
    {"type": "ik", "name": "LeftArmReach", "chain_root": "LeftUpperArm", "end": "LeftHand",
     "end_offset": [0, -0.15, 0], "target": {"position": [-1.2, 4.0, -1.0]},
     "pole": {"position": [-2, 3, 1]}, "solver": "auto", "priority": 0, "weight": 1,
     "smooth_time": 0.05},
    {"type": "look_at", "name": "Head", "chain_root": "UpperTorso", "end": "Head",
     "forward": [0, 0, -1], "target": {"path": [{"t": 0, "position": [3, 4.5, -4]},
                                                {"t": 1, "position": [-3, 4.5, -4]}]},
     "yaw_limit_deg": 70, "pitch_limit_deg": 40},
    {"type": "ik", "name": "Leg", "chain_root": "RightUpperLeg", "end": "RightFoot",
     "target": {"part": "HumanoidRootPart", "offset": [0.5, -2.5, -0.5]}, "solver": "ccd",
     "enabled": false, "orientation": [1, 0, 0, 0]}
  ])");
  auto scene = io::parse_scene_json(text, "s.json");
  INFO((scene.ok() ? std::string() : scene.message()));
  REQUIRE(scene.ok());
  const auto& c = scene.value().controls;
  REQUIRE(c.size() == 3);
  CHECK(c[0].name == "LeftArmReach");
  CHECK(c[0].smooth_time == Approx(0.05f));
  const auto& ik = std::get<IkSettings>(c[0].settings);
  CHECK(ik.end_offset == glm::vec3(0, -0.15f, 0));
  REQUIRE(ik.pole.has_value());
  CHECK(ik.pole->position == glm::vec3(-2, 3, 1));
  CHECK(c[0].target.kind == TargetKind::kPosition);
  const auto& la = std::get<LookAtSettings>(c[1].settings);
  CHECK(la.yaw_limit_deg == 70.0f);
  CHECK(la.pitch_limit_deg == 40.0f);
  CHECK(c[1].target.kind == TargetKind::kPath);
  CHECK(c[1].target.path.size() == 2);
  CHECK(c[2].target.kind == TargetKind::kPart);
  CHECK_FALSE(c[2].enabled);
  CHECK(std::get<IkSettings>(c[2].settings).solver == IkSolver::kCcd);
  CHECK(std::get<IkSettings>(c[2].settings).orientation_goal.has_value());
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  auto stack = ControlStack::build(rig, c);
  INFO((stack.ok() ? std::string() : stack.message()));
  CHECK(stack.ok());
}

TEST_CASE("scene controls: a spring block reads every key", "[scene][controls]") {
  const std::string text = scene_with(R"([
    {"type": "spring", "name": "Tail", "chain_root": "Tail1", "end": "Tail3", "end_offset": [0, -0.3, 0],
     "stiffness": 40, "damping": 3, "gravity": [0, -60, 0], "priority": 2, "weight": 0.5, "enabled": false,
     "colliders": [{"type": "sphere", "part": "RightUpperLeg", "offset": [0, 0, 0.6], "radius": 0.4},
                   {"type": "capsule", "part": "LeftUpperLeg", "offset": [0, 0.4, 0], "offset_end": [0, -0.6, 0],
                    "radius": 0.55}]},
    {"type": "spring", "name": "Ear", "chain_root": "Head", "end": "Head"}
  ])");
  auto scene = io::parse_scene_json(text, "s.json");
  INFO((scene.ok() ? std::string() : scene.message()));
  REQUIRE(scene.ok());
  const auto& c = scene.value().controls;
  REQUIRE(c.size() == 2);
  CHECK(c[0].priority == 2);
  CHECK(c[0].weight == 0.5f);
  CHECK_FALSE(c[0].enabled);
  const auto& sp = std::get<SpringSettings>(c[0].settings);
  CHECK(sp.chain_root == "Tail1");
  CHECK(sp.end == "Tail3");
  REQUIRE(sp.end_offset.has_value());
  CHECK(*sp.end_offset == glm::vec3(0, -0.3f, 0));
  CHECK(sp.stiffness == 40.0f);
  CHECK(sp.damping == 3.0f);
  CHECK(sp.gravity == glm::vec3(0, -60, 0));
  REQUIRE(sp.colliders.size() == 2);
  CHECK(sp.colliders[0].shape == SpringColliderShape::kSphere);
  CHECK(sp.colliders[0].part == "RightUpperLeg");
  CHECK(sp.colliders[0].offset == glm::vec3(0, 0, 0.6f));
  CHECK(sp.colliders[0].radius == 0.4f);
  CHECK(sp.colliders[1].shape == SpringColliderShape::kCapsule);
  CHECK(sp.colliders[1].offset_end == glm::vec3(0, -0.6f, 0));
  const auto& ear = std::get<SpringSettings>(c[1].settings);
  CHECK_FALSE(ear.end_offset.has_value());
  CHECK(ear.stiffness == 60.0f);
  CHECK(ear.colliders.empty());
}

TEST_CASE("scene root: a path moves the root linearly with slerped rotation, held at the ends", "[scene]") {
  auto scene = io::parse_scene_json(R"({"format": "asterune.scene/1", "rig": "builtin:r15",
    "root": {"path": [{"t": 1, "position": [0, 3, 0]},
                      {"t": 3, "position": [4, 3, -2], "rotation": [0, 0, 1, 0]}]}})",
                                    "s.json");
  INFO((scene.ok() ? std::string() : scene.message()));
  REQUIRE(scene.ok());
  const auto& path = scene.value().root_path;
  REQUIRE(path.size() == 2);
  REQUIRE(scene.value().root.has_value());
  CHECK(scene.value().root->position == glm::vec3(0, 3, 0));
  // Held before the first key and after the last.
  CHECK(io::sample_root_path(path, 0.0f).position == glm::vec3(0, 3, 0));
  CHECK(io::sample_root_path(path, 9.0f).position == glm::vec3(4, 3, -2));
  // Halfway: position (2, 3, -1); rotation halfway from identity to 180 degrees about Y = 90 degrees.
  const Transform mid = io::sample_root_path(path, 2.0f);
  CHECK(mid.position.x == Approx(2.0f));
  CHECK(mid.position.z == Approx(-1.0f));
  const glm::vec3 forward = mid.rotation * glm::vec3(0, 0, -1);
  CHECK(std::fabs(forward.x) == Approx(1.0f).margin(1e-5));
  CHECK(forward.z == Approx(0.0f).margin(1e-5));

  auto bad = io::parse_scene_json(R"({"format": "asterune.scene/1", "rig": "builtin:r15",
    "root": {"path": [{"t": 1, "position": [0, 3, 0]}, {"t": 0.5, "position": [0, 3, 0]}]}})", "b.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message().find("/root/path/1/t") != std::string::npos);
  auto empty = io::parse_scene_json(R"({"format": "asterune.scene/1", "rig": "builtin:r15", "root": {"path": []}})",
                                    "b.json");
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.message().find("at least one key") != std::string::npos);
  auto nopos = io::parse_scene_json(R"({"format": "asterune.scene/1", "rig": "builtin:r15", "root": {"path": [{"t": 0}]}})",
                                    "b.json");
  REQUIRE_FALSE(nopos.ok());
  CHECK(nopos.message().find("position") != std::string::npos);
}

TEST_CASE("scene controls: feet step shortening and lean keys read, with today's defaults (G8, G9)",
          "[scene][controls]") {
  auto scene = io::parse_scene_json(scene_with(R"([
    {"type": "feet", "name": "Plain", "legs": [{"chain_root": "LeftUpperLeg", "end": "LeftFoot"}]},
    {"type": "feet", "name": "Slopes", "legs": [{"chain_root": "RightUpperLeg", "end": "RightFoot"}],
     "step_shorten_ratio": 0.4, "lean": true, "max_lean_deg": 7.5}
  ])"), "s.json");
  INFO((scene.ok() ? std::string() : scene.message()));
  REQUIRE(scene.ok());
  const auto& plain = std::get<FeetSettings>(scene.value().controls[0].settings);
  CHECK(plain.step_shorten_ratio == 0.0f);
  CHECK_FALSE(plain.lean);
  CHECK(plain.max_lean_deg == 10.0f);
  const auto& slopes = std::get<FeetSettings>(scene.value().controls[1].settings);
  CHECK(slopes.step_shorten_ratio == 0.4f);
  CHECK(slopes.lean);
  CHECK(slopes.max_lean_deg == 7.5f);
}

TEST_CASE("scene controls: bad blocks fail with the JSON path and the reason", "[scene][controls]") {
  auto fails = [](const std::string& controls, const std::string& where, const std::string& why) {
    auto scene = io::parse_scene_json(scene_with(controls), "bad.json");
    REQUIRE_FALSE(scene.ok());
    INFO(scene.message());
    CHECK(scene.message().find("bad.json") != std::string::npos);
    CHECK(scene.message().find(where) != std::string::npos);
    CHECK(scene.message().find(why) != std::string::npos);
  };
  fails(R"([{"type": "feet", "name": "Feet", "legs": []}])", "/controls/0/legs", "1 or 2 legs");
  fails(R"([{"type": "feet", "name": "Feet", "legs": [{"chain_root": "LeftUpperLeg", "end": "LeftFoot"}],
             "step_shorten_ratio": 1.5}])", "/controls/0/step_shorten_ratio", "[0, 1]");
  fails(R"([{"type": "feet", "name": "Feet", "legs": [{"chain_root": "LeftUpperLeg", "end": "LeftFoot"}],
             "max_lean_deg": 50}])", "/controls/0/max_lean_deg", "[0, 45]");
  fails(R"([{"type": "feet", "name": "Feet", "legs": [{"chain_root": "LeftUpperLeg", "end": "LeftFoot"}],
             "lean": true, "pelvis": false}])", "/controls/0/lean", "pelvis");
  fails(R"([{"type": "feet", "name": "Feet", "legs": [{"chain_root": "LeftUpperLeg", "end": "LeftFoot"}],
             "lean": 1}])", "/controls/0/lean", "");
  fails(R"([{"type": "feet", "name": "Feet", "legs": [{"chain_root": "LeftUpperLeg", "end": "LeftFoot"}],
             "max_tilt_deg": 120}])", "/controls/0/max_tilt_deg", "[0, 90]");
  fails(R"([{"type": "feet", "name": "Feet", "legs": [{"chain_root": "LeftUpperLeg", "end": "LeftFoot"}],
             "target": {"position": [0, 0, 0]}}])", "/controls/0", "target");
  fails(R"([{"type": "spring", "name": "Tail", "end": "Tail3"}])", "/controls/0", "chain_root");
  fails(R"([{"type": "spring", "name": "Tail", "chain_root": "Tail1", "end": "Tail3", "target": {"position": [0, 0, 0]}}])",
        "/controls/0/target", "unknown key");
  fails(R"([{"type": "spring", "name": "Tail", "chain_root": "Tail1", "end": "Tail3", "stiffness": -1}])",
        "/controls/0/stiffness", "[0, 10000]");
  fails(R"([{"type": "spring", "name": "Tail", "chain_root": "Tail1", "end": "Tail3", "damping": 500}])",
        "/controls/0/damping", "[0, 100]");
  fails(R"([{"type": "spring", "name": "Tail", "chain_root": "Tail1", "end": "Tail3",
             "colliders": [{"type": "cube", "part": "Head", "radius": 1}]}])",
        "/controls/0/colliders/0/type", "sphere or capsule");
  fails(R"([{"type": "spring", "name": "Tail", "chain_root": "Tail1", "end": "Tail3",
             "colliders": [{"type": "capsule", "part": "Head", "radius": 1}]}])",
        "/controls/0/colliders/0", "offset_end");
  fails(R"([{"type": "spring", "name": "Tail", "chain_root": "Tail1", "end": "Tail3",
             "colliders": [{"type": "sphere", "part": "Head", "radius": 0}]}])",
        "/controls/0/colliders/0/radius", "positive");
  fails(R"([{"type": "wobble", "name": "X"}])", "/controls/0/type", "unknown control type");
  fails(R"([{"type": "ik", "name": "A", "chain_root": "LeftUpperArm", "end": "LeftHand"}])", "/controls/0",
        "target");
  fails(R"([{"type": "ik", "name": "A", "chain_root": "LeftUpperArm", "end": "LeftHand",
             "target": {"position": [0, 0, 0], "part": "Head"}}])",
        "/controls/0/target", "exactly one");
  fails(R"([{"type": "ik", "name": "A", "chain_root": "LeftUpperArm", "end": "LeftHand",
             "target": {"position": [0, 0, 0]}, "solver": "magic"}])",
        "/controls/0/solver", "unknown solver");
  fails(R"([{"type": "ik", "name": "A", "chain_root": "LeftUpperArm", "end": "LeftHand",
             "target": {"position": [0, 0, 0]}, "weight": 2}])",
        "/controls/0/weight", "[0, 1]");
  fails(R"([{"type": "look_at", "name": "A", "chain_root": "UpperTorso", "end": "Head",
             "target": {"path": [{"t": 1, "position": [0, 0, 0]}, {"t": 0, "position": [0, 0, 0]}]}}])",
        "/controls/0/target/path/1/t", "must not decrease");
  fails(R"([{"type": "look_at", "name": "A", "chain_root": "UpperTorso", "end": "Head",
             "target": {"position": [0, 0, 0]}, "pole": {"position": [0, 0, 0]}}])",
        "/controls/0", "pole");
  fails(R"([{"type": "look_at", "name": "A", "chain_root": "UpperTorso", "end": "Head",
             "target": {"position": [0, 0, 0]}},
            {"type": "look_at", "name": "A", "chain_root": "UpperTorso", "end": "Head",
             "target": {"position": [0, 0, 0]}}])",
        "/controls/1/name", "used twice");
}

TEST_CASE("scene controls: the shipped reach_and_look example runs and reaches", "[scene][controls]") {
  auto scene = io::read_scene_file(std::string(ASTERUNE_EXAMPLES_DIR) + "/reach_and_look.scene.json");
  INFO((scene.ok() ? std::string() : scene.message()));
  REQUIRE(scene.ok());
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  auto stack = ControlStack::build(rig, scene.value().controls);
  INFO((stack.ok() ? std::string() : stack.message()));
  REQUIRE(stack.ok());
  Pose pose = make_pose(rig);
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));
  REQUIRE(scene.value().root.has_value());
  const Transform root = *scene.value().root;
  ControlStack& s = stack.value();
  for (int f = 0; f < scene.value().frames; ++f) {
    reset_pose(pose.local, pose.coverage);
    s.update(rig, StackFrame{root, scene.value().dt, static_cast<float>(f) * scene.value().dt}, pose, world);
  }
  REQUIRE(s.size() == 3);
  CHECK(s.report(0).reached);  // smoothing has long converged on the static target
  CHECK(s.report(1).reached);
  CHECK(s.report(2).status == ControlStatus::kSolved);
  // The foot's ankle pivot sits where the scene put it, relative to the root part.
  const int ankle = rig.find_joint("RightFoot").index;
  const glm::vec3 pivot = transform_point(world[static_cast<size_t>(ankle)], rig.c1()[static_cast<size_t>(ankle)].position);
  CHECK(glm::length(pivot - transform_point(root, {0.5f, -2.3f, -0.4f})) < 1e-3f);
}
