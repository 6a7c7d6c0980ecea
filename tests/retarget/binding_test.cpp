// Retarget binding and sampling (rule RT2-RT6) on hand-derived cases: the R15 rig driving
// itself, axis re-expression on either side, T-pose onto arms-down rest, translation rules,
// coverage, errors and the allocation-free per-frame path.
#include <catch2/catch.hpp>

#include <limits>

#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/rig_source.hpp"
#include "asterune/rig/pose.hpp"
#include "asterune/rig/world.hpp"
#include "support/r15_rig.hpp"
#include "retarget_support.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;
using asterune::test::angle_between;

namespace {

RetargetProfile identity_profile(const Rig& rig) {
  RetargetProfile p;
  p.name = "r15-to-r15";
  for (int j = 0; j < rig.joint_count(); ++j) p.joints.push_back({rig.child_name(j), rig.child_name(j)});
  return p;
}

std::vector<Transform> random_motor_pose(const Rig& rig, std::mt19937& rng) {
  std::vector<Transform> t(static_cast<size_t>(rig.joint_count()));
  for (auto& x : t) x.rotation = test::random_rotation(rng, 1.5f);
  t[0].position = glm::vec3(0.3f, -0.2f, 0.7f);
  return t;
}

struct Run {
  std::vector<Transform> local;
  std::vector<float> coverage;
  std::vector<Transform> world;  // rig-space part placements, evaluated independently
  RetargetReport report;
};

Run run(const RetargetBinding& b, const Rig& rig, const std::vector<Transform>& source_local,
        const std::vector<float>& coverage = {}) {
  Run r;
  r.local.resize(static_cast<size_t>(rig.joint_count()));
  r.coverage.resize(static_cast<size_t>(rig.joint_count()));
  r.world.resize(static_cast<size_t>(rig.joint_count()));
  RetargetContext ctx = make_retarget_context(b);
  r.report = sample_retarget(b, rig, source_local, coverage, ctx, r.local, r.coverage);
  evaluate_world(rig, Transform::identity(), r.local, r.world);
  return r;
}

}  // namespace

TEST_CASE("an R15 pose through an R15->R15 profile reproduces itself", "[retarget]") {
  // rule RT2, RT4: with equal rests and identity facing the carry is identity.
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = source_skeleton_from_rig(rig);
  auto b = build_retarget_binding(source, rig, identity_profile(rig));
  REQUIRE(b.ok());
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const auto motor = random_motor_pose(rig, rng);
    std::vector<Transform> src(motor.size());
    source_pose_from_rig(rig, motor, src);
    const Run r = run(b.value(), rig, src);
    REQUIRE(r.report.ok);
    for (size_t j = 0; j < motor.size(); ++j) {
      CHECK(angle_between(r.local[j].rotation, motor[j].rotation) < 1e-4f);
      CHECK(glm::length(r.local[j].position - motor[j].position) < 1e-4f);
      CHECK(r.coverage[j] == 1.0f);
    }
  }
}

TEST_CASE("target rest axes do not change the target's world motion", "[retarget]") {
  // Reference check (rule RT4): an R15 whose C0/C1 carry extra rotations X_j (C0*X, C1*X, which
  // cancel at rest) must move exactly like the plain R15.
  std::mt19937 rng(11);
  std::vector<glm::quat> extra;
  for (int k = 0; k < 15; ++k) extra.push_back(test::random_rotation(rng));
  const Rig plain = test::r15_rig();
  const Rig twisted = test::r15_rig([&](int k) { return extra[static_cast<size_t>(k)]; });
  REQUIRE(plain.signature() != twisted.signature());

  const SourceSkeleton source = test::tpose_source();
  RetargetProfile p;
  p.name = "tpose";
  p.facing = glm::angleAxis(3.14159265f, glm::vec3(0, 1, 0));
  p.joints = {{"LowerTorso", "Hips"},        {"UpperTorso", "Chest"},       {"Head", "Head"},
              {"LeftUpperArm", "LArm"},      {"LeftLowerArm", "LForeArm"},  {"LeftHand", "LHand"},
              {"RightUpperArm", "RArm"},     {"RightLowerArm", "RForeArm"}, {"RightHand", "RHand"},
              {"LeftUpperLeg", "LUpLeg"},    {"LeftLowerLeg", "LLeg"},      {"LeftFoot", "LFoot"},
              {"RightUpperLeg", "RUpLeg"},   {"RightLowerLeg", "RLeg"},     {"RightFoot", "RFoot"}};
  for (bool rest_matching : {false, true}) {
    p.rest_matching = rest_matching;
    auto bp = build_retarget_binding(source, plain, p);
    auto bt = build_retarget_binding(source, twisted, p);
    REQUIRE(bp.ok());
    REQUIRE(bt.ok());
    for (int trial = 0; trial < 10; ++trial) {
      std::vector<Transform> src = source.rest_local;
      for (auto& l : src) l.rotation = test::random_rotation(rng, 1.2f);
      src[0].position += glm::vec3(1, 2, 3);
      const Run a = run(bp.value(), plain, src);
      const Run c = run(bt.value(), twisted, src);
      for (int j = 0; j < plain.joint_count(); ++j) {
        // Joint order is the same in both layouts (same names and structure).
        REQUIRE(plain.child_name(j) == twisted.child_name(j));
        const auto u = static_cast<size_t>(j);
        CHECK(angle_between(a.world[u].rotation, c.world[u].rotation) < 1e-4f);
        CHECK(glm::length(a.world[u].position - c.world[u].position) < 1e-4f);
      }
    }
  }
}

