// Characters and the batch update (update_characters): sizes, time keeping, bad input, no
// allocation per frame, and bit-identical results against one-by-one updates in any order and
// on 1 or 2 threads (the test the ThreadSanitizer preset runs for the batch API).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/controls/ground.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"
#include "runtime/crowd_fixture.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;

using test::Crowd;
using test::same;

namespace {

const float kFrameDt[] = {1.0f / 60.0f, 1.0f / 30.0f, 0.0f, 1.0f / 60.0f, 0.25f, 1.0f / 144.0f};

}  // namespace

TEST_CASE("batch update is bit-identical to one-by-one updates, in any order and on 1 or 2 threads",
          "[runtime][batch][concurrency]") {
  // rule RG2: the rig and bindings are shared read-only; every mutable thing is per character.
  Crowd reference(40);
  Crowd reversed(40);
  Crowd threaded(40);
  const auto serial_reverse = [](std::size_t n, CharacterRange body) {
    for (std::size_t i = n; i > 0; --i) body(i - 1, i);  // one character at a time, last first
  };
  const auto two_threads = [](std::size_t n, CharacterRange body) {
    // Interleaved chunks of 3 on two threads: neighbours run on different threads.
    std::thread other([&] {
      for (std::size_t b = 3; b < n; b += 6) body(b, std::min(n, b + 3));
    });
    for (std::size_t b = 0; b < n; b += 6) body(b, std::min(n, b + 3));
    other.join();
  };
  for (float dt : kFrameDt) {
    for (Character& c : reference.characters) REQUIRE(update_character(reference.setup, c, dt));
    update_characters(reversed.setup, reversed.characters, dt, serial_reverse);
    update_characters(threaded.setup, threaded.characters, dt, two_threads);
    for (size_t i = 0; i < reference.characters.size(); ++i) {
      INFO("character " << i << ", dt " << dt);
      CHECK(same(reference.characters[i], reversed.characters[i]));
      CHECK(same(reference.characters[i], threaded.characters[i]));
    }
  }
  // The characters really differ from each other (the comparison is not vacuous).
  CHECK_FALSE(same(reference.characters[1], reference.characters[2]));
  CHECK(reference.characters[5].stack.report(0).status == ControlStatus::kSolved);
  // The shared ground reached the feet controls (character 1 has one, on the slope).
  const ControlReport& feet = reference.characters[1].stack.report(2);
  REQUIRE(feet.feet.foot_count == 2);
  CHECK((feet.feet.feet[0].hit || feet.feet.feet[1].hit));  // the swinging legs may lift one out of reach
}

TEST_CASE("the setup's ground is what the characters' feet stand on", "[runtime]") {
  // rule G1: CharacterSetup::ground is passed to every character's stack; without it every
  // foot ray misses. On the slope (its surface at height -x tan 15deg under a foot at x), each
  // foot's ray ends on the plane.
  Crowd crowd(2);
  Character& c = crowd.characters[1];
  REQUIRE(update_character(crowd.setup, c, 1.0f / 60.0f));
  const ControlReport& on_slope = c.stack.report(2);
  REQUIRE(on_slope.feet.foot_count == 2);
  for (int f = 0; f < 2; ++f) {
    const FootReport& foot = on_slope.feet.feet[static_cast<size_t>(f)];
    CHECK(foot.hit);
    CHECK(foot.ray_end.y == Approx(-foot.ray_end.x * std::tan(0.2618f)).margin(1e-4));
  }
  CharacterSetup no_ground = crowd.setup;
  no_ground.ground = nullptr;
  REQUIRE(update_character(no_ground, c, 1.0f / 60.0f));
  for (int f = 0; f < 2; ++f) CHECK_FALSE(c.stack.report(2).feet.feet[static_cast<size_t>(f)].hit);
}

TEST_CASE("a batch frame allocates nothing", "[runtime][batch]") {
  // Per-frame path: no allocation (rule RG1).
  Crowd crowd(8);
  const auto serial = [](std::size_t n, CharacterRange body) { body(0, n); };
  update_characters(crowd.setup, crowd.characters, 1.0f / 60.0f, serial);
  test::AllocationScope scope;
  for (int f = 0; f < 5; ++f) update_characters(crowd.setup, crowd.characters, 1.0f / 60.0f, serial);
  CHECK(scope.count() == 0);
  for (const Character& c : crowd.characters) CHECK(c.ok);
}

TEST_CASE("character time: advances by rate * dt, wraps, holds on bad dt", "[runtime]") {
  Crowd crowd(1);
  Character& c = crowd.characters[0];
  c.time = 0.9f;
  c.playback_rate = 1.0f;
  REQUIRE(update_character(crowd.setup, c, 0.2f));
  CHECK(c.time == Approx(0.1f).margin(1e-5));
  for (float bad : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    const float before = c.time;
    REQUIRE(update_character(crowd.setup, c, bad));
    CHECK(c.time == before);
    for (const Transform& w : c.world) CHECK(is_finite(w));
  }
}

TEST_CASE("build_character refuses an incomplete or mismatched setup", "[runtime]") {
  Crowd crowd(0);
  CharacterSetup missing = crowd.setup;
  missing.clip = nullptr;
  CHECK_FALSE(build_character(missing, {}).ok());

  const Rig r6 = build_rig(*builtin_rig_desc("r6")).value();
  CharacterSetup other = crowd.setup;
  other.rig = &r6;  // the binding was made for R15
  const Result<Character> bad = build_character(other, {});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message().find("another rig") != std::string::npos);

  ControlDesc broken;
  broken.name = "Broken";
  IkSettings ik;
  ik.chain_root = "NoSuchPart";
  ik.end = "LeftHand";
  broken.settings = ik;
  const Result<Character> bad_control = build_character(crowd.setup, std::vector<ControlDesc>{broken});
  REQUIRE_FALSE(bad_control.ok());
  CHECK(bad_control.message().find("Broken") != std::string::npos);

  // A character updated against the wrong setup writes nothing and says so.
  Result<Character> c = build_character(crowd.setup, {});
  REQUIRE(c.ok());
  Character ch = std::move(c).value();
  CHECK_FALSE(update_character(other, ch, 0.1f));
  CHECK_FALSE(ch.ok);
}
