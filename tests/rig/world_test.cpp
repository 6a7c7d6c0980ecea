// World evaluation and the frame helpers solvers use to go back to local T (rule R1, R2, R8, P1, RG1).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "asterune/rig/pose.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "support/alloc_counter.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

// Plain 4x4 matrices: a second formulation of P * C0 * T * inverse(C1), independent of Transform.
glm::mat4 matrix(const Transform& t) {
  glm::mat4 m = glm::mat4_cast(t.rotation);
  m[3] = glm::vec4(t.position, 1.0f);
  return m;
}

Rig build_ok(const RigDesc& d) {
  auto r = build_rig(d);
  REQUIRE(r.ok());
  return std::move(r).value();
}

// Root -> Upper -> Lower with R6-style rotated attachment frames (every frame turned).
RigDesc rotated_chain() {
  RigDesc d;
  d.parts = {{"Root", "Root", {2, 2, 1}, {}}, {"Upper", "Upper", {1, 2, 1}, {}}, {"Lower", "Lower", {1, 2, 1}, {}}};
  // As R6's Left Shoulder: C0 at (-1, 0.5, 0) turned -90 deg about Y; C1 at (0.5, 0.5, 0) likewise.
  const glm::quat turn = axis_angle_deg(-90, {0, 1, 0});
  d.joints = {{"Shoulder", "Root", "Upper", {turn, {-1, 0.5f, 0}}, {turn, {0.5f, 0.5f, 0}}, true},
              {"Elbow", "Upper", "Lower", {axis_angle_deg(90, {1, 0, 0}), {0, -1, 0}}, {axis_angle_deg(90, {1, 0, 0}), {0, 1, 0}}, true}};
  return d;
}

}  // namespace

TEST_CASE("a rotated-frame 2-joint chain with a 90 degree T matches hand-derived placements (rule R1)") {
  const Rig rig = build_ok(rotated_chain());
  Pose pose = make_pose(rig);
  // Rest: C0 * inverse(C1). The turns cancel, and the position is p0 - p1 = (-1.5, 0, 0).
  std::vector<Transform> world(2);
  evaluate_world(rig, Transform::identity(), pose.local, world);
  CHECK(world[0].position.x == Approx(-1.5f));
  CHECK(world[0].position.y == Approx(0.0f).margin(1e-6));
  CHECK(world[0].position.z == Approx(0.0f).margin(1e-6));
  CHECK(std::fabs(glm::dot(world[0].rotation, glm::quat(1, 0, 0, 0))) == Approx(1.0f));

  // T = 90 deg about the joint frame's local X. That frame is turned -90 deg about Y, which
  // maps local X onto world +Z, so the arm swings +90 deg about world Z around the pivot (-1,0.5,0).
  pose.local[0].rotation = axis_angle_deg(90, {1, 0, 0});
  evaluate_world(rig, Transform::identity(), pose.local, world);
  // Second formulation: the same product with 4x4 matrices.
  const glm::mat4 expected = matrix(rig.c0()[0]) * matrix(pose.local[0]) * glm::inverse(matrix(rig.c1()[0]));
  CHECK(world[0].position.x == Approx(expected[3].x).margin(1e-5));
  CHECK(world[0].position.y == Approx(expected[3].y).margin(1e-5));
  CHECK(world[0].position.z == Approx(expected[3].z).margin(1e-5));
  const glm::vec3 pivot = joint_pivot(rig, world, 0);
  CHECK(glm::length(pivot - glm::vec3(-1, 0.5f, 0)) < 1e-5f);
  // By hand: at rest the centre is (-0.5, -0.5, 0) from the pivot; +90 deg about world Z maps it
  // to (0.5, -0.5, 0), so the centre lands at (-0.5, 0, 0).
  CHECK(world[0].position.x == Approx(-0.5f).margin(1e-5));
  CHECK(world[0].position.y == Approx(0.0f).margin(1e-5));
  CHECK(world[0].position.z == Approx(0.0f).margin(1e-5));
}

