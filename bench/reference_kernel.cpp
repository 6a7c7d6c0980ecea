// The reference kernel (reference_kernel.hpp): the walk stays a plain scalar loop on purpose.
#include "reference_kernel.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

namespace asterune::bench {

namespace {

using Quat = ReferenceKernel::Quat;
using Placement = ReferenceKernel::Placement;

inline Quat product(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

// a * b: b's rotation after a's, b's offset turned by a's rotation (v + 2w(q x v) + 2 q x (q x v)).
// Out of line on purpose: the unit Y of the speed goals is the yardstick built by g++ -O2, where
// GCC 12 keeps this compose a call (three per joint), and -O3 (our Release) would inline it and run
// about 25% faster. Keeping the call makes Y the goals' unit whatever the build's -O level.
__attribute__((noinline)) Placement compose(const Placement& a, const Placement& b) {
  const float tx = 2.0f * (a.q.y * b.pz - a.q.z * b.py);
  const float ty = 2.0f * (a.q.z * b.px - a.q.x * b.pz);
  const float tz = 2.0f * (a.q.x * b.py - a.q.y * b.px);
  Placement o;
  o.q = product(a.q, b.q);
  o.px = a.px + b.px + a.q.w * tx + (a.q.y * tz - a.q.z * ty);
  o.py = a.py + b.py + a.q.w * ty + (a.q.z * tx - a.q.x * tz);
  o.pz = a.pz + b.pz + a.q.w * tz + (a.q.x * ty - a.q.y * tx);
  return o;
}

Placement turn(float x, float y, float z, float angle) {
  const float s = std::sin(angle / 2.0f) / std::sqrt(x * x + y * y + z * z);
  return {{x * s, y * s, z * s, std::cos(angle / 2.0f)}, 0.0f, 0.0f, 0.0f};
}

// Out of line so that the loop is the same code in every program, whatever surrounds the call.
__attribute__((noinline)) void walk(int n, const int* parent, const Placement* c0, const Placement* t,
                                    const Placement* c1_inverse, const Placement& root, Placement* world) {
  for (int i = 0; i < n; ++i) {
    const Placement& up = parent[i] >= 0 ? world[parent[i]] : root;
    world[i] = compose(compose(compose(up, c0[i]), t[i]), c1_inverse[i]);
  }
}

}  // namespace

ReferenceKernel::ReferenceKernel()
    : parent_(kJoints), c0_(kJoints), t_(kJoints), c1_inverse_(kJoints), world_(kJoints) {
  // A linear congruential generator (Numerical Recipes' constants): the same tree every run. Each
  // joint draws 12 numbers, the parent first, as the yardstick does, so the parents (the walk's
  // dependency pattern) are the yardstick's; the turns' draws are in a fixed order here.
  std::uint32_t seed = 12345u;
  const auto uniform = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 16777216.0f;
  };
  for (size_t i = 0; i < kJoints; ++i) {
    parent_[i] = i == 0 ? -1 : static_cast<int>(uniform() * static_cast<float>(i));  // parents first
    const float ax = uniform() - 0.5f, ay = uniform() - 0.5f, az = uniform() - 0.5f;
    c0_[i] = turn(ax, ay, az, 0.05f + 0.15f * uniform());
    c0_[i].px = uniform() - 0.5f;
    c0_[i].py = 0.3f + uniform();
    c0_[i].pz = uniform() - 0.5f;
    const float bx = uniform() - 0.5f, by = uniform() - 0.5f, bz = uniform() - 0.5f;
    t_[i] = turn(bx, by, bz, 0.1f + 0.5f * uniform());
    c1_inverse_[i] = {{0.0f, 0.0f, 0.0f, 1.0f}, 0.0f, -0.2f, 0.0f};
  }
  root_ = {{0.0f, std::sin(0.15f), 0.0f, std::cos(0.15f)}, 0.0f, 3.0f, 0.0f};
}

void ReferenceKernel::run(long iterations) {
  for (long k = 0; k < iterations; ++k) {
    walk(kJoints, parent_.data(), c0_.data(), t_.data(), c1_inverse_.data(), root_, world_.data());
    benchmark::DoNotOptimize(world_.data());
    benchmark::ClobberMemory();
  }
}

float ReferenceKernel::max_error_against_glm() const {
  struct Glm {
    glm::quat q;
    glm::vec3 p;
  };
  const auto to_glm = [](const Placement& a) { return Glm{glm::quat(a.q.w, a.q.x, a.q.y, a.q.z), {a.px, a.py, a.pz}}; };
  const auto times = [](const Glm& a, const Glm& b) { return Glm{a.q * b.q, a.p + a.q * b.p}; };
  std::vector<Glm> world(kJoints);
  float error = 0.0f;
  for (size_t i = 0; i < kJoints; ++i) {
    const Glm up = parent_[i] >= 0 ? world[static_cast<size_t>(parent_[i])] : to_glm(root_);
    world[i] = times(times(times(up, to_glm(c0_[i])), to_glm(t_[i])), to_glm(c1_inverse_[i]));
    const Glm mine = to_glm(world_[i]);
    for (int c = 0; c < 4; ++c) error = std::max(error, std::abs(mine.q[c] - world[i].q[c]));
    for (int c = 0; c < 3; ++c) error = std::max(error, std::abs(mine.p[c] - world[i].p[c]));
  }
  return error;
}

}  // namespace asterune::bench
