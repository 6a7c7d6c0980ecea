// CharacterBatch: a crowd in one arena gives, bit for bit, what the same characters give as
// separate Character values updated one by one (rules RG2, RG6), through commands and edits
// between frames; it allocates nothing per frame (RG1); and it refuses characters not sized for
// its setup. The reference is the Character path, whose own results the other runtime tests check
// against the clip and the controls.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/runtime/character_batch.hpp"
#include "runtime/crowd_fixture.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using test::Crowd;

namespace {

template <class A, class B>
bool bits(const A& x, const B& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
}

template <class T>
bool bits_of(const T& x, const T& y) {
  return std::memcmp(&x, &y, sizeof(T)) == 0;
}

// Everything an update writes: the pose, the world, the scalar fields, the events and the reports.
bool same_as(const CharacterBatch& b, std::size_t i, const Character& c) {
  const CharacterState& s = b.state(i);
  if (!bits(b.local(i), c.pose.local) || !bits(b.coverage(i), c.pose.coverage) || !bits(b.world(i), c.world))
    return false;
  if (!bits_of(s.root, c.root) || !bits_of(s.time, c.time) || !bits_of(s.scene_time, c.scene_time) ||
      !bits_of(s.root_delta, c.root_delta) || s.event_count != c.event_count || s.events_dropped != c.events_dropped ||
      s.ok != c.ok)
    return false;
  const std::span<const AnimEvent> events = b.events(i);
  if (events.size() != static_cast<std::size_t>(c.event_count)) return false;
  for (std::size_t e = 0; e < events.size(); ++e) {
    const AnimEvent& x = events[e];
    const AnimEvent& y = c.events[e];
    if (x.track != y.track || x.kind != y.kind || x.name != y.name || x.value != y.value || !bits_of(x.time, y.time))
      return false;
  }
  if (b.stack(i).size() != c.stack.size()) return false;
  for (int k = 0; k < c.stack.size(); ++k) {
    const ControlReport& x = b.stack(i).report(k);
    const ControlReport& y = c.stack.report(k);
    if (x.status != y.status || !bits_of(x.distance, y.distance) || !bits_of(x.angle, y.angle) ||
        !bits_of(x.target, y.target))
      return false;
  }
  return true;
}

const float kFrameDt[] = {1.0f / 60.0f, 1.0f / 30.0f, 0.0f, 1.0f / 60.0f, 0.25f, 1.0f / 144.0f, 1.0f / 60.0f};

}  // namespace

TEST_CASE("a character batch gives the bits of the same characters updated one by one", "[runtime][batch]") {
  // rules RG2, RG6: the batch runs the Character code on its own layout.
  Crowd reference(40);
  Crowd source(40);
  Result<CharacterBatch> built = build_character_batch(source.setup, source.characters);
  INFO((built.ok() ? std::string() : built.message()));
  REQUIRE(built.ok());
  CharacterBatch batch = std::move(built).value();
  REQUIRE(batch.size() == 40);
  REQUIRE(batch.joint_count() == reference.rig.joint_count());
  for (std::size_t i = 0; i < batch.size(); ++i) REQUIRE(same_as(batch, i, reference.characters[i]));

  const auto serial_reverse = [](std::size_t n, CharacterRange body) {
    for (std::size_t i = n; i > 0; --i) body(i - 1, i);
  };
  int frame = 0;
  for (float dt : kFrameDt) {
    // Commands and edits between frames reach the batch's characters as they reach Characters.
    if (frame == 2) {
      for (std::size_t i = 0; i < batch.size(); i += 3) {
        reference.characters[i].stack.set_weight(0, 0.5f);
        batch.stack(i).set_weight(0, 0.5f);
        reference.characters[i].time = 0.75f;
        batch.state(i).time = 0.75f;
        reference.characters[i].root.position.x += 1.0f;
        batch.state(i).root.position.x += 1.0f;
      }
    }
    if (frame == 4) {
      for (std::size_t i = 1; i < batch.size(); i += 4) {
        reference.characters[i].playback_rate = -1.5f;
        batch.state(i).playback_rate = -1.5f;
      }
    }
    for (Character& c : reference.characters) REQUIRE(update_character(reference.setup, c, dt));
    if (frame % 2 == 0) {
      update_characters(source.setup, batch, dt, serial_reverse);
    } else {
      for (std::size_t i = 0; i < batch.size(); ++i) CHECK(update_character(source.setup, batch, i, dt));
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
      INFO("character " << i << ", frame " << frame);
      CHECK(batch.state(i).ok);
      CHECK(same_as(batch, i, reference.characters[i]));
    }
    ++frame;
  }
  // Not vacuous: the characters differ, the controls ran, and some events were reported.
  CHECK_FALSE(same_as(batch, 1, reference.characters[2]));
  CHECK(batch.stack(5).report(0).status == ControlStatus::kSolved);
  int events = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) events += batch.state(i).event_count;
  CHECK(events > 0);
  // The characters the batch was built from are left as they were (not updated).
  CHECK(source.characters[0].scene_time == 0.0f);
}

