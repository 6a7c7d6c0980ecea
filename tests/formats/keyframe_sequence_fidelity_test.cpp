// Roblox KeyframeSequence fidelity (rule P5): Pose easing, Weight, the Pose tree, named
// Keyframes and KeyframeMarkers are read, kept and written back as read; priorities map to the
// animator's; the frames writer refuses frames of the wrong size and writes the root part's
// Pose as identity (rule F5); Poses 20,000 deep load without recursion (rule RG5).
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

using namespace asterune;

namespace {

std::string pose(const std::string& name, const std::string& cf, const std::string& weight, int style, int direction,
                 const std::string& children = "") {
  return "<Item class=\"Pose\"><Properties><string name=\"Name\">" + name + "</string>" + cf +
         "<float name=\"Weight\">" + weight + "</float><token name=\"EasingStyle\">" + std::to_string(style) +
         "</token><token name=\"EasingDirection\">" + std::to_string(direction) + "</token></Properties>" +
         children + "</Item>";
}

std::string marker(const std::string& name, const std::string& value) {
  return "<Item class=\"KeyframeMarker\"><Properties><string name=\"Name\">" + name +
         "</string><string name=\"Value\">" + value + "</string></Properties></Item>";
}

std::string keyframe(const std::string& name, const std::string& time, const std::string& content) {
  return "<Item class=\"Keyframe\"><Properties><string name=\"Name\">" + name + "</string><float name=\"Time\">" +
         time + "</float></Properties>" + content + "</Item>";
}

std::string sequence(const std::string& keyframes) {
  return "<roblox version=\"4\"><Item class=\"KeyframeSequence\"><Properties><string name=\"Name\">Fancy</string>"
         "<bool name=\"Loop\">true</bool><token name=\"Priority\">3</token></Properties>" +
         keyframes + "</Item></roblox>";
}

// HumanoidRootPart > LowerTorso > UpperTorso (never keyed: Weight 0) > Head, three keyframes
// listed out of time order, with easing, weights, names and markers.
std::string studio_like() {
  const std::string id = test::cframe_xml(0, 0, 0);
  const char* z90 = "0 -1 0 1 0 0 0 0 1";
  auto kf = [&](const std::string& lower_cf, const std::string& lower_w, int lower_style, int lower_dir,
                const std::string& head_cf, const std::string& head_w, int head_style, int head_dir) {
    return pose("HumanoidRootPart", id, "0", 0, 0,
                pose("LowerTorso", lower_cf, lower_w, lower_style, lower_dir,
                     pose("UpperTorso", id, "0", 0, 0, pose("Head", head_cf, head_w, head_style, head_dir))));
  };
  return sequence(keyframe("Land", "1", kf(test::cframe_xml(0, 2, 0), "1", 2, 1, test::cframe_xml(0, 0, 2, z90), "0.5", 5, 2)) +
                  keyframe("Keyframe", "0",
                           kf(test::cframe_xml(0, 1, 0), "1", 4, 0, test::cframe_xml(0, 0, 1), "1", 3, 1) + marker("Step", "left")) +
                  keyframe("Keyframe", "0.5", kf(test::cframe_xml(0, 1.5, 0), "0", 0, 0, test::cframe_xml(0, 0, 1.5), "0.25", 1, 0) +
                                                  marker("Step", "right") + marker("Sound", "")));
}

Rig r15() {
  auto rig = io::load_rig("builtin:r15");
  REQUIRE(rig);
  return std::move(rig.value());
}

}  // namespace

