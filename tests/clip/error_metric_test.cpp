// The virtual-vertex error metric (rule P7) against hand-derived geometry (a two-part arm whose
// turns move known points by 2 r sin(angle / 2)) and against a second formulation in double (the
// forward walk child = P * C0 * T * inverse(C1) written again with double quaternions, over the
// built-in R15 rig's own frames and part sizes).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/error_metric.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "support/alloc_counter.hpp"
#include "support/math.hpp"

using namespace asterune;

namespace {

// Root part (1 stud cube) -> Arm (2 x 0.5 x 0.5, its -x end on the root's +x face at (0.5, 0, 0))
// -> Hand (0.04 studs: too small for corners, so the six points 0.1 from its pivot, which is the
// arm's +x end at (2.5, 0, 0)). Joint 0 is the shoulder, joint 1 the wrist.
Rig arm_rig() {
  RigDesc desc;
  desc.name = "arm";
  for (const auto& [name, size] : {std::pair{"Root", glm::vec3(1.0f)}, std::pair{"Arm", glm::vec3(2.0f, 0.5f, 0.5f)},
                                   std::pair{"Hand", glm::vec3(0.04f)}}) {
    PartDesc p;
    p.id = p.name = name;
    p.size = size;
    desc.parts.push_back(p);
  }
  JointDesc shoulder;
  shoulder.name = "Shoulder";
  shoulder.part0 = "Root";
  shoulder.part1 = "Arm";
  shoulder.c0 = Transform::from_position({0.5f, 0.0f, 0.0f});
  shoulder.c1 = Transform::from_position({-1.0f, 0.0f, 0.0f});
  JointDesc wrist;
  wrist.name = "Wrist";
  wrist.part0 = "Arm";
  wrist.part1 = "Hand";
  wrist.c0 = Transform::from_position({1.0f, 0.0f, 0.0f});
  wrist.c1 = Transform::from_position({-0.02f, 0.0f, 0.0f});
  desc.joints = {shoulder, wrist};
  desc.root = "Root";
  Result<Rig> rig = build_rig(desc);
  if (!rig) FAIL(rig.message());
  return std::move(rig).value();
}

int joint_named(const Rig& rig, const char* name) {
  for (int j = 0; j < rig.joint_count(); ++j)
    if (rig.joint_name(j) == name) return j;
  FAIL("no joint " << name);
  return -1;
}

}  // namespace

TEST_CASE("virtual vertices: the corners of each part box, the points 0.1 from the pivot of a tiny part", "[clip][error_metric]") {
  // rule P7
  const Rig rig = arm_rig();
  const VirtualVertices v = make_virtual_vertices(rig);
  REQUIRE(v.begin.size() == 3);
  const int arm = joint_named(rig, "Shoulder"), hand = joint_named(rig, "Wrist");
  REQUIRE(v.begin[static_cast<size_t>(arm) + 1] - v.begin[static_cast<size_t>(arm)] == 8);
  REQUIRE(v.begin[static_cast<size_t>(hand) + 1] - v.begin[static_cast<size_t>(hand)] == 6);
  for (std::uint32_t k = v.begin[static_cast<size_t>(arm)]; k < v.begin[static_cast<size_t>(arm) + 1]; ++k) {
    CHECK(std::fabs(v.points[k].x) == 1.0f);
    CHECK(std::fabs(v.points[k].y) == 0.25f);
    CHECK(std::fabs(v.points[k].z) == 0.25f);
  }
  // The hand's pivot is (-0.02, 0, 0) in the hand: the points sit 0.1 from it along x, y, z.
  for (std::uint32_t k = v.begin[static_cast<size_t>(hand)]; k < v.begin[static_cast<size_t>(hand) + 1]; ++k) {
    const glm::vec3 d = v.points[k] - glm::vec3(-0.02f, 0.0f, 0.0f);
    CHECK(std::fabs(glm::length(d) - 0.1f) < 1e-6f);
    CHECK(std::fabs(d.x) + std::fabs(d.y) + std::fabs(d.z) == Approx(0.1f).margin(1e-6));
  }
}