TEST_CASE("a batch of one control set equals characters built one by one", "[runtime][batch]") {
  Crowd crowd(0);
  const std::vector<ControlDesc> controls = test::controls_for(1);  // look-at, arm, feet
  const Transform root = Transform::from_position({0.0f, 3.0f, 0.0f});
  Result<CharacterBatch> built = build_character_batch(crowd.setup, controls, 5, root, 0.2f);
  INFO((built.ok() ? std::string() : built.message()));
  REQUIRE(built.ok());
  CharacterBatch batch = std::move(built).value();
  std::vector<Character> reference;
  for (std::size_t i = 0; i < 5; ++i) {
    reference.push_back(build_character(crowd.setup, controls, root, 0.2f).value());
    // Each its own root and time, set after the build.
    const Transform own{glm::angleAxis(0.3f * static_cast<float>(i), glm::vec3(0, 1, 0)),
                        {1.5f * static_cast<float>(i), 3.0f, 0.0f}};
    reference[i].root = own;
    reference[i].time = 0.1f * static_cast<float>(i);
    batch.state(i).root = own;
    batch.state(i).time = 0.1f * static_cast<float>(i);
  }
  const auto serial = [](std::size_t n, CharacterRange body) { body(0, n); };
  for (float dt : kFrameDt) {
    for (Character& c : reference) REQUIRE(update_character(crowd.setup, c, dt));
    update_characters(crowd.setup, batch, dt, serial);
    for (std::size_t i = 0; i < 5; ++i) {
      INFO("character " << i << ", dt " << dt);
      CHECK(same_as(batch, i, reference[i]));
    }
  }
  CHECK_FALSE(same_as(batch, 0, reference[1]));
}

TEST_CASE("a character batch frame allocates nothing", "[runtime][batch]") {
  // Per-frame path: no allocation (rule RG1).
  Crowd crowd(8);
  CharacterBatch batch = build_character_batch(crowd.setup, crowd.characters).value();
  const auto serial = [](std::size_t n, CharacterRange body) { body(0, n); };
  update_characters(crowd.setup, batch, 1.0f / 60.0f, serial);
  test::AllocationScope scope;
  for (int f = 0; f < 5; ++f) update_characters(crowd.setup, batch, 1.0f / 60.0f, serial);
  CHECK(scope.count() == 0);
  for (std::size_t i = 0; i < batch.size(); ++i) CHECK(batch.state(i).ok);
}

TEST_CASE("build_character_batch refuses characters not sized for its setup", "[runtime][batch]") {
  Crowd crowd(3);
  CharacterSetup no_rig = crowd.setup;
  no_rig.rig = nullptr;
  CHECK_FALSE(build_character_batch(no_rig, crowd.characters).ok());

  CharacterSetup more_events = crowd.setup;
  more_events.event_capacity = crowd.setup.event_capacity + 1;  // the characters' buffers are smaller
  const Result<CharacterBatch> bad = build_character_batch(more_events, crowd.characters);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message().find("character 0") != std::string::npos);

  crowd.characters[2].world.pop_back();
  const Result<CharacterBatch> short_world = build_character_batch(crowd.setup, crowd.characters);
  REQUIRE_FALSE(short_world.ok());
  CHECK(short_world.message().find("character 2") != std::string::npos);

  ControlDesc broken;
  broken.name = "Broken";
  IkSettings ik;
  ik.chain_root = "NoSuchPart";
  ik.end = "LeftHand";
  broken.settings = ik;
  const Result<CharacterBatch> bad_control = build_character_batch(crowd.setup, std::vector<ControlDesc>{broken}, 4);
  REQUIRE_FALSE(bad_control.ok());
  CHECK(bad_control.message().find("Broken") != std::string::npos);

  // An empty batch is valid and updates nothing.
  CharacterBatch empty = build_character_batch(crowd.setup, std::span<const Character>()).value();
  CHECK(empty.size() == 0);
  update_characters(crowd.setup, empty, 0.1f, [](std::size_t n, CharacterRange body) { body(0, n); });
}
