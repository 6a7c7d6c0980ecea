// Clip playback (rule GR2), phase sync (rule GR9) and event weights (rule GR11), against
// hand-derived times.
#include <cmath>

#include "graph/graph_support.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

float time_after(GraphPlayMode mode, bool reverse, int steps, float dt, float* cycles = nullptr) {
  GraphFixture f;
  const int c = f.clip("c", 0, 1.0f);
  f.node(c).play_mode = mode;
  f.node(c).reverse.value = reverse;
  GraphInstance g = f.build(c);
  for (int i = 0; i < steps; ++i) step(f, g, dt);
  if (cycles) *cycles = static_cast<float>(g.node_cycles(c));
  return g.node_time(c);
}

}  // namespace

TEST_CASE("Clip: play modes, reverse, speed and trim (rule GR2)", "[graph][clip]") {
  float cycles = 0;
  CHECK(time_after(GraphPlayMode::kLoop, false, 5, 0.25f, &cycles) == Approx(0.25f));
  CHECK(cycles == 1);
  CHECK(time_after(GraphPlayMode::kLoop, true, 1, 0.25f) == Approx(0.75f));
  // PingPong: there (1 s) and back; at 1.5 s it is halfway back.
  CHECK(time_after(GraphPlayMode::kPingPong, false, 6, 0.25f) == Approx(0.5f));
  CHECK(time_after(GraphPlayMode::kOnceAndHold, false, 6, 0.25f, &cycles) == Approx(1.0f));
  CHECK(cycles == 1);
  CHECK(time_after(GraphPlayMode::kOnceAndReset, false, 6, 0.25f, &cycles) == Approx(0.0f));
  CHECK(cycles == 1);
  CHECK(time_after(GraphPlayMode::kOnceAndHold, true, 6, 0.25f) == Approx(0.0f));

  // Trim [0.25, 0.75] at speed 2: 0.375 s moves 0.75 clip seconds = 1.5 laps of 0.5 -> 0.5.
  GraphFixture f;
  const int c = f.clip("c", 0, 1.0f, {{0.125f, "Out", "", ClipMarkerKind::kMarker}, {0.5f, "In", "", ClipMarkerKind::kMarker}});
  f.node(c).trim_start.value = 0.25f;
  f.node(c).trim_end.value = 0.75f;
  f.node(c).speed.value = 2.0f;
  GraphInstance g = f.build(c);
  int in = 0, out = 0;
  for (int i = 0; i < 3; ++i) {
    const Frame fr = step(f, g, 0.125f);
    for (const GraphEvent& e : fr.events) (e.name == "In" ? in : out) += 1;
  }
  CHECK(g.node_time(c) == Approx(0.5f));
  CHECK(g.node_phase(c) == Approx(0.5f));
  // Progress 0 -> 1.5 laps crosses the marker at progress 0.5 twice; the one outside never.
  CHECK(in == 2);
  CHECK(out == 0);
}

namespace {

struct Loco {
  GraphFixture f;
  int walk = -1, run = -1, blend = -1;
  GraphParameter pos;
};

GraphInstance loco(Loco& l, GraphPhaseSync sync, float position) {
  using M = ClipMarker;
  l.f.param("speed", GraphParameterType::kNumber, position);
  l.walk = l.f.clip("walk", 0, 1.0f, {M{0.1f, "Footstep", "Left", ClipMarkerKind::kMarker}, M{0.6f, "Footstep", "Right", ClipMarkerKind::kMarker}});
  l.run = l.f.clip("run", 20, 0.5f, {M{0.05f, "Footstep", "Left", ClipMarkerKind::kMarker}, M{0.3f, "Footstep", "Right", ClipMarkerKind::kMarker}});
  auto a = input(l.walk, "walk"), b = input(l.run, "run");
  a.position = 0.0f;
  b.position = 1.0f;
  GraphNodeDesc n = node_of("loco", GraphNodeType::kBlend1D, {a, b});
  n.position = bound("speed");
  n.phase_sync = sync;
  l.blend = l.f.add(n);
  GraphInstance g = l.f.build(l.blend);
  l.pos = g.find_parameter("speed");
  return g;
}

}  // namespace

TEST_CASE("Phase sync: Synced shares one phase over the weight-averaged duration (rule GR9)", "[graph][sync]") {
  Loco l;
  GraphInstance g = loco(l, GraphPhaseSync::kSynced, 0.5f);
  step(l.f, g, 0.3f);
  // D = 0.5 x 1 + 0.5 x 0.5 = 0.75 s; phase 0.3 / 0.75 = 0.4.
  CHECK(g.node_phase(l.blend) == Approx(0.4f));
  CHECK(g.node_time(l.walk) == Approx(0.4f));
  CHECK(g.node_time(l.run) == Approx(0.2f));
}

TEST_CASE("Phase sync: Unsynced plays each input at its own rate (rule GR9)", "[graph][sync]") {
  Loco l;
  GraphInstance g = loco(l, GraphPhaseSync::kUnsynced, 0.5f);
  step(l.f, g, 0.3f);
  step(l.f, g, 0.3f);
  CHECK(g.node_time(l.walk) == Approx(0.6f));
  CHECK(g.node_time(l.run) == Approx(0.1f));
}

TEST_CASE("Phase sync: Markers maps the follower between its matching footsteps (rule GR9)", "[graph][sync]") {
  Loco l;
  GraphInstance g = loco(l, GraphPhaseSync::kMarkers, 0.75f);  // run leads (0.75)
  step(l.f, g, 0.1f);
  // Run at 0.1: between Left 0.05 and Right 0.3 at f = 0.2 -> walk 0.1 + 0.2 x 0.5 = 0.2.
  CHECK(g.node_time(l.run) == Approx(0.1f));
  CHECK(g.node_time(l.walk) == Approx(0.2f));
  for (int i = 0; i < 3; ++i) step(l.f, g, 0.1f);
  // Run at 0.4: Right 0.3 -> Left 0.55 at f = 0.4 -> walk Right 0.6 -> Left 1.1: 0.8.
  CHECK(g.node_time(l.run) == Approx(0.4f).margin(1e-5));
  CHECK(g.node_time(l.walk) == Approx(0.8f).margin(1e-5));
}

