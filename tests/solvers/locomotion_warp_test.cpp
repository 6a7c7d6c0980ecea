// The warp math (rules LO6-LO8) by hand: ratios, clamps, the pelvis drop of a leg over a
// target, and the orientation warp's spine shares.
#include <catch2/catch.hpp>

#include <cmath>

#include "asterune/solvers/locomotion_warp.hpp"

using namespace asterune;

TEST_CASE("stride_warp_rate splits the ratio into a clamped stride and a play rate (rule LO6)", "[solvers][warp]") {
  const StrideWarpRate a = stride_warp_rate(3.0f, 2.0f, 0.5f, 2.0f);  // ratio 1.5: inside
  CHECK(a.valid);
  CHECK(a.stride_scale == Approx(1.5f));
  CHECK(a.play_rate == Approx(1.0f));
  CHECK_FALSE(a.clamped);
  const StrideWarpRate b = stride_warp_rate(10.0f, 2.0f, 0.5f, 2.0f);  // ratio 5: stride 2, rate 2.5
  CHECK(b.stride_scale == Approx(2.0f));
  CHECK(b.play_rate == Approx(2.5f));
  CHECK(b.clamped);
  const StrideWarpRate c = stride_warp_rate(0.0f, 2.0f, 0.5f, 2.0f);  // stopped: stride 0.5, rate 0
  CHECK(c.stride_scale == Approx(0.5f));
  CHECK(c.play_rate == 0.0f);
  const StrideWarpRate still = stride_warp_rate(3.0f, 0.0f, 0.5f, 2.0f);  // a pose that does not travel
  CHECK(still.valid);
  CHECK(still.stride_scale == 1.0f);
  CHECK(still.play_rate == 1.0f);
}

TEST_CASE("stride_warp_rate refuses unusable values (rule LO9)", "[solvers][warp]") {
  CHECK_FALSE(stride_warp_rate(std::nanf(""), 2.0f, 0.5f, 2.0f).valid);
  CHECK_FALSE(stride_warp_rate(INFINITY, 2.0f, 0.5f, 2.0f).valid);
  CHECK_FALSE(stride_warp_rate(-1.0f, 2.0f, 0.5f, 2.0f).valid);
  CHECK_FALSE(stride_warp_rate(1.0e30f, 1.0e-30f, 0.5f, 2.0f).valid);  // the ratio overflows
  CHECK_FALSE(stride_warp_rate(1.0f, 1.0f, 0.0f, 2.0f).valid);
  const StrideWarpRate bad = stride_warp_rate(1.0f, std::nanf(""), 0.5f, 2.0f);
  CHECK_FALSE(bad.valid);
  CHECK(bad.stride_scale == 1.0f);
  CHECK(bad.play_rate == 1.0f);
}

TEST_CASE("warp_pelvis_drop: the drop that brings a hip within reach of a target (rule LO7)", "[solvers][warp]") {
  const glm::vec3 up(0, 1, 0);
  // Hip 2 above and 1.2 across the target, limit 2: 2 - sqrt(4 - 1.44) = 0.4.
  CHECK(warp_pelvis_drop({0, 2, 0}, {1.2f, 0, 0}, up, 2.0f) == Approx(0.4f));
  CHECK(warp_pelvis_drop({0, 1, 0}, {1.0f, 0, 0}, up, 2.0f) == 0.0f);  // in reach
  CHECK(warp_pelvis_drop({0, 2, 0}, {3.0f, 0, 0}, up, 2.0f) == Approx(2.0f));  // never in reach: down to its height
  CHECK(warp_pelvis_drop({0, std::nanf(""), 0}, {1, 0, 0}, up, 2.0f) == 0.0f);
}

TEST_CASE("solve_stride_warp scales the ankles along the travel and lowers the pelvis (rule LO7)", "[solvers][warp]") {
  // One leg: hip at height 2, knee bent forward, ankle 0.5 behind the hip; thigh and shin 1.
  StrideWarpLeg leg;
  leg.hip = {0, 2, 0};
  leg.ankle = {0, 2.0f - std::sqrt(4.0f - 0.25f) * 0.99f, 0.5f};
  leg.knee = 0.5f * (leg.hip + leg.ankle) + glm::vec3(0, 0, -0.3f);
  leg.knee = leg.hip + glm::normalize(leg.knee - leg.hip);
  leg.ankle = leg.knee + glm::normalize(leg.ankle - leg.knee);
  StrideWarpInput in;
  in.pelvis = {0, 2.2f, 0};
  in.direction = {0, 0.3f, -2.0f};  // only its part across up counts
  in.stride_scale = 2.0f;
  in.legs = std::span<const StrideWarpLeg>(&leg, 1);
  const StrideWarpResult r = solve_stride_warp(in);
  REQUIRE(r.valid);
  const glm::vec3 target = r.target[0];
  CHECK(target.z == Approx(2.0f * leg.ankle.z));
  CHECK(target.x == Approx(leg.ankle.x));
  CHECK(target.y == Approx(leg.ankle.y));
  const glm::vec3 hip = leg.hip - glm::vec3(0, r.pelvis_drop, 0);
  CHECK(r.pelvis_drop > 0.0f);
  CHECK(glm::length(target - hip) == Approx(0.995f * 2.0f).margin(1e-4));  // exactly at the limit
  CHECK(glm::length(r.legs[0].end - target) < 1e-3f);
  CHECK(r.legs[0].report.reached);
  StrideWarpInput none = in;
  none.legs = {};
  CHECK_FALSE(solve_stride_warp(none).valid);
}

TEST_CASE("orientation_warp_turns spreads the counter-turn over the spine (rule LO8)", "[solvers][warp]") {
  const OrientationWarpTurns t = orientation_warp_turns(0.6f, 1.5707963f, 3);
  REQUIRE(t.valid);
  CHECK(t.yaw == Approx(0.6f));
  CHECK(t.spine_yaw[0] == Approx(0.4f));
  CHECK(t.spine_yaw[1] == Approx(0.2f));
  CHECK(t.spine_yaw[2] == 0.0f);  // the top keeps the pose's facing
  const OrientationWarpTurns c = orientation_warp_turns(-3.0f, 1.5707963f, 1);
  CHECK(c.clamped);
  CHECK(c.yaw == Approx(-1.5707963f));
  CHECK_FALSE(orientation_warp_turns(std::nanf(""), 1.5707963f, 1).valid);
  CHECK(orientation_warp_turns(std::nanf(""), 1.5707963f, 1).yaw == 0.0f);
}