TEST_CASE("a turned or moved joint moves its parts' virtual vertices by the hand-derived distance", "[clip][error_metric]") {
  // rule P7: a turn by t about an axis through the pivot moves a point at distance r from the
  // axis by 2 r sin(t / 2); a move of the joint by d moves every point below it by |d|.
  const Rig rig = arm_rig();
  const VirtualVertices v = make_virtual_vertices(rig);
  VertexErrorScratch s = make_vertex_error_scratch(rig);
  const int arm = joint_named(rig, "Shoulder"), hand = joint_named(rig, "Wrist");
  const std::vector<Transform> exact(2);
  for (float deg : {0.5f, 3.0f, 20.0f, 90.0f, 170.0f}) {
    const double t = static_cast<double>(deg) * 3.14159265358979323846 / 180.0;
    INFO("degrees " << deg);
    std::vector<Transform> approx(2);
    VertexError e;
    // About z through the shoulder pivot (0.5, 0, 0): the farthest point is the hand's
    // (2.6, 0, 0), 2.1 from the axis (the arm's far corners are sqrt(2^2 + 0.25^2) = 2.016).
    approx[static_cast<size_t>(arm)].rotation = test::axis_angle_deg(deg, {0, 0, 1});
    REQUIRE(pose_vertex_error(rig, v, exact, approx, s, e));
    CHECK(e.distance == Approx(2.0 * 2.1 * std::sin(0.5 * t)).epsilon(1e-5).margin(1e-6));
    CHECK(e.joint == hand);
    CHECK_FALSE(e.nonfinite);
    // About the arm's own long axis (x through the pivot): its centre and the hand's points on
    // the axis stay put; its corners, sqrt(0.25^2 + 0.25^2) from the axis, move.
    approx[static_cast<size_t>(arm)].rotation = test::axis_angle_deg(deg, {1, 0, 0});
    REQUIRE(pose_vertex_error(rig, v, exact, approx, s, e));
    CHECK(e.distance == Approx(2.0 * std::sqrt(0.125) * std::sin(0.5 * t)).epsilon(1e-5).margin(1e-6));
    CHECK(e.joint == arm);
    // The tiny hand turned alone about y through its pivot: its points 0.1 off along x and z move.
    approx[static_cast<size_t>(arm)].rotation = glm::quat(1, 0, 0, 0);
    approx[static_cast<size_t>(hand)].rotation = test::axis_angle_deg(deg, {0, 1, 0});
    REQUIRE(pose_vertex_error(rig, v, exact, approx, s, e));
    CHECK(e.distance == Approx(2.0 * 0.1 * std::sin(0.5 * t)).epsilon(1e-4).margin(1e-6));
    CHECK(e.joint == hand);
  }
  std::vector<Transform> moved(2);
  moved[static_cast<size_t>(arm)].position = {0.0f, 0.01f, -0.02f};
  VertexError e;
  REQUIRE(pose_vertex_error(rig, v, exact, moved, s, e));
  CHECK(e.distance == Approx(std::sqrt(0.0001 + 0.0004)).epsilon(1e-4));
  REQUIRE(pose_vertex_error(rig, v, exact, exact, s, e));
  CHECK(e.distance == 0.0f);
}

TEST_CASE("the instants between frames count: two paths that part between matching frames", "[clip][error_metric]") {
  // rule P7: the exact shoulder turns +179 degrees about z from frame 0 to 1, the approximated
  // one -179 degrees (the same frames to 2 degrees). Both play along the shortest arc, so half
  // way they are 179 degrees apart: the hand's far point (2.1 from the axis) is 2 * 2.1 *
  // sin(89.5 degrees) off at frame 0.5, far more than at either frame.
  const Rig rig = arm_rig();
  const VirtualVertices v = make_virtual_vertices(rig);
  VertexErrorScratch s = make_vertex_error_scratch(rig);
  const int arm = joint_named(rig, "Shoulder"), hand = joint_named(rig, "Wrist");
  std::vector<Transform> exact(4), approx(4);  // two frames of two joints
  exact[2 + static_cast<size_t>(arm)].rotation = test::axis_angle_deg(179.0f, {0, 0, 1});
  approx[2 + static_cast<size_t>(arm)].rotation = test::axis_angle_deg(-179.0f, {0, 0, 1});
  VertexError e;
  REQUIRE(frames_vertex_error(rig, v, exact, approx, s, e));
  const double deg = 3.14159265358979323846 / 180.0;
  CHECK(e.distance == Approx(2.0 * 2.1 * std::sin(89.5 * deg)).epsilon(1e-5));
  CHECK(e.frame == 0.5f);
  CHECK(e.joint == hand);
  // Frames alone (the same two frames, each measured as a pose) see only the 2 degrees.
  VertexError at_frame;
  REQUIRE(pose_vertex_error(rig, v, std::span(exact).subspan(2, 2), std::span(approx).subspan(2, 2), s, at_frame));
  CHECK(at_frame.distance == Approx(2.0 * 2.1 * std::sin(1.0 * deg)).epsilon(1e-3));
  // A third frame equal to the second: the worst stays at 0.5, the first largest.
  exact.insert(exact.end(), exact.begin() + 2, exact.end());
  approx.insert(approx.end(), approx.begin() + 2, approx.end());
  REQUIRE(frames_vertex_error(rig, v, exact, approx, s, e));
  CHECK(e.frame == 0.5f);
}

