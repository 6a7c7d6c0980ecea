// Whole-character restore of the state a replay depends on beyond the animation (rule AN14):
// the control stack's persisting edits and retained history (an IK arm's smoothed target, a
// tracking look-at's gaze, a spring's points, the feet's lifts and normals) and the
// root motion (a clip track's last root heading, the character's root placement). Between the
// snapshot and the restore everything is disturbed (every control reset, edits changed, the root
// moved, the clip advanced), so a piece the restore missed shows in the replayed frames; two
// negative controls disturb one part after the restore and must see the frames differ.
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/controls/ground.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"

using namespace asterune;

namespace {

// Every joint swings; the root joint also turns about +Y and travels, so root motion (rule AN9)
// gives a heading change and a travel every frame.
Clip turning_walk(const Rig& rig) {
  Clip clip;
  clip.name = "turning_walk";
  clip.duration = 1.2f;
  for (int j = 0; j < rig.joint_count(); ++j) {
    ClipTrack t;
    t.name = rig.child_name(j);
    const float fj = static_cast<float>(j);
    for (int k = 0; k <= 12; ++k) {
      const float time = clip.duration * static_cast<float>(k) / 12.0f;
      glm::quat q = glm::angleAxis(0.4f * std::sin(0.5f * static_cast<float>(k) + fj), glm::vec3(1, 0, 0));
      if (j == 0) q = glm::angleAxis(0.6f * time, glm::vec3(0, 1, 0)) * q;
      t.rotation_times.push_back(time);
      t.rotations.push_back(q);
    }
    if (j == 0) {
      t.translation_times = {0.0f, clip.duration};
      t.translations = {glm::vec3(0.0f), glm::vec3(0.1f, 0.0f, -0.3f)};
    }
    clip.tracks.push_back(std::move(t));
  }
  return clip;
}

struct Scene {
  Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  Clip walk = turning_walk(rig);
  std::unique_ptr<AnimationBinding> binding;
  Ground ground;
  std::vector<TrackDesc> tracks;
  std::vector<ControlDesc> controls;
  CharacterSetup setup;

  Scene() {
    auto b = build_clip_binding(walk, rig);
    REQUIRE(b.ok());
    binding = std::make_unique<AnimationBinding>();
    binding->clip_binding = std::move(b).value();
    GroundDesc g;
    GroundPlane slope;
    slope.normal = {std::sin(0.2f), std::cos(0.2f), 0.0f};
    g.planes.push_back(slope);
    ground = build_ground(g).value();
    TrackDesc t;
    t.name = "walk";
    t.clip = &walk;
    t.binding = binding.get();
    t.priority = TrackPriority::kMovement;
    t.root_motion = true;
    tracks = {t};
    setup.rig = &rig;
    setup.ground = &ground;
    setup.tracks = tracks;

    ControlDesc reach;
    reach.name = "Reach";
    reach.smooth_time = 0.25f;
    reach.target = target_path({{0.0f, {-2.0f, 3.5f, -1.5f}}, {1.5f, {-1.0f, 5.0f, -2.5f}}});
    IkSettings ik;
    ik.chain_root = "LeftUpperArm";
    ik.end = "LeftHand";
    reach.settings = ik;
    ControlDesc look;
    look.name = "Look";
    look.smooth_time = 0.2f;
    look.target = target_path({{0.0f, {3.0f, 4.5f, -4.0f}}, {2.0f, {-3.0f, 4.5f, -4.0f}}});
    LookAtSettings la;
    la.chain_root = "UpperTorso";
    la.end = "Head";
    la.tracking_speed_deg_per_s = 90.0f;
    look.settings = la;
    ControlDesc arm;
    arm.name = "Arm";
    SpringSettings sp;
    sp.chain_root = "RightUpperArm";
    sp.end = "RightHand";
    sp.stiffness = 40.0f;
    sp.damping = 3.0f;
    sp.gravity = glm::vec3(0.0f, -60.0f, 0.0f);
    arm.settings = sp;
    ControlDesc feet;
    feet.name = "Feet";
    feet.smooth_time = 0.1f;
    FeetSettings fs;
    fs.legs = {FeetLeg{"LeftUpperLeg", "LeftFoot", {}}, FeetLeg{"RightUpperLeg", "RightFoot", {}}};
    feet.settings = fs;
    controls = {reach, look, arm, feet};
  }
};

struct FrameBits {
  std::vector<Transform> local, world;
  Transform root, root_delta;
};

FrameBits run_frame(const Scene& s, Character& c) {
  REQUIRE(update_character(s.setup, c, 1.0f / 60.0f));
  return FrameBits{c.pose.local, c.world, c.root, c.root_delta};
}

bool same(const FrameBits& a, const FrameBits& b) {
  const auto eq = [](const std::vector<Transform>& x, const std::vector<Transform>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(Transform)) == 0;
  };
  return eq(a.local, b.local) && eq(a.world, b.world) && std::memcmp(&a.root, &b.root, sizeof(Transform)) == 0 &&
         std::memcmp(&a.root_delta, &b.root_delta, sizeof(Transform)) == 0;
}

