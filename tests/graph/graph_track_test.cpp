// A graph as one Animator track (rule GR15): priorities, weights and fades compose its pose
// with the other tracks by the animator's rules.
#include "graph/graph_support.hpp"

using namespace asterune;
using namespace asterune::test;

TEST_CASE("a graph plays as an Animator track (rule GR15)", "[graph][track]") {
  GraphFixture f;
  const int c = f.clip("turn", 40, 1.0f);
  GraphInstance g = f.build(c);
  Clip idle = const_clip("idle", {{"LowerTorso", axis_angle_deg(0.0f, {0, 1, 0})}});
  auto idle_binding = native_binding(idle, f.rig);
  TrackDesc graph_track;
  graph_track.name = "graph";
  graph_track.source = &g;
  graph_track.priority = TrackPriority::kAction;
  graph_track.weight = 0.5f;
  const std::vector<TrackDesc> tracks = {track("idle", idle, *idle_binding, TrackPriority::kCore), graph_track};
  Animator a = build_animator(f.rig, tracks);
  Out out(f.rig);
  REQUIRE(a.update(f.rig, 0.25f, out.local, out.coverage).ok);
  // Budget (rule AN4): Action takes 0.5, Core the remaining 0.5 -> half of 40 degrees.
  CHECK(yaw_deg(f.rig, out.local) == Approx(20.0f).margin(1e-3));
  // The graph advanced by the track's dt (speed 1).
  CHECK(g.node_time(c) == Approx(0.25f));
  a.adjust_speed(1, 2.0f);
  REQUIRE(a.update(f.rig, 0.125f, out.local, out.coverage).ok);
  CHECK(g.node_time(c) == Approx(0.5f));
  // Stopped and faded out: the graph is no longer advanced.
  a.stop(1, 0.0f);
  REQUIRE(a.update(f.rig, 0.125f, out.local, out.coverage).ok);
  REQUIRE(a.update(f.rig, 0.125f, out.local, out.coverage).ok);
  CHECK(yaw_deg(f.rig, out.local) == Approx(0.0f).margin(1e-4));
  const float t = g.node_time(c);
  REQUIRE(a.update(f.rig, 0.125f, out.local, out.coverage).ok);
  CHECK(g.node_time(c) == t);
  // Additive or root-motion graph tracks are refused with the track's name.
  graph_track.additive = true;
  auto bad = Animator::build(f.rig, std::vector<TrackDesc>{graph_track});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.message(), Catch::Matchers::Contains("'graph'"));
}
