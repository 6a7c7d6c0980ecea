// Roblox KeyframeSequence out and in: the written document is checked with pugixml against
// hand-derived CFrames and the part hierarchy of builtin:r15; reading it back as a clip and
// sampling it at the frame times reproduces every T within 1e-5; Weight 0 poses do not animate
// their joint; malformed files fail with one line naming the item.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/formats/keyframe_sequence.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/rig/pose.hpp"
#include "support/reference_data.hpp"

namespace {

using namespace asterune;

Rig r15() {
  auto rig = io::load_rig("builtin:r15");
  REQUIRE(rig);
  return std::move(rig.value());
}

/// Deterministic, varied motor transforms: every joint turns about its own axis and slides a little.
std::vector<io::FrameRecord> test_frames(const Rig& rig, int count, float dt) {
  std::vector<io::FrameRecord> frames;
  const auto n = static_cast<size_t>(rig.joint_count());
  for (int f = 0; f < count; ++f) {
    io::FrameRecord rec;
    rec.frame = f;
    rec.time = static_cast<float>(f) * dt;
    rec.local.resize(n);
    rec.coverage.assign(n, 1.0f);
    rec.world.resize(n);
    for (size_t j = 0; j < n; ++j) {
      const float a = 0.1f + 0.37f * static_cast<float>(j) + 0.9f * static_cast<float>(f);
      const glm::vec3 axis = glm::normalize(glm::vec3(std::sin(a), std::cos(1.3f * a), 0.5f + std::sin(0.7f * a)));
      rec.local[j].rotation = glm::angleAxis(std::fmod(a, 3.0f) - 1.5f, axis);
      rec.local[j].position = 0.05f * glm::vec3(std::cos(a), std::sin(2.0f * a), 0.3f * static_cast<float>(f));
    }
    frames.push_back(std::move(rec));
  }
  return frames;
}

pugi::xml_node child_pose(const pugi::xml_node& pose, const char* name) {
  for (pugi::xml_node item : pose.children("Item"))
    if (std::string(item.select_node("Properties/string[@name='Name']").node().child_value()) == name) return item;
  return {};
}

float prop_float(const pugi::xml_node& item, const char* type, const char* name) {
  const std::string q = std::string("Properties/") + type + "[@name='" + name + "']";
  return item.select_node(q.c_str()).node().text().as_float();
}

std::string sequence(const std::string& keyframes, const std::string& props = "") {
  return "<roblox version=\"4\"><Item class=\"KeyframeSequence\" referent=\"RBX0\"><Properties>"
         "<string name=\"Name\">Test</string>" + props + "</Properties>" + keyframes + "</Item></roblox>";
}

std::string pose(const std::string& ref, const std::string& name, const std::string& cframe, float weight,
                 const std::string& children = "", int easing = 0) {
  return "<Item class=\"Pose\" referent=\"" + ref + "\"><Properties><string name=\"Name\">" + name +
         "</string>" + cframe + "<float name=\"Weight\">" + std::to_string(weight) +
         "</float><token name=\"EasingStyle\">" + std::to_string(easing) + "</token></Properties>" + children + "</Item>";
}

std::string keyframe(const std::string& ref, const std::string& time, const std::string& poses) {
  return "<Item class=\"Keyframe\" referent=\"" + ref + "\"><Properties><float name=\"Time\">" + time +
         "</float></Properties>" + poses + "</Item>";
}

}  // namespace

