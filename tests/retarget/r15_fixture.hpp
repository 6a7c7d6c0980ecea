// Test helper: the standard Roblox R15 block rig, from the reference table of Motor6D C0/C1
// values in tests/data/roblox/PROVENANCE.md (values saved by Roblox Studio, unscaled studs,
// all rotations identity). `twist` optionally gives every joint an extra rotation X_j applied
// as C0*X_j and C1*X_j, which cancels at rest (same rest placements, different joint axes).
#pragma once

#include <functional>

#include "asterune/rig/rig.hpp"

namespace asterune::test {

inline RigDesc r15_desc(const std::function<glm::quat(int)>& twist = nullptr) {
  RigDesc d;
  d.name = "R15";
  d.root = "HumanoidRootPart";
  auto part = [&](const char* name, glm::vec3 size) { d.parts.push_back(PartDesc{name, name, size, std::nullopt}); };
  part("HumanoidRootPart", {2, 2, 1});
  part("LowerTorso", {2, 0.4f, 1});
  part("UpperTorso", {2, 1.6f, 1});
  part("Head", {2, 1, 1});
  for (const char* side : {"Left", "Right"}) {
    const std::string s = side;
    d.parts.push_back(PartDesc{s + "UpperArm", s + "UpperArm", {1, 1.1687f, 1}, std::nullopt});
    d.parts.push_back(PartDesc{s + "LowerArm", s + "LowerArm", {1, 1.0519f, 1}, std::nullopt});
    d.parts.push_back(PartDesc{s + "Hand", s + "Hand", {1, 0.3f, 1}, std::nullopt});
    d.parts.push_back(PartDesc{s + "UpperLeg", s + "UpperLeg", {1, 1.2166f, 1}, std::nullopt});
    d.parts.push_back(PartDesc{s + "LowerLeg", s + "LowerLeg", {1, 1.1931f, 1}, std::nullopt});
    d.parts.push_back(PartDesc{s + "Foot", s + "Foot", {1, 0.3f, 1}, std::nullopt});
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
  auto r = build_rig(r15_desc(twist));
  return std::move(r.value());
}

}  // namespace asterune::test
