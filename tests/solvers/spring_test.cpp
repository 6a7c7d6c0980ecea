// Pure spring chain pieces (rules S2, S3, S6, S7, S8, S9): the clock's steps, the exact step, the
// inputs' curve between frames, the length constraint, the collider push-out, resets, lengths
// kept over many frames, no allocation.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
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
  std::array<glm::vec3, 3> clock_targets = targets;
  std::array<glm::vec3, 3> shown{};
  SpringChainState state{points, velocities, clock_targets, glm::vec3(0.0f), 0.0f};
  Chain() = default;
  Chain(const Chain&) = delete;
  SpringChainFrame frame() const {
    SpringChainFrame f;
    f.targets_from = targets;
    f.targets_to = targets;
    f.lengths = lengths;
    return f;
  }
};

}  // namespace

TEST_CASE("spring: the clock takes whole 1/240 s steps and carries the rest (S3, S8)", "[spring]") {
  // dt clamped to 0.05 s, added to the lag; floor(total * 240) steps, the rest carried. By hand:
  // 1/144 s is one step and 1/144 - 1/240 = 1/360 s carried; with that lag the next 1/144 s
  // makes 1/360 + 1/144 = 7/720 s = 2.33 steps: 2, and 7/720 - 2/240 = 1/720 s carried.
  struct Case { float dt; float lag; int count; float simulated; float lag_after; };
  const float h = 1.0f / 240.0f;
  const Case cases[] = {{0.0f, 0.0f, 0, 0.0f, 0.0f},
                        {1.0f / 240.0f, 0.0f, 1, 1.0f / 240.0f, 0.0f},
                        {1.0f / 60.0f, 0.0f, 4, 1.0f / 60.0f, 0.0f},
                        {0.0166667f, 0.0f, 4, 0.0166667f, 0.0f},
                        {1.0f / 30.0f, 0.0f, 8, 1.0f / 30.0f, 0.0f},
                        {0.05f, 0.0f, 12, 0.05f, 0.0f},
                        {0.2f, 0.0f, 12, 0.05f, 0.0f},
                        {-1.0f, 0.0f, 0, 0.0f, 0.0f},
                        {kNaN, 0.0f, 0, 0.0f, 0.0f},
                        {kInf, 0.0f, 12, 0.05f, 0.0f},
                        {1.0f / 144.0f, 0.0f, 1, 1.0f / 144.0f, 1.0f / 360.0f},
                        {1.0f / 144.0f, 1.0f / 360.0f, 2, 1.0f / 144.0f, 1.0f / 720.0f},
                        {0.01f, 0.0f, 2, 0.01f, 0.01f - 2.0f * h},
                        {0.0f, 0.002f, 0, 0.0f, 0.002f},
                        {0.05f, 0.004f, 12, 0.05f, 0.004f}};
  for (const Case& c : cases) {
    INFO("dt = " << c.dt << ", lag = " << c.lag);
    const SpringSubsteps plan = spring_substeps(c.dt, c.lag);
    CHECK(plan.count == c.count);
    CHECK(plan.dt == Approx(c.simulated).margin(1e-9));
    CHECK(plan.lag_before == Approx(c.lag).margin(1e-9));
    CHECK(plan.lag_after == Approx(c.lag_after).margin(1e-7));
    if (c.count > 0) CHECK(plan.h == h);
  }
}

