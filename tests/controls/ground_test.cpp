// Library ground shapes and the pure pieces of ground adaptation (rules G1-G6), checked
// against hand-derived geometry.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <catch2/catch.hpp>

#include "asterune/controls/ground.hpp"
#include "asterune/math/scalar.hpp"
#include "controls/ground_detail.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using namespace asterune::detail;  // the pure pieces (src/controls/ground_detail.hpp)
using asterune::test::AllocationScope;

namespace {


GroundRay down_from(const glm::vec3& origin, float length = 10.0f) { return GroundRay{origin, {0, -1, 0}, length}; }

Ground make(const GroundDesc& d) {
  auto g = build_ground(d);
  INFO((g.ok() ? std::string() : g.message()));
  REQUIRE(g.ok());
  return std::move(g).value();
}

}  // namespace

TEST_CASE("ground plane: hits from above, never from inside", "[ground]") {
  GroundPlane p;
  p.point = {0, 1, 0};
  p.normal = {0, 2, 0};  // not unit: build_ground normalizes
  const Ground g = make(GroundDesc{{p}, {}, {}});
  const GroundHit h = g.cast(down_from({3, 4, -2}));
  REQUIRE(h.hit);
  CHECK(h.point.y == Approx(1.0f));
  CHECK(h.distance == Approx(3.0f));
  CHECK(h.normal.y == Approx(1.0f));
  CHECK_FALSE(g.cast(down_from({3, 4, -2}, 2.9f)).hit);  // too short
  CHECK_FALSE(g.cast(down_from({0, 0.5f, 0})).hit);      // starts below the plane (inside)
  // A slanted ray at 45 degrees from height 2 above the plane travels 2*sqrt(2).
  const GroundHit s = g.cast(GroundRay{{0, 3, 0}, glm::normalize(glm::vec3(1, -1, 0)), 10.0f});
  REQUIRE(s.hit);
  CHECK(s.distance == Approx(2.0f * std::sqrt(2.0f)));
  CHECK(s.point.x == Approx(2.0f));
}

TEST_CASE("ground box: oriented faces, their normals, and collide false", "[ground]") {
  GroundBox b;
  b.center = {0, 0, 0};
  b.size = {2, 2, 2};
  b.rotation = glm::angleAxis(kPi / 4.0f, glm::vec3(0, 0, 1));  // a ridge: edge up along Z
  const Ground g = make(GroundDesc{{}, {b}, {}});
  // Straight down at x = 0.5: the top edge is at y = sqrt(2); the face x' = -1... is the one
  // facing up-right for x > 0, its plane: (x + y) / sqrt(2) = 1  ->  y = sqrt(2) - x.
  const GroundHit h = g.cast(down_from({0.5f, 5, 0}));
  REQUIRE(h.hit);
  CHECK(h.point.y == Approx(std::sqrt(2.0f) - 0.5f));
  CHECK(h.normal.x == Approx(std::sqrt(0.5f)));
  CHECK(h.normal.y == Approx(std::sqrt(0.5f)));
  CHECK(h.normal.z == Approx(0.0f).margin(1e-6));
  CHECK_FALSE(g.cast(down_from({0.0f, 0.5f, 0})).hit);  // origin inside the box
  CHECK_FALSE(g.cast(down_from({3.0f, 5, 0})).hit);     // beside it

  GroundBox ghost = b;
  ghost.collide = false;
  const Ground none = make(GroundDesc{{}, {ghost}, {}});
  CHECK_FALSE(none.cast(down_from({0.5f, 5, 0})).hit);
}

