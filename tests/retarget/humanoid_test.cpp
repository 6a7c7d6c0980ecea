// Humanoid roles (rule RT8): scheme detection for every naming in our data, author overrides,
// the plan, automatic facing and the auto profile between two rigs.
#include <catch2/catch.hpp>

#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/retarget/rig_source.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "retarget_support.hpp"

using namespace asterune;

namespace {
Rig builtin(const char* name) { return std::move(build_rig(*builtin_rig_desc(name)).value()); }
}  // namespace

TEST_CASE("role names round-trip and parse in snake and camel case", "[retarget][roles]") {
  for (int r = 0; r < kRoleCount; ++r) {
    const Role role = static_cast<Role>(r);
    REQUIRE(parse_role(role_name(role)) == role);
  }
  CHECK(parse_role("leftUpperArm") == Role::kLeftUpperArm);
  CHECK(parse_role("UPPER_CHEST") == Role::kUpperChest);
  CHECK_FALSE(parse_role("tail").has_value());
}

TEST_CASE("R15 and R6 rigs are detected from their part names", "[retarget][roles]") {
  auto r15 = rig_roles(builtin("r15"));
  REQUIRE(r15.ok());
  CHECK(r15.value().scheme == "roblox_r15");
  CHECK(r15.value().count() == 15);
  CHECK(r15.value()[Role::kHips] == "LowerTorso");
  CHECK(r15.value()[Role::kChest] == "UpperTorso");
  CHECK(r15.value()[Role::kRightLowerLeg] == "RightLowerLeg");
  auto r6 = rig_roles(builtin("r6"));
  REQUIRE(r6.ok());
  CHECK(r6.value().scheme == "roblox_r6");
  CHECK(r6.value()[Role::kHips] == "Torso");
  CHECK(r6.value()[Role::kLeftUpperArm] == "Left Arm");
  CHECK(r6.value()[Role::kRightUpperLeg] == "Right Leg");
}

TEST_CASE("CesiumMan, Mixamo and VRM-style names are detected", "[retarget][roles]") {
  // CesiumMan node names as stored in CesiumMan.glb (tests/data/gltf).
  const std::vector<std::string> cesium = {
      "Skeleton_torso_joint_1", "Skeleton_torso_joint_2", "torso_joint_3", "Skeleton_neck_joint_1",
      "Skeleton_neck_joint_2", "Skeleton_arm_joint_L__4_", "Skeleton_arm_joint_R", "Skeleton_arm_joint_L__3_",
      "Skeleton_arm_joint_R__2_", "Skeleton_arm_joint_L__2_", "Skeleton_arm_joint_R__3_", "leg_joint_L_1",
      "leg_joint_R_1", "leg_joint_L_2", "leg_joint_R_2", "leg_joint_L_3", "leg_joint_R_3", "leg_joint_L_5",
      "leg_joint_R_5"};
  const RoleMap c = detect_roles(cesium);
  CHECK(c.scheme == "cesium_man");
  CHECK(c.count() == 19);
  CHECK(c[Role::kRightUpperArm] == "Skeleton_arm_joint_R");
  CHECK(c[Role::kLeftHand] == "Skeleton_arm_joint_L__2_");

  const std::vector<std::string> mixamo = {"mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Spine2",
                                           "mixamorig:Neck", "mixamorig:Head", "mixamorig:LeftShoulder",
                                           "mixamorig:LeftArm", "mixamorig:LeftForeArm", "mixamorig:LeftHand",
                                           "mixamorig:LeftUpLeg", "mixamorig:LeftLeg", "mixamorig:LeftFoot"};
  const RoleMap m = detect_roles(mixamo);
  CHECK(m.scheme == "mixamo");
  CHECK(m[Role::kUpperChest] == "mixamorig:Spine2");
  CHECK(m[Role::kNeck] == "mixamorig:Neck");
  CHECK(m[Role::kLeftLowerLeg] == "mixamorig:LeftLeg");

  const std::vector<std::string> vrm = {"hips", "spine", "chest", "upperChest", "neck", "head", "leftUpperArm"};
  const RoleMap v = detect_roles(vrm);
  CHECK(v.scheme == "role_names");
  CHECK(v[Role::kUpperChest] == "upperChest");
}

TEST_CASE("author overrides replace detected roles and are checked", "[retarget][roles]") {
  RigDesc d = *builtin_rig_desc("r15");
  d.roles = {{"chest", "LowerTorso"}, {"hips", "HumanoidRootPart"}};
  auto bad_rig = build_rig(d);
  REQUIRE(bad_rig.ok());
  auto bad = rig_roles(bad_rig.value());  // HumanoidRootPart is no joint's child
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message().find("HumanoidRootPart") != std::string::npos);

  d.roles = {{"leftUpperArm", "LeftLowerArm"}};
  auto rig = build_rig(d);
  REQUIRE(rig.ok());
  auto r = rig_roles(rig.value());
  REQUIRE(r.ok());
  CHECK(r.value()[Role::kLeftUpperArm] == "LeftLowerArm");

  d.roles = {{"tail", "Head"}};
  auto unknown = rig_roles(build_rig(d).value());
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.message().find("tail") != std::string::npos);

  const SourceSkeleton s = test::tpose_source();
  auto sr = source_roles(s, {{"left_upper_arm", "LArm"}, {"hips", "Hips"}});
  REQUIRE(sr.ok());
  CHECK(sr.value()[Role::kLeftUpperArm] == "LArm");
  CHECK_FALSE(source_roles(s, {{"hips", "Pelvis"}}).ok());
}

