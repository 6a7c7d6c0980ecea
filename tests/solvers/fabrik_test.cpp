// FABRIK: reach, passes bound, lengths, straightening, pole, deltas, degenerate inputs,
// allocation-free (rule IK4, IK5, IK8).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <random>

#include "asterune/solvers/fabrik.hpp"
#include "chain_solver_checks.hpp"
#include "chain_test_util.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
}

TEMPLATE_TEST_CASE_SIG("fabrik: reachable targets within 0.001 in at most 16 passes, lengths kept (rule IK4, IK5)", "",
                       ((std::size_t N), N), 2, 3, 4, 8) {
  // A grid of targets between 0.3 and 0.95 of the chain's reach in every direction, solved
  // from the same zig-zag input. FABRIK (with its CCD warm start) converges within 16 passes
  // for nearly all of them; the few that need more (near-straight chains folding hard) must
  // still be reported honestly and be close.
  check_zigzag_grid<N>([](auto&&... a) { return solve_fabrik(a...); }, /*every_target_reached=*/false);
}

TEST_CASE("fabrik: a bent arm-like chain reaches in-front targets within 0.001 in at most 16 passes (rule IK4)") {
  // Shoulder-elbow-wrist-hand with a natural bend, targets in front of it up to 0.9 reach.
  const std::array<glm::vec3, 4> chain = {glm::vec3(1, 4, 0), glm::vec3(1.2f, 3, 0.2f), glm::vec3(1.2f, 2.1f, -0.3f),
                                          glm::vec3(1.2f, 1.7f, -0.4f)};
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  const float total = chain_length(chain);
  int cases = 0;
  for (float x = -1.0f; x <= 1.0f; x += 0.2f) {
    for (float y = -1.0f; y <= 1.0f; y += 0.2f) {
      for (float z = -1.0f; z <= -0.2f; z += 0.2f) {
        const glm::vec3 dir(x, y, z);
        if (glm::length(dir) < 0.4f || glm::length(dir) > 0.9f) continue;
        ChainGoal goal;
        goal.target = chain[0] + dir * total;
        const SolveReport r = solve_fabrik(chain, goal, out, deltas);
        INFO("target " << goal.target.x << " " << goal.target.y << " " << goal.target.z);
        REQUIRE(r.reached);
        REQUIRE(r.passes <= 16);
        REQUIRE(max_length_error(chain, out) <= 1e-5f);
        ++cases;
      }
    }
  }
  CHECK(cases > 100);
}

TEST_CASE("fabrik: an unreachable target straightens the chain along the target direction (rule IK4)") {
  const auto chain = zigzag_chain<4>();
  std::array<glm::vec3, 5> out{};
  std::array<glm::quat, 4> deltas{};
  ChainGoal goal;
  goal.target = {-3.0f, 4.0f, 2.0f};
  const SolveReport r = solve_fabrik(chain, goal, out, deltas);
  const glm::vec3 dir = glm::normalize(goal.target - chain[0]);
  float along = 0.0f;
  for (std::size_t i = 0; i < 4; ++i) {
    along += seg_len(chain, i);
    CHECK(glm::length(out[i + 1] - (chain[0] + along * dir)) < 1e-5f);
  }
  CHECK(r.clamped);
  CHECK_FALSE(r.reached);
  CHECK(r.residual == Approx(glm::length(goal.target - chain[0]) - along).margin(1e-4));
  CHECK(delta_rebuild_error(chain, out, deltas) <= 1e-4f);
}

TEST_CASE("fabrik: the pole turns each intermediate bend toward it about its neighbours' axis (rule IK4)") {
  // Three segments in the XY plane; the target is below-right. A pole far along +Z must put
  // both intermediate points on the +Z side of their neighbours' axis, with the endpoint and
  // lengths unchanged.
  const std::array<glm::vec3, 4> chain = {glm::vec3(0, 0, 0), glm::vec3(1, 0.2f, 0), glm::vec3(2, 0, 0), glm::vec3(3, 0.1f, 0)};
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  ChainGoal goal;
  goal.target = {1.8f, -1.2f, 0.0f};
  goal.pole = {1.0f, -0.5f, 10.0f};
  goal.has_pole = true;
  const SolveReport r = solve_fabrik(chain, goal, out, deltas);
  CHECK(r.reached);
  CHECK(max_length_error(chain, out) < 1e-5f);
  // The bends are turned in order, so the last intermediate point is exactly toward the pole
  // about its final neighbours' axis; every intermediate point is on the pole's side of the
  // root->endpoint axis.
  {
    const std::size_t i = out.size() - 2;
    const glm::vec3 ax = glm::normalize(out[i + 1] - out[i - 1]);
    const glm::vec3 foot = out[i - 1] + glm::dot(out[i] - out[i - 1], ax) * ax;
    glm::vec3 pole_dir = goal.pole - foot;
    pole_dir -= glm::dot(pole_dir, ax) * ax;
    CHECK(angle_deg(out[i] - foot, pole_dir) < 0.05f);
  }
  const glm::vec3 chain_axis = glm::normalize(out.back() - out[0]);
  for (std::size_t i = 1; i + 1 < out.size(); ++i) {
    const glm::vec3 rel = out[i] - out[0];
    const glm::vec3 pole_rel = goal.pole - out[0];
    INFO("point " << i);
    CHECK(glm::dot(rel - glm::dot(rel, chain_axis) * chain_axis, pole_rel - glm::dot(pole_rel, chain_axis) * chain_axis) > 0.0f);
    CHECK(out[i].z > 0.1f);  // the chain was flat in XY: the pole really turned it
  }
  CHECK(delta_rebuild_error(chain, out, deltas) <= 1e-4f);
}

