// Composition of override tracks by priority and weight (rules AN3, AN4), masks (AN5) and
// additive tracks (AN6). Clips hold constant keys; translations blend as plain weighted sums,
// so a track keyed at (1, 0, 0) shows its effective weight in x; rotations about one axis
// blend to an angle computed here from half-angle sines and cosines.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "anim_support.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

const glm::vec3 kX(1.0f, 0.0f, 0.0f), kY(0.0f, 1.0f, 0.0f), kZ(0.0f, 0.0f, 1.0f);
const glm::quat kI(1.0f, 0.0f, 0.0f, 0.0f);

// The angle (degrees) of normalize(sum of w_i * q(angle_i about X) + rest * identity), by hand:
// every term is (cos(a/2), sin(a/2), 0, 0) scaled, so the sum's angle is 2 atan2(S, C).
float blended_angle_deg(std::initializer_list<std::pair<float, float>> weighted, float rest) {
  double s = 0.0, c = rest;
  for (const auto& [w, deg] : weighted) {
    s += w * std::sin(deg * kDeg / 2.0);
    c += w * std::cos(deg * kDeg / 2.0);
  }
  return static_cast<float>(2.0 * std::atan2(s, c) / kDeg);
}

float angle_about_x_deg(const glm::quat& q) { return 2.0f * std::atan2(q.x, q.w) / kDeg; }

}  // namespace

TEST_CASE("two Movement tracks at weight 1 share a joint 50/50 (rule AN4)", "[anim]") {
  const Rig rig = r15_rig();
  const int arm = joint_index(rig, "LeftUpperArm");
  const Clip a = const_clip("a", {{"LeftUpperArm", axis_angle_deg(40.0f, kX), kX}});
  const Clip b = const_clip("b", {{"LeftUpperArm", axis_angle_deg(-20.0f, kX), kY}});
  const auto ba = native_binding(a, rig), bb = native_binding(b, rig);
  Animator anim = build_animator(
      rig, {track("A", a, *ba, TrackPriority::kMovement), track("B", b, *bb, TrackPriority::kMovement)});
  Out out(rig);
  REQUIRE(anim.update(rig, 1.0f / 60.0f, out.local, out.coverage).ok);
  const auto j = static_cast<size_t>(arm);
  CHECK(out.local[j].position.x == Approx(0.5f).margin(1e-6));
  CHECK(out.local[j].position.y == Approx(0.5f).margin(1e-6));
  CHECK(out.coverage[j] == Approx(1.0f).margin(1e-6));
  CHECK(angle_about_x_deg(out.local[j].rotation) == Approx(blended_angle_deg({{0.5f, 40.0f}, {0.5f, -20.0f}}, 0.0f)).margin(1e-3));
  CHECK(angle_about_x_deg(out.local[j].rotation) == Approx(10.0f).margin(1e-3));  // equal weights: the mean
  // A joint neither clip keys: the rest pose, coverage 0.
  CHECK(out.coverage[static_cast<size_t>(joint_index(rig, "Head"))] == 0.0f);
}

TEST_CASE("Movement 0.3 + 0.2 keep their weights and the rest pose takes 0.5 (rule AN4)", "[anim]") {
  const Rig rig = r15_rig();
  const auto j = static_cast<size_t>(joint_index(rig, "LeftUpperArm"));
  const Clip a = const_clip("a", {{"LeftUpperArm", axis_angle_deg(60.0f, kX), kX}});
  const Clip b = const_clip("b", {{"LeftUpperArm", axis_angle_deg(30.0f, kX), kY}});
  const auto ba = native_binding(a, rig), bb = native_binding(b, rig);
  Animator anim = build_animator(rig, {track("A", a, *ba, TrackPriority::kMovement, 0.3f),
                                       track("B", b, *bb, TrackPriority::kMovement, 0.2f)});
  Out out(rig);
  REQUIRE(anim.update(rig, 1.0f / 60.0f, out.local, out.coverage).ok);
  CHECK(out.local[j].position.x == Approx(0.3f).margin(1e-6));
  CHECK(out.local[j].position.y == Approx(0.2f).margin(1e-6));
  CHECK(out.coverage[j] == Approx(0.5f).margin(1e-6));
  CHECK(angle_about_x_deg(out.local[j].rotation) ==
        Approx(blended_angle_deg({{0.3f, 60.0f}, {0.2f, 30.0f}}, 0.5f)).margin(1e-3));
}