TEST_CASE("spring: a frame within the slack of whole steps carries nothing, frame after frame (S8)", "[spring]") {
  // 1/60 s in float is 0.016666668 s: 4.0000003 steps. Within the 1e-5 slack above 4 (as
  // below it), nothing is carried, so the shown pose is the state itself: no lag of 1e-9 s
  // that grows by as much each frame.
  for (const float dt : {1.0f / 60.0f, 0.0166667f, 1.0f / 30.0f, 1.0f / 120.0f, 1.0f / 240.0f}) {
    float lag = 0.0f;
    int steps = 0;
    for (int f = 0; f < 600; ++f) {
      const SpringSubsteps plan = spring_substeps(dt, lag);
      steps += plan.count;
      lag = plan.lag_after;
      REQUIRE(lag == 0.0f);
    }
    INFO("dt = " << dt);
    CHECK(steps == static_cast<int>(std::lround(600.0 * 240.0 * dt)));
  }
  // Past the slack the rest is carried as before: 1/144 s is 1 step and 1/360 s carried.
  CHECK(spring_substeps(1.0f / 144.0f, 0.0f).lag_after == Approx(1.0f / 360.0f).margin(1e-7));
  CHECK(spring_substeps(1.0f / 60.0f + 2e-6f, 0.0f).lag_after > 1e-6f);
}

TEST_CASE("spring: the exact step matches the damped spring's closed form in every regime (S2)", "[spring]") {
  // x'' = k (T - x) - c x' + g with a fixed target, one axis, x0 = T + 1, v0 = 0.5. The closed
  // form about the equilibrium e = T + g / k (y = x - e, y0 = 1 + ... ):
  //   underdamped (c^2 < 4k):  y = e^(-c t / 2) (y0 cos(w t) + (v0 + c y0 / 2) / w sin(w t)), w = sqrt(k - c^2/4)
  //   critical (c^2 = 4k):     y = e^(-c t / 2) (y0 + (v0 + c y0 / 2) t)
  //   overdamped (c^2 > 4k):   y = A e^(r1 t) + B e^(r2 t), r = -c/2 +- sqrt(c^2/4 - k)
  // and with k = 0 (no spring): v = v0 e^(-c t) + g (1 - e^(-c t)) / c.
  struct Case { float k, c; };
  const Case cases[] = {{60.0f, 2.0f}, {60.0f, 6.0f}, {16.0f, 8.0f}, {4.0f, 10.0f}, {0.0f, 3.0f}, {10000.0f, 100.0f}};
  const double g = -30.0, T = 2.0, x0 = 3.0, v0 = 0.5;
  for (const Case& c : cases) {
    for (const float h : {1.0f / 240.0f, 0.05f, 0.3f}) {
      INFO("k = " << c.k << ", c = " << c.c << ", h = " << h);
      const double k = c.k, d = c.c, t = h;
      double x = 0.0, v = 0.0;
      if (k == 0.0) {
        const double e = std::exp(-d * t);
        v = v0 * e + g * (1.0 - e) / d;
        x = x0 + v0 * (1.0 - e) / d + g * (t / d - (1.0 - e) / (d * d));
      } else {
        const double eq = T + g / k, y0 = x0 - eq, disc = d * d / 4.0 - k;
        if (std::fabs(disc) < 1e-12) {
          const double b = v0 + d * y0 / 2.0, e = std::exp(-d * t / 2.0);
          x = eq + e * (y0 + b * t);
          v = e * (b - d / 2.0 * (y0 + b * t));
        } else if (disc < 0.0) {
          const double w = std::sqrt(-disc), b = (v0 + d * y0 / 2.0) / w, e = std::exp(-d * t / 2.0);
          x = eq + e * (y0 * std::cos(w * t) + b * std::sin(w * t));
          v = e * (-d / 2.0 * (y0 * std::cos(w * t) + b * std::sin(w * t)) + w * (-y0 * std::sin(w * t) + b * std::cos(w * t)));
        } else {
          const double r1 = -d / 2.0 + std::sqrt(disc), r2 = -d / 2.0 - std::sqrt(disc);
          const double B = (v0 - r1 * y0) / (r2 - r1), A = y0 - B;
          x = eq + A * std::exp(r1 * t) + B * std::exp(r2 * t);
          v = A * r1 * std::exp(r1 * t) + B * r2 * std::exp(r2 * t);
        }
      }
      SpringParams params{c.k, c.c, glm::vec3(0.0f, static_cast<float>(g), 0.0f)};
      const SpringPropagator p = spring_propagator(params, h);
      glm::vec3 px(0.0f, static_cast<float>(x0), 0.0f), pv(0.0f, static_cast<float>(v0), 0.0f);
      const glm::vec3 target(0.0f, static_cast<float>(T), 0.0f);
      spring_integrate(px, pv, target, target, params, p);
      CHECK(px.y == Approx(x).epsilon(1e-5).margin(1e-5));
      CHECK(pv.y == Approx(v).epsilon(1e-5).margin(1e-4));
      CHECK(px.x == 0.0f);
    }
  }
}

