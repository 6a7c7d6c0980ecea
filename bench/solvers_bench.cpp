// Pure IK solvers: ns per solve. Two-bone is compared with ozz-animation's IKTwoBoneJob
// (~145 ns per job on this class of machine); FABRIK and CCD on 4- and 8-segment
// chains, free, with ball-socket (cone) limits on every joint, and with a ball-socket root
// followed by hinges (the hinge path of the limit passes and the refinement).
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>

#include "asterune/solvers/ccd.hpp"
#include "asterune/solvers/end_orientation.hpp"
#include "asterune/solvers/fabrik.hpp"
#include "asterune/solvers/two_bone.hpp"

using namespace asterune;

namespace {

// A target moving on a small loop so that every iteration solves a different problem.
glm::vec3 moving_target(int i, const glm::vec3& center, float radius) {
  const float t = 0.05f * static_cast<float>(i & 1023);
  return center + radius * glm::vec3(std::cos(t), 0.5f * std::sin(2.0f * t), std::sin(t));
}

TwoBoneInput leg() {
  TwoBoneInput in;
  in.root = {0.5f, 3.0f, 0.0f};
  in.mid = {0.5f, 1.8f, -0.1f};
  in.end = {0.5f, 0.8f, 0.05f};
  in.pole = {0.5f, 2.0f, -5.0f};
  in.has_pole = true;
  return in;
}

void BM_TwoBone(benchmark::State& state) {
  TwoBoneInput in = leg();
  TwoBoneSettings s;
  int i = 0;
  for (auto _ : state) {
    in.target = moving_target(i++, {0.5f, 1.2f, -0.3f}, 0.5f);
    benchmark::DoNotOptimize(solve_two_bone(in, s));
  }
}
BENCHMARK(BM_TwoBone);

void BM_TwoBoneSoftStretchTracking(benchmark::State& state) {
  // Soft reach + stretch + pole continuity with the bend fed back (the per-frame control case).
  TwoBoneInput in = leg();
  TwoBoneSettings s;
  s.soft_reach_start = 0.9f;
  s.max_stretch = 0.05f;
  int i = 0;
  for (auto _ : state) {
    in.target = moving_target(i++, {0.5f, 0.9f, -0.3f}, 0.6f);
    const TwoBoneResult r = solve_two_bone(in, s);
    in.previous_bend = r.bend_direction;
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_TwoBoneSoftStretchTracking);

template <std::size_t N>
std::array<glm::vec3, N + 1> bent_chain() {
  std::array<glm::vec3, N + 1> p{};
  p[0] = {0.0f, 2.0f, 0.0f};
  for (std::size_t i = 0; i < N; ++i) {
    const float a = 0.25f * static_cast<float>(i);
    p[i + 1] = p[i] + (2.0f / static_cast<float>(N)) * glm::vec3(std::cos(a), -std::sin(a), 0.1f);
  }
  return p;
}

template <std::size_t N, bool Ccd>
void BM_Chain(benchmark::State& state) {
  const auto chain = bent_chain<N>();
  std::array<glm::vec3, N + 1> out{};
  std::array<glm::quat, N> deltas{};
  ChainGoal goal;
  const float total = chain_length(chain);
  int i = 0;
  long passes = 0;
  for (auto _ : state) {
    goal.target = moving_target(i++, chain[0] + glm::vec3(0.5f * total, -0.2f * total, 0.0f), 0.25f * total);
    const SolveReport r = Ccd ? solve_ccd(chain, goal, out, deltas) : solve_fabrik(chain, goal, out, deltas);
    passes += r.passes;
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["passes/solve"] = benchmark::Counter(static_cast<double>(passes) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_Chain<4, false>)->Name("BM_Fabrik/4");
BENCHMARK(BM_Chain<8, false>)->Name("BM_Fabrik/8");
BENCHMARK(BM_Chain<4, true>)->Name("BM_Ccd/4");
BENCHMARK(BM_Chain<8, true>)->Name("BM_Ccd/8");

enum class LimitSet { kCones, kHinges };

// kCones: a ball-socket on every joint (cone 60, twist +-20 degrees). kHinges: a ball-socket
// root (a shoulder: cone 60) and hinges about the chain's bending axis (Z in the rest frame of
// bent_chain's parts, which bend in the XY plane) over [-120, 120] degrees.
template <std::size_t N, bool Ccd, LimitSet Set>
void BM_ChainLimited(benchmark::State& state) {
  const auto chain = bent_chain<N>();
  std::array<glm::quat, N> orientations{};
  std::array<glm::quat, N> rest_local{};
  std::array<JointLimit, N> limits{};
  for (std::size_t k = 0; k < N; ++k) {
    orientations[k] = glm::quat(1, 0, 0, 0);
    rest_local[k] = glm::quat(1, 0, 0, 0);
    limits[k] = Set == LimitSet::kHinges && k > 0
                    ? JointLimit::hinge({0, 0, 1}, glm::radians(-120.0f), glm::radians(120.0f))
                    : JointLimit::ball_socket({1, 0, 0}, glm::radians(60.0f), glm::radians(-20.0f), glm::radians(20.0f));
  }
  const ChainLimits lim{orientations, rest_local, glm::quat(1, 0, 0, 0), limits};
  std::array<glm::vec3, N + 1> out{};
  std::array<glm::quat, N> deltas{};
  ChainGoal goal;
  const float total = chain_length(chain);
  int i = 0;
  long passes = 0;
  for (auto _ : state) {
    goal.target = moving_target(i++, chain[0] + glm::vec3(0.5f * total, -0.2f * total, 0.0f), 0.25f * total);
    const SolveReport r = Ccd ? solve_ccd(chain, goal, out, deltas, ChainSettings{}, &lim)
                              : solve_fabrik(chain, goal, out, deltas, ChainSettings{}, &lim);
    passes += r.passes;
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["passes/solve"] = benchmark::Counter(static_cast<double>(passes) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_ChainLimited<4, false, LimitSet::kCones>)->Name("BM_FabrikLimited/4");
BENCHMARK(BM_ChainLimited<4, true, LimitSet::kCones>)->Name("BM_CcdLimited/4");
BENCHMARK(BM_ChainLimited<4, false, LimitSet::kHinges>)->Name("BM_FabrikHinge/4");
BENCHMARK(BM_ChainLimited<4, true, LimitSet::kHinges>)->Name("BM_CcdHinge/4");

void BM_EndOrientation(benchmark::State& state) {
  glm::quat end = glm::angleAxis(0.3f, glm::vec3(0, 1, 0));
  const glm::quat goal = glm::angleAxis(1.1f, glm::normalize(glm::vec3(1, 1, 0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(end_orientation_delta(end, goal, 0.7f));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_EndOrientation);

}  // namespace

BENCHMARK_MAIN();
