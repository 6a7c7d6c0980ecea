// Analytic two-bone IK: hand-derived triangles, reach clamp, soft reach C1, stretch ceiling,
// pole half-plane and continuity, degenerate inputs, allocation-free (rule IK3, IK8).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "asterune/solvers/two_bone.hpp"
#include "support/math.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using asterune::test::angle_deg;
using asterune::test::finite_quat;
using asterune::test::finite_vec;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A leg: hip at the origin, thigh 1.2 down, shin 1.0 slightly forward (-Z) so it has a plane.
TwoBoneInput leg() {
  TwoBoneInput in;
  in.root = {0.0f, 0.0f, 0.0f};
  in.mid = {0.0f, -1.2f, 0.0f};
  in.end = in.mid + glm::normalize(glm::vec3(0.0f, -1.0f, 0.2f)) * 1.0f;
  return in;
}

// Interior knee angle (degrees) of a solved triangle: 180 = straight.
float knee_angle(const glm::vec3& root, const glm::vec3& mid, const glm::vec3& end) {
  return angle_deg(root - mid, end - mid);
}

bool all_finite(const TwoBoneResult& r) {
  return finite_vec(r.mid) && finite_vec(r.end) && finite_vec(r.bend_direction) && finite_quat(r.delta_upper) &&
         finite_quat(r.delta_lower) && std::isfinite(r.report.residual) && std::isfinite(r.stretch);
}

}  // namespace

TEST_CASE("two-bone: hand-derived right-angle knee (rule IK3)") {
  // Thigh and shin of length 1, target sqrt(2) straight below: the law of cosines gives a
  // 90-degree knee and a 45-degree hip; the pole in front (-Z) puts the knee at
  // (0, -sqrt(2)/2, -sqrt(2)/2).
  TwoBoneInput in;
  in.root = {0, 0, 0};
  in.mid = {0, -1, 0};
  in.end = {0, -1, -1};
  in.target = {0, -std::sqrt(2.0f), 0};
  in.pole = {0, -0.5f, -5};
  in.has_pole = true;
  const TwoBoneResult r = solve_two_bone(in);
  const float h = std::sqrt(0.5f);
  CHECK(glm::length(r.mid - glm::vec3(0, -h, -h)) < 1e-5f);
  CHECK(glm::length(r.end - in.target) < 1e-5f);
  CHECK(glm::length(r.bend_direction - glm::vec3(0, 0, -1)) < 1e-5f);
  CHECK(r.report.reached);
  CHECK_FALSE(r.report.clamped);
  CHECK(r.report.passes == 1);
}

TEST_CASE("two-bone: grid of reachable targets lands within 1e-4 with lengths kept and the knee toward the pole (rule IK3)") {
  const TwoBoneInput base = leg();
  const float a = 1.2f, b = 1.0f;
  const glm::vec3 pole(0.3f, -1.0f, -4.0f);
  int solved = 0;
  for (float x = -1.6f; x <= 1.6f; x += 0.4f) {
    for (float y = -2.2f; y <= 1.0f; y += 0.4f) {
      for (float z = -1.6f; z <= 1.6f; z += 0.4f) {
        const glm::vec3 t(x, y, z);
        const float d = glm::length(t);
        if (d < (a - b) + 0.02f || d > (a + b) - 0.02f) continue;
        // Only where the pole is well off the root->target axis (sine > 0.5) does it fully
        // own the bend plane (rule IK8 continuity eases it near the axis).
        const glm::vec3 axis = t / d;
        const glm::vec3 pole_perp = pole - glm::dot(pole, axis) * axis;
        if (glm::length(pole_perp) / glm::length(pole) <= 0.5f) continue;
        TwoBoneInput in = base;
        in.target = t;
        in.pole = pole;
        in.has_pole = true;
        const TwoBoneResult r = solve_two_bone(in);
        INFO("target " << x << " " << y << " " << z);
        REQUIRE(glm::length(r.end - t) <= 1e-4f);
        REQUIRE(r.report.reached);
        REQUIRE(std::fabs(glm::length(r.mid - in.root) - a) <= 1e-5f);
        REQUIRE(std::fabs(glm::length(r.end - r.mid) - b) <= 1e-5f);
        // Knee on the pole's side of the root->target line.
        const glm::vec3 knee_perp = r.mid - glm::dot(r.mid, axis) * axis;
        REQUIRE(glm::dot(knee_perp, pole_perp) > 0.0f);
        // The deltas reproduce the solved segments (point_chain.hpp convention): the root pivot is
        // fixed, delta_upper turns the thigh, delta_lower * delta_upper turns the shin.
        REQUIRE(glm::length(r.delta_upper * (base.mid - base.root) - (r.mid - base.root)) <= 1e-4f);
        REQUIRE(glm::length(r.delta_lower * (r.delta_upper * (base.end - base.mid)) - (r.end - r.mid)) <= 1e-4f);
        ++solved;
      }
    }
  }
  CHECK(solved > 100);
}

