// Whole character frames through the runtime module. BM_FullFrameR15: one frame of one
// character on the tailed R15 rig (examples/tailed_r15.rig.json): the CMU clip retargeted, feet
// with pelvis on a 10 degree slope, look-at, one two-bone arm IK and a 3-link tail spring.
// BM_Batch10k: 10,000 such characters per frame in one CharacterBatch through update_characters()
// on a persistent two-thread pool (worker_pool.hpp; counter ms_per_frame, wall-clock).
// BM_Batch10kCharacters: the same crowd as 10,000 separate Character values on the same pool, and
// BM_Batch10kCharactersThreads on a std::thread started per frame with a fixed half each (the
// batch benchmark until 2026-12-02). BM_BatchSerial (batch) and BM_BatchSerialCharacters: one
// thread, per character, for a crowd that fits the caches and one that does not.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "asterune/controls/ground.hpp"
#include "asterune/formats/bvh.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"
#include "asterune/runtime/character_batch.hpp"
#include "bench_rigs.hpp"
#include "worker_pool.hpp"

namespace {

using namespace asterune;

Rig load_tailed_r15_or_die() {
  auto loaded = io::load_rig(std::string(ASTERUNE_TEST_DATA_DIR) + "/../../examples/tailed_r15.rig.json");
  if (!loaded) {
    std::fprintf(stderr, "%s\n", loaded.message().c_str());
    std::exit(1);
  }
  return std::move(loaded).value();
}

Ground slope_or_die() {
  GroundDesc g;
  GroundPlane slope;
  slope.normal = {std::sin(0.1745f), std::cos(0.1745f), 0.0f};  // 10 degrees about +Z
  g.planes.push_back(slope);
  auto built = build_ground(g);
  if (!built) std::exit(1);
  return std::move(built).value();
}

struct Fixture {
  Rig rig;
  io::BvhFile bvh;
  AnimationBinding animation;
  Ground ground;
  CharacterSetup setup;
  std::vector<ControlDesc> controls;

  Fixture() : rig(load_tailed_r15_or_die()), ground(slope_or_die()) {
    bvh = asterune::bench::load_cmu_or_die();
    const RetargetProfile profile = asterune::bench::cmu_profile(bvh, rig);
    animation = build_animation_binding(bvh.clip, rig, &bvh.skeleton, &profile).value();
    setup = CharacterSetup{&rig, &bvh.clip, &animation, WrapMode::kLoop, &ground};

    ControlDesc feet;
    feet.name = "Feet";
    feet.smooth_time = 0.1f;
    FeetSettings fs;
    fs.legs = {FeetLeg{"LeftUpperLeg", "LeftFoot", {}}, FeetLeg{"RightUpperLeg", "RightFoot", {}}};
    feet.settings = fs;
    controls.push_back(feet);
    ControlDesc look;
    look.name = "Look";
    look.smooth_time = 0.05f;
    look.target = target_path({{0.0f, {3.0f, 4.5f, -4.0f}}, {1.0f, {-3.0f, 4.5f, -4.0f}}});
    LookAtSettings la;
    la.chain_root = "UpperTorso";
    la.end = "Head";
    look.settings = la;
    controls.push_back(look);
    ControlDesc arm;
    arm.name = "Arm";
    arm.target = target_at({-1.6f, 3.0f, -0.8f});
    IkSettings ik;
    ik.chain_root = "LeftUpperArm";
    ik.end = "LeftLowerArm";
    ik.end_offset = rig.c0()[static_cast<size_t>(rig.find_joint("LeftHand").index)].position;  // wrist pivot
    ik.solver = IkSolver::kTwoBone;
    arm.settings = ik;
    controls.push_back(arm);
    ControlDesc tail;
    tail.name = "Tail";
    SpringSettings sp;
    sp.chain_root = "Tail1";
    sp.end = "Tail3";
    sp.stiffness = 40.0f;
    sp.damping = 3.0f;
    sp.gravity = glm::vec3(0.0f, -60.0f, 0.0f);
    tail.settings = sp;
    controls.push_back(tail);
  }

  std::vector<Character> crowd(size_t count) const {
    const Character proto = build_character(setup, controls, Transform::from_position({0, 3, 0})).value();
    std::vector<Character> out(count, proto);
    for (size_t i = 0; i < count; ++i) {
      out[i].root = Transform{glm::angleAxis(0.001f * static_cast<float>(i), glm::vec3(0, 1, 0)),
                              {static_cast<float>(i % 100) * 3.0f, 3.0f, static_cast<float>(i / 100) * 3.0f}};
      out[i].time = 0.0123f * static_cast<float>(i % 97);
    }
    return out;
  }

