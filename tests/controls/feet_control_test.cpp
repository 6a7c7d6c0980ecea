// Feet control (rules G1-G9) on the R15 rig with the root part at (0, 3, 0). Reference values
// are hand-derived from the R15 table (r15_rig.hpp): hips at (+-0.5, 2, 0), knees at y 1.1781,
// ankles at y 0.2519, soles (bottom centre of the 0.3-tall foot boxes) at y 0; thigh 0.8219 and
// shin 0.9262 studs, so the rest legs are exactly straight (reach 1.7481). Left is -X; the
// character faces -Z.
#include <algorithm>
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "asterune/controls/ground.hpp"
#include "asterune/math/scalar.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "control_helpers.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

constexpr float kThigh = 0.8219f;
constexpr float kShin = 0.9262f;
const glm::vec3 kSole(0.0f, -0.15f, 0.0f);  // default sole point in the foot's frame

ControlDesc feet_desc(const FeetSettings& base = {}) {
  ControlDesc d;
  d.name = "Feet";
  FeetSettings s = base;
  s.legs = {FeetLeg{"LeftUpperLeg", "LeftFoot", {}}, FeetLeg{"RightUpperLeg", "RightFoot", {}}};
  d.settings = s;
  return d;
}

Ground make_ground(const GroundDesc& d) {
  auto g = build_ground(d);
  REQUIRE(g.ok());
  return std::move(g).value();
}

GroundPlane floor_at(float y) {
  GroundPlane p;
  p.point = {0, y, 0};
  return p;
}

GroundPlane slope(float degrees, const glm::vec3& downhill) {  // through the origin
  const float a = degrees * kPi / 180.0f;
  GroundPlane p;
  p.normal = std::cos(a) * glm::vec3(0, 1, 0) + std::sin(a) * downhill;
  return p;
}

GroundBox box(const glm::vec3& center, const glm::vec3& size, bool collide = true) {
  GroundBox b;
  b.center = center;
  b.size = size;
  b.collide = collide;
  return b;
}

struct FeetRun {
  Character ch;
  ControlStack stack;
  explicit FeetRun(const ControlDesc& d = feet_desc()) : stack(ch.stack({d})) {}
  void update(const GroundQuery* ground, float dt = 1.0f / 60.0f, float time = 0.0f) {
    stack.update(ch.rig, StackFrame{ch.root, dt, time, ground}, ch.pose, ch.world);
  }
  const ControlReport& report() const { return stack.report(0); }
  glm::vec3 sole(const char* foot) const { return ch.point_on(foot, kSole); }
  glm::vec3 pelvis() const { return ch.fresh_world()[static_cast<size_t>(joint_index(ch.rig, "LowerTorso"))].position; }
  glm::vec3 foot_up(const char* foot) const {
    return ch.fresh_world()[static_cast<size_t>(joint_index(ch.rig, foot))].rotation * glm::vec3(0, 1, 0);
  }
  float thigh(const char* side) const {
    return glm::length(ch.pivot(std::string(side) + "LowerLeg") - ch.pivot(std::string(side) + "UpperLeg"));
  }
  float shin(const char* side) const {
    return glm::length(ch.pivot(std::string(side) + "Foot") - ch.pivot(std::string(side) + "LowerLeg"));
  }
  bool pose_is(const Pose& other) const {
    for (size_t j = 0; j < ch.pose.local.size(); ++j)
      if (!bitwise_equal(ch.pose.local[j], other.local[j])) return false;
    return true;
  }
};

float degrees_between(const glm::vec3& a, const glm::vec3& b) {
  return std::acos(std::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.0f, 1.0f)) * 180.0f / kPi;
}

}  // namespace

TEST_CASE("feet: a step under one foot lifts that sole onto it", "[feet]") {
  // Step top 0.4 under the left foot only (box x in [-1, 0]); the right ray (x = 0.5) sees the floor.
  const Ground ground = make_ground(GroundDesc{{floor_at(0.0f)}, {box({-0.5f, 0.2f, 0}, {1, 0.4f, 1})}, {}});
  FeetRun run;
  run.update(&ground);
  const glm::vec3 left = run.sole("LeftFoot");
  const glm::vec3 right = run.sole("RightFoot");
  CHECK(left.y == Approx(0.4f).margin(0.01));
  CHECK(left.x == Approx(-0.5f).margin(0.01));
  CHECK(right.y == Approx(0.0f).margin(0.01));
  CHECK(run.report().feet.pelvis_drop == 0.0f);  // the lifted leg only needs to bend
  // Segment lengths unchanged.
  for (const char* side : {"Left", "Right"}) {
    CHECK(run.thigh(side) == Approx(kThigh).margin(1e-4));
    CHECK(run.shin(side) == Approx(kShin).margin(1e-4));
  }
  // Law of cosines, hip (-0.5, 2, 0) to ankle target (-0.5, 0.6519, 0): d = 1.3481,
  // cos(hip angle) = (a^2 + d^2 - b^2) / (2 a d) -> knee at (-0.5, 1.39357, -0.55477), forward.
  const glm::vec3 knee = run.ch.pivot("LeftLowerLeg");
  CHECK(knee.y == Approx(1.39357f).margin(1e-3));
  CHECK(knee.z == Approx(-0.55477f).margin(1e-3));
  // Report: lift 0.4 left, 0 right, both hit, nothing clamped; residual within the solver margin.
  const FeetReport& fr = run.report().feet;
  REQUIRE(fr.foot_count == 2);
  CHECK(fr.feet[0].lift == Approx(0.4f).margin(1e-5));
  CHECK(fr.feet[1].lift == 0.0f);
  CHECK(fr.feet[0].hit);
  CHECK(fr.feet[1].hit);
  CHECK_FALSE(fr.feet[0].clamped);
  CHECK(run.report().distance < 1e-3f);
  CHECK(run.report().reached);
}

