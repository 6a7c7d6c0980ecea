// Rigid transform math: composition, inverse, CFrame conversion (SPEC R0, formats.md).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "asterune/math/transform.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

bool near(const glm::vec3& a, const glm::vec3& b, float eps) { return glm::length(a - b) <= eps; }

Transform random_transform(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  glm::quat q(u(rng), u(rng), u(rng), u(rng));
  q = glm::normalize(q);
  return {q, glm::vec3(u(rng), u(rng), u(rng)) * 5.0f};
}

}  // namespace

TEST_CASE("compose applies b in a's frame and maps points like a matrix product (SPEC R0)") {
  // Hand-derived: a turns 90 deg about +Y and moves to (1,0,0); b is the point (0,0,-2).
  const Transform a{axis_angle_deg(90, {0, 1, 0}), {1, 0, 0}};
  const Transform b = Transform::from_position({0, 0, -2});
  const Transform ab = a * b;
  // +90 deg about Y maps -Z onto -X: (0,0,-2) -> (-2,0,0), then + (1,0,0).
  CHECK(near(ab.position, {-1, 0, 0}, 1e-6f));
  CHECK(near(transform_point(a, {0, 0, -2}), ab.position, 1e-6f));
}

TEST_CASE("inverse undoes a transform and inverse_transform_point agrees") {
  std::mt19937 rng(7);
  for (int i = 0; i < 100; ++i) {
    const Transform t = random_transform(rng);
    const Transform id = inverse(t) * t;
    CHECK(same_rotation(id.rotation, glm::quat(1, 0, 0, 0), 1e-5f));
    CHECK(near(id.position, {0, 0, 0}, 1e-5f));
    const glm::vec3 p(0.3f, -2.0f, 4.0f);
    CHECK(near(inverse_transform_point(t, transform_point(t, p)), p, 1e-4f));
  }
}

TEST_CASE("interpolate is exact at the ends, halfway on the short arc") {
  const Transform a{axis_angle_deg(10, {1, 0, 0}), {0, 0, 0}};
  const Transform b{-axis_angle_deg(70, {1, 0, 0}), {2, 4, 6}};  // -q: same rotation, long-arc sign
  CHECK(interpolate(a, b, 0.0f).rotation == a.rotation);
  CHECK(interpolate(a, b, 1.0f).rotation == b.rotation);
  const Transform mid = interpolate(a, b, 0.5f);
  CHECK(same_rotation(mid.rotation, axis_angle_deg(40, {1, 0, 0}), 1e-5f));
  CHECK(near(mid.position, {1, 2, 3}, 1e-6f));
}

TEST_CASE("CFrame components round-trip and follow Roblox's row-major layout") {
  // Roblox CFrame.Angles(0, math.rad(90), 0): columns are the local axes.
  // RightVector (X col) = (0,0,-1), UpVector (Y col) = (0,1,0), -LookVector (Z col) = (1,0,0).
  const CFrameComponents c{1, 2, 3, 0, 0, 1, 0, 1, 0, -1, 0, 0};
  auto t = from_cframe(c);
  REQUIRE(t.ok());
  CHECK(same_rotation(t.value().rotation, axis_angle_deg(90, {0, 1, 0}), 1e-6f));
  CHECK(near(t.value().position, {1, 2, 3}, 0));
  const CFrameComponents back = to_cframe(t.value());
  for (size_t i = 0; i < 12; ++i) CHECK(back[i] == Approx(c[i]).margin(1e-6));
  // cf * v = R v + p: local X axis maps onto the first column.
  CHECK(near(transform_vector(t.value(), {1, 0, 0}), {0, 0, -1}, 1e-6f));
}

TEST_CASE("from_cframe rejects non-rotations, reflections and NaN (formats.md)") {
  const CFrameComponents scaled{0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1};
  const CFrameComponents mirror{0, 0, 0, -1, 0, 0, 0, 1, 0, 0, 0, 1};
  const CFrameComponents sheared{0, 0, 0, 1, 0.1f, 0, 0, 1, 0, 0, 0, 1};
  CFrameComponents nan{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  nan[1] = std::numeric_limits<float>::quiet_NaN();
  auto a = from_cframe(scaled);
  auto b = from_cframe(mirror);
  auto s = from_cframe(sheared);
  auto n = from_cframe(nan);
  REQUIRE_FALSE(a.ok());
  REQUIRE_FALSE(b.ok());
  REQUIRE_FALSE(s.ok());
  REQUIRE_FALSE(n.ok());
  CHECK_THAT(a.message(), Catch::Contains("not a rotation"));
  CHECK_THAT(b.message(), Catch::Contains("determinant"));
  CHECK_THAT(n.message(), Catch::Contains("nonfinite"));
  // Values saved by Roblox are rotations to ~1e-7: tolerance 1e-3 accepts them.
  const CFrameComponents saved{0, 0, 0, 1, 0, 0, 0, 0.99999994f, 2e-7f, 0, -2e-7f, 1};
  CHECK(from_cframe(saved).ok());
}

TEST_CASE("rotation_between and normalized_rotation handle the degenerate cases") {
  const glm::vec3 x(1, 0, 0);
  CHECK(near(rotation_between(x, {0, 1, 0}) * x, {0, 1, 0}, 1e-6f));
  const glm::quat flip = rotation_between(x, -x);
  CHECK(near(flip * x, -x, 1e-6f));
  CHECK(is_finite(flip));
  CHECK_FALSE(normalized_rotation(glm::quat(0, 0, 0, 0)).has_value());
  CHECK_FALSE(normalized_rotation(glm::quat(std::numeric_limits<float>::infinity(), 0, 0, 0)).has_value());
  CHECK(normalized_rotation(glm::quat(2, 0, 0, 0)).value() == glm::quat(1, 0, 0, 0));
  CHECK(rotation_angle(axis_angle_deg(120, {0, 0, 1})) == Approx(glm::radians(120.0f)).margin(1e-5));
}