TEST_CASE("spring: a target moving linearly is followed exactly, whatever the step (S2)", "[spring]") {
  // A critically damped spring (k = 100, c = 20) already at rest on a target that moves at a
  // constant velocity u lags it by c u / k at steady state: x = T - (c / k) u, v = u. Started
  // there, one step of any size keeps that exactly; one long step equals many short ones.
  const SpringParams params{100.0f, 20.0f, glm::vec3(0.0f)};
  const glm::vec3 u(0.0f, 0.0f, 2.0f);
  for (const float h : {1.0f / 240.0f, 0.05f}) {
    glm::vec3 x = -0.2f * u, v = u;
    spring_integrate(x, v, glm::vec3(0.0f), u * h, params, spring_propagator(params, h));
    CHECK(glm::length(x - (u * h - 0.2f * u)) < 1e-6f);
    CHECK(glm::length(v - u) < 1e-5f);
  }
  // Displaced, 12 steps of 1/240 vs one of 0.05: the same end (the target linear throughout).
  glm::vec3 a(1.0f, 0.5f, 0.0f), va(0.0f), b = a, vb = va;
  const glm::vec3 t0(0.0f), t1(0.3f, 0.0f, 0.6f);
  const SpringPropagator small = spring_propagator(params, 0.05f / 12.0f);
  for (int i = 0; i < 12; ++i) {
    const glm::vec3 from = t0 + (t1 - t0) * (static_cast<float>(i) / 12.0f);
    const glm::vec3 to = t0 + (t1 - t0) * (static_cast<float>(i + 1) / 12.0f);
    spring_integrate(a, va, from, to, params, small);
  }
  spring_integrate(b, vb, t0, t1, params, spring_propagator(params, 0.05f));
  CHECK(glm::length(a - b) < 1e-5f);
  CHECK(glm::length(va - vb) < 1e-4f);
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
    const auto r = step_spring_chain(params, c.frame(), 1.0f / 60.0f, c.state, c.shown);
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
    const auto r = step_spring_chain(params, c.frame(), 1.0f / 60.0f, c.state, c.shown);
    CHECK(r.resets == 1);
    CHECK(c.points[2] == c.targets[2]);
    CHECK(c.velocities[0] == glm::vec3(0.0f));
  }
  SECTION("8 lengths away is not yet a reset") {
    Chain c;
    c.points[2] = c.targets[2] + glm::vec3(0.0f, 0.0f, 8.0f * 0.6f - 0.01f);
    const auto r = step_spring_chain(params, c.frame(), 1.0f / 60.0f, c.state, c.shown);
    CHECK(r.resets == 0);
    CHECK(r.substeps == 4);
  }
}

