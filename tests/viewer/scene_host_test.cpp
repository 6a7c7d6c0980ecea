// The viewer's SceneHost (examples/viewer/scene_host.cpp) without a window: a crowd of a scene
// with a graph track. Each character must play a graph of its own (rule GR13: instances share
// clips, never state), so every character's pose equals, bit for bit, the pose a host with one
// character computes: had the crowd shared one graph, it would advance once per character per
// frame and the characters would drift apart from the lone one.
#include <cstring>
#include <string>

#include <catch2/catch.hpp>

#include "scene_host.hpp"
#include "worker_pool.hpp"

namespace {

using namespace asterune;

const std::string kGraphScene = ASTERUNE_EXAMPLES_DIR "/locomotion.scene.json";

bool same_bits(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)) == 0;
}

}  // namespace

TEST_CASE("a crowd of a graph scene: every character plays its own graph, as one character alone does (rule GR13)") {
  viewer::WorkerPool pool(2);
  viewer::SceneHost alone(kGraphScene);
  viewer::SceneHost crowd(kGraphScene);
  REQUIRE(crowd.has_graphs());
  crowd.set_crowd(3);
  REQUIRE(crowd.characters().size() == 3);
  const float dt = crowd.scene().dt;
  for (int frame = 0; frame < 150; ++frame) {  // 1 s into the speed ramp that starts at 1.5 s
    alone.advance(dt, pool);
    crowd.advance(dt, pool);
  }
  const Character& solo = alone.characters().front();
  for (size_t i = 0; i < crowd.characters().size(); ++i) {
    INFO("character " << i);
    CHECK(same_bits(crowd.characters()[i].pose.local, solo.pose.local));
  }
  // Reset brings every graph back to its start: frame 0 again equals the lone host's frame 0.
  alone.reset();
  crowd.reset();
  alone.advance(dt, pool);
  crowd.advance(dt, pool);
  for (size_t i = 0; i < crowd.characters().size(); ++i) {
    INFO("after reset, character " << i);
    CHECK(same_bits(crowd.characters()[i].pose.local, alone.characters().front().pose.local));
  }
}
