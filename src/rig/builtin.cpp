#include "asterune/rig/builtin.hpp"
#include "asterune/math/cframe.hpp"

#include <array>

namespace asterune {
namespace {

struct BuiltinPart {
  const char* name;
  std::array<float, 3> size;
  std::array<float, 3> rest_position;
};

struct BuiltinJoint {
  const char* name;
  const char* part0;
  const char* part1;
  CFrameComponents c0;
  CFrameComponents c1;
};

#include "builtin_tables.inc"

constexpr std::array<std::string_view, 2> kNames{"r15", "r6"};

Transform cframe_or_identity(const CFrameComponents& c) {
  // The tables hold exact Roblox rotations; from_cframe cannot fail on them (the io test
  // checks every entry), but never crash if someone edits a table badly.
  Result<Transform> t = from_cframe(c);
  return t.ok() ? t.value() : Transform::identity();
}

template <size_t NP, size_t NJ>
RigDesc make_desc(const char* name, const BuiltinPart (&parts)[NP], const BuiltinJoint (&joints)[NJ]) {
  RigDesc desc;
  desc.name = name;
  desc.root = "HumanoidRootPart";
  desc.parts.reserve(NP);
  for (const BuiltinPart& p : parts) {
    PartDesc part;
    part.id = p.name;
    part.name = p.name;
    part.size = glm::vec3(p.size[0], p.size[1], p.size[2]);
    part.placement = Transform::from_position(glm::vec3(p.rest_position[0], p.rest_position[1], p.rest_position[2]));
    desc.parts.push_back(std::move(part));
  }
  desc.joints.reserve(NJ);
  for (const BuiltinJoint& j : joints) {
    JointDesc joint;
    joint.name = j.name;
    joint.part0 = j.part0;
    joint.part1 = j.part1;
    joint.c0 = cframe_or_identity(j.c0);
    joint.c1 = cframe_or_identity(j.c1);
    desc.joints.push_back(std::move(joint));
  }
  return desc;
}

}  // namespace

std::optional<RigDesc> builtin_rig_desc(std::string_view name) {
  constexpr std::string_view kPrefix = "builtin:";
  if (name.starts_with(kPrefix)) name.remove_prefix(kPrefix.size());
  if (name == "r15") return make_desc("R15", kR15Parts, kR15Joints);
  if (name == "r6") return make_desc("R6", kR6Parts, kR6Joints);
  return std::nullopt;
}

std::span<const std::string_view> builtin_rig_names() { return kNames; }

}  // namespace asterune
