// Joint limits: hinge and ball-socket clamps (hand-derived) and limits honoured inside FABRIK
// and CCD with the residual reported when a limit stops the chain (rule IK8).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "asterune/solvers/ccd.hpp"
#include "asterune/solvers/fabrik.hpp"
#include "asterune/solvers/joint_limits.hpp"
#include "chain_test_util.hpp"

using namespace asterune;
using namespace asterune::test;

TEST_CASE("limits: hinge clamps to the nearer end and drops the swing (rule IK8)") {
  const JointLimit h = JointLimit::hinge({0, 0, 1}, glm::radians(-30.0f), glm::radians(30.0f));
  CHECK(same_rotation(clamp_to_limit(h, axis_angle_deg(50, {0, 0, 1})), axis_angle_deg(30, {0, 0, 1}), 1e-6f));
  CHECK(same_rotation(clamp_to_limit(h, axis_angle_deg(-50, {0, 0, 1})), axis_angle_deg(-30, {0, 0, 1}), 1e-6f));
  CHECK(same_rotation(clamp_to_limit(h, axis_angle_deg(10, {0, 0, 1})), axis_angle_deg(10, {0, 0, 1}), 1e-6f));
  // -170 is 140 from -30 and 160 from +30 (the short way round): -30 wins.
  CHECK(same_rotation(clamp_to_limit(h, axis_angle_deg(-170, {0, 0, 1})), axis_angle_deg(-30, {0, 0, 1}), 1e-6f));
  // +170 is 140 from +30 and 160 from -30: +30 wins.
  CHECK(same_rotation(clamp_to_limit(h, axis_angle_deg(170, {0, 0, 1})), axis_angle_deg(30, {0, 0, 1}), 1e-6f));
  // A swing about X on top of a 10-degree hinge turn is removed.
  CHECK(same_rotation(clamp_to_limit(h, axis_angle_deg(20, {1, 0, 0}) * axis_angle_deg(10, {0, 0, 1})), axis_angle_deg(10, {0, 0, 1}), 1e-6f));
  CHECK(within_limit(h, axis_angle_deg(29.9f, {0, 0, 1})));
  CHECK_FALSE(within_limit(h, axis_angle_deg(31, {0, 0, 1})));
  CHECK_FALSE(within_limit(h, axis_angle_deg(5, {1, 0, 0})));
}

TEST_CASE("limits: ball-socket shortens the swing to the cone and clamps the twist (rule IK8)") {
  const JointLimit b = JointLimit::ball_socket({0, 1, 0}, glm::radians(45.0f), glm::radians(-10.0f), glm::radians(10.0f));
  CHECK(same_rotation(clamp_to_limit(b, axis_angle_deg(60, {1, 0, 0})), axis_angle_deg(45, {1, 0, 0}), 1e-6f));
  CHECK(same_rotation(clamp_to_limit(b, axis_angle_deg(30, {1, 0, 1})), axis_angle_deg(30, {1, 0, 1}), 1e-6f));
  // swing 30 about X, twist 50 about Y -> twist clamped to 10.
  CHECK(same_rotation(clamp_to_limit(b, axis_angle_deg(30, {1, 0, 0}) * axis_angle_deg(50, {0, 1, 0})), axis_angle_deg(30, {1, 0, 0}) * axis_angle_deg(10, {0, 1, 0}), 1e-6f));
  // The cone bounds where the axis can point: the clamped axis is 45 deg from rest.
  const glm::quat c = clamp_to_limit(b, axis_angle_deg(120, {1, 0, 1}) * axis_angle_deg(-40, {0, 1, 0}));
  CHECK(angle_deg(c * glm::vec3(0, 1, 0), glm::vec3(0, 1, 0)) == Approx(45.0f).margin(1e-3));
  CHECK(within_limit(b, c));
  CHECK_FALSE(within_limit(b, axis_angle_deg(50, {0, 0, 1})));
  // None passes anything through.
  const JointLimit none;
  CHECK(same_rotation(clamp_to_limit(none, axis_angle_deg(170, {1, 2, 3})), axis_angle_deg(170, {1, 2, 3}), 1e-6f));
}

