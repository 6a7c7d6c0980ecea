// The libm-free atan2 of the per-frame reports (src/math/atan2_poly.hpp) against std::atan2
// in double: every octant, both signs of zero, tiny and huge magnitudes.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "math/atan2_poly.hpp"

using asterune::detail::atan2_poly;

TEST_CASE("atan2_poly is within 3e-7 rad of atan2 everywhere", "[math]") {
  double worst = 0.0;
  // The unit circle, finely, then random points over many magnitudes.
  for (int i = 0; i <= 200000; ++i) {
    const double a = -M_PI + 2.0 * M_PI * i / 200000.0;
    const float y = static_cast<float>(std::sin(a)), x = static_cast<float>(std::cos(a));
    worst = std::max(worst, std::fabs(atan2_poly(y, x) - std::atan2(static_cast<double>(y), static_cast<double>(x))));
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_int_distribution<int> e(-40, 40);
  for (int i = 0; i < 200000; ++i) {
    const float y = std::ldexp(u(rng), e(rng)), x = std::ldexp(u(rng), e(rng));
    worst = std::max(worst, std::fabs(atan2_poly(y, x) - std::atan2(static_cast<double>(y), static_cast<double>(x))));
  }
  CHECK(worst < 3e-7);
}

TEST_CASE("atan2_poly keeps atan2's axes and signed zeros", "[math]") {
  const float pi = static_cast<float>(M_PI);
  CHECK(atan2_poly(0.0f, 1.0f) == 0.0f);
  CHECK(atan2_poly(1.0f, 0.0f) == Approx(pi / 2).margin(1e-7));
  CHECK(atan2_poly(-1.0f, 0.0f) == Approx(-pi / 2).margin(1e-7));
  CHECK(atan2_poly(0.0f, -1.0f) == Approx(pi).margin(1e-7));
  CHECK(atan2_poly(-0.0f, -1.0f) == Approx(-pi).margin(1e-7));
  CHECK(atan2_poly(1.0f, 1.0f) == Approx(pi / 4).margin(1e-7));
  CHECK(atan2_poly(-2.0f, -2.0f) == Approx(-3 * pi / 4).margin(1e-7));
  CHECK(atan2_poly(0.0f, 0.0f) == 0.0f);
}
