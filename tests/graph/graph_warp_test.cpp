// StrideWarp and OrientationWarp (rules LO6-LO9) on the synthetic walker
// (tests/support/synthetic_walker.hpp) and the hand-typed R15: every expected figure comes from
// the walker's construction and the rig's table (hip-knee 0.4011 + 0.4208 = 0.8219 studs,
// knee-ankle 0.3790 + 0.5472 = 0.9262 studs), or from the same walk played unwarped.
#include <catch2/catch.hpp>

#include <cmath>

#include "graph/graph_support.hpp"
#include "asterune/rig/world.hpp"
#include "support/synthetic_walker.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

constexpr float kThigh = 0.4011f + 0.4208f;
constexpr float kShin = 0.3790f + 0.5472f;
constexpr float kDt = 1.0f / 60.0f;
const glm::vec3 kTravel(0.0f, 0.0f, -1.0f);

// The walker as a Clip node, optionally under a warp node bound to the parameter "p".
struct Walk {
  GraphFixture f;
  std::unique_ptr<Clip> clip;
  GraphInstance g;
  int clip_node = -1, warp_node = -1;

  explicit Walk(GraphNodeType warp = GraphNodeType::kClip, float value = 0.0f, float lo = 0.5f, float hi = 2.0f) {
    clip = std::make_unique<Clip>(synthetic_walker());
    f.bindings.push_back(native_binding(*clip, f.rig));
    GraphNodeDesc c = node_of("Walk", GraphNodeType::kClip);
    c.clip = clip.get();
    c.binding = f.bindings.back().get();
    clip_node = f.add(std::move(c));
    int out = clip_node;
    if (warp != GraphNodeType::kClip) {
      f.param("p", GraphParameterType::kNumber, value);
      GraphNodeDesc w = node_of("Warp", warp);
      w.pose = clip_node;
      if (warp == GraphNodeType::kStrideWarp) w.speed = bound("p");
      else w.direction = bound("p");
      w.clamp_min = lo;
      w.clamp_max = hi;
      out = warp_node = f.add(std::move(w));
    }
    g = f.build(out);
  }
  Frame update(float dt) {
    Frame fr;
    fr.local.resize(static_cast<size_t>(f.rig.joint_count()));
    fr.coverage.resize(fr.local.size());
    fr.report = g.update(f.rig, dt, fr.local, fr.coverage, {}, true);
    REQUIRE(fr.report.ok);
    return fr;
  }
  std::vector<Transform> world(const Frame& fr) const {
    std::vector<Transform> w(fr.local.size());
    REQUIRE(evaluate_world(f.rig, Transform::identity(), fr.local, w));
    return w;
  }
  glm::vec3 pivot(const std::vector<Transform>& w, const char* part) const {
    return joint_pivot(f.rig, w, joint_index(f.rig, part));
  }
};

float along(const glm::vec3& v) { return glm::dot(v, kTravel); }

}  // namespace