TEST_CASE("feet: up follows the root (rule G6): the step scene turned as a whole gives the turned result", "[feet]") {
  // Everything (root placement, floor, step) turned 25 degrees about +Z and 40 about +Y: the
  // default up is the root's +Y, so the left sole must end on the turned step top.
  const glm::quat r = glm::angleAxis(40.0f * kPi / 180.0f, glm::vec3(0, 1, 0)) *
                      glm::angleAxis(25.0f * kPi / 180.0f, glm::vec3(0, 0, 1));
  GroundPlane floor;
  floor.normal = r * glm::vec3(0, 1, 0);
  GroundBox step = box(r * glm::vec3(-0.5f, 0.2f, 0), {1, 0.4f, 1});
  step.rotation = r;
  const Ground ground = make_ground(GroundDesc{{floor}, {step}, {}});
  FeetRun run;
  run.ch.root = Transform{r, r * glm::vec3(0, 3, 0)};
  run.update(&ground);
  CHECK(glm::length(run.sole("LeftFoot") - r * glm::vec3(-0.5f, 0.4f, 0)) < 0.01f);
  CHECK(glm::length(run.sole("RightFoot") - r * glm::vec3(0.5f, 0.0f, 0)) < 0.01f);
  CHECK(run.report().feet.feet[0].lift == Approx(0.4f).margin(1e-4));
}

TEST_CASE("feet: a pit under one foot drops the pelvis and bends the other knee forward", "[feet]") {
  // Floor at 0 under the left foot (box top at 0, x in [-1, 0]), pit bottom at -0.3 elsewhere.
  const Ground ground = make_ground(GroundDesc{{floor_at(-0.3f)}, {box({-0.5f, -0.5f, 0}, {1, 1, 1})}, {}});
  FeetRun run;
  const float pelvis_before = run.pelvis().y;  // 2.2
  run.update(&ground);
  // The right leg is straight at rest: its ankle target is 0.3 lower, so the hip must come down
  // exactly 0.3 (vertical leg); the left leg needs nothing, and the compromise equals the need.
  CHECK(run.report().feet.pelvis_drop == Approx(0.3f).margin(1e-3));
  CHECK(pelvis_before - run.pelvis().y == Approx(0.3f).margin(1e-3));
  CHECK(run.sole("RightFoot").y == Approx(-0.3f).margin(0.01));
  CHECK(run.sole("LeftFoot").y == Approx(0.0f).margin(0.01));
  // Left: hip (-0.5, 1.7, 0) to ankle (-0.5, 0.2519, 0), d = 1.4481 -> knee (-0.5, 1.03890, -0.48834).
  const glm::vec3 knee = run.ch.pivot("LeftLowerLeg");
  CHECK(knee.z < -0.4f);  // forward: the character faces -Z
  CHECK(knee.y == Approx(1.03890f).margin(1e-3));
  CHECK(knee.z == Approx(-0.48834f).margin(1e-3));
  // Neither leg over-extends.
  for (const char* side : {"Left", "Right"}) {
    const float d = glm::length(run.ch.pivot(std::string(side) + "Foot") - run.ch.pivot(std::string(side) + "UpperLeg"));
    CHECK(d <= kThigh + kShin + 1e-4f);
    CHECK(run.thigh(side) == Approx(kThigh).margin(1e-4));
    CHECK(run.shin(side) == Approx(kShin).margin(1e-4));
  }
}

TEST_CASE("feet: 20 degree slope puts the soles on the plane and aligns the feet", "[feet]") {
  // Plane through the origin, normal tilted 20 degrees toward +Z (uphill ahead). The soles are
  // at z = 0, on the plane already: no lift, a 20 degree tilt about each sole point.
  const GroundPlane p = slope(20.0f, {0, 0, 1});
  const Ground ground = make_ground(GroundDesc{{p}, {}, {}});
  FeetRun run;
  run.update(&ground);
  const glm::vec3 n = glm::normalize(p.normal);
  for (const char* foot : {"LeftFoot", "RightFoot"}) {
    CHECK(std::fabs(glm::dot(run.sole(foot), n)) < 0.01f);
    CHECK(degrees_between(run.foot_up(foot), n) < 1.0f);
  }
  CHECK(run.report().feet.feet[0].tilt_deg == Approx(20.0f).margin(1e-3));
  CHECK_FALSE(run.report().feet.feet[0].clamped);
}

TEST_CASE("feet: a 50 degree slope tilts the feet exactly 35 degrees", "[feet]") {
  const GroundPlane p = slope(50.0f, {1, 0, 0});
  const Ground ground = make_ground(GroundDesc{{p}, {}, {}});
  FeetRun run;
  run.update(&ground);
  for (const char* foot : {"LeftFoot", "RightFoot"}) CHECK(degrees_between(run.foot_up(foot), {0, 1, 0}) == Approx(35.0f).margin(0.01));
  for (int i = 0; i < 2; ++i) {
    CHECK(run.report().feet.feet[static_cast<size_t>(i)].tilt_deg == Approx(35.0f).margin(1e-3));
    CHECK(run.report().feet.feet[static_cast<size_t>(i)].clamped);
  }
}