TEST_CASE("KeyframeSequence in: easing, weights, markers, named keyframes, priority", "[io][rbxmx][easing]") {
  auto read = io::parse_keyframe_sequence(studio_like(), "studio.rbxmx");
  REQUIRE(read);
  const io::KeyframeSequenceClip& k = read.value();
  CHECK(k.loop);
  CHECK(k.priority == io::AnimationPriority::kAction2);
  CHECK(k.clip.duration == 1.0f);
  REQUIRE(k.clip.tracks.size() == 2);
  const ClipTrack& lower = k.clip.tracks[0];
  const ClipTrack& head = k.clip.tracks[1];
  CHECK(lower.name == "LowerTorso");
  CHECK(lower.rotation_times == std::vector<float>{0.0f, 1.0f});  // the 0.5 s Pose has Weight 0
  using S = EasingStyle;
  using D = EasingDirection;
  CHECK(lower.rotation_easing == std::vector<KeyEasing>{{S::kBounce, D::kIn}, {S::kElastic, D::kOut}});
  CHECK(lower.translation_easing == lower.rotation_easing);
  CHECK(head.name == "Head");
  CHECK(head.rotation_times == std::vector<float>{0.0f, 0.5f, 1.0f});
  CHECK(head.rotation_easing ==
        std::vector<KeyEasing>{{S::kCubic, D::kOut}, {S::kConstant, D::kIn}, {S::kCubicV2, D::kInOut}});
  REQUIRE(k.keys.size() == 2);
  CHECK(k.keys[0].weights == std::vector<float>{1.0f, 1.0f});
  CHECK(k.keys[1].weights == std::vector<float>{1.0f, 0.25f, 0.5f});
  CHECK(k.keys[1].easing == head.rotation_easing);
  // The Pose tree keeps UpperTorso, which no Keyframe keys.
  REQUIRE(k.poses.size() == 4);
  CHECK(k.poses[2].name == "UpperTorso");
  CHECK(k.poses[2].parent == 1);
  CHECK(k.poses[2].track == -1);
  CHECK(k.poses[3].parent == 2);
  CHECK(k.poses[3].track == 1);
  // Markers by time; the file listed the 1 s Keyframe first.
  REQUIRE(k.clip.markers.size() == 4);
  const ClipMarker want[4] = {{0.0f, "Step", "left", ClipMarkerKind::kMarker},
                              {0.5f, "Step", "right", ClipMarkerKind::kMarker},
                              {0.5f, "Sound", "", ClipMarkerKind::kMarker},
                              {1.0f, "Land", "", ClipMarkerKind::kKeyframe}};
  for (size_t i = 0; i < 4; ++i) {
    INFO("marker " << i);
    CHECK(k.clip.markers[i].time == want[i].time);
    CHECK(k.clip.markers[i].name == want[i].name);
    CHECK(k.clip.markers[i].value == want[i].value);
    CHECK(k.clip.markers[i].kind == want[i].kind);
  }
  // Sampled: LowerTorso's first segment is Bounce In (TweenService Bounce Out): at 0.25 s,
  // bounceOut(0.25) = 7.5625 * 0.0625 = 0.47265625 of the way from y = 1 to y = 2.
  const Rig rig = r15();
  auto binding = build_clip_binding(k.clip, rig);
  REQUIRE(binding);
  Pose p = make_pose(rig);
  sample_clip(k.clip, binding.value(), 0.25f, WrapMode::kClamp, p);
  const auto lt = static_cast<size_t>(rig.find_joint("LowerTorso").index);
  CHECK(p.local[lt].position.y == Approx(1.0 + 0.47265625).margin(1e-5));
  // Head's segment at 0.5 s is Constant: held until 1 s.
  sample_clip(k.clip, binding.value(), 0.9f, WrapMode::kClamp, p);
  CHECK(p.local[static_cast<size_t>(rig.find_joint("Head").index)].position.z == Approx(1.5f));
}

TEST_CASE("KeyframeSequence: AnimationPriority converts to the animator's TrackPriority by name", "[io][rbxmx]") {
  // TrackPriority's rank order (anim/animator.hpp, rule AN3): Core 0, Idle 1, Movement 2,
  // Action 3, Action2 4, Action3 5, Action4 6.
  const std::pair<io::AnimationPriority, int> cases[] = {
      {io::AnimationPriority::kCore, 0},    {io::AnimationPriority::kIdle, 1},    {io::AnimationPriority::kMovement, 2},
      {io::AnimationPriority::kAction, 3},  {io::AnimationPriority::kAction2, 4}, {io::AnimationPriority::kAction3, 5},
      {io::AnimationPriority::kAction4, 6}};
  for (const auto& [file, rank] : cases) {
    INFO(io::to_string(file));
    CHECK(static_cast<int>(io::to_track_priority(file)) == rank);
  }
}

