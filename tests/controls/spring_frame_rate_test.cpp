// Springs true to the frame rate (rules S3, S7, S8, S9): a three-link tail (0.7, 0.6, 0.5 studs;
// stiffness 60, gravity 30) on the R15 rig, driven by the CMU 131_01 walk
// (tests/data/bvh/cmu_131_01_start_walk_stop.bvh), run at 30, 60, 144 and 240 Hz and at uneven
// frames. The tip is compared in the pelvis's (LowerTorso's) frame at t = 1, 2, 3, 4 s, times
// every rate reaches. The goal: within 1% of the chain length at damping 2, 0.3% at damping 6.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/controls/stack.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/rig/world.hpp"
#include "asterune/solvers/spring.hpp"
#include "support/r15_rig.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

constexpr float kLinks[3] = {0.7f, 0.6f, 0.5f};
constexpr float kChain = 0.7f + 0.6f + 0.5f;
constexpr int kRates[4] = {30, 60, 144, 240};

// tailed_r15.rig.json with the tail parts resized to 0.7, 0.6 and 0.5 studs: each joint's pivot
// at the top of its part (+L/2 in Y), the next joint's at its bottom (-L/2), the tip (default
// end_offset) at the bottom of Tail3.
Rig short_tail_rig() {
  auto desc = io::load_rig_desc(std::string(ASTERUNE_EXAMPLES_DIR) + "/tailed_r15.rig.json");
  REQUIRE(desc.ok());
  RigDesc d = std::move(desc).value();
  const std::string tails[3] = {"Tail1", "Tail2", "Tail3"};
  for (int k = 0; k < 3; ++k) {
    for (PartDesc& p : d.parts)
      if (p.name == tails[k]) p.size.y = kLinks[k];
    for (JointDesc& j : d.joints) {
      if (j.part1 == tails[k]) j.c1.position = glm::vec3(0.0f, 0.5f * kLinks[k], 0.0f);
      if (k > 0 && j.part1 == tails[k]) j.c0.position = glm::vec3(0.0f, -0.5f * kLinks[k - 1], 0.0f);
    }
  }
  auto rig = build_rig(d);
  REQUIRE(rig.ok());
  return std::move(rig).value();
}

struct WalkClip {
  io::SourceClip clip;
  AnimationBinding binding;
  AnimationContext context;
  explicit WalkClip(const Rig& rig) {
    auto loaded = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_131_01_start_walk_stop.bvh");
    REQUIRE(loaded.ok());
    clip = std::move(loaded).value();
    auto profile = io::build_scene_profile(io::SceneRetarget{}, clip.skeleton, rig, clip.rest_on_ground);
    REQUIRE(profile.ok());
    auto b = build_animation_binding(clip.clip, rig, &clip.skeleton, &profile.value());
    REQUIRE(b.ok());
    binding = std::move(b).value();
    context = make_animation_context(binding);
  }
};

// Tip in the pelvis's frame at t = 1..4 s, frames `ticks[i % size]` ticks of 1/tick_rate s
// apart (whole seconds must be frame times); tips(hz, ...) is the fixed rate `hz`.
std::array<glm::vec3, 4> tips(int tick_rate, const std::vector<int>& ticks, float damping) {
  Rig rig = short_tail_rig();
  WalkClip walk(rig);
  SpringSettings s;
  s.chain_root = "Tail1";
  s.end = "Tail3";
  s.stiffness = 60.0f;
  s.damping = damping;
  s.gravity = glm::vec3(0.0f, -30.0f, 0.0f);
  ControlDesc cd;
  cd.name = "Tail";
  cd.settings = s;
  auto built = ControlStack::build(rig, std::vector<ControlDesc>{cd});
  REQUIRE(built.ok());
  ControlStack stack = std::move(built).value();
  Pose pose = make_pose(rig);
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));
  const Transform root = Transform::from_position({0.0f, 3.0f, 0.0f});
  const size_t pelvis = static_cast<size_t>(joint_index(rig, "LowerTorso"));
  const size_t tail3 = static_cast<size_t>(joint_index(rig, "Tail3"));
  std::array<glm::vec3, 4> out{};
  int tick = 0;
  for (size_t f = 0; tick <= 4 * tick_rate; ++f) {
    const float t = static_cast<float>(tick) / static_cast<float>(tick_rate);
    const int step = ticks[f % ticks.size()];
    const float dt = static_cast<float>(f == 0 ? step : ticks[(f - 1) % ticks.size()]) / static_cast<float>(tick_rate);
    reset_pose(pose.local_span(), pose.coverage_span());
    sample_animation(walk.clip.clip, walk.binding, rig, t, WrapMode::kClamp, walk.context,
                     pose.local_span(), pose.coverage_span());
    stack.update(rig, StackFrame{root, dt, t}, pose, world);
    if (tick > 0 && tick % tick_rate == 0) {
      std::vector<Transform> w(static_cast<size_t>(rig.joint_count()));
      evaluate_world(rig, root, pose.local, w);
      const glm::vec3 tip = transform_point(w[tail3], glm::vec3(0.0f, -0.5f * kLinks[2], 0.0f));
      out[static_cast<size_t>(tick / tick_rate - 1)] = transform_point(inverse(w[pelvis]), tip);
    }
    tick += step;
  }
  return out;
}