TEST_CASE("feet: on a side slope the lower foot reaches down and the pelvis drops", "[feet]") {
  // 20 degrees down toward +X: ground height -x tan 20, so the right sole (x = 0.5) is 0.18199 low.
  const GroundPlane p = slope(20.0f, {1, 0, 0});
  const Ground ground = make_ground(GroundDesc{{p}, {}, {}});
  FeetRun run;
  const float pelvis_before = run.pelvis().y;
  run.update(&ground);
  const float t = std::tan(20.0f * kPi / 180.0f);
  CHECK(run.sole("RightFoot").y == Approx(-0.5f * t).margin(0.01));
  CHECK(run.sole("LeftFoot").y == Approx(0.5f * t).margin(0.01));
  // Hand-derived: the tilted right foot puts its ankle at sole + 0.2519 n = (0.58615, 0.05472, 0);
  // from the hip (0.5, 2, 0) the drop p with |(0.08615, -1.94528 + p)| = 1.7481 is 0.19930.
  CHECK(run.report().feet.pelvis_drop == Approx(0.19930f).margin(2e-3));
  CHECK(pelvis_before - run.pelvis().y == Approx(0.19930f).margin(2e-3));
  CHECK(run.report().feet.feet[1].lift == Approx(-0.5f * t).margin(1e-4));
}

TEST_CASE("feet: flat ground leaves the pose bit-identical", "[feet]") {
  const Ground ground = make_ground(GroundDesc{{floor_at(0.0f)}, {}, {}});
  SECTION("rest pose") {
    FeetRun run;
    const Pose before = run.ch.pose;
    for (int f = 0; f < 3; ++f) run.update(&ground);
    CHECK(run.pose_is(before));
    CHECK(run.report().changed_joints == 0);
    CHECK(run.report().feet.pelvis_drop == 0.0f);
  }
  SECTION("an animated pose: bent knees, turned hips") {
    FeetRun run;
    const auto set = [&](const char* part, float deg, const glm::vec3& axis) {
      run.ch.pose.local[static_cast<size_t>(joint_index(run.ch.rig, part))] =
          Transform::from_rotation(glm::angleAxis(deg * kPi / 180.0f, axis));
    };
    set("LeftUpperLeg", 30.0f, {1, 0, 0});
    set("LeftLowerLeg", -45.0f, {1, 0, 0});
    set("RightUpperLeg", -15.0f, {1, 0, 0});
    set("RightFoot", 10.0f, {1, 0, 0});
    run.ch.pose.local[0].position = {0.0f, -0.05f, 0.1f};
    const Pose before = run.ch.pose;
    run.update(&ground);
    CHECK(run.pose_is(before));
  }
}

TEST_CASE("feet: a non-colliding box is ignored", "[feet]") {
  const Ground ground =
      make_ground(GroundDesc{{floor_at(0.0f)}, {box({-0.5f, 0.2f, 0}, {1, 0.4f, 1}, /*collide=*/false)}, {}});
  FeetRun run;
  const Pose before = run.ch.pose;
  run.update(&ground);
  CHECK(run.pose_is(before));
  CHECK(run.report().feet.feet[0].lift == 0.0f);
}

TEST_CASE("feet: missed rays follow the policy", "[feet]") {
  SECTION("one foot misses: it matches the other foot's lift") {
    // Only a block under the left foot, top at 0.2; nothing under the right foot.
    const Ground ground = make_ground(GroundDesc{{}, {box({-0.5f, -0.3f, 0}, {1, 1, 1})}, {}});
    FeetRun run;
    const float pelvis_before = run.pelvis().y;
    run.update(&ground);
    const FeetReport& fr = run.report().feet;
    CHECK(fr.feet[0].hit);
    CHECK_FALSE(fr.feet[1].hit);  // the missed-ground event
    CHECK(fr.feet[1].lift == Approx(0.2f).margin(1e-5));
    CHECK(run.sole("RightFoot").y == Approx(0.2f).margin(0.01));
    CHECK(run.pelvis().y <= pelvis_before + 1e-6f);
    for (const Transform& t : run.ch.pose.local) CHECK(is_finite(t));
  }
  SECTION("both miss (or no ground at all): the animated pose is held") {
    const Ground far_away = make_ground(GroundDesc{{floor_at(-5.0f)}, {}, {}});
    for (const GroundQuery* g : {static_cast<const GroundQuery*>(&far_away), static_cast<const GroundQuery*>(nullptr)}) {
      FeetRun run;
      const Pose before = run.ch.pose;
      run.update(g);
      CHECK(run.pose_is(before));
      CHECK_FALSE(run.report().feet.feet[0].hit);
      CHECK_FALSE(run.report().feet.feet[1].hit);
      CHECK(run.report().feet.pelvis_drop == 0.0f);
    }
  }
}

namespace {
// An engine query that returns broken hits.
struct BrokenQuery final : GroundQuery {
  GroundHit cast(const GroundRay& ray) const override {
    GroundHit h;
    h.hit = true;
    h.point = ray.origin;
    if (ray.origin.x < 0.0f) h.point.y = std::numeric_limits<float>::quiet_NaN();
    else h.normal = {0, std::numeric_limits<float>::infinity(), 0};
    return h;
  }
  using GroundQuery::cast;
};
}  // namespace

TEST_CASE("feet: NaN or infinite hits from an engine query count as misses", "[feet]") {
  const BrokenQuery broken;
  FeetRun run;
  const Pose before = run.ch.pose;
  run.update(&broken);
  CHECK(run.pose_is(before));
  CHECK_FALSE(run.report().feet.feet[0].hit);
  CHECK_FALSE(run.report().feet.feet[1].hit);
}

