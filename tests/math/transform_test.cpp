// Rigid transform math: composition, inverse, CFrame conversion (rule R0, formats.md).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "asterune/math/cframe.hpp"
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

TEST_CASE("compose applies b in a's frame and maps points like a matrix product (rule R0)") {
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

TEST_CASE("distance_between stays finite where glm::length overflows") {
  // Hand values: |(3,4,0)| = 5; 2e19 along x: the float squares overflow, the double ones do not.
  CHECK(distance_between({0, 0, 0}, {3, 4, 0}) == 5.0f);
  CHECK(std::isinf(glm::length(glm::vec3(2e19f, 0, 0))));
  CHECK(distance_between({2e19f, 0, 0}, {0, 0, 0}) == 2e19f);
  const float big = std::numeric_limits<float>::max();
  CHECK(distance_between({big, big, big}, {-big, -big, -big}) == big);  // past float range: FLT_MAX
  CHECK(std::isnan(distance_between({std::nanf(""), 0, 0}, {0, 0, 0})));
}

TEST_CASE("distance_between agrees with a double-precision distance across magnitudes") {
  // Its float fast path (coordinates of a - b below 1e18) and its wide path meet at 1e18:
  // both must be the correctly rounded double result to within one float ulp.
  for (float scale : {1e-20f, 1e-3f, 1.0f, 7.5f, 1e6f, 9.9e17f, 1e18f, 3e18f, 1e30f}) {
    const glm::vec3 a(0.3f * scale, -0.7f * scale, 0.2f * scale);
    const glm::vec3 b(-0.5f * scale, 0.1f * scale, 0.9f * scale);
    const double dx = double(a.x) - double(b.x), dy = double(a.y) - double(b.y), dz = double(a.z) - double(b.z);
    const double expected = std::sqrt(dx * dx + dy * dy + dz * dz);
    INFO("scale " << scale);
    CHECK(double(distance_between(a, b)) == Approx(expected).epsilon(2e-7));
  }
}

namespace {

// Reference slerp in double precision from the axis-angle form: the rotation from a to b has
// angle theta about an axis; at alpha the result is a followed by alpha * theta about that axis
// (short arc). A second formulation, independent of slerp_shortest's sin-ratio weights.
glm::dquat reference_slerp(const glm::quat& a_f, const glm::quat& b_f, double alpha) {
  const glm::dquat a(a_f.w, a_f.x, a_f.y, a_f.z);
  glm::dquat b(b_f.w, b_f.x, b_f.y, b_f.z);
  if (glm::dot(a, b) < 0.0) b = -b;
  const glm::dquat rel = glm::conjugate(a) * b;  // a * rel = b
  const double s = std::sqrt(rel.x * rel.x + rel.y * rel.y + rel.z * rel.z);
  if (s < 1e-15) return a;
  const double half = std::atan2(s, rel.w) * alpha;
  const glm::dquat step(std::cos(half), rel.x / s * std::sin(half), rel.y / s * std::sin(half), rel.z / s * std::sin(half));
  return a * step;
}

// Angle (radians) of the rotation taking q to r (atan2 form: accurate for tiny angles).
double rotation_error(const glm::quat& q, const glm::dquat& r) {
  const glm::dquat e = glm::conjugate(glm::dquat(q.w, q.x, q.y, q.z)) * r;
  return 2.0 * std::atan2(std::sqrt(e.x * e.x + e.y * e.y + e.z * e.z), std::fabs(e.w));
}

}  // namespace

TEST_CASE("nlerp_or_slerp stays within kNlerpMaxError of slerp; exact at the ends", "[math][nlerp]") {
  // Key-sampling interpolation (clips.md): nlerp for keys up to 20 degrees apart, slerp beyond.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  double worst_narrow = 0.0, worst_8deg = 0.0, worst_wide = 0.0;
  for (int pair = 0; pair < 400; ++pair) {
    const glm::quat a = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    const glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.0f, 0.0f, 1e-3f));
    // Key gaps: 8 degrees, anywhere up to the nlerp limit, and wide ones that must slerp.
    const float gap_deg = pair % 4 == 0 ? 8.0f : pair % 4 == 1 ? 20.0f * (0.5f + 0.5f * u(rng)) : 20.0f + 79.0f * (1.0f + u(rng));
    glm::quat b = glm::normalize(a * glm::angleAxis(glm::radians(gap_deg), axis));
    if (pair % 3 == 0) b = -b;  // the same rotation stored with the other sign: short arc anyway
    for (int k = 0; k <= 64; ++k) {
      const float alpha = static_cast<float>(k) / 64.0f;
      const glm::quat got = nlerp_or_slerp(a, b, alpha);
      REQUIRE(is_finite(got));
      CHECK(std::fabs(glm::length(got) - 1.0f) < 1e-5f);
      const double err = rotation_error(got, reference_slerp(a, b, alpha));
      if (gap_deg == 8.0f) worst_8deg = std::max(worst_8deg, err);
      else if (gap_deg <= 20.0f) worst_narrow = std::max(worst_narrow, err);
      else worst_wide = std::max(worst_wide, err);
    }
    CHECK(nlerp_or_slerp(a, b, 0.0f) == a);
    CHECK(nlerp_or_slerp(a, b, 1.0f) == b);
  }
  CHECK(worst_narrow <= kNlerpMaxError);
  CHECK(worst_8deg <= 1.2e-5);  // theta^3 / (144 sqrt 3) = 1.09e-5 rad for theta = 8 degrees
  CHECK(worst_8deg > 5e-6);     // it is nlerp (slerp would be ~1e-7): the bound is really exercised
  CHECK(worst_wide <= 5e-6);    // wider pairs are true slerp
}
