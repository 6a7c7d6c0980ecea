// Distance matching of graph Clip nodes (rules LO12-LO14): synthetic start and stop clips whose
// root (LowerTorso, the Root joint's part) moves at constant acceleration, so the travel and the
// remaining distance are known in closed form and the clip time each distance asks for is too.
#include <cmath>
#include <cstring>
#include <limits>

#include "graph/graph_support.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

// LowerTorso keyed every 1/60 s along -Z by x(t), `length` seconds.
template <class F>
int travelling_clip(GraphFixture& f, const std::string& id, float length, F x) {
  auto c = std::make_unique<Clip>();
  c->name = id;
  c->duration = length;
  ClipTrack t;
  t.name = "LowerTorso";
  const int keys = static_cast<int>(std::lround(length * 60.0f));
  for (int k = 0; k <= keys; ++k) {
    const float time = length * static_cast<float>(k) / static_cast<float>(keys);
    t.translation_times.push_back(time);
    t.translations.emplace_back(0.0f, 0.0f, -x(time));
  }
  t.rotation_times = {0.0f, length};
  t.rotations = {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)};
  c->tracks.push_back(std::move(t));
  f.bindings.push_back(native_binding(*c, f.rig));
  GraphNodeDesc n;
  n.id = id;
  n.type = GraphNodeType::kClip;
  n.clip = c.get();
  n.binding = f.bindings.back().get();
  n.play_mode = GraphPlayMode::kOnceAndHold;
  f.clips.push_back(std::move(c));
  return f.add(n);
}

// A stop: from 4 studs/s, decelerating at 4 studs/s^2, it comes to rest at T = 1 s after 2 studs
// and stands (a settle) until 1.5 s. Remaining distance d(t) = 2 (1 - t)^2, so t(d) = 1 - sqrt(d / 2).
float stop_x(float t) {
  const float u = std::min(t, 1.0f);
  return 4.0f * u - 2.0f * u * u;
}
float stop_time(float d) { return 1.0f - std::sqrt(d / 2.0f); }

// A start: standing 0.2 s (anticipation), then from rest at 2 studs/s^2 until 1.2 s (1 stud).
// Travelled D(t) = (t - 0.2)^2 after 0.2 s, so t(D) = 0.2 + sqrt(D).
float start_x(float t) {
  const float u = std::max(t - 0.2f, 0.0f);
  return u * u;
}

struct Setup {
  GraphFixture f;
  GraphInstance g;
  GraphParameter distance;
  int clip = -1;
};

void make(Setup& s, GraphDistanceMatching mode) {
  s.f.param("distance", GraphParameterType::kNumber, mode == GraphDistanceMatching::kStop ? 2.0f : 0.0f);
  s.clip = mode == GraphDistanceMatching::kStop ? travelling_clip(s.f, "stop", 1.5f, stop_x)
                                                : travelling_clip(s.f, "start", 1.2f, start_x);
  s.f.node(s.clip).distance_matching = mode;
  s.f.node(s.clip).distance = bound("distance");
  s.g = s.f.build(s.clip);
  s.distance = s.g.find_parameter("distance");
}

float time_at(Setup& s, float distance, float dt = 1.0f / 60.0f) {
  REQUIRE(s.g.set_number(s.distance, distance));
  step(s.f, s.g, dt);
  return s.g.node_time(s.clip);
}

}  // namespace

TEST_CASE("a stop clip's time is where its remaining root travel equals the distance (rule LO12)", "[graph][distance]") {
  Setup s;
  make(s, GraphDistanceMatching::kStop);
  // Closed form t(d) = 1 - sqrt(d / 2); the clock (1/60 s a frame) plays no part.
  for (const float d : {1.5f, 1.0f, 0.5f, 0.18f, 0.02f})
    CHECK(time_at(s, d) == Approx(stop_time(d)).margin(2e-3));
  // Reached (distance 0): the first instant of rest, T = 1 s, then the settle plays at the rate.
  CHECK(time_at(s, 0.0f, 0.0f) == Approx(1.0f).margin(2e-3));
  CHECK(time_at(s, 0.0f, 0.1f) == Approx(1.1f).margin(2e-3));
  // Never backwards: the goal moving away again does not rewind the stop.
  CHECK(time_at(s, 1.0f) == Approx(1.1f).margin(2e-3));
}