TEST_CASE("claims of one level past 1 are normalised; weights above 1 are allowed (rule AN4)", "[anim]") {
  const Rig rig = r15_rig();
  const auto j = static_cast<size_t>(joint_index(rig, "LeftUpperArm"));
  const Clip a = const_clip("a", {{"LeftUpperArm", kI, kX}});
  const Clip b = const_clip("b", {{"LeftUpperArm", kI, kY}});
  const auto ba = native_binding(a, rig), bb = native_binding(b, rig);
  Animator anim = build_animator(rig, {track("A", a, *ba, TrackPriority::kIdle, 3.0f),
                                       track("B", b, *bb, TrackPriority::kIdle, 1.0f)});
  Out out(rig);
  REQUIRE(anim.update(rig, 0.0f, out.local, out.coverage).ok);
  CHECK(out.local[j].position.x == Approx(0.75f).margin(1e-6));
  CHECK(out.local[j].position.y == Approx(0.25f).margin(1e-6));
  CHECK(out.coverage[j] == Approx(1.0f).margin(1e-6));
}

TEST_CASE("Action 0.5 over Movement 1 gives 0.5/0.5; an unkeyed joint shows Movement at 1 (rule AN3, AN4)",
          "[anim]") {
  const Rig rig = r15_rig();
  const auto arm = static_cast<size_t>(joint_index(rig, "LeftUpperArm"));
  const auto leg = static_cast<size_t>(joint_index(rig, "LeftUpperLeg"));
  const Clip move = const_clip("walk", {{"LeftUpperArm", axis_angle_deg(20.0f, kX), kX},
                                        {"LeftUpperLeg", axis_angle_deg(-35.0f, kX), kZ}});
  const Clip act = const_clip("wave", {{"LeftUpperArm", axis_angle_deg(80.0f, kX), kY}});
  const auto bm = native_binding(move, rig), ba = native_binding(act, rig);
  // Build order puts Action first: composition goes by rank, not by order.
  Animator anim = build_animator(rig, {track("Wave", act, *ba, TrackPriority::kAction, 0.5f),
                                       track("Walk", move, *bm, TrackPriority::kMovement, 1.0f)});
  Out out(rig);
  REQUIRE(anim.update(rig, 1.0f / 60.0f, out.local, out.coverage).ok);
  CHECK(out.local[arm].position.x == Approx(0.5f).margin(1e-6));
  CHECK(out.local[arm].position.y == Approx(0.5f).margin(1e-6));
  CHECK(angle_about_x_deg(out.local[arm].rotation) ==
        Approx(blended_angle_deg({{0.5f, 80.0f}, {0.5f, 20.0f}}, 0.0f)).margin(1e-3));
  // Show-through: the wave does not key the leg, so the walk has it whole.
  CHECK(out.local[leg].position == kZ);
  CHECK(angle_about_x_deg(out.local[leg].rotation) == Approx(-35.0f).margin(1e-3));
  CHECK(out.coverage[leg] == 1.0f);

  // Core is the lowest rank although Roblox stores it as 1000 (rule AN3): Idle at 1 takes it all.
  const Clip idle = const_clip("idle", {{"LeftUpperArm", kI, kY}});
  const auto bi = native_binding(idle, rig);
  Animator ranks = build_animator(rig, {track("Core", move, *bm, TrackPriority::kCore, 1.0f),
                                        track("Idle", idle, *bi, TrackPriority::kIdle, 1.0f)});
  REQUIRE(ranks.update(rig, 0.0f, out.local, out.coverage).ok);
  CHECK(out.local[arm].position == kY);
}