TEST_CASE("the metric on R15 agrees with a forward walk in double", "[clip][error_metric]") {
  // rule P7: random local turns and moves on every joint of the built-in R15, exact against a
  // perturbed copy; the reference places every part with double quaternions from the rig's own
  // C0, C1, anchors and part sizes and takes the largest corner distance itself.
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  const VirtualVertices v = make_virtual_vertices(rig);
  VertexErrorScratch s = make_vertex_error_scratch(rig);
  const size_t n = static_cast<size_t>(rig.joint_count());
  std::mt19937 rng(17u);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  struct DT {
    glm::dquat r;
    glm::dvec3 p;
  };
  const auto compose = [](const DT& a, const DT& b) { return DT{a.r * b.r, a.p + a.r * b.p}; };
  const auto dt = [](const Transform& t) { return DT{glm::dquat(t.rotation), glm::dvec3(t.position)}; };
  const auto inverse = [](const DT& t) {
    const glm::dquat ri = glm::conjugate(t.r);
    return DT{ri, -(ri * t.p)};
  };
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Transform> exact(n), approx(n);
    for (size_t j = 0; j < n; ++j) {
      exact[j].rotation = test::axis_angle_deg(60.0f * u(rng), {u(rng), u(rng), u(rng) + 2.0f});
      exact[j].position = 0.1f * glm::vec3(u(rng), u(rng), u(rng));
      approx[j].rotation = glm::normalize(exact[j].rotation * test::axis_angle_deg(2.0f * u(rng), {u(rng), 1.0f, u(rng)}));
      approx[j].position = exact[j].position + 0.01f * glm::vec3(u(rng), u(rng), u(rng));
    }
    double want = 0.0;
    std::vector<DT> we(n), wa(n);
    for (size_t j = 0; j < n; ++j) {  // layout order: parents first
      const int parent = rig.parent(static_cast<int>(j));
      const DT pe = parent < 0 ? dt(rig.anchor()[j]) : we[static_cast<size_t>(parent)];
      const DT pa = parent < 0 ? dt(rig.anchor()[j]) : wa[static_cast<size_t>(parent)];
      const DT c0 = dt(rig.c0()[j]), c1i = inverse(dt(rig.c1()[j]));
      we[j] = compose(compose(compose(pe, c0), dt(exact[j])), c1i);
      wa[j] = compose(compose(compose(pa, c0), dt(approx[j])), c1i);
      const glm::dvec3 half = 0.5 * glm::dvec3(rig.part(rig.part1()[j]).size);
      for (int c = 0; c < 8; ++c) {
        const glm::dvec3 p((c & 1) ? half.x : -half.x, (c & 2) ? half.y : -half.y, (c & 4) ? half.z : -half.z);
        want = std::max(want, glm::length((we[j].p + we[j].r * p) - (wa[j].p + wa[j].r * p)));
      }
    }
    VertexError e;
    REQUIRE(pose_vertex_error(rig, v, exact, approx, s, e));
    INFO("trial " << trial);
    CHECK(e.distance == Approx(want).epsilon(1e-4));
    CHECK(e.joint >= 0);
  }
}

TEST_CASE("the metric refuses wrong sizes, flags nonfinite positions and allocates nothing", "[clip][error_metric][alloc]") {
  // rules P7, RG1, RG4
  const Rig rig = arm_rig();
  const VirtualVertices v = make_virtual_vertices(rig);
  VertexErrorScratch s = make_vertex_error_scratch(rig);
  std::vector<Transform> exact(6), approx(6);
  VertexError e;
  e.distance = 7.0f;
  CHECK_FALSE(frames_vertex_error(rig, v, exact, std::span(approx).first(4), s, e));
  CHECK_FALSE(frames_vertex_error(rig, v, std::span(exact).first(5), std::span(approx).first(5), s, e));
  CHECK_FALSE(pose_vertex_error(rig, v, std::span(exact).first(2), std::span(approx).first(3), s, e));
  VertexErrorScratch small;
  CHECK_FALSE(pose_vertex_error(rig, v, std::span(exact).first(2), std::span(approx).first(2), small, e));
  CHECK(e.distance == 7.0f);  // untouched
  // A NaN in the approximated second frame: reported as an infinite error there, not ignored.
  approx[3].position.x = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(frames_vertex_error(rig, v, exact, approx, s, e));
  CHECK(e.nonfinite);
  CHECK(std::isinf(e.distance));
  CHECK(e.frame == 0.25f);  // the first instant that plays toward it
  approx[3].position.x = 0.0f;
  approx[5].rotation = test::axis_angle_deg(30.0f, {0, 0, 1});
  test::AllocationScope scope;
  REQUIRE(frames_vertex_error(rig, v, exact, approx, s, e));
  CHECK(scope.count() == 0);
  CHECK_FALSE(e.nonfinite);
  CHECK(e.distance > 0.0f);
}
