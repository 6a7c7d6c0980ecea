// Planted feet on a graph's output (rule LO15): two synthetic walks of different speed and leg
// swing, blended by a ramping Blend1D with root motion, their left foot down over the first half
// of each 1 s cycle. Each walk's foot skates (the swing does not match its travel) and the blend
// skates differently again; holding the foot from the blended contacts keeps it within the
// issue's 1 cm (0.036 studs) per contact in the world the root motion carries it through.
#include <algorithm>
#include <cmath>

#include "asterune/rig/world.hpp"
#include "graph/graph_support.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

constexpr float kDt = 1.0f / 60.0f;

// Left foot down over [0, 0.5) of a 1 s clip, on a 1/60 s grid.
FootContacts left_down_first_half() {
  FootContacts c;
  c.feet = {FootSpec{"LeftFoot", "Left", -1}};
  c.dt = kDt;
  c.frame_count = 61;
  for (int k = 0; k < c.frame_count; ++k) c.contact.push_back(static_cast<float>(k) * kDt < 0.5f ? 1 : 0);
  c.has_floor = true;
  return c;
}

// LowerTorso travels `travel` studs along -Z in 1 s; the left thigh swings from +swing degrees
// about +X (foot forward) to -swing at 0.5 s and back.
int walk(GraphFixture& f, const std::string& id, float travel, float swing, const FootContacts& contacts) {
  auto c = std::make_unique<Clip>();
  c->name = id;
  c->duration = 1.0f;
  ClipTrack root;
  root.name = "LowerTorso";
  root.translation_times = {0.0f, 1.0f};
  root.translations = {glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -travel)};
  root.rotation_times = {0.0f, 1.0f};
  root.rotations = {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)};
  ClipTrack leg;
  leg.name = "LeftUpperLeg";
  leg.rotation_times = {0.0f, 0.5f, 1.0f};
  leg.rotations = {axis_angle_deg(swing, {1, 0, 0}), axis_angle_deg(-swing, {1, 0, 0}), axis_angle_deg(swing, {1, 0, 0})};
  c->tracks = {root, leg};
  f.bindings.push_back(native_binding(*c, f.rig));
  GraphNodeDesc n;
  n.id = id;
  n.type = GraphNodeType::kClip;
  n.clip = c.get();
  n.binding = f.bindings.back().get();
  n.contacts = &contacts;
  f.clips.push_back(std::move(c));
  return f.add(n);
}

struct Walks {
  FootContacts contacts = left_down_first_half();
  GraphFixture f;
  GraphInstance g;
  GraphParameter mix;
};

void build(Walks& w, bool plant) {
  w.f.param("mix", GraphParameterType::kNumber, 0.0f);
  const int slow = walk(w.f, "slow", 1.0f, 20.0f, w.contacts);
  const int fast = walk(w.f, "fast", 2.0f, 35.0f, w.contacts);
  GraphInputDesc a = input(slow), b = input(fast);
  a.position = 0.0f;
  b.position = 1.0f;
  GraphNodeDesc n = node_of("loco", GraphNodeType::kBlend1D, {a, b});
  n.position = bound("mix");
  w.f.desc.plant_feet = plant;
  w.g = w.f.build(w.f.add(n));
  w.mix = w.g.find_parameter("mix");
}

// The left sole in the world: the root carried by every root step (rule AN16).
struct Run {
  float worst_slide = 0.0f;  // over contacts: the sole's largest distance from where it went down
  int contacts = 0;
  std::vector<Transform> last;
};

Run run(Walks& w, int frames) {
  const Rig& rig = w.f.rig;
  const size_t n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> local(n), coverage_world(n);
  std::vector<float> coverage(n);
  const size_t foot = static_cast<size_t>(joint_index(rig, "LeftFoot"));
  const glm::vec3 sole_offset(0.0f, -0.5f * rig.part(rig.part1()[foot]).size.y, 0.0f);
  Transform root = Transform::identity();
  Run out;
  bool down = false;
  glm::vec3 start(0.0f);
  for (int i = 0; i < frames; ++i) {
    // Through blends: the mix ramps from all slow to all fast and back.
    const float u = static_cast<float>(i) / static_cast<float>(frames);
    REQUIRE(w.g.set_number(w.mix, u < 0.5f ? 2.0f * u : 2.0f - 2.0f * u));
    const GraphReport r = w.g.update(rig, kDt, local, coverage, {}, true);
    REQUIRE(r.ok);
    root = root * r.root_step;
    REQUIRE(evaluate_world(rig, root, local, coverage_world));
    const Transform& part = coverage_world[foot];
    const glm::vec3 sole = part.position + part.rotation * sole_offset;
    if (w.g.foot_contact(0)) {
      if (!down) {
        start = sole;
        ++out.contacts;
      }
      out.worst_slide = std::max(out.worst_slide, glm::length(sole - start));
    }
    down = w.g.foot_contact(0);
  }
  out.last = local;
  return out;
}

}  // namespace