TEST_CASE("KeyframeSequence round trip: read, write, read keeps easing, weights, markers, tree", "[io][rbxmx][easing]") {
  auto first = io::parse_keyframe_sequence(studio_like(), "studio.rbxmx");
  REQUIRE(first);
  auto text = io::write_keyframe_sequence(first.value());
  REQUIRE(text);
  auto second = io::parse_keyframe_sequence(text.value(), "again.rbxmx");
  REQUIRE(second);
  const io::KeyframeSequenceClip& a = first.value();
  const io::KeyframeSequenceClip& b = second.value();
  CHECK(b.clip.name == a.clip.name);
  CHECK(b.loop == a.loop);
  CHECK(b.priority == a.priority);
  CHECK(b.root_part == a.root_part);
  CHECK(b.clip.duration == a.clip.duration);
  REQUIRE(b.clip.tracks.size() == a.clip.tracks.size());
  for (size_t t = 0; t < a.clip.tracks.size(); ++t) {
    const ClipTrack& x = a.clip.tracks[t];
    const ClipTrack& y = b.clip.tracks[t];
    INFO("track " << x.name);
    CHECK(y.name == x.name);
    CHECK(y.rotation_times == x.rotation_times);
    CHECK(y.translations == x.translations);
    REQUIRE(y.rotations.size() == x.rotations.size());
    for (size_t i = 0; i < x.rotations.size(); ++i) CHECK(std::fabs(glm::dot(x.rotations[i], y.rotations[i])) > 1.0f - 1e-7f);
    CHECK(y.rotation_easing == x.rotation_easing);
    CHECK(y.rotation_interpolation == x.rotation_interpolation);
    CHECK(b.keys[t].weights == a.keys[t].weights);
    CHECK(b.keys[t].easing == a.keys[t].easing);
  }
  REQUIRE(b.poses.size() == a.poses.size());
  for (size_t p = 0; p < a.poses.size(); ++p) {
    CHECK(b.poses[p].name == a.poses[p].name);
    CHECK(b.poses[p].parent == a.poses[p].parent);
    CHECK(b.poses[p].track == a.poses[p].track);
  }
  REQUIRE(b.clip.markers.size() == a.clip.markers.size());
  for (size_t m = 0; m < a.clip.markers.size(); ++m) {
    CHECK(b.clip.markers[m].time == a.clip.markers[m].time);
    CHECK(b.clip.markers[m].name == a.clip.markers[m].name);
    CHECK(b.clip.markers[m].value == a.clip.markers[m].value);
    CHECK(b.clip.markers[m].kind == a.clip.markers[m].kind);
  }
  // Broken side tables are refused.
  io::KeyframeSequenceClip broken = a;
  broken.keys[1].weights.pop_back();
  CHECK_FALSE(io::write_keyframe_sequence(broken));
}

TEST_CASE("KeyframeSequence in: unknown easing tokens are refused naming the Pose", "[io][rbxmx][easing]") {
  const std::string id = test::cframe_xml(0, 0, 0);
  auto r = io::parse_keyframe_sequence(
      sequence(keyframe("Keyframe", "0", pose("HumanoidRootPart", id, "1", 0, 0, pose("Head", id, "1", 6, 0)))),
      "bad.rbxmx");
  REQUIRE_FALSE(r);
  CHECK(r.message() == "bad.rbxmx: Pose 'Head' (referent ) EasingStyle: unknown PoseEasingStyle token 6");
  r = io::parse_keyframe_sequence(
      sequence(keyframe("Keyframe", "0", pose("HumanoidRootPart", id, "1", 0, 0, pose("Head", id, "1", 2, 3)))),
      "bad.rbxmx");
  REQUIRE_FALSE(r);
  CHECK(r.message().find("EasingDirection: unknown PoseEasingDirection token 3") != std::string::npos);
}

