// IK settings reached through the stack (rule IK2, IK3, IK8, CS3): solver choice, the pole on
// the same frame and its continuity per second, stretch as T translations, max_extension,
// joint limits, the reach window and the character-frame pole. References are hand-derived
// from the R15 C0/C1 table (control_helpers.hpp) and the formulas in docs/solvers.md.
#include <algorithm>
#include <cmath>
#include <random>

#include <catch2/catch.hpp>

#include "asterune/solvers/two_bone.hpp"
#include "control_helpers.hpp"
#include "controls/ik_control.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

const float kArmLength = kUpperArmSegment + kLowerArmSegment;
const glm::vec3 kWristInHand{0.0f, 0.125f, 0.0f};  // LeftWrist C1: the wrist pivot in the hand's frame

float angle_deg(const glm::vec3& a, const glm::vec3& b) {
  return glm::degrees(std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b)));
}

// Elbow interior angle (degrees) of the left arm in the current pose.
float elbow_angle_deg(const Character& ch) {
  const glm::vec3 s = ch.pivot("LeftUpperArm");
  const glm::vec3 e = ch.pivot("LeftLowerArm");
  const glm::vec3 w = ch.point_on("LeftLowerArm", kWristInLowerArm);
  return angle_deg(s - e, w - e);
}

// The elbow's and the pole's components orthogonal to the shoulder->wrist axis.
struct Side {
  glm::vec3 elbow;
  glm::vec3 pole;
};
Side sides(const Character& ch, const glm::vec3& pole) {
  const glm::vec3 s = ch.pivot("LeftUpperArm");
  const glm::vec3 axis = glm::normalize(ch.point_on("LeftLowerArm", kWristInLowerArm) - s);
  const glm::vec3 e = ch.pivot("LeftLowerArm") - s;
  const glm::vec3 p = pole - s;
  return {e - axis * glm::dot(e, axis), p - axis * glm::dot(p, axis)};
}

}  // namespace

TEST_CASE("auto picks the solver by segments and limits (rule IK2)", "[ik_settings]") {
  const Rig rig = r15_rig();
  auto solver_of = [&](const ControlDesc& d) {
    auto c = detail::build_ik_control(rig, std::get<IkSettings>(d.settings), "t");
    INFO((c.ok() ? std::string() : c.message()));
    REQUIRE(c.ok());
    return c.value().solver;
  };
  CHECK(solver_of(left_arm({0, 0, 0})) == detail::BoundIkSolver::kTwoBone);
  CHECK(solver_of(ik_control("A", "LeftUpperArm", "LeftHand", {0, -0.15f, 0}, {})) == detail::BoundIkSolver::kFabrik);
  // The wrist pivot as endpoint drops the zero-length last segment: two segments again.
  CHECK(solver_of(ik_control("A", "LeftUpperArm", "LeftHand", kWristInHand, {})) == detail::BoundIkSolver::kTwoBone);
  CHECK(solver_of(ik_control("A", "LeftLowerArm", "LeftLowerArm", kWristInLowerArm, {})) == detail::BoundIkSolver::kAim);
  ControlDesc limited = left_arm({0, 0, 0});
  std::get<IkSettings>(limited.settings).limits.push_back({"LeftLowerArm", JointLimitKind::kHinge, {1, 0, 0}, 0, 150, 0});
  CHECK(solver_of(limited) == detail::BoundIkSolver::kFabrik);
  std::get<IkSettings>(limited.settings).solver = IkSolver::kCcd;
  CHECK(solver_of(limited) == detail::BoundIkSolver::kCcd);
  std::get<IkSettings>(limited.settings).solver = IkSolver::kTwoBone;
  CHECK_FALSE(detail::build_ik_control(rig, std::get<IkSettings>(limited.settings), "t").ok());
}

