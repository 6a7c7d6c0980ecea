// Selectors, sequences and transitions (rules GR3-GR6, GR8): weights over time, interruption,
// priority rules, sequence order and seeded draw frequencies.
#include <cmath>
#include <map>

#include "graph/graph_support.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

struct Sel {
  GraphFixture f;
  int a = -1, b = -1, sel = -1;
  GraphParameter state;
};

GraphInstance select(Sel& s, GraphCurve curve, float duration = 0.5f) {
  s.f.param("state", GraphParameterType::kString, 0, false, "A");
  s.a = s.f.clip("a", 0);
  s.b = s.f.clip("b", 40);
  GraphNodeDesc n = node_of("sel", GraphNodeType::kSelect, {input(s.a, "A"), input(s.b, "B")});
  n.selection.parameter = "state";
  n.default_transition = GraphTransition{duration, curve};
  s.sel = s.f.add(n);
  GraphInstance g = s.f.build(s.sel);
  s.state = g.find_parameter("state");
  return g;
}

}  // namespace

TEST_CASE("Select: a Linear transition reaches the new input exactly after its duration (rules GR3, GR8)",
          "[graph][select]") {
  Sel s;
  GraphInstance g = select(s, GraphCurve::kLinear);
  step(s.f, g, 0.125f);
  CHECK(g.node_weight(s.a) == 1.0f);
  REQUIRE(g.set_string(s.state, "B"));
  const float expect[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  for (const float w : expect) {
    const Frame fr = step(s.f, g, 0.125f);
    CHECK(g.node_weight(s.b) == Approx(w));
    if (w == 1.0f) {
      CHECK(g.node_weight(s.a) == 0.0f);  // inactive: not advanced, not sampled
      CHECK(yaw_deg(s.f.rig, fr.local) == Approx(40.0f).margin(1e-4));
    }
  }
  CHECK_FALSE(g.set_string(s.state, std::string(200, 'x')));  // beyond the capacity: refused
  CHECK(g.string(s.state) == "B");
}

TEST_CASE("Select: an interrupted transition starts from the shown pose (rule GR8)", "[graph][select]") {
  Sel s;
  GraphInstance g = select(s, GraphCurve::kLinear);
  step(s.f, g, 0.125f);
  REQUIRE(g.set_string(s.state, "B"));
  step(s.f, g, 0.125f);
  step(s.f, g, 0.125f);
  const float shown = yaw_deg(s.f.rig, step(s.f, g, 0.125f).local);  // B at 0.5
  CHECK(shown > 10.0f);
  REQUIRE(g.set_string(s.state, "A"));
  // Back to A from the frozen pose: no jump, then linear to A.
  CHECK(yaw_deg(s.f.rig, step(s.f, g, 0.125f).local) == Approx(shown).margin(1e-3));
  float last = shown;
  for (int i = 0; i < 3; ++i) {
    const float y = yaw_deg(s.f.rig, step(s.f, g, 0.125f).local);
    CHECK(y < last);
    last = y;
  }
  CHECK(yaw_deg(s.f.rig, step(s.f, g, 0.125f).local) == Approx(0.0f).margin(1e-4));
}

TEST_CASE("Transitions: CubicV2 eases in and out, Inertial has no jump (rule GR8)", "[graph][select]") {
  {
    Sel s;
    GraphInstance g = select(s, GraphCurve::kCubicV2);
    step(s.f, g, 0.1f);
    REQUIRE(g.set_string(s.state, "B"));
    step(s.f, g, 0.1f);
    step(s.f, g, 0.1f);  // u = 0.2: 4 u^3 = 0.032
    CHECK(g.node_weight(s.b) == Approx(0.032f).margin(1e-5));
    step(s.f, g, 0.1f);
    step(s.f, g, 0.1f);  // u = 0.6: 1 - 4 (1 - u)^3 = 0.744
    CHECK(g.node_weight(s.b) == Approx(0.744f).margin(1e-5));
  }
  {
    Sel s;
    GraphInstance g = select(s, GraphCurve::kInertial, 0.4f);
    step(s.f, g, 0.1f);
    REQUIRE(g.set_string(s.state, "B"));
    // Full weight at once; the first pose is the shown one (offset share 1).
    const Frame first = step(s.f, g, 0.1f);
    CHECK(g.node_weight(s.b) == 1.0f);
    CHECK(yaw_deg(s.f.rig, first.local) == Approx(0.0f).margin(1e-3));
    // u = 0.5 after 0.2 s: share 1 - smootherstep(0.5) = 0.5 -> slerp(offset -40, 0.5) + 40 = 20.
    step(s.f, g, 0.1f);
    CHECK(yaw_deg(s.f.rig, step(s.f, g, 0.1f).local) == Approx(20.0f).margin(1e-3));
    step(s.f, g, 0.1f);
    CHECK(yaw_deg(s.f.rig, step(s.f, g, 0.1f).local) == Approx(40.0f).margin(1e-4));
  }
}

TEST_CASE("PrioritySelect: Always, Finished and Trigger interruption (rule GR4)", "[graph][select]") {
  for (const GraphInterruptible mode : {GraphInterruptible::kAlways, GraphInterruptible::kFinished, GraphInterruptible::kTrigger}) {
    GraphFixture f;
    f.param("attack", GraphParameterType::kBool);
    f.param("may", GraphParameterType::kBool);
    const int hi = f.clip("hi", 40), lo = f.clip("lo", 0, 1.0f);
    auto ih = input(hi, "hi"), il = input(lo, "lo");
    ih.trigger.parameter = "attack";
    il.trigger.value = true;
    il.interruptible = mode;
    il.interruptible_trigger.parameter = "may";
    GraphNodeDesc n = node_of("pri", GraphNodeType::kPrioritySelect, {ih, il});
    n.default_transition.duration = 0.0f;
    GraphInstance g = f.build(f.add(n));
    step(f, g, 0.25f);
    CHECK(g.node_weight(lo) == 1.0f);
    REQUIRE(g.set_bool(g.find_parameter("attack"), true));
    int switched_at = -1;
    for (int i = 1; i <= 8 && switched_at < 0; ++i) {
      if (i == 6) REQUIRE(g.set_bool(g.find_parameter("may"), true));
      step(f, g, 0.25f);
      if (g.node_weight(hi) == 1.0f) switched_at = i;
    }
    INFO(to_string(mode));
    // Always: the next update. Finished: lo completes its 1 s lap in the update that ends at
    // 1.0 s (the 3rd after the trigger), so the 4th switches. Trigger: when `may` is set (6th).
    CHECK(switched_at == (mode == GraphInterruptible::kAlways ? 1 : mode == GraphInterruptible::kFinished ? 4 : 6));
  }
}

TEST_CASE("Sequence: inputs in order, the last keeps its hold after loop_count (rule GR5)", "[graph][select]") {
  GraphFixture f;
  const int a = f.clip("a", 0, 0.5f), b = f.clip("b", 10, 0.25f), c = f.clip("c", 20, 0.25f);
  for (const int k : {a, b, c}) f.node(k).play_mode = GraphPlayMode::kOnceAndHold;
  GraphNodeDesc n = node_of("seq", GraphNodeType::kSequence, {input(a), input(b), input(c)});
  n.default_transition.duration = 0.0f;
  n.loop_count = 1;
  GraphInstance g = f.build(f.add(n));
  std::string order;
  for (int i = 0; i < 10; ++i) {
    // The shown clip by its yaw (a 0, b 10, c 20 degrees).
    const float yaw = yaw_deg(f.rig, step(f, g, 0.125f).local);
    order += static_cast<char>('a' + static_cast<int>(std::lround(yaw / 10.0f)));
  }
  // a shows 0.125, 0.25, 0.375 and ends at 0.5 s in the 4th update, where b enters at its
  // start (shown at 0 and 0.125); b ends in the 6th, where c enters; one pass done: c holds.
  CHECK(order == "aaabbccccc");
  CHECK(g.node_cycles(f.desc.output) == 1);
}

TEST_CASE("RandomSequence: seeded draws follow the weights and repeat per seed (rule GR6)", "[graph][select]") {
  auto run = [](std::uint64_t seed, int frames) {
    GraphFixture f;
    std::vector<GraphInputDesc> ins;
    const float weights[3] = {1.0f, 2.0f, 7.0f};
    for (int k = 0; k < 3; ++k) {
      const std::string name(1, static_cast<char>('a' + k));
      ins.push_back(input(f.clip(name, 0, 0.125f, {{0.0625f, name, "", ClipMarkerKind::kMarker}}), name));
      ins.back().weight.value = weights[k];
    }
    GraphNodeDesc n = node_of("rnd", GraphNodeType::kRandomSequence, ins);
    n.default_transition.duration = 0.0f;
    n.seed = seed;
    GraphInstance g = f.build(f.add(n));
    std::string picks;
    for (int i = 0; i < frames; ++i)
      for (const GraphEvent& e : step(f, g, 0.125f).events) picks += e.name;
    return picks;
  };
  const std::string picks = run(42, 10000);
  REQUIRE(picks.size() == 10000);  // one lap (one pick) per update
  std::map<char, int> count;
  for (const char c : picks) ++count[c];
  const double expect[3] = {1000, 2000, 7000};
  double chi2 = 0;
  for (int k = 0; k < 3; ++k) {
    const double d = count[static_cast<char>('a' + k)] - expect[k];
    chi2 += d * d / expect[k];
  }
  CHECK(chi2 < 13.8);  // 2 degrees of freedom, p = 0.001
  CHECK(run(42, 200) == picks.substr(0, 200));
  CHECK(run(43, 200) != picks.substr(0, 200));
}
