// Composition of override tracks by priority and weight (rules AN3, AN4), masks (AN5) and
// additive tracks (AN6). Clips hold constant keys; translations blend as plain weighted sums,
// so a track keyed at (1, 0, 0) shows its effective weight in x; rotations about one axis
// blend to an angle computed here from half-angle sines and cosines.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

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

namespace {

// docs/animator.md's override composition written joint by joint, as the formula reads: for
// each joint the levels from the top, the claims summed in composition order, m, k, the
// effective weights, the sign-aligned weighted sums, the rest pose's identity, one
// normalization. The animator runs it track-major or four joints at a time; the order of the
// operations per joint is the documented one either way, so the result is the same bits.
struct RefTrack {
  int priority;
  float weight;
  std::vector<float> mask;  // empty: 1
  std::vector<Transform> local;
  std::vector<float> coverage;
};

void ref_compose(const std::vector<RefTrack>& tracks, CompositionMode mode, std::vector<Transform>& local,
                 std::vector<float>& coverage) {
  std::vector<size_t> order(tracks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return tracks[a].priority > tracks[b].priority; });
  for (size_t j = 0; j < local.size(); ++j) {
    float rest = 1.0f;
    int count = 0;
    size_t single = 0;
    float single_e = 0.0f;
    glm::quat first(1.0f, 0.0f, 0.0f, 0.0f), acc(0.0f, 0.0f, 0.0f, 0.0f);
    glm::vec3 pos(0.0f);
    for (size_t begin = 0; begin < order.size();) {
      size_t end = begin;
      while (end < order.size() && tracks[order[end]].priority == tracks[order[begin]].priority) ++end;
      auto claim = [&](size_t i) {
        const RefTrack& tr = tracks[order[i]];
        const float c = tr.weight * tr.coverage[j];
        return tr.mask.empty() ? c : c * tr.mask[j];
      };
      float w = claim(begin);
      for (size_t i = begin + 1; i < end; ++i) w += claim(i);
      if (w > 0.0f) {
        const float m = std::min(w, 1.0f);
        const float k = mode == CompositionMode::kBudget ? std::min(1.0f, rest / m) : rest;
        const float scale = k / std::max(w, 1.0f);
        rest -= m * k;
        if (!(rest > 0.0f)) rest = 0.0f;
        for (size_t i = begin; i < end; ++i) {
          const float e = claim(i) * scale;
          if (!(e > 0.0f)) continue;
          const Transform& x = tracks[order[i]].local[j];
          if (count == 0) first = x.rotation;
          const float sg = glm::dot(first, x.rotation) < 0.0f ? -e : e;
          acc = glm::quat(acc.w + sg * x.rotation.w, acc.x + sg * x.rotation.x, acc.y + sg * x.rotation.y,
                          acc.z + sg * x.rotation.z);
          pos += e * x.position;
          ++count;
          single = order[i];
          single_e = e;
        }
      }
      begin = end;
    }
    if (count == 0) {
      local[j] = Transform::identity();
      coverage[j] = 0.0f;
    } else if (count == 1 && single_e == 1.0f) {
      local[j] = tracks[single].local[j];
      coverage[j] = 1.0f;
    } else {
      glm::quat q = acc;
      q.w += first.w < 0.0f ? -rest : rest;
      const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
      local[j].rotation = len2 > 1e-20f ? q * (1.0f / std::sqrt(len2)) : first;
      local[j].position = pos;
      coverage[j] = 1.0f - rest;
    }
  }
}

}  // namespace

