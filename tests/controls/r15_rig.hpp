// Test helper: the standard Roblox R15 block rig typed in by hand from the reference table of
// the Roblox rig data's PROVENANCE.md (Rig-Builder R15, C0/C1 offsets in studs, identity
// rotations; MIT, datlass/Rbx-CCDIK). Independent of the io module's built-in table, so
// control tests do not depend on the loader.
#pragma once

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/rig/rig.hpp"

namespace asterune::test {

inline RigDesc r15_desc() {
  RigDesc d;
  d.name = "R15";
  d.root = "HumanoidRootPart";
  auto part = [&](const std::string& name, glm::vec3 size) { d.parts.push_back(PartDesc{name, name, size, {}}); };
  part("HumanoidRootPart", {2, 2, 1});
  part("LowerTorso", {2, 0.4f, 1});
  part("UpperTorso", {2, 1.6f, 1});
  part("Head", {2, 1, 1});
  for (const char* side : {"Left", "Right"}) {
    const std::string s = side;
    part(s + "UpperArm", {1, 1.1687f, 1});
    part(s + "LowerArm", {1, 1.0519f, 1});
    part(s + "Hand", {1, 0.3f, 1});
    part(s + "UpperLeg", {1, 1.2166f, 1});
    part(s + "LowerLeg", {1, 1.1931f, 1});
    part(s + "Foot", {1, 0.3f, 1});
  }
  auto joint = [&](const std::string& name, const std::string& p0, const std::string& p1, glm::vec3 c0, glm::vec3 c1) {
    d.joints.push_back(JointDesc{name, p0, p1, Transform::from_position(c0), Transform::from_position(c1), true});
  };
  joint("Root", "HumanoidRootPart", "LowerTorso", {0, -1, 0}, {0, -0.2f, 0});
  joint("Waist", "LowerTorso", "UpperTorso", {0, 0.2f, 0}, {0, -0.8f, 0});
  joint("Neck", "UpperTorso", "Head", {0, 0.8f, 0}, {0, -0.5f, 0});
  for (int i = 0; i < 2; ++i) {
    const std::string s = i == 0 ? "Left" : "Right";
    const float x = i == 0 ? -1.0f : 1.0f;
    joint(s + "Shoulder", "UpperTorso", s + "UpperArm", {x, 0.563f, 0}, {-x * 0.5f, 0.3943f, 0});
    joint(s + "Elbow", s + "UpperArm", s + "LowerArm", {0, -0.3341f, 0}, {0, 0.2587f, 0});
    joint(s + "Wrist", s + "LowerArm", s + "Hand", {0, -0.5009f, 0}, {0, 0.1250f, 0});
    joint(s + "Hip", "LowerTorso", s + "UpperLeg", {x * 0.5f, -0.2f, 0}, {0, 0.4208f, 0});
    joint(s + "Knee", s + "UpperLeg", s + "LowerLeg", {0, -0.4011f, 0}, {0, 0.3790f, 0});
    joint(s + "Ankle", s + "LowerLeg", s + "Foot", {0, -0.5472f, 0}, {0, 0.1019f, 0});
  }
  return d;
}

inline Rig r15_rig() {
  auto rig = build_rig(r15_desc());
  REQUIRE(rig.ok());
  return std::move(rig).value();
}

inline int joint_index(const Rig& rig, const std::string& part) {
  const JointLookup hit = rig.find_joint(part);
  REQUIRE(hit.found());
  return hit.index;
}

}  // namespace asterune::test
