// Control-stack benchmarks: the pure look-at solver on one joint with limits (BM_LookAt1, a
// speed goal) and on a 3-joint chain, a whole stack (four two-bone limbs + look-at) on the
// built-in R15 rig, per character per frame, the feet control (BM_FeetR15, ns per leg), and one
// long diagonal ray over a large height field (BM_HeightFieldDiagonalRay).
#include <algorithm>
#include <cmath>
#include <vector>

#include <benchmark/benchmark.h>

#include "asterune/controls/ground.hpp"
#include "asterune/controls/stack.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/solvers/look_at.hpp"

using namespace asterune;

namespace {

void BM_LookAt3Joints(benchmark::State& state) {
  const std::vector<glm::vec3> pivots{{0, 2.0f, 0}, {0, 3.2f, 0}, {0, 4.0f, 0}};
  const std::vector<float> weights{0.3f, 0.5f, 1.0f};
  std::vector<glm::quat> turns(3);
  LookAtParams params;
  float a = 0.0f;
  for (auto _ : state) {
    a += 0.01f;
    const glm::vec3 target(4.0f * std::sin(a), 4.5f, -4.0f * std::cos(a));
    const LookAtReport r = solve_look_at(pivots, {0, 4.5f, 0}, {0, 0, -1}, target, weights, params, turns);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(turns.data());
  }
}
BENCHMARK(BM_LookAt3Joints);

// One joint (a neck), limits on (80 degrees yaw, 60 pitch): the target circles in front of the
// character and swings past the yaw limit for part of the loop, so both branches run.
// BM_LookAt1 prepares the limits once (prepare_look_at, as a bound control can);
// BM_LookAt1Params passes LookAtParams and pays the preparation every call.
template <bool Prepared, bool EyeAtPivot = false>
void look_at_1(benchmark::State& state) {
  const std::vector<glm::vec3> pivots{{0, 4.0f, 0}};
  const std::vector<float> weights{1.0f};
  std::vector<glm::quat> turns(1);
  const LookAtParams params;
  const LookAtFrame frame = prepare_look_at(params);
  // The eye 0.5 above and 0.3 in front of the pivot (a head on a neck): turning moves the eye,
  // so a full share is repeated to absorb the parallax. EyeAtPivot removes it.
  const glm::vec3 eye = EyeAtPivot ? pivots[0] : glm::vec3(0, 4.5f, -0.3f);
  float a = 0.0f;
  for (auto _ : state) {
    a += 0.01f;
    if (a > 6.2831853f) a -= 6.2831853f;
    const glm::vec3 target(4.0f * std::sin(a), 4.5f + std::sin(3.0f * a), -4.0f * std::cos(a));
    const LookAtReport r = Prepared ? solve_look_at(pivots, eye, {0, 0, -1}, target, weights, frame, turns)
                                    : solve_look_at(pivots, eye, {0, 0, -1}, target, weights, params, turns);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(turns.data());
  }
}
void BM_LookAt1(benchmark::State& state) { look_at_1<true>(state); }
void BM_LookAt1Params(benchmark::State& state) { look_at_1<false>(state); }
void BM_LookAt1EyeAtPivot(benchmark::State& state) { look_at_1<true, true>(state); }
BENCHMARK(BM_LookAt1);
BENCHMARK(BM_LookAt1Params);
BENCHMARK(BM_LookAt1EyeAtPivot);

ControlDesc ik(const char* name, const char* root, const char* end, glm::vec3 offset, glm::vec3 target) {
  ControlDesc d;
  d.name = name;
  d.target = target_at(target);
  IkSettings s;
  s.chain_root = root;
  s.end = end;
  s.end_offset = offset;
  d.settings = s;
  return d;
}

struct R15Stack {
  Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  Pose rest = make_pose(rig);
  Pose pose = make_pose(rig);
  std::vector<Transform> world = std::vector<Transform>(static_cast<size_t>(rig.joint_count()));
  ControlStack stack;

  // The point where joint `child` pivots, in the frame of its parent part: for a limb that
  // ends at the next joint's pivot this makes an exact two-bone chain.
  glm::vec3 pivot_in_parent(const char* child) const {
    return rig.c0()[static_cast<size_t>(rig.find_joint(child).index)].position;
  }

  explicit R15Stack(bool with_ik, bool with_look) {
    std::vector<ControlDesc> controls;
    if (with_ik) {
      // Four true two-bone limbs: shoulder + elbow reaching with the wrist pivot, hip + knee
      // reaching with the ankle pivot.
      controls.push_back(ik("LeftArm", "LeftUpperArm", "LeftLowerArm", pivot_in_parent("LeftHand"), {-1.6f, 3.0f, -0.8f}));
      controls.push_back(ik("RightArm", "RightUpperArm", "RightLowerArm", pivot_in_parent("RightHand"), {1.5f, 3.2f, -0.9f}));
      controls.push_back(ik("LeftLeg", "LeftUpperLeg", "LeftLowerLeg", pivot_in_parent("LeftFoot"), {-0.5f, 0.5f, -0.3f}));
      controls.push_back(ik("RightLeg", "RightUpperLeg", "RightLowerLeg", pivot_in_parent("RightFoot"), {0.5f, 0.7f, 0.2f}));
      std::get<IkSettings>(controls[3].settings).pole = target_at({0.5f, 1.0f, -3.0f});
      for (ControlDesc& c : controls) std::get<IkSettings>(c.settings).solver = IkSolver::kTwoBone;  // fails if not 2 segments
    }
    if (with_look) {
      ControlDesc look;
      look.name = "Look";
      look.smooth_time = 0.05f;
      look.target = target_path({{0.0f, {3.0f, 4.5f, -4.0f}}, {1.0f, {-3.0f, 4.5f, -4.0f}}});
      LookAtSettings la;
      la.chain_root = "UpperTorso";
      la.end = "Head";
      look.settings = la;
      controls.push_back(look);
    }
    stack = ControlStack::build(rig, controls).value();
  }