TEST_CASE("the composition is the per-joint formula bit for bit, any mix of levels, weights and masks (rule AN4)",
          "[anim]") {
  const Rig rig = r15_rig();  // 15 joints: the last block of four is short
  const size_t n = static_cast<size_t>(rig.joint_count());
  std::uint32_t seed = 77u;
  auto next = [&]() {  // [0, 1), the same on every standard library
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) * (1.0f / 16777216.0f);
  };
  const char* parts[] = {"LowerTorso", "UpperTorso", "Head", "LeftUpperArm", "LeftLowerArm", "LeftHand",
                         "RightUpperArm", "RightLowerArm", "RightHand", "LeftUpperLeg", "LeftLowerLeg",
                         "LeftFoot", "RightUpperLeg", "RightLowerLeg", "RightFoot"};
  int compared = 0;
  for (int round = 0; round < 40; ++round) {
    const int track_count = 1 + round % 6;
    std::vector<Clip> clips;
    for (int t = 0; t < track_count; ++t) {
      std::vector<ConstKey> keys;
      for (const char* p : parts) {
        if (next() < 0.2f) continue;  // an unkeyed joint: coverage 0, claims nothing
        const glm::quat q = axis_angle_deg(360.0f * next() - 180.0f,
                                           glm::vec3(next() - 0.5f, next() - 0.5f, next() - 0.5f) + kX * 0.1f);
        keys.push_back({p, next() < 0.3f ? -q : q, glm::vec3(next(), next() - 0.5f, 2.0f * next())});
      }
      clips.push_back(const_clip("c" + std::to_string(t), keys));
    }
    std::vector<std::unique_ptr<AnimationBinding>> bindings;
    std::vector<TrackDesc> descs;
    std::vector<RefTrack> ref;
    for (int t = 0; t < track_count; ++t) {
      bindings.push_back(native_binding(clips[static_cast<size_t>(t)], rig));
      const int priority = static_cast<int>(next() * 3.0f) * 2;  // Core, Movement or Action2: some share a level
      const float pick = next();
      const float weight = pick < 0.2f ? 1.0f : pick < 0.3f ? 0.0f : 1.6f * next();
      TrackDesc d = track("T" + std::to_string(t), clips[static_cast<size_t>(t)], *bindings.back(),
                          static_cast<TrackPriority>(priority), weight);
      if (next() < 0.4f) {
        d.mask.parts = {next() < 0.5f ? "RightUpperArm" : "UpperTorso"};
        d.mask.weight = next() < 0.5f ? 1.0f : next();
      }
      descs.push_back(d);
    }
    for (CompositionMode mode : {CompositionMode::kBudget, CompositionMode::kRemainder}) {
      Animator anim = build_animator(rig, descs, mode);
      Out out(rig);
      REQUIRE(anim.update(rig, 0.25f, out.local, out.coverage).ok);
      ref.clear();
      for (int t = 0; t < track_count; ++t) {
        const TrackDesc& d = descs[static_cast<size_t>(t)];
        RefTrack r{static_cast<int>(d.priority), d.weight, {}, std::vector<Transform>(n), std::vector<float>(n)};
        REQUIRE(sample_clip(clips[static_cast<size_t>(t)], bindings[static_cast<size_t>(t)]->clip_binding, 0.25f,
                            WrapMode::kLoop, r.local, r.coverage));
        if (!d.mask.parts.empty()) {  // the mask's joints by hand: the named part and its subtree
          r.mask.assign(n, 0.0f);
          const int root = rig.find_joint(d.mask.parts[0]).index;
          for (int j = root; j < rig.subtree_end(root); ++j) r.mask[static_cast<size_t>(j)] = d.mask.weight;
        }
        if (d.weight == 0.0f) r.weight = 0.0f;
        ref.push_back(std::move(r));
      }
      std::vector<Transform> want(n);
      std::vector<float> want_cov(n);
      ref_compose(ref, mode, want, want_cov);
      INFO("round " << round << ", tracks " << track_count);
      for (size_t j = 0; j < n; ++j) {
        INFO("joint " << j);
        REQUIRE(std::memcmp(&out.local[j], &want[j], sizeof(Transform)) == 0);
        REQUIRE(std::memcmp(&out.coverage[j], &want_cov[j], sizeof(float)) == 0);
        ++compared;
      }
    }
  }
  CHECK(compared == 40 * 2 * 15);
}
