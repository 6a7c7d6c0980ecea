// Root motion and foot contacts of a graph (rule GR16), on its own and as a root-motion
// Animator track (rule AN9): clips with constant root speeds blended with known weights give
// known deltas; clip contacts with known frames give known blended contact weights.
#include "graph/graph_support.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

// A clip that moves LowerTorso (the Root joint's part) from the origin by `travel` studs along
// -Z and turns it by `turn_deg` about +Y over `length` seconds, at constant rates.
int moving_clip(GraphFixture& f, const std::string& id, float travel, float turn_deg, float length = 1.0f) {
  auto c = std::make_unique<Clip>(linear_clip(id, "LowerTorso", Transform::identity(),
                                              Transform{axis_angle_deg(turn_deg, {0, 1, 0}), {0.0f, 0.0f, -travel}},
                                              length));
  f.bindings.push_back(native_binding(*c, f.rig));
  GraphNodeDesc n;
  n.id = id;
  n.type = GraphNodeType::kClip;
  n.clip = c.get();
  n.binding = f.bindings.back().get();
  f.clips.push_back(std::move(c));
  return f.add(n);
}

// Blend1D walk (position 0) / run (position 1), unsynced, at `position`.
int blend(GraphFixture& f, int walk, int run, float position) {
  GraphInputDesc a = input(walk), b = input(run);
  a.position = 0.0f;
  b.position = 1.0f;
  GraphNodeDesc n = node_of("loco", GraphNodeType::kBlend1D, {a, b});
  n.position = GraphNumber{position, {}};
  n.phase_sync = GraphPhaseSync::kUnsynced;
  return f.add(n);
}

float yaw_deg_of(const glm::quat& q) { return glm::degrees(2.0f * std::atan2(q.y, q.w)); }

}  // namespace

TEST_CASE("a blended graph's root step is the weighted clip steps (rule GR16)", "[graph][root]") {
  GraphFixture f;
  // walk 1 stud/s, run 3 studs/s; weights 0.25 / 0.75 -> 0.25 x 1 + 0.75 x 3 = 2.5 studs/s.
  const int walk = moving_clip(f, "walk", 1.0f, 0.0f);
  const int run = moving_clip(f, "run", 3.0f, 0.0f);
  GraphInstance g = f.build(blend(f, walk, run, 0.75f));
  std::vector<Transform> local(static_cast<size_t>(f.rig.joint_count()));
  std::vector<float> coverage(local.size());
  const size_t lt = static_cast<size_t>(joint_index(f.rig, "LowerTorso"));
  glm::vec3 total(0.0f);
  // 12 frames of 0.1 s: both clips wrap once (at 1.0 s); the laps add their whole travel.
  for (int i = 0; i < 12; ++i) {
    const GraphReport r = g.update(f.rig, 0.1f, local, coverage, {}, true);
    REQUIRE(r.ok);
    CHECK(r.root_step.position.z == Approx(-0.25f).margin(1e-5));
    CHECK(r.root_step.position.x == Approx(0.0f).margin(1e-6));
    total += r.root_step.position;
    // The pose stays in place: the root joint keeps its clip-start position.
    CHECK(glm::length(local[lt].position) == Approx(0.0f).margin(1e-5));
  }
  CHECK(total.z == Approx(-3.0f).margin(1e-4));
  // Without root_motion the pose travels and the step is identity.
  const GraphReport plain = g.update(f.rig, 0.1f, local, coverage);
  CHECK(plain.root_step.position == glm::vec3(0.0f));
  CHECK(local[lt].position.z < -0.1f);
}