TEST_CASE("source rest axes do not change the retargeted pose", "[retarget]") {
  // Reference check (rule RT4): re-expressing every source joint frame (compensated) leaves the
  // target pose unchanged to 1e-4 rad.
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = source_skeleton_from_rig(rig);
  std::mt19937 rng(3);
  std::vector<glm::quat> q;
  for (int j = 0; j < source.joint_count(); ++j) q.push_back(test::random_rotation(rng));
  const SourceSkeleton moved = test::reexpress(source, q);
  RetargetProfile p = identity_profile(rig);
  p.facing = glm::angleAxis(0.7f, glm::normalize(glm::vec3(0.2f, 1, 0.1f)));
  for (bool rest_matching : {false, true}) {
    p.rest_matching = rest_matching;
    auto b0 = build_retarget_binding(source, rig, p);
    auto b1 = build_retarget_binding(moved, rig, p);
    REQUIRE(b0.ok());
    REQUIRE(b1.ok());
    for (int trial = 0; trial < 10; ++trial) {
      const auto motor = random_motor_pose(rig, rng);
      std::vector<Transform> src(motor.size()), src_moved;
      source_pose_from_rig(rig, motor, src);
      test::reexpress_pose(source, q, src, src_moved);
      const Run a = run(b0.value(), rig, src);
      const Run c = run(b1.value(), rig, src_moved);
      for (size_t j = 0; j < motor.size(); ++j) {
        CHECK(angle_between(a.local[j].rotation, c.local[j].rotation) < 1e-4f);
        CHECK(glm::length(a.local[j].position - c.local[j].position) < 1e-4f);
      }
    }
  }
}

TEST_CASE("rest matching lets a T-pose source drive an arms-down rig without offset", "[retarget]") {
  // rule RT3. At the source's rest (T-pose), the target's upper and lower arms must point along
  // the source's arms (sideways), not hang down; without rest matching they stay down.
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = test::tpose_source();
  RetargetProfile p;
  p.facing = glm::angleAxis(3.14159265f, glm::vec3(0, 1, 0));
  p.joints = {{"LowerTorso", "Hips"}, {"UpperTorso", "Chest"}, {"LeftUpperArm", "LArm"},
              {"LeftLowerArm", "LForeArm"}, {"LeftHand", "LHand"}};
  const int ua = rig.find_joint("LeftUpperArm").index;
  const int la = rig.find_joint("LeftLowerArm").index;
  const int hand = rig.find_joint("LeftHand").index;
  const std::vector<Transform> rest = source.rest_local;

  p.rest_matching = true;
  auto b = build_retarget_binding(source, rig, p);
  REQUIRE(b.ok());
  Run r = run(b.value(), rig, rest);
  auto pivot = [&](const Run& x, int j) { return joint_pivot(rig, x.world, j); };
  // Source left arm points +X; facing turns it to -X, which is the R15's left side.
  CHECK(angle_between(pivot(r, la) - pivot(r, ua), glm::vec3(-1, 0, 0)) < 1e-4f);
  CHECK(angle_between(pivot(r, hand) - pivot(r, la), glm::vec3(-1, 0, 0)) < 1e-4f);
  // The hand turns rigidly with the forearm: its part axis -Y now points along -X too.
  CHECK(angle_between(r.world[static_cast<size_t>(hand)].rotation * glm::vec3(0, -1, 0), glm::vec3(-1, 0, 0)) < 1e-4f);

  p.rest_matching = false;
  auto b2 = build_retarget_binding(source, rig, p);
  REQUIRE(b2.ok());
  r = run(b2.value(), rig, rest);
  // The R15 shoulder pivot sits on the torso's edge (C0 x = -1) and the elbow pivot under the
  // arm's centre (x = -1.5): the rest bone is (-0.5, -C1_shoulder.y + C0_elbow.y, 0).
  const glm::vec3 rest_bone(-0.5f, -0.3943f - 0.3341f, 0.0f);
  CHECK(angle_between(pivot(r, la) - pivot(r, ua), rest_bone) < 1e-4f);
  for (int j = 0; j < rig.joint_count(); ++j) CHECK(angle_between(r.local[static_cast<size_t>(j)].rotation, glm::quat(1, 0, 0, 0)) < 1e-4f);
}