TEST_CASE("ground height field: bilinear heights and exact patch normals", "[ground]") {
  GroundHeightField f;
  f.origin = {10, 1, 20};
  f.cell_size = 2.0f;
  f.rows = 2;
  f.columns = 3;
  // Row 0 (z = 20): 0, 2, 2; row 1 (z = 22): 0, 4, 2.
  f.heights = {0, 2, 2, 0, 4, 2};
  const Ground g = make(GroundDesc{{}, {}, {f}});
  SECTION("first cell: h(u,v) = 2u + 2uv, so at (u, v) = (0.5, 0.5) h = 1.5") {
    const GroundHit h = g.cast(down_from({11, 10, 21}));
    REQUIRE(h.hit);
    CHECK(h.point.y == Approx(1.0f + 1.5f));
    // dh/dx = (2 + 2v) / cell = 1.5, dh/dz = 2u / cell = 0.5: n ~ (-1.5, 1, -0.5).
    const glm::vec3 n = glm::normalize(glm::vec3(-1.5f, 1.0f, -0.5f));
    CHECK(h.normal.x == Approx(n.x));
    CHECK(h.normal.y == Approx(n.y));
    CHECK(h.normal.z == Approx(n.z));
  }
  SECTION("grid corners are the samples") {
    CHECK(g.cast(down_from({12, 10, 22})).point.y == Approx(5.0f));
    CHECK(g.cast(down_from({14, 10, 20})).point.y == Approx(3.0f));
  }
  SECTION("outside the footprint there is no surface") {
    CHECK_FALSE(g.cast(down_from({9.9f, 10, 21})).hit);
    CHECK_FALSE(g.cast(down_from({11, 10, 22.5f})).hit);
  }
  SECTION("a slanted ray finds the first crossing of the patch") {
    // Second cell (x in [12, 14]): h(u,v) = 2 + 2v - 2uv; at v = 0.5 (z = 21) h = 3 - u.
    // Ray from (14, 5, 21) along (-1, -1, 0)/sqrt2 with arc s: x = 14 - s', y = 5 - s' (s' = s/sqrt2),
    // u = 1 - s'/2, world height 1 + 3 - u = 3 + s'/2; 5 - s' = 3 + s'/2 -> s' = 4/3.
    const GroundHit h = g.cast(GroundRay{{14, 5, 21}, glm::normalize(glm::vec3(-1, -1, 0)), 10.0f});
    REQUIRE(h.hit);
    CHECK(h.point.x == Approx(14.0f - 4.0f / 3.0f));
    CHECK(h.point.y == Approx(5.0f - 4.0f / 3.0f));
  }
}

namespace {

// Brute-force reference for a height-field ray, independent of the library's per-cell algebra:
// march the ray in 1e-4 steps of its length, in double, and bisect the first step where the
// ray's height falls below the grid's bilinear height (looked up cell by cell at each sample).
// Returns the distance of the first crossing, or -1 for none (or a start below the surface).
double reference_heightfield_hit(const GroundHeightField& f, const GroundRay& ray) {
  const auto below = [&](double t, bool& inside) {
    const double x = (ray.origin.x + t * ray.direction.x - f.origin.x) / f.cell_size;
    const double z = (ray.origin.z + t * ray.direction.z - f.origin.z) / f.cell_size;
    inside = x >= 0.0 && z >= 0.0 && x <= f.columns - 1 && z <= f.rows - 1;
    if (!inside) return 1.0;
    const int c = std::min(static_cast<int>(x), f.columns - 2), r = std::min(static_cast<int>(z), f.rows - 2);
    const double u = x - c, v = z - r;
    const auto H = [&](int rr, int cc) { return double(f.heights[static_cast<size_t>(rr * f.columns + cc)]); };
    const double h = H(r, c) * (1 - u) * (1 - v) + H(r, c + 1) * u * (1 - v) + H(r + 1, c) * (1 - u) * v +
                     H(r + 1, c + 1) * u * v;
    return (ray.origin.y + t * ray.direction.y - f.origin.y) - h;
  };
  bool inside = false;
  if (below(0.0, inside) < 0.0) return -1.0;
  const int steps = 10000;
  double prev = 0.0;
  for (int i = 1; i <= steps; ++i) {
    const double t = double(ray.length) * i / steps;
    if (below(t, inside) < 0.0 && inside) {
      double lo = prev, hi = t;
      for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi);
        bool in = false;
        ((below(mid, in) < 0.0 && in) ? hi : lo) = mid;
      }
      return hi;
    }
    prev = t;
  }
  return -1.0;
}

