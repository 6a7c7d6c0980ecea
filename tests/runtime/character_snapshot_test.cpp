// Whole-character snapshot and restore (rule AN14, with the graph's rule GR14): a character
// with a marker-synced locomotion graph behind a Select (a transition in flight), a clip track
// coming in by an inertial transition, and controls with retained state (smoothed look-at with
// tracking speed, a spring, feet on a slope) is saved mid-motion, run on, restored and run
// again with the same inputs: every frame equal bit for bit.
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/controls/ground.hpp"
#include "asterune/graph/graph.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"
#include "support/alloc_counter.hpp"
#include "support/swing_clip.hpp"

using namespace asterune;
using asterune::test::AllocationScope;

namespace {

// Every joint swings about X with time; Footstep markers Left at `left`, Right at `right`.
Clip swing(const Rig& rig, const char* name, float amplitude, float length, float left, float right) {
  Clip clip = test::swing_clip(rig, name, {amplitude, length, 13, 0.0f, false, glm::vec3(0.0f, 0.0f, -0.3f * length)});
  clip.markers = {ClipMarker{left, "Footstep", "Left", ClipMarkerKind::kMarker},
                  ClipMarker{right, "Footstep", "Right", ClipMarkerKind::kMarker}};
  return clip;
}

std::unique_ptr<AnimationBinding> native(const Clip& clip, const Rig& rig) {
  auto b = build_clip_binding(clip, rig);
  REQUIRE(b.ok());
  auto out = std::make_unique<AnimationBinding>();
  out->clip_binding = std::move(b).value();
  return out;
}

struct Scene {
  Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  Clip walk = swing(rig, "walk", 0.5f, 1.0f, 0.1f, 0.6f);
  Clip run = swing(rig, "run", 0.8f, 0.7f, 0.05f, 0.4f);
  Clip idle = swing(rig, "idle", 0.1f, 2.0f, 0.5f, 1.5f);
  Clip wave = swing(rig, "wave", 1.2f, 0.9f, 0.3f, 0.7f);
  std::unique_ptr<AnimationBinding> bw = native(walk, rig), br = native(run, rig), bi = native(idle, rig),
                                    bv = native(wave, rig);
  GraphInstance graph;
  GraphParameter speed, state;
  Ground ground;
  std::vector<TrackDesc> tracks;
  CharacterSetup setup;
  std::vector<ControlDesc> controls;

  Scene() {
    GraphDesc d;
    d.parameters = {GraphParameterDesc{"speed", GraphParameterType::kNumber, 0.2f, false, {}},
                    GraphParameterDesc{"state", GraphParameterType::kString, 0.0f, false, "loco"}};
    auto clip_node = [&](const char* id, const Clip& c, const AnimationBinding& b) {
      GraphNodeDesc n;
      n.id = id;
      n.clip = &c;
      n.binding = &b;
      d.nodes.push_back(n);
      return static_cast<int>(d.nodes.size()) - 1;
    };
    const int w = clip_node("walk", walk, *bw), r = clip_node("run", run, *br), i = clip_node("idle", idle, *bi);
    GraphNodeDesc loco;
    loco.id = "loco";
    loco.type = GraphNodeType::kBlend1D;
    loco.position.parameter = "speed";
    loco.phase_sync = GraphPhaseSync::kMarkers;
    loco.inputs.resize(2);
    loco.inputs[0].node = w;
    loco.inputs[0].position = 0.0f;
    loco.inputs[1].node = r;
    loco.inputs[1].position = 1.0f;
    d.nodes.push_back(loco);
    GraphNodeDesc sel;
    sel.id = "state";
    sel.type = GraphNodeType::kSelect;
    sel.selection.parameter = "state";
    sel.default_transition = GraphTransition{0.4f, GraphCurve::kCubicV2};
    sel.inputs.resize(2);
    sel.inputs[0].node = 3;
    sel.inputs[0].name = "loco";
    sel.inputs[1].node = i;
    sel.inputs[1].name = "idle";
    d.nodes.push_back(sel);
    d.output = 4;
    graph = build_graph(d, rig).value();
    speed = graph.find_parameter("speed");
    state = graph.find_parameter("state");

    GroundDesc g;
    GroundPlane slope;
    slope.normal = {std::sin(0.1745f), std::cos(0.1745f), 0.0f};
    g.planes.push_back(slope);
    ground = build_ground(g).value();

    TrackDesc gt;
    gt.name = "loco";
    gt.source = &graph;
    gt.priority = TrackPriority::kMovement;
    gt.root_motion = true;
    TrackDesc wt;
    wt.name = "wave";
    wt.clip = &wave;
    wt.binding = bv.get();
    wt.priority = TrackPriority::kAction;  // over the left arm only: the graph shows elsewhere
    wt.mask.parts = {"LeftUpperArm"};
    wt.playing = false;
    tracks = {gt, wt};
    setup.rig = &rig;
    setup.ground = &ground;
    setup.tracks = tracks;

    ControlDesc look;
    look.name = "Look";
    look.smooth_time = 0.2f;
    look.target = target_path({{0.0f, {3.0f, 4.5f, -4.0f}}, {2.0f, {-3.0f, 4.5f, -4.0f}}});
    LookAtSettings la;
    la.chain_root = "UpperTorso";
    la.end = "Head";
    la.tracking_speed_deg_per_s = 90.0f;
    look.settings = la;
    ControlDesc tail;
    tail.name = "Arm";
    SpringSettings sp;
    sp.chain_root = "RightUpperArm";
    sp.end = "RightHand";
    sp.stiffness = 40.0f;
    sp.damping = 3.0f;
    sp.gravity = glm::vec3(0.0f, -60.0f, 0.0f);
    tail.settings = sp;
    ControlDesc feet;
    feet.name = "Feet";
    feet.smooth_time = 0.1f;
    FeetSettings fs;
    fs.legs = {FeetLeg{"LeftUpperLeg", "LeftFoot", {}}, FeetLeg{"RightUpperLeg", "RightFoot", {}}};
    feet.settings = fs;
    controls = {look, tail, feet};
  }

