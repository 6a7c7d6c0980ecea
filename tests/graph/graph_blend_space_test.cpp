// Blend1D / Blend2D weights (rule GR7) against hand-derived values, their sum and continuity
// along sweeps, and the blended pose's angle.
#include <cmath>

#include "graph/graph_support.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

struct Space {
  GraphFixture f;
  std::vector<int> clips;
  int blend = -1;
  GraphParameter px, py;
};

// Blend1D over clips at positions 1, 3, 4 (yaw 0, 20, 60 degrees).
GraphInstance blend1d(Space& s) {
  s.f.param("speed", GraphParameterType::kNumber);
  std::vector<GraphInputDesc> ins;
  const float pos[3] = {3.0f, 1.0f, 4.0f};  // out of order on purpose
  const float yaw[3] = {20.0f, 0.0f, 60.0f};
  for (int k = 0; k < 3; ++k) {
    s.clips.push_back(s.f.clip("c" + std::to_string(k), yaw[k]));
    auto in = input(s.clips.back());
    in.position = pos[k];
    ins.push_back(in);
  }
  GraphNodeDesc b = node_of("loco", GraphNodeType::kBlend1D, ins);
  b.position = bound("speed");
  b.phase_sync = GraphPhaseSync::kUnsynced;
  s.blend = s.f.add(b);
  GraphInstance g = s.f.build(s.blend);
  s.px = g.find_parameter("speed");
  return g;
}

}  // namespace

TEST_CASE("Blend1D: linear between neighbours, extrapolated outside (rule GR7)", "[graph][blend]") {
  Space s;
  GraphInstance g = blend1d(s);
  struct Case {
    float p, w0, w1, w2;  // weights of the inputs at 3, 1, 4
  } cases[] = {{1.0f, 0, 1, 0}, {2.0f, 0.5f, 0.5f, 0}, {2.5f, 0.75f, 0.25f, 0}, {3.5f, 0.5f, 0, 0.5f},
               {4.0f, 0, 0, 1}, {0.0f, -0.5f, 1.5f, 0}};
  for (const Case& c : cases) {
    REQUIRE(g.set_number(s.px, c.p));
    const Frame fr = step(s.f, g, 0.01f);
    INFO("p = " << c.p);
    CHECK(g.node_weight(s.clips[0]) == Approx(c.w0).margin(1e-6));
    CHECK(g.node_weight(s.clips[1]) == Approx(c.w1).margin(1e-6));
    CHECK(g.node_weight(s.clips[2]) == Approx(c.w2).margin(1e-6));
  }
  // Beyond 4 the two nearest are 3 and 4: t = (5 - 3) / 1 = 2 -> weights -1 (at 3) and 2 (at 4).
  REQUIRE(g.set_number(s.px, 5.0f));
  Frame fr = step(s.f, g, 0.01f);
  CHECK(g.node_weight(s.clips[0]) == Approx(-1.0f));
  CHECK(g.node_weight(s.clips[2]) == Approx(2.0f));
  // The pose: slerp(20, 60, 2) = 100 degrees of yaw.
  CHECK(yaw_deg(s.f.rig, fr.local) == Approx(100.0f).margin(1e-3));
  REQUIRE(g.set_number(s.px, 2.5f));
  fr = step(s.f, g, 0.01f);
  // Weighted nlerp of 0 and 20 degrees at 0.25 / 0.75: atan of the half-angle sum.
  const double h = std::atan2(0.75 * std::sin(10.0 * M_PI / 180.0), 0.25 + 0.75 * std::cos(10.0 * M_PI / 180.0));
  CHECK(yaw_deg(s.f.rig, fr.local) == Approx(2.0 * h * 180.0 / M_PI).margin(1e-3));
  CHECK_FALSE(g.set_number(s.px, std::nanf("")));
  CHECK(g.number(s.px) == 2.5f);
}

namespace {

// Blend2D Cartesian: a unit square's corners and its centre (co-circular corners).
GraphInstance square(Space& s, GraphInputMode mode = GraphInputMode::kCartesian) {
  s.f.param("x", GraphParameterType::kNumber);
  s.f.param("y", GraphParameterType::kNumber);
  // Polar: the same corners as (direction, magnitude).
  const float cart[5][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, 0}};
  const float polar[5][2] = {{3.926991f, 1.4142136f}, {5.497787f, 1.4142136f}, {0.7853982f, 1.4142136f},
                             {2.3561945f, 1.4142136f}, {0, 0}};
  const auto& pts = mode == GraphInputMode::kPolar ? polar : cart;
  std::vector<GraphInputDesc> ins;
  for (int k = 0; k < 5; ++k) {
    s.clips.push_back(s.f.clip("c" + std::to_string(k), 10.0f * static_cast<float>(k)));
    auto in = input(s.clips.back());
    in.x = pts[k][0];
    in.y = pts[k][1];
    ins.push_back(in);
  }
  GraphNodeDesc b = node_of("dir", GraphNodeType::kBlend2D, ins);
  b.x = bound("x");
  b.y = bound("y");
  b.input_mode = mode;
  b.phase_sync = GraphPhaseSync::kUnsynced;
  s.blend = s.f.add(b);
  GraphInstance g = s.f.build(s.blend);
  s.px = g.find_parameter("x");
  s.py = g.find_parameter("y");
  return g;
}