TEST_CASE("Events: a blend passes its highest-weight input's, scaled (rule GR11)", "[graph][events]") {
  Loco l;
  GraphInstance g = loco(l, GraphPhaseSync::kUnsynced, 0.75f);
  Frame fr = step(l.f, g, 0.1f);  // run crosses Left at 0.05; walk crosses Left at 0.1 (silent)
  REQUIRE(fr.events.size() == 1);
  CHECK(fr.events[0].node == l.run);
  CHECK(fr.events[0].value == "Left");
  CHECK(fr.events[0].weight == Approx(0.75f));
  CHECK(fr.events[0].time == Approx(0.05f));
}

TEST_CASE("Events: Over passes base unchanged and over scaled by its weight (rule GR11)", "[graph][events]") {
  GraphFixture f;
  const int base = f.clip("base", 0, 1.0f, {{0.05f, "B", "", ClipMarkerKind::kMarker}});
  const int top = f.clip("top", 30, 1.0f, {{0.05f, "T", "", ClipMarkerKind::kMarker}});
  GraphNodeDesc o = node_of("over", GraphNodeType::kOver);
  o.base = base;
  o.over = top;
  o.weight.value = 0.4f;
  GraphInstance g = f.build(f.add(o));
  const Frame fr = step(f, g, 0.1f);
  REQUIRE(fr.events.size() == 2);
  CHECK(fr.events[0].name == "B");
  CHECK(fr.events[0].weight == 1.0f);
  CHECK(fr.events[1].name == "T");
  CHECK(fr.events[1].weight == Approx(0.4f));
  // Weight 0 silences (and does not advance the over branch).
  GraphFixture f2;
  const int b2 = f2.clip("base", 0);
  const int t2 = f2.clip("top", 30, 1.0f, {{0.05f, "T", "", ClipMarkerKind::kMarker}});
  GraphNodeDesc o2 = node_of("over", GraphNodeType::kOver);
  o2.base = b2;
  o2.over = t2;
  o2.weight.value = 0.0f;
  GraphInstance g2 = f2.build(f2.add(o2));
  CHECK(step(f2, g2, 0.1f).events.empty());
  CHECK(g2.node_weight(t2) == 0.0f);
}

TEST_CASE("Markers sync keeps footsteps alternating across a walk-to-run ramp (rule GR9)", "[graph][sync]") {
  Loco l;
  GraphInstance g = loco(l, GraphPhaseSync::kMarkers, 0.0f);
  std::vector<std::string> steps;
  for (int i = 0; i < 180; ++i) {
    REQUIRE(g.set_number(l.pos, static_cast<float>(i) / 90.0f));  // 0 -> 2 (the run's side)
    for (const GraphEvent& e : step(l.f, g, 1.0f / 30.0f).events) steps.emplace_back(e.value);
  }
  REQUIRE(steps.size() > 8);
  int repeats = 0;
  for (size_t k = 1; k < steps.size(); ++k) repeats += steps[k] == steps[k - 1] ? 1 : 0;
  CHECK(repeats == 0);
}

TEST_CASE("Markers sync keeps a follower of two strides on its own stride when the leader crosses a marker first (rule GR9)",
          "[graph][sync]") {
  // The leader (1 s) steps Right at 0 and Left at 0.5; the follower (1 s) takes two strides a
  // loop, Right 0 / Left 0.25 / Right 0.5 / Left 0.75, so each pair of values occurs twice in it.
  // Mapped, the follower moves half as fast as the leader, 0.025 s per 0.05 s step, always
  // forward; a jump to the other Right -> Left pair would move it by about 0.5 s.
  using M = ClipMarker;
  GraphFixture f;
  f.param("speed", GraphParameterType::kNumber, 0.25f);
  const int lead = f.clip("lead", 0, 1.0f, {M{0.0f, "Footstep", "Right", ClipMarkerKind::kMarker},
                                            M{0.5f, "Footstep", "Left", ClipMarkerKind::kMarker}});
  const int follow = f.clip("follow", 20, 1.0f, {M{0.0f, "Footstep", "Right", ClipMarkerKind::kMarker},
                                                 M{0.25f, "Footstep", "Left", ClipMarkerKind::kMarker},
                                                 M{0.5f, "Footstep", "Right", ClipMarkerKind::kMarker},
                                                 M{0.75f, "Footstep", "Left", ClipMarkerKind::kMarker}});
  auto a = input(lead, "lead"), b = input(follow, "follow");
  a.position = 0.0f;
  b.position = 1.0f;
  GraphNodeDesc n = node_of("blend", GraphNodeType::kBlend1D, {a, b});
  n.position = bound("speed");
  n.phase_sync = GraphPhaseSync::kMarkers;
  GraphInstance g = f.build(f.add(n));  // the lead has weight 0.75: it leads
  step(f, g, 0.05f);
  float before = g.node_time(follow);
  for (int i = 0; i < 80; ++i) {  // four of the leader's loops
    step(f, g, 0.05f);
    const float now = g.node_time(follow);
    float moved = now - before;
    if (moved < -0.5f) moved += 1.0f;  // the follower's own loop
    INFO("step " << i << ": leader " << g.node_time(lead) << ", follower " << before << " -> " << now);
    CHECK(moved == Approx(0.025f).margin(1e-4));
    before = now;
  }
}
