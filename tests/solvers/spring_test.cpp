// Pure spring chain pieces (rules S2, S3, S6, S7): the substep plan, the length constraint,
// the collider push-out, resets, lengths kept over many frames, no allocation.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>

#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/spring.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using asterune::test::AllocationScope;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A 3-segment chain hanging along +X from the origin, lengths 1, 0.8, 0.6.
struct Chain {
  std::array<float, 3> lengths{1.0f, 0.8f, 0.6f};
  std::array<glm::vec3, 3> targets{glm::vec3(1.0f, 0, 0), glm::vec3(1.8f, 0, 0), glm::vec3(2.4f, 0, 0)};
  std::array<glm::vec3, 3> points = targets;
  std::array<glm::vec3, 3> velocities{};
  SpringChainFrame frame() const {
    SpringChainFrame f;
    f.targets_from = targets;
    f.targets_to = targets;
    f.lengths = lengths;
    return f;
  }
};

}  // namespace

TEST_CASE("spring: substeps follow S3 exactly", "[spring]") {
  // min(8, ceil(dt * 240)) after clamping dt to 0.05 s; dt <= 0 or NaN holds still.
  struct Case { float dt; int count; float simulated; };
  const Case cases[] = {{0.0f, 0, 0.0f},           {1.0f / 240.0f, 1, 1.0f / 240.0f}, {1.0f / 60.0f, 4, 1.0f / 60.0f},
                        {1.0f / 30.0f, 8, 1.0f / 30.0f}, {0.05f, 8, 0.05f},                {0.2f, 8, 0.05f},
                        {-1.0f, 0, 0.0f},          {kNaN, 0, 0.0f},                   {kInf, 8, 0.05f},
                        {1.0f / 144.0f, 2, 1.0f / 144.0f}, {0.01f, 3, 0.01f}};
  for (const Case& c : cases) {
    INFO("dt = " << c.dt);
    const SpringSubsteps plan = spring_substeps(c.dt);
    CHECK(plan.count == c.count);
    CHECK(plan.dt == Approx(c.simulated).margin(1e-9));
    if (c.count > 0) CHECK(plan.h == Approx(c.simulated / static_cast<float>(c.count)));
  }
}

TEST_CASE("spring: the length constraint puts the point on the sphere about its pivot", "[spring]") {
  const glm::vec3 pivot(1.0f, 2.0f, 3.0f);
  const glm::vec3 p = spring_keep_length(pivot, pivot + glm::vec3(3.0f, 4.0f, 0.0f), 2.0f, glm::vec3(1, 0, 0));
  CHECK(glm::length(p - pivot) == Approx(2.0f));
  CHECK(p.x == Approx(1.0f + 1.2f));  // along (3, 4, 0) / 5
  CHECK(p.y == Approx(2.0f + 1.6f));
  // On the pivot: the fallback direction.
  const glm::vec3 q = spring_keep_length(pivot, pivot, 0.5f, glm::vec3(0, 0, -2));
  CHECK(glm::length(q - (pivot + glm::vec3(0, 0, -0.5f))) < 1e-6f);
}

TEST_CASE("spring: a point inside a sphere moves to the circle where both spheres meet", "[spring]") {
  // Pivot at the origin, length 1; sphere of radius 1 centred at (1, 0, 0). By hand: the
  // circle |y| = 1, |y - c| = 1 lies at x = 0.5, radius sqrt(3)/2; a point starting at
  // (cos 20deg, sin 20deg, 0) (inside) ends at (0.5, sqrt(3)/2, 0).
  SpringShape s;
  s.a = glm::vec3(1.0f, 0.0f, 0.0f);
  s.radius = 1.0f;
  const float a = glm::radians(20.0f);
  const glm::vec3 in(std::cos(a), std::sin(a), 0.0f);
  REQUIRE(spring_shape_distance(in, s) < 0.0f);
  const glm::vec3 out = spring_push_out(glm::vec3(0.0f), 1.0f, in, s);
  CHECK(out.x == Approx(0.5f).margin(1e-5));
  CHECK(out.y == Approx(std::sqrt(3.0f) / 2.0f).margin(1e-5));
  CHECK(out.z == Approx(0.0f).margin(1e-6));
  CHECK(spring_shape_distance(out, s) >= 0.0f);
  // Already outside: unchanged bit for bit.
  const glm::vec3 far(-1.0f, 0.0f, 0.0f);
  CHECK(spring_push_out(glm::vec3(0.0f), 1.0f, far, s) == far);
  // No point at this length is outside (a sphere swallowing the whole reach): the farthest.
  SpringShape big;
  big.a = glm::vec3(0.1f, 0.0f, 0.0f);
  big.radius = 5.0f;
  const glm::vec3 best = spring_push_out(glm::vec3(0.0f), 1.0f, in, big);
  CHECK(glm::length(best - glm::vec3(-1.0f, 0.0f, 0.0f)) < 1e-5f);
}