TEST_CASE("kRemainder layers each level over the ones below by its claim (rule AN4)", "[anim]") {
  const Rig rig = r15_rig();
  const auto j = static_cast<size_t>(joint_index(rig, "LeftUpperArm"));
  const Clip move = const_clip("walk", {{"LeftUpperArm", kI, kX}});
  const Clip act = const_clip("wave", {{"LeftUpperArm", kI, kY}});
  const auto bm = native_binding(move, rig), ba = native_binding(act, rig);
  const std::vector<TrackDesc> tracks{track("Walk", move, *bm, TrackPriority::kMovement, 0.3f),
                                      track("Wave", act, *ba, TrackPriority::kAction, 0.5f)};
  Out out(rig);
  // Budget: the Action takes 0.5, Movement's 0.3 fits in what is left, the rest pose 0.2.
  Animator budget = build_animator(rig, tracks, CompositionMode::kBudget);
  REQUIRE(budget.update(rig, 0.0f, out.local, out.coverage).ok);
  CHECK(out.local[j].position.y == Approx(0.5f).margin(1e-6));
  CHECK(out.local[j].position.x == Approx(0.3f).margin(1e-6));
  CHECK(out.coverage[j] == Approx(0.8f).margin(1e-6));
  // Remainder: walk = lerp(rest, walk, 0.3); then lerp(that, wave, 0.5): walk 0.15, wave 0.5.
  Animator remainder = build_animator(rig, tracks, CompositionMode::kRemainder);
  REQUIRE(remainder.update(rig, 0.0f, out.local, out.coverage).ok);
  CHECK(out.local[j].position.y == Approx(0.5f).margin(1e-6));
  CHECK(out.local[j].position.x == Approx(0.15f).margin(1e-6));
  CHECK(out.coverage[j] == Approx(0.65f).margin(1e-6));
}

TEST_CASE("a mask limits a track to one arm, with or without its descendants (rule AN5)", "[anim]") {
  const Rig rig = r15_rig();
  std::vector<ConstKey> all_x, all_y;
  for (int k = 0; k < rig.joint_count(); ++k) {
    all_x.push_back({rig.child_name(k), kI, kX});
    all_y.push_back({rig.child_name(k), kI, kY});
  }
  const Clip move = const_clip("walk", all_x);
  const Clip act = const_clip("wave", all_y);
  const auto bm = native_binding(move, rig), ba = native_binding(act, rig);
  for (const bool descendants : {true, false}) {
    TrackDesc wave = track("Wave", act, *ba, TrackPriority::kAction, 1.0f);
    wave.mask.parts = {"LeftUpperArm"};
    wave.mask.descendants = descendants;
    Animator anim = build_animator(rig, {track("Walk", move, *bm, TrackPriority::kMovement, 1.0f), wave});
    Out out(rig);
    REQUIRE(anim.update(rig, 0.0f, out.local, out.coverage).ok);
    for (int k = 0; k < rig.joint_count(); ++k) {
      const std::string& part = rig.child_name(k);
      const bool arm = part == "LeftUpperArm" || (descendants && (part == "LeftLowerArm" || part == "LeftHand"));
      INFO(part << " descendants=" << descendants);
      CHECK(out.local[static_cast<size_t>(k)].position == (arm ? kY : kX));
    }
  }
  // A half-weight mask: the wave claims 0.5 on the arm, the walk takes the other half.
  TrackDesc half = track("Wave", act, *ba, TrackPriority::kAction, 1.0f);
  half.mask.parts = {"LeftUpperArm"};
  half.mask.weight = 0.5f;
  Animator anim = build_animator(rig, {track("Walk", move, *bm, TrackPriority::kMovement, 1.0f), half});
  Out out(rig);
  REQUIRE(anim.update(rig, 0.0f, out.local, out.coverage).ok);
  const auto hand = static_cast<size_t>(joint_index(rig, "LeftHand"));
  CHECK(out.local[hand].position.x == Approx(0.5f).margin(1e-6));
  CHECK(out.local[hand].position.y == Approx(0.5f).margin(1e-6));

  // A part the rig does not have: the build names the track and the part.
  TrackDesc bad = track("Wave", act, *ba, TrackPriority::kAction, 1.0f);
  bad.mask.parts = {"LeftTentacle"};
  const auto r = Animator::build(rig, std::vector<TrackDesc>{bad});
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.message(), Catch::Contains("'Wave'") && Catch::Contains("'LeftTentacle'"));
}

