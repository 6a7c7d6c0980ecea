// A Clip node's markers at its loop seam (rule AN17 with GR11): a Loop's end and start are one
// instant, a PingPong's turns are one instant each, so a marker there is reported once.
#include <string>

#include "graph/graph_support.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

ClipMarker step(float time, const std::string& side) { return ClipMarker{time, "Footstep", side, ClipMarkerKind::kMarker}; }

// The marker values (first letters) the node reports over `frames` steps of 0.05 s.
std::string run(GraphPlayMode mode, std::vector<ClipMarker> markers, int frames) {
  GraphFixture f;
  const int walk = f.clip("walk", 10.0f, 1.0f, std::move(markers));
  f.node(walk).play_mode = mode;
  GraphInstance g = f.build(walk);
  std::vector<Transform> local(static_cast<size_t>(f.rig.joint_count()));
  std::vector<float> cov(local.size());
  std::vector<GraphEvent> events(8);
  std::string out;
  g.update(f.rig, 0.0f, local, cov, events);
  for (int i = 0; i < frames; ++i) {
    const GraphReport r = g.update(f.rig, 0.05f, local, cov, events);
    REQUIRE(r.ok);
    for (int e = 0; e < r.events_written; ++e) out += events[static_cast<size_t>(e)].value.substr(0, 1);
  }
  return out;
}

}  // namespace

TEST_CASE("a Loop's seam twin is reported once a lap (rule AN17)", "[graph][events]") {
  // Right at 0 and at 1 s (one contact across the seam), Left at 0.5 s; 3 s of play.
  CHECK(run(GraphPlayMode::kLoop, {step(0.0f, "Right"), step(0.5f, "Left"), step(1.0f, "Right")}, 60) == "LRLRLR");
  // Without the twin at 0 the marker at the end is the lap's only Right and stays.
  CHECK(run(GraphPlayMode::kLoop, {step(0.5f, "Left"), step(1.0f, "Right")}, 60) == "LRLRLR");
}

TEST_CASE("a PingPong's turns are reported once each (rule AN17)", "[graph][events]") {
  // 1 s each way: Right at the far turn (1, 3 s), Left at the near turn (2, 4 s); 4.25 s of play.
  CHECK(run(GraphPlayMode::kPingPong, {step(0.0f, "Left"), step(1.0f, "Right")}, 85) == "RLRL");
  // A marker inside the clip is met on the way out and on the way back (0.5, 1.5, 2.5, 3.5 s).
  CHECK(run(GraphPlayMode::kPingPong, {step(0.5f, "Mid")}, 85) == "MMMM");
}
