// Test helpers for control-stack tests: R15 control descriptions and a character fixture.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "asterune/controls/stack.hpp"
#include "asterune/rig/world.hpp"
#include "support/r15_rig.hpp"

namespace asterune::test {

// Hand-derived R15 rest geometry with the root part at (0, 3, 0) (from the C0/C1 table).
inline const glm::vec3 kLeftShoulderPivot{-1.0f, 3.763f, 0.0f};
inline const glm::vec3 kWristInLowerArm{0.0f, -0.5009f, 0.0f};   // wrist pivot, LowerArm frame
inline const glm::vec3 kAnkleInFoot{0.0f, 0.1019f, 0.0f};        // ankle pivot, Foot frame
inline const float kUpperArmSegment = 0.8835008f;  // |(0,-0.3341,0) - (0.5,0.3943,0)|
inline const float kLowerArmSegment = 0.7596f;     // 0.5009 + 0.2587

inline ControlDesc ik_control(const std::string& name, const std::string& chain_root, const std::string& end,
                              const glm::vec3& end_offset, const glm::vec3& target) {
  ControlDesc d;
  d.name = name;
  d.target = target_at(target);
  IkSettings ik;
  ik.chain_root = chain_root;
  ik.end = end;
  ik.end_offset = end_offset;
  d.settings = ik;
  return d;
}

inline ControlDesc left_arm(const glm::vec3& target) {
  return ik_control("LeftArm", "LeftUpperArm", "LeftLowerArm", kWristInLowerArm, target);
}

inline ControlDesc look_at_control(const std::string& name, const glm::vec3& target, float yaw_limit_deg = 80.0f,
                                   float pitch_limit_deg = 60.0f) {
  ControlDesc d;
  d.name = name;
  d.target = target_at(target);
  LookAtSettings la;
  la.chain_root = "UpperTorso";
  la.end = "Head";
  la.yaw_limit_deg = yaw_limit_deg;
  la.pitch_limit_deg = pitch_limit_deg;
  d.settings = la;
  return d;
}

struct Character {
  Rig rig = r15_rig();
  Pose pose = make_pose(rig);
  std::vector<Transform> world = std::vector<Transform>(static_cast<size_t>(rig.joint_count()));
  Transform root = Transform::from_position({0.0f, 3.0f, 0.0f});

  ControlStack stack(const std::vector<ControlDesc>& controls) {
    auto s = ControlStack::build(rig, controls);
    INFO((s.ok() ? std::string() : s.message()));
    REQUIRE(s.ok());
    return std::move(s).value();
  }
  void update(ControlStack& s, float dt = 1.0f / 60.0f, float time = 0.0f) {
    s.update(rig, StackFrame{root, dt, time}, pose, world);
  }
  // World placements recomputed from scratch (independent of the stack's incremental walk).
  std::vector<Transform> fresh_world() const {
    std::vector<Transform> w(static_cast<size_t>(rig.joint_count()));
    evaluate_world(rig, root, pose.local, w);
    return w;
  }
  glm::vec3 point_on(const std::string& part, const glm::vec3& offset) const {
    const auto w = fresh_world();
    return transform_point(w[static_cast<size_t>(joint_index(rig, part))], offset);
  }
  glm::vec3 pivot(const std::string& part) const {
    const auto w = fresh_world();
    return joint_pivot(rig, w, joint_index(rig, part));
  }
};

inline bool bitwise_equal(const Transform& a, const Transform& b) { return std::memcmp(&a, &b, sizeof(Transform)) == 0; }

}  // namespace asterune::test
