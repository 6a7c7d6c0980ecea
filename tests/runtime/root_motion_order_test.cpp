// Rule AN16: one frame is animator, root motion, controls. A character turning 180 degrees on
// the spot by root motion (a turn-around clip) must show the turn in the same frame's root and
// world placements, which the control stack computes from the root it is given; the batch does
// the same, bit for bit.
#include <cmath>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"
#include "asterune/runtime/character_batch.hpp"

using namespace asterune;

namespace {

glm::quat yaw(float deg) { return glm::angleAxis(glm::radians(deg), glm::vec3(0, 1, 0)); }

// Angle between two rotations, degrees.
float angle_deg(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = glm::conjugate(a) * b;
  return 2.0f * std::atan2(glm::length(glm::vec3(d.x, d.y, d.z)), std::fabs(d.w)) * 180.0f / 3.14159265f;
}

}  // namespace

TEST_CASE("AN16: root motion moves the root before the controls, in the same frame", "[runtime][root_motion]") {
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  // LowerTorso turns from 0 to 180 degrees about +Y in 1 s (keys every 90 degrees), and steps
  // 2 studs forward (-Z of the start heading).
  Clip turn;
  turn.name = "turn";
  turn.duration = 1.0f;
  ClipTrack t;
  t.name = "LowerTorso";
  t.rotation_times = {0.0f, 0.5f, 1.0f};
  t.rotations = {yaw(0.0f), yaw(90.0f), yaw(180.0f)};
  t.translation_times = {0.0f, 1.0f};
  t.translations = {glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -2.0f)};
  turn.tracks.push_back(t);
  Result<ClipBinding> cb = build_clip_binding(turn, rig);
  REQUIRE(cb.ok());
  AnimationBinding binding;
  binding.mode = AnimationMode::kNative;
  binding.clip_binding = std::move(cb).value();
  TrackDesc d;
  d.name = "Turn";
  d.clip = &turn;
  d.binding = &binding;
  d.root_motion = true;
  d.looped = false;
  const std::vector<TrackDesc> tracks{d};
  CharacterSetup setup;
  setup.rig = &rig;
  setup.tracks = tracks;
  const Transform start = Transform::from_position({5.0f, 3.0f, 1.0f});
  Result<Character> built = build_character(setup, {}, start);
  REQUIRE(built.ok());
  Character c = std::move(built).value();
  const int lower = rig.find_joint("LowerTorso").index;
  REQUIRE(lower >= 0);

  REQUIRE(update_character(setup, c, 0.0f));  // the start: no motion yet
  CHECK(angle_deg(c.root.rotation, glm::quat(1, 0, 0, 0)) < 1e-3f);
  REQUIRE(update_character(setup, c, 1.0f));  // the whole turn in one frame
  // Hand-derived: the root turned 180 degrees and moved 2 studs along the start's -Z, and the
  // lower torso, whose pose keeps the start heading, is turned with it in this frame's world
  // (before rule AN16 it was 180 degrees off until the engine applied root_delta next frame).
  CHECK(angle_deg(c.root.rotation, yaw(180.0f)) < 1e-2f);
  CHECK(c.root.position.x == Approx(5.0f).margin(1e-4));
  CHECK(c.root.position.z == Approx(-1.0f).margin(1e-4));
  CHECK(angle_deg(c.world[static_cast<size_t>(lower)].rotation, yaw(180.0f)) < 1e-2f);
  CHECK(c.world[static_cast<size_t>(lower)].position.z == Approx(-1.0f).margin(1e-3));
  CHECK(angle_deg(c.root_delta.rotation, yaw(180.0f)) < 1e-2f);  // still reported

  // The batch runs the same stages: the same bits.
  Result<CharacterBatch> batch = build_character_batch(setup, {}, 1, start);
  REQUIRE(batch.ok());
  Result<Character> again = build_character(setup, {}, start);
  REQUIRE(again.ok());
  Character one = std::move(again).value();
  for (float dt : {0.0f, 0.4f, 0.6f}) {
    REQUIRE(update_character(setup, one, dt));
    update_characters(setup, batch.value(), dt, [](std::size_t n, CharacterRange body) { body(0, n); });
    const CharacterState& s = batch.value().state(0);
    CHECK(std::memcmp(&s.root, &one.root, sizeof(Transform)) == 0);
  }
}
