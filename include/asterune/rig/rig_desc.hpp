// RigDesc: the editable description of a Motor6D-style rig (parts + joints), as read from a
// rig file, a Roblox model or a built-in table. It is plain data with no invariants; build_rig()
// validates it and turns it into the immutable runtime Rig.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "asterune/math/transform.hpp"

namespace asterune {

/// A rigid part of the character (a Roblox BasePart).
struct PartDesc {
  std::string id;    // unique key joints refer to; defaults to name in the file formats
  std::string name;  // display / lookup name; may repeat (rule R6)
  glm::vec3 size{0.0f};
  std::optional<Transform> placement;  // rest placement; places parts not reached from the root (rule R4)
};

/// A Motor6D: child placement = part0 placement * c0 * T * inverse(c1) (rule R1).
struct JointDesc {
  std::string name;
  std::string part0;  // parent part id
  std::string part1;  // child part id
  Transform c0;       // attachment frame in part0's space
  Transform c1;       // attachment frame in part1's space
  bool enabled = true;
};

struct RigDesc {
  std::string name;
  std::vector<PartDesc> parts;
  std::vector<JointDesc> joints;
  std::string root;                           // root part id; empty = choose (rule R5)
  std::map<std::string, std::string> roles;   // humanoid role -> part name overrides (rule RT8)
};

}  // namespace asterune
