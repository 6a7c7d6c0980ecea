// A CharacterBatch updated through the benchmarks' persistent pool (bench/worker_pool.hpp: the
// caller plus workers taking chunks from one counter) gives the same bits on 1, 2 and 3 threads,
// frame after frame with the pool kept between frames (rules RG2, RG6). The tsan preset runs this
// test under ThreadSanitizer, which also checks the pool's hand-over between frames.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "../../bench/worker_pool.hpp"
#include "asterune/runtime/character_batch.hpp"
#include "runtime/crowd_fixture.hpp"

using namespace asterune;

namespace {

// Field by field: CharacterState ends in padding after `ok`, whose bytes nothing defines.
bool same_state(const CharacterState& x, const CharacterState& y) {
  auto bits_of = [](const auto& u, const auto& v) { return std::memcmp(&u, &v, sizeof(u)) == 0; };
  return bits_of(x.root, y.root) && bits_of(x.time, y.time) && bits_of(x.playback_rate, y.playback_rate) &&
         bits_of(x.scene_time, y.scene_time) && bits_of(x.root_delta, y.root_delta) &&
         x.event_count == y.event_count && x.events_dropped == y.events_dropped && x.ok == y.ok;
}

bool same_results(const CharacterBatch& a, const CharacterBatch& b, std::size_t i) {
  auto bits = [](auto x, auto y) { return std::memcmp(x.data(), y.data(), x.size_bytes()) == 0; };
  return bits(a.local(i), b.local(i)) && bits(a.coverage(i), b.coverage(i)) && bits(a.world(i), b.world(i)) &&
         same_state(a.state(i), b.state(i));
}

}  // namespace

TEST_CASE("a character batch on a persistent pool gives the same bits on 1, 2 and 3 threads",
          "[concurrency][runtime][batch]") {
  test::Crowd one(48), two(48), three(48);
  CharacterBatch serial = build_character_batch(one.setup, one.characters).value();
  CharacterBatch pooled2 = build_character_batch(two.setup, two.characters).value();
  CharacterBatch pooled3 = build_character_batch(three.setup, three.characters).value();
  // Small chunks, so that neighbouring characters run on different threads.
  bench::WorkerPool pool2(2, 5);
  bench::WorkerPool pool3(3, 3);
  REQUIRE(pool2.threads() == 2);
  const auto by_one = [](std::size_t n, CharacterRange body) { body(0, n); };
  const auto by_two = [&pool2](std::size_t n, CharacterRange body) { pool2(n, body); };
  const auto by_three = [&pool3](std::size_t n, CharacterRange body) { pool3(n, body); };
  for (int frame = 0; frame < 12; ++frame) {
    const float dt = frame % 4 == 3 ? 1.0f / 30.0f : 1.0f / 60.0f;
    update_characters(one.setup, serial, dt, by_one);
    update_characters(two.setup, pooled2, dt, by_two);
    update_characters(three.setup, pooled3, dt, by_three);
    for (std::size_t i = 0; i < serial.size(); ++i) {
      INFO("character " << i << ", frame " << frame);
      REQUIRE(serial.state(i).ok);
      CHECK(same_results(serial, pooled2, i));
      CHECK(same_results(serial, pooled3, i));
    }
  }
  // Not vacuous: neighbouring characters differ.
  CHECK(std::memcmp(serial.world(0).data(), serial.world(1).data(), serial.world(0).size_bytes()) != 0);
}
