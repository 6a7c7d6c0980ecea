// Characters that share one Rig and one RetargetBinding (read-only after setup) and own their
// scratch, pose and control stack can be updated on any number of threads: 2 threads give the
// same bits as 1. The tsan preset runs this test under ThreadSanitizer (make tsan).
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/controls/stack.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/retarget/rig_source.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

using namespace asterune;

namespace {

constexpr int kCharacters = 96;
constexpr int kFrames = 30;
constexpr float kDt = 1.0f / 30.0f;

// What every character shares: built once, then only read.
struct Shared {
  Rig rig;
  SourceSkeleton source;
  Clip clip;
  ClipBinding clip_binding;
  RetargetBinding retarget;
};

glm::quat small_rotation(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.0f, 0.0f, 1e-3f));
  return glm::angleAxis(0.6f * u(rng), axis);
}

Shared make_shared_setup() {
  Shared s;
  s.rig = std::move(build_rig(*builtin_rig_desc("r15")).value());
  s.source = source_skeleton_from_rig(s.rig);
  // A 2-second clip on the source names: rotation keys on every joint, travel on the root.
  std::mt19937 rng(7);
  s.clip.name = "threads";
  s.clip.duration = 2.0f;
  for (size_t j = 0; j < s.source.joint_names.size(); ++j) {
    ClipTrack t;
    t.name = s.source.joint_names[j];
    for (int k = 0; k <= 8; ++k) {
      t.rotation_times.push_back(0.25f * static_cast<float>(k));
      t.rotations.push_back(s.source.rest_local[j].rotation * small_rotation(rng));
    }
    if (j == 0) {
      t.translation_times = {0.0f, 2.0f};
      t.translations = {s.source.rest_local[j].position, s.source.rest_local[j].position + glm::vec3(0.4f, 0.1f, -3.0f)};
    }
    s.clip.tracks.push_back(std::move(t));
  }
  s.clip_binding = std::move(build_clip_binding(s.clip, s.source).value());
  const RetargetProfile profile = std::move(build_auto_profile(s.source, s.rig).value());
  s.retarget = std::move(build_retarget_binding(s.source, s.rig, profile).value());
  return s;
}

// What each character owns: scratch, pose, world, its control stack and its outputs per frame.
struct Character {
  float phase = 0.0f;
  std::vector<Transform> source_local;
  std::vector<float> source_coverage;
  RetargetContext retarget;
  Pose pose;
  std::vector<Transform> world;
  ControlStack stack;
  std::vector<Transform> out_local;  // kFrames * joints
  std::vector<Transform> out_world;
  std::vector<float> out_residual;   // kFrames * controls
};

std::vector<Character> make_characters(const Shared& s) {
  std::vector<Character> cs(kCharacters);
  const size_t nt = static_cast<size_t>(s.rig.joint_count());
  for (int i = 0; i < kCharacters; ++i) {
    Character& c = cs[static_cast<size_t>(i)];
    c.phase = 0.037f * static_cast<float>(i);
    c.source_local.resize(s.source.joint_names.size());
    c.source_coverage.resize(s.source.joint_names.size());
    c.retarget = make_retarget_context(s.retarget);
    c.pose = make_pose(s.rig);
    c.world.resize(nt);
    ControlDesc reach;
    reach.name = "reach";
    reach.smooth_time = 0.1f;
    reach.target = target_at({1.0f + 0.01f * static_cast<float>(i), 4.0f, -1.5f});
    IkSettings arm;
    arm.chain_root = "LeftUpperArm";
    arm.end = "LeftHand";
    reach.settings = arm;
    ControlDesc look;
    look.name = "look";
    look.weight = 0.8f;
    look.target = target_path({{0.0f, {-3.0f, 5.0f, -4.0f}}, {1.0f, {3.0f, 4.0f, -4.0f}}});
    LookAtSettings head;
    head.chain_root = "UpperTorso";
    head.end = "Head";
    look.settings = head;
    c.stack = std::move(ControlStack::build(s.rig, std::vector<ControlDesc>{reach, look}).value());
    c.out_local.resize(kFrames * nt);
    c.out_world.resize(kFrames * nt);
    c.out_residual.resize(kFrames * 2);
  }
  return cs;
}

// One character's whole run: clip -> retarget -> control stack, plain per-character calls.
void run_character(const Shared& s, Character& c) {
  const size_t nt = static_cast<size_t>(s.rig.joint_count());
  const Transform root = Transform::from_position({0.0f, 3.0f, 0.0f});
  for (int f = 0; f < kFrames; ++f) {
    const float t = c.phase + kDt * static_cast<float>(f);
    sample_clip(s.clip, s.clip_binding, t, WrapMode::kLoop, c.source_local, c.source_coverage);
    sample_retarget(s.retarget, s.rig, c.source_local, c.source_coverage, c.retarget, c.pose.local_span(),
                    c.pose.coverage_span());
    c.stack.update(s.rig, StackFrame{root, kDt, t}, c.pose, c.world);
    std::copy(c.pose.local.begin(), c.pose.local.end(), c.out_local.begin() + static_cast<std::ptrdiff_t>(f * nt));
    std::copy(c.world.begin(), c.world.end(), c.out_world.begin() + static_cast<std::ptrdiff_t>(f * nt));
    for (int k = 0; k < 2; ++k) c.out_residual[static_cast<size_t>(f * 2 + k)] = c.stack.report(k).distance + c.stack.report(k).angle;
  }
}

std::vector<Character> run_on_threads(const Shared& s, int threads) {
  std::vector<Character> cs = make_characters(s);
  std::vector<std::thread> pool;
  for (int w = 0; w < threads; ++w)
    pool.emplace_back([&s, &cs, w, threads] {
      for (size_t i = static_cast<size_t>(w); i < cs.size(); i += static_cast<size_t>(threads)) run_character(s, cs[i]);
    });
  for (std::thread& t : pool) t.join();
  return cs;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {  // whole arrays, one memcmp
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

TEST_CASE("characters sharing one rig and one retarget binding give the same bits on 1 and 2 threads",
          "[concurrency]") {
  const Shared shared = make_shared_setup();
  const std::vector<Character> one = run_on_threads(shared, 1);
  const std::vector<Character> two = run_on_threads(shared, 2);
  REQUIRE(one.size() == two.size());
  int differing = 0;
  for (size_t i = 0; i < one.size(); ++i)
    if (!same_bits(one[i].out_local, two[i].out_local) || !same_bits(one[i].out_world, two[i].out_world) ||
        !same_bits(one[i].out_residual, two[i].out_residual))
      ++differing;
  CHECK(differing == 0);
  // The run did something: characters differ from each other and the controls ran.
  CHECK_FALSE(same_bits(one[0].out_local, one[1].out_local));
  CHECK(one[0].stack.report(0).status == ControlStatus::kSolved);
  CHECK(one[0].stack.report(1).status == ControlStatus::kSolved);
}