TEST_CASE("R15 drives R6 through roles; the plan lists both sides' leftovers", "[retarget][roles]") {
  const Rig r15 = builtin("r15");
  const Rig r6 = builtin("r6");
  const SourceSkeleton source = source_skeleton_from_rig(r15);
  auto sr = source_roles(source);
  auto tr = rig_roles(r6);
  REQUIRE(sr.ok());
  REQUIRE(tr.ok());
  const RetargetPlan plan = plan_retarget(source, sr.value(), r6, tr.value());
  CHECK(plan.mapped.size() == 6);  // hips, head, two arms, two legs
  CHECK(plan.unmapped_target.empty());
  CHECK(plan.unmapped_source.size() == 9);  // UpperTorso, lower arms, hands, lower legs, feet
  auto profile = build_auto_profile(source, r6);
  REQUIRE(profile.ok());
  // Both face -Z with +Y up: identity facing.
  CHECK(test::angle_between(profile.value().facing, glm::quat(1, 0, 0, 0)) < 1e-6f);
  CHECK(build_retarget_binding(source, r6, profile.value()).ok());
}

TEST_CASE("auto facing turns a +Z-facing source and a Z-up source into the rig's frame", "[retarget][roles]") {
  const Rig rig = builtin("r15");
  auto tr = rig_roles(rig);
  REQUIRE(tr.ok());
  SourceSkeleton s = test::tpose_source();
  std::map<std::string, std::string> o = {{"hips", "Hips"},          {"head", "Head"},       {"left_upper_leg", "LUpLeg"},
                                          {"right_upper_leg", "RUpLeg"}, {"chest", "Chest"}};
  auto sr = source_roles(s, o);
  REQUIRE(sr.ok());
  auto f = auto_facing(s, sr.value(), rig, tr.value());
  REQUIRE(f.ok());
  // Hand-derived: +Z facing, left +X, up +Y  ->  -Z facing, left -X, up +Y.
  CHECK(glm::length(f.value() * glm::vec3(0, 0, 1) - glm::vec3(0, 0, -1)) < 1e-5f);
  CHECK(glm::length(f.value() * glm::vec3(1, 0, 0) - glm::vec3(-1, 0, 0)) < 1e-5f);
  CHECK(glm::length(f.value() * glm::vec3(0, 1, 0) - glm::vec3(0, 1, 0)) < 1e-5f);

  // The same skeleton lying in a Z-up world (rotated +90 deg about X: +Y -> +Z, +Z -> -Y).
  const glm::quat zup = glm::angleAxis(1.5707963f, glm::vec3(1, 0, 0));
  s.rest_local[0].rotation = zup;
  s.rest_local[0].position = zup * s.rest_local[0].position;
  auto g = auto_facing(s, sr.value(), rig, tr.value());
  REQUIRE(g.ok());
  CHECK(glm::length(g.value() * glm::vec3(0, 0, 1) - glm::vec3(0, 1, 0)) < 1e-5f);   // source up -> +Y
  CHECK(glm::length(g.value() * glm::vec3(0, -1, 0) - glm::vec3(0, 0, -1)) < 1e-5f); // source forward -> -Z
}

TEST_CASE("auto scale measures R6's single leg part from the hip pivot to its bottom (rule RT6)", "[retarget][roles]") {
  // Hand-derived from the R6 data: Left Hip C0 is (-1, -1, 0) on the Torso at y = 3, so the hip
  // pivot is at y = 2; the 1x2x1 "Left Leg" hangs from it with its bottom at y = 0: 2.0 studs.
  // A rig used as a source skeleton has joints but no part boxes, so its leg is hip to ankle
  // pivot: 0.4208 + 0.4011 + 0.3790 + 0.5472 = 1.7481 studs (PROVENANCE table).
  const Rig r15 = builtin("r15");
  const Rig r6 = builtin("r6");
  const SourceSkeleton source = source_skeleton_from_rig(r15);
  AutoProfileOptions opt;
  opt.auto_scale = true;
  auto profile = build_auto_profile(source, r6, opt);
  REQUIRE(profile.ok());
  CHECK(profile.value().target_leg.size() == 1);
  CHECK(profile.value().source_leg.size() == 3);
  auto b = build_retarget_binding(source, r6, profile.value());
  REQUIRE(b.ok());
  CHECK(b.value().target_leg_length == Approx(2.0f).margin(1e-4));
  CHECK(b.value().source_leg_length == Approx(1.7481f).margin(1e-3));
  CHECK(b.value().scale == Approx(2.0f / 1.7481f).margin(1e-3));
}
