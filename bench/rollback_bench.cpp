// The cost of a rollback re-simulation (rule AN14): a character on the built-in R15 rig playing
// the locomotion graph of tests/support/locomotion_graph.hpp as its movement track, with
// retained-state controls (smoothed look-at, arm spring, feet with pelvis on a slope), either
// runs 9 ordinary frames (BM_Rollback9Frames) or restores a snapshot and re-simulates 8
// (BM_RollbackRestore8). The goal: the second cheaper than the first. Counter: snapshot_bytes
// (the whole character's snapshot, character_snapshot_size()).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "asterune/controls/ground.hpp"
#include "asterune/runtime/character.hpp"
#include "support/locomotion_graph.hpp"

namespace {

using namespace asterune;

struct RollbackScene {
  test::LocomotionGraph graph;
  std::unique_ptr<GraphInstance> instance = graph.instance();
  Ground ground;
  std::vector<TrackDesc> tracks;
  std::vector<ControlDesc> controls;
  CharacterSetup setup;

  RollbackScene() {
    GroundDesc g;
    GroundPlane slope;
    slope.normal = {std::sin(0.1745f), std::cos(0.1745f), 0.0f};
    g.planes.push_back(slope);
    Result<Ground> built = build_ground(g);
    if (!built) die(built.message());
    ground = std::move(built).value();
    TrackDesc t;
    t.name = "Locomotion";
    t.source = instance.get();
    t.priority = TrackPriority::kMovement;
    tracks = {t};
    setup.rig = &graph.rig();
    setup.ground = &ground;
    setup.tracks = tracks;
    controls = {look(), spring(), feet()};
  }

  static ControlDesc look() {
    ControlDesc c;
    c.name = "Look";
    c.smooth_time = 0.2f;
    c.target = target_path({{0.0f, {3.0f, 4.5f, -4.0f}}, {2.0f, {-3.0f, 4.5f, -4.0f}}});
    LookAtSettings s;
    s.chain_root = "UpperTorso";
    s.end = "Head";
    s.tracking_speed_deg_per_s = 90.0f;
    c.settings = s;
    return c;
  }
  static ControlDesc spring() {
    ControlDesc c;
    c.name = "Arm";
    SpringSettings s;
    s.chain_root = "RightUpperArm";
    s.end = "RightHand";
    s.stiffness = 40.0f;
    s.damping = 3.0f;
    s.gravity = glm::vec3(0.0f, -60.0f, 0.0f);
    c.settings = s;
    return c;
  }
  static ControlDesc feet() {
    ControlDesc c;
    c.name = "Feet";
    c.smooth_time = 0.1f;
    FeetSettings s;
    s.legs = {FeetLeg{"LeftUpperLeg", "LeftFoot", {}}, FeetLeg{"RightUpperLeg", "RightFoot", {}}};
    c.settings = s;
    return c;
  }
  [[noreturn]] static void die(const std::string& message) {
    std::fprintf(stderr, "rollback bench: %s\n", message.c_str());
    std::abort();
  }

  Character character() const {
    Result<Character> c = build_character(setup, controls, Transform::from_position({0.0f, 3.0f, 0.0f}));
    if (!c) die(c.message());
    Character out = std::move(c).value();
    for (int f = 0; f < 30; ++f) frame(out);  // springs, smoothing and the graph under way
    return out;
  }
  bool frame(Character& c) const { return update_character(setup, c, 1.0f / 60.0f); }
};

RollbackScene& scene() {
  static RollbackScene s;
  return s;
}

void BM_Rollback9Frames(benchmark::State& state) {
  RollbackScene& s = scene();
  Character c = s.character();
  const std::size_t bytes = character_snapshot_size(c);
  for (auto _ : state) {
    // Ordinary play: the character runs on (looping clips, settled controls: a steady cost).
    bool ok = true;
    for (int f = 0; f < 9; ++f) ok = s.frame(c) && ok;
    if (!ok) state.SkipWithError("update failed");
    benchmark::DoNotOptimize(c.world.data());
  }
  state.counters["snapshot_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_Rollback9Frames);

void BM_RollbackRestore8(benchmark::State& state) {
  RollbackScene& s = scene();
  Character c = s.character();
  std::vector<std::byte> buffer(character_snapshot_size(c));
  if (!snapshot_character(c, buffer)) state.SkipWithError("snapshot failed");
  for (auto _ : state) {
    bool ok = restore_character(c, buffer);
    for (int f = 0; f < 8; ++f) ok = s.frame(c) && ok;
    if (!ok) state.SkipWithError("restore or update failed");
    benchmark::DoNotOptimize(c.world.data());
  }
  state.counters["snapshot_bytes"] = static_cast<double>(buffer.size());
}
BENCHMARK(BM_RollbackRestore8);

}  // namespace

BENCHMARK_MAIN();
