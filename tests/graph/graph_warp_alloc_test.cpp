// The warp speed goal's graph (support/warp_graph.hpp, BM_LocomotionWarpR15) as an Animator track
// allocates nothing per update once built (rules LO9, GR13), while its speed and direction move
// across the clamp and the 90-degree limit, so both warps' whole paths run inside the counted scope.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/warp_graph.hpp"

using namespace asterune;
using namespace asterune::test;

TEST_CASE("the warp graph's animator updates allocate nothing (rules LO9, GR13)", "[graph][warp][alloc]") {
  const WarpGraph graph;
  auto g = graph.instance();
  Animator a = graph.animator(*g);
  const GraphParameter speed = g->find_parameter("speed");
  const GraphParameter direction = g->find_parameter("direction");
  REQUIRE(speed.valid());
  REQUIRE(direction.valid());
  std::vector<Transform> local(static_cast<size_t>(graph.rig().joint_count()));
  std::vector<float> coverage(local.size());
  std::array<AnimEvent, 16> events;
  REQUIRE(a.update(graph.rig(), 1.0f / 60.0f, local, coverage, events).ok);  // setup's first frame

  AllocationScope scope;
  bool ok = true;
  float drop = 0.0f;
  for (int i = 0; i < 240; ++i) {
    ok = ok && g->set_number(speed, 0.2f + 0.03f * static_cast<float>(i));         // 0.2 .. 7.4 studs/s
    ok = ok && g->set_number(direction, -2.0f + 0.017f * static_cast<float>(i));  // beyond -+90 degrees
    ok = ok && a.update(graph.rig(), 1.0f / 60.0f, local, coverage, events).ok;
    drop = std::max(drop, g->warp_report(1).pelvis_drop);
  }
  const std::size_t allocations = scope.count();
  REQUIRE(ok);
  CHECK(allocations == 0);
  CHECK(drop > 0.0f);  // the long strides lowered the pelvis: the leg solve ran inside the scope
  CHECK(g->warp_report(1).clamped);
  CHECK(g->warp_report(2).lower_body_yaw > 0.0f);
}
