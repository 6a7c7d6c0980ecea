// Any humanoid as a retarget source, through the scene's loading path (rules RT11-RT15): the
// retarget "rest" and "origin" keys, an explicit map in another naming giving facing and scale
// "auto", glTF joints without names, Roblox KeyframeSequences made on another rig.
#include <catch2/catch.hpp>

#include <fstream>
#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/formats/bvh.hpp"
#include "asterune/documents/frames_file.hpp"
#include "asterune/formats/keyframe_sequence.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/documents/scene_file.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {

Rig builtin(const char* name) { return std::move(build_rig(*builtin_rig_desc(name)).value()); }

std::string data(const std::string& rel) { return std::string(ASTERUNE_TEST_DATA_DIR) + "/" + rel; }

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

float angle_deg(const glm::vec3& a, const glm::vec3& b) {
  const float c = glm::dot(glm::normalize(a), glm::normalize(b));
  return std::acos(std::clamp(c, -1.0f, 1.0f)) * 57.29578f;
}

struct Played {
  std::vector<float> times;
  std::vector<std::vector<Transform>> local, world;
  std::string roles;
  int mapped = 0;
};

// The CLI's path: prepare_scene_source, then native binding or build_scene_profile + retarget.
Played play(io::SourceClip clip, const io::SceneRetarget& rt, const Rig& rig, std::vector<std::string>* notes = nullptr) {
  auto n = io::prepare_scene_source(clip, rt, rig, "clip");
  REQUIRE(n.ok());
  if (notes) *notes = n.value();
  Played out;
  const size_t nt = static_cast<size_t>(rig.joint_count());
  std::set<float> keys;
  for (const ClipTrack& t : clip.clip.tracks) keys.insert(t.rotation_times.begin(), t.rotation_times.end());
  out.times.assign(keys.begin(), keys.end());
  std::vector<Transform> local(nt);
  std::vector<float> cov(nt);
  if (clip_binds_natively(clip.clip, rig)) {
    auto b = build_clip_binding(clip.clip, rig);
    REQUIRE(b.ok());
    for (float t : out.times) {
      sample_clip(clip.clip, b.value(), t, WrapMode::kClamp, local, cov);
      out.local.push_back(local);
    }
  } else {
    auto p = io::build_scene_profile(rt, clip.skeleton, rig, clip.rest_on_ground, &out.roles);
    REQUIRE(p.ok());
    auto b = build_retarget_binding(clip.skeleton, rig, p.value());
    REQUIRE(b.ok());
    out.mapped = b.value().mapped_count();
    auto cb = build_clip_binding(clip.clip, clip.skeleton);
    REQUIRE(cb.ok());
    const size_t ns = static_cast<size_t>(clip.skeleton.joint_count());
    std::vector<Transform> sl(ns);
    std::vector<float> sc(ns);
    RetargetContext ctx = make_retarget_context(b.value());
    for (float t : out.times) {
      sample_clip(clip.clip, cb.value(), t, WrapMode::kClamp, sl, sc);
      REQUIRE(sample_retarget(b.value(), rig, sl, sc, ctx, local, cov).ok);
      out.local.push_back(local);
    }
  }
  for (const auto& l : out.local) {
    std::vector<Transform> w(nt);
    evaluate_world(rig, Transform::identity(), l, w);
    out.world.push_back(w);
  }
  return out;
}

io::SourceClip bvh_text(const std::string& text) {
  auto b = io::parse_bvh(text, "renamed");
  REQUIRE(b.ok());
  io::SourceClip c;
  c.skeleton = std::move(b.value().skeleton);
  c.clip = std::move(b.value().clip);
  c.skeleton.units_to_studs = io::kCmuUnitsToStuds;
  c.rest_on_ground = true;
  return c;
}

}  // namespace

TEST_CASE("retarget rest and origin keys (rules RT13, RT14)", "[io][scene][animation]") {
  const std::string head = R"({"format": "asterune.scene/1", "rig": "builtin:r15", "animation": {"clip": "w.bvh", )";
  auto s = io::parse_scene_json(head + R"("retarget": {"rest": {"frame": 3}, "origin": "first_frame"}}})", "x.scene.json");
  REQUIRE(s.ok());
  CHECK(s.value().animation->retarget.rest == SourceRestMode::kFrame);
  CHECK(s.value().animation->retarget.rest_frame == 3);
  CHECK(s.value().animation->retarget.origin == SourceOrigin::kFirstFrame);
  auto d = io::parse_scene_json(head + R"("retarget": {"rest": "rest", "origin": "clip"}}})", "x.scene.json");
  REQUIRE(d.ok());
  CHECK(d.value().animation->retarget.rest == SourceRestMode::kRest);
  CHECK(d.value().animation->retarget.origin == SourceOrigin::kClip);
  CHECK(io::SceneRetarget{}.rest == SourceRestMode::kAuto);
  for (const char* bad : {R"("rest": "t-pose")", R"("rest": {"frame": -1})", R"("rest": {"frame": 1.5})",
                          R"("rest": {"frames": 1})", R"("origin": "root")", R"("origin": 0)"}) {
    auto e = io::parse_scene_json(head + R"("retarget": {)" + bad + "}}}", "x.scene.json");
    INFO(bad);
    REQUIRE_FALSE(e.ok());
    CHECK_THAT(e.message(), Contains("/animation/retarget/"));
  }
}