TEST_CASE("a graph's turn blends by weight and a root-motion graph track reports it (rules GR16, AN9)",
          "[graph][root]") {
  GraphFixture f;
  // walk turns 90 deg/s, run 30 deg/s (no travel); weights 0.5 / 0.5 -> 60 deg/s.
  const int walk = moving_clip(f, "walk", 0.0f, 90.0f);
  const int run = moving_clip(f, "run", 0.0f, 30.0f);
  GraphInstance g = f.build(blend(f, walk, run, 0.5f));
  TrackDesc t;
  t.name = "loco";
  t.source = &g;
  t.root_motion = true;
  t.weight = 0.5f;  // with the rest pose: the root joint's effective weight is 0.5
  Animator a = build_animator(f.rig, {t});
  Out out(f.rig);
  for (int i = 0; i < 3; ++i) {
    const AnimatorReport r = a.update(f.rig, 0.1f, out.local, out.coverage);
    REQUIRE(r.ok);
    // 60 deg/s x 0.1 s x the track's effective weight 0.5 = 3 degrees.
    CHECK(yaw_deg_of(r.root_delta.rotation) == Approx(3.0f).margin(1e-3));
    CHECK(glm::length(r.root_delta.position) == Approx(0.0f).margin(1e-5));
  }
}

TEST_CASE("a graph's foot contacts blend by weight (rule GR16)", "[graph][contacts]") {
  GraphFixture f;
  f.param("speed", GraphParameterType::kNumber, 0.75f);
  const int walk = f.clip("walk", 10.0f, 1.0f);
  const int run = f.clip("run", 30.0f, 1.0f);
  const int still = f.clip("still", 0.0f, 1.0f);  // knows no feet
  // Contacts on 11 frames 0.1 s apart: walk Left down 0-5, Right 5-10; run Left 0-2, Right 3-8.
  FootContacts cw, cr;
  for (FootContacts* c : {&cw, &cr}) {
    c->feet = {FootSpec{"LeftFoot", "Left", 0}, FootSpec{"RightFoot", "Right", 1}};
    c->dt = 0.1f;
    c->frame_count = 11;
    c->contact.assign(22, 0);
  }
  for (int k = 0; k <= 5; ++k) cw.contact[static_cast<size_t>(k * 2)] = 1;
  for (int k = 5; k <= 10; ++k) cw.contact[static_cast<size_t>(k * 2 + 1)] = 1;
  for (int k = 0; k <= 2; ++k) cr.contact[static_cast<size_t>(k * 2)] = 1;
  for (int k = 3; k <= 8; ++k) cr.contact[static_cast<size_t>(k * 2 + 1)] = 1;
  f.node(walk).contacts = &cw;
  f.node(run).contacts = &cr;
  // Blend1D walk 0 / run 1 / still 2 at 0.75: walk 0.25, run 0.75, still 0.
  GraphInputDesc a = input(walk), b = input(run), c = input(still);
  a.position = 0.0f;
  b.position = 1.0f;
  c.position = 2.0f;
  GraphNodeDesc n = node_of("loco", GraphNodeType::kBlend1D, {a, b, c});
  n.position = bound("speed");
  n.phase_sync = GraphPhaseSync::kUnsynced;
  GraphInstance g = f.build(f.add(n));
  REQUIRE(g.foot_count() == 2);
  CHECK(g.foot_label(0) == "LeftFoot");
  CHECK(g.foot_label(1) == "RightFoot");
  step(f, g, 0.1f);  // t = 0.1 (frame 1): walk L, run L
  CHECK(g.foot_contact_weight(0) == Approx(1.0f));
  CHECK(g.foot_contact_weight(1) == Approx(0.0f));
  CHECK(g.foot_contact(0));
  CHECK_FALSE(g.foot_contact(1));
  step(f, g, 0.3f);  // t = 0.4: L walk only (0.25), R run only (0.75)
  CHECK(g.foot_contact_weight(0) == Approx(0.25f));
  CHECK(g.foot_contact_weight(1) == Approx(0.75f));
  CHECK_FALSE(g.foot_contact(0));
  CHECK(g.foot_contact(1));
  step(f, g, 0.3f);  // t = 0.7: L neither, R both
  CHECK(g.foot_contact_weight(0) == Approx(0.0f));
  CHECK(g.foot_contact_weight(1) == Approx(1.0f));
  // At 1.5 run and still share 0.5 each; only run knows the feet, so its states are the blend.
  REQUIRE(g.set_number(g.find_parameter("speed"), 1.5f));
  step(f, g, 0.1f);  // t = 0.8: run R down
  CHECK(g.foot_contact_weight(0) == Approx(0.0f));
  CHECK(g.foot_contact_weight(1) == Approx(1.0f));
}
