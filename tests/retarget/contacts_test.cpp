// Foot contacts (rules RT16, RT17): a synthetic BVH written by the test, whose contact frames
// follow by hand from the documented thresholds, hysteresis on hand-made samples, Footstep
// markers, and the fallbacks (no feet, feet that never touch).
#include <catch2/catch.hpp>

#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/bake.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

namespace {

// Legs of 4 + 4 units and a foot whose end site is 1 below the ankle: the lowest rest point
// is 9 below the upper legs (L = 9). The hips stand 14 up, so the floor is at height 5.
// Lifting a foot bends its knee 90 degrees (the foot ends 4 units higher: far above the
// 0.05 L = 0.45 unit contact band), held still while lifted.
std::string synthetic_bvh(int frames, int left_up_from, int left_up_to, int right_up_from, int right_up_to,
                          float hips_height = 14.0f, float drift = 0.0f) {
  std::ostringstream s;
  s << "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n";
  for (const char* side : {"Left", "Right"}) {
    const float x = std::string(side) == "Left" ? 1.0f : -1.0f;
    s << " JOINT " << side << "UpLeg\n {\n  OFFSET " << x << " 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
      << "  JOINT " << side << "Leg\n  {\n   OFFSET 0 -4 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
      << "   JOINT " << side << "Foot\n   {\n    OFFSET 0 -4 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
      << "    End Site\n    {\n     OFFSET 0 -1 1\n    }\n   }\n  }\n }\n";
  }
  s << " JOINT Spine\n {\n  OFFSET 0 2 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
    << "  JOINT Head\n  {\n   OFFSET 0 3 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
    << "   End Site\n   {\n    OFFSET 0 1 0\n   }\n  }\n }\n}\n";
  s << "MOTION\nFrames: " << frames << "\nFrame Time: 0.0333333\n";
  for (int f = 0; f < frames; ++f) {
    const bool left_up = f >= left_up_from && f <= left_up_to;
    const bool right_up = f >= right_up_from && f <= right_up_to;
    s << drift * static_cast<float>(f) << " " << hips_height << " 0 0 0 0";
    s << " 0 0 0  0 " << (left_up ? 90 : 0) << " 0  0 0 0";   // LeftUpLeg, LeftLeg, LeftFoot
    s << " 0 0 0  0 " << (right_up ? 90 : 0) << " 0  0 0 0";  // RightUpLeg, RightLeg, RightFoot
    s << " 0 0 0  0 0 0\n";                                    // Spine, Head
  }
  return s.str();
}

io::SourceClip load_text(const test::TempDir& dir, const std::string& name, const std::string& text) {
  const auto path = dir / name;
  {
    std::ofstream out(path);
    out << text;
  }
  auto loaded = io::load_source_clip(path);
  REQUIRE(loaded);
  return std::move(loaded).value();
}

std::vector<int> contact_frames(const FootContacts& c, size_t foot) {
  std::vector<int> out;
  for (int f = 0; f < c.frame_count; ++f)
    if (c.contact[static_cast<size_t>(f) * c.feet.size() + foot]) out.push_back(f);
  return out;
}

std::vector<int> range(int from, int to) {
  std::vector<int> v;
  for (int f = from; f <= to; ++f) v.push_back(f);
  return v;
}

std::vector<int> join(std::vector<int> a, const std::vector<int>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("RT16, RT17: contacts and floor of a synthetic BVH with known contact frames", "[retarget][contacts]") {
  test::TempDir dir("contacts_bvh");
  // Left foot lifted on frames 10-19, right on 25-29. A lift moves the foot between two frames,
  // so the frame before a lift and the first frame back down see it move (central differences
  // over the neighbours): left contact 0-8 and 21-39, right 0-23 and 31-39.
  const io::SourceClip clip = load_text(dir, "steps.bvh", synthetic_bvh(40, 10, 19, 25, 29));
  auto found = find_foot_contacts(clip.clip, clip.skeleton, glm::quat(1, 0, 0, 0));
  REQUIRE(found);
  const FootContacts& c = found.value();
  REQUIRE(c.feet.size() == 2);
  CHECK(c.feet[0].label == "LeftFoot");
  CHECK(c.feet[1].label == "RightFoot");
  CHECK(c.frame_count == 40);
  CHECK(c.dt == Approx(0.0333333f));
  CHECK(c.leg_length == Approx(9.0f));
  REQUIRE(c.has_floor);
  CHECK(c.floor == Approx(5.0f).margin(1e-4));
  CHECK(contact_frames(c, 0) == join(range(0, 8), range(21, 39)));
  CHECK(contact_frames(c, 1) == join(range(0, 23), range(31, 39)));

  // Footstep markers at every contact start, in time order, left before right on a tie.
  const std::vector<ClipMarker> steps = footstep_markers(c);
  REQUIRE(steps.size() == 4);
  const float dt = c.dt;
  const std::pair<float, const char*> expected[] = {{0.0f, "Left"}, {0.0f, "Right"}, {21 * dt, "Left"}, {31 * dt, "Right"}};
  for (size_t i = 0; i < 4; ++i) {
    CHECK(steps[i].name == "Footstep");
    CHECK(steps[i].kind == ClipMarkerKind::kMarker);
    CHECK(steps[i].time == Approx(expected[i].first));
    CHECK(steps[i].value == expected[i].second);
  }

  // State by time: the nearest frame.
  CHECK(c.in_contact(0, 8 * dt));
  CHECK_FALSE(c.in_contact(0, 15 * dt));
  CHECK(c.in_contact(1, 1e9f));  // clamped to the last frame
}

TEST_CASE("RT17: hysteresis: entering needs the low band, staying the wider one", "[retarget][contacts]") {
  // One foot (a single joint), L = 1, dt = 1 s: speeds stay far under 0.3 L/s, so the heights
  // alone decide. 0.06 is between the enter (0.05) and exit (0.08) heights: in contact when
  // reached from contact (frames 2, 3), not when reached from above (frames 7, 8).
  const std::vector<float> h = {0.0f, 0.0f, 0.06f, 0.06f, 0.0f, 0.2f, 0.2f, 0.06f, 0.06f, 0.0f};
  SourceSkeleton s;
  s.name = "foot";
  s.joint_names = {"Foot"};
  s.parents = {-1};
  s.rest_local = {Transform::identity()};
  SampledSource samples;
  samples.dt = 1.0f;
  samples.frame_count = static_cast<int>(h.size());
  samples.joint_count = 1;
  for (float y : h) {
    samples.joint.emplace_back(0.0f, y, 0.0f);
    samples.end_site.emplace_back(0.0f, y, 0.0f);
  }
  const FootContacts c =
      detect_foot_contacts(samples, s, {FootSpec{"LeftFoot", "Left", 0}}, glm::vec3(0, 1, 0), 1.0f);
  REQUIRE(c.has_floor);
  CHECK(c.floor == 0.0f);
  CHECK(c.contact == std::vector<unsigned char>{1, 1, 1, 1, 1, 0, 0, 0, 0, 1});
  const auto steps = footstep_markers(c);
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].time == 0.0f);
  CHECK(steps[1].time == 9.0f);
}