TEST_CASE("an explicit map in another naming is enough for facing and scale auto (rule RT12)", "[io][animation]") {
  // CMU 49_04 renamed in the UpperLeg_L style (Bandai Namco's naming), with the map a user
  // would write for it; facing and scale stay "auto".
  const std::vector<std::pair<const char*, const char*>> names = {
      {"LeftUpLeg", "UpperLeg_L"}, {"LeftLeg", "LowerLeg_L"}, {"LeftFoot", "Foot_L"}, {"RightUpLeg", "UpperLeg_R"},
      {"RightLeg", "LowerLeg_R"}, {"RightFoot", "Foot_R"}, {"LeftArm", "UpperArm_L"}, {"LeftForeArm", "LowerArm_L"},
      {"LeftHand", "Hand_L"}, {"RightArm", "UpperArm_R"}, {"RightForeArm", "LowerArm_R"}, {"RightHand", "Hand_R"},
      {"Spine1", "Chest"}, {"Hips", "Pelvis"}, {"Head", "Head_1"}};
  std::string text = read_text(data("bvh/cmu_49_04_run_leap.bvh"));
  for (const auto& [from, to] : names)
    text = std::regex_replace(text, std::regex(std::string("(ROOT|JOINT) ") + from + "(\\s)"), std::string("$1 ") + to + "$2");
  REQUIRE(text.find("UpperLeg_L") != std::string::npos);
  io::SceneRetarget rt;
  rt.auto_map = false;
  const std::vector<std::pair<const char*, const char*>> r15 = {
      {"LowerTorso", "Pelvis"}, {"UpperTorso", "Chest"}, {"Head", "Head_1"}, {"LeftUpperLeg", "UpperLeg_L"},
      {"LeftLowerLeg", "LowerLeg_L"}, {"LeftFoot", "Foot_L"}, {"RightUpperLeg", "UpperLeg_R"},
      {"RightLowerLeg", "LowerLeg_R"}, {"RightFoot", "Foot_R"}, {"LeftUpperArm", "UpperArm_L"},
      {"LeftLowerArm", "LowerArm_L"}, {"LeftHand", "Hand_L"}, {"RightUpperArm", "UpperArm_R"},
      {"RightLowerArm", "LowerArm_R"}, {"RightHand", "Hand_R"}};
  for (const auto& [t, s] : r15) rt.map.emplace_back(t, s);
  REQUIRE(rt.auto_scale);
  REQUIRE_FALSE(rt.facing);
  const Rig rig = builtin("r15");
  const Played mapped = play(bvh_text(text), rt, rig);
  CHECK(mapped.mapped == 15);
  CHECK_THAT(mapped.roles, Contains("left_upper_leg=UpperLeg_L (author)"));
  // The same as the named clip with everything automatic.
  const Played named = play(bvh_text(read_text(data("bvh/cmu_49_04_run_leap.bvh"))), io::SceneRetarget{}, rig);
  REQUIRE(named.world.size() == mapped.world.size());
  float worst = 0.0f, worst_pos = 0.0f;
  for (size_t f = 0; f < named.world.size(); ++f)
    for (size_t j = 0; j < named.world[f].size(); ++j) {
      // Angle of a^-1 b from its vector part (acos near 1 loses precision in float).
      const glm::quat d = glm::conjugate(named.world[f][j].rotation) * mapped.world[f][j].rotation;
      worst = std::max(worst, 2.0f * std::atan2(glm::length(glm::vec3(d.x, d.y, d.z)), std::fabs(d.w)) * 57.29578f);
      worst_pos = std::max(worst_pos, glm::length(named.world[f][j].position - mapped.world[f][j].position));
    }
  INFO("map vs auto: " << worst << " deg, " << worst_pos << " studs");
  CHECK(worst < 0.05f);
  CHECK(worst_pos < 1e-3f);
}