TEST_CASE("an additive track adds its difference from the reference pose, negative weights subtract (rule AN6)",
          "[anim]") {
  const Rig rig = r15_rig();
  const auto j = static_cast<size_t>(joint_index(rig, "LeftUpperArm"));
  const Clip base = const_clip("base", {{"LeftUpperArm", axis_angle_deg(20.0f, kX), kX}});
  // The additive clip turns 0 -> 30 degrees about X and moves 0 -> (0, 2, 0) over 1 s; its
  // reference is t = 0, and it is held at t = 1 (non-looped, speed 0).
  const Clip add = linear_clip("lean", "LeftUpperArm", Transform::identity(),
                               Transform{axis_angle_deg(30.0f, kX), glm::vec3(0.0f, 2.0f, 0.0f)});
  const auto bb = native_binding(base, rig), ba = native_binding(add, rig);
  const auto run = [&](float weight) {
    TrackDesc lean = track("Lean", add, *ba, TrackPriority::kAction, weight);
    lean.additive = true;
    lean.looped = false;
    lean.time = 1.0f;
    lean.speed = 0.0f;
    Animator anim = build_animator(rig, {track("Base", base, *bb, TrackPriority::kMovement, 1.0f), lean});
    Out out(rig);
    REQUIRE(anim.update(rig, 1.0f / 60.0f, out.local, out.coverage).ok);
    return out.local[j];
  };
  const Transform full = run(1.0f);
  CHECK(angle_about_x_deg(full.rotation) == Approx(50.0f).margin(1e-3));
  CHECK(full.position.y == Approx(2.0f).margin(1e-6));
  CHECK(full.position.x == Approx(1.0f).margin(1e-6));
  // Half weight: nlerp(identity, 30 deg, 0.5) is 15 degrees (symmetric halfway), on top of 20.
  const Transform half = run(0.5f);
  CHECK(angle_about_x_deg(half.rotation) == Approx(35.0f).margin(1e-3));
  CHECK(half.position.y == Approx(1.0f).margin(1e-6));
  // Negative weight subtracts: 20 - 30.
  const Transform minus = run(-1.0f);
  CHECK(angle_about_x_deg(minus.rotation) == Approx(-10.0f).margin(1e-3));
  CHECK(minus.position.y == Approx(-2.0f).margin(1e-6));
  // At its reference time the additive track adds nothing.
  TrackDesc still = track("Lean", add, *ba, TrackPriority::kAction, 1.0f);
  still.additive = true;
  still.speed = 0.0f;
  Animator anim = build_animator(rig, {track("Base", base, *bb, TrackPriority::kMovement, 1.0f), still});
  Out out(rig);
  REQUIRE(anim.update(rig, 1.0f / 60.0f, out.local, out.coverage).ok);
  CHECK(angle_about_x_deg(out.local[j].rotation) == Approx(20.0f).margin(1e-3));
}

TEST_CASE("compose() recomposes the last samples as update() did (rules AN4, AN6)", "[anim]") {
  const Rig rig = r15_rig();
  const Clip a = const_clip("a", {{"LeftUpperArm", axis_angle_deg(40.0f, kX), kX}});
  const Clip b = linear_clip("b", "LeftUpperArm", Transform::identity(), Transform{axis_angle_deg(70.0f, kZ), kY});
  const auto ba = native_binding(a, rig), bb = native_binding(b, rig);
  TrackDesc add = track("Add", b, *bb, TrackPriority::kIdle, 0.4f);
  add.additive = true;
  Animator anim = build_animator(rig, {track("A", a, *ba, TrackPriority::kMovement, 0.7f),
                                       track("B", b, *bb, TrackPriority::kAction, 0.6f), add});
  Out first(rig), again(rig);
  REQUIRE(anim.update(rig, 0.3f, first.local, first.coverage).ok);
  REQUIRE(anim.compose(rig, again.local, again.coverage));
  CHECK(std::memcmp(first.local.data(), again.local.data(), first.local.size() * sizeof(Transform)) == 0);
  CHECK(std::memcmp(first.coverage.data(), again.coverage.data(), first.coverage.size() * sizeof(float)) == 0);
  std::vector<float> short_cov(2);
  CHECK_FALSE(anim.compose(rig, again.local, short_cov));
}