TEST_CASE("two-bone: delta_upper keeps the hinge axis (bend-plane normal maps to bend-plane normal)") {
  TwoBoneInput in = leg();
  in.target = {0.5f, -1.5f, -0.6f};
  in.pole = {3, -1, -1};
  in.has_pole = true;
  const TwoBoneResult r = solve_two_bone(in);
  const glm::vec3 n_before = glm::normalize(glm::cross(in.mid - in.root, in.end - in.mid));
  const glm::vec3 n_after = glm::normalize(glm::cross(r.mid - in.root, r.end - r.mid));
  CHECK(glm::length(r.delta_upper * n_before - n_after) < 1e-4f);
  // The lower delta is then a pure turn about that normal.
  const glm::vec3 v(r.delta_lower.x, r.delta_lower.y, r.delta_lower.z);
  CHECK(glm::length(glm::cross(v, n_after)) < 1e-4f);
}

TEST_CASE("two-bone: targets beyond reach give a limb straight toward the target but never exactly straight (rule IK3)") {
  for (const glm::vec3 t : {glm::vec3(0, -5, 0), glm::vec3(3, 1, -2), glm::vec3(0, 2.21f, 0), glm::vec3(-2.5f, 0, 0)}) {
    TwoBoneInput in = leg();
    in.target = t;
    const TwoBoneResult r = solve_two_bone(in);
    INFO("target " << t.x << " " << t.y << " " << t.z);
    CHECK(angle_deg(r.end - in.root, t) < 1e-3f);          // toward the target
    CHECK(glm::length(r.end - in.root) < 2.2f);             // strictly inside full reach
    CHECK(glm::length(r.end - in.root) > 2.2f - 1e-3f);     // but essentially extended
    CHECK(knee_angle(in.root, r.mid, r.end) < 180.0f);      // never exactly straight
    CHECK(glm::length(glm::cross(r.mid - in.root, r.end - r.mid)) > 1e-6f);
    CHECK(r.report.clamped);
    CHECK_FALSE(r.report.reached);
    CHECK(r.report.residual == Approx(glm::length(t) - glm::length(r.end - in.root)).margin(1e-4));
  }
}

TEST_CASE("two-bone: a target inside |a-b| gives a limb never exactly folded (rule IK3)") {
  TwoBoneInput in = leg();
  in.target = {0, -0.1f, 0};  // |a-b| = 0.2
  const TwoBoneResult r = solve_two_bone(in);
  CHECK(knee_angle(in.root, r.mid, r.end) > 0.0f);
  CHECK(glm::length(r.end - in.root) > 0.2f);
  CHECK(r.report.clamped);
  CHECK(all_finite(r));
}

TEST_CASE("two-bone: soft reach curve starts with slope 1 and never reaches full extension (rule IK8)") {
  const float L = 2.0f, s = 0.9f;
  CHECK(soft_reach_distance(1.5f, L, s) == 1.5f);            // identity below s*L
  CHECK(soft_reach_distance(1.8f, L, s) == 1.8f);
  const float h = 1e-3f;
  const float slope = (soft_reach_distance(1.8f + h, L, s) - soft_reach_distance(1.8f, L, s)) / h;
  CHECK(slope == Approx(1.0f).margin(5e-3));                 // C1 at the softening start
  CHECK(soft_reach_distance(2.0f, L, s) < 2.0f);
  CHECK(soft_reach_distance(100.0f, L, s) <= 2.0f);
  // Off when s is outside (0, 1).
  CHECK(soft_reach_distance(2.5f, L, 0.0f) == 2.5f);
  CHECK(soft_reach_distance(2.5f, L, 1.0f) == 2.5f);
}