TEST_CASE("spring: between frames the inputs follow the parabola through the last three frames (S9)", "[spring]") {
  // q(t) = q0 + u t + w t^2 (by hand), frames at t = -0.02 (prior), 0 (previous) and 0.03 s (now):
  // uneven frames, so a uniform-spacing formula would miss. A 0.03 s frame takes 7 clock steps
  // (7/240 = 0.0291667 s) and carries 1/1200 s: the clock's inputs after the frame are q there.
  const glm::vec3 q0(2.0f, -1.0f, 0.5f), u(3.0f, 0.5f, -2.0f), w(-40.0f, 25.0f, 10.0f);
  const auto q = [&](float t) { return q0 + u * t + w * (t * t); };
  const float a = 0.02f, b = 0.03f;
  for (const float s : {0.0f, 0.25f, 0.5f, 0.8f, 1.0f}) {
    const SpringCurveAt c = spring_curve_at(s, b, a);
    const glm::vec3 v = q(0.0f) + (q(b) - q(0.0f)) * c.along + (q(0.0f) - q(-a)) * c.bend;
    CHECK(glm::length(v - q(s * b)) < 1e-5f);
  }
  // No prior frame, or a frame over 4 times the prior one: the straight line.
  for (const float prior : {0.0f, -1.0f, b / 4.5f}) {
    const SpringCurveAt c = spring_curve_at(0.4f, b, prior);
    CHECK(c.along == 0.4f);
    CHECK(c.bend == 0.0f);
  }

  // Through the chain step: a one-segment chain whose root pivot and target ride q.
  const std::array<float, 1> length{1.0f};
  const std::array<glm::vec3, 1> prior{q(-a) + glm::vec3(1, 0, 0)}, from{q(0.0f) + glm::vec3(1, 0, 0)},
      to{q(b) + glm::vec3(1, 0, 0)};
  std::array<glm::vec3, 1> points = from, velocities{}, clock = from, shown{};
  SpringChainState state{points, velocities, clock, q(0.0f), 0.0f};
  SpringChainFrame f;
  f.root_from = q(0.0f);
  f.root_to = q(b);
  f.targets_from = from;
  f.targets_to = to;
  f.lengths = length;
  f.prior_dt = a;
  f.root_prior = q(-a);
  f.targets_prior = prior;
  const SpringStepReport r = step_spring_chain(SpringParams{}, f, b, state, shown);
  REQUIRE(r.ok);
  REQUIRE(r.substeps == 7);
  const float clock_time = 7.0f / 240.0f;
  CHECK(state.lag == Approx(b - clock_time).margin(1e-7));
  CHECK(glm::length(state.root - q(clock_time)) < 1e-5f);
  CHECK(glm::length(clock[0] - (q(clock_time) + glm::vec3(1, 0, 0))) < 1e-5f);
  // The same frame without the prior frame: the straight line from the previous frame (which
  // misses the parabola by s (1 - s) b^2 |w|, 0.0013 studs here).
  points = from;
  velocities = {};
  clock = from;
  state.root = q(0.0f);
  state.lag = 0.0f;
  f.prior_dt = 0.0f;
  REQUIRE(step_spring_chain(SpringParams{}, f, b, state, shown).ok);
  const glm::vec3 line = q(0.0f) + (q(b) - q(0.0f)) * (clock_time / b);
  CHECK(glm::length(state.root - line) < 1e-6f);
  CHECK(glm::length(state.root - q(clock_time)) > 5e-4f);
}