TEST_CASE("RT16: no recognisable feet, or feet that never touch: the rest decides, with a note", "[retarget][contacts]") {
  test::TempDir dir("contacts_none");
  SECTION("a tail: no foot role") {
    const std::string bvh =
        "HIERARCHY\nROOT Tail\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
        " JOINT Tip\n {\n  OFFSET 0 0 -3\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 0 -1\n  }\n }\n}\n"
        "MOTION\nFrames: 3\nFrame Time: 0.1\n0 1 0 0 0 0 0 10 0\n0 1 0 0 0 0 0 20 0\n0 1 0 0 0 0 0 30 0\n";
    const io::SourceClip clip = load_text(dir, "tail.bvh", bvh);
    auto found = find_foot_contacts(clip.clip, clip.skeleton, glm::quat(1, 0, 0, 0));
    REQUIRE(found);
    CHECK(found.value().feet.empty());
    CHECK_FALSE(found.value().has_floor);
    CHECK(found.value().note.find("no recognisable feet") != std::string::npos);
    CHECK(footstep_markers(found.value()).empty());
  }
  SECTION("a swim: the feet always move") {
    // The whole body drifts 30 units per second (3.3 L/s), so no foot is ever still.
    io::SourceClip clip = load_text(dir, "swim.bvh", synthetic_bvh(30, -1, -1, -1, -1, 14.0f, 1.0f));
    auto found = find_foot_contacts(clip.clip, clip.skeleton, glm::quat(1, 0, 0, 0));
    REQUIRE(found);
    CHECK(found.value().feet.size() == 2);
    CHECK_FALSE(found.value().has_floor);
    CHECK(found.value().note.find("never touch") != std::string::npos);
    for (unsigned char on : found.value().contact) CHECK(on == 0);
    // The scene's "auto" floor then falls back to the rest (no floor in the profile).
    const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
    io::SceneRetarget rt;
    auto profile = io::build_scene_profile(rt, clip.skeleton, rig, clip.rest_on_ground);
    REQUIRE(profile);
    REQUIRE(io::resolve_scene_floor(rt, clip, rig, profile.value()));
    CHECK_FALSE(profile.value().floor.has_value());
  }
}

