// Targets far beyond any rig (rule IK1 on hostile numbers): the arm points at the target, the
// pose stays finite and the residual is the real (finite) distance, not inf from an overflowing
// glm::length (targets past ~1.8e19 used to report inf while the status said solved).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "asterune/rig/builtin.hpp"
#include "control_helpers.hpp"

using namespace asterune;

TEST_CASE("IK toward targets at 2e19 and FLT_MAX reports a finite residual for every solver", "[controls][hostile]") {
  const Rig rig = std::move(build_rig(*builtin_rig_desc("r15")).value());
  const float big = std::numeric_limits<float>::max();
  for (IkSolver solver : {IkSolver::kTwoBone, IkSolver::kFabrik, IkSolver::kCcd}) {
    for (const glm::vec3 target : {glm::vec3(-2e19f, 3.0f, 0.0f), glm::vec3(-big, big, -big)}) {
      ControlDesc d = test::left_arm(target);
      std::get<IkSettings>(d.settings).solver = solver;
      auto stack = ControlStack::build(rig, std::vector<ControlDesc>{d});
      REQUIRE(stack.ok());
      Pose pose = make_pose(rig);
      std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));
      stack.value().update(rig, StackFrame{Transform::from_position({0, 3, 0}), 1.0f / 60.0f, 0.0f}, pose, world);
      const ControlReport& r = stack.value().report(0);
      INFO("solver " << static_cast<int>(solver) << " target " << target.x);
      CHECK(r.status == ControlStatus::kSolved);
      CHECK_FALSE(r.reached);
      CHECK(std::isfinite(r.distance));
      CHECK(r.distance >= 1e19f);  // the hand is within a few studs of the shoulder
      for (const Transform& t : pose.local) CHECK(is_finite(t));
      for (const Transform& w : world) CHECK(is_finite(w));
    }
  }
}