TEST_CASE("spring: bad input writes nothing", "[spring]") {
  SpringParams params;
  Chain c;
  c.points[0] = glm::vec3(0.5f, 0.5f, 0.0f);
  const auto before = c.points;
  std::array<float, 3> zero{1.0f, 0.0f, 0.6f};
  SpringChainFrame f = c.frame();
  f.lengths = zero;
  CHECK_FALSE(step_spring_chain(params, f, 0.02f, c.state, c.shown).ok);
  f = c.frame();
  f.root_to = glm::vec3(kNaN);
  CHECK_FALSE(step_spring_chain(params, f, 0.02f, c.state, c.shown).ok);
  f = c.frame();
  f.targets_to = std::span<const glm::vec3>(c.targets).first(2);
  CHECK_FALSE(step_spring_chain(params, f, 0.02f, c.state, c.shown).ok);
  // The prior frame (S9): a NaN span, a missing or nonfinite prior frame when prior_dt > 0.
  f = c.frame();
  f.prior_dt = kNaN;
  CHECK_FALSE(step_spring_chain(params, f, 0.02f, c.state, c.shown).ok);
  f.prior_dt = 0.02f;  // targets_prior empty
  CHECK_FALSE(step_spring_chain(params, f, 0.02f, c.state, c.shown).ok);
  f.targets_prior = c.targets;
  f.root_prior = glm::vec3(kInf);
  CHECK_FALSE(step_spring_chain(params, f, 0.02f, c.state, c.shown).ok);
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
  std::array<glm::vec3, 3> from = c.targets, prior = c.targets;
  glm::vec3 root_from(0.0f), root_prior(0.0f);
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
    if (f > 1) {  // the curve of S9 from the second frame on
      frame.prior_dt = 1.0f / 60.0f;
      frame.root_prior = root_prior;
      frame.targets_prior = prior;
      frame.shapes_prior = shapes;
    }
    const auto r = step_spring_chain(params, frame, 1.0f / 60.0f, c.state, c.shown);
    REQUIRE(r.ok);
    glm::vec3 pivot = root;
    glm::vec3 shown_pivot = root;
    for (size_t k = 0; k < 3; ++k) {
      worst = std::max(worst, std::fabs(glm::length(c.points[k] - pivot) - c.lengths[k]));
      worst = std::max(worst, std::fabs(glm::length(c.shown[k] - shown_pivot) - c.lengths[k]));
      CHECK(spring_shape_distance(c.points[k], ball) >= -1e-5f);
      CHECK(spring_shape_distance(c.shown[k], ball) >= -1e-5f);
      pivot = c.points[k];
      shown_pivot = c.shown[k];
    }
    prior = from;
    root_prior = root_from;
    from = to;
    root_from = root;
  }
  CHECK(alloc.count() == 0);
  CHECK(worst <= 1e-5f);
}

TEST_CASE("spring: a kept step propagator gives the same bits as one computed each frame (S2, S8)", "[spring]") {
  // The caller may keep spring_propagator(params, kSpringStep) in the frame; the chain must
  // move exactly as when the step computes it (and a kept one for another h is not used).
  const SpringParams params{40.0f, 3.0f, glm::vec3(0.0f, -60.0f, 0.0f)};
  const SpringPropagator kept = spring_propagator(params, kSpringStep);
  const SpringPropagator other = spring_propagator(params, 0.5f * kSpringStep);
  const float dts[] = {1.0f / 60.0f, 1.0f / 144.0f, 1.0f / 50.0f, 0.0f, 1.0f / 30.0f};
  for (const SpringPropagator* step : {&kept, &other}) {
    Chain a, b;
    for (int f = 0; f < 120; ++f) {
      const float t = static_cast<float>(f) * 0.02f;
      std::array<glm::vec3, 3> moved;
      for (size_t k = 0; k < 3; ++k) moved[k] = a.targets[k] + glm::vec3(0.0f, 0.3f * std::sin(3.0f * t), 0.2f * std::cos(2.0f * t));
      const std::array<glm::vec3, 3> before = a.targets;
      SpringChainFrame fa = a.frame();
      fa.targets_from = before;
      fa.targets_to = moved;
      SpringChainFrame fb = fa;
      fb.step = step;
      const float dt = dts[f % 5];
      const SpringStepReport ra = step_spring_chain(params, fa, dt, a.state, a.shown);
      const SpringStepReport rb = step_spring_chain(params, fb, dt, b.state, b.shown);
      a.targets = moved;
      b.targets = moved;
      INFO("frame " << f);
      REQUIRE(ra.ok);
      REQUIRE(rb.ok);
      CHECK(ra.substeps == rb.substeps);
      REQUIRE(std::memcmp(a.shown.data(), b.shown.data(), sizeof(a.shown)) == 0);
      REQUIRE(std::memcmp(a.points.data(), b.points.data(), sizeof(a.points)) == 0);
      REQUIRE(std::memcmp(a.velocities.data(), b.velocities.data(), sizeof(a.velocities)) == 0);
    }
    CHECK(glm::length(a.velocities[2]) > 0.1f);  // the chain did swing
  }
}