TEST_CASE("spring: capsule push-out leaves the point outside at its length", "[spring]") {
  SpringShape cap;
  cap.capsule = true;
  cap.a = glm::vec3(0.8f, -1.0f, 0.2f);
  cap.b = glm::vec3(0.8f, 1.0f, -0.2f);
  cap.radius = 0.4f;
  const glm::vec3 pivot(0.0f);
  for (int i = 0; i < 72; ++i) {
    const float a = glm::radians(5.0f * static_cast<float>(i));
    const glm::vec3 p(std::cos(a), 0.3f * std::sin(3.0f * a), std::sin(a));
    const glm::vec3 on = spring_keep_length(pivot, p, 1.0f, glm::vec3(1, 0, 0));
    const glm::vec3 out = spring_push_out(pivot, 1.0f, on, cap);
    INFO("angle " << 5 * i);
    CHECK(glm::length(out - pivot) == Approx(1.0f).margin(1e-5));
    CHECK(spring_shape_distance(out, cap) >= -1e-5f);
  }
}

TEST_CASE("spring: a nonfinite or far endpoint resets the chain to its targets (S6)", "[spring]") {
  SpringParams params;
  params.gravity = glm::vec3(0.0f, -30.0f, 0.0f);
  SECTION("nonfinite") {
    Chain c;
    c.points[1] = glm::vec3(kNaN);
    const auto r = step_spring_chain(params, c.frame(), spring_substeps(1.0f / 60.0f), c.points, c.velocities);
    CHECK(r.ok);
    CHECK(r.resets == 1);
    CHECK(r.substeps == 0);
    for (size_t k = 0; k < 3; ++k) {
      CHECK(c.points[k] == c.targets[k]);
      CHECK(c.velocities[k] == glm::vec3(0.0f));
    }
  }
  SECTION("more than 8 segment lengths away") {
    Chain c;
    c.points[2] = c.targets[2] + glm::vec3(0.0f, 0.0f, 8.0f * 0.6f + 0.01f);
    c.velocities[0] = glm::vec3(3.0f);
    const auto r = step_spring_chain(params, c.frame(), spring_substeps(1.0f / 60.0f), c.points, c.velocities);
    CHECK(r.resets == 1);
    CHECK(c.points[2] == c.targets[2]);
    CHECK(c.velocities[0] == glm::vec3(0.0f));
  }
  SECTION("8 lengths away is not yet a reset") {
    Chain c;
    c.points[2] = c.targets[2] + glm::vec3(0.0f, 0.0f, 8.0f * 0.6f - 0.01f);
    const auto r = step_spring_chain(params, c.frame(), spring_substeps(1.0f / 60.0f), c.points, c.velocities);
    CHECK(r.resets == 0);
    CHECK(r.substeps == 4);
  }
}

TEST_CASE("spring: bad input writes nothing", "[spring]") {
  SpringParams params;
  Chain c;
  c.points[0] = glm::vec3(0.5f, 0.5f, 0.0f);
  const auto before = c.points;
  std::array<float, 3> zero{1.0f, 0.0f, 0.6f};
  SpringChainFrame f = c.frame();
  f.lengths = zero;
  CHECK_FALSE(step_spring_chain(params, f, spring_substeps(0.02f), c.points, c.velocities).ok);
  f = c.frame();
  f.root_to = glm::vec3(kNaN);
  CHECK_FALSE(step_spring_chain(params, f, spring_substeps(0.02f), c.points, c.velocities).ok);
  f = c.frame();
  f.targets_to = std::span<const glm::vec3>(c.targets).first(2);
  CHECK_FALSE(step_spring_chain(params, f, spring_substeps(0.02f), c.points, c.velocities).ok);
  CHECK(c.points == before);
}

TEST_CASE("spring: segment lengths stay within 1e-5 while the pivot and targets whirl", "[spring]") {
  SpringParams params;
  params.stiffness = 200.0f;
  params.damping = 2.0f;
  params.gravity = glm::vec3(0.0f, -50.0f, 0.0f);
  Chain c;
  SpringShape ball;
  ball.a = glm::vec3(1.5f, -0.8f, 0.0f);
  ball.radius = 0.5f;
  const std::array<SpringShape, 1> shapes{ball};
  std::array<glm::vec3, 3> from = c.targets;
  glm::vec3 root_from(0.0f);
  AllocationScope alloc;
  float worst = 0.0f;
  for (int f = 1; f <= 600; ++f) {
    const float t = static_cast<float>(f) / 60.0f;
    const glm::vec3 root(0.3f * std::sin(5.0f * t), 0.2f * std::cos(7.0f * t), 0.0f);
    const glm::quat spin = glm::angleAxis(2.0f * t, glm::normalize(glm::vec3(0.2f, 1.0f, 0.3f)));
    std::array<glm::vec3, 3> to;
    glm::vec3 p = root;
    for (size_t k = 0; k < 3; ++k) p = to[k] = p + spin * glm::vec3(c.lengths[k], 0.0f, 0.0f);
    SpringChainFrame frame;
    frame.root_from = root_from;
    frame.root_to = root;
    frame.targets_from = from;
    frame.targets_to = to;
    frame.lengths = c.lengths;
    frame.shapes_from = shapes;
    frame.shapes_to = shapes;
    const auto r = step_spring_chain(params, frame, spring_substeps(1.0f / 60.0f), c.points, c.velocities);
    REQUIRE(r.ok);
    glm::vec3 pivot = root;
    for (size_t k = 0; k < 3; ++k) {
      worst = std::max(worst, std::fabs(glm::length(c.points[k] - pivot) - c.lengths[k]));
      CHECK(spring_shape_distance(c.points[k], ball) >= -1e-5f);
      pivot = c.points[k];
    }
    from = to;
    root_from = root;
  }
  CHECK(alloc.count() == 0);
  CHECK(worst <= 1e-5f);
}