namespace {

// A planar 3-segment chain along +X at rest: every part's world orientation is identity, so
// each rest-local orientation is identity and the rest-relative rotation of part i is
// inverse(solved parent) * solved part.
struct PlanarChain {
  std::array<glm::vec3, 4> points = {glm::vec3(0, 0, 0), glm::vec3(1, 0, 0), glm::vec3(2, 0, 0), glm::vec3(3, 0, 0)};
  std::array<glm::quat, 3> orientations{glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)};
  std::array<glm::quat, 3> rest_local{glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)};
  std::array<JointLimit, 3> limits;
  ChainLimits view() const { return ChainLimits{orientations, rest_local, glm::quat(1, 0, 0, 0), limits}; }
};

// Solved world orientations rebuilt from the deltas (point_chain.hpp convention), then each joint's
// rest-relative rotation checked against its limit.
bool limits_respected(const PlanarChain& c, std::span<const glm::quat> deltas, float tol_deg) {
  glm::quat acc(1, 0, 0, 0);
  glm::quat parent(1, 0, 0, 0);
  for (std::size_t i = 0; i < deltas.size(); ++i) {
    acc = deltas[i] * acc;
    const glm::quat part = acc * c.orientations[i];
    const glm::quat rel = glm::conjugate(parent * c.rest_local[i]) * part;
    if (!within_limit(c.limits[i], rel, glm::radians(tol_deg))) return false;
    parent = part;
  }
  return true;
}

template <class Solve>
void check_hinge_chain(Solve solve) {
  PlanarChain c;
  for (auto& l : c.limits) l = JointLimit::hinge({0, 0, 1}, glm::radians(-45.0f), glm::radians(45.0f));
  const ChainLimits lim = c.view();
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  SECTION("a target inside the limits is reached with every hinge in range") {
    // Forward kinematics of hinge angles 30, 20, -25 degrees (all inside +-45): segment
    // directions at 30, 50 and 25 degrees in the XY plane.
    ChainGoal goal;
    const auto dir = [](float deg) { return glm::vec3(std::cos(glm::radians(deg)), std::sin(glm::radians(deg)), 0.0f); };
    goal.target = dir(30) + dir(50) + dir(25);
    const SolveReport r = solve(c.points, goal, out, deltas, ChainSettings{}, &lim);
    CHECK(r.reached);
    CHECK(limits_respected(c, deltas, 0.01f));
    CHECK(max_length_error(c.points, out) < 1e-5f);
    CHECK(delta_rebuild_error(c.points, out, deltas) < 1e-4f);
  }
  SECTION("a target behind the root needs more than 3 x 45 degrees: stopped, reported") {
    ChainGoal goal;
    goal.target = {-0.5f, -0.2f, 0.0f};
    const SolveReport r = solve(c.points, goal, out, deltas, ChainSettings{}, &lim);
    CHECK_FALSE(r.reached);
    CHECK(r.clamped);
    CHECK(r.residual == Approx(glm::length(out[3] - goal.target)).margin(1e-5));
    CHECK(r.residual > 0.1f);
    CHECK(limits_respected(c, deltas, 0.01f));
    CHECK(max_length_error(c.points, out) < 1e-5f);
    CHECK(delta_rebuild_error(c.points, out, deltas) < 1e-4f);
  }
  SECTION("hinges about Z keep the chain in its plane: an off-plane target leaves a residual >= its height") {
    ChainGoal goal;
    goal.target = {1.5f, 0.5f, 0.8f};
    const SolveReport r = solve(c.points, goal, out, deltas, ChainSettings{}, &lim);
    for (const auto& p : out) CHECK(std::fabs(p.z) < 1e-4f);
    CHECK(r.residual >= 0.8f - 1e-4f);
    CHECK(r.clamped);
    CHECK(limits_respected(c, deltas, 0.01f));
  }
}