TEST_CASE("IK settings out of range are setup errors naming the control", "[ik_settings]") {
  Character ch;
  auto fails = [&](auto edit, const char* needle) {
    ControlDesc d = left_arm({0, 0, 0});
    edit(std::get<IkSettings>(d.settings));
    auto s = ControlStack::build(ch.rig, std::vector<ControlDesc>{d});
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.message(), Catch::Contains("control 'LeftArm'") && Catch::Contains(needle));
  };
  fails([](IkSettings& k) { k.soft_reach = 1.0f; }, "soft_reach");
  fails([](IkSettings& k) { k.stretch = 0.9f; }, "stretch");
  fails([](IkSettings& k) { k.stretch = 1.05f; k.soft_reach = 0.9f; }, "stretch needs the chain");
  fails([](IkSettings& k) { k.max_passes = 0; }, "max_passes");
  fails([](IkSettings& k) { k.max_extension = 1.5f; }, "max_extension");
  fails([](IkSettings& k) { k.tolerance = -1.0f; }, "tolerance");
  fails([](IkSettings& k) { k.limits.push_back({"RightHand", JointLimitKind::kHinge, {1, 0, 0}, 0, 1, 0}); }, "not placed");
  fails([](IkSettings& k) { k.limits.push_back({"LeftLowerArm", JointLimitKind::kHinge, {0, 0, 0}, 0, 1, 0}); }, "axis");
  fails([](IkSettings& k) { k.pole = target_at({0, 0, 0}); k.character_pole = CharacterPole{}; }, "not both");
}

TEST_CASE("pole side: 500 random reachable targets put the elbow on the pole's side (rule IK8)", "[ik_settings]") {
  // Fixed pole behind and out from the left shoulder. Every frame jumps to a new random
  // target (the hardest case for continuity); wherever the pole's projection off the
  // shoulder->target axis exceeds 10 % of the arm's length the elbow must be on its side on
  // that very frame.
  for (const float dt : {1.0f / 60.0f, 1.0f}) {
    Character ch;
    const glm::vec3 pole = kLeftShoulderPivot + glm::vec3(-0.8f, -0.4f, 1.2f);
    ControlDesc d = left_arm({0, 0, 0});
    std::get<IkSettings>(d.settings).pole = target_at(pole);
    auto s = ch.stack({d});
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int checked = 0, wrong = 0;
    for (int f = 0; f < 500; ++f) {
      glm::vec3 dir;
      do dir = {u(rng), u(rng), u(rng)};
      while (glm::length(dir) > 1.0f || glm::length(dir) < 0.1f);
      const float frac = 0.3f + 0.65f * (0.5f + 0.5f * u(rng));
      const glm::vec3 target = kLeftShoulderPivot + glm::normalize(dir) * frac * kArmLength;
      s.set_target_position(0, target);
      reset_pose(ch.pose.local, ch.pose.coverage);
      ch.update(s, dt);
      REQUIRE(s.report(0).reached);
      const Side sd = sides(ch, pole);
      if (glm::length(sd.pole) <= 0.1f * kArmLength) continue;
      ++checked;
      if (glm::dot(sd.elbow, sd.pole) <= 0.0f) ++wrong;
    }
    INFO("dt " << dt << ": " << wrong << " of " << checked << " frames with the elbow off the pole's side");
    CHECK(checked > 400);
    CHECK(wrong == 0);
  }
}

TEST_CASE("a target sweeping through the pole axis turns the elbow over, per second not per frame (rule IK8)",
          "[ik_settings]") {
  // The reach direction turns at 30 degrees per second in the plane of the shoulder->pole
  // line, so once per half turn it passes straight through that line, where the pole's
  // projection reverses. The same motion at 30, 60 and 144 Hz: the largest elbow turn per
  // second stays within 20 degrees per 1/60 s, and the elbow is on the pole's side whenever
  // the projection exceeds the band.
  const glm::vec3 pole_dir = glm::normalize(glm::vec3(-0.3f, -0.2f, 1.0f));
  const glm::vec3 pole = kLeftShoulderPivot + 0.9f * pole_dir;
  const glm::vec3 other = glm::normalize(glm::cross(pole_dir, glm::vec3(0, 1, 0)));
  for (const float hz : {30.0f, 60.0f, 144.0f}) {
    Character ch;
    ControlDesc d = left_arm({0, 0, 0});
    std::get<IkSettings>(d.settings).pole = target_at(pole);
    auto s = ch.stack({d});
    const float dt = 1.0f / hz;
    const int frames = static_cast<int>(std::lround(12.0f * hz));  // 360 degrees
    glm::vec3 last(0.0f);
    float worst_rate = 0.0f;  // degrees per second
    int off_side = 0;
    for (int f = 0; f <= frames; ++f) {
      const float phi = glm::radians(30.0f) * static_cast<float>(f) * dt + 0.3f;
      const glm::vec3 dir = std::cos(phi) * pole_dir + std::sin(phi) * other;
      s.set_target_position(0, kLeftShoulderPivot + 0.7f * kArmLength * dir);
      reset_pose(ch.pose.local, ch.pose.coverage);
      ch.update(s, dt);
      const Side sd = sides(ch, pole);
      const glm::vec3 e = glm::normalize(sd.elbow);
      if (f > 0) worst_rate = std::max(worst_rate, angle_deg(last, e) / dt);
      last = e;
      if (glm::length(sd.pole) > 0.1f * kArmLength && glm::dot(sd.elbow, sd.pole) <= 0.0f) ++off_side;
    }
    INFO(hz << " Hz: largest elbow turn " << worst_rate << " deg/s = " << worst_rate * dt << " deg per frame");
    CHECK(worst_rate * (1.0f / 60.0f) <= 20.0f);
    CHECK(off_side == 0);
  }
}