std::array<glm::vec3, 4> tips(int hz, float damping) { return tips(hz, {1}, damping); }

// Largest distance between the tips of two rates (indices into kRates) over t = 1..4 s.
using Tips = std::array<std::array<glm::vec3, 4>, 4>;
float largest(const Tips& all, std::initializer_list<size_t> rates) {
  float worst = 0.0f;
  for (size_t a : rates)
    for (size_t b : rates)
      for (size_t i = 0; a < b && i < 4; ++i) worst = std::max(worst, glm::length(all[a][i] - all[b][i]));
  return worst;
}

// The same tail driven by inputs that are linear between knots: the root pivot and the
// animated endpoints of the walk sampled at the knots, linearly interpolated at each rate's
// frame times, fed to the pure step with no prior frame (so straight between frames, S9 off).
// Every rate then sees the same driving motion, so what differs is only the integration.
// Returns the tip in the pelvis's frame at t = 1..4 s.
struct KnotInputs {
  int hz = 30;
  std::vector<glm::vec3> roots;
  std::vector<std::array<glm::vec3, 3>> targets;
  std::vector<Transform> pelvis;
  std::array<float, 3> lengths{};
};

KnotInputs sample_walk(int knots_hz) {
  Rig rig = short_tail_rig();
  WalkClip walk(rig);
  Pose pose = make_pose(rig);
  std::vector<Transform> w(static_cast<size_t>(rig.joint_count()));
  const Transform root = Transform::from_position({0.0f, 3.0f, 0.0f});
  const int t1 = joint_index(rig, "Tail1"), t2 = joint_index(rig, "Tail2"), t3 = joint_index(rig, "Tail3");
  const size_t pelvis = static_cast<size_t>(joint_index(rig, "LowerTorso"));
  KnotInputs out;
  out.hz = knots_hz;
  for (int j = 0; j <= 4 * knots_hz; ++j) {
    reset_pose(pose.local_span(), pose.coverage_span());
    sample_animation(walk.clip.clip, walk.binding, rig, static_cast<float>(j) / static_cast<float>(knots_hz), WrapMode::kClamp,
                     walk.context, pose.local_span(), pose.coverage_span());
    evaluate_world(rig, root, pose.local, w);
    out.roots.push_back(joint_pivot(rig, w, t1));
    out.targets.push_back({joint_pivot(rig, w, t2), joint_pivot(rig, w, t3),
                           transform_point(w[static_cast<size_t>(t3)], glm::vec3(0.0f, -0.5f * kLinks[2], 0.0f))});
    out.pelvis.push_back(w[pelvis]);
  }
  glm::vec3 p = out.roots[0];
  for (size_t k = 0; k < 3; ++k) {
    out.lengths[k] = glm::length(out.targets[0][k] - p);
    p = out.targets[0][k];
  }
  return out;
}

std::array<glm::vec3, 4> linear_tips(const KnotInputs& in, int hz, float damping) {
  const SpringParams params{60.0f, damping, glm::vec3(0.0f, -30.0f, 0.0f)};
  std::array<glm::vec3, 3> points{}, velocities{}, clock{}, shown{}, from{}, to{};
  SpringChainState state{points, velocities, clock, glm::vec3(0.0f), 0.0f};
  glm::vec3 root_from(0.0f);
  std::array<glm::vec3, 4> out{};
  for (int f = 0; f <= 4 * hz; ++f) {
    // Exact rational position between the knots: f / hz seconds = (f * knots / hz) knots.
    const int j = f * in.hz / hz;
    const float frac = static_cast<float>(f * in.hz % hz) / static_cast<float>(hz);
    const size_t a = static_cast<size_t>(j), b = std::min(a + 1, in.roots.size() - 1);
    const glm::vec3 root = in.roots[a] + (in.roots[b] - in.roots[a]) * frac;
    for (size_t k = 0; k < 3; ++k) to[k] = in.targets[a][k] + (in.targets[b][k] - in.targets[a][k]) * frac;
    if (f == 0) {
      spring_start(state, root, to);
    } else {
      SpringChainFrame frame;
      frame.root_from = root_from;
      frame.root_to = root;
      frame.targets_from = from;
      frame.targets_to = to;
      frame.lengths = in.lengths;
      const SpringStepReport r = step_spring_chain(params, frame, 1.0f / static_cast<float>(hz), state, shown);
      REQUIRE(r.ok);
      REQUIRE(r.resets == 0);
    }
    root_from = root;
    from = to;
    // Whole seconds are knots: the pelvis there is the sampled one.
    if (f > 0 && f % hz == 0) out[static_cast<size_t>(f / hz - 1)] = transform_point(inverse(in.pelvis[a]), shown[2]);
  }
  return out;
}

}  // namespace

