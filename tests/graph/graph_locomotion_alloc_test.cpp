// The graph speed goal's locomotion graph (support/locomotion_graph.hpp, BM_GraphLocomotionR15)
// as an Animator track allocates nothing per update once built (rules GR13, GR15), while its
// parameters move, so every blend, sync and the Over/Add path run inside the counted scope.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/locomotion_graph.hpp"

using namespace asterune;
using namespace asterune::test;

TEST_CASE("the locomotion graph's animator updates allocate nothing (rules GR13, GR15)", "[graph][alloc]") {
  const LocomotionGraph graph;
  auto g = graph.instance();
  Animator a = graph.animator(*g);
  const GraphParameter speed = g->find_parameter("speed");
  const GraphParameter move_x = g->find_parameter("move_x");
  REQUIRE(speed.valid());
  REQUIRE(move_x.valid());
  std::vector<Transform> local(static_cast<size_t>(graph.rig().joint_count()));
  std::vector<float> coverage(local.size());
  std::vector<Transform> first(local.size());
  std::array<AnimEvent, 16> events;
  REQUIRE(a.update(graph.rig(), 1.0f / 60.0f, local, coverage, events).ok);  // setup's first frame
  first = local;

  AllocationScope scope;
  bool ok = true;
  for (int i = 0; i < 240; ++i) {
    ok = ok && g->set_number(speed, 1.0f + 0.02f * static_cast<float>(i));
    ok = ok && g->set_number(move_x, -0.8f + 0.007f * static_cast<float>(i));
    ok = ok && a.update(graph.rig(), 1.0f / 60.0f, local, coverage, events).ok;
  }
  const std::size_t allocations = scope.count();
  REQUIRE(ok);
  CHECK(allocations == 0);
  // The counter sees this thread's allocations (else 0 above proves nothing).
  AllocationScope probe;
  std::vector<int> one(3);
  CHECK(probe.count() >= 1);
  // The graph played: the pose moved away from the first frame's.
  CHECK(std::memcmp(first.data(), local.data(), local.size() * sizeof(Transform)) != 0);
}