TEST_CASE("stretch moves the elbow and wrist attachments along the bones (T translation)", "[ik_settings]") {
  Character ch;
  ControlDesc d = ik_control("LeftArm", "LeftUpperArm", "LeftHand", kWristInHand, {0, 0, 0});
  IkSettings& ik = std::get<IkSettings>(d.settings);
  ik.soft_reach = 0.9f;
  ik.stretch = 1.05f;
  auto s = ch.stack({d});
  const int elbow = joint_index(ch.rig, "LeftLowerArm");
  const int wrist = joint_index(ch.rig, "LeftHand");
  const glm::vec3 dir = glm::normalize(glm::vec3(-1.0f, 0.2f, -0.4f));
  float last_reach = 0.0f;
  for (float frac = 0.5f; frac <= 1.6f; frac += 0.01f) {
    s.set_target_position(0, kLeftShoulderPivot + frac * kArmLength * dir);
    reset_pose(ch.pose.local, ch.pose.coverage);
    ch.update(s);
    const ControlReport& r = s.report(0);
    const float k = r.stretch;
    INFO("target at " << frac << " of the reach: stretch " << k);
    // Never above the setting nor the ceiling 1 + (1-s)/(0.25+1.25s) = 1.0727 (s = 0.9).
    CHECK(k <= 1.05f + 1e-6f);
    CHECK(k <= 1.0f + two_bone_stretch_ceiling(0.9f) + 1e-6f);
    if (frac <= 0.9f) {
      CHECK(k == 1.0f);  // exactly no stretch below the band: T translations untouched
      CHECK(bitwise_equal(ch.pose.local[static_cast<size_t>(elbow)], Transform{ch.pose.local[static_cast<size_t>(elbow)].rotation, {}}));
    }
    // Both segments scaled by k about the shoulder (hand-derived: lengths k*a, k*b).
    const glm::vec3 sp = ch.pivot("LeftUpperArm");
    const glm::vec3 ep = ch.pivot("LeftLowerArm");
    const glm::vec3 wp = ch.pivot("LeftHand");
    CHECK(glm::length(ep - sp) == Approx(k * kUpperArmSegment).epsilon(1e-4));
    CHECK(glm::length(wp - ep) == Approx(k * kLowerArmSegment).epsilon(1e-4));
    // The endpoint stays on the shoulder->target ray, at most stretch * reach away, and moves
    // out monotonically.
    const float reach = glm::length(wp - sp);
    CHECK(glm::length(glm::cross(glm::normalize(wp - sp), dir)) < 1e-4f);
    CHECK(reach <= 1.05f * kArmLength + 1e-4f);
    CHECK(reach >= last_reach - 1e-5f);
    last_reach = reach;
    // The stretch shows as T translations of the elbow and wrist joints: (k-1) * segment in C0 frame.
    CHECK(glm::length(ch.pose.local[static_cast<size_t>(elbow)].position) == Approx((k - 1.0f) * kUpperArmSegment).margin(1e-5));
    CHECK(glm::length(ch.pose.local[static_cast<size_t>(wrist)].position) == Approx((k - 1.0f) * kLowerArmSegment).margin(1e-5));
  }
  // Targets up to stretch * reach: the endpoint goes beyond the unstretched reach, close to 1.05.
  CHECK(last_reach > 1.04f * kArmLength);
}