TEST_CASE("CesiumMan with unnamed joints retargets by structure, upright (rule RT11)", "[io][animation]") {
  auto clip = io::load_source_clip(data("gltf/CesiumMan_unnamed_joints.gltf"));
  REQUIRE(clip.ok());
  const Rig rig = builtin("r15");
  const Played p = play(clip.value(), io::SceneRetarget{}, rig);
  CHECK(p.mapped == 15);
  CHECK_THAT(p.roles, Contains("(structure)"));
  CHECK(p.roles.find("()") == std::string::npos);
  const int hips = rig.find_joint("LowerTorso").index, head = rig.find_joint("Head").index;
  const int lf = rig.find_joint("LeftFoot").index, rf = rig.find_joint("RightFoot").index;
  float left_ahead = -1e9f, right_ahead = -1e9f;
  for (const auto& w : p.world) {
    const glm::vec3 h = joint_pivot(rig, w, hips);
    CHECK(joint_pivot(rig, w, head).y > h.y + 1.0f);  // upright
    CHECK(joint_pivot(rig, w, lf).y < h.y - 0.5f);  // the ankle below the pelvis pivot
    // Walking toward -Z: each foot is ahead (more negative z than the other) some of the time.
    const float dz = joint_pivot(rig, w, lf).z - joint_pivot(rig, w, rf).z;
    left_ahead = std::max(left_ahead, -dz);
    right_ahead = std::max(right_ahead, dz);
  }
  CHECK(left_ahead > 0.3f);  // the legs alternate
  CHECK(right_ahead > 0.3f);
}

TEST_CASE("an R6 KeyframeSequence plays on R15 through the roles (rule RT15)", "[io][animation][keyframe_sequence]") {
  const Rig r6 = builtin("r6");
  const Rig r15 = builtin("r15");
  auto cmu = io::load_source_clip(data("bvh/cmu_49_04_run_leap.bvh"));
  REQUIRE(cmu.ok());
  const Played on_r6 = play(cmu.value(), io::SceneRetarget{}, r6);
  std::vector<io::FrameRecord> frames;
  for (size_t f = 0; f < on_r6.times.size(); f += 4) {
    io::FrameRecord rec;
    rec.frame = static_cast<int>(frames.size());
    rec.time = on_r6.times[f];
    rec.local = on_r6.local[f];
    frames.push_back(rec);
  }
  test::TempDir dir("kfs_r6");
  REQUIRE(io::write_keyframe_sequence_file(dir / "run.rbxmx", r6, frames).ok());
  auto kfs = io::load_source_clip(dir / "run.rbxmx");
  REQUIRE(kfs.ok());
  std::vector<std::string> notes;
  const Played on_r15 = play(kfs.value(), io::SceneRetarget{}, r15, &notes);
  REQUIRE(notes.size() >= 1);
  CHECK_THAT(notes[0], Contains("builtin:r6"));
  CHECK(on_r15.mapped == 6);
  // R6 limb parts hang along their -Y; R15's upper limb parts too (the lower parts follow them).
  const std::pair<const char*, const char*> limbs[] = {
      {"Left Arm", "LeftUpperArm"}, {"Right Arm", "RightUpperArm"}, {"Left Leg", "LeftUpperLeg"}, {"Right Leg", "RightUpperLeg"}};
  REQUIRE(on_r15.times.size() == frames.size());
  float worst = 0.0f;
  for (size_t k = 0; k < frames.size(); ++k) {
    std::vector<Transform> w6(static_cast<size_t>(r6.joint_count()));
    evaluate_world(r6, Transform::identity(), frames[k].local, w6);
    for (const auto& [a, b] : limbs) {
      const glm::vec3 d6 = w6[static_cast<size_t>(r6.find_joint(a).index)].rotation * glm::vec3(0, -1, 0);
      const glm::vec3 d15 = on_r15.world[k][static_cast<size_t>(r15.find_joint(b).index)].rotation * glm::vec3(0, -1, 0);
      worst = std::max(worst, angle_deg(d6, d15));
    }
  }
  INFO("worst R6 vs R15 limb direction: " << worst << " deg");
  CHECK(worst < 10.0f);

  // A partly matching KeyframeSequence on R6 plays what matches and says what it ignored.
  std::string text = read_text((dir / "run.rbxmx").string());
  text = std::regex_replace(text, std::regex("<string name=\"Name\">Left Arm</string>"), "<string name=\"Name\">Tail</string>");
  {
    std::ofstream f(dir / "partial.rbxmx", std::ios::binary);
    f << text;
  }
  auto partial = io::load_source_clip(dir / "partial.rbxmx");
  REQUIRE(partial.ok());
  std::vector<std::string> partial_notes;
  const Played p = play(partial.value(), io::SceneRetarget{}, r6, &partial_notes);
  REQUIRE(partial_notes.size() == 1);
  CHECK_THAT(partial_notes[0], Contains("1 of 6 tracks") && Contains("ignored: Tail"));
  CHECK_FALSE(p.local.empty());
}