TEST_CASE("spring: driven by a motion every rate samples alike, 30/60/144/240 Hz agree (S7, S8)", "[spring]") {
  // The walk's tail root and animated endpoints at 6 Hz knots (times every rate reaches),
  // linear between them: each rate's frames see the same driving motion, so a difference is
  // the integration's alone. With the clock every rate takes the same 1/240 s steps.
  const KnotInputs six = sample_walk(6);
  for (const float damping : {2.0f, 6.0f}) {
    Tips all{};
    for (size_t r = 0; r < 4; ++r) all[r] = linear_tips(six, kRates[r], damping);
    const float worst = largest(all, {0, 1, 2, 3});
    INFO("damping " << damping << ": largest tip difference " << worst << " studs");
    CHECK(worst <= (damping < 4.0f ? 0.01f : 0.003f) * kChain);  // the goal
    CHECK(worst <= 1e-3f * kChain);                              // the same steps: rounding only
  }
  // Linear between 30 Hz frames: the same for 30, 60 and 240 Hz (144 Hz frames straddle the
  // 30 Hz knots, so a 144 Hz run samples that motion differently).
  const KnotInputs thirty = sample_walk(30);
  for (const float damping : {2.0f, 6.0f}) {
    Tips all{};
    for (size_t r : {0, 1, 3}) all[r] = linear_tips(thirty, kRates[r], damping);
    const float worst = largest(all, {0, 1, 3});
    INFO("damping " << damping << ": largest tip difference " << worst << " studs");
    CHECK(worst <= 1e-3f * kChain);
  }
}

TEST_CASE("spring: the walk clip sampled at 30/60/144/240 Hz or at uneven frames moves the tip alike (S8, S9)",
          "[spring]") {
  // The clip sampled at each rate: now the driving motion itself differs (each rate sees the
  // animated root and endpoints on the parabolas through its own frames, S9) and the lightly
  // damped chain amplifies that. With straight lines between frames the 30 Hz run was 2.6% of
  // the chain away at damping 2, the uneven one 4.2%. Measured figures in docs/springs.md.
  Tips light{}, damped{};
  for (size_t r = 0; r < 4; ++r) {
    light[r] = tips(kRates[r], 2.0f);
    damped[r] = tips(kRates[r], 6.0f);
  }
  const float all_damped = largest(damped, {0, 1, 2, 3});
  const float all_light = largest(light, {0, 1, 2, 3});
  INFO("all four rates, damping 6: " << all_damped << "; damping 2: " << all_light << " (60-240 Hz: "
                                     << largest(light, {1, 2, 3}) << ")");
  CHECK(all_damped <= 0.003f * kChain);
  CHECK(all_light <= 0.01f * kChain);
  // Frames of uneven length (1/30, 1/60, 1/40, 1/24, 1/20 s, repeated) against 240 Hz.
  for (const float damping : {2.0f, 6.0f}) {
    const auto uneven = tips(120, {4, 2, 3, 5, 6}, damping);
    const auto& fine = damping < 4.0f ? light[3] : damped[3];
    float worst = 0.0f;
    for (size_t i = 0; i < 4; ++i) worst = std::max(worst, glm::length(uneven[i] - fine[i]));
    INFO("uneven frames against 240 Hz, damping " << damping << ": " << worst);
    CHECK(worst <= (damping < 4.0f ? 0.01f : 0.003f) * kChain);
  }
  // The tail really swings in the pelvis's frame (the check can fail).
  float travel = 0.0f;
  for (size_t i = 1; i < 4; ++i) travel = std::max(travel, glm::length(light[3][i] - light[3][0]));
  CHECK(travel > 0.05f * kChain);
}
