// IK and look-at settings through scene files (docs/formats.md "controls"): every key reads
// into IkSettings / LookAtSettings, bad values fail naming the JSON path, and two reference
// checks run through a scene: soft reach keeps the elbow angle C1 across the softening start
// (rule IK8), and joint limits hold on every frame with the distance reported.
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/controls/stack.hpp"
#include "asterune/documents/scene_file.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

using namespace asterune;

namespace {

std::string scene_with(const std::string& controls) {
  return R"({"format": "asterune.scene/1", "rig": "builtin:r15", "controls": )" + controls + "}";
}

std::vector<ControlDesc> controls_of(const std::string& controls) {
  auto scene = io::parse_scene_json(scene_with(controls), "s.json");
  INFO((scene.ok() ? std::string() : scene.message()));
  REQUIRE(scene.ok());
  return scene.value().controls;
}

struct Run {
  Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  Pose pose = make_pose(rig);
  std::vector<Transform> world = std::vector<Transform>(static_cast<size_t>(rig.joint_count()));
  Transform root = Transform::from_position({0.0f, 3.0f, 0.0f});
  int joint(const char* part) const { return rig.find_joint(part).index; }
  glm::vec3 pivot(const char* part) const { return joint_pivot(rig, world, joint(part)); }
  glm::vec3 point(const char* part, const glm::vec3& offset) const {
    return transform_point(world[static_cast<size_t>(joint(part))], offset);
  }
  void step(ControlStack& s, float dt = 1.0f / 60.0f) {
    reset_pose(pose.local, pose.coverage);
    s.update(rig, StackFrame{root, dt, 0.0f}, pose, world);
  }
};

}  // namespace

TEST_CASE("scene controls: every IK and look-at setting reads from its key", "[scene][controls]") {
  const auto c = controls_of(R"([
    {"type": "ik", "name": "Arm", "chain_root": "LeftUpperArm", "end": "LeftHand", "end_offset": [0, -0.15, 0],
     "target": {"position": [-1, 3, -1]}, "solver": "ccd", "soft_reach": 0.85, "tolerance": 0.002,
     "max_passes": 32, "max_extension": 0.95, "pole_turn_rate_deg_per_s": 360,
     "limits": [{"part": "LeftLowerArm", "type": "hinge", "axis": [1, 0, 0], "min_deg": 0, "max_deg": 150},
                {"part": "LeftUpperArm", "type": "cone", "axis": [0, -1, 0], "cone_deg": 100, "min_deg": -30, "max_deg": 30}],
     "reach_window": {"side": "left", "up_limit_deg": 160, "across_limit_deg": 40, "behind_limit_deg": 120,
                      "falloff_deg": 25, "forward": [0, 0, -1], "up": [0, 1, 0]},
     "character_pole": {"back": [0, 0, 1], "outward": [-1, 0, 0], "outward_deg": 20, "slide_deg": 25}},
    {"type": "ik", "name": "Leg", "chain_root": "RightUpperArm", "end": "RightHand", "end_offset": [0, 0.125045, 0],
     "target": {"position": [0.5, 0.5, 0]}, "soft_reach": 0.9, "stretch": 1.05},
    {"type": "look_at", "name": "Look", "chain_root": "Head", "end": "Head", "target": {"position": [0, 4, -5]},
     "eye_offset": [0, 0.2, -0.5], "tracking_speed_deg_per_s": 120, "easing": false, "ease_time": 0.3}
  ])");
  REQUIRE(c.size() == 3);
  const auto& ik = std::get<IkSettings>(c[0].settings);
  CHECK(ik.soft_reach == 0.85f);
  CHECK(ik.tolerance == 0.002f);
  CHECK(ik.max_passes == 32);
  CHECK(ik.max_extension == 0.95f);
  CHECK(ik.pole_turn_rate_deg_per_s == 360.0f);
  REQUIRE(ik.limits.size() == 2);
  CHECK(ik.limits[0].kind == JointLimitKind::kHinge);
  CHECK(ik.limits[0].max_deg == 150.0f);
  CHECK(ik.limits[1].kind == JointLimitKind::kBallSocket);
  CHECK(ik.limits[1].cone_deg == 100.0f);
  CHECK(ik.limits[1].min_deg == -30.0f);
  REQUIRE(ik.reach_window);
  CHECK(ik.reach_window->side == -1.0f);
  CHECK(ik.reach_window->falloff_deg == 25.0f);
  CHECK(ik.reach_window->behind_limit_deg == 120.0f);
  REQUIRE(ik.character_pole);
  CHECK(ik.character_pole->outward_deg == 20.0f);
  CHECK(std::get<IkSettings>(c[1].settings).stretch == 1.05f);
  const auto& la = std::get<LookAtSettings>(c[2].settings);
  CHECK(la.eye_offset == glm::vec3(0, 0.2f, -0.5f));
  CHECK(la.tracking_speed_deg_per_s == 120.0f);
  CHECK_FALSE(la.easing);
  CHECK(la.ease_time == 0.3f);
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  auto stack = ControlStack::build(rig, c);
  INFO((stack.ok() ? std::string() : stack.message()));
  CHECK(stack.ok());
}