TEST_CASE("max_extension keeps the elbow bent (seed 003 ClampArmReachDistance)", "[ik_settings]") {
  // Bound: the elbow's interior angle with the reach distance clamped to m * (a + b):
  //   cos(theta_max) = (a^2 + b^2 - (m (a + b))^2) / (2 a b).
  const float m = 0.9f;
  const float a = kUpperArmSegment, b = kLowerArmSegment;
  const float bound = glm::degrees(std::acos((a * a + b * b - m * m * (a + b) * (a + b)) / (2.0f * a * b)));
  for (const float soft : {0.0f, 0.8f}) {
    Character ch;
    ControlDesc d = left_arm({0, 0, 0});
    std::get<IkSettings>(d.settings).max_extension = m;
    std::get<IkSettings>(d.settings).soft_reach = soft;
    auto s = ch.stack({d});
    float largest = 0.0f;
    for (float frac = 0.3f; frac <= 2.0f; frac += 0.02f) {
      for (const glm::vec3 dir : {glm::vec3(-1, 0, 0), glm::vec3(-0.5f, 0.6f, -0.6f), glm::vec3(0, -1, 0.2f)}) {
        s.set_target_position(0, kLeftShoulderPivot + frac * kArmLength * glm::normalize(dir));
        reset_pose(ch.pose.local, ch.pose.coverage);
        ch.update(s);
        largest = std::max(largest, elbow_angle_deg(ch));
        if (frac > m) CHECK(s.report(0).clamped);
      }
    }
    INFO("soft " << soft << ": largest elbow angle " << largest << " bound " << bound);
    CHECK(largest <= bound + 0.01f);
    CHECK(largest > bound - 0.5f);  // the bound is reached, not just respected
  }
}