template <class Solve>
void check_ball_chain(Solve solve) {
  PlanarChain c;
  for (auto& l : c.limits) l = JointLimit::ball_socket({1, 0, 0}, glm::radians(20.0f), glm::radians(-5.0f), glm::radians(5.0f));
  const ChainLimits lim = c.view();
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  for (const glm::vec3 t : {glm::vec3(2.5f, 1.0f, 0.5f), glm::vec3(1.0f, -1.5f, 1.0f), glm::vec3(-1, 0, 0)}) {
    ChainGoal goal;
    goal.target = t;
    const SolveReport r = solve(c.points, goal, out, deltas, ChainSettings{}, &lim);
    INFO("target " << t.x << " " << t.y << " " << t.z);
    CHECK(limits_respected(c, deltas, 0.01f));
    CHECK(max_length_error(c.points, out) < 1e-5f);
    CHECK(r.residual == Approx(glm::length(out[3] - t)).margin(1e-5));
    if (!r.reached) CHECK(r.clamped);
  }
  // 3 x 20 degrees cannot bend the chain back: the endpoint stays in front of the root.
  ChainGoal behind;
  behind.target = {-1, 0, 0};
  const SolveReport r = solve(c.points, behind, out, deltas, ChainSettings{}, &lim);
  CHECK_FALSE(r.reached);
  CHECK(out[3].x > 1.0f);
}

}  // namespace

TEST_CASE("limits: FABRIK honours hinge limits and reports the residual when they stop it (rule IK4, IK8)") {
  check_hinge_chain([](auto&&... a) { return solve_fabrik(a...); });
}
TEST_CASE("limits: CCD honours hinge limits and reports the residual when they stop it (rule IK6, IK8)") {
  check_hinge_chain([](auto&&... a) { return solve_ccd(a...); });
}
TEST_CASE("limits: FABRIK honours ball-socket cones and twist (rule IK8)") {
  check_ball_chain([](auto&&... a) { return solve_fabrik(a...); });
}
TEST_CASE("limits: CCD honours ball-socket cones and twist (rule IK8)") {
  check_ball_chain([](auto&&... a) { return solve_ccd(a...); });
}

TEST_CASE("limits: rest frames follow the parent (a rotated chain root does not change what is allowed)") {
  // The same planar chain rotated 90 degrees about +Y as a whole (root parent, parts and
  // points): a target rotated the same way is solved the same way, so the limits are
  // measured relative to the parent, not the world.
  PlanarChain c;
  for (auto& l : c.limits) l = JointLimit::hinge({0, 0, 1}, glm::radians(-45.0f), glm::radians(45.0f));
  const glm::quat turn = axis_angle_deg(90, {0, 1, 0});
  PlanarChain d = c;
  for (auto& p : d.points) p = turn * p;
  for (auto& o : d.orientations) o = turn * o;
  const ChainLimits lc = c.view();
  ChainLimits ld = d.view();
  ld.root_parent = turn;
  std::array<glm::vec3, 4> out_c{}, out_d{};
  std::array<glm::quat, 3> del_c{}, del_d{};
  ChainGoal gc, gd;
  gc.target = {-0.5f, -0.2f, 0.0f};
  gd.target = turn * gc.target;
  const SolveReport rc = solve_fabrik(c.points, gc, out_c, del_c, ChainSettings{}, &lc);
  const SolveReport rd = solve_fabrik(d.points, gd, out_d, del_d, ChainSettings{}, &ld);
  CHECK(rc.residual == Approx(rd.residual).margin(1e-4));
  for (std::size_t i = 0; i < 4; ++i) CHECK(glm::length(turn * out_c[i] - out_d[i]) < 1e-4f);
}

#include "support/alloc_counter.hpp"

TEST_CASE("limits: limited FABRIK and CCD allocate nothing") {
  PlanarChain c;
  for (auto& l : c.limits) l = JointLimit::ball_socket({1, 0, 0}, glm::radians(30.0f), glm::radians(-5.0f), glm::radians(5.0f));
  const ChainLimits lim = c.view();
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  ChainGoal goal;
  goal.has_pole = true;
  goal.pole = {1, 3, 2};
  float sink = 0.0f;
  asterune::test::AllocationScope scope;
  for (int i = 0; i < 20; ++i) {
    goal.target = {2.0f, 0.1f * static_cast<float>(i), 0.5f};
    sink += solve_fabrik(c.points, goal, out, deltas, ChainSettings{}, &lim).residual;
    sink += solve_ccd(c.points, goal, out, deltas, ChainSettings{}, &lim).residual;
  }
  REQUIRE(scope.count() == 0);
  CHECK(std::isfinite(sink));
}