std::vector<float> weights_at(Space& s, GraphInstance& g, float x, float y) {
  REQUIRE(g.set_number(s.px, x));
  REQUIRE(g.set_number(s.py, y));
  step(s.f, g, 0.0f);
  std::vector<float> w;
  for (const int c : s.clips) w.push_back(g.node_weight(c));
  return w;
}

}  // namespace

TEST_CASE("Blend2D Cartesian: barycentric inside, nearest edge outside (rule GR7)", "[graph][blend]") {
  Space s;
  GraphInstance g = square(s);
  // Centre: all weight on the centre input.
  auto w = weights_at(s, g, 0, 0);
  CHECK(w[4] == Approx(1.0f));
  // (0.5, 0): in the triangle centre (0,0), (1,-1), (1,1): barycentric 0.5 centre, 0.25 each.
  w = weights_at(s, g, 0.5f, 0.0f);
  CHECK(w[4] == Approx(0.5f));
  CHECK(w[1] == Approx(0.25f));
  CHECK(w[2] == Approx(0.25f));
  // (0.5, -0.5): on the edge centre-(1,-1): 0.5 / 0.5.
  w = weights_at(s, g, 0.5f, -0.5f);
  CHECK(w[4] == Approx(0.5f).margin(1e-6));
  CHECK(w[1] == Approx(0.5f).margin(1e-6));
  // Outside: (3, 0.5) -> nearest point (1, 0.5) on the edge (1,-1)-(1,1): 0.25 / 0.75.
  w = weights_at(s, g, 3.0f, 0.5f);
  CHECK(w[1] == Approx(0.25f));
  CHECK(w[2] == Approx(0.75f));
  // Beyond a corner: (2, 2) -> the corner (1, 1).
  w = weights_at(s, g, 2.0f, 2.0f);
  CHECK(w[2] == Approx(1.0f));
}

TEST_CASE("Blend2D: weights sum to 1 and move continuously along sweeps (rule GR7)", "[graph][blend]") {
  for (const GraphInputMode mode : {GraphInputMode::kCartesian, GraphInputMode::kPolar}) {
    Space s;
    GraphInstance g = square(s, mode);
    // A sweep through and around the space: a circle of radius 1.3 (Polar: angle, magnitude).
    std::vector<float> last;
    float worst_jump = 0.0f;
    for (int i = 0; i <= 2000; ++i) {
      const float a = 6.2831853f * static_cast<float>(i) / 2000.0f;
      const float r = 0.2f + 1.3f * std::fabs(std::sin(a));  // in and out of the hull
      std::vector<float> w = mode == GraphInputMode::kPolar ? weights_at(s, g, a, r)
                                                            : weights_at(s, g, r * std::cos(a), r * std::sin(a));
      float sum = 0.0f;
      for (const float v : w) sum += v;
      REQUIRE(sum == Approx(1.0f).margin(1e-5));
      if (!last.empty())
        for (size_t k = 0; k < w.size(); ++k) worst_jump = std::max(worst_jump, std::fabs(w[k] - last[k]));
      last = w;
    }
    INFO("mode " << to_string(mode));
    // A step of 2 pi / 2000 in angle moves a weight by a few thousandths at most.
    CHECK(worst_jump < 0.02f);
  }
}

TEST_CASE("Blend2D Polar: between directions, then by magnitude (rule GR7)", "[graph][blend]") {
  // A centre and 4 directions at magnitude 2.
  Space p;
  p.f.param("x", GraphParameterType::kNumber);
  p.f.param("y", GraphParameterType::kNumber);
  std::vector<GraphInputDesc> ins;
  const float dirs[4] = {0.0f, 1.5707963f, 3.1415927f, 4.712389f};
  for (int k = 0; k < 4; ++k) {
    p.clips.push_back(p.f.clip("d" + std::to_string(k), 0));
    auto in = input(p.clips.back());
    in.x = dirs[k];
    in.y = 2.0f;
    ins.push_back(in);
  }
  p.clips.push_back(p.f.clip("idle", 0));
  ins.push_back(input(p.clips.back()));
  GraphNodeDesc b = node_of("dir", GraphNodeType::kBlend2D, ins);
  b.x = bound("x");
  b.y = bound("y");
  b.input_mode = GraphInputMode::kPolar;
  GraphInstance pg = p.f.build(p.f.add(b));
  p.px = pg.find_parameter("x");
  p.py = pg.find_parameter("y");
  // 30 degrees at magnitude 1: rays 0 and 90 degrees at f = 1/3; on each ray 0.5 idle, 0.5 dir.
  auto w = weights_at(p, pg, 0.5235988f, 1.0f);
  CHECK(w[0] == Approx(0.5f * 2.0f / 3.0f));
  CHECK(w[1] == Approx(0.5f / 3.0f));
  CHECK(w[4] == Approx(0.5f));
  // Magnitude beyond the ray: clamped to 2.
  w = weights_at(p, pg, 3.1415927f, 5.0f);
  CHECK(w[2] == Approx(1.0f).margin(1e-5));
  // Between the last direction (270) and the first (0 = 360): 315 degrees -> 0.5 / 0.5.
  w = weights_at(p, pg, 5.497787f, 2.0f);
  CHECK(w[3] == Approx(0.5f).margin(1e-5));
  CHECK(w[0] == Approx(0.5f).margin(1e-5));
}