TEST_CASE("a start clip's time is where its root has travelled the distance; plateaus take their first instant "
          "(rules LO12, LO13)",
          "[graph][distance]") {
  Setup s;
  make(s, GraphDistanceMatching::kStart);
  // Not moved yet: the first instant of the standing plateau [0, 0.2], not its end.
  CHECK(time_at(s, 0.0f) == 0.0f);
  CHECK(time_at(s, 0.0f) == 0.0f);  // and it stays there however long the clock runs
  for (const float d : {0.04f, 0.25f, 0.49f, 0.81f}) CHECK(time_at(s, d) == Approx(0.2f + std::sqrt(d)).margin(2e-3));
  // Past the clip's whole travel (1 stud) it plays on at its rate to its end, then holds.
  CHECK(time_at(s, 5.0f, 0.0f) == Approx(1.2f).margin(1e-4));
  CHECK(s.g.node_cycles(s.clip) == 1);
}

TEST_CASE("a distance-matched clip's root motion is the distance given (rules LO12, GR16)", "[graph][distance]") {
  Setup s;
  make(s, GraphDistanceMatching::kStart);
  std::vector<Transform> local(static_cast<size_t>(s.f.rig.joint_count()));
  std::vector<float> coverage(local.size());
  REQUIRE(s.g.update(s.f.rig, 1.0f / 60.0f, local, coverage, {}, true).ok);
  float before = 0.0f;
  for (const float d : {0.1f, 0.3f, 0.35f, 0.7f}) {
    REQUIRE(s.g.set_number(s.distance, d));
    const GraphReport r = s.g.update(s.f.rig, 1.0f / 60.0f, local, coverage, {}, true);
    REQUIRE(r.ok);
    // The character moves (along -Z, the clip's travel) by what the game says it moved.
    CHECK(-r.root_step.position.z == Approx(d - before).margin(2e-3));
    CHECK(std::abs(r.root_step.position.x) < 1e-5f);
    before = d;
  }
}

TEST_CASE("a nonfinite distance is ignored and reported, the pose not poisoned (rule LO14)", "[graph][distance]") {
  Setup s;
  make(s, GraphDistanceMatching::kStop);
  const float held = time_at(s, 1.0f);
  // The setter refuses it and the distance keeps its value.
  CHECK_FALSE(s.g.set_number(s.distance, std::numeric_limits<float>::quiet_NaN()));
  CHECK_FALSE(s.g.set_number(s.distance, std::numeric_limits<float>::infinity()));
  CHECK(s.g.number(s.distance) == 1.0f);
  // A state that carries one anyway (a snapshot's bytes; the parameters come first after the
  // 16-byte header): the update holds the clip, counts it, and draws a finite pose.
  std::vector<std::byte> snap(s.g.snapshot_size());
  REQUIRE(s.g.snapshot(snap));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(snap.data() + 16, &nan, sizeof nan);
  REQUIRE(s.g.restore(snap));
  const Frame fr = step(s.f, s.g, 0.1f);
  CHECK(fr.report.ignored_values == 1);
  CHECK(s.g.node_time(s.clip) == held);
  for (const Transform& t : fr.local) {
    CHECK(std::isfinite(t.position.x + t.position.y + t.position.z));
    CHECK(std::isfinite(t.rotation.w + t.rotation.x + t.rotation.y + t.rotation.z));
  }
  // A good value again: matched as before.
  CHECK(time_at(s, 0.5f) == Approx(stop_time(0.5f)).margin(2e-3));
  CHECK(step(s.f, s.g, 0.0f).report.ignored_values == 0);
}

TEST_CASE("distance matching plays a start or stop once and forward (rule LO12)", "[graph][distance]") {
  {
    Setup s;
    s.f.param("distance", GraphParameterType::kNumber);
    s.clip = travelling_clip(s.f, "stop", 1.5f, stop_x);
    s.f.node(s.clip).distance_matching = GraphDistanceMatching::kStop;
    s.f.node(s.clip).play_mode = GraphPlayMode::kLoop;
    CHECK_THAT(s.f.error(s.clip), Catch::Matchers::Contains("graph node 'stop'") &&
                                      Catch::Matchers::Contains("play_mode must be OnceAndHold or OnceAndReset, not Loop"));
  }
  {
    Setup s;
    s.clip = travelling_clip(s.f, "stop", 1.5f, stop_x);
    s.f.node(s.clip).distance_matching = GraphDistanceMatching::kStop;
    s.f.node(s.clip).reverse.value = true;
    CHECK_THAT(s.f.error(s.clip), Catch::Matchers::Contains("reverse must be false"));
  }
  {
    Setup s;
    s.clip = travelling_clip(s.f, "stop", 1.5f, stop_x);
    s.f.node(s.clip).distance_matching = GraphDistanceMatching::kStart;
    s.f.node(s.clip).distance = bound("nowhere");
    CHECK_THAT(s.f.error(s.clip), Catch::Matchers::Contains("distance") && Catch::Matchers::Contains("'nowhere'"));
  }
}