TEST_CASE("feet: lift is bounded by max_lift", "[feet]") {
  const Ground ground = make_ground(GroundDesc{{floor_at(0.0f)}, {box({-0.5f, 0.3f, 0}, {1, 0.6f, 1})}, {}});
  FeetSettings s;
  s.max_lift = 0.25f;
  FeetRun run(feet_desc(s));
  run.update(&ground);
  CHECK(run.report().feet.feet[0].lift == Approx(0.25f));
  CHECK(run.report().feet.feet[0].clamped);
  CHECK(run.sole("LeftFoot").y == Approx(0.25f).margin(0.01));
}

TEST_CASE("feet: smoothing is frame-rate independent", "[feet]") {
  // No ground on the first frame (lift 0), then a side slope appears: lifts, normals and the
  // pelvis follow 1 - exp(-dt / smooth_time). 30 Hz and 120 Hz agree at common times.
  const Ground ground = make_ground(GroundDesc{{slope(20.0f, {1, 0, 0})}, {}, {}});
  ControlDesc d = feet_desc();
  d.smooth_time = 0.15f;
  const auto run_at = [&](int hz, float until) {
    FeetRun run(d);
    const float dt = 1.0f / static_cast<float>(hz);
    run.update(nullptr, dt, 0.0f);
    const int frames = static_cast<int>(std::lround(until * static_cast<float>(hz)));
    for (int f = 1; f <= frames; ++f) {
      reset_pose(run.ch.pose.local, run.ch.pose.coverage);
      run.update(&ground, dt, static_cast<float>(f) * dt);
    }
    return std::array<glm::vec3, 3>{run.sole("LeftFoot"), run.sole("RightFoot"), run.pelvis()};
  };
  for (float t : {0.1f, 0.2f, 0.5f}) {
    const auto a = run_at(30, t);
    const auto b = run_at(120, t);
    for (size_t k = 0; k < 3; ++k) CHECK(glm::length(a[k] - b[k]) < 1e-3f);
  }
  // And the right lift follows the formula: -0.18199 (1 - exp(-0.2 / 0.15)).
  FeetRun run(d);
  run.update(nullptr, 1.0f / 60.0f);
  for (int f = 1; f <= 12; ++f) run.update(&ground, 1.0f / 60.0f);
  const float t20 = std::tan(20.0f * kPi / 180.0f);
  CHECK(run.report().feet.feet[1].lift == Approx(-0.5f * t20 * (1.0f - std::exp(-0.2f / 0.15f))).margin(1e-4));
}

TEST_CASE("feet: allocates nothing per frame; disabling forgets the smoothing", "[feet]") {
  const Ground ground = make_ground(GroundDesc{{slope(20.0f, {1, 0, 0})}, {box({-0.5f, 0.2f, 0}, {1, 0.4f, 1})}, {}});
  ControlDesc d = feet_desc();
  d.smooth_time = 0.1f;
  FeetRun run(d);
  run.update(&ground);
  {
    AllocationScope alloc;
    for (int f = 0; f < 5; ++f) run.update(&ground);
    CHECK(alloc.count() == 0);
  }
  // Rule CS7: after disable + enable, the first frame takes the target at once (no old lift).
  run.stack.set_enabled(0, false);
  reset_pose(run.ch.pose.local, run.ch.pose.coverage);
  run.update(nullptr);
  run.stack.set_enabled(0, true);
  const Ground step = make_ground(GroundDesc{{floor_at(0.0f)}, {box({-0.5f, 0.2f, 0}, {1, 0.4f, 1})}, {}});
  run.update(&step);
  CHECK(run.report().feet.feet[0].lift == Approx(0.4f).margin(1e-5));
}

TEST_CASE("feet: bad settings fail at build, naming the control", "[feet]") {
  Character ch;
  const auto fails = [&](const ControlDesc& d, const char* words) {
    auto s = ControlStack::build(ch.rig, std::vector<ControlDesc>{d});
    REQUIRE_FALSE(s.ok());
    INFO(s.message());
    CHECK(s.message().find("control 'Feet'") != std::string::npos);
    CHECK(s.message().find(words) != std::string::npos);
  };
  ControlDesc d = feet_desc();
  std::get<FeetSettings>(d.settings).legs[0].end = "LeftLowerLeg";
  fails(d, "exactly 3");
  d = feet_desc();
  std::get<FeetSettings>(d.settings).legs.clear();
  fails(d, "legs");
  FeetSettings s;
  s.probe_height = 0.0f;
  fails(feet_desc(s), "probe_height");
  s = FeetSettings{};
  s.up = {0, 0, 0};
  fails(feet_desc(s), "up vector");
  d = feet_desc();
  std::get<FeetSettings>(d.settings).legs[1] = FeetLeg{"LeftUpperArm", "LeftHand", {}};
  fails(d, "one joint");
}