TEST_CASE("unmapped joints keep identity and coverage 0; mapped take the source coverage", "[retarget]") {
  // rule RT5.
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = source_skeleton_from_rig(rig);
  RetargetProfile p;
  p.joints = {{"UpperTorso", "UpperTorso"}, {"LeftUpperArm", "LeftUpperArm"}};
  auto b = build_retarget_binding(source, rig, p);
  REQUIRE(b.ok());
  CHECK(b.value().mapped_count() == 2);
  std::mt19937 rng(5);
  const auto motor = random_motor_pose(rig, rng);
  std::vector<Transform> src(motor.size());
  source_pose_from_rig(rig, motor, src);
  std::vector<float> cov(motor.size(), 0.25f);
  cov[static_cast<size_t>(source.find("LeftUpperArm"))] = 0.5f;
  const Run r = run(b.value(), rig, src, cov);
  for (int j = 0; j < rig.joint_count(); ++j) {
    const auto u = static_cast<size_t>(j);
    if (rig.child_name(j) == "UpperTorso") {
      CHECK(r.coverage[u] == 0.25f);
    } else if (rig.child_name(j) == "LeftUpperArm") {
      CHECK(r.coverage[u] == 0.5f);
    } else {
      CHECK(r.coverage[u] == 0.0f);
      CHECK(r.local[u].rotation == glm::quat(1, 0, 0, 0));
      CHECK(r.local[u].position == glm::vec3(0));
    }
  }
  // LowerTorso is unmapped and stays at rest, so the mapped UpperTorso's world orientation is
  // the source's world orientation of UpperTorso (converted through the CURRENT parent).
  std::vector<Transform> src_world(motor.size());
  evaluate_world(rig, Transform::identity(), motor, src_world);
  const int ut = rig.find_joint("UpperTorso").index;
  const int arm = rig.find_joint("LeftUpperArm").index;
  CHECK(angle_between(r.world[static_cast<size_t>(ut)].rotation, src_world[static_cast<size_t>(ut)].rotation) < 1e-4f);
  CHECK(angle_between(r.world[static_cast<size_t>(arm)].rotation, src_world[static_cast<size_t>(arm)].rotation) < 1e-4f);
}

TEST_CASE("source joints that drive nothing are not read; unmapped targets are overwritten", "[retarget]") {
  // rule RT5: only what a mapped target joint needs is read (the driving source joints and
  // their ancestors); an unmapped target joint with nothing mapped below it is written identity
  // with coverage 0 whatever the output held before.
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = test::tpose_source();
  RetargetProfile p;
  p.joints = {{"LowerTorso", "Hips"}, {"UpperTorso", "Chest"}, {"LeftUpperArm", "LArm"}};
  auto b = build_retarget_binding(source, rig, p);
  REQUIRE(b.ok());
  const size_t nt = static_cast<size_t>(rig.joint_count());
  const auto run_with = [&](const std::vector<Transform>& src, RetargetReport& rep) {
    std::vector<Transform> local(nt, Transform::from_position(glm::vec3(9.0f)));
    std::vector<float> cov(nt, 7.0f);
    for (Transform& t : local) t.rotation = glm::quat(0.5f, 0.5f, 0.5f, 0.5f);
    RetargetContext ctx = make_retarget_context(b.value());
    rep = sample_retarget(b.value(), rig, src, std::vector<float>(src.size(), 1.0f), ctx, local, cov);
    return std::make_pair(local, cov);
  };
  std::vector<Transform> clean = source.rest_local;
  clean[0].rotation = glm::normalize(glm::quat(0.9f, 0.1f, 0.3f, -0.2f));
  clean[4].rotation = glm::normalize(glm::quat(0.8f, -0.4f, 0.2f, 0.1f));
  std::vector<Transform> bad = clean;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const char* name : {"LForeArm", "LHand", "Head", "RArm", "LLeg", "RFoot"})
    bad[static_cast<size_t>(source.find(name))].rotation = glm::quat(nan, 0, 0, 0);
  RetargetReport rep_clean, rep_bad;
  const auto a = run_with(clean, rep_clean);
  const auto c = run_with(bad, rep_bad);
  CHECK(rep_bad.ok);
  CHECK(rep_bad.sanitized == 0);  // the NaNs are in joints that drive nothing
  CHECK(rep_bad.mapped == 3);
  for (size_t j = 0; j < nt; ++j) {
    INFO(rig.child_name(static_cast<int>(j)));
    CHECK(a.first[j].rotation == c.first[j].rotation);
    CHECK(a.first[j].position == c.first[j].position);
    CHECK(a.second[j] == c.second[j]);
    const std::string name = rig.child_name(static_cast<int>(j));
    if (name != "LowerTorso" && name != "UpperTorso" && name != "LeftUpperArm") {
      CHECK(c.first[j].rotation == glm::quat(1, 0, 0, 0));
      CHECK(c.first[j].position == glm::vec3(0));
      CHECK(c.second[j] == 0.0f);
    } else {
      CHECK(c.second[j] == 1.0f);
    }
  }
}