TEST_CASE("KeyframeSequence out: frames of the wrong size are refused; root Pose identity; markers", "[io][rbxmx]") {
  const Rig rig = r15();
  const auto n = static_cast<size_t>(rig.joint_count());
  std::vector<io::FrameRecord> frames(2);
  for (size_t f = 0; f < frames.size(); ++f) {
    frames[f].frame = static_cast<int>(f);
    frames[f].time = 0.5f * static_cast<float>(f);
    frames[f].local.assign(n, Transform::identity());
    frames[f].root = Transform{glm::quat(1, 0, 0, 0), glm::vec3(3.0f * static_cast<float>(f), 0, 0)};  // travel
  }
  io::KeyframeSequenceOptions opt;
  opt.markers = {{0.5f, "Hit", "sword", ClipMarkerKind::kMarker}, {0.5f, "Strike", "", ClipMarkerKind::kKeyframe},
                 {0.75f, "Late", "x", ClipMarkerKind::kMarker}};
  auto good = io::write_keyframe_sequence(rig, frames, opt);
  REQUIRE(good);
  pugi::xml_document doc;
  REQUIRE(doc.load_string(good.value().c_str()));
  // The top-level Pose's CFrame is identity in every Keyframe, whatever the root travel.
  const auto tops = doc.select_nodes("/roblox/Item/Item[@class='Keyframe']/Item[@class='Pose']/Properties/CoordinateFrame");
  REQUIRE(tops.size() == 2);
  const char* names[12] = {"X", "Y", "Z", "R00", "R01", "R02", "R10", "R11", "R12", "R20", "R21", "R22"};
  const float identity[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (const pugi::xpath_node& cf : tops)
    for (int i = 0; i < 12; ++i) CHECK(cf.node().child(names[i]).text().as_float() == identity[i]);
  auto read = io::parse_keyframe_sequence(good.value(), "markers.rbxmx");
  REQUIRE(read);
  const std::vector<ClipMarker>& m = read.value().clip.markers;
  REQUIRE(m.size() == 3);
  CHECK((m[0].time == 0.5f && m[0].name == "Strike" && m[0].kind == ClipMarkerKind::kKeyframe));
  CHECK((m[1].time == 0.5f && m[1].name == "Hit" && m[1].value == "sword"));
  CHECK((m[2].time == 0.75f && m[2].name == "Late" && m[2].value == "x"));
  CHECK(read.value().clip.duration == 0.75f);  // the marker-only Keyframe

  frames[1].local.resize(3);
  auto bad = io::write_keyframe_sequence(rig, frames, {});
  REQUIRE_FALSE(bad);
  CHECK(bad.message() == "KeyframeSequence export: frame 1 has 3 local transforms for " + std::to_string(n) + " joints");
  CHECK_FALSE(io::write_keyframe_sequence_file("unused.rbxmx", rig, frames, {}));
}

TEST_CASE("KeyframeSequence in: Poses 20000 deep and a sequence 20000 Items deep load without recursion",
          "[io][rbxmx][hostile][deep]") {
  constexpr int kDepth = 20000;
  const std::string id = test::cframe_xml(0, 0, 0);
  auto open_pose = [&](int i) {
    return "<Item class=\"Pose\"><Properties><string name=\"Name\">P" + std::to_string(i) + "</string>" + id +
           "<float name=\"Weight\">1</float></Properties>";
  };
  std::string poses;
  for (int i = 0; i < kDepth; ++i) poses += open_pose(i);
  for (int i = 0; i < kDepth; ++i) poses += "</Item>";
  const std::string deep_poses = sequence(keyframe("Keyframe", "0", poses));
  auto read = io::parse_keyframe_sequence(deep_poses, "deep.rbxmx");
  REQUIRE(read);
  CHECK(read.value().root_part == "P0");
  REQUIRE(read.value().clip.tracks.size() == static_cast<size_t>(kDepth - 1));
  CHECK(read.value().clip.tracks.back().name == "P" + std::to_string(kDepth - 1));
  CHECK(read.value().poses.size() == static_cast<size_t>(kDepth));

  std::string folders;
  for (int i = 0; i < kDepth; ++i) folders += "<Item class=\"Folder\">";
  const std::string inner = sequence(keyframe("Keyframe", "0", pose("HumanoidRootPart", id, "1", 0, 0,
                                                                    pose("Head", id, "1", 0, 0))));
  const std::string item = inner.substr(inner.find("<Item"), inner.rfind("</roblox>") - inner.find("<Item"));
  folders += item;
  for (int i = 0; i < kDepth; ++i) folders += "</Item>";
  auto nested = io::parse_keyframe_sequence("<roblox version=\"4\">" + folders + "</roblox>", "nested.rbxmx");
  REQUIRE(nested);
  REQUIRE(nested.value().clip.tracks.size() == 1);
  CHECK(nested.value().clip.tracks[0].name == "Head");
}