TEST_CASE("RT16: the scene's floor setting reaches the profile", "[retarget][contacts]") {
  test::TempDir dir("contacts_floor");
  io::SourceClip clip = load_text(dir, "steps.bvh", synthetic_bvh(40, 10, 19, 25, 29));
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  io::SceneRetarget rt;
  auto profile = io::build_scene_profile(rt, clip.skeleton, rig, clip.rest_on_ground);
  REQUIRE(profile);
  REQUIRE(io::resolve_scene_floor(rt, clip, rig, profile.value()));
  REQUIRE(profile.value().floor.has_value());  // "auto": the contacts' floor (5), fitted to R15's soles
  rt.floor = io::SceneRetarget::Floor::kRest;
  REQUIRE(io::resolve_scene_floor(rt, clip, rig, profile.value()));
  CHECK_FALSE(profile.value().floor.has_value());
  rt.floor = io::SceneRetarget::Floor::kHeight;
  rt.floor_height = 2.5f;
  REQUIRE(io::resolve_scene_floor(rt, clip, rig, profile.value()));
  CHECK(profile.value().floor == 2.5f);
}

TEST_CASE("RT17: Footstep markers survive baking", "[retarget][contacts]") {
  test::TempDir dir("contacts_bake");
  io::SourceClip clip = load_text(dir, "steps.bvh", synthetic_bvh(40, 10, 19, 25, 29));
  auto found = find_foot_contacts(clip.clip, clip.skeleton, glm::quat(1, 0, 0, 0));
  REQUIRE(found);
  clip.clip.markers = footstep_markers(found.value());
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  auto profile = io::build_scene_profile(io::SceneRetarget{}, clip.skeleton, rig, clip.rest_on_ground);
  REQUIRE(profile);
  auto binding = build_animation_binding(clip.clip, rig, &clip.skeleton, &profile.value());
  REQUIRE(binding);
  auto baked = bake_retarget(clip.clip, binding.value().clip_binding, *binding.value().retarget, rig);
  REQUIRE(baked);
  REQUIRE(baked.value().markers.size() == 4);
  CHECK(baked.value().markers[3].value == "Right");
  CHECK(baked.value().markers[3].time == Approx(31 * found.value().dt));
}