TEST_CASE("feet: a real walk clip crossing a step", "[feet][clip]") {
  // CMU 131_01 (start, walk, stop) retargeted onto R15 with the scene defaults. First pass
  // without feet records the clip's own soles and pelvis; the step (top 0.3) then covers the
  // far half of the walk, across the travel direction. A planted sole over the step must end
  // exactly 0.3 higher than the clip put it (lift = step height, rule G2); over the floor it
  // stays where the clip put it.
  Character ch;
  auto clip = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_131_01_start_walk_stop.bvh");
  REQUIRE(clip.ok());
  auto profile = io::build_scene_profile(io::SceneRetarget{}, clip.value().skeleton, ch.rig, clip.value().rest_on_ground);
  REQUIRE(profile.ok());
  auto binding = build_animation_binding(clip.value().clip, ch.rig, &clip.value().skeleton, &profile.value());
  REQUIRE(binding.ok());
  AnimationContext context = make_animation_context(binding.value());
  const float dt = 1.0f / 30.0f;
  const int frames = static_cast<int>(clip.value().clip.duration / dt);
  const int pelvis_joint = joint_index(ch.rig, "LowerTorso");
  const auto sample = [&](int f) {
    reset_pose(ch.pose.local, ch.pose.coverage);
    sample_animation(clip.value().clip, binding.value(), ch.rig, static_cast<float>(f) * dt, WrapMode::kClamp, context,
                     ch.pose.local, ch.pose.coverage);
  };
  std::vector<std::array<glm::vec3, 3>> clip_pass;  // left sole, right sole, pelvis
  for (int f = 0; f < frames; ++f) {
    sample(f);
    clip_pass.push_back({ch.point_on("LeftFoot", kSole), ch.point_on("RightFoot", kSole),
                         ch.fresh_world()[static_cast<size_t>(pelvis_joint)].position});
  }
  glm::vec3 travel = clip_pass.back()[2] - clip_pass.front()[2];
  travel.y = 0.0f;
  REQUIRE(glm::length(travel) > 3.0f);  // it does walk somewhere
  const glm::vec3 dir = glm::normalize(travel);
  const glm::vec3 mid = 0.5f * (clip_pass.back()[2] + clip_pass.front()[2]);
  const float edge = glm::dot(mid, dir);
  const float step = 0.3f;
  GroundBox b;  // 100 studs deep from the edge on, 100 wide, top at `step`
  b.size = {100.0f, 100.0f, 100.0f};
  b.center = glm::vec3(mid.x, 0.0f, mid.z) + 50.0f * dir + glm::vec3(0, step - 50.0f, 0);
  b.rotation = rotation_between({1, 0, 0}, dir);
  const Ground ground = make_ground(GroundDesc{{floor_at(0.0f)}, {b}, {}});

  auto stack = ch.stack({feet_desc()});
  int on_step = 0, on_floor = 0;
  for (int f = 0; f < frames; ++f) {
    sample(f);
    stack.update(ch.rig, StackFrame{ch.root, dt, static_cast<float>(f) * dt, &ground}, ch.pose, ch.world);
    const auto& anim = clip_pass[static_cast<size_t>(f)];
    // The pelvis never rises above the clip's.
    CHECK(ch.fresh_world()[static_cast<size_t>(pelvis_joint)].position.y <= anim[2].y + 1e-5f);
    for (int i = 0; i < 2; ++i) {
      const glm::vec3 a = anim[static_cast<size_t>(i)];
      // Stance: the clip's sole is planted (moves less than 1 stud/s horizontally).
      const glm::vec3 next = clip_pass[static_cast<size_t>(std::min(f + 1, frames - 1))][static_cast<size_t>(i)];
      const glm::vec3 move = next - a;
      if (std::hypot(move.x, move.z) > 1.0f * dt) continue;
      const glm::vec3 now = ch.point_on(i == 0 ? "LeftFoot" : "RightFoot", kSole);
      const float along = glm::dot(a, dir) - edge;
      if (along > 0.05f) {  // the whole step is under this sole's ray
        CHECK(now.y - a.y == Approx(step).margin(0.01));
        ++on_step;
      } else if (along < -0.05f) {
        CHECK(now.y - a.y == Approx(0.0f).margin(0.01));
        ++on_floor;
      }
    }
  }
  CHECK(on_step > 40);
  CHECK(on_floor > 40);
}

TEST_CASE("feet: bad dt holds the smoothing, huge dt jumps to the target", "[feet]") {
  const Ground none = make_ground(GroundDesc{{floor_at(0.0f)}, {}, {}});
  const Ground step = make_ground(GroundDesc{{floor_at(0.0f)}, {box({-0.5f, 0.2f, 0}, {1, 0.4f, 1})}, {}});
  ControlDesc d = feet_desc();
  d.smooth_time = 0.1f;
  for (float dt : {std::numeric_limits<float>::quiet_NaN(), 0.0f, -1.0f}) {
    FeetRun run(d);
    run.update(&none, 1.0f / 60.0f);
    run.update(&step, dt);
    CHECK(run.report().feet.feet[0].lift == 0.0f);  // held: no time passed
    for (const Transform& t : run.ch.pose.local) CHECK(is_finite(t));
  }
  FeetRun run(d);
  run.update(&none, 1.0f / 60.0f);
  run.update(&step, std::numeric_limits<float>::infinity());
  CHECK(run.report().feet.feet[0].lift == Approx(0.4f).margin(1e-5));
  CHECK(run.sole("LeftFoot").y == Approx(0.4f).margin(0.01));
}

TEST_CASE("feet: weight back from zero takes the ground as found, not the old lifts (CS9)", "[feet]") {
  // Smoothed lifts on a step, then weight 0 while the step goes away, then weight 1 on flat
  // ground: the first frame back must be the fresh start (no lift), not a lift easing down.
  const Ground step = make_ground(GroundDesc{{floor_at(0.0f)}, {box({-0.5f, 0.2f, 0}, {1, 0.4f, 1})}, {}});
  const Ground flat = make_ground(GroundDesc{{floor_at(0.0f)}, {}, {}});
  ControlDesc d = feet_desc();
  d.smooth_time = 0.2f;
  FeetRun run(d);
  for (int f = 0; f < 60; ++f) {
    reset_pose(run.ch.pose.local, run.ch.pose.coverage);
    run.update(&step);
  }
  REQUIRE(run.report().feet.feet[0].lift > 0.39f);
  run.stack.set_weight(0, 0.0f);
  reset_pose(run.ch.pose.local, run.ch.pose.coverage);
  run.update(&flat);
  CHECK(run.report().status == ControlStatus::kZeroWeight);
  run.stack.set_weight(0, 1.0f);
  reset_pose(run.ch.pose.local, run.ch.pose.coverage);
  const Pose before = run.ch.pose;
  run.update(&flat);
  CHECK(run.report().feet.feet[0].lift == 0.0f);
  CHECK(run.pose_is(before));
}