  // The same characters (roots, times) in one batch.
  CharacterBatch batch(size_t count) const {
    const std::vector<Character> characters = crowd(count);
    return build_character_batch(setup, characters).value();
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

void BM_FullFrameR15(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<Character> one = f.crowd(1);
  for (auto _ : state) {
    // The root walks along x over the slope, so the feet's rays and lifts change every frame.
    one[0].root.position.x = std::fmod(one[0].root.position.x + 0.05f, 20.0f);
    if (!update_character(f.setup, one[0], 1.0f / 60.0f)) state.SkipWithError("update_character failed");
    benchmark::DoNotOptimize(one[0].world.data());
  }
}
BENCHMARK(BM_FullFrameR15);

// The engine's pool: two threads in all (the caller and one worker), started once.
asterune::bench::WorkerPool& pool() {
  static asterune::bench::WorkerPool p(2);
  return p;
}

void per_frame_counters(benchmark::State& state, size_t count) {
  state.counters["ms_per_frame"] = benchmark::Counter(1e-3 * static_cast<double>(state.iterations()),
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["characters"] = static_cast<double>(count);
}

void BM_Batch10k(benchmark::State& state) {
  const Fixture& f = fixture();
  CharacterBatch crowd = f.batch(10000);
  const auto parallel_for = [](std::size_t n, CharacterRange body) { pool()(n, body); };
  for (auto _ : state) {
    update_characters(f.setup, crowd, 1.0f / 60.0f, parallel_for);
    benchmark::DoNotOptimize(&crowd);
  }
  per_frame_counters(state, crowd.size());
}
BENCHMARK(BM_Batch10k)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Batch10kCharacters(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<Character> crowd = f.crowd(10000);
  const auto parallel_for = [](std::size_t n, CharacterRange body) { pool()(n, body); };
  for (auto _ : state) {
    update_characters(f.setup, crowd, 1.0f / 60.0f, parallel_for);
    benchmark::DoNotOptimize(crowd.data());
  }
  per_frame_counters(state, crowd.size());
}
BENCHMARK(BM_Batch10kCharacters)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Batch10kCharactersThreads(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<Character> crowd = f.crowd(10000);
  // A thread per frame: the calling thread takes the first half, one std::thread the rest.
  const auto two_threads = [](std::size_t n, CharacterRange body) {
    const std::size_t half = n / 2;
    std::thread other([&] { body(half, n); });
    body(0, half);
    other.join();
  };
  for (auto _ : state) {
    update_characters(f.setup, crowd, 1.0f / 60.0f, two_threads);
    benchmark::DoNotOptimize(crowd.data());
  }
  per_frame_counters(state, crowd.size());
}
BENCHMARK(BM_Batch10kCharactersThreads)->UseRealTime()->Unit(benchmark::kMillisecond);

// One thread, a crowd of 100 (about 1 MB of state, mostly in cache) and of 10,000 (100 MB: every
// character's state comes from memory), per character (counter us_per_character). Timed in CPU
// time (one thread: its CPU time is its cost), so they pair with the kernel's CPU time and a
// loaded machine's waits for a core do not enter them.
void per_character_counter(benchmark::State& state, size_t count) {
  state.counters["us_per_character"] =
      benchmark::Counter(1e-6 * static_cast<double>(state.iterations()) * static_cast<double>(count),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_BatchSerial(benchmark::State& state) {
  const Fixture& f = fixture();
  CharacterBatch crowd = f.batch(static_cast<size_t>(state.range(0)));
  const auto serial = [](std::size_t n, CharacterRange body) { body(0, n); };
  for (auto _ : state) {
    update_characters(f.setup, crowd, 1.0f / 60.0f, serial);
    benchmark::DoNotOptimize(&crowd);
  }
  per_character_counter(state, crowd.size());
}
BENCHMARK(BM_BatchSerial)->Arg(100)->Arg(10000);

void BM_BatchSerialCharacters(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<Character> crowd = f.crowd(static_cast<size_t>(state.range(0)));
  const auto serial = [](std::size_t n, CharacterRange body) { body(0, n); };
  for (auto _ : state) {
    update_characters(f.setup, crowd, 1.0f / 60.0f, serial);
    benchmark::DoNotOptimize(crowd.data());
  }
  per_character_counter(state, crowd.size());
}
BENCHMARK(BM_BatchSerialCharacters)->Arg(100)->Arg(10000);

}  // namespace

BENCHMARK_MAIN();
