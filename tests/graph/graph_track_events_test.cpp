// A graph track's marker events through the Animator (rule AN12): each carries the graph's
// event weight (rule GR11) times the track's effective weight, the Clip node, and its place in
// the step's time order among the other tracks' events (rule AN7).
#include "graph/graph_support.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

ClipMarker footstep(float time, const std::string& side) { return ClipMarker{time, "Footstep", side, ClipMarkerKind::kMarker}; }

// Blend1D of walk (position 0, a Left step at 0.5 s) and run (position 1, a Right step at
// 0.25 s), each 1 s, unsynced, at position 0.75: weights walk 0.25, run 0.75.
struct EventGraph {
  GraphFixture f;
  int walk = -1, run = -1, loco = -1;
  GraphInstance g;
  EventGraph() {
    walk = f.clip("walk", 10.0f, 1.0f, {footstep(0.5f, "Left")});
    run = f.clip("run", 30.0f, 1.0f, {footstep(0.25f, "Right")});
    GraphInputDesc a = input(walk), b = input(run);
    a.position = 0.0f;
    b.position = 1.0f;
    GraphNodeDesc n = node_of("loco", GraphNodeType::kBlend1D, {a, b});
    n.position = GraphNumber{0.75f, {}};
    n.phase_sync = GraphPhaseSync::kUnsynced;
    loco = f.add(n);
    g = f.build(loco);
  }
};

}  // namespace

TEST_CASE("a graph track reports its marker events with weight and node (rule AN12)", "[graph][track][events]") {
  EventGraph eg;
  GraphFixture& f = eg.f;
  // An idle clip track below on LowerTorso only, with a marker at 0.1 s.
  Clip idle = const_clip("idle", {{"LowerTorso", axis_angle_deg(0.0f, {0, 1, 0})}});
  idle.markers = {ClipMarker{0.1f, "Breath", "in", ClipMarkerKind::kMarker}};
  auto idle_binding = native_binding(idle, f.rig);
  TrackDesc graph_track;
  graph_track.name = "graph";
  graph_track.source = &eg.g;
  graph_track.priority = TrackPriority::kAction;
  graph_track.weight = 0.5f;
  const std::vector<TrackDesc> tracks = {track("idle", idle, *idle_binding, TrackPriority::kCore), graph_track};
  Animator a = build_animator(f.rig, tracks);
  Out out(f.rig);
  std::vector<AnimEvent> events(8);
  const AnimatorReport r = a.update(f.rig, 0.6f, out.local, out.coverage, events);
  REQUIRE(r.ok);
  REQUIRE(r.events_written == 2);
  CHECK(r.events_dropped == 0);
  // In step order: idle's marker at 0.1 s of 0.6 s, then run's at 0.25 s (walk's 0.5 s step is
  // not passed: only the highest-weight input's events pass, rule GR11).
  const AnimEvent& e0 = events[0];
  CHECK(e0.track == 0);
  CHECK(e0.name == "Breath");
  CHECK(e0.node == -1);
  // Idle's effective weight: the graph (Action, 0.5 x coverage 1) leaves it 0.5 of LowerTorso,
  // the only joint idle covers.
  CHECK(e0.weight == Approx(0.5f));
  const AnimEvent& e1 = events[1];
  CHECK(e1.track == 1);
  CHECK(e1.kind == AnimEventKind::kMarker);
  CHECK(e1.name == "Footstep");
  CHECK(e1.value == "Right");
  CHECK(e1.time == Approx(0.25f));
  CHECK(e1.node == eg.run);
  // Graph weight 0.75 (run's blend weight) x the track's effective weight 0.5 (Action's claim
  // on the joints the graph covers).
  CHECK(e1.weight == Approx(0.375f));

  // The next 0.5 s: run passes no marker (0.6 -> 1.1 s; its step is at 1.25 s) and the graph
  // track reports no 1 s stand-in laps; idle wraps at 1.0 s (0.8 of the step), then crosses
  // its marker again at 1.1 s (the step's end).
  const AnimatorReport r2 = a.update(f.rig, 0.5f, out.local, out.coverage, events);
  REQUIRE(r2.ok);
  REQUIRE(r2.events_written == 2);
  CHECK(events[0].track == 0);
  CHECK(events[0].kind == AnimEventKind::kLooped);
  CHECK(events[1].track == 0);
  CHECK(events[1].name == "Breath");
}

TEST_CASE("a lone graph track's events carry the graph's weights and a full buffer counts them (rule AN12)",
          "[graph][track][events]") {
  EventGraph eg;
  GraphFixture& f = eg.f;
  // Position 0.25: walk leads with 0.75; its Left step at 0.5 s in a 0.6 s step.
  f.desc.nodes[static_cast<size_t>(eg.loco)].position = GraphNumber{0.25f, {}};
  GraphInstance g = f.build(eg.loco);
  TrackDesc graph_track;
  graph_track.name = "graph";
  graph_track.source = &g;
  Animator a = build_animator(f.rig, {graph_track});
  Out out(f.rig);
  std::vector<AnimEvent> events(4);
  const AnimatorReport r = a.update(f.rig, 0.6f, out.local, out.coverage, events);
  REQUIRE(r.events_written == 1);
  // The lone track at weight 1 passes its sample (rule AN10): effective weight = coverage 1.
  CHECK(events[0].node == eg.walk);
  CHECK(events[0].value == "Left");
  CHECK(events[0].weight == Approx(0.75f));
  // Two laps of walk in one step (0.6 -> 2.6 s: Left at 1.5 and 2.5), a buffer of one: one
  // written, one counted.
  std::vector<AnimEvent> one(1);
  const AnimatorReport r2 = a.update(f.rig, 2.0f, out.local, out.coverage, one);
  CHECK(r2.events_written == 1);
  CHECK(r2.events_dropped == 1);
  CHECK(one[0].time == Approx(0.5f));
}