namespace {
// Knee angle (degrees) of the solved leg with the target straight below at distance d.
double solved_knee(float d, const TwoBoneSettings& s) {
  TwoBoneInput in = leg();
  in.target = {0, -d, 0};
  in.pole = {0, -1, -5};
  in.has_pole = true;
  const TwoBoneResult r = solve_two_bone(in, s);
  return knee_angle(in.root, r.mid, r.end);
}
}  // namespace

TEST_CASE("two-bone: with soft reach the bend angle is C1 across the softening start; the hard clamp is not (rule IK8)") {
  TwoBoneSettings soft;
  soft.soft_reach_start = 0.9f;
  const float L = 2.2f;
  const float start = 0.9f * L;
  const float h = 4e-3f;
  // One-sided finite-difference slopes on both sides of the softening start.
  const double left = (solved_knee(start, soft) - solved_knee(start - h, soft)) / h;
  const double right = (solved_knee(start + h, soft) - solved_knee(start, soft)) / h;
  INFO("left " << left << " right " << right);
  CHECK(left > 10.0);  // the knee is straightening noticeably here (degrees per stud)
  CHECK(std::fabs(right - left) < 0.1 * std::fabs(left));

  // Across the whole band and past full reach the slope changes gradually (no step).
  double prev = (solved_knee(start - 0.1f + h, soft) - solved_knee(start - 0.1f, soft)) / h;
  double max_step = 0.0;
  for (float d = start - 0.1f + h; d < L + 0.3f; d += h) {
    const double slope = (solved_knee(d + h, soft) - solved_knee(d, soft)) / h;
    max_step = std::max(max_step, std::fabs(slope - prev));
    prev = slope;
  }
  INFO("largest slope step with soft reach " << max_step);
  CHECK(max_step < 0.1 * left);

  // Negative control: without soft reach the slope drops from steep to 0 at the clamp.
  TwoBoneSettings hard;
  const float clamp_at = L * (1.0f - 1e-4f);
  const double before = (solved_knee(clamp_at - h, hard) - solved_knee(clamp_at - 2 * h, hard)) / h;
  const double after = (solved_knee(clamp_at + 2 * h, hard) - solved_knee(clamp_at + h, hard)) / h;
  CHECK(std::fabs(after) < 1e-3);
  CHECK(before > 5.0 * left);
}

TEST_CASE("two-bone: stretch is capped at the ceiling so the knee keeps straightening as the target recedes (rule IK8)") {
  CHECK(two_bone_stretch_ceiling(0.9f) == Approx(0.1f / 1.375f));
  CHECK(two_bone_stretch_ceiling(0.0f) == 0.0f);
  // Independent check of the ceiling: k(d) = 1 + m*smoothstep must keep d/k non-decreasing.
  for (float s : {0.8f, 0.9f, 0.94f}) {
    const float m = two_bone_stretch_ceiling(s);
    double prev_ratio = 0.0;
    for (float d = s * 2.0f; d <= 2.2f; d += 1e-4f) {
      const double x = std::clamp((d / 2.0 - s) / (1.0 - s), 0.0, 1.0);
      const double k = 1.0 + m * x * x * (3.0 - 2.0 * x);
      REQUIRE(two_bone_stretch_factor(d, 2.0f, s, 10.0f) == Approx(k).epsilon(1e-5));
      const double ratio = d / k;
      REQUIRE(ratio >= prev_ratio - 1e-6);
      prev_ratio = ratio;
    }
    // 10 % above the ceiling the ratio dips somewhere in the band: the cap is needed.
    bool dips = false;
    prev_ratio = 0.0;
    for (double d = s * 2.0; d <= 2.2; d += 1e-4) {
      const double x = std::clamp((d / 2.0 - s) / (1.0 - s), 0.0, 1.0);
      const double ratio = d / (1.0 + 1.1 * m * x * x * (3.0 - 2.0 * x));
      if (ratio < prev_ratio - 1e-9) dips = true;
      prev_ratio = ratio;
    }
    CHECK(dips);
  }
  // Solved: with stretch the knee angle never decreases as the target moves away, the
  // segments grow by the reported factor, and the reach improves over soft reach alone.
  TwoBoneSettings st;
  st.soft_reach_start = 0.9f;
  st.max_stretch = 1.0f;  // asks for far more than the ceiling
  double prev = 0.0;
  for (float d = 1.8f; d < 2.6f; d += 0.005f) {
    const double knee = solved_knee(d, st);
    REQUIRE(knee >= prev - 1e-3);
    prev = knee;
  }
  TwoBoneInput in = leg();
  in.target = {0, -2.2f, 0};
  const TwoBoneResult r = solve_two_bone(in, st);
  CHECK(r.stretch == Approx(1.0f + two_bone_stretch_ceiling(0.9f)));
  CHECK(glm::length(r.mid - in.root) == Approx(1.2f * r.stretch).epsilon(1e-5));
  CHECK(glm::length(r.end - r.mid) == Approx(1.0f * r.stretch).epsilon(1e-5));
  TwoBoneSettings soft_only;
  soft_only.soft_reach_start = 0.9f;
  CHECK(r.report.residual < solve_two_bone(in, soft_only).report.residual);
}

