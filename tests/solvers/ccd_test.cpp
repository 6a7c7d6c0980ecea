// CCD: reach, passes bound, lengths, straightening, deltas, degenerate inputs, allocation-free
// (rule IK6, IK5).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <random>

#include "asterune/solvers/ccd.hpp"
#include "chain_solver_checks.hpp"
#include "chain_test_util.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
}

TEMPLATE_TEST_CASE_SIG("ccd: reachable targets up to 0.95 reach within 0.001 in at most 16 passes (rule IK6)", "",
                       ((std::size_t N), N), 2, 3, 4, 8) {
  check_zigzag_grid<N>([](auto&&... a) { return solve_ccd(a...); }, /*every_target_reached=*/true);
}

TEST_CASE("ccd: near full reach the sweeps keep closing in and report honestly whatever the budget (rule IK6, IK8)") {
  // Whatever the budget, the report must describe the pose it returns, and more sweeps never
  // leave the endpoint farther away.
  const auto chain = zigzag_chain<3>();
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  const float total = chain_length(chain);
  for (float f : {0.8f, 0.85f, 0.9f, 0.95f}) {
    ChainGoal goal;
    goal.target = chain[0] + f * total * glm::normalize(glm::vec3(0.3f, -1.0f, 0.2f));
    float prev = std::numeric_limits<float>::infinity();
    for (int passes : {2, 4, 8, 16, 64}) {
      ChainSettings s;
      s.max_passes = passes;
      const SolveReport r = solve_ccd(chain, goal, out, deltas, s);
      INFO("reach " << f << " passes " << passes);
      REQUIRE(r.residual == Approx(glm::length(out[3] - goal.target)).margin(1e-6));
      REQUIRE(r.reached == (r.residual <= 1e-3f));
      REQUIRE(r.passes <= passes);
      REQUIRE(r.residual <= prev + 1e-6f);
      REQUIRE(max_length_error(chain, out) <= 1e-5f * total);
      prev = r.residual;
    }
    CHECK(prev <= 1e-3f);  // 64 passes get there
  }
}

TEST_CASE("ccd: an unreachable target straightens the chain along the target direction (rule IK6)") {
  const auto chain = zigzag_chain<4>();
  std::array<glm::vec3, 5> out{};
  std::array<glm::quat, 4> deltas{};
  ChainGoal goal;
  goal.target = {5.0f, -3.0f, 1.0f};
  const SolveReport r = solve_ccd(chain, goal, out, deltas);
  const glm::vec3 dir = glm::normalize(goal.target - chain[0]);
  float along = 0.0f;
  for (std::size_t i = 0; i < 4; ++i) {
    along += seg_len(chain, i);
    CHECK(glm::length(out[i + 1] - (chain[0] + along * dir)) < 1e-5f);
  }
  CHECK(r.clamped);
  CHECK_FALSE(r.reached);
  CHECK(delta_rebuild_error(chain, out, deltas) <= 1e-4f);
}

TEST_CASE("ccd: one segment simply aims (rule IK2)") {
  const std::array<glm::vec3, 2> chain = {glm::vec3(0, 0, 0), glm::vec3(0, -2, 0)};
  std::array<glm::vec3, 2> out{};
  std::array<glm::quat, 1> deltas{};
  ChainGoal goal;
  goal.target = {2, 0, 0};
  const SolveReport r = solve_ccd(chain, goal, out, deltas);
  CHECK(r.reached);
  CHECK(glm::length(out[1] - glm::vec3(2, 0, 0)) < 1e-5f);
  // Hand-derived: a 90-degree turn about +Z takes -Y onto +X.
  CHECK(quat_angle_deg(deltas[0]) == Approx(90.0f).margin(1e-3));
  CHECK(glm::length(deltas[0] * glm::vec3(0, -1, 0) - glm::vec3(1, 0, 0)) < 1e-5f);
}

TEST_CASE("ccd: the pole turns the intermediate bends toward it (rule IK4, IK6)") {
  const std::array<glm::vec3, 4> chain = {glm::vec3(0, 0, 0), glm::vec3(1, 0.2f, 0), glm::vec3(2, 0, 0), glm::vec3(3, 0.1f, 0)};
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  ChainGoal goal;
  goal.target = {1.8f, -1.2f, 0.0f};
  goal.pole = {1.0f, -0.5f, 10.0f};
  goal.has_pole = true;
  const SolveReport r = solve_ccd(chain, goal, out, deltas);
  CHECK(r.reached);
  CHECK(max_length_error(chain, out) < 1e-5f);
  for (std::size_t i = 1; i + 1 < out.size(); ++i) CHECK(out[i].z > 0.1f);
  CHECK(delta_rebuild_error(chain, out, deltas) <= 1e-4f);
}

TEST_CASE("ccd: degenerate inputs never produce NaN (rule IK6)") {
  const auto chain = zigzag_chain<3>();
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  auto finite_all = [&] {
    for (auto& p : out) if (!finite_vec(p)) return false;
    for (auto& q : deltas) if (!finite_quat(q)) return false;
    return true;
  };
  ChainGoal goal;
  goal.target = {kNaN, 0, 0};
  SolveReport r = solve_ccd(chain, goal, out, deltas);
  CHECK(r.residual < 0.0f);
  CHECK_FALSE(r.reached);
  CHECK(out == chain);
  std::array<glm::vec3, 4> bad = {glm::vec3(0), glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(1, 0, 0)};
  goal.target = {0.3f, 0.5f, 0};
  r = solve_ccd(bad, goal, out, deltas);
  CHECK(finite_all());
  CHECK(max_length_error(bad, out) < 1e-5f);
  goal.target = chain[0];
  goal.has_pole = true;
  goal.pole = chain[0];
  r = solve_ccd(chain, goal, out, deltas);
  CHECK(finite_all());
  CHECK(max_length_error(chain, out) < 1e-5f);
  std::array<glm::vec3, 4> same = {glm::vec3(1), glm::vec3(1), glm::vec3(1), glm::vec3(1)};
  r = solve_ccd(same, goal, out, deltas);
  CHECK(finite_all());
}

TEST_CASE("ccd: solving allocates nothing") {
  const auto chain = zigzag_chain<8>();
  std::array<glm::vec3, 9> out{};
  std::array<glm::quat, 8> deltas{};
  ChainGoal goal;
  float sink = 0.0f;
  AllocationScope scope;
  for (int i = 0; i < 50; ++i) {
    goal.target = {2.0f + 0.05f * static_cast<float>(i), -1.0f, 1.0f};
    sink += solve_ccd(chain, goal, out, deltas).residual;
  }
  REQUIRE(scope.count() == 0);
  CHECK(std::isfinite(sink));
}

TEMPLATE_TEST_CASE_SIG("ccd: a straight chain (T-pose) reaches every grid target within 16 passes (rule IK6)", "",
                       ((std::size_t N), N), 2, 3, 8) {
  check_straight_chain_grid<N>([](auto&&... a) { return solve_ccd(a...); });
}

TEMPLATE_TEST_CASE_SIG("ccd: random bent chains reach random reachable targets (rule IK6)", "", ((std::size_t N), N), 2, 3, 4, 8) {
  check_random_chains<N>([](auto&&... a) { return solve_ccd(a...); }, 96);
}