TEST_CASE("world evaluation equals the 4x4 product chain on random poses and root placements (rule R1, R2)") {
  const Rig rig = build_ok(rotated_chain());
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  Pose pose = make_pose(rig);
  std::vector<Transform> world(2);
  for (int trial = 0; trial < 50; ++trial) {
    const Transform root{glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))), {u(rng) * 9, u(rng) * 9, u(rng) * 9}};
    for (auto& t : pose.local) t = {glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))), {u(rng), u(rng), u(rng)}};
    evaluate_world(rig, root, pose.local, world);
    glm::mat4 m = matrix(root);
    for (int j = 0; j < 2; ++j) {
      m = m * matrix(rig.c0()[static_cast<size_t>(j)]) * matrix(pose.local[static_cast<size_t>(j)]) *
          glm::inverse(matrix(rig.c1()[static_cast<size_t>(j)]));
      CHECK(glm::length(glm::vec3(m[3]) - world[static_cast<size_t>(j)].position) < 1e-4f);
      const glm::quat q = glm::quat_cast(glm::mat3(m));
      CHECK(std::fabs(glm::dot(q, world[static_cast<size_t>(j)].rotation)) > 1.0f - 1e-5f);
    }
  }
}

TEST_CASE("world-to-local helpers round-trip random poses to 1e-5 (rule R8)") {
  const Rig rig = build_ok(rotated_chain());
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1, 1);
  Pose pose = make_pose(rig);
  std::vector<Transform> world(2);
  for (int trial = 0; trial < 200; ++trial) {
    const Transform root{glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))), {u(rng), u(rng), u(rng)}};
    for (auto& t : pose.local) t = {glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))), {u(rng), u(rng), u(rng)}};
    evaluate_world(rig, root, pose.local, world);
    for (int j = 0; j < 2; ++j) {
      const Transform parent = parent_placement(rig, root, world, j);
      const glm::quat from_part = local_rotation_for_part(rig, parent, j, world[static_cast<size_t>(j)].rotation);
      CHECK(std::fabs(glm::dot(from_part, pose.local[static_cast<size_t>(j)].rotation)) > 1.0f - 1e-5f);
      const glm::quat frame_world = (attachment_frame(rig, parent, j) * pose.local[static_cast<size_t>(j)]).rotation;
      const glm::quat from_frame = local_rotation_for_frame(rig, parent, j, frame_world);
      CHECK(std::fabs(glm::dot(from_frame, pose.local[static_cast<size_t>(j)].rotation)) > 1.0f - 1e-5f);
      const Transform t = local_for_part(rig, parent, j, world[static_cast<size_t>(j)]);
      CHECK(glm::length(t.position - pose.local[static_cast<size_t>(j)].position) < 1e-5f);
    }
  }
}

TEST_CASE("subtree re-evaluation equals a full walk; rest world equals identity pose (rule R2)") {
  RigDesc d = rotated_chain();
  d.parts.push_back({"Other", "Other", {1, 1, 1}, {}});
  d.joints.push_back({"Side", "Root", "Other", Transform::from_position({2, 0, 0}), {}, true});
  const Rig rig = build_ok(d);
  Pose pose = make_pose(rig);
  std::vector<Transform> full(3), partial(3), rest(3);
  const Transform root{axis_angle_deg(30, {0, 1, 0}), {1, 2, 3}};
  evaluate_world(rig, root, pose.local, partial);
  evaluate_rest_world(rig, root, rest);
  for (int j = 0; j < 3; ++j) CHECK(glm::length(rest[static_cast<size_t>(j)].position - partial[static_cast<size_t>(j)].position) < 1e-6f);
  const int shoulder = rig.find_joint("Upper").index;
  pose.local[static_cast<size_t>(shoulder)].rotation = axis_angle_deg(40, {0, 0, 1});
  evaluate_world_subtree(rig, root, pose.local, partial, shoulder);
  evaluate_world(rig, root, pose.local, full);
  for (int j = 0; j < 3; ++j) {
    CHECK(partial[static_cast<size_t>(j)].position == full[static_cast<size_t>(j)].position);
    CHECK(partial[static_cast<size_t>(j)].rotation == full[static_cast<size_t>(j)].rotation);
  }
}

