// Humanoid roles from the skeleton's structure (rule RT11): hand-written role tables of the CMU
// and CesiumMan skeletons, chirality, and a CMU clip with meaningless joint names retargeted by
// structure against the named run.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/formats/bvh.hpp"
#include "asterune/formats/gltf.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "retarget_support.hpp"

using namespace asterune;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string bvh_path(const char* file) { return std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file; }

// Every ROOT/JOINT name replaced by j00, j01, ... in file order.
std::string rename_joints(const std::string& text) {
  static const std::regex joint_line(R"(((?:ROOT|JOINT)[ \t]+)(\S+))");
  std::string out;
  int k = 0;
  auto begin = std::sregex_iterator(text.begin(), text.end(), joint_line);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out += text.substr(last, static_cast<size_t>(it->position()) - last);
    char name[16];
    std::snprintf(name, sizeof name, "j%02d", k++);
    out += (*it)[1].str() + name;
    last = static_cast<size_t>(it->position() + it->length());
  }
  return out + text.substr(last);
}

using Table = std::vector<std::pair<Role, const char*>>;

// Hand-written from the BVH hierarchies (tests/data/bvh/PROVENANCE.md), independent of the code.
const Table kCmu4904 = {
    {Role::kHips, "Hips"},           {Role::kSpine, "Spine"},         {Role::kChest, "Spine1"},
    {Role::kNeck, "Neck1"},          {Role::kHead, "Head"},           {Role::kLeftShoulder, "LeftShoulder"},
    {Role::kLeftUpperArm, "LeftArm"}, {Role::kLeftLowerArm, "LeftForeArm"}, {Role::kLeftHand, "LeftHand"},
    {Role::kRightShoulder, "RightShoulder"}, {Role::kRightUpperArm, "RightArm"},
    {Role::kRightLowerArm, "RightForeArm"}, {Role::kRightHand, "RightHand"},
    {Role::kLeftUpperLeg, "LeftUpLeg"}, {Role::kLeftLowerLeg, "LeftLeg"}, {Role::kLeftFoot, "LeftFoot"},
    {Role::kLeftToes, "LeftToeBase"}, {Role::kRightUpperLeg, "RightUpLeg"}, {Role::kRightLowerLeg, "RightLeg"},
    {Role::kRightFoot, "RightFoot"}, {Role::kRightToes, "RightToeBase"}};
const Table kCmu13101 = {
    {Role::kHips, "Hips"},          {Role::kSpine, "Chest"},         {Role::kChest, "Chest2"},
    {Role::kNeck, "Neck"},          {Role::kHead, "Head"},           {Role::kLeftShoulder, "LeftCollar"},
    {Role::kLeftUpperArm, "LeftShoulder"}, {Role::kLeftLowerArm, "LeftElbow"}, {Role::kLeftHand, "LeftWrist"},
    {Role::kRightUpperArm, "RightShoulder"}, {Role::kRightLowerArm, "RightElbow"}, {Role::kRightHand, "RightWrist"},
    {Role::kLeftUpperLeg, "LeftHip"}, {Role::kLeftLowerLeg, "LeftKnee"}, {Role::kLeftFoot, "LeftAnkle"},
    {Role::kLeftToes, "LeftToe"},    {Role::kRightUpperLeg, "RightHip"}, {Role::kRightLowerLeg, "RightKnee"},
    {Role::kRightFoot, "RightAnkle"}, {Role::kRightToes, "RightToe"}};

void check_table(const RoleMap& roles, const Table& table) {
  for (const auto& [role, joint] : table) {
    INFO(role_name(role));
    CHECK(roles[role] == joint);
    CHECK(roles.origin[static_cast<size_t>(role)] == RoleOrigin::kStructure);
  }
}

Rig r15() { return std::move(build_rig(*builtin_rig_desc("r15")).value()); }

}  // namespace

TEST_CASE("structure finds the CMU roles without reading a name (rule RT11)", "[retarget][roles][structure]") {
  auto a = io::load_bvh(bvh_path("cmu_49_04_run_leap.bvh"));
  auto b = io::load_bvh(bvh_path("cmu_131_01_start_walk_stop.bvh"));
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  check_table(structure_roles(a.value().skeleton), kCmu4904);
  check_table(structure_roles(b.value().skeleton), kCmu13101);
}

TEST_CASE("structure roles of CesiumMan agree with its naming scheme (rule RT11)", "[retarget][roles][structure]") {
  // The cesium_man scheme (humanoid.cpp) was written by hand from the joint names.
  auto g = io::load_gltf_source(std::string(ASTERUNE_TEST_DATA_DIR) + "/gltf/CesiumMan.glb");
  REQUIRE(g.ok());
  const RoleMap by_name = detect_roles(g.value().skeleton.joint_names);
  REQUIRE(by_name.scheme == "cesium_man");
  const RoleMap by_structure = structure_roles(g.value().skeleton);
  for (Role r : {Role::kHips, Role::kHead, Role::kLeftUpperArm, Role::kLeftLowerArm, Role::kLeftHand,
                 Role::kRightUpperArm, Role::kRightLowerArm, Role::kRightHand, Role::kLeftUpperLeg, Role::kLeftLowerLeg,
                 Role::kLeftFoot, Role::kRightUpperLeg, Role::kRightLowerLeg, Role::kRightFoot}) {
    INFO(role_name(r));
    CHECK(by_structure[r] == by_name[r]);
  }
}