TEST_CASE("fabrik: degenerate inputs never produce NaN and leave the chain unchanged when unusable (rule IK4)") {
  const auto chain = zigzag_chain<3>();
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  auto finite_all = [&] {
    for (auto& p : out) if (!finite_vec(p)) return false;
    for (auto& q : deltas) if (!finite_quat(q)) return false;
    return true;
  };
  SECTION("NaN target") {
    ChainGoal goal;
    goal.target = {kNaN, 1, 1};
    const SolveReport r = solve_fabrik(chain, goal, out, deltas);
    CHECK_FALSE(r.reached);
    CHECK(r.residual < 0.0f);
    CHECK(out == chain);
    for (auto& q : deltas) CHECK(q == glm::quat(1, 0, 0, 0));
  }
  SECTION("wrong span sizes") {
    ChainGoal goal;
    goal.target = {1, 1, 1};
    std::array<glm::quat, 2> few{};
    const SolveReport r = solve_fabrik(chain, goal, out, few);
    CHECK(r.residual < 0.0f);
    CHECK(out == chain);
    std::array<glm::vec3, 2> tiny_chain = {chain[0], chain[1]};
    std::array<glm::vec3, 2> tiny_out{};
    std::array<glm::quat, 1> one{};
    CHECK(solve_fabrik(tiny_chain, goal, tiny_out, one).residual < 0.0f);  // FABRIK needs n >= 2
  }
  SECTION("zero-length segments and coincident points") {
    std::array<glm::vec3, 4> bad = {glm::vec3(0), glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(1, 0, 0)};
    ChainGoal goal;
    goal.target = {0.5f, 0.5f, 0};
    const SolveReport r = solve_fabrik(bad, goal, out, deltas);
    CHECK(finite_all());
    CHECK(std::isfinite(r.residual));
    CHECK(max_length_error(bad, out) < 1e-5f);
    std::array<glm::vec3, 4> all_same = {glm::vec3(2), glm::vec3(2), glm::vec3(2), glm::vec3(2)};
    const SolveReport r2 = solve_fabrik(all_same, goal, out, deltas);
    CHECK(finite_all());
    CHECK(std::isfinite(r2.residual));
  }
  SECTION("target at the root, pole on the axis, NaN pole") {
    ChainGoal goal;
    goal.target = chain[0];
    goal.has_pole = true;
    goal.pole = chain[0];
    SolveReport r = solve_fabrik(chain, goal, out, deltas);
    CHECK(finite_all());
    CHECK(max_length_error(chain, out) < 1e-5f);
    goal.target = {1.5f, 1.0f, 0.0f};
    goal.pole = {kNaN, 0, 0};
    r = solve_fabrik(chain, goal, out, deltas);
    CHECK(finite_all());
    CHECK(r.reached);
    goal.pole = chain[0] + 3.0f * (goal.target - chain[0]);  // on the root->target line
    r = solve_fabrik(chain, goal, out, deltas);
    CHECK(finite_all());
    CHECK(r.reached);
  }
}

TEST_CASE("fabrik: solving allocates nothing") {
  const auto chain = zigzag_chain<8>();
  std::array<glm::vec3, 9> out{};
  std::array<glm::quat, 8> deltas{};
  ChainGoal goal;
  goal.has_pole = true;
  goal.pole = {3, 5, 2};
  float sink = 0.0f;
  AllocationScope scope;
  for (int i = 0; i < 50; ++i) {
    goal.target = {2.0f + 0.05f * static_cast<float>(i), -1.0f, 1.0f};
    sink += solve_fabrik(chain, goal, out, deltas).residual;
  }
  REQUIRE(scope.count() == 0);
  CHECK(std::isfinite(sink));
}

TEMPLATE_TEST_CASE_SIG("fabrik: a straight chain (T-pose) reaches every grid target within 16 passes (rule IK4)", "",
                       ((std::size_t N), N), 2, 3, 8) {
  check_straight_chain_grid<N>([](auto&&... a) { return solve_fabrik(a...); });
  // Straight along the chain's own axis (pure compression) with a pole: bends toward it.
  const auto chain = straight_chain<N>();
  std::array<glm::vec3, N + 1> out{};
  std::array<glm::quat, N> deltas{};
  const float total = chain_length(chain);
  ChainGoal goal;
  goal.target = chain[0] + glm::vec3(0.6f * total, 0, 0);
  goal.pole = chain[0] + glm::vec3(0.3f * total, 0, -5);
  goal.has_pole = true;
  const SolveReport r = solve_fabrik(chain, goal, out, deltas);
  CHECK(r.reached);
  for (std::size_t i = 1; i < N; ++i) CHECK(out[i].z < -1e-3f);
}

TEMPLATE_TEST_CASE_SIG("fabrik: random bent chains reach random reachable targets (rule IK4)", "", ((std::size_t N), N), 2, 3, 4, 8) {
  check_random_chains<N>([](auto&&... a) { return solve_fabrik(a...); }, 98);
}