TEST_CASE("poses start at identity with zero coverage (rule P1)") {
  const Rig rig = build_ok(rotated_chain());
  Pose pose = make_pose(rig);
  REQUIRE(pose.size() == 2);
  for (int j = 0; j < 2; ++j) {
    CHECK(pose.coverage[static_cast<size_t>(j)] == 0.0f);
    CHECK(pose.local[static_cast<size_t>(j)].rotation == glm::quat(1, 0, 0, 0));
  }
  pose.local[1].position = {1, 1, 1};
  pose.coverage[1] = 1.0f;
  reset_pose(pose.local, pose.coverage);
  CHECK(pose.local[1].position == glm::vec3(0));
  CHECK(pose.coverage[1] == 0.0f);
}

TEST_CASE("world evaluation allocates nothing (rule RG1)") {
  const Rig rig = build_ok(rotated_chain());
  Pose pose = make_pose(rig);
  std::vector<Transform> world(2);
  test::AllocationScope scope;
  for (int i = 0; i < 100; ++i) {
    evaluate_world(rig, Transform::identity(), pose.local, world);
    evaluate_world_subtree(rig, Transform::identity(), pose.local, world, 1);
    evaluate_rest_world(rig, Transform::identity(), world);
  }
  CHECK(scope.count() == 0);
}

TEST_CASE("world evaluation given spans of the wrong size writes nothing and says so (rule RG4)", "[world]") {
  const Rig rig = build_ok(rotated_chain());
  const Transform marker = Transform::from_position({7, 7, 7});
  std::vector<Transform> local(static_cast<size_t>(rig.joint_count()));
  std::vector<Transform> short_world(static_cast<size_t>(rig.joint_count()) - 1, marker);
  CHECK_FALSE(evaluate_world(rig, Transform::identity(), local, short_world));
  CHECK_FALSE(evaluate_world_subtree(rig, Transform::identity(), local, short_world, 0));
  CHECK_FALSE(evaluate_rest_world(rig, Transform::identity(), short_world));
  for (const Transform& w : short_world) CHECK(w.position == marker.position);
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()), marker);
  CHECK_FALSE(evaluate_world_subtree(rig, Transform::identity(), local, world, rig.joint_count()));
  CHECK_FALSE(evaluate_world_subtree(rig, Transform::identity(), local, world, -1));
  for (const Transform& w : world) CHECK(w.position == marker.position);
  CHECK(evaluate_world(rig, Transform::identity(), local, world));
  CHECK(world[0].position != marker.position);
}