TEST_CASE("StrideWarp at twice the walk's speed doubles the feet's travel about the pelvis (rules LO6, LO7)",
          "[graph][warp]") {
  Walk ref;
  Walk warp(GraphNodeType::kStrideWarp, 2.0f * 1.6f);  // the walker's speed is 1.6 / 1 s
  const float leg = kThigh + kShin;
  float stance_ref = 0.0f, stance_warp = 0.0f, start_ref = 0.0f, start_warp = 0.0f;
  for (int i = 0; i <= 90; ++i) {
    const float dt = i == 0 ? 0.0f : kDt;  // the first update shows clip time 0
    const Frame a = ref.update(dt), b = warp.update(dt);
    const GraphWarpReport r = warp.g.warp_report(warp.warp_node);
    REQUIRE(r.warp);
    CHECK(r.pose_speed == Approx(1.6f).margin(1e-4));
    CHECK(r.stride_scale == Approx(2.0f));
    CHECK(r.play_rate == Approx(1.0f));
    CHECK_FALSE(r.ignored);
    CHECK(warp.g.node_time(warp.clip_node) == Approx(ref.g.node_time(ref.clip_node)).margin(1e-5));
    const auto wa = ref.world(a), wb = warp.world(b);
    const glm::vec3 pa = ref.pivot(wa, "LowerTorso"), pb = warp.pivot(wb, "LowerTorso");
    CHECK(pb.x == Approx(pa.x).margin(1e-5));
    CHECK(pb.z == Approx(pa.z).margin(1e-5));
    CHECK(pa.y - pb.y == Approx(r.pelvis_drop).margin(1e-5));
    for (const char* side : {"Left", "Right"}) {
      const std::string s = side;
      const glm::vec3 ankle_a = ref.pivot(wa, (s + "Foot").c_str()), ankle_b = warp.pivot(wb, (s + "Foot").c_str());
      INFO(s << " foot, frame " << i);
      // The ankle's offset from the pelvis along the travel doubles; across it and in height it stays.
      CHECK(along(ankle_b - pb) == Approx(2.0f * along(ankle_a - pa)).margin(2e-3));
      CHECK(ankle_b.x == Approx(ankle_a.x).margin(2e-3));
      CHECK(ankle_b.y == Approx(ankle_a.y).margin(2e-3));
      // No leg is longer than its rest length (hip to ankle at most thigh + shin).
      CHECK(glm::length(ankle_b - warp.pivot(wb, (s + "UpperLeg").c_str())) <= leg + 1e-4f);
    }
    if (i == 0) {
      // Both hips at 0: each ankle sits K = 20 degrees of shin behind its knee. Doubled, it is
      // 2 x 0.9262 sin 20 behind the pelvis, which the 0.995-limited leg reaches only with the
      // pelvis lowered to v - sqrt(limit^2 - h^2).
      const float h = 2.0f * kShin * std::sin(20.0f * kDeg);
      const float v = kThigh + kShin * std::cos(20.0f * kDeg);
      const float limit = 0.995f * leg;
      CHECK(r.pelvis_drop == Approx(v - std::sqrt(limit * limit - h * h)).margin(1e-4));
    } else {
      // Root motion follows the gameplay speed: 3.2 studs/s along the travel.
      CHECK(glm::length(b.report.root_step.position) == Approx(3.2f * kDt).margin(1e-4));
      CHECK(along(b.report.root_step.position) > 0.0f);
    }
    // The left foot's stance (t in [1/4, 3/4]): its travel relative to the pelvis doubles.
    const glm::vec3 la = ref.pivot(wa, "LeftFoot") - pa, lb = warp.pivot(wb, "LeftFoot") - pb;
    if (i == 15) start_ref = along(la), start_warp = along(lb);
    if (i == 45) stance_ref = along(la) - start_ref, stance_warp = along(lb) - start_warp;
  }
  REQUIRE(stance_ref < -0.5f);  // the stance foot moved back under the body
  CHECK(stance_warp == Approx(2.0f * stance_ref).margin(3e-3));
}

TEST_CASE("StrideWarp beyond its clamp takes the rest from the play rate (rule LO6)", "[graph][warp]") {
  SECTION("four times the speed: stride x2, rate x2") {
    Walk warp(GraphNodeType::kStrideWarp, 4.0f * 1.6f);
    warp.update(0.0f);
    for (int i = 0; i < 20; ++i) {
      const Frame b = warp.update(kDt);
      CHECK(glm::length(b.report.root_step.position) == Approx(6.4f * kDt).margin(1e-4));
    }
    const GraphWarpReport r = warp.g.warp_report(warp.warp_node);
    CHECK(r.stride_scale == Approx(2.0f));
    CHECK(r.play_rate == Approx(2.0f));
    CHECK(r.clamped);
    CHECK(warp.g.node_time(warp.clip_node) == Approx(2.0f * 20.0f * kDt).margin(1e-4));
  }
  SECTION("a quarter of the speed: stride x0.5, rate x0.5, no pelvis drop") {
    Walk warp(GraphNodeType::kStrideWarp, 0.25f * 1.6f);
    warp.update(0.0f);
    for (int i = 0; i < 120; ++i) {
      const Frame b = warp.update(kDt);
      CHECK(glm::length(b.report.root_step.position) == Approx(0.4f * kDt).margin(1e-4));
      CHECK(warp.g.warp_report(warp.warp_node).pelvis_drop == 0.0f);  // a shorter stride never over-extends
    }
    const GraphWarpReport r = warp.g.warp_report(warp.warp_node);
    CHECK(r.stride_scale == Approx(0.5f));
    CHECK(r.play_rate == Approx(0.5f));
    CHECK(warp.g.node_time(warp.clip_node) == Approx(0.5f * 120.0f * kDt).margin(1e-4));
  }
}

