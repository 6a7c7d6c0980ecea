// The warp nodes (rules LO7, LO8) on a real walk: CMU 35_01 baked onto the built-in R15 as the
// CLI retargets it (support/cmu_bake.hpp), played by a graph with root motion, against the same
// clip played unwarped. The walk's speed is measured here from the baked root track's keys.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/graph/graph.hpp"
#include "asterune/rig/world.hpp"
#include "support/cmu_bake.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

struct CmuWalk {
  Rig rig = builtin_r15();
  Clip clip = cmu_baked("cmu_35_01_walk.bvh", rig);
  AnimationBinding binding;
  CmuWalk() {
    auto b = build_clip_binding(clip, rig);
    REQUIRE(b);
    binding.clip_binding = std::move(b).value();
  }
  // Clip -> optional warp node with the literal `value`.
  GraphInstance graph(GraphNodeType warp, float value) const {
    GraphDesc d;
    GraphNodeDesc c;
    c.id = "Walk";
    c.clip = &clip;
    c.binding = &binding;
    d.nodes.push_back(c);
    d.output = 0;
    if (warp != GraphNodeType::kClip) {
      GraphNodeDesc w;
      w.id = "Warp";
      w.type = warp;
      w.pose = 0;
      w.speed.value = value;
      w.direction.value = value;
      d.nodes.push_back(w);
      d.output = 1;
    }
    auto g = build_graph(d, rig);
    INFO((g ? std::string() : g.message()));
    REQUIRE(g);
    return std::move(g).value();
  }
  // The root track's horizontal travel over the clip (the baked LowerTorso translation keys).
  glm::vec3 travel() const {
    for (const ClipTrack& t : clip.tracks)
      if (t.name == "LowerTorso" && t.translations.size() >= 2) {
        glm::vec3 d = t.translations.back() - t.translations.front();
        d.y = 0.0f;
        return d;
      }
    FAIL("the baked walk has no root translation");
    return {};
  }
};

glm::vec3 pivot(const Rig& rig, const std::vector<Transform>& w, const char* part) {
  return joint_pivot(rig, w, rig.find_joint(part).index);
}

}  // namespace