TEST_CASE("translation: enabled, disabled, scaled, nonfinite and negative scale", "[retarget]") {
  // rule RT6: travel = F * (p - p_rest) * units * scale; off -> zero; bad scale -> 1.
  const Rig rig = test::r15_rig();
  SourceSkeleton source = test::tpose_source();
  source.units_to_studs = 0.5f;
  RetargetProfile p;
  p.facing = glm::angleAxis(3.14159265f, glm::vec3(0, 1, 0));
  p.joints = {{"LowerTorso", "Hips"}, {"UpperTorso", "Chest"}};
  std::vector<Transform> src = source.rest_local;
  src[0].position += glm::vec3(2, 1, 4);  // travel in source space
  src[0].rotation = glm::angleAxis(0.6f, glm::vec3(0, 1, 0));
  const int lt = rig.find_joint("LowerTorso").index;
  const int ut = rig.find_joint("UpperTorso").index;
  auto travel_of = [&](float scale, bool on) {
    p.scale = scale;
    p.translation = on;
    auto b = build_retarget_binding(source, rig, p);
    REQUIRE(b.ok());
    const Run r = run(b.value(), rig, src);
    // The rest pivot of Root is at C0 = (0, -1, 0) in rig space (root part at identity); the
    // pivot's shift is the travel.
    CHECK(glm::length(r.local[static_cast<size_t>(ut)].position) == 0.0f);  // only the root travels
    return joint_pivot(rig, r.world, lt) - glm::vec3(0, -1, 0);
  };
  const glm::vec3 expected(-2 * 0.5f, 1 * 0.5f, -4 * 0.5f);  // 180 deg about Y, units 0.5
  CHECK(glm::length(travel_of(1.0f, true) - expected) < 1e-5f);
  CHECK(glm::length(travel_of(3.0f, true) - 3.0f * expected) < 1e-5f);
  CHECK(glm::length(travel_of(1.0f, false)) < 1e-6f);
  CHECK(glm::length(travel_of(std::numeric_limits<float>::quiet_NaN(), true) - expected) < 1e-5f);
  CHECK(glm::length(travel_of(std::numeric_limits<float>::infinity(), true) - expected) < 1e-5f);
  CHECK(glm::length(travel_of(-2.0f, true) - expected) < 1e-5f);
  CHECK(glm::length(travel_of(0.0f, true) - expected) < 1e-5f);
}