GroundHeightField flat_field(int rows, int columns, float cell, float height) {
  GroundHeightField f;
  f.cell_size = cell;
  f.rows = rows;
  f.columns = columns;
  f.heights.assign(static_cast<size_t>(rows * columns), height);
  return f;
}

}  // namespace

TEST_CASE("ground height field: a ray spanning more cells than an int holds still finds its hit", "[ground]") {
  SECTION("a long slanted ray") {
    // Flat at y = 0 over x, z in [0, 2] (3 x 3 samples, 1-stud cells). From (0.2, 1, 0.2) along
    // (1, -1, 0)/sqrt2 the ray meets y = 0 at x = 1.2 (cell column 1), 1.414 studs away; its
    // length of 1e12 studs reaches 7e11 cells along X.
    const GroundHeightField f = flat_field(3, 3, 1.0f, 0.0f);
    const GroundHit h = cast_heightfield(f, GroundRay{{0.2f, 1.0f, 0.2f}, glm::normalize(glm::vec3(1, -1, 0)), 1e12f});
    REQUIRE(h.hit);
    CHECK(h.point.x == Approx(1.2f));
    CHECK(h.point.y == Approx(0.0f).margin(1e-5));
    CHECK(h.distance == Approx(std::sqrt(2.0f)));
    CHECK(h.normal.y == Approx(1.0f));
  }
  SECTION("a tiny cell size") {
    // 1e-9-stud cells (2 x 3 samples): a 10-stud ray spans 7e9 cells. From (0.1e-9, 1.1e-9,
    // 0.5e-9) along (1, -1, 0)/sqrt2 it meets y = 0 at x = 1.2e-9 (cell column 1).
    const GroundHeightField f = flat_field(2, 3, 1e-9f, 0.0f);
    const GroundHit h =
        cast_heightfield(f, GroundRay{{0.1e-9f, 1.1e-9f, 0.5e-9f}, glm::normalize(glm::vec3(1, -1, 0)), 10.0f});
    REQUIRE(h.hit);
    CHECK(h.point.x == Approx(1.2e-9f).epsilon(1e-4));
    CHECK(h.distance == Approx(1.1e-9f * std::sqrt(2.0f)).epsilon(1e-4));
  }
  SECTION("a ray from a million studs away") {
    // Heights 0.5 over x, z in [0, 2]. The ray descends 1e-6 per stud toward -X and is aimed
    // at (1, 0.5, 1) from 1e6 studs away; the float origin there is exact only to 0.06 studs
    // along X and 1e-7 along Y (0.1 studs of landing point at this slope).
    const GroundHeightField f = flat_field(3, 3, 1.0f, 0.5f);
    const glm::vec3 d = glm::normalize(glm::vec3(-1.0f, -1e-6f, 0.0f));
    const glm::vec3 o = glm::vec3(1.0f, 0.5f, 1.0f) - 1e6f * d;
    const GroundHit h = cast_heightfield(f, GroundRay{o, d, 2e6f});
    REQUIRE(h.hit);
    CHECK(h.point.x == Approx(1.0f).margin(0.2));
    CHECK(h.point.y == Approx(0.5f).margin(1e-3));
  }
}

TEST_CASE("ground height field: rays agree with a brute-force march of the bilinear surface", "[ground]") {
  std::mt19937 rng(20261202u);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  GroundHeightField f;
  f.origin = {-3.0f, 0.5f, 2.0f};
  f.cell_size = 0.7f;
  f.rows = 6;
  f.columns = 8;
  for (int i = 0; i < f.rows * f.columns; ++i) f.heights.push_back(2.0f * unit(rng) - 1.0f);
  int hits = 0, misses = 0;
  for (int i = 0; i < 400; ++i) {
    // Origins over the footprint (4.9 x 3.5 studs) and above every height, so a ray meets the
    // surface from above or leaves the footprint (it cannot come back: no side walls to
    // disagree about); directions downward and slanted, some nearly level.
    const glm::vec3 o = f.origin + glm::vec3(4.9f * unit(rng), 1.05f + 2.5f * unit(rng), 3.5f * unit(rng));
    const glm::vec3 d = glm::normalize(glm::vec3(2.0f * unit(rng) - 1.0f, -unit(rng) - 0.05f, 2.0f * unit(rng) - 1.0f));
    const GroundRay ray{o, d, 12.0f};
    const double expected = reference_heightfield_hit(f, ray);
    const GroundHit h = cast_heightfield(f, ray);
    INFO("ray " << i << " from (" << o.x << ", " << o.y << ", " << o.z << ") along (" << d.x << ", " << d.y << ", "
                << d.z << "): reference " << expected << ", cast " << (h.hit ? h.distance : -1.0f));
    REQUIRE(h.hit == (expected >= 0.0));
    if (!h.hit) {
      ++misses;
      continue;
    }
    ++hits;
    CHECK(h.distance == Approx(expected).margin(2e-3));
  }
  CHECK(hits > 100);  // both outcomes are exercised
  CHECK(misses > 50);
}

