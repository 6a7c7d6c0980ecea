// Over/Add/Subtract/Mask/Speed (rule GR10), and the per-frame guarantees (rule GR13):
// allocation-free, deterministic across threads, bad input; snapshot/restore (rule GR14).
#include <cstring>
#include <thread>

#include "graph/graph_support.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

float pitch_deg(const Rig& rig, const std::vector<Transform>& local, const char* part) {
  const glm::quat q = local[static_cast<size_t>(joint_index(rig, part))].rotation;
  return glm::degrees(2.0f * std::atan2(q.x, q.w));
}

}  // namespace

TEST_CASE("Mask under Over: masked-out joints show the base (rule GR10)", "[graph][nodes]") {
  for (const bool invert : {false, true}) {
    GraphFixture f;
    const int base = f.clip("base", 0), top = f.clip("top", 40);
    GraphNodeDesc m = node_of("arm", GraphNodeType::kMask);
    m.pose = top;
    m.weights = {{"LeftUpperArm", 1.0f}};
    m.invert.value = invert;
    const int mask = f.add(m);
    GraphNodeDesc o = node_of("over", GraphNodeType::kOver);
    o.base = base;
    o.over = mask;
    GraphInstance g = f.build(f.add(o));
    const Frame fr = step(f, g, 0.1f);
    // base: yaw 0 / arm pitch 0; top: yaw 40 / arm pitch 40.
    CHECK(yaw_deg(f.rig, fr.local) == Approx(invert ? 40.0f : 0.0f).margin(1e-4));
    CHECK(pitch_deg(f.rig, fr.local, "LeftUpperArm") == Approx(invert ? 0.0f : 40.0f).margin(1e-4));
  }
}

TEST_CASE("Over weight is unclamped; Add(B, Subtract(A, B)) = A; Speed scales dt (rule GR10)", "[graph][nodes]") {
  {
    GraphFixture f;
    const int base = f.clip("base", 0), top = f.clip("top", 20);
    GraphNodeDesc o = node_of("over", GraphNodeType::kOver);
    o.base = base;
    o.over = top;
    o.weight.value = 1.5f;
    GraphInstance g = f.build(f.add(o));
    CHECK(yaw_deg(f.rig, step(f, g, 0.1f).local) == Approx(30.0f).margin(1e-3));
  }
  {
    GraphFixture f;
    const int a = f.clip("a", 30), b = f.clip("b", 10), b2 = f.clip("b2", 10);
    GraphNodeDesc sub = node_of("sub", GraphNodeType::kSubtract);
    sub.a = a;
    sub.b = b;
    const int s = f.add(sub);
    GraphNodeDesc add = node_of("add", GraphNodeType::kAdd);
    add.base = b2;
    add.additive = s;
    GraphInstance g = f.build(f.add(add));
    CHECK(yaw_deg(f.rig, step(f, g, 0.1f).local) == Approx(30.0f).margin(1e-3));
    f.node(f.desc.output).weight.value = 0.5f;
    GraphInstance h = f.build(f.desc.output);
    CHECK(yaw_deg(f.rig, step(f, h, 0.1f).local) == Approx(20.0f).margin(1e-3));
  }
  {
    GraphFixture f;
    const int c = f.clip("c", 0, 1.0f);
    GraphNodeDesc sp = node_of("fast", GraphNodeType::kSpeed);
    sp.pose = c;
    sp.speed.value = 2.0f;
    GraphInstance g = f.build(f.add(sp));
    step(f, g, 0.1f);
    CHECK(g.node_time(c) == Approx(0.2f));
  }
}