// Changes every retained piece the restore must bring back: the clip and the stack run on with
// other edits, every control forgets its smoothed target and history, the root jumps.
void disturb(const Scene& s, Character& c) {
  ControlStack& k = c.stack;
  k.set_weight(k.find("Reach"), 0.4f);
  k.set_priority(k.find("Look"), 7);
  k.set_smooth_time(k.find("Feet"), 0.5f);
  k.set_target_position(k.find("Reach"), {4.0f, 1.0f, 3.0f});
  for (int f = 0; f < 20; ++f) run_frame(s, c);
  k.set_enabled(k.find("Arm"), false);
  for (int i = 0; i < k.size(); ++i) k.reset(i);
  c.root = Transform{glm::angleAxis(2.0f, glm::vec3(0, 1, 0)), glm::vec3(9.0f, 1.0f, -7.0f)};
}

}  // namespace

TEST_CASE("a restore brings back the control stack's retained state and the root motion (rule AN14)",
          "[runtime][snapshot]") {
  Scene s;
  Character c = build_character(s.setup, s.controls, Transform::from_position({0, 3, 0})).value();
  for (int f = 0; f < 45; ++f) run_frame(s, c);  // smoothing, bend, gaze, springs and lifts under way
  std::vector<std::byte> buffer(character_snapshot_size(c));
  REQUIRE(snapshot_character(c, buffer));
  std::vector<FrameBits> first;
  for (int f = 0; f < 30; ++f) first.push_back(run_frame(s, c));
  // The root moves by root motion every frame (a turn and a travel), so the root check has teeth.
  REQUIRE(std::memcmp(&first.front().root, &first.back().root, sizeof(Transform)) != 0);
  REQUIRE(std::abs(glm::angle(first[10].root_delta.rotation)) > 1e-4f);

  disturb(s, c);
  REQUIRE(restore_character(c, buffer));
  for (int f = 0; f < 30; ++f) {
    INFO("frame " << f << " after the restore");
    REQUIRE(same(run_frame(s, c), first[static_cast<size_t>(f)]));
  }

  SECTION("negative control: a stack that forgot its history replays other frames") {
    REQUIRE(restore_character(c, buffer));
    for (int i = 0; i < c.stack.size(); ++i) c.stack.reset(i);
    bool all_same = true;
    for (int f = 0; f < 30; ++f) all_same = same(run_frame(s, c), first[static_cast<size_t>(f)]) && all_same;
    CHECK_FALSE(all_same);
  }
  SECTION("negative control: a root left where it was moved replays other frames") {
    REQUIRE(restore_character(c, buffer));
    c.root = Transform{glm::angleAxis(2.0f, glm::vec3(0, 1, 0)), glm::vec3(9.0f, 1.0f, -7.0f)};
    CHECK_FALSE(same(run_frame(s, c), first.front()));
  }
}