TEST_CASE("two-bone: a target swept in circles through the pole axis never flips the knee (rule IK8)") {
  // Hip at the origin, pole 3 studs in front (-Z). The target circles in the YZ plane at 1.5
  // studs, so twice per turn it passes straight through the root->pole axis, where the pole's
  // projection reverses. Each frame feeds its solved pose and bend back in. The pole band is
  // widened beyond the pole's whole distance (f (a+b) = 5 studs > 3) so that the swing has the room
  // these per-solve sweeps need; the default band's same-frame pole is tested below.
  TwoBoneSettings settings;
  settings.pole_band_fraction = 2.5f;
  for (const float step_deg : {1.0f, 2.0f, 4.0f, 7.0f}) {
    TwoBoneInput in;
    in.root = {0, 0, 0};
    in.mid = {0, -1, 0};
    in.end = {0, -1, -1};
    in.pole = {0, 0, -3};
    in.has_pole = true;
    glm::vec3 prev_bend(0.0f);
    float max_jump = 0.0f;
    float max_naive_jump = 0.0f;
    glm::vec3 prev_naive(0.0f);
    const int frames = static_cast<int>(720.0f / step_deg);
    for (int f = 0; f <= frames; ++f) {
      const float phi = glm::radians(-60.0f + step_deg * static_cast<float>(f));
      in.target = 1.5f * glm::vec3(0.0f, std::cos(phi), std::sin(phi));
      const TwoBoneResult r = solve_two_bone(in, settings);
      REQUIRE(glm::length(r.end - in.target) < 1e-4f);
      if (f > 0) max_jump = std::max(max_jump, angle_deg(prev_bend, r.bend_direction));
      prev_bend = r.bend_direction;
      in.mid = r.mid;
      in.end = r.end;
      in.previous_bend = r.bend_direction;
      // What a pole-only solver would do: the pole's component orthogonal to the axis.
      const glm::vec3 axis = glm::normalize(in.target);
      const glm::vec3 naive = in.pole - glm::dot(in.pole, axis) * axis;
      // Slow sweeps: away from the axis the knee is back on the pole's side (it follows).
      if (step_deg <= 2.0f && f > 0 && glm::length(naive) / glm::length(in.pole) > 0.9f) {
        REQUIRE(glm::dot(r.bend_direction, glm::normalize(naive)) > 0.9f);
      }
      if (glm::length(naive) > 1e-6f) {
        if (f > 0 && glm::length(prev_naive) > 1e-6f) max_naive_jump = std::max(max_naive_jump, angle_deg(prev_naive, naive));
        prev_naive = naive;
      }
    }
    INFO("step " << step_deg << " deg: max knee jump " << max_jump << " naive " << max_naive_jump);
    CHECK(max_jump <= 20.0f);
    CHECK(max_naive_jump > 150.0f);  // the sweep really crosses the singular axis
  }
}

