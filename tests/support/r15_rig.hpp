// Test fixture: the standard Roblox R15 block rig, typed in by hand from the reference table
// of Motor6D C0/C1 values in tests/data/roblox/PROVENANCE.md (Rig-Builder R15 as saved by
// Roblox Studio, unscaled studs, identity rotations; MIT, datlass/Rbx-CCDIK). It does not use
// the library's built-in rig table, so tests of rig, retarget and controls do not depend on it.
// `twist` optionally gives joint k an extra rotation X_k applied as C0*X_k and C1*X_k, which
// cancels at rest (same rest placements, different joint axes).
#pragma once

#include <functional>
#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include "asterune/rig/rig.hpp"

namespace asterune::test {

inline RigDesc r15_desc(const std::function<glm::quat(int)>& twist = nullptr) {
  RigDesc d;
  d.name = "R15";
  d.root = "HumanoidRootPart";
  auto part = [&](const std::string& name, glm::vec3 size) { d.parts.push_back(PartDesc{name, name, size, std::nullopt}); };
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
  int k = 0;
  auto joint = [&](const std::string& name, const std::string& p0, const std::string& p1, glm::vec3 c0, glm::vec3 c1) {
    const glm::quat x = twist ? twist(k) : glm::quat(1, 0, 0, 0);
    ++k;
    d.joints.push_back(JointDesc{name, p0, p1, Transform{x, c0}, Transform{x, c1}, true});
  };
  joint("Root", "HumanoidRootPart", "LowerTorso", {0, -1, 0}, {0, -0.2f, 0});
  joint("Waist", "LowerTorso", "UpperTorso", {0, 0.2f, 0}, {0, -0.8f, 0});
  joint("Neck", "UpperTorso", "Head", {0, 0.8f, 0}, {0, -0.5f, 0});
  for (const char* side : {"Left", "Right"}) {
    const std::string s = side;
    const float sx = s == "Left" ? -1.0f : 1.0f;
    joint(s + "Shoulder", "UpperTorso", s + "UpperArm", {sx, 0.563f, 0}, {-0.5f * sx, 0.3943f, 0});
    joint(s + "Elbow", s + "UpperArm", s + "LowerArm", {0, -0.3341f, 0}, {0, 0.2587f, 0});
    joint(s + "Wrist", s + "LowerArm", s + "Hand", {0, -0.5009f, 0}, {0, 0.1250f, 0});
    joint(s + "Hip", "LowerTorso", s + "UpperLeg", {0.5f * sx, -0.2f, 0}, {0, 0.4208f, 0});
    joint(s + "Knee", s + "UpperLeg", s + "LowerLeg", {0, -0.4011f, 0}, {0, 0.3790f, 0});
    joint(s + "Ankle", s + "LowerLeg", s + "Foot", {0, -0.5472f, 0}, {0, 0.1019f, 0});
  }
  return d;
}

inline Rig r15_rig(const std::function<glm::quat(int)>& twist = nullptr) {
  auto rig = build_rig(r15_desc(twist));
  INFO((rig.ok() ? std::string() : rig.message()));
  REQUIRE(rig.ok());
  return std::move(rig).value();
}

/// Layout index of the joint whose child part is `part` (fails the test when not found).
inline int joint_index(const Rig& rig, const std::string& part) {
  const JointLookup hit = rig.find_joint(part);
  REQUIRE(hit.found());
  return hit.index;
}

}  // namespace asterune::test