TEST_CASE("OrientationWarp at 45 degrees turns the lower body and keeps the chest facing (rule LO8)",
          "[graph][warp]") {
  Walk ref;
  const float yaw = 45.0f * kDeg;
  Walk warp(GraphNodeType::kOrientationWarp, yaw);
  const glm::quat turn = glm::angleAxis(yaw, glm::vec3(0, 1, 0));
  for (int i = 0; i < 40; ++i) {
    const Frame a = ref.update(i == 0 ? 0.0f : kDt), b = warp.update(i == 0 ? 0.0f : kDt);
    const GraphWarpReport r = warp.g.warp_report(warp.warp_node);
    CHECK(r.lower_body_yaw == Approx(yaw));
    const auto wa = ref.world(a), wb = warp.world(b);
    const int lower = joint_index(ref.f.rig, "LowerTorso"), chest = joint_index(ref.f.rig, "UpperTorso");
    // The lower body is the reference turned by 45 degrees about up through the pelvis pivot.
    CHECK(angle_between(wb[static_cast<size_t>(lower)].rotation, turn * wa[static_cast<size_t>(lower)].rotation) < 1e-5f);
    const glm::vec3 pivot = ref.pivot(wa, "LowerTorso");
    for (const char* foot : {"LeftFoot", "RightFoot"}) {
      const glm::vec3 expected = pivot + turn * (ref.pivot(wa, foot) - pivot);
      CHECK(glm::length(warp.pivot(wb, foot) - expected) < 1e-5f);
    }
    // The chest keeps the reference's orientation: one spine joint takes the whole counter-turn,
    // so only float rounding separates them (a few ulps of ~10 quaternion products, < 1e-5 rad).
    CHECK(angle_between(wb[static_cast<size_t>(chest)].rotation, wa[static_cast<size_t>(chest)].rotation) < 1e-5f);
    if (i > 0) {
      // Root motion moves toward the direction: the reference's travel turned by 45 degrees.
      const glm::vec3 expected = turn * a.report.root_step.position;
      CHECK(glm::length(b.report.root_step.position - expected) < 1e-6f);
      CHECK(b.report.root_step.position.x < 0.0f);  // positive = toward the rig's left (-X when facing -Z)
    }
  }
  SECTION("beyond 90 degrees the turn is clamped") {
    REQUIRE(warp.g.set_number(warp.g.find_parameter("p"), 2.0f));
    warp.update(kDt);
    CHECK(warp.g.warp_report(warp.warp_node).lower_body_yaw == Approx(1.5707963f));
    CHECK(warp.g.warp_report(warp.warp_node).clamped);
  }
}

TEST_CASE("warp parameters that cannot be used are ignored and reported, the pose unharmed (rule LO9)",
          "[graph][warp]") {
  Walk ref;
  Walk warp(GraphNodeType::kStrideWarp, -1.0f);  // a negative speed
  for (int i = 0; i < 10; ++i) {
    const Frame a = ref.update(kDt), b = warp.update(kDt);
    const GraphWarpReport r = warp.g.warp_report(warp.warp_node);
    CHECK(r.ignored);
    CHECK(r.stride_scale == 1.0f);
    CHECK(r.play_rate == 1.0f);
    for (size_t j = 0; j < a.local.size(); ++j) {
      CHECK(b.local[j].position == a.local[j].position);
      CHECK(b.local[j].rotation == a.local[j].rotation);
    }
  }
  // A nonfinite value never reaches the node: the parameter keeps its last value.
  const GraphParameter p = warp.g.find_parameter("p");
  CHECK_FALSE(warp.g.set_number(p, std::nanf("")));
  CHECK_FALSE(warp.g.set_number(p, INFINITY));
  CHECK(warp.g.number(p) == -1.0f);
  REQUIRE(warp.g.set_number(p, 3.2f));
  const Frame b = warp.update(kDt);
  CHECK_FALSE(warp.g.warp_report(warp.warp_node).ignored);
  for (const Transform& t : b.local) {
    CHECK(finite_vec(t.position));
    CHECK(finite_quat(t.rotation));
  }
}

TEST_CASE("warp nodes are refused with bad clamps or a rig without legs (rule LO6)", "[graph][warp]") {
  GraphFixture f;
  const int c = f.clip("A", 0.0f);
  GraphNodeDesc w = node_of("Warp", GraphNodeType::kStrideWarp);
  w.pose = c;
  w.speed.value = 1.0f;
  w.clamp_min = 0.0f;
  const int out = f.add(std::move(w));
  CHECK_THAT(f.error(out), Catch::Contains("graph node 'Warp'") && Catch::Contains("clamp"));
  f.node(out).clamp_min = 2.0f;
  f.node(out).clamp_max = 1.0f;
  CHECK_THAT(f.error(out), Catch::Contains("clamp"));
  f.node(out).clamp_min = 0.5f;
  f.node(out).clamp_max = 2.0f;
  f.node(out).pose = -1;
  CHECK_THAT(f.error(out), Catch::Contains("pose input is missing"));
}