TEST_CASE("KeyframeSequence out: keyframes, pose tree from the root part, CFrame = T", "[io][rbxmx]") {
  const Rig rig = r15();
  std::vector<io::FrameRecord> frames = test_frames(rig, 3, 0.5f);
  // A hand-checkable T on the neck (child part Head): 90 degrees about +Z, then (1, 2, 3).
  // Rz(90) as a row-major matrix: [0 -1 0; 1 0 0; 0 0 1].
  const int head = rig.find_joint("Head").index;
  frames[1].local[static_cast<size_t>(head)] =
      Transform{glm::angleAxis(0.5f * 3.14159265358979f, glm::vec3(0, 0, 1)), {1, 2, 3}};
  io::KeyframeSequenceOptions opt;
  opt.name = "Wave";
  opt.loop = true;
  opt.priority = io::AnimationPriority::kMovement;
  auto written = io::write_keyframe_sequence(rig, frames, opt);
  REQUIRE(written);
  const std::string text = written.value();

  pugi::xml_document doc;
  REQUIRE(doc.load_string(text.c_str()));
  const pugi::xml_node seq = doc.select_node("/roblox/Item[@class='KeyframeSequence']").node();
  REQUIRE(seq);
  CHECK(std::string(seq.select_node("Properties/bool[@name='Loop']").node().child_value()) == "true");
  CHECK(std::string(seq.select_node("Properties/token[@name='Priority']").node().child_value()) == "1");
  CHECK(std::string(seq.select_node("Properties/string[@name='Name']").node().child_value()) == "Wave");
  const auto keyframes = seq.select_nodes("Item[@class='Keyframe']");
  REQUIRE(keyframes.size() == 3);
  int k = 0;
  for (const pugi::xpath_node& kf : keyframes) {
    CHECK(prop_float(kf.node(), "float", "Time") == Approx(0.5f * static_cast<float>(k)));
    // Exactly one top-level Pose: the root part, identity.
    const auto top = kf.node().select_nodes("Item[@class='Pose']");
    REQUIRE(top.size() == 1);
    const pugi::xml_node root = top.first().node();
    CHECK(std::string(root.select_node("Properties/string[@name='Name']").node().child_value()) == "HumanoidRootPart");
    // R15: HumanoidRootPart > LowerTorso > UpperTorso > Head, > LeftUpperLeg > LeftLowerLeg > LeftFoot.
    const pugi::xml_node upper = child_pose(child_pose(root, "LowerTorso"), "UpperTorso");
    REQUIRE(upper);
    REQUIRE(child_pose(upper, "Head"));
    REQUIRE(child_pose(child_pose(upper, "LeftUpperArm"), "LeftLowerArm"));
    REQUIRE(child_pose(child_pose(child_pose(root, "LowerTorso"), "LeftUpperLeg"), "LeftLowerLeg"));
    // Every pose: Weight 1, linear easing; 1 root + 15 joints.
    const auto poses = kf.node().select_nodes(".//Item[@class='Pose']");
    CHECK(poses.size() == 16);
    for (const pugi::xpath_node& p : poses) {
      CHECK(prop_float(p.node(), "float", "Weight") == 1.0f);
      CHECK(std::string(p.node().select_node("Properties/token[@name='EasingStyle']").node().child_value()) == "0");
    }
    if (k == 1) {
      const pugi::xml_node cf = child_pose(upper, "Head").select_node("Properties/CoordinateFrame").node();
      const char* names[12] = {"X", "Y", "Z", "R00", "R01", "R02", "R10", "R11", "R12", "R20", "R21", "R22"};
      const float expected[12] = {1, 2, 3, 0, -1, 0, 1, 0, 0, 0, 0, 1};
      for (int i = 0; i < 12; ++i) CHECK(cf.child(names[i]).text().as_float() == Approx(expected[i]).margin(1e-6));
    }
    ++k;
  }
}

TEST_CASE("KeyframeSequence round trip: export, import as a clip, every T within 1e-5", "[io][rbxmx]") {
  const Rig rig = r15();
  const std::vector<io::FrameRecord> frames = test_frames(rig, 12, 1.0f / 30.0f);
  auto written = io::write_keyframe_sequence(rig, frames, {});
  REQUIRE(written);
  const std::string text = written.value();
  auto read = io::parse_keyframe_sequence(text, "roundtrip.rbxmx");
  REQUIRE(read);
  const Clip& clip = read.value().clip;
  CHECK(read.value().root_part == "HumanoidRootPart");
  CHECK(read.value().priority == io::AnimationPriority::kAction);
  CHECK_FALSE(read.value().loop);
  CHECK(clip.duration == Approx(11.0f / 30.0f));
  REQUIRE(clip_binds_natively(clip, rig));
  auto binding = build_clip_binding(clip, rig);
  REQUIRE(binding);
  Pose pose = make_pose(rig);
  for (const io::FrameRecord& rec : frames) {
    sample_clip(clip, binding.value(), rec.time, WrapMode::kClamp, pose);
    for (int j = 0; j < rig.joint_count(); ++j) {
      const auto i = static_cast<size_t>(j);
      INFO("frame " << rec.frame << " joint " << rig.joint_name(j));
      CHECK(pose.coverage[i] == 1.0f);
      const glm::quat a = rec.local[i].rotation, b = pose.local[i].rotation;
      const float sign = glm::dot(a, b) < 0.0f ? -1.0f : 1.0f;
      for (int c = 0; c < 4; ++c) CHECK(std::fabs(a[c] - sign * b[c]) <= 1e-5f);
      for (int c = 0; c < 3; ++c) CHECK(std::fabs(rec.local[i].position[c] - pose.local[i].position[c]) <= 1e-5f);
    }
  }
}