// --- step shortening (rule G8) and slope lean (rule G9) ------------------------------------

namespace {

// A stride: the left thigh swung forward (toward -Z) and the right one back by `deg` about +X.
// Both legs stay straight, so each ankle sits exactly one reach (1.7481) from its hip.
void stride(Character& ch, float deg) {
  ch.pose.local[static_cast<size_t>(joint_index(ch.rig, "LeftUpperLeg"))] =
      Transform::from_rotation(glm::angleAxis(deg * kPi / 180.0f, glm::vec3(1, 0, 0)));
  ch.pose.local[static_cast<size_t>(joint_index(ch.rig, "RightUpperLeg"))] =
      Transform::from_rotation(glm::angleAxis(-deg * kPi / 180.0f, glm::vec3(1, 0, 0)));
}

ControlDesc shortening(float ratio) {
  FeetSettings s;
  s.step_shorten_ratio = ratio;
  return feet_desc(s);
}

// Ground that falls away ahead: the floor (top 0) ends at z = -0.3; beyond it, 0.35 lower.
GroundDesc falling_ground() {
  return GroundDesc{{floor_at(-0.35f)}, {box({0.0f, -0.5f, 4.7f}, {10.0f, 1.0f, 10.0f})}, {}};
}

}  // namespace

TEST_CASE("feet: step shortening pulls a forward foot over falling ground back, and the pelvis drops less (G8)",
          "[feet][shorten]") {
  // The left foot, 0.598 ahead of its hip, is over the lower ground: without shortening its
  // whole 0.35 reach deficit goes to the pelvis. With ratio 0.5 the target moves back by half
  // of that deficit, and the pelvis drops only for what the shortened target still lacks.
  const Ground ground = make_ground(falling_ground());
  FeetRun plain(shortening(0.0f));
  stride(plain.ch, 20.0f);
  plain.update(&ground);
  const float drop0 = plain.report().feet.pelvis_drop;
  REQUIRE(drop0 == Approx(0.35f).margin(0.01));
  CHECK(plain.report().feet.feet[0].shorten == 0.0f);
  const glm::vec3 ankle0 = plain.ch.pivot("LeftFoot");  // reached: the unshortened ankle target (world)
  REQUIRE(plain.report().reached);

  FeetRun run(shortening(0.5f));
  stride(run.ch, 20.0f);
  run.update(&ground);
  const FeetReport& fr = run.report().feet;
  // The right leg asks for nothing, so the drop without shortening is the left leg's deficit.
  CHECK(fr.feet[0].shorten == Approx(0.5f * drop0).margin(1e-4));
  CHECK(fr.feet[1].shorten == 0.0f);
  // The sole moved back (+Z) by that much and stays on the lower ground.
  CHECK(run.sole("LeftFoot").z - plain.sole("LeftFoot").z == Approx(fr.feet[0].shorten).margin(1e-3));
  CHECK(run.sole("LeftFoot").y == Approx(plain.sole("LeftFoot").y).margin(1e-3));
  // Hand-derived drop for the shortened target T (the unshortened one moved +Z): the hip
  // H = (-0.5, 2, 0) must come down until |T - H'| = reach, p = (H.y - T.y) - sqrt(reach^2 - horizontal^2).
  const glm::vec3 target = ankle0 + glm::vec3(0.0f, 0.0f, fr.feet[0].shorten);
  const glm::vec2 horizontal(target.x + 0.5f, target.z);
  const float reach = kThigh + kShin;
  const float expected = (2.0f - target.y) - std::sqrt(reach * reach - glm::dot(horizontal, horizontal));
  CHECK(fr.pelvis_drop == Approx(expected).margin(2e-3));
  CHECK(fr.pelvis_drop < drop0 - 0.04f);
  CHECK(glm::length(run.ch.pivot("LeftFoot") - target) < 2e-3f);
  CHECK(run.report().reached);
}

TEST_CASE("feet: step shortening on flat ground changes no bit (G7, G8)", "[feet][shorten]") {
  const Ground ground = make_ground(GroundDesc{{floor_at(0.0f)}, {}, {}});
  FeetRun without(shortening(0.0f));
  FeetRun with(shortening(1.0f));
  stride(without.ch, 20.0f);
  stride(with.ch, 20.0f);
  const Pose animated = with.ch.pose;
  for (int f = 0; f < 3; ++f) {
    without.update(&ground);
    with.update(&ground);
  }
  CHECK(with.pose_is(without.ch.pose));
  CHECK(with.pose_is(animated));
  CHECK(with.report().feet.feet[0].shorten == 0.0f);
}

