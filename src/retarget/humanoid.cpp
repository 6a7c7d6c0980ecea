#include "asterune/retarget/humanoid.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "asterune/math/cframe.hpp"
#include "axes.hpp"

namespace asterune {
namespace {

constexpr std::array<const char*, kRoleCount> kRoleNames = {
    "hips", "spine", "chest", "upper_chest", "neck", "head",
    "left_shoulder", "left_upper_arm", "left_lower_arm", "left_hand",
    "right_shoulder", "right_upper_arm", "right_lower_arm", "right_hand",
    "left_upper_leg", "left_lower_leg", "left_foot", "left_toes",
    "right_upper_leg", "right_lower_leg", "right_foot", "right_toes"};

// A naming scheme: per role, the joint name(s) ('|' separates alternatives), or "" for none.
struct Scheme {
  const char* name;
  std::array<const char*, kRoleCount> names;
};

// Order matters for ties (see detect_roles).
const Scheme kSchemes[] = {
    {"roblox_r15",
     {"LowerTorso", "", "UpperTorso", "", "", "Head",
      "", "LeftUpperArm", "LeftLowerArm", "LeftHand",
      "", "RightUpperArm", "RightLowerArm", "RightHand",
      "LeftUpperLeg", "LeftLowerLeg", "LeftFoot", "",
      "RightUpperLeg", "RightLowerLeg", "RightFoot", ""}},
    {"roblox_r6",
     {"Torso", "", "", "", "", "Head",
      "", "Left Arm", "", "",
      "", "Right Arm", "", "",
      "Left Leg", "", "", "",
      "Right Leg", "", "", ""}},
    // CMU BVH, MotionBuilder-friendly (2010) and 2008 cgspeed conversions: LowerBack and Neck
    // have zero offsets; the neck bone runs Neck1 -> Head; LeftShoulder is the clavicle.
    {"cmu_bvh",
     {"Hips", "Spine", "Spine1", "", "Neck1", "Head",
      "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand",
      "RightShoulder", "RightArm", "RightForeArm", "RightHand",
      "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
      "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"}},
    // CMU BVH, 3dsMax-friendly conversion (e.g. 131_01): lowerback and lowerneck have zero
    // offsets; LeftCollar is the clavicle and LeftShoulder the upper arm.
    {"cmu_bvh_3dsmax",
     {"Hips", "Chest", "Chest2", "", "Neck", "Head",
      "LeftCollar", "LeftShoulder", "LeftElbow", "LeftWrist",
      "RightCollar", "RightShoulder", "RightElbow", "RightWrist",
      "LeftHip", "LeftKnee", "LeftAnkle", "LeftToe",
      "RightHip", "RightKnee", "RightAnkle", "RightToe"}},
    {"mixamo",
     {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head",
      "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand",
      "RightShoulder", "RightArm", "RightForeArm", "RightHand",
      "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
      "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"}},
    // Khronos CesiumMan (COLLADA2GLTF names); its arms have no clavicle joint.
    {"cesium_man",
     {"Skeleton_torso_joint_1", "Skeleton_torso_joint_2", "torso_joint_3", "", "Skeleton_neck_joint_1",
      "Skeleton_neck_joint_2",
      "", "Skeleton_arm_joint_L__4_", "Skeleton_arm_joint_L__3_", "Skeleton_arm_joint_L__2_",
      "", "Skeleton_arm_joint_R", "Skeleton_arm_joint_R__2_", "Skeleton_arm_joint_R__3_",
      "leg_joint_L_1", "leg_joint_L_2", "leg_joint_L_3", "leg_joint_L_5",
      "leg_joint_R_1", "leg_joint_R_2", "leg_joint_R_3", "leg_joint_R_5"}},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Lower case, without a namespace prefix ("mixamorig:Hips" -> "hips").
std::string normalize(std::string_view s) {
  const size_t colon = s.rfind(':');
  if (colon != std::string_view::npos) s.remove_prefix(colon + 1);
  return lower(s);
}

// Lower case without '_', ' ', '-' (for role names written as joint names, VRM style).
std::string squash(std::string_view s) {
  std::string out;
  for (char c : normalize(s))
    if (c != '_' && c != ' ' && c != '-') out.push_back(c);
  return out;
}

std::vector<std::string> split_alternatives(const char* s) {
  std::vector<std::string> out;
  std::string cur;
  for (const char* p = s; *p; ++p) {
    if (*p == '|') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(*p);
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// Fills roles from one scheme; returns how many roles matched.
int apply_scheme(const Scheme* scheme, std::span<const std::string> names, RoleMap& out) {
  int matched = 0;
  for (int r = 0; r < kRoleCount; ++r) {
    std::vector<std::string> candidates;
    if (scheme) {
      candidates = split_alternatives(scheme->names[static_cast<size_t>(r)]);
    } else {
      candidates = {kRoleNames[static_cast<size_t>(r)]};
    }
    for (const std::string& c : candidates) {
      const std::string want = scheme ? normalize(c) : squash(c);
      auto it = std::find_if(names.begin(), names.end(),
                             [&](const std::string& n) { return (scheme ? normalize(n) : squash(n)) == want; });
      if (it != names.end()) {
        out.joint[static_cast<size_t>(r)] = *it;
        out.origin[static_cast<size_t>(r)] = RoleOrigin::kName;
        ++matched;
        break;
      }
    }
  }
  return matched;
}

std::vector<glm::vec3> source_rest_positions(const SourceSkeleton& s) {
  std::vector<Transform> world(s.rest_local.size());
  source_world(s, s.rest_local, world);
  std::vector<glm::vec3> pos(world.size());
  for (size_t j = 0; j < world.size(); ++j) pos[j] = world[j].position;
  return pos;
}

using detail::snap_axis;

// Columns left, up, forward of an axis-snapped body frame, from a left-right vector and an up.
std::optional<glm::mat3> body_frame(const glm::vec3& left_minus_right, const glm::vec3& up_hint) {
  if (!is_finite(left_minus_right) || glm::length(left_minus_right) < 1e-6f) return std::nullopt;
  const glm::vec3 up = snap_axis(glm::length(up_hint) > 1e-6f ? up_hint : glm::vec3(0, 1, 0));
  glm::vec3 side = left_minus_right - glm::dot(left_minus_right, up) * up;
  if (glm::length(side) < 1e-6f) return std::nullopt;
  side = snap_axis(side);
  return glm::mat3(side, up, glm::cross(side, up));
}

template <class PositionOf>
std::optional<glm::mat3> frame_from_roles(const RoleMap& roles, PositionOf position_of) {
  const Role pairs[][2] = {{Role::kLeftUpperLeg, Role::kRightUpperLeg},
                           {Role::kLeftUpperArm, Role::kRightUpperArm},
                           {Role::kLeftShoulder, Role::kRightShoulder}};
  glm::vec3 side(0.0f);
  bool have_side = false;
  for (const auto& pr : pairs) {
    if (roles.has(pr[0]) && roles.has(pr[1])) {
      auto l = position_of(roles[pr[0]]);
      auto r = position_of(roles[pr[1]]);
      if (l && r && glm::length(*l - *r) > 1e-6f) {
        side = *l - *r;
        have_side = true;
        break;
      }
    }
  }
  if (!have_side) return std::nullopt;
  glm::vec3 up(0.0f, 1.0f, 0.0f);
  if (roles.has(Role::kHips)) {
    auto hips = position_of(roles[Role::kHips]);
    for (Role top : {Role::kHead, Role::kNeck, Role::kUpperChest, Role::kChest, Role::kSpine}) {
      if (!roles.has(top)) continue;
      auto t = position_of(roles[top]);
      if (hips && t && glm::length(*t - *hips) > 1e-6f) {
        up = *t - *hips;
        break;
      }
    }
  }
  return body_frame(side, up);
}

// Rule RT21: a target limb of one part (an upper leg or arm with no lower one and no end: R6)
// driven by a source limb that bends points from the source's upper joint at its end (the
// ankle, the wrist) rather than along the upper bone. "" when there is nothing to aim at.
std::string limb_aim(const SourceSkeleton& source, const RoleMap& src, const RoleMap& tgt, Role role) {
  const struct {
    Role upper, lower, end;
  } limbs[] = {{Role::kLeftUpperLeg, Role::kLeftLowerLeg, Role::kLeftFoot},
               {Role::kRightUpperLeg, Role::kRightLowerLeg, Role::kRightFoot},
               {Role::kLeftUpperArm, Role::kLeftLowerArm, Role::kLeftHand},
               {Role::kRightUpperArm, Role::kRightLowerArm, Role::kRightHand}};
  for (const auto& l : limbs) {
    if (role != l.upper || tgt.has(l.lower) || tgt.has(l.end) || !src.has(l.lower) || !src.has(l.end)) continue;
    const int upper = source.find(src[l.upper]);
    const int end = source.find(src[l.end]);
    if (upper < 0 || end < 0 || end == upper) return "";
    for (int j = source.parents[static_cast<size_t>(end)]; j >= 0; j = source.parents[static_cast<size_t>(j)])
      if (j == upper) return src[l.end];
    return "";
  }
  return "";
}

}  // namespace

const char* role_name(Role role) {
  const int r = static_cast<int>(role);
  return (r >= 0 && r < kRoleCount) ? kRoleNames[static_cast<size_t>(r)] : "unknown";
}

std::optional<Role> parse_role(std::string_view name) {
  const std::string want = squash(name);
  for (int r = 0; r < kRoleCount; ++r)
    if (squash(kRoleNames[static_cast<size_t>(r)]) == want) return static_cast<Role>(r);
  return std::nullopt;
}

int RoleMap::count() const {
  return static_cast<int>(std::count_if(joint.begin(), joint.end(), [](const std::string& s) { return !s.empty(); }));
}

RoleMap detect_roles(std::span<const std::string> joint_names) {
  RoleMap best;
  int best_score = 0;
  for (const Scheme& scheme : kSchemes) {
    RoleMap m;
    m.scheme = scheme.name;
    const int score = apply_scheme(&scheme, joint_names, m);
    if (score > best_score) {
      best = m;
      best_score = score;
    }
  }
  RoleMap by_role_names;
  by_role_names.scheme = "role_names";
  if (apply_scheme(nullptr, joint_names, by_role_names) > best_score) best = by_role_names;
  return best;
}

std::string describe_roles(const RoleMap& roles) {
  std::string found, missing;
  for (int r = 0; r < kRoleCount; ++r) {
    const auto u = static_cast<size_t>(r);
    if (roles.joint[u].empty()) {
      missing += (missing.empty() ? "" : ", ") + std::string(kRoleNames[u]);
      continue;
    }
    std::string how;
    switch (roles.origin[u]) {
      case RoleOrigin::kName: how = "name " + roles.scheme; break;
      case RoleOrigin::kStructure: how = "structure"; break;
      case RoleOrigin::kAuthor: how = "author"; break;
      case RoleOrigin::kNone: how = "given"; break;
    }
    found += (found.empty() ? "" : ", ") + std::string(kRoleNames[u]) + "=" + roles.joint[u] + " (" + how + ")";
  }
  if (found.empty()) found = "no role found";
  return found + (missing.empty() ? "" : "; missing: " + missing);
}

namespace {
// What a user can do when the source's roles do not resolve (kept short: errors are one line).
constexpr const char* kRoleRemedy = "; try \"rest\": {\"frame\": N} (--rest N) or an explicit \"map\"";

// The found roles' names, for one-line errors (describe_roles() is the long form).
std::string found_role_names(const RoleMap& roles) {
  std::string out;
  for (int r = 0; r < kRoleCount; ++r)
    if (!roles.joint[static_cast<size_t>(r)].empty())
      out += (out.empty() ? "" : ", ") + std::string(kRoleNames[static_cast<size_t>(r)]);
  return out.empty() ? std::string("none") : out;
}
}  // namespace

Result<RoleMap> source_roles(const SourceSkeleton& source, const std::map<std::string, std::string>& overrides) {
  RoleMap m = detect_roles(source.joint_names);
  // Rule RT11: names are the first guess; the structure fills the roles they leave empty, as
  // long as its joint has no role by name already.
  const RoleMap s = structure_roles(source);
  std::set<std::string> named(m.joint.begin(), m.joint.end());
  for (size_t r = 0; r < m.joint.size(); ++r)
    if (m.joint[r].empty() && !s.joint[r].empty() && !named.count(s.joint[r])) {
      m.joint[r] = s.joint[r];
      m.origin[r] = RoleOrigin::kStructure;
    }
  // Rule F20: the file's own bone map wins over guesses, and a joint it names keeps no other role.
  std::set<std::string> file_joints;
  for (const auto& entry : source.roles) file_joints.insert(entry.second);
  for (size_t r = 0; r < m.joint.size(); ++r)
    if (file_joints.count(m.joint[r])) {
      m.joint[r].clear();
      m.origin[r] = RoleOrigin::kNone;
    }
  for (const auto& [role, joint] : source.roles) {
    const auto r = parse_role(role);
    if (!r || source.find(joint) < 0) continue;
    m[*r] = joint;
    m.origin[static_cast<size_t>(*r)] = RoleOrigin::kAuthor;
  }
  for (const auto& [role, joint] : overrides) {
    const auto r = parse_role(role);
    if (!r) return make_error("role override '" + role + "' for source skeleton '" + source.name + "': unknown role");
    if (source.find(joint) < 0)
      return make_error("role override '" + role + "': joint '" + joint + "' is not in source skeleton '" + source.name + "'");
    m[*r] = joint;
    m.origin[static_cast<size_t>(*r)] = RoleOrigin::kAuthor;
  }
  return m;
}

Result<RoleMap> rig_roles(const Rig& rig) {
  std::vector<std::string> names;
  for (int j = 0; j < rig.joint_count(); ++j) {
    names.push_back(rig.lookup_name(j));
  }
  RoleMap m = detect_roles(names);
  for (const auto& [role, part] : rig.roles()) {
    const auto r = parse_role(role);
    if (!r) return make_error("rig '" + rig.name() + "': roles: unknown role '" + role + "'");
    const JointLookup found = rig.find_joint(part);
    if (!found.found()) return make_error("rig '" + rig.name() + "': roles: '" + role + "' -> '" + part + "': " + found.message);
    m[*r] = part;
    m.origin[static_cast<size_t>(*r)] = RoleOrigin::kAuthor;
  }
  return m;
}

RetargetPlan plan_retarget(const SourceSkeleton& source, const RoleMap& src, const Rig& rig, const RoleMap& tgt) {
  RetargetPlan plan;
  const Role torso[] = {Role::kSpine, Role::kChest, Role::kUpperChest};
  for (int r = 0; r < kRoleCount; ++r) {
    const Role role = static_cast<Role>(r);
    if (role == Role::kSpine || role == Role::kChest || role == Role::kUpperChest) continue;
    if (src.has(role) && tgt.has(role)) plan.mapped.push_back({role, tgt[role], src[role], src.origin[static_cast<size_t>(r)]});
  }
  std::vector<Role> ts, ss;
  for (Role r : torso) {
    if (tgt.has(r)) ts.push_back(r);
    if (src.has(r)) ss.push_back(r);
  }
  for (size_t i = 0; i < std::min(ts.size(), ss.size()); ++i) {
    const Role t = ts[ts.size() - 1 - i];
    const Role s = ss[ss.size() - 1 - i];
    plan.mapped.push_back({t, tgt[t], src[s], src.origin[static_cast<size_t>(s)]});
  }
  std::sort(plan.mapped.begin(), plan.mapped.end(),
            [](const RolePair& a, const RolePair& b) { return static_cast<int>(a.role) < static_cast<int>(b.role); });
  std::set<std::string> used_source, used_target;
  for (const auto& p : plan.mapped) {
    used_source.insert(p.source);
    used_target.insert(p.target);
  }
  for (const auto& n : source.joint_names)
    if (!used_source.count(n)) plan.unmapped_source.push_back(n);
  for (int j = 0; j < rig.joint_count(); ++j) {
    const std::string& plain = rig.child_name(j);
    if (!used_target.count(plain) && !used_target.count(rig.parent_name(j) + "/" + plain))
      plan.unmapped_target.push_back(rig.lookup_name(j));
  }
  return plan;
}

Result<glm::quat> auto_facing(const SourceSkeleton& source, const RoleMap& src, const Rig& rig, const RoleMap& tgt) {
  const std::vector<glm::vec3> spos = source_rest_positions(source);
  auto source_pos = [&](const std::string& name) -> std::optional<glm::vec3> {
    const int j = source.find(name);
    if (j < 0) return std::nullopt;
    return spos[static_cast<size_t>(j)];
  };
  std::vector<Transform> rest(static_cast<size_t>(rig.joint_count()));
  evaluate_rest_world(rig, Transform::identity(), rest);
  auto target_pos = [&](const std::string& name) -> std::optional<glm::vec3> {
    const JointLookup f = rig.find_joint(name);
    if (!f.found()) return std::nullopt;
    return attachment_frame(rig, parent_placement(rig, Transform::identity(), rest, f.index), f.index).position;
  };
  const auto bs = frame_from_roles(src, source_pos);
  if (!bs)
    return make_error("auto facing: source skeleton '" + source.name + "': no left/right limb pair (roles: " +
                      found_role_names(src) + ")" + kRoleRemedy);
  const auto bt = frame_from_roles(tgt, target_pos);
  if (!bt)
    return make_error("auto facing: rig '" + rig.name() + "': no left/right limb pair (roles: " + found_role_names(tgt) +
                      "); give the rig a \"roles\" block");
  auto q = rotation_from_matrix((*bt) * glm::transpose(*bs));
  if (!q) return make_error("auto facing: " + q.message());
  return q.value();
}

Result<RetargetProfile> build_auto_profile(const SourceSkeleton& source, const Rig& rig, const AutoProfileOptions& options) {
  auto src = source_roles(source, options.source_overrides);
  if (!src) return src.error();
  auto tgt = rig_roles(rig);
  if (!tgt) return tgt.error();
  const RetargetPlan plan = plan_retarget(source, src.value(), rig, tgt.value());
  if (plan.mapped.empty())
    return make_error("auto map: source skeleton '" + source.name + "' shares no humanoid role with rig '" + rig.name() +
                      "' (source roles: " + found_role_names(src.value()) + ")" + kRoleRemedy);
  auto facing = auto_facing(source, src.value(), rig, tgt.value());
  if (!facing) return facing.error();
  RetargetProfile p;
  p.name = "auto:" + source.name + "->" + rig.name();
  for (const auto& m : plan.mapped) p.joints.push_back({m.target, m.source, limb_aim(source, src.value(), tgt.value(), m.role)});
  p.facing = facing.value();
  p.rest_matching = options.rest_matching;
  p.translation = options.translation;
  p.scale = options.scale;
  p.auto_scale = options.auto_scale;
  p.rest_on_ground = options.rest_on_ground;
  if (options.auto_scale) {
    // Each side measures the leg it has: R15 and CMU have upper leg, lower leg and foot; R6 has
    // one leg part. The upper leg is required on both sides; each side's list is independent.
    const Role legs[2][3] = {{Role::kLeftUpperLeg, Role::kLeftLowerLeg, Role::kLeftFoot},
                             {Role::kRightUpperLeg, Role::kRightLowerLeg, Role::kRightFoot}};
    for (const auto& leg : legs) {
      if (!src.value().has(leg[0]) || !tgt.value().has(leg[0])) continue;
      for (Role r : leg) {
        if (src.value().has(r) && (r == leg[0] || src.value().has(leg[1]))) p.source_leg.push_back(src.value()[r]);
        if (tgt.value().has(r) && (r == leg[0] || tgt.value().has(leg[1]))) p.target_leg.push_back(tgt.value()[r]);
      }
      break;
    }
    if (p.source_leg.empty())
      return make_error("auto map: scale \"auto\" needs an upper leg on source skeleton '" + source.name + "' and rig '" +
                        rig.name() + "'; give \"scale\" a number");
  }
  return p;
}

}  // namespace asterune