TEST_CASE("KeyframeSequence in: Weight 0 poses leave their joint alone, Constant easing steps", "[io][rbxmx]") {
  const std::string id = test::cframe_xml(0, 0, 0);
  const std::string text = sequence(
      keyframe("K1", "0",
               pose("P1", "HumanoidRootPart", id, 1,
                    pose("P2", "LowerTorso", test::cframe_xml(0, 1, 0), 1,
                         pose("P3", "UpperTorso", id, 0) + pose("P4", "Head", test::cframe_xml(0, 0, 1), 1, "", 1)))) +
          keyframe("K2", "0.5",
                   pose("P5", "HumanoidRootPart", id, 1,
                        pose("P6", "LowerTorso", test::cframe_xml(0, 3, 0), 0,
                             pose("P7", "UpperTorso", id, 0) + pose("P8", "Head", test::cframe_xml(0, 0, 2), 1, "", 1)))),
      "<bool name=\"Loop\">true</bool><token name=\"Priority\">1000</token>");
  auto read = io::parse_keyframe_sequence(text, "w.rbxmx");
  REQUIRE(read);
  const Clip& clip = read.value().clip;
  CHECK(read.value().loop);
  CHECK(read.value().priority == io::AnimationPriority::kCore);
  CHECK(clip.duration == Approx(0.5f));
  REQUIRE(clip.tracks.size() == 2);  // UpperTorso has no weighted key at all
  CHECK(clip.tracks[0].name == "LowerTorso");
  REQUIRE(clip.tracks[0].translations.size() == 1);  // the 0.5 s pose has Weight 0
  CHECK(clip.tracks[0].translations[0].y == 1.0f);
  CHECK(clip.tracks[0].rotation_interpolation == Interpolation::kLinear);
  CHECK(clip.tracks[1].name == "Head");
  CHECK(clip.tracks[1].translation_times == std::vector<float>{0.0f, 0.5f});
  CHECK(clip.tracks[1].translation_interpolation == Interpolation::kStep);

  const Rig rig = r15();
  auto binding = build_clip_binding(clip, rig);
  REQUIRE(binding);
  Pose pose = make_pose(rig);
  sample_clip(clip, binding.value(), 0.25f, WrapMode::kClamp, pose);
  CHECK(pose.coverage[static_cast<size_t>(rig.find_joint("UpperTorso").index)] == 0.0f);
  CHECK(pose.local[static_cast<size_t>(rig.find_joint("Head").index)].position.z == 1.0f);  // stepped
}

TEST_CASE("KeyframeSequence in: a name under two parents is qualified Parent/Child", "[io][rbxmx]") {
  const std::string id = test::cframe_xml(0, 0, 0);
  const std::string text = sequence(keyframe(
      "K1", "0",
      pose("P1", "Root", id, 1, pose("P2", "LeftArm", id, 1, pose("P3", "Hand", id, 1)) +
                                     pose("P4", "RightArm", id, 1, pose("P5", "Hand", id, 1)))));
  auto read = io::parse_keyframe_sequence(text, "dup.rbxmx");
  REQUIRE(read);
  std::vector<std::string> names;
  for (const ClipTrack& t : read.value().clip.tracks) names.push_back(t.name);
  CHECK(names == std::vector<std::string>{"LeftArm", "LeftArm/Hand", "RightArm", "RightArm/Hand"});
}

TEST_CASE("KeyframeSequence in: malformed files fail with one line naming the item", "[io][rbxmx]") {
  const std::string id = test::cframe_xml(0, 0, 0);
  struct Case {
    std::string text, needle;
  };
  const std::vector<Case> cases = {
      {"<roblox><Item class=\"KeyframeSequence\"", "bad.rbxmx: line 1: invalid XML"},
      {"<roblox version=\"4\"></roblox>", "no KeyframeSequence item found"},
      {"<model/>", "no <roblox> element"},
      {sequence(""), "KeyframeSequence 'Test' (referent RBX0): has no Keyframe"},
      {sequence(keyframe("K1", "soon", "")), "Keyframe '' (referent K1) Time: not a number: 'soon'"},
      {sequence(keyframe("K1", "-1", "")), "Keyframe '' (referent K1) Time: must be a finite number >= 0"},
      {sequence(keyframe("K1", "0", pose("P1", "HumanoidRootPart", id, 1,
                                         "<Item class=\"Pose\" referent=\"P9\"><Properties><string name=\"Name\">Head"
                                         "</string></Properties></Item>"))),
       "Pose 'Head' (referent P9): missing property CFrame"},
      {sequence(keyframe("K1", "0", pose("P1", "HumanoidRootPart", id, 1,
                                         pose("P2", "Head", test::cframe_xml(0, 0, 0, "2 0 0 0 1 0 0 0 1"), 1)))),
       "Pose 'Head' (referent P2) CFrame: not a valid CFrame"},
      {sequence(keyframe("K1", "0", pose("P1", "HumanoidRootPart", id, 1, pose("P2", "Head", id, -1)))),
       "Pose 'Head' (referent P2) Weight: must be a finite number >= 0"},
      {sequence(keyframe("K1", "0", pose("P1", "", id, 1))), "Pose '' (referent P1): Pose has no Name"},
      {sequence(keyframe("K1", "0", ""), "<token name=\"Priority\">7</token>"),
       "KeyframeSequence 'Test' (referent RBX0) Priority: unknown AnimationPriority token 7"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto r = io::parse_keyframe_sequence(c.text, "bad.rbxmx");
    REQUIRE_FALSE(r);
    CHECK(r.message().find(c.needle) != std::string::npos);
    CHECK(r.message().rfind("bad.rbxmx: ", 0) == 0);
    CHECK(r.message().find('\n') == std::string::npos);
  }
}

TEST_CASE("AnimationPriority names", "[io][rbxmx]") {
  CHECK(io::parse_animation_priority("Action4") == io::AnimationPriority::kAction4);
  CHECK(io::parse_animation_priority("Core") == io::AnimationPriority::kCore);
  CHECK_FALSE(io::parse_animation_priority("action"));
  CHECK(std::string(io::to_string(io::AnimationPriority::kIdle)) == "Idle");
}