TEST_CASE("feet: on a plain slope shortening leaves the pelvis nearly all of its drop (G8)", "[feet][shorten]") {
  // Seed 003's warning as a test: standing on a slope that falls ahead, each foot tilted to the
  // slope puts its ankle target ahead of the hip (0.2519 sin(slope)), so shortening has room to
  // act; but the deficit is mostly vertical, and even at ratio 1 the pelvis drop stays within
  // 10% of the drop without shortening (a split of the deficit decided in advance would hand
  // that share to the feet and lock the knees).
  for (float deg : {20.0f, 30.0f}) {
    const Ground ground = make_ground(GroundDesc{{slope(deg, {0, 0, -1})}, {}, {}});
    FeetRun plain(shortening(0.0f));
    plain.update(&ground);
    const float drop0 = plain.report().feet.pelvis_drop;
    REQUIRE(drop0 > 0.015f);
    for (float ratio : {0.5f, 1.0f}) {
      INFO("slope " << deg << ", ratio " << ratio);
      FeetRun run(shortening(ratio));
      run.update(&ground);
      for (size_t i = 0; i < 2; ++i) CHECK(run.report().feet.feet[i].shorten > 0.008f);  // it did shorten
      CHECK(run.report().feet.pelvis_drop >= 0.9f * drop0);
      CHECK(run.report().feet.pelvis_drop <= drop0);
      CHECK(run.report().reached);
    }
  }
}

TEST_CASE("feet: a foot whose ray missed is not shortened (G8)", "[feet][shorten]") {
  // Ground only under the right (back) foot, 0.35 low: the left ray misses and the left foot
  // takes the right's lift (G6), which puts it out of reach, yet it keeps its place along the
  // facing; the right foot, which hit, is pulled forward toward its hip.
  const Ground ground = make_ground(GroundDesc{{}, {box({0.5f, -0.85f, 1.0f}, {1.0f, 1.0f, 2.0f})}, {}});
  FeetRun plain(shortening(0.0f));
  FeetRun run(shortening(0.5f));
  stride(plain.ch, 20.0f);
  stride(run.ch, 20.0f);
  plain.update(&ground);
  run.update(&ground);
  const FeetReport& fr = run.report().feet;
  REQUIRE_FALSE(fr.feet[0].hit);
  REQUIRE(fr.feet[1].hit);
  CHECK(fr.feet[0].lift == Approx(-0.35f).margin(1e-4));
  CHECK(fr.feet[0].shorten == 0.0f);
  CHECK(run.sole("LeftFoot").z == Approx(plain.sole("LeftFoot").z).margin(1e-4));
  CHECK(fr.feet[1].shorten > 0.1f);
  CHECK(run.sole("RightFoot").z < plain.sole("RightFoot").z - 0.1f);  // forward, toward the hip
}

TEST_CASE("feet: step shortening is smoothed like the lifts and never passes the hip (G8)", "[feet][shorten]") {
  const Ground ground = make_ground(falling_ground());
  ControlDesc d = shortening(1.0f);
  d.smooth_time = 0.15f;
  FeetRun run(d);
  stride(run.ch, 20.0f);
  const Pose animated = run.ch.pose;
  run.update(nullptr);
  float previous = 0.0f;
  for (int f = 1; f <= 120; ++f) {
    run.ch.pose = animated;
    run.update(&ground);
    const float s = run.report().feet.feet[0].shorten;
    CHECK(s >= previous - 1e-6f);  // eases in
    previous = s;
    if (f == 1) CHECK(s < 0.2f * 0.35f);
    // Never past the point under the hip: the ankle stays ahead of (or under) it.
    CHECK(run.ch.pivot("LeftFoot").z <= run.ch.pivot("LeftUpperLeg").z + 1e-4f);
  }
  FeetRun once(shortening(1.0f));
  stride(once.ch, 20.0f);
  once.update(&ground);
  CHECK(previous == Approx(once.report().feet.feet[0].shorten).margin(1e-3));
}

TEST_CASE("feet: the pelvis leans into the slope: forward uphill, back downhill, uphill across (G9)", "[feet][lean]") {
  struct Case {
    glm::vec3 downhill;
    glm::vec3 lean;  // where the pelvis's up axis must tip: toward the uphill side
  };
  for (const Case& k : {Case{{0, 0, 1}, {0, 0, -1}}, Case{{0, 0, -1}, {0, 0, 1}}, Case{{1, 0, 0}, {-1, 0, 0}}}) {
    for (float deg : {6.0f, 20.0f}) {
      INFO("downhill " << k.downhill.x << " " << k.downhill.z << ", slope " << deg);
      const GroundPlane p = slope(deg, k.downhill);
      const Ground ground = make_ground(GroundDesc{{p}, {}, {}});
      FeetSettings s;
      s.lean = true;
      s.max_lean_deg = 10.0f;
      FeetRun run(feet_desc(s));
      run.update(&ground);
      const float expected = std::min(deg, 10.0f);  // the mirrored normal is as steep as the slope
      CHECK(run.report().feet.lean_deg == Approx(expected).margin(1e-3));
      const glm::vec3 pelvis_up = run.ch.fresh_world()[static_cast<size_t>(joint_index(run.ch.rig, "LowerTorso"))].rotation *
                                  glm::vec3(0, 1, 0);
      CHECK(degrees_between(pelvis_up, {0, 1, 0}) == Approx(expected).margin(0.01));
      CHECK(glm::dot(pelvis_up, k.lean) == Approx(std::sin(expected * kPi / 180.0f)).margin(1e-4));
      // The feet still stand on the slope, with legs of unchanged length.
      const glm::vec3 n = glm::normalize(p.normal);
      for (const char* foot : {"LeftFoot", "RightFoot"}) {
        CHECK(std::fabs(glm::dot(run.sole(foot), n)) < 0.01f);
        CHECK(degrees_between(run.foot_up(foot), n) < 1.0f);
      }
      for (const char* side : {"Left", "Right"}) {
        CHECK(run.thigh(side) == Approx(kThigh).margin(1e-4));
        CHECK(run.shin(side) == Approx(kShin).margin(1e-4));
      }
      CHECK(run.report().reached);
    }
  }
}