TEST_CASE("plant_feet holds a graph's foot through blends on its blended contacts (rule LO15)", "[graph][plant]") {
  Walks planted, free;
  build(planted, true);
  build(free, false);
  REQUIRE(planted.g.foot_count() == 1);
  const Run held = run(planted, 360);
  const Run skating = run(free, 360);
  REQUIRE(held.contacts == 6);  // one per 1 s cycle
  REQUIRE(skating.contacts == 6);
  INFO("planted slide " << held.worst_slide << " studs, without " << skating.worst_slide);
  CHECK(held.worst_slide <= 0.036f);
  CHECK(skating.worst_slide > 0.3f);
  CHECK(skating.worst_slide > 10.0f * held.worst_slide);
}

TEST_CASE("a planted graph's hold is part of its snapshot (rules LO15, GR14)", "[graph][plant]") {
  Walks w;
  build(w, true);
  run(w, 20);  // mid-contact: a foot is held
  std::vector<std::byte> snap(w.g.snapshot_size());
  REQUIRE(w.g.snapshot(snap));
  const Run first = run(w, 45);  // through the release and its fade
  REQUIRE(w.g.restore(snap));
  const Run again = run(w, 45);
  for (size_t j = 0; j < first.last.size(); ++j) {
    CHECK(first.last[j].rotation == again.last[j].rotation);
    CHECK(first.last[j].position == again.last[j].position);
  }
}

TEST_CASE("plant_feet needs contacts and a leg (rule LO15)", "[graph][plant]") {
  GraphFixture f;
  const int a = f.clip("a", 10.0f);
  f.desc.plant_feet = true;
  CHECK_THAT(f.error(a), Catch::Matchers::Contains("plant_feet needs foot contacts"));
}

TEST_CASE("planted feet and distance matching allocate nothing per update (rules LO15, LO12, GR13)",
          "[graph][plant][distance][alloc]") {
  Walks w;
  w.f.param("mix", GraphParameterType::kNumber, 0.0f);
  w.f.param("distance", GraphParameterType::kNumber, 3.0f);
  const int slow = walk(w.f, "slow", 1.0f, 20.0f, w.contacts);
  const int fast = walk(w.f, "fast", 2.0f, 35.0f, w.contacts);
  GraphInputDesc a = input(slow), b = input(fast);
  a.position = 0.0f;
  b.position = 1.0f;
  GraphNodeDesc loco = node_of("loco", GraphNodeType::kBlend1D, {a, b});
  loco.position = bound("mix");
  const int blend = w.f.add(loco);
  // A stop over the walks: 3 studs in 1.5 s, matched to the distance left.
  auto clip = std::make_unique<Clip>(linear_clip("stop", "LowerTorso", Transform::identity(),
                                                 Transform{glm::quat(1, 0, 0, 0), {0.0f, 0.0f, -3.0f}}, 1.5f));
  w.f.bindings.push_back(native_binding(*clip, w.f.rig));
  GraphNodeDesc stop;
  stop.id = "stop";
  stop.type = GraphNodeType::kClip;
  stop.clip = clip.get();
  stop.binding = w.f.bindings.back().get();
  stop.play_mode = GraphPlayMode::kOnceAndHold;
  stop.distance_matching = GraphDistanceMatching::kStop;
  stop.distance = bound("distance");
  w.f.clips.push_back(std::move(clip));
  const int s = w.f.add(stop);
  GraphNodeDesc over = node_of("over", GraphNodeType::kOver);
  over.base = blend;
  over.over = s;
  over.weight = GraphNumber{0.3f, {}};
  w.f.desc.plant_feet = true;
  w.g = w.f.build(w.f.add(over));
  const GraphParameter mix = w.g.find_parameter("mix"), distance = w.g.find_parameter("distance");
  std::vector<Transform> local(static_cast<size_t>(w.f.rig.joint_count()));
  std::vector<float> coverage(local.size());
  REQUIRE(w.g.update(w.f.rig, kDt, local, coverage, {}, true).ok);  // setup's first frame
  const int stop_node = w.g.find_node("stop");
  AllocationScope scope;
  bool ok = true;
  for (int i = 0; i < 240; ++i) {
    ok = ok && w.g.set_number(mix, static_cast<float>(i % 120) / 120.0f);
    ok = ok && w.g.set_number(distance, 3.0f - 0.0125f * static_cast<float>(i));
    ok = ok && w.g.update(w.f.rig, kDt, local, coverage, {}, true).ok;
  }
  const std::size_t allocations = scope.count();
  REQUIRE(ok);
  CHECK(allocations == 0);
  // The stop ran: the last distance, 3 - 0.0125 x 239 = 0.0125 studs of its 3 left, is
  // 1.5 x (1 - 0.0125 / 3) = 1.49375 s into its uniform travel.
  CHECK(w.g.node_time(stop_node) == Approx(1.49375f).margin(1e-3));
  AllocationScope probe;
  std::vector<int> one(3);
  CHECK(probe.count() >= 1);
}