TEST_CASE("left and right come from chirality, not from an axis (rule RT11)", "[retarget][roles][structure]") {
  // The T-pose source faces +Z with LArm at +X. Turned 180 degrees about +Y it faces -Z with
  // LArm at -X: still the left arm (up x forward = +Y x -Z = -X).
  SourceSkeleton s = test::tpose_source();
  for (float turn : {0.0f, 3.14159265f, 1.5707963f}) {
    s.rest_local[0].rotation = glm::angleAxis(turn, glm::vec3(0, 1, 0));
    const RoleMap m = structure_roles(s);
    INFO("turn " << turn);
    CHECK(m[Role::kLeftUpperArm] == "LArm");
    CHECK(m[Role::kRightHand] == "RHand");
    CHECK(m[Role::kLeftUpperLeg] == "LUpLeg");
    CHECK(m[Role::kRightFoot] == "RFoot");
    CHECK(m[Role::kChest] == "Chest");
    CHECK(m[Role::kHead] == "Head");
  }
  // Mirrored (x -> -x, a left-handed copy): the sides swap.
  for (auto& t : s.rest_local) t.position.x = -t.position.x;
  for (auto& e : s.end_sites) e.x = -e.x;
  s.rest_local[0].rotation = glm::quat(1, 0, 0, 0);
  const RoleMap mirrored = structure_roles(s);
  CHECK(mirrored[Role::kLeftUpperArm] == "RArm");
  CHECK(mirrored[Role::kLeftUpperLeg] == "RUpLeg");
}

TEST_CASE("a CMU clip with meaningless joint names retargets by structure like the named run (rule RT11)",
          "[retarget][roles][structure]") {
  const Rig rig = r15();
  const std::string text = read_text(bvh_path("cmu_49_04_run_leap.bvh"));
  const std::string renamed_text = rename_joints(text);
  REQUIRE(renamed_text.find("LeftUpLeg") == std::string::npos);
  auto named = io::parse_bvh(text, "named");
  auto renamed = io::parse_bvh(renamed_text, "renamed");
  REQUIRE(named.ok());
  REQUIRE(renamed.ok());
  REQUIRE(renamed.value().skeleton.joint_names[0] == "j00");
  auto roles = source_roles(renamed.value().skeleton);
  REQUIRE(roles.ok());
  CHECK(roles.value().scheme.empty());
  CHECK(roles.value().origin[static_cast<size_t>(Role::kLeftUpperArm)] == RoleOrigin::kStructure);
  CHECK(describe_roles(roles.value()).find("(structure)") != std::string::npos);
  const RetargetPlan plan = plan_retarget(renamed.value().skeleton, roles.value(), rig, rig_roles(rig).value());
  CHECK(plan.mapped.size() == 15);
  for (const RolePair& p : plan.mapped) CHECK(p.source_origin == RoleOrigin::kStructure);

  AutoProfileOptions opt;
  opt.auto_scale = true;
  opt.rest_on_ground = true;
  struct Run {
    io::BvhFile* f;
    RetargetBinding b;
    ClipBinding c;
  };
  std::vector<Run> runs;
  for (io::BvhFile* f : {&named.value(), &renamed.value()}) {
    f->skeleton.units_to_studs = io::kCmuUnitsToStuds;
    auto p = build_auto_profile(f->skeleton, rig, opt);
    REQUIRE(p.ok());
    auto b = build_retarget_binding(f->skeleton, rig, p.value());
    REQUIRE(b.ok());
    auto c = build_clip_binding(f->clip, f->skeleton);
    REQUIRE(c.ok());
    runs.push_back({f, std::move(b).value(), std::move(c).value()});
  }
  CHECK(runs[1].b.mapped_count() == rig.joint_count());
  const size_t nt = static_cast<size_t>(rig.joint_count());
  float worst = 0.0f, worst_pos = 0.0f;
  for (float t : named.value().clip.tracks[0].rotation_times) {
    std::vector<Transform> world[2];
    for (int k = 0; k < 2; ++k) {
      const size_t ns = static_cast<size_t>(runs[k].f->skeleton.joint_count());
      std::vector<Transform> sl(ns), local(nt);
      std::vector<float> sc(ns), cov(nt);
      RetargetContext ctx = make_retarget_context(runs[k].b);
      sample_clip(runs[k].f->clip, runs[k].c, t, WrapMode::kClamp, sl, sc);
      REQUIRE(sample_retarget(runs[k].b, rig, sl, sc, ctx, local, cov).ok);
      world[k].resize(nt);
      evaluate_world(rig, Transform::identity(), local, world[k]);
    }
    for (size_t j = 0; j < nt; ++j) {
      worst = std::max(worst, test::angle_between(world[0][j].rotation, world[1][j].rotation));
      worst_pos = std::max(worst_pos, glm::length(world[0][j].position - world[1][j].position));
    }
  }
  INFO("worst part rotation difference " << worst * 57.29578f << " deg, position " << worst_pos << " studs");
  CHECK(worst * 57.29578f < 1.0f);
  CHECK(worst_pos < 1e-3f);
}