TEST_CASE("scene controls: bad IK settings fail with the JSON path and the reason", "[scene][controls]") {
  auto fails = [](const std::string& extra, const std::string& where, const std::string& why) {
    const std::string controls = R"([{"type": "ik", "name": "A", "chain_root": "LeftUpperArm", "end": "LeftLowerArm",
      "target": {"position": [0, 3, -1]}, )" + extra + "}]";
    auto scene = io::parse_scene_json(scene_with(controls), "bad.json");
    REQUIRE_FALSE(scene.ok());
    INFO(scene.message());
    CHECK(scene.message().find(where) != std::string::npos);
    CHECK(scene.message().find(why) != std::string::npos);
  };
  fails(R"("soft_reach": 1.5)", "/controls/0/soft_reach", "[0, 1)");
  fails(R"("stretch": 0.5)", "/controls/0/stretch", "factor");
  fails(R"("max_passes": 0)", "/controls/0/max_passes", "1..64");
  fails(R"("limits": [{"part": "LeftLowerArm", "type": "ball", "axis": [1, 0, 0]}])", "/controls/0/limits/0/type", "hinge or cone");
  fails(R"("limits": [{"part": "LeftLowerArm", "type": "cone", "axis": [1, 0, 0]}])", "/controls/0/limits/0", "cone_deg");
  fails(R"("limits": [{"part": "LeftLowerArm", "type": "hinge", "axis": [0, 0, 0]}])", "/controls/0/limits/0/axis", "zero");
  fails(R"("reach_window": {"side": "up"})", "/controls/0/reach_window/side", "left, right or auto");
  fails(R"("reach_window": {"falloff": 3})", "/controls/0/reach_window", "falloff");
  fails(R"("pole": {"position": [0, 0, 0]}, "character_pole": {})", "/controls/0/character_pole", "not both");
}

TEST_CASE("soft reach through a scene: the elbow angle is C1 across the softening start (rule IK8)", "[scene][controls]") {
  // Elbow interior angle as a function of the target distance along one direction, by finite
  // differences: with soft reach its slope is continuous at s*L; a hard clamp's slope (no soft
  // reach) collapses to 0 at L.
  auto slopes = [](float soft, float at_fraction) {
    Run r;
    const auto c = controls_of(R"([{"type": "ik", "name": "Arm", "chain_root": "LeftUpperArm", "end": "LeftLowerArm",
      "end_offset": [0, -0.5009, 0], "target": {"position": [0, 0, 0]}, "soft_reach": )" + std::to_string(soft) + "}]");
    auto s = ControlStack::build(r.rig, c).value();
    r.step(s);
    const glm::vec3 sh = r.pivot("LeftUpperArm");
    const float a = glm::length(r.pivot("LeftLowerArm") - sh);
    const float b = glm::length(r.point("LeftLowerArm", {0, -0.5009f, 0}) - r.pivot("LeftLowerArm"));
    const float L = a + b;
    const glm::vec3 dir = glm::normalize(glm::vec3(-1.0f, -0.3f, -0.5f));
    auto elbow = [&](float d) {
      s.set_target_position(0, sh + d * dir);
      r.step(s);
      const glm::vec3 e = r.pivot("LeftLowerArm");
      const glm::vec3 u = r.pivot("LeftUpperArm") - e;
      const glm::vec3 w = r.point("LeftLowerArm", {0, -0.5009f, 0}) - e;
      return std::atan2(glm::length(glm::cross(u, w)), glm::dot(u, w));
    };
    const float d0 = at_fraction * L;
    const float h = 0.01f * L;
    const float left = (elbow(d0) - elbow(d0 - h)) / h;
    const float right = (elbow(d0 + h) - elbow(d0)) / h;
    return std::pair<float, float>(left, right);
  };
  const auto soft = slopes(0.8f, 0.8f);
  INFO("soft reach: slope " << soft.first << " below, " << soft.second << " above the start");
  CHECK(soft.first > 0.1f);
  CHECK(std::fabs(soft.second - soft.first) < 0.1f * soft.first);
  const auto hard = slopes(0.0f, 1.0f);  // the hard clamp at full reach
  INFO("hard clamp: slope " << hard.first << " below, " << hard.second << " above full reach");
  CHECK(hard.first > 5.0f * std::fabs(hard.second));
}