TEST_CASE("two-bone: a well-defined pole sets the bend on the same solve, whatever the history (rule IK8)") {
  // rho = |pole projection off the root->target axis|. At rho >= 0.1 (a + b) the bend is the
  // pole's even when previous_bend points the opposite way; inside the band it lags by at
  // most max_bend_turn per solve and at most (1 - smoothstep(rho / band)) * pi.
  TwoBoneInput in;
  in.root = {0, 0, 0};
  in.mid = {0, -1, 0.1f};
  in.end = {0, -2, 0};
  in.target = {0, -1.5f, 0};  // axis -Y; a + b ~ 2.01, band ~ 0.2
  in.has_pole = true;
  in.previous_bend = {0, 0, -1};  // opposite to every pole below
  for (const float rho : {0.25f, 0.5f, 3.0f}) {
    in.pole = {0, -1, rho};
    const TwoBoneResult r = solve_two_bone(in);
    INFO("rho " << rho);
    CHECK(glm::dot(r.bend_direction, glm::vec3(0, 0, 1)) > 0.9999f);
  }
  TwoBoneSettings s;
  s.max_bend_turn = glm::radians(10.0f);
  const float band = 0.1f * (glm::length(in.mid - in.root) + glm::length(in.end - in.mid));
  for (const float rho : {0.0005f, 0.05f, 0.1f, 0.15f, 0.19f}) {
    in.pole = {0, -1, rho};
    const TwoBoneResult r = solve_two_bone(in, s);
    const float x = std::clamp(rho / band, 0.0f, 1.0f);
    const float envelope = (1.0f - x * x * (3.0f - 2.0f * x)) * 180.0f;
    const float lag = angle_deg(r.bend_direction, glm::vec3(0, 0, 1));
    INFO("rho " << rho << " lag " << lag << " envelope " << envelope);
    CHECK(lag == Approx(std::min(170.0f, envelope)).margin(0.05));
  }
}

TEST_CASE("two-bone: max_extension keeps the limb bent (seed 003 ClampArmReachDistance)") {
  // Solved distance <= m (a + b); hand-derived knee angle bound from the law of cosines.
  TwoBoneInput in;
  in.root = {0, 0, 0};
  in.mid = {0, -1.2f, 0.1f};
  in.end = {0, -2.2f, 0};
  const float a = glm::length(in.mid), b = glm::length(in.end - in.mid);
  for (const float soft : {0.0f, 0.85f}) {
    TwoBoneSettings s;
    s.max_extension = 0.9f;
    s.soft_reach_start = soft;
    for (float d = 0.5f; d <= 4.0f; d += 0.05f) {
      in.target = {0, -d, 0};
      const TwoBoneResult r = solve_two_bone(in, s);
      const float solved = glm::length(r.end);
      CHECK(solved <= 0.9f * (a + b) + 1e-5f);
      if (d > 0.9f * (a + b)) CHECK(r.report.clamped);
      if (soft == 0.0f && d <= 0.9f * (a + b) - 1e-3f) CHECK(r.report.reached);
      const float knee = angle_deg(in.root - r.mid, r.end - r.mid);
      const float bound = glm::degrees(std::acos((a * a + b * b - 0.81f * (a + b) * (a + b)) / (2.0f * a * b)));
      CHECK(knee <= bound + 0.01f);
    }
  }
}

TEST_CASE("two-bone: with no usable pole the current bend is kept, else an orthogonal fallback (rule IK3)") {
  TwoBoneInput in = leg();  // bent toward +Z? the shin goes to +Z, so the knee points -Z side
  in.target = {0, -1.8f, 0.3f};
  const glm::vec3 axis = glm::normalize(in.target);
  const glm::vec3 current_bend = glm::normalize((in.mid - in.root) - glm::dot(in.mid - in.root, glm::normalize(in.end - in.root)) * glm::normalize(in.end - in.root));
  for (int variant = 0; variant < 4; ++variant) {
    TwoBoneInput v = in;
    if (variant == 1) { v.has_pole = true; v.pole = in.root + 3.0f * axis; }    // on the axis
    if (variant == 2) { v.has_pole = true; v.pole = {kNaN, 0, 0}; }             // NaN
    if (variant == 3) { v.has_pole = true; v.pole = in.root; }                  // at the root
    const TwoBoneResult r = solve_two_bone(v);
    INFO("variant " << variant);
    REQUIRE(all_finite(r));
    CHECK(glm::length(r.end - in.target) < 1e-4f);
    CHECK(glm::dot(r.bend_direction, current_bend) > 0.9f);
    CHECK(std::fabs(glm::dot(r.bend_direction, axis)) < 1e-4f);
  }
  // A straight current limb and no previous bend: any orthogonal direction, still finite.
  TwoBoneInput straight;
  straight.root = {0, 0, 0};
  straight.mid = {0, -1, 0};
  straight.end = {0, -2, 0};
  straight.target = {0, -1.5f, 0};
  const TwoBoneResult r = solve_two_bone(straight);
  REQUIRE(all_finite(r));
  CHECK(glm::length(r.end - straight.target) < 1e-4f);
  CHECK(std::fabs(glm::dot(r.bend_direction, glm::vec3(0, -1, 0))) < 1e-4f);
  CHECK(glm::length(r.bend_direction) == Approx(1.0f));
}