TEST_CASE("feet: airborne or swinging feet give no lean; lean off or flat ground changes no bit (G9)", "[feet][lean]") {
  FeetSettings s;
  s.lean = true;
  const Ground slope_ground = make_ground(GroundDesc{{slope(8.0f, {0, 0, 1})}, {}, {}});
  SECTION("both rays miss: level") {
    const Ground far_away = make_ground(GroundDesc{{floor_at(-5.0f)}, {}, {}});
    FeetRun run(feet_desc(s));
    const Pose before = run.ch.pose;
    run.update(&far_away);
    CHECK(run.report().feet.lean_deg == 0.0f);
    CHECK(run.pose_is(before));
  }
  SECTION("both feet swinging (soles 0.4 above the reference ground): level") {
    FeetRun run(feet_desc(s));
    run.ch.pose.local[0].position = {0.0f, 0.4f, 0.0f};  // the whole body 0.4 up, as in a jump
    const int pelvis = joint_index(run.ch.rig, "LowerTorso");
    const glm::quat animated = run.ch.fresh_world()[static_cast<size_t>(pelvis)].rotation;
    run.update(&slope_ground);
    CHECK(run.report().feet.lean_deg == 0.0f);
    CHECK(run.ch.fresh_world()[static_cast<size_t>(pelvis)].rotation == animated);
  }
  SECTION("one foot swinging: the planted one decides") {
    FeetRun run(feet_desc(s));
    // The right knee bent 90 degrees lifts that sole far off the ground; the left stays planted.
    run.ch.pose.local[static_cast<size_t>(joint_index(run.ch.rig, "RightLowerLeg"))] =
        Transform::from_rotation(glm::angleAxis(-kPi / 2.0f, glm::vec3(1, 0, 0)));
    run.update(&slope_ground);
    CHECK(run.report().feet.lean_deg == Approx(8.0f).margin(1e-3));
  }
  SECTION("flat ground with lean on changes no bit (G7)") {
    const Ground flat = make_ground(GroundDesc{{floor_at(0.0f)}, {}, {}});
    FeetRun run(feet_desc(s));
    stride(run.ch, 20.0f);
    const Pose before = run.ch.pose;
    for (int f = 0; f < 3; ++f) run.update(&flat);
    CHECK(run.pose_is(before));
    CHECK(run.report().feet.lean_deg == 0.0f);
  }
}

TEST_CASE("feet: the lean is smoothed like the lifts and bad settings fail at build (G9)", "[feet][lean]") {
  FeetSettings s;
  s.lean = true;
  ControlDesc d = feet_desc(s);
  d.smooth_time = 0.2f;
  const Ground ground = make_ground(GroundDesc{{slope(8.0f, {1, 0, 0})}, {}, {}});
  FeetRun run(d);
  run.update(nullptr, 1.0f / 60.0f);
  for (int f = 1; f <= 12; ++f) {
    reset_pose(run.ch.pose.local, run.ch.pose.coverage);
    run.update(&ground, 1.0f / 60.0f);
  }
  // The direction turns by the slerp response: 8 degrees (1 - exp(-0.2 / 0.2)).
  CHECK(run.report().feet.lean_deg == Approx(8.0f * (1.0f - std::exp(-1.0f))).margin(1e-3));

  Character ch;
  const auto fails = [&](const FeetSettings& bad, const char* words) {
    auto st = ControlStack::build(ch.rig, std::vector<ControlDesc>{feet_desc(bad)});
    REQUIRE_FALSE(st.ok());
    CHECK(st.message().find(words) != std::string::npos);
  };
  FeetSettings bad;
  bad.lean = true;
  bad.pelvis = false;
  fails(bad, "needs pelvis on");
  bad = FeetSettings{};
  bad.max_lean_deg = 60.0f;
  fails(bad, "max_lean_deg");
  bad = FeetSettings{};
  bad.step_shorten_ratio = 1.5f;
  fails(bad, "step_shorten_ratio");
  bad.step_shorten_ratio = std::numeric_limits<float>::quiet_NaN();
  fails(bad, "step_shorten_ratio");
}

TEST_CASE("feet: shortening and lean allocate nothing per frame and hold still on a bad dt (RG1, RG3)",
          "[feet][shorten][lean]") {
  FeetSettings s;
  s.step_shorten_ratio = 0.5f;
  s.lean = true;
  ControlDesc d = feet_desc(s);
  d.smooth_time = 0.1f;
  const Ground ground = make_ground(falling_ground());
  const Ground side = make_ground(GroundDesc{{slope(15.0f, {1, 0, 0})}, {}, {}});
  FeetRun run(d);
  stride(run.ch, 20.0f);
  const Pose animated = run.ch.pose;
  run.update(&ground);
  {
    AllocationScope alloc;
    for (int f = 0; f < 5; ++f) {
      run.ch.pose = animated;
      run.update(f % 2 ? &side : &ground);
    }
    CHECK(alloc.count() == 0);
  }
  const float shorten = run.report().feet.feet[0].shorten;
  const float lean = run.report().feet.lean_deg;
  for (float dt : {std::numeric_limits<float>::quiet_NaN(), 0.0f, -1.0f}) {
    run.ch.pose = animated;
    run.update(&side, dt);
    CHECK(run.report().feet.feet[0].shorten == shorten);  // no time passed: nothing moves
    CHECK(run.report().feet.lean_deg == Approx(lean).margin(1e-4));
    for (const Transform& t : run.ch.pose.local) CHECK(is_finite(t));
  }
}