TEST_CASE("StrideWarp on a CMU walk: 1.5 times the stride about the pelvis, legs never over rest (rule LO7)",
          "[retarget][warp]") {
  const CmuWalk walk;
  const glm::vec3 travel = walk.travel();
  const float speed = glm::length(travel) / walk.clip.duration;
  REQUIRE(speed > 0.5f);
  const glm::vec3 dir = travel / glm::length(travel);
  GraphInstance ref = walk.graph(GraphNodeType::kClip, 0.0f);
  GraphInstance warp = walk.graph(GraphNodeType::kStrideWarp, 1.5f * speed);
  const size_t n = static_cast<size_t>(walk.rig.joint_count());
  std::vector<Transform> la(n), lb(n), wa(n), wb(n);
  std::vector<float> ca(n), cb(n);
  const float dt = 1.0f / 60.0f;
  const int frames = static_cast<int>(walk.clip.duration / dt) - 2;  // one pass, no seam
  int checked = 0;
  float worst = 0.0f, deepest = 0.0f;
  for (int i = 0; i < frames; ++i) {
    REQUIRE(ref.update(walk.rig, i == 0 ? 0.0f : dt, la, ca, {}, true).ok);
    const GraphReport rb = warp.update(walk.rig, i == 0 ? 0.0f : dt, lb, cb, {}, true);
    REQUIRE(rb.ok);
    const GraphWarpReport r = warp.warp_report(1);
    // The nominal speed is the root's heading travel: the root track's, within the pelvis sway.
    CHECK(r.pose_speed == Approx(speed).epsilon(0.03));
    CHECK(r.stride_scale == Approx(1.5f * speed / r.pose_speed));
    REQUIRE(evaluate_world(walk.rig, Transform::identity(), la, wa));
    REQUIRE(evaluate_world(walk.rig, Transform::identity(), lb, wb));
    const glm::vec3 pa = pivot(walk.rig, wa, "LowerTorso"), pb = pivot(walk.rig, wb, "LowerTorso");
    deepest = std::max(deepest, r.pelvis_drop);
    for (const char* side : {"Left", "Right"}) {
      const std::string s = side;
      const glm::vec3 hip = pivot(walk.rig, wb, (s + "UpperLeg").c_str());
      const glm::vec3 knee = pivot(walk.rig, wb, (s + "LowerLeg").c_str());
      const glm::vec3 ankle_a = pivot(walk.rig, wa, (s + "Foot").c_str());
      const glm::vec3 ankle_b = pivot(walk.rig, wb, (s + "Foot").c_str());
      const float rest = glm::length(pivot(walk.rig, wa, (s + "LowerLeg").c_str()) - pivot(walk.rig, wa, (s + "UpperLeg").c_str())) +
                         glm::length(ankle_a - pivot(walk.rig, wa, (s + "LowerLeg").c_str()));
      CHECK(glm::length(ankle_b - hip) <= rest + 1e-4f);
      CHECK(glm::length(knee - hip) + glm::length(ankle_b - knee) == Approx(rest).margin(1e-4));  // rigid bones
      const float expected = r.stride_scale * glm::dot(ankle_a - pa, dir);
      worst = std::max(worst, std::fabs(glm::dot(ankle_b - pb, dir) - expected));
      ++checked;
    }
    for (const Transform& t : lb) CHECK((finite_vec(t.position) && finite_quat(t.rotation)));
  }
  INFO("ankle offset error along the travel, worst " << worst << " studs; deepest pelvis drop " << deepest);
  CHECK(checked == 2 * frames);
  CHECK(worst < 5e-3f);
}

TEST_CASE("OrientationWarp on a CMU walk: the lower body turns 45 degrees, the chest keeps its facing (rule LO8)",
          "[retarget][warp]") {
  const CmuWalk walk;
  const float yaw = 45.0f * kDeg;
  GraphInstance ref = walk.graph(GraphNodeType::kClip, 0.0f);
  GraphInstance warp = walk.graph(GraphNodeType::kOrientationWarp, yaw);
  const size_t n = static_cast<size_t>(walk.rig.joint_count());
  std::vector<Transform> la(n), lb(n), wa(n), wb(n);
  std::vector<float> ca(n), cb(n);
  const glm::quat turn = glm::angleAxis(yaw, glm::vec3(0, 1, 0));
  const size_t lower = static_cast<size_t>(walk.rig.find_joint("LowerTorso").index);
  const size_t chest = static_cast<size_t>(walk.rig.find_joint("UpperTorso").index);
  float worst_chest = 0.0f, worst_lower = 0.0f;
  for (int i = 0; i < 200; ++i) {
    REQUIRE(ref.update(walk.rig, 1.0f / 60.0f, la, ca, {}, true).ok);
    REQUIRE(warp.update(walk.rig, 1.0f / 60.0f, lb, cb, {}, true).ok);
    CHECK(warp.warp_report(1).lower_body_yaw == Approx(yaw));
    REQUIRE(evaluate_world(walk.rig, Transform::identity(), la, wa));
    REQUIRE(evaluate_world(walk.rig, Transform::identity(), lb, wb));
    worst_lower = std::max(worst_lower, angle_between(wb[lower].rotation, turn * wa[lower].rotation));
    worst_chest = std::max(worst_chest, angle_between(wb[chest].rotation, wa[chest].rotation));
  }
  INFO("worst lower-body error " << worst_lower << " rad, worst chest change " << worst_chest << " rad");
  // Float rounding of the world walk and the local solve only (about ten quaternion products).
  CHECK(worst_lower < 1e-5f);
  CHECK(worst_chest < 1e-5f);
}