TEST_CASE("auto scale is the hip-to-sole leg length ratio", "[retarget]") {
  // rule RT6 beyond. Hand-derived: the R15 leg is 2.0 studs hip pivot to sole (PROVENANCE
  // table: 0.4208+0.4011 + 0.3790+0.5472 + 0.1019+0.15); the T-pose source leg is
  // |(2.3,-6.4,0)| + |(2.7,-7.5,0)| + 0.5 (ankle above the toe end site), times units.
  const Rig rig = test::r15_rig();
  SourceSkeleton source = test::tpose_source();
  source.units_to_studs = 0.25f;
  RetargetProfile p;
  p.facing = glm::angleAxis(3.14159265f, glm::vec3(0, 1, 0));
  p.joints = {{"LowerTorso", "Hips"}};
  p.auto_scale = true;
  p.source_leg = {"LUpLeg", "LLeg", "LFoot"};
  p.target_leg = {"LeftUpperLeg", "LeftLowerLeg", "LeftFoot"};
  auto b = build_retarget_binding(source, rig, p);
  REQUIRE(b.ok());
  const float src_leg = (std::sqrt(2.3f * 2.3f + 6.4f * 6.4f) + std::sqrt(2.7f * 2.7f + 7.5f * 7.5f) + 0.5f) * 0.25f;
  CHECK(b.value().target_leg_length == Approx(2.0f).margin(1e-3));
  CHECK(b.value().source_leg_length == Approx(src_leg).margin(1e-4));
  CHECK(b.value().scale == Approx(2.0f / src_leg).margin(1e-3));
  CHECK(b.value().translation_scale == Approx(0.25f * 2.0f / src_leg).margin(1e-3));

  p.source_leg = {"LUpLeg", "Nope", "LFoot"};
  auto bad = build_retarget_binding(source, rig, p);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.message().find("Nope") != std::string::npos);
}

TEST_CASE("binding errors are values naming the joint and the reason", "[retarget]") {
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = test::tpose_source();
  RetargetProfile p;
  p.name = "broken";
  p.joints = {{"NoSuchPart", "Hips"}};
  auto r = build_retarget_binding(source, rig, p);
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("NoSuchPart") != std::string::npos);

  p.joints = {{"LowerTorso", "NoSuchJoint"}};
  r = build_retarget_binding(source, rig, p);
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("NoSuchJoint") != std::string::npos);

  p.joints = {{"LowerTorso", "Hips"}, {"LowerTorso", "Spine"}};
  r = build_retarget_binding(source, rig, p);
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("twice") != std::string::npos);

  p.joints = {{"LowerTorso", "Hips"}};
  p.facing = glm::quat(0, 0, 0, 0);
  r = build_retarget_binding(source, rig, p);
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("facing") != std::string::npos);

  p.facing = glm::quat(1, 0, 0, 0);
  SourceSkeleton bad = source;
  bad.parents[3] = 5;  // a parent after its child
  r = build_retarget_binding(bad, rig, p);
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("Head") != std::string::npos);
}

TEST_CASE("ambiguous target names are refused, qualified names accepted", "[retarget]") {
  RigDesc d = test::r15_desc();
  for (auto& part : d.parts)
    if (part.id == "LeftHand" || part.id == "RightHand") part.name = "Hand";
  auto rig = build_rig(d);
  REQUIRE(rig.ok());
  const SourceSkeleton source = test::tpose_source();
  RetargetProfile p;
  p.joints = {{"Hand", "LHand"}};
  auto r = build_retarget_binding(source, rig.value(), p);
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("Hand") != std::string::npos);
  p.joints = {{"LeftLowerArm/Hand", "LHand"}};
  CHECK(build_retarget_binding(source, rig.value(), p).ok());
}

TEST_CASE("retarget sampling allocates nothing and survives bad source values", "[retarget]") {
  // rule RG1, RG3.
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = test::tpose_source();
  RetargetProfile p;
  p.facing = glm::angleAxis(3.14159265f, glm::vec3(0, 1, 0));
  p.joints = {{"LowerTorso", "Hips"}, {"UpperTorso", "Chest"}, {"LeftUpperArm", "LArm"}};
  auto b = build_retarget_binding(source, rig, p);
  REQUIRE(b.ok());
  RetargetContext ctx = make_retarget_context(b.value());
  Pose pose = make_pose(rig);
  std::vector<Transform> src = source.rest_local;
  std::vector<float> cov(src.size(), 1.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  src[4].rotation = glm::quat(nan, 0, 0, 0);
  src[0].position = glm::vec3(nan, 0, 0);
  RetargetReport rep;
  {
    test::AllocationScope scope;
    for (int i = 0; i < 100; ++i)
      rep = sample_retarget(b.value(), rig, src, cov, ctx, pose.local_span(), pose.coverage_span());
    CHECK(scope.count() == 0);
  }
  CHECK(rep.ok);
  CHECK(rep.sanitized == 2);
  for (const auto& t : pose.local) CHECK(is_finite(t));
  // A rig or sizes that do not match the binding: nothing written.
  std::vector<Transform> short_src(3);
  CHECK_FALSE(sample_retarget(b.value(), rig, short_src, {}, ctx, pose.local_span(), pose.coverage_span()).ok);
}