TEST_CASE("joint limits through the control: no joint leaves its limit, the distance is reported", "[ik_settings]") {
  // Hand-derived check of L = inverse(parent * rest_local) * part with rest_local = C0 C1^-1
  // (identity rotations on R15, so rest_local = identity).
  for (const IkSolver solver : {IkSolver::kFabrik, IkSolver::kCcd}) {
    Character ch;
    ControlDesc d = ik_control("LeftArm", "LeftUpperArm", "LeftHand", {0, -0.15f, 0}, {0, 0, 0});
    IkSettings& ik = std::get<IkSettings>(d.settings);
    ik.solver = solver;
    ik.limits = {{"LeftUpperArm", JointLimitKind::kBallSocket, {0, -1, 0}, -20, 20, 100},
                 {"LeftLowerArm", JointLimitKind::kHinge, {1, 0, 0}, 0, 140, 0},
                 {"LeftHand", JointLimitKind::kBallSocket, {0, -1, 0}, -10, 10, 30}};
    auto s = ch.stack({d});
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int reached = 0;
    int short_and_held = 0;
    for (int f = 0; f < 100; ++f) {
      // A target reachable inside the limits: the hand point of a pose drawn within them
      // (shoulder swing up to 60 degrees, elbow 10..120, hand swing up to 20), forward kinematics.
      Pose fk = make_pose(ch.rig);
      const auto swing = [&](float max_deg) {
        const glm::vec3 axis = glm::normalize(glm::vec3(u(rng), 0.0f, u(rng)) + glm::vec3(1e-3f, 0, 0));
        return glm::angleAxis(glm::radians(max_deg * (0.5f + 0.5f * u(rng))), axis);
      };
      fk.local[static_cast<size_t>(joint_index(ch.rig, "LeftUpperArm"))].rotation = swing(60.0f);
      fk.local[static_cast<size_t>(joint_index(ch.rig, "LeftLowerArm"))].rotation =
          glm::angleAxis(glm::radians(65.0f + 55.0f * u(rng)), glm::vec3(1, 0, 0));
      fk.local[static_cast<size_t>(joint_index(ch.rig, "LeftHand"))].rotation = swing(20.0f);
      std::vector<Transform> fk_world(fk.local.size());
      evaluate_world(ch.rig, ch.root, fk.local, fk_world);
      const glm::vec3 target = transform_point(fk_world[static_cast<size_t>(joint_index(ch.rig, "LeftHand"))], {0, -0.15f, 0});
      s.set_target_position(0, target);
      reset_pose(ch.pose.local, ch.pose.coverage);
      ch.update(s);
      const auto w = ch.fresh_world();
      const ControlReport& r = s.report(0);
      CHECK(r.distance == Approx(glm::length(ch.point_on("LeftHand", {0, -0.15f, 0}) - target)).margin(1e-5));
      if (r.reached) ++reached;
      bool held = false;  // some joint lies on the boundary of its limit (within 0.5e-3 rad)
      for (const IkJointLimit& l : ik.limits) {
        const int j = joint_index(ch.rig, l.part);
        const glm::quat parent = w[static_cast<size_t>(ch.rig.parent(j))].rotation;
        const glm::quat rel = glm::conjugate(parent) * w[static_cast<size_t>(j)].rotation;
        const JointLimit lim = l.kind == JointLimitKind::kHinge
                                   ? JointLimit::hinge(glm::normalize(l.axis), glm::radians(l.min_deg), glm::radians(l.max_deg))
                                   : JointLimit::ball_socket(glm::normalize(l.axis), glm::radians(l.cone_deg),
                                                             glm::radians(l.min_deg), glm::radians(l.max_deg));
        INFO("solver " << static_cast<int>(solver) << " frame " << f << " joint " << l.part);
        CHECK(within_limit(lim, rel, glm::radians(0.05f)));
        // On the boundary: outside the limit narrowed by 0.6e-3 rad by more than 1e-4 rad (a
        // hinge's swing of rounding noise stays under that).
        JointLimit narrow = lim;
        narrow.min_angle += 0.6e-3f;
        narrow.max_angle -= 0.6e-3f;
        narrow.cone_angle -= 0.6e-3f;
        if (!within_limit(narrow, rel, 1e-4f)) held = true;
      }
      // Rule IK10: a limit that stops the chain shows as clamped. Every target here lies within
      // reach, so a solve left short with a joint held on its limit was stopped by it.
      if (!r.reached && held) {
        INFO("solver " << static_cast<int>(solver) << " frame " << f << ": short by " << r.distance << " after "
                       << r.passes << " passes, a joint on its limit");
        CHECK(r.clamped);
        ++short_and_held;
      }
    }
    INFO("solver " << static_cast<int>(solver) << " reached " << reached << " of 100 targets drawn inside the limits");
    // Rule IK10. Measured with the default 16 passes (and up to 16 refinement steps): FABRIK 78, CCD 83
    // of 100; before the limit-aware steps and the refinement, 12 and 14 (docs/solvers.md).
    CHECK(reached >= 65);
    CHECK(short_and_held > 0);  // the clamped check above ran
  }
}

TEST_CASE("reach window: the weight fades smoothly with the direction and is 0 outside", "[ik_settings]") {
  // Left arm, character facing -Z: azimuth 0 forward, +90 out to the left (-X), negative
  // across the body. Window [-30, +120] degrees, falloff 20: hand-derived weights at a
  // level reach (elevation 90, sin = 1): 1 inside, 1 - smoothstep(excess / 20) outside.
  Character ch;
  ControlDesc d = left_arm({0, 0, 0});
  ReachWindow w;
  w.across_limit_deg = 30.0f;
  w.behind_limit_deg = 120.0f;
  w.falloff_deg = 20.0f;
  std::get<IkSettings>(d.settings).reach_window = w;
  auto s = ch.stack({d});
  auto expected = [](float az) {
    float excess = 0.0f;
    if (az < -30.0f) excess = -30.0f - az;
    if (az > 120.0f) excess = az - 120.0f;
    const float x = std::clamp(excess / 20.0f, 0.0f, 1.0f);
    return 1.0f - x * x * (3.0f - 2.0f * x);
  };
  float last = -1.0f;
  float largest_step = 0.0f;
  const int elbow = joint_index(ch.rig, "LeftLowerArm");
  for (float az = -90.0f; az <= 170.0f; az += 0.5f) {
    const float r = glm::radians(az);
    const glm::vec3 dir(-std::sin(r), 0.0f, -std::cos(r));
    s.set_target_position(0, kLeftShoulderPivot + 1.2f * dir);
    reset_pose(ch.pose.local, ch.pose.coverage);
    ch.update(s);
    const ControlReport& rep = s.report(0);
    INFO("azimuth " << az);
    CHECK(rep.weight == Approx(expected(az)).margin(1e-4));
    if (expected(az) == 0.0f) {
      CHECK(rep.changed_joints == 0);
      CHECK(rep.status == ControlStatus::kZeroWeight);
      CHECK(bitwise_equal(ch.pose.local[static_cast<size_t>(elbow)], Transform::identity()));
    }
    if (last >= 0.0f) largest_step = std::max(largest_step, std::fabs(rep.weight - last));
    last = rep.weight;
  }
  CHECK(largest_step < 0.04f);  // smooth: 0.5 degree steps never move the weight by more
  // Hanging straight down (elevation 0) every azimuth is the same pose: full weight even
  // "behind" the window, because the azimuth excess is scaled by sin(elevation).
  s.set_target_position(0, kLeftShoulderPivot + glm::vec3(0.0f, -1.2f, 0.001f));
  reset_pose(ch.pose.local, ch.pose.coverage);
  ch.update(s);
  CHECK(s.report(0).weight == Approx(1.0f).margin(1e-3));
}