TEST_CASE("RT16: the floor is part of the profile's identity and must be finite", "[retarget][contacts]") {
  test::TempDir dir("contacts_key");
  const io::SourceClip clip = load_text(dir, "steps.bvh", synthetic_bvh(10, -1, -1, -1, -1));
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  auto made = io::build_scene_profile(io::SceneRetarget{}, clip.skeleton, rig, clip.rest_on_ground);
  REQUIRE(made);
  RetargetProfile p = made.value();
  const std::uint64_t rest_key = profile_key(p);
  p.floor = 5.0f;
  CHECK(profile_key(p) != rest_key);
  auto five = build_retarget_binding(clip.skeleton, rig, p);
  REQUIRE(five);
  p.floor = 6.0f;
  auto six = build_retarget_binding(clip.skeleton, rig, p);
  REQUIRE(six);
  // One source unit more floor lowers the travel reference by one unit along the source up:
  // the pelvis's reference moves by exactly 1 along +Y (this source's up).
  const JointLookup pelvis = rig.find_joint("LowerTorso");
  REQUIRE(pelvis.found());
  const auto j = static_cast<size_t>(pelvis.index);
  CHECK(six.value().source_rest_position[j].y - five.value().source_rest_position[j].y == Approx(1.0f));
  p.floor = std::numeric_limits<float>::quiet_NaN();
  auto bad = build_retarget_binding(clip.skeleton, rig, p);
  REQUIRE_FALSE(bad);
  CHECK(bad.message().find("floor") != std::string::npos);
}

TEST_CASE("RT18: the floor over time: piecewise linear keys, and the clip leveled onto one floor", "[retarget][contacts]") {
  const std::vector<FloorKey> keys = {{1.0f, 2.0f}, {3.0f, 4.0f}};
  CHECK(floor_at(keys, 0.0f, -1.0f) == 2.0f);  // held before the first key
  CHECK(floor_at(keys, 2.0f, -1.0f) == Approx(3.0f));
  CHECK(floor_at(keys, 2.5f, -1.0f) == Approx(3.5f));
  CHECK(floor_at(keys, 9.0f, -1.0f) == 4.0f);  // and after the last
  CHECK(floor_at({}, 2.0f, -1.0f) == -1.0f);

  // A root with translation keys at 0..3 s moves by -(floor(t) - reference) along up, at its keys:
  // reference 2: 0, 0, -1, -2 (by hand from the keys above).
  SourceSkeleton s;
  s.name = "two roots";
  s.joint_names = {"Hips", "Prop"};
  s.parents = {-1, -1};
  s.rest_local = {Transform::identity(), Transform::from_position(glm::vec3(0.0f, 5.0f, 0.0f))};
  Clip clip;
  clip.duration = 4.0f;
  ClipTrack hips;
  hips.name = "Hips";
  hips.translation_times = {0.0f, 1.0f, 2.0f, 3.0f};
  hips.translations.assign(4, glm::vec3(1.0f, 10.0f, 0.0f));
  clip.tracks.push_back(hips);
  level_clip_floor(clip, s, keys, 2.0f, glm::vec3(0.0f, 1.0f, 0.0f));
  REQUIRE(clip.tracks.size() == 2);
  const std::vector<float> expected_hips = {10.0f, 10.0f, 9.0f, 8.0f};
  for (size_t k = 0; k < 4; ++k) {
    CHECK(clip.tracks[0].translations[k].y == Approx(expected_hips[k]));
    CHECK(clip.tracks[0].translations[k].x == 1.0f);
  }
  // A root without keys (Prop, rest at height 5) gets linear keys at 0, the floor keys' times
  // and the end, from its rest position: 5, 5, 3, 3.
  const ClipTrack& prop = clip.tracks[1];
  CHECK(prop.name == "Prop");
  CHECK(prop.translation_times == std::vector<float>{0.0f, 1.0f, 3.0f, 4.0f});
  const std::vector<float> expected_prop = {5.0f, 5.0f, 3.0f, 3.0f};
  for (size_t k = 0; k < 4; ++k) CHECK(prop.translations[k].y == Approx(expected_prop[k]));
}