  // The inputs of frame f: a speed ramp, a Select change (CubicV2 transition), an inertial play,
  // a weight edit; the root moves with the root motion.
  void drive(Character& c, int f) {
    graph.set_number(speed, std::min(1.0f, 0.2f + 0.02f * static_cast<float>(f)));
    if (f == 30) graph.set_string(state, "idle");
    if (f == 36) c.animator.play(1, PlayOptions{0.3f, 1.0f, 1.0f, TransitionKind::kInertial});
    if (f == 37) c.stack.set_weight(c.stack.find("Look"), 0.7f);
    if (f == 44) graph.set_string(state, "loco");
  }
};

struct FrameBits {
  std::vector<Transform> local, world;
  Transform root;
  std::vector<float> event_weights;
};

FrameBits run_frame(Scene& s, Character& c, int f) {
  s.drive(c, f);
  REQUIRE(update_character(s.setup, c, 1.0f / 60.0f));
  c.root = c.root * c.root_delta;
  FrameBits b{c.pose.local, c.world, c.root, {}};
  for (int e = 0; e < c.event_count; ++e) b.event_weights.push_back(c.events[static_cast<size_t>(e)].weight);
  return b;
}

bool same(const FrameBits& a, const FrameBits& b) {
  const auto eq = [](const std::vector<Transform>& x, const std::vector<Transform>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(Transform)) == 0;
  };
  return eq(a.local, b.local) && eq(a.world, b.world) && std::memcmp(&a.root, &b.root, sizeof(Transform)) == 0 &&
         a.event_weights == b.event_weights;
}

}  // namespace

TEST_CASE("a character restored from its snapshot replays the same frames bit for bit (rule AN14)",
          "[runtime][snapshot]") {
  // Saved at 40 (the CubicV2 transition live, the inertial offsets decaying, springs moving) and
  // at 50 (the transition back interrupted it: from a frozen pose).
  for (const int at : {40, 50}) {
    INFO("saved at frame " << at);
    Scene s;
    Character c = build_character(s.setup, s.controls, Transform::from_position({0, 3, 0})).value();
    for (int f = 0; f < at; ++f) run_frame(s, c, f);
    std::vector<std::byte> buffer(character_snapshot_size(c));
    {
      AllocationScope scope;
      const bool saved = snapshot_character(c, buffer);
      const std::size_t allocations = scope.count();
      REQUIRE(saved);
      CHECK(allocations == 0);
    }
    std::vector<FrameBits> first;
    for (int f = at; f < 100; ++f) first.push_back(run_frame(s, c, f));
    {
      AllocationScope scope;
      const bool restored = restore_character(c, buffer);
      const std::size_t allocations = scope.count();
      REQUIRE(restored);
      CHECK(allocations == 0);
    }
    for (int f = at; f < 100; ++f) {
      INFO("frame " << f);
      REQUIRE(same(run_frame(s, c, f), first[static_cast<size_t>(f - at)]));
    }
    // What the parts take (reported, and bounded so a regression in compactness shows).
    UNSCOPED_INFO("character " << character_snapshot_size(c) << " B: animator " << c.animator.snapshot_size()
                               << " (graph " << s.graph.snapshot_size() << "), stack " << c.stack.snapshot_size());
    CHECK(character_snapshot_size(c) < 4096);
    // Too small, or another character's shape: refused.
    CHECK_FALSE(snapshot_character(c, std::span<std::byte>(buffer.data(), buffer.size() - 1)));
    CHECK_FALSE(restore_character(c, std::span<const std::byte>(buffer.data(), buffer.size() - 1)));
    Character other = build_character(s.setup, {}, Transform::identity()).value();
    CHECK_FALSE(restore_character(other, buffer));
  }
}