TEST_CASE("character pole: back and out, sliding outward as the aim nears the pole's line", "[ik_settings]") {
  detail::BoundCharacterPole p;
  p.base = glm::normalize(glm::vec3(-std::sin(glm::radians(30.0f)), 0.0f, std::cos(glm::radians(30.0f))));
  p.outward = {-1, 0, 0};
  p.slide_sine = std::sin(glm::radians(30.0f));
  // Aim far from the base line: the base itself.
  CHECK(glm::length(detail::character_pole_direction(p, {0, -1, 0}) - p.base) < 1e-6f);
  // Aim along the base (either way): fully outward, whose projection off the aim is sin(30).
  CHECK(glm::length(detail::character_pole_direction(p, p.base) - p.outward) < 1e-6f);
  CHECK(glm::length(detail::character_pole_direction(p, -p.base) - p.outward) < 1e-6f);
  // Continuous in between, and never collinear with the aim.
  glm::vec3 last = detail::character_pole_direction(p, {0, -1, 0});
  for (int i = 1; i <= 400; ++i) {
    const float t = glm::radians(180.0f) * static_cast<float>(i) / 400.0f;
    const glm::vec3 aim = std::cos(t) * glm::vec3(0, -1, 0) + std::sin(t) * p.base;
    const glm::vec3 d = detail::character_pole_direction(p, aim);
    CHECK(angle_deg(d, last) < 2.0f);
    CHECK(glm::length(glm::cross(d, glm::normalize(aim))) > 0.25f);
    last = d;
  }
  // Through the stack: the elbow bends to the pole's side.
  Character ch;
  ControlDesc d = left_arm(kLeftShoulderPivot + glm::vec3(-0.6f, -0.2f, -1.0f));
  CharacterPole cp;
  cp.outward = {-1, 0, 0};
  std::get<IkSettings>(d.settings).character_pole = cp;
  auto s = ch.stack({d});
  ch.update(s);
  CHECK(s.report(0).reached);
  const glm::vec3 base = glm::normalize(glm::vec3(-0.5f, 0.0f, 0.8660254f));
  const Side sd = sides(ch, kLeftShoulderPivot + base);
  CHECK(glm::dot(sd.elbow, sd.pole) > 0.0f);
}

TEST_CASE("the report carries clamped, passes and stretch", "[ik_settings]") {
  Character ch;
  ControlDesc far = left_arm(kLeftShoulderPivot + glm::vec3(-3.0f, 0.0f, 0.0f));
  ControlDesc chain = ik_control("Chain", "LeftUpperArm", "LeftHand", {0, -0.15f, 0}, {-1.4f, 3.2f, -0.9f});
  auto s = ch.stack({far, chain});
  ch.update(s);
  CHECK(s.report(0).clamped);
  CHECK(s.report(0).passes == 1);
  CHECK(s.report(0).stretch == 1.0f);
  CHECK_FALSE(s.report(0).reached);
  CHECK(s.report(0).distance == Approx(3.0f - kArmLength).margin(2e-3));
  CHECK(s.report(1).passes >= 1);
  CHECK(s.report(1).angle == 0.0f);
}
