// Checks run on every chain solver (FABRIK and CCD), parameterised by the solve function the
// way check_hinge_chain is in joint_limits_test.cpp. `solve(chain, goal, out, deltas,
// settings, limits)` has the signature of solve_fabrik / solve_ccd.
#pragma once

#include <algorithm>
#include <array>
#include <random>

#include <catch2/catch.hpp>

#include "asterune/solvers/point_chain.hpp"
#include "chain_test_util.hpp"

namespace asterune::test {

/// Zig-zag chain, targets on a grid between 0.3 and 0.95 of the reach in every direction.
/// `every_target_reached`: each solve must reach; otherwise a miss must have spent all 16
/// passes, stay within 5 % of the reach, and at least 99 % of the targets are reached.
template <std::size_t N, class Solve>
void check_zigzag_grid(Solve solve, bool every_target_reached) {
  const auto chain = zigzag_chain<N>();
  std::array<glm::vec3, N + 1> out{};
  std::array<glm::quat, N> deltas{};
  const float total = chain_length(chain);
  int cases = 0;
  int reached = 0;
  for (float x = -1.0f; x <= 1.0f; x += 0.125f) {
    for (float y = -1.0f; y <= 1.0f; y += 0.125f) {
      for (float z = -1.0f; z <= 1.0f; z += 0.25f) {
        const glm::vec3 dir(x, y, z);
        if (glm::length(dir) < 0.3f || glm::length(dir) > 0.95f) continue;
        ChainGoal goal;
        goal.target = chain[0] + dir * total;
        const SolveReport r = solve(chain, goal, out, deltas, ChainSettings{}, nullptr);
        INFO("N " << N << " target " << goal.target.x << " " << goal.target.y << " " << goal.target.z);
        const float measured = glm::length(out[N] - goal.target);
        if (every_target_reached) REQUIRE(r.reached);
        REQUIRE(measured == Approx(r.residual).margin(1e-6));
        if (!every_target_reached) REQUIRE(r.reached == (measured <= 1e-3f));
        REQUIRE(r.passes <= 16);
        REQUIRE(out[0] == chain[0]);
        REQUIRE(max_length_error(chain, out) <= 1e-5f * total);
        REQUIRE(delta_rebuild_error(chain, out, deltas) <= 1e-4f);
        if (r.reached) {
          ++reached;
        } else {
          REQUIRE(r.passes == 16);
          REQUIRE(r.residual < 0.05f * total);
        }
        ++cases;
      }
    }
  }
  INFO("reached " << reached << " of " << cases);
  CHECK(cases > 800);
  if (!every_target_reached) CHECK(reached >= cases * 99 / 100);
}

/// A straight chain (T-pose) reaches every grid target up to 0.98 of the reach in 16 passes.
template <std::size_t N, class Solve>
void check_straight_chain_grid(Solve solve) {
  const auto chain = straight_chain<N>();
  std::array<glm::vec3, N + 1> out{};
  std::array<glm::quat, N> deltas{};
  const float total = chain_length(chain);
  for (float x = -1.0f; x <= 1.0f; x += 0.25f) {
    for (float y = -1.0f; y <= 1.0f; y += 0.25f) {
      for (float z = -1.0f; z <= 1.0f; z += 0.5f) {
        const glm::vec3 dir(x, y, z);
        if (glm::length(dir) < 0.3f || glm::length(dir) > 0.98f) continue;
        ChainGoal goal;
        goal.target = chain[0] + dir * total;
        const SolveReport r = solve(chain, goal, out, deltas, ChainSettings{}, nullptr);
        INFO("target " << goal.target.x << " " << goal.target.y << " " << goal.target.z);
        REQUIRE(r.reached);
        REQUIRE(r.passes <= 16);
        REQUIRE(max_length_error(chain, out) <= 1e-5f * total);
        REQUIRE(delta_rebuild_error(chain, out, deltas) <= 1e-4f);
      }
    }
  }
}

/// 500 random chains (segment lengths 0.3-1.2, random bends) and targets at random distances
/// inside the reachable annulus [max(0, 2 l_max - total) + 2 %, 0.98 total]. Every solve must
/// report honestly and keep lengths; at least `min_reached_percent` reach within 16 passes
/// (the misses are hard folds toward near targets; docs/solvers.md has the measured rates).
template <std::size_t N, class Solve>
void check_random_chains(Solve solve, int min_reached_percent) {
  std::mt19937 rng(20261130u + static_cast<unsigned>(N));
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), seg(0.3f, 1.2f), frac(0.05f, 0.98f);
  int cases = 0;
  int reached = 0;
  for (int c = 0; c < 500; ++c) {
    std::array<glm::vec3, N + 1> chain{};
    chain[0] = {u(rng), u(rng), u(rng)};
    glm::vec3 dir = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
    for (std::size_t i = 0; i < N; ++i) {
      dir = glm::normalize(dir + 0.8f * glm::vec3(u(rng), u(rng), u(rng)));
      chain[i + 1] = chain[i] + seg(rng) * dir;
    }
    const float total = chain_length(chain);
    float longest = 0.0f;
    for (std::size_t i = 0; i < N; ++i) longest = std::max(longest, seg_len(chain, i));
    const float min_reach = std::max(0.0f, 2.0f * longest - total);
    const float dist = frac(rng) * total;
    const glm::vec3 toward = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
    if (dist < min_reach + 0.02f * total) continue;
    ChainGoal goal;
    goal.target = chain[0] + dist * toward;
    std::array<glm::vec3, N + 1> out{};
    std::array<glm::quat, N> deltas{};
    const SolveReport r = solve(chain, goal, out, deltas, ChainSettings{}, nullptr);
    INFO("chain " << c);
    REQUIRE(r.residual == Approx(glm::length(out[N] - goal.target)).margin(1e-6));
    REQUIRE(r.reached == (r.residual <= 1e-3f));
    REQUIRE(r.passes <= 16);
    REQUIRE(max_length_error(chain, out) <= 1e-5f * total);
    REQUIRE(delta_rebuild_error(chain, out, deltas) <= 1e-4f * total);
    ++cases;
    if (r.reached) ++reached;
  }
  INFO("reached " << reached << " of " << cases);
  CHECK(cases > 350);
  CHECK(reached * 100 >= cases * min_reached_percent);
}

}  // namespace asterune::test
