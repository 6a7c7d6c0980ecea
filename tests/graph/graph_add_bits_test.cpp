// The Add node's kernel (rule GR10: q = slerp(1, q_d, a) q_base, p = p_base + a p_d) against the
// formula written out per joint with glm::slerp, bit for bit: the graph runs the joints in
// passes (src/graph/graph_blend.cpp), which must not change a single result. Clips key every
// joint; the additive clips cover wide turns (negative w: the shortest-arc flip), tiny ones
// (glm::slerp's near-identity mix) and ordinary ones, at weights inside and outside [0, 1].
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/graph/graph.hpp"
#include "asterune/retarget/animation.hpp"
#include "support/locomotion_graph.hpp"

using namespace asterune;

namespace {

Transform expected_add(const Transform& base, const Transform& add, float a) {
  if (a == 0.0f) return base;
  const glm::quat one(1.0f, 0.0f, 0.0f, 0.0f);
  glm::quat d = add.rotation;
  if (glm::dot(one, d) < 0.0f) d = -d;
  const glm::quat turn = glm::normalize(glm::slerp(one, d, a));
  return Transform{glm::normalize(turn * base.rotation), base.position + a * add.position};
}

}  // namespace

TEST_CASE("the Add node equals glm::slerp from identity per joint, bit for bit (rule GR10)", "[graph][add]") {
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  const int n = rig.joint_count();
  for (const float amplitude : {3.5f, 1e-4f, 0.5f}) {
    INFO("additive amplitude " << amplitude);
    const Clip base = test::locomotion_clip(rig, "base", 1.1f, 0.6f, 0.2f);
    const Clip lean = test::locomotion_clip(rig, "lean", 0.7f, amplitude, 1.3f);
    AnimationBinding bb, bl;
    bb.clip_binding = build_clip_binding(base, rig).value();
    bl.clip_binding = build_clip_binding(lean, rig).value();
    GraphDesc desc;
    desc.parameters = {{"w", GraphParameterType::kNumber, 0.3f, false, {}}};
    GraphNodeDesc cb, cl, sum;
    cb.id = "base";
    cb.clip = &base;
    cb.binding = &bb;
    cl.id = "lean";
    cl.clip = &lean;
    cl.binding = &bl;
    sum.id = "add";
    sum.type = GraphNodeType::kAdd;
    sum.base = 0;
    sum.additive = 1;
    sum.weight.parameter = "w";
    desc.nodes = {cb, cl, sum};
    desc.output = 2;
    GraphInstance g = build_graph(desc, rig).value();
    const GraphParameter w = g.find_parameter("w");
    AnimationContext context_b = make_animation_context(bb), context_l = make_animation_context(bl);
    std::vector<Transform> local(static_cast<size_t>(n)), pb(local.size()), pl(local.size());
    std::vector<float> coverage(local.size()), cov_b(local.size()), cov_l(local.size());
    const float weights[] = {0.3f, 1.0f, -0.5f, 1.7f, 0.0f};
    for (int f = 0; f < 40; ++f) {
      const float a = weights[f % 5];
      REQUIRE(g.set_number(w, a));
      REQUIRE(g.update(rig, 1.0f / 60.0f, local, coverage).ok);
      REQUIRE(sample_animation(base, bb, rig, g.node_time(0), WrapMode::kClamp, context_b, pb, cov_b));
      REQUIRE(sample_animation(lean, bl, rig, g.node_time(1), WrapMode::kClamp, context_l, pl, cov_l));
      for (int j = 0; j < n; ++j) {
        INFO("frame " << f << ", weight " << a << ", joint " << j);
        const size_t k = static_cast<size_t>(j);
        REQUIRE(cov_l[k] == 1.0f);  // every joint keyed: the joint's factor is the weight
        const Transform want = expected_add(pb[k], pl[k], a);
        CHECK(std::memcmp(&local[k], &want, sizeof(Transform)) == 0);
      }
    }
  }
}
