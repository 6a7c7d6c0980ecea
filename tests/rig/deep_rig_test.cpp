// build_rig on very deep chains and on cycles behind long chains: the cycle check visits each
// joint once (a 200,000-joint chain used to take over a minute), and still drops exactly the
// joints on a cycle (rule R2).
#include <catch2/catch.hpp>

#include <string>

#include "asterune/rig/rig.hpp"

using namespace asterune;

namespace {

RigDesc chain(int joints) {
  RigDesc d;
  d.name = "chain";
  d.parts.reserve(static_cast<size_t>(joints) + 1);
  d.joints.reserve(static_cast<size_t>(joints));
  for (int i = 0; i <= joints; ++i) d.parts.push_back({"P" + std::to_string(i), "P" + std::to_string(i), {1, 1, 1}, {}});
  for (int i = 0; i < joints; ++i)
    d.joints.push_back({"J" + std::to_string(i), "P" + std::to_string(i), "P" + std::to_string(i + 1),
                        Transform::from_position({0, -1e-4f, 0}), Transform::identity(), true});
  return d;
}

}  // namespace

TEST_CASE("build_rig lays out a 200,000-joint chain (linear cycle check and layout)", "[rig][hostile]") {
  const Result<Rig> rig = build_rig(chain(200000));
  REQUIRE(rig.ok());
  CHECK(rig.value().joint_count() == 200000);
  CHECK(rig.value().dropped().empty());
  CHECK(rig.value().parent(199999) == 199998);
}

TEST_CASE("build_rig drops only the joints on a cycle, also at the end of a long chain", "[rig][hostile]") {
  // The chain P0 -> ... -> P1000, a loop C0 -> C1 -> C2 -> C0, and a tail T0 placed from C1:
  // walking up from T0 enters the loop, but T0's joint is not on it and stays.
  RigDesc d = chain(1000);
  for (const char* id : {"C0", "C1", "C2", "T0"}) d.parts.push_back({id, id, {1, 1, 1}, {}});
  const Transform c0 = Transform::from_position({0, -1, 0});
  d.joints.push_back({"L0", "C0", "C1", c0, Transform::identity(), true});
  d.joints.push_back({"L1", "C1", "C2", c0, Transform::identity(), true});
  d.joints.push_back({"L2", "C2", "C0", c0, Transform::identity(), true});
  d.joints.push_back({"Tail", "C1", "T0", c0, Transform::identity(), true});
  const Result<Rig> rig = build_rig(d);
  REQUIRE(rig.ok());
  int cycles = 0;
  for (const DroppedJoint& j : rig.value().dropped()) {
    CHECK(j.reason == DropReason::kCycle);
    CHECK((j.name == "L0" || j.name == "L1" || j.name == "L2"));
    ++cycles;
  }
  CHECK(cycles == 3);
  CHECK(rig.value().joint_count() == 1000 + 1);  // the chain and the tail
}