TEST_CASE("joint limits through a scene: no joint leaves its limit on any frame, the distance is reported",
          "[scene][controls]") {
  Run r;
  const auto c = controls_of(R"([{"type": "ik", "name": "Arm", "chain_root": "LeftUpperArm", "end": "LeftHand",
    "end_offset": [0, -0.15, 0], "solver": "fabrik", "soft_reach": 0.9,
    "target": {"path": [{"t": 0, "position": [-1.5, 2.2, -1.2]}, {"t": 1, "position": [-1.2, 4.8, 0.9]},
                        {"t": 2, "position": [0.6, 3.0, -1.0]}]},
    "limits": [{"part": "LeftUpperArm", "type": "cone", "axis": [0, -1, 0], "cone_deg": 110, "min_deg": -25, "max_deg": 25},
               {"part": "LeftLowerArm", "type": "hinge", "axis": [1, 0, 0], "min_deg": 0, "max_deg": 140},
               {"part": "LeftHand", "type": "cone", "axis": [0, -1, 0], "cone_deg": 35, "min_deg": -10, "max_deg": 10}]}])");
  auto s = ControlStack::build(r.rig, c).value();
  const auto& ik = std::get<IkSettings>(c[0].settings);
  int not_reached = 0;
  double sum_distance = 0.0, sum_unsolved = 0.0;
  const glm::vec3 rest_hand = [&] {
    reset_pose(r.pose.local, r.pose.coverage);
    evaluate_world(r.rig, r.root, r.pose.local, r.world);
    return r.point("LeftHand", {0, -0.15f, 0});
  }();
  for (int f = 0; f <= 120; ++f) {
    reset_pose(r.pose.local, r.pose.coverage);
    s.update(r.rig, StackFrame{r.root, 1.0f / 60.0f, static_cast<float>(f) / 60.0f}, r.pose, r.world);
    const ControlReport& rep = s.report(0);
    REQUIRE(rep.status == ControlStatus::kSolved);
    CHECK(rep.distance == Approx(glm::length(r.point("LeftHand", {0, -0.15f, 0}) - rep.target)).margin(1e-5));
    if (!rep.reached) {
      ++not_reached;
      CHECK(rep.clamped);
    }
    sum_distance += rep.distance;
    sum_unsolved += glm::length(rest_hand - rep.target);
    for (const IkJointLimit& l : ik.limits) {
      const int j = r.joint(l.part.c_str());
      // Built-in R15 attachments have identity rotations: rest_local = identity.
      const glm::quat rel = glm::conjugate(r.world[static_cast<size_t>(r.rig.parent(j))].rotation) * r.world[static_cast<size_t>(j)].rotation;
      const JointLimit lim = l.kind == JointLimitKind::kHinge
                                 ? JointLimit::hinge(l.axis, glm::radians(l.min_deg), glm::radians(l.max_deg))
                                 : JointLimit::ball_socket(l.axis, glm::radians(l.cone_deg), glm::radians(l.min_deg),
                                                           glm::radians(l.max_deg));
      INFO("frame " << f << " " << l.part);
      CHECK(within_limit(lim, rel, glm::radians(0.05f)));
    }
  }
  // Limited chains converge slowly and part of this path (overhead-behind, across the body)
  // is outside the limits (docs/solvers.md): the check is that the solve brings the hand well
  // closer than the unsolved pose (measured: mean 0.94 vs 2.06 studs), with the limits held.
  INFO("frames not reached " << not_reached << ", mean distance " << sum_distance / 121.0 << " studs, unsolved "
                             << sum_unsolved / 121.0);
  CHECK(sum_distance < 0.6 * sum_unsolved);
}
