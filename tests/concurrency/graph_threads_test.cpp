// The graph speed goal's locomotion graph (support/locomotion_graph.hpp) as an Animator track
// gives the same bits on 1 thread and on 2 (rules GR13, RG2): two characters with their own
// graph instance and animator, sharing the rig, clips and bindings read-only, updated in turn on
// one thread and then each on its own std::thread. Short (60 frames) so the tsan run stays quick.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "support/locomotion_graph.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

constexpr int kFrames = 60;

/// One character: its instance, its animator and every frame's pose.
struct Walker {
  std::unique_ptr<GraphInstance> graph;
  Animator animator;
  std::vector<Transform> poses;
  bool ok = true;

  Walker(const LocomotionGraph& g, float speed, float move_x)
      : graph(g.instance()), animator(g.animator(*graph)) {
    ok = graph->set_number(graph->find_parameter("speed"), speed) &&
         graph->set_number(graph->find_parameter("move_x"), move_x);
    poses.resize(static_cast<size_t>(kFrames * g.rig().joint_count()));
  }
  void frame(const Rig& rig, int f) {
    const size_t n = static_cast<size_t>(rig.joint_count());
    std::span<Transform> local(poses.data() + static_cast<size_t>(f) * n, n);
    std::vector<float> coverage(n);  // the test's own buffers may allocate; the update does not
    ok = animator.update(rig, 1.0f / 60.0f, local, coverage).ok && ok;
  }
  void run(const Rig& rig) {
    for (int f = 0; f < kFrames; ++f) frame(rig, f);
  }
};

bool same_bits(const Walker& a, const Walker& b) {
  return a.poses.size() == b.poses.size() &&
         std::memcmp(a.poses.data(), b.poses.data(), a.poses.size() * sizeof(Transform)) == 0;
}

}  // namespace

TEST_CASE("locomotion graph tracks on 1 and 2 threads give the same bits (rules GR13, RG2)", "[graph][threads]") {
  const LocomotionGraph graph;
  const Rig& rig = graph.rig();
  Walker one_a(graph, 2.0f, 0.35f), one_b(graph, 4.2f, -0.5f);
  for (int f = 0; f < kFrames; ++f) {  // interleaved on this thread, as one worker would
    one_a.frame(rig, f);
    one_b.frame(rig, f);
  }
  Walker two_a(graph, 2.0f, 0.35f), two_b(graph, 4.2f, -0.5f);
  std::thread ta([&] { two_a.run(rig); });
  std::thread tb([&] { two_b.run(rig); });
  ta.join();
  tb.join();
  REQUIRE((one_a.ok && one_b.ok && two_a.ok && two_b.ok));
  CHECK(same_bits(one_a, two_a));
  CHECK(same_bits(one_b, two_b));
  // The two characters differ, so equal bits are not one pose copied everywhere.
  CHECK_FALSE(same_bits(one_a, one_b));
}
