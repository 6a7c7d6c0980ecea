// Build-time validation (rules GR1, GR7, GR12): each refusal names the node and the reason.
#include "graph/graph_support.hpp"

using namespace asterune;
using namespace asterune::test;
using Catch::Matchers::Contains;

TEST_CASE("graph build: unknown and missing inputs, cycles, shared inputs (rule GR12)", "[graph][build]") {
  SECTION("an input naming no node") {
    GraphFixture f;
    const int walk = f.clip("walk", 0);
    const int sel = f.add(node_of("sel", GraphNodeType::kSelect, {input(walk, "walk"), input(9, "x")}));
    CHECK_THAT(f.error(sel), Contains("'sel'") && Contains("#9, which does not exist"));
  }
  SECTION("Over without its over input") {
    GraphFixture f;
    const int walk = f.clip("walk", 0);
    GraphNodeDesc o = node_of("over", GraphNodeType::kOver);
    o.base = walk;
    CHECK_THAT(f.error(f.add(o)), Contains("'over'") && Contains("over input is missing"));
  }
  SECTION("a cycle") {
    GraphFixture f;
    GraphNodeDesc a = node_of("a", GraphNodeType::kSpeed);
    a.pose = 1;
    GraphNodeDesc b = node_of("b", GraphNodeType::kSpeed);
    b.pose = 0;
    f.add(a);
    f.add(b);
    CHECK_THAT(f.error(0), Contains("cycle"));
  }
  SECTION("a node used by two nodes") {
    GraphFixture f;
    const int walk = f.clip("walk", 0);
    GraphNodeDesc s1 = node_of("s1", GraphNodeType::kSpeed);
    s1.pose = walk;
    GraphNodeDesc s2 = node_of("s2", GraphNodeType::kSpeed);
    s2.pose = walk;
    f.add(s1);
    CHECK_THAT(f.error(f.add(s2)), Contains("'walk'") && Contains("'s1'") && Contains("'s2'"));
  }
  SECTION("a Clip without a clip") {
    GraphFixture f;
    CHECK_THAT(f.error(f.add(node_of("c", GraphNodeType::kClip))), Contains("'c'") && Contains("clip and its binding"));
  }
}

TEST_CASE("graph build: blend-space geometry (rule GR7)", "[graph][build]") {
  SECTION("equal Blend1D positions") {
    GraphFixture f;
    const int a = f.clip("a", 0), b = f.clip("b", 10);
    auto ia = input(a, "a"), ib = input(b, "b");
    ia.position = ib.position = 1.5f;
    CHECK_THAT(f.error(f.add(node_of("loco", GraphNodeType::kBlend1D, {ia, ib}))),
               Contains("'loco'") && Contains("share the position"));
  }
  SECTION("collinear Blend2D points") {
    GraphFixture f;
    std::vector<GraphInputDesc> ins;
    for (int k = 0; k < 3; ++k) {
      auto in = input(f.clip("c" + std::to_string(k), 0), "c");
      in.x = static_cast<float>(k);
      in.y = 2.0f * static_cast<float>(k);
      ins.push_back(in);
    }
    CHECK_THAT(f.error(f.add(node_of("dir", GraphNodeType::kBlend2D, ins))),
               Contains("'dir'") && Contains("3 non-collinear"));
  }
  SECTION("two Blend2D points") {
    GraphFixture f;
    auto a = input(f.clip("a", 0)), b = input(f.clip("b", 0));
    b.x = 1.0f;
    CHECK_THAT(f.error(f.add(node_of("dir", GraphNodeType::kBlend2D, {a, b}))), Contains("it has 2"));
  }
}

TEST_CASE("graph build: parameter bindings are checked by name and type (rule GR1)", "[graph][build]") {
  SECTION("unknown parameter") {
    GraphFixture f;
    const int walk = f.clip("walk", 0);
    f.node(walk).speed = bound("pace");
    CHECK_THAT(f.error(walk), Contains("'walk'") && Contains("speed") && Contains("'pace'") && Contains("does not declare"));
  }
  SECTION("wrong type") {
    GraphFixture f;
    f.param("run", GraphParameterType::kBool);
    const int walk = f.clip("walk", 0);
    f.node(walk).speed = bound("run");
    CHECK_THAT(f.error(walk), Contains("speed is a number but the parameter 'run' is a bool"));
  }
  SECTION("a Select's selection bound to a number") {
    GraphFixture f;
    f.param("state", GraphParameterType::kNumber);
    const int walk = f.clip("walk", 0);
    GraphNodeDesc s = node_of("sel", GraphNodeType::kSelect, {input(walk, "walk")});
    s.selection.parameter = "state";
    CHECK_THAT(f.error(f.add(s)), Contains("'sel'") && Contains("selection is a string"));
  }
  SECTION("no output") {
    GraphFixture f;
    f.clip("walk", 0);
    CHECK_THAT(f.error(-1), Contains("output"));
  }
}

TEST_CASE("graph desc: enum names round-trip", "[graph][build]") {
  for (int t = 0; t < 12; ++t) {
    const auto type = static_cast<GraphNodeType>(t);
    CHECK(parse_graph_node_type(to_string(type)) == type);
  }
  CHECK(parse_graph_curve("CubicV2") == GraphCurve::kCubicV2);
  CHECK(parse_graph_phase_sync("Markers") == GraphPhaseSync::kMarkers);
  CHECK_FALSE(parse_graph_interruptible("Default").has_value());
  CHECK(parse_graph_play_mode("OnceAndReset") == GraphPlayMode::kOnceAndReset);
}