TEST_CASE("ground: nearest shape wins, surface ids, batch form, no allocation", "[ground]") {
  GroundPlane floor;
  GroundBox step;
  step.center = {0, 0.2f, 0};
  step.size = {1, 0.4f, 1};
  const Ground g = make(GroundDesc{{floor}, {step}, {}});
  const GroundRay rays[3] = {down_from({0, 2, 0}), down_from({2, 2, 0}), down_from({2, 2, 0}, 1.0f)};
  GroundHit hits[3];
  AllocationScope alloc;
  g.cast(rays, hits);
  CHECK(alloc.count() == 0);
  REQUIRE(hits[0].hit);
  CHECK(hits[0].surface == 1u);  // the box (planes first, then boxes)
  CHECK(hits[0].point.y == Approx(0.4f));
  REQUIRE(hits[1].hit);
  CHECK(hits[1].surface == 0u);
  CHECK_FALSE(hits[2].hit);
  // Mismatched sizes: nothing written.
  GroundHit two[2];
  two[0].distance = -7.0f;
  g.cast(std::span<const GroundRay>(rays, 3), std::span<GroundHit>(two, 2));
  CHECK(two[0].distance == -7.0f);
}

TEST_CASE("build_ground refuses bad shapes, naming them", "[ground]") {
  GroundPlane p;
  p.normal = {0, 0, 0};
  auto r = build_ground(GroundDesc{{p}, {}, {}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("plane 0") != std::string::npos);
  GroundBox b;
  b.size = {1, 0, 1};
  r = build_ground(GroundDesc{{}, {GroundBox{}, b}, {}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("box 1") != std::string::npos);
  GroundHeightField f;
  f.rows = 2;
  f.columns = 2;
  f.heights = {0, 0, 0};
  r = build_ground(GroundDesc{{}, {}, {f}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("heightfield 0") != std::string::npos);
}

TEST_CASE("lift clamping and the missed-foot policy", "[ground]") {
  // Rule G2: bounded lift, clamped flag.
  GroundLift l = clamp_ground_lift(true, 0.4f, 1.0f);
  CHECK(l.lift == 0.4f);
  CHECK_FALSE(l.clamped);
  CHECK_FALSE(l.missed);
  l = clamp_ground_lift(true, -1.5f, 1.0f);
  CHECK(l.lift == -1.0f);
  CHECK(l.clamped);
  l = clamp_ground_lift(false, 0.3f, 1.0f);
  CHECK(l.missed);
  CHECK(l.lift == 0.0f);
  l = clamp_ground_lift(true, std::numeric_limits<float>::quiet_NaN(), 1.0f);
  CHECK(l.missed);
  // Rule G6: a missed foot matches the other foot, or holds the animated height.
  CHECK(resolve_missed_lift(true, 0.25f) == 0.25f);
  CHECK(resolve_missed_lift(false, 0.25f) == 0.0f);
}

TEST_CASE("leg drop: the exact vertical drop that brings a target within reach", "[ground]") {
  const glm::vec3 up(0, 1, 0);
  // Straight down: hip at 2, target at -0.0481, reach 1.7481 -> 0.3.
  CHECK(leg_drop_needed({0, 2, 0}, {0, -0.0481f, 0}, up, 1.7481f) == Approx(0.3f).margin(1e-5));
  CHECK(leg_drop_needed({0, 2, 0}, {0, 1.0f, 0}, up, 1.7481f) == 0.0f);  // within reach
  // 3-4-5: target 3 to the side and 4 + p below, reach 5 -> p such that 9 + (4 + p - ... )
  // Hip (0,0,0), target (3,-6,0), reach 5: after dropping p the vertical gap is 6 - p = 4 -> p = 2.
  CHECK(leg_drop_needed({0, 0, 0}, {3, -6, 0}, up, 5.0f) == Approx(2.0f));
  // Out of reach sideways whatever the drop: closest approach (level with the target).
  CHECK(leg_drop_needed({0, 0, 0}, {6, -1, 0}, up, 5.0f) == Approx(1.0f));
  // Ground-induced: the animated pose's own deficit is not the ground's.
  CHECK(ground_induced_drop(0.35f, 0.05f) == Approx(0.3f));
  CHECK(ground_induced_drop(0.05f, 0.35f) == 0.0f);
}

TEST_CASE("pelvis compromise: max when one leg asks, smooth where the needs cross", "[ground]") {
  // Rule G6: equals the single need when the other leg needs nothing.
  CHECK(compromise_pelvis_drop(0.3f, 0.0f, 1.0f) == Approx(0.3f));
  CHECK(compromise_pelvis_drop(0.0f, 0.3f, 1.0f) == Approx(0.3f));
  CHECK(compromise_pelvis_drop(0.0f, 0.0f, 1.0f) == 0.0f);
  // Equal needs l: (2l + sqrt(4 k^2 l^2)) / 2 = l (1 + k).
  CHECK(compromise_pelvis_drop(0.2f, 0.2f, 1.0f) == Approx(0.2f * (1.0f + kPelvisCompromise)));
  // Never below max (no leg left short), capped, symmetric, NaN-safe.
  for (float l = 0.0f; l <= 0.5f; l += 0.05f)
    for (float r = 0.0f; r <= 0.5f; r += 0.05f) {
      CHECK(compromise_pelvis_drop(l, r, 1.0f) >= std::max(l, r) - 1e-6f);
      CHECK(compromise_pelvis_drop(l, r, 1.0f) == compromise_pelvis_drop(r, l, 1.0f));
    }
  CHECK(compromise_pelvis_drop(0.8f, 0.9f, 0.5f) == 0.5f);
  CHECK(compromise_pelvis_drop(std::numeric_limits<float>::quiet_NaN(), 0.2f, 1.0f) == Approx(0.2f));
  // Smoothness where the needs cross (l = r = 0.2 as the left need sweeps): the slope just
  // left of the crossing equals the slope just right of it; max() jumps from 0 to 1 there.
  const float h = 1e-3f;
  const auto f = [](float l) { return compromise_pelvis_drop(l, 0.2f, 1.0f); };
  const float slope_left = (f(0.2f) - f(0.2f - h)) / h;
  const float slope_right = (f(0.2f + h) - f(0.2f)) / h;
  CHECK(std::fabs(slope_right - slope_left) < 0.02f);
}

TEST_CASE("direction smoothing and tilt angles agree with a second formulation in double (rule G4, G5)", "[ground]") {
  // Reference: the angle between the directions from double atan2, and the turn of `current`
  // toward `target` by the response's share of it with Rodrigues' formula in double. Angles
  // from 1e-4 rad to 179 degrees, responses from 0.001 to 0.999.
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto random_unit = [&] {
    glm::dvec3 v(unit(rng), unit(rng), unit(rng));
    while (glm::length(v) < 0.1) v = glm::dvec3(unit(rng), unit(rng), unit(rng));
    return glm::normalize(v);
  };
  const double angles[] = {1e-4, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.9, 1.2, 1.5707963, 1.8, 2.4, 3.0, 3.1241};
  const double responses[] = {0.001, 0.05, 0.154, 0.5, 0.83, 0.999};
  int checked = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const glm::dvec3 cur = random_unit();
    const glm::dvec3 side = glm::normalize(glm::cross(cur, random_unit()));
    const glm::dvec3 ortho = glm::cross(side, cur);  // unit, orthogonal to cur
    for (const double theta : angles) {
      const glm::dvec3 tgt = glm::normalize(std::cos(theta) * cur + std::sin(theta) * ortho);
      const glm::vec3 cf(cur), tf(tgt);
      // The reference takes the float inputs as they are.
      const glm::dvec3 cd(cf), td(tf);
      const glm::dvec3 axis = glm::cross(cd, td);
      const double angle = std::atan2(glm::length(axis), glm::dot(cd, td));
      for (const double r : responses) {
        const double phi = r * angle;
        const glm::dvec3 n = glm::normalize(axis);
        const glm::dvec3 want = glm::normalize(std::cos(phi) * cd + std::sin(phi) * glm::cross(n, cd) +
                                               (1.0 - std::cos(phi)) * glm::dot(n, cd) * n);
        const glm::vec3 got = smooth_direction(cf, tf, static_cast<float>(r));
        INFO("theta " << theta << " response " << r);
        // Near half a circle the axis comes from a short cross product (|axis| = sin theta).
        CHECK(glm::length(glm::dvec3(got) - want) < (theta < 3.0 ? 1e-6 : 3e-6));
        ++checked;
      }
      float tilt = -1.0f;
      capped_tilt(cf, tf, 3.2f, &tilt);
      CHECK(std::fabs(tilt - angle) < 1e-6 * std::max(1.0, angle));
      const glm::quat q = capped_tilt(cf, tf, 3.2f);
      // The half-vector form (1 + c, axis) loses precision as the angle nears pi.
      CHECK(glm::length(glm::dvec3(q * cf) - td) < (theta < 2.5 ? 2e-6 : 2e-5));
    }
  }
  CHECK(checked == 40 * 13 * 6);
}

TEST_CASE("tilt capping and direction smoothing", "[ground]") {
  const glm::vec3 up(0, 1, 0);
  const float t20 = 20.0f * kPi / 180.0f, t35 = 35.0f * kPi / 180.0f, t50 = 50.0f * kPi / 180.0f;
  float tilt = -1.0f;
  bool capped = true;
  glm::quat q = capped_tilt(up, {0, std::cos(t20), std::sin(t20)}, t35, &tilt, &capped);
  CHECK(tilt == Approx(t20));
  CHECK_FALSE(capped);
  glm::vec3 turned = q * up;
  CHECK(turned.z == Approx(std::sin(t20)));
  q = capped_tilt(up, {std::sin(t50), std::cos(t50), 0}, t35, &tilt, &capped);
  CHECK(tilt == Approx(t35));
  CHECK(capped);
  turned = q * up;
  CHECK(turned.x == Approx(std::sin(t35)));
  CHECK(turned.y == Approx(std::cos(t35)));
  q = capped_tilt(up, up, t35, &tilt, &capped);
  CHECK(q == glm::quat(1, 0, 0, 0));
  CHECK(tilt == 0.0f);

  // Response 1 - exp(-dt/tau): two half steps equal one whole step (frame-rate independence).
  CHECK(smoothing_response(0.1f, 0.1f) == Approx(1.0f - std::exp(-1.0f)));
  CHECK(smoothing_response(0.1f, 0.0f) == 1.0f);
  CHECK(smoothing_response(0.0f, 0.1f) == 0.0f);
  CHECK(smoothing_response(std::numeric_limits<float>::infinity(), 0.1f) == 1.0f);
  const glm::vec3 target(std::sin(t50), std::cos(t50), 0);
  const glm::vec3 once = smooth_direction(up, target, smoothing_response(0.1f, 0.2f));
  const glm::vec3 half = smooth_direction(up, target, smoothing_response(0.05f, 0.2f));
  const glm::vec3 twice = smooth_direction(half, target, smoothing_response(0.05f, 0.2f));
  CHECK(glm::length(once - twice) < 1e-5f);
  CHECK(std::acos(glm::dot(once, up)) == Approx(t50 * (1.0f - std::exp(-0.5f))));
}