  void run(benchmark::State& state) {
    float t = 0.0f;
    for (auto _ : state) {
      std::copy(rest.local.begin(), rest.local.end(), pose.local.begin());
      std::copy(rest.coverage.begin(), rest.coverage.end(), pose.coverage.begin());
      t += 1.0f / 60.0f;
      if (t > 1.0f) t = 0.0f;
      stack.update(rig, StackFrame{Transform::from_position({0, 3, 0}), 1.0f / 60.0f, t}, pose, world);
      benchmark::DoNotOptimize(pose.local.data());
    }
  }
};

void BM_StackR15ArmsLegsLookAt(benchmark::State& state) { R15Stack(true, true).run(state); }
BENCHMARK(BM_StackR15ArmsLegsLookAt);

void BM_StackR15LookAtOnly(benchmark::State& state) { R15Stack(false, true).run(state); }
BENCHMARK(BM_StackR15LookAtOnly);

void BM_StackR15Empty(benchmark::State& state) { R15Stack(false, false).run(state); }
BENCHMARK(BM_StackR15Empty);

// Feet control (rules G1-G6) on R15: both legs, pelvis and normal alignment, on a 20 degree side
// slope (both feet tilt, one lifts, the other lowers, the pelvis drops) crossed by a step that
// the root slides over, so lifts and smoothing change every frame. Includes the stack's blend
// and world refresh and the two library ground rays. Counter ns_per_leg = time / 2 legs.
void BM_FeetR15(benchmark::State& state) {
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  const Pose rest = make_pose(rig);
  Pose pose = make_pose(rig);
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));
  ControlDesc d;
  d.name = "Feet";
  d.smooth_time = 0.1f;
  FeetSettings f;
  f.legs = {FeetLeg{"LeftUpperLeg", "LeftFoot", {}}, FeetLeg{"RightUpperLeg", "RightFoot", {}}};
  d.settings = f;
  ControlStack stack = ControlStack::build(rig, std::vector<ControlDesc>{d}).value();
  GroundDesc g;
  GroundPlane slope;
  slope.normal = {std::sin(0.349f), std::cos(0.349f), 0.0f};
  g.planes.push_back(slope);
  GroundBox step;
  step.center = {-0.5f, 0.2f, -1.0f};
  step.size = {1.0f, 0.8f, 1.0f};
  g.boxes.push_back(step);
  const Ground ground = build_ground(g).value();
  float t = 0.0f;
  for (auto _ : state) {
    std::copy(rest.local.begin(), rest.local.end(), pose.local.begin());
    std::copy(rest.coverage.begin(), rest.coverage.end(), pose.coverage.begin());
    t += 1.0f / 60.0f;
    if (t > 1.0f) t = 0.0f;
    const Transform root = Transform::from_position({0.0f, 3.0f, -2.0f * t});
    stack.update(rig, StackFrame{root, 1.0f / 60.0f, t, &ground}, pose, world);
    benchmark::DoNotOptimize(pose.local.data());
  }
  // CPU time per leg in ns (kIsRate | kInvert gives seconds per unit; units of 1e-9 make it ns).
  state.counters["ns_per_leg"] = benchmark::Counter(1e-9 * 2.0 * static_cast<double>(state.iterations()),
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_FeetR15);

// One ray across a 1024 x 1024 height field (1-stud cells, gentle waves under y = 1), corner to
// corner just above the surface, meeting it only near the far corner: the walk visits the
// ~2000 cells the ray crosses (not the million of its bounding box). Counter ns_per_cell = time
// per crossed cell.
void BM_HeightFieldDiagonalRay(benchmark::State& state) {
  GroundHeightField f;
  f.rows = 1024;
  f.columns = 1024;
  f.cell_size = 1.0f;
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.columns; ++c)
      f.heights.push_back(0.5f + 0.4f * std::sin(0.1f * static_cast<float>(c)) * std::cos(0.1f * static_cast<float>(r)));
  f.heights.back() = 3.0f;  // a post in the far corner cell
  const glm::vec3 from(0.0f, 2.0f, 0.0f);
  const glm::vec3 to(1023.0f, 2.0f, 1023.0f);
  const GroundRay ray{from, glm::normalize(to - from), glm::length(to - from)};
  int hits = 0;
  for (auto _ : state) {
    const GroundHit h = cast_heightfield(f, ray);
    hits += h.hit ? 1 : 0;
    benchmark::DoNotOptimize(h);
  }
  if (hits != static_cast<int>(state.iterations())) state.SkipWithError("the ray missed the post");
  state.counters["ns_per_cell"] = benchmark::Counter(1e-9 * 2.0 * 1023.0 * static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_HeightFieldDiagonalRay);

}  // namespace

BENCHMARK_MAIN();