namespace {

// A graph with every kind of state: a synced Blend1D, a Select with a transition, a masked
// Over of a RandomSequence.
struct Big {
  GraphFixture f;
  GraphParameter speed, state;
};

GraphInstance big(Big& b) {
  GraphFixture& f = b.f;
  f.param("speed", GraphParameterType::kNumber, 0.0f);
  f.param("state", GraphParameterType::kString, 0, false, "loco");
  using M = ClipMarker;
  const int walk = f.clip("walk", 0, 1.0f, {M{0.1f, "Footstep", "Left", ClipMarkerKind::kMarker}, M{0.6f, "Footstep", "Right", ClipMarkerKind::kMarker}});
  const int run = f.clip("run", 20, 0.7f, {M{0.05f, "Footstep", "Left", ClipMarkerKind::kMarker}, M{0.4f, "Footstep", "Right", ClipMarkerKind::kMarker}});
  auto iw = input(walk), ir = input(run);
  iw.position = 0.0f;
  ir.position = 2.0f;
  GraphNodeDesc l = node_of("loco", GraphNodeType::kBlend1D, {iw, ir});
  l.position = bound("speed");
  l.phase_sync = GraphPhaseSync::kMarkers;
  const int loco = f.add(l);
  const int idle = f.clip("idle", 5, 2.0f);
  GraphNodeDesc s = node_of("sel", GraphNodeType::kSelect, {input(loco, "loco"), input(idle, "idle")});
  s.selection.parameter = "state";
  s.default_transition = GraphTransition{0.3f, GraphCurve::kCubicV2};
  const int sel = f.add(s);
  const int w1 = f.clip("wave1", 50, 0.4f), w2 = f.clip("wave2", 60, 0.3f);
  GraphNodeDesc r = node_of("rnd", GraphNodeType::kRandomSequence, {input(w1), input(w2)});
  r.seed = 7;
  const int rnd = f.add(r);
  GraphNodeDesc m = node_of("arm", GraphNodeType::kMask);
  m.pose = rnd;
  m.weights = {{"LeftUpperArm", 1.0f}};
  const int mask = f.add(m);
  GraphNodeDesc o = node_of("out", GraphNodeType::kOver);
  o.base = sel;
  o.over = mask;
  o.weight.value = 0.8f;
  GraphInstance g = f.build(f.add(o));
  b.speed = g.find_parameter("speed");
  b.state = g.find_parameter("state");
  return g;
}

// Frame i's inputs: a speed ramp and a state switch back and forth.
void drive(Big& b, GraphInstance& g, int i) {
  g.set_number(b.speed, 0.02f * static_cast<float>(i % 150));
  g.set_string(b.state, (i / 40) % 2 ? "idle" : "loco");
}

std::vector<Transform> run_frames(Big& b, GraphInstance& g, int from, int count) {
  std::vector<Transform> all;
  std::vector<Transform> local(static_cast<size_t>(b.f.rig.joint_count()));
  std::vector<float> cov(local.size());
  std::vector<GraphEvent> events(8);
  for (int i = from; i < from + count; ++i) {
    drive(b, g, i);
    g.update(b.f.rig, 1.0f / 60.0f, local, cov, events);
    all.insert(all.end(), local.begin(), local.end());
  }
  return all;
}

bool same_bits(const std::vector<Transform>& x, const std::vector<Transform>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(Transform)) == 0;
}

}  // namespace

TEST_CASE("graph update allocates nothing (rule GR13)", "[graph][runtime]") {
  Big b;
  GraphInstance g = big(b);
  std::vector<Transform> local(static_cast<size_t>(b.f.rig.joint_count()));
  std::vector<float> cov(local.size());
  std::vector<GraphEvent> events(8);
  g.update(b.f.rig, 0.0f, local, cov, events);
  AllocationScope scope;
  for (int i = 0; i < 600; ++i) {
    drive(b, g, i);
    g.update(b.f.rig, 1.0f / 60.0f, local, cov, events);
  }
  CHECK(scope.count() == 0);
}

TEST_CASE("graph update is deterministic across instances and threads (rule GR13)", "[graph][runtime]") {
  Big b1, b2;
  GraphInstance g1 = big(b1), g2 = big(b2);
  const auto main_frames = run_frames(b1, g1, 0, 400);
  std::vector<Transform> thread_frames;
  std::thread t([&] { thread_frames = run_frames(b2, g2, 0, 400); });
  t.join();
  CHECK(same_bits(main_frames, thread_frames));
}

TEST_CASE("graph update: bad dt and spans (rule GR13)", "[graph][runtime]") {
  Big b;
  GraphInstance g = big(b);
  std::vector<Transform> local(static_cast<size_t>(b.f.rig.joint_count()));
  std::vector<float> cov(local.size());
  std::vector<Transform> shorter(local.size() - 1);
  CHECK_FALSE(g.update(b.f.rig, 0.1f, shorter, cov).ok);
  const int walk = g.find_node("walk");
  CHECK(g.update(b.f.rig, 0.1f, local, cov).ok);
  const float t = g.node_time(walk);
  CHECK(g.update(b.f.rig, std::nanf(""), local, cov).ok);
  CHECK(g.update(b.f.rig, -1.0f, local, cov).ok);
  CHECK(g.node_time(walk) == t);
  for (const Transform& x : local) CHECK(std::isfinite(x.rotation.w));
}

TEST_CASE("snapshot then restore reproduces the frames bit for bit (rule GR14)", "[graph][runtime]") {
  Big b;
  GraphInstance g = big(b);
  run_frames(b, g, 0, 75);  // mid-transition and mid-pick
  std::vector<std::byte> buffer(g.snapshot_size());
  REQUIRE(g.snapshot(buffer));
  const auto first = run_frames(b, g, 75, 120);
  REQUIRE(g.restore(buffer));
  const auto again = run_frames(b, g, 75, 120);
  CHECK(same_bits(first, again));
  // Into a fresh instance of the same description as well.
  Big b2;
  GraphInstance h = big(b2);
  REQUIRE(h.restore(buffer));
  CHECK(same_bits(run_frames(b2, h, 75, 120), first));
  // Too small, or from a graph of another shape: refused.
  CHECK_FALSE(g.snapshot(std::span<std::byte>(buffer.data(), buffer.size() - 1)));
  GraphFixture other;
  GraphInstance o = other.build(other.clip("c", 0));
  std::vector<std::byte> small(o.snapshot_size());
  REQUIRE(o.snapshot(small));
  CHECK_FALSE(g.restore(small));
  UNSCOPED_INFO("snapshot bytes: " << g.snapshot_size());
  CHECK(g.snapshot_size() < 4096);
}