TEST_CASE("two-bone: degenerate inputs never produce NaN and never poison the pose (rule IK3, IK8)") {
  const TwoBoneInput base = leg();
  SECTION("NaN target: no change, not reached") {
    TwoBoneInput in = base;
    in.target = {kNaN, 0, 0};
    const TwoBoneResult r = solve_two_bone(in);
    CHECK(r.mid == base.mid);
    CHECK(r.end == base.end);
    CHECK(r.delta_upper == glm::quat(1, 0, 0, 0));
    CHECK(r.delta_lower == glm::quat(1, 0, 0, 0));
    CHECK_FALSE(r.report.reached);
    CHECK(r.report.residual < 0.0f);
    CHECK(all_finite(r));
  }
  SECTION("infinite target") {
    TwoBoneInput in = base;
    in.target = {std::numeric_limits<float>::infinity(), 0, 0};
    const TwoBoneResult r = solve_two_bone(in);
    CHECK(r.end == base.end);
    CHECK(all_finite(r));
  }
  SECTION("zero-length bones") {
    TwoBoneInput in = base;
    in.mid = in.root;
    in.target = {0, -1, 0};
    TwoBoneResult r = solve_two_bone(in);
    CHECK(all_finite(r));
    CHECK(r.end == in.end);
    in = base;
    in.end = in.mid;
    r = solve_two_bone(in);
    CHECK(all_finite(r));
    in.root = in.mid = in.end = {1, 1, 1};
    r = solve_two_bone(in);
    CHECK(all_finite(r));
    CHECK_FALSE(r.report.reached);
  }
  SECTION("target at the root") {
    TwoBoneInput in = base;
    in.target = in.root;
    const TwoBoneResult r = solve_two_bone(in);
    CHECK(all_finite(r));
    CHECK(glm::length(r.mid - in.root) == Approx(1.2f));
    CHECK(glm::length(r.end - r.mid) == Approx(1.0f));
  }
  SECTION("NaN previous bend and NaN settings") {
    TwoBoneInput in = base;
    in.target = {0.2f, -1.5f, 0.1f};
    in.previous_bend = {kNaN, kNaN, kNaN};
    TwoBoneSettings s;
    s.soft_reach_start = kNaN;
    s.max_stretch = kNaN;
    const TwoBoneResult r = solve_two_bone(in, s);
    CHECK(all_finite(r));
    CHECK(r.report.reached);
  }
  SECTION("NaN pivots") {
    TwoBoneInput in = base;
    in.mid = {kNaN, 0, 0};
    in.target = {0, -1, 0};
    const TwoBoneResult r = solve_two_bone(in);
    CHECK_FALSE(r.report.reached);
    CHECK(r.report.residual < 0.0f);
    CHECK(finite_quat(r.delta_upper));
  }
}

TEST_CASE("two-bone: solving allocates nothing") {
  TwoBoneInput in = leg();
  in.pole = {0, -1, -4};
  in.has_pole = true;
  TwoBoneSettings s;
  s.soft_reach_start = 0.9f;
  s.max_stretch = 0.05f;
  float sink = 0.0f;
  asterune::test::AllocationScope scope;
  for (int i = 0; i < 100; ++i) {
    in.target = {0.01f * static_cast<float>(i), -1.5f, 0.3f};
    sink += solve_two_bone(in, s).report.residual;
  }
  REQUIRE(scope.count() == 0);
  CHECK(std::isfinite(sink));
}