namespace {

// A random tree of `joints` joints with turned C0 and C1 frames (some exactly the identity, so
// the walk's identity skips are taken too). `fanout` bounds how far back a part's parent may
// be: small gives long chains, large a bushy tree whose full walk goes four joints at a time.
RigDesc random_tree(std::mt19937& rng, int joints, int fanout) {
  std::uniform_real_distribution<float> u(-1, 1);
  auto frame = [&] {
    const glm::quat q =
        u(rng) < -0.4f ? glm::quat(1, 0, 0, 0) : glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    return Transform{q, {u(rng), u(rng), u(rng)}};
  };
  RigDesc d;
  d.root = "P0";
  d.parts.push_back({"P0", "P0", {1, 1, 1}, {}});
  for (int i = 1; i <= joints; ++i) {
    const std::string id = "P" + std::to_string(i);
    d.parts.push_back({id, id, {1, 1, 1}, {}});
    const int lo = std::max(0, i - fanout);
    const int parent = lo + static_cast<int>(rng() % static_cast<unsigned>(i - lo));
    d.joints.push_back({"J" + std::to_string(i), "P" + std::to_string(parent), id, frame(), frame(), true});
  }
  return d;
}

// world = parent * C0 * T * inverse(C1), joint by joint in layout order with plain Transform products.
std::vector<Transform> plain_world(const Rig& rig, const Transform& root, const std::vector<Transform>& local) {
  std::vector<Transform> w(local.size());
  for (size_t j = 0; j < local.size(); ++j) {
    const int p = rig.parents()[j];
    const Transform parent = p < 0 ? root * rig.anchor()[j] : w[static_cast<size_t>(p)];
    w[j] = parent * rig.c0()[j] * local[j] * inverse(rig.c1()[j]);
  }
  return w;
}

// Within 1e-5 relative for a joint near the root; float rounding of the regrouped products
// adds up along a chain, so the bound grows by a tenth per level beyond the tenth.
void check_close(const Rig& rig, const std::vector<Transform>& got, const std::vector<Transform>& want) {
  std::vector<int> depth(want.size(), 0);
  for (size_t j = 0; j < want.size(); ++j) {
    const int p = rig.parents()[j];
    depth[j] = p < 0 ? 0 : depth[static_cast<size_t>(p)] + 1;
    const float tol = 1e-5f * std::max(1.0f, static_cast<float>(depth[j]) / 10.0f);
    INFO("joint " << j << ", depth " << depth[j]);
    CHECK(glm::length(got[j].position - want[j].position) <= tol * (1.0f + glm::length(want[j].position)));
    const glm::quat& a = got[j].rotation;
    const glm::quat& b = want[j].rotation;
    CHECK(glm::length(glm::vec4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w)) <= tol);
  }
}

}  // namespace

TEST_CASE("world walk equals the plain product on random trees of 1 to 60 joints, whole and by subtree (rule R1, R2)") {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> u(-1, 1);
  int four_wide = 0;
  for (const int joints : {1, 3, 4, 5, 17, 60, 61, 62, 63, 120}) {
    for (const int fanout : {1, 3, 8, 1000}) {
      INFO("joints " << joints << ", fanout " << fanout);
      const Rig rig = build_ok(random_tree(rng, joints, fanout));
      REQUIRE(rig.joint_count() == joints);
      if (!rig.walk_order().empty()) ++four_wide;
      std::vector<Transform> local(static_cast<size_t>(joints)), world(static_cast<size_t>(joints));
      for (int trial = 0; trial < 5; ++trial) {
        const Transform root{glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))),
                             {u(rng) * 5, u(rng) * 5, u(rng) * 5}};
        for (auto& t : local) t = {glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))), {u(rng), u(rng), u(rng)}};
        REQUIRE(evaluate_world(rig, root, local, world));
        check_close(rig, world, plain_world(rig, root, local));
        // Re-evaluate a subtree after changing its joints: it matches the plain product, leaves
        // the other joints alone, and equals a full walk bit for bit.
        const int j = static_cast<int>(rng() % static_cast<unsigned>(joints));
        const std::vector<Transform> before = world;
        for (int k = j; k < rig.subtree_end(j); ++k)
          local[static_cast<size_t>(k)].rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
        REQUIRE(evaluate_world_subtree(rig, root, local, world, j));
        check_close(rig, world, plain_world(rig, root, local));
        std::vector<Transform> full(world.size());
        evaluate_world(rig, root, local, full);
        for (int k = 0; k < joints; ++k) {
          const size_t s = static_cast<size_t>(k);
          const bool inside = k >= j && k < rig.subtree_end(j);
          CHECK(world[s].position == (inside ? full[s].position : before[s].position));
          CHECK(world[s].rotation == (inside ? full[s].rotation : before[s].rotation));
        }
      }
    }
  }
  CHECK(four_wide >= 4);  // the bushy trees take the four-wide schedule
}

TEST_CASE("the four-wide world walk allocates nothing (rule RG1)") {
  std::mt19937 rng(7);
  const Rig rig = build_ok(random_tree(rng, 60, 1000));
  REQUIRE_FALSE(rig.walk_order().empty());
  std::vector<Transform> local(60), world(60);
  test::AllocationScope scope;
  for (int i = 0; i < 100; ++i) evaluate_world(rig, Transform::from_position({1, 2, 3}), local, world);
  CHECK(scope.count() == 0);
}
