// Humanoid roles from a skeleton's structure (rule RT11): hierarchy and rest geometry only.
#include <algorithm>
#include <cmath>
#include <vector>

#include "asterune/retarget/humanoid.hpp"

namespace asterune {
namespace {

struct Geometry {
  const SourceSkeleton& s;
  std::vector<glm::vec3> pos;
  std::vector<glm::quat> rot;
  std::vector<std::vector<int>> children;
  std::vector<float> offset;  // distance to the parent's position (0 for roots)
  std::vector<float> reach;   // longest way down from the joint (children and end site)
  std::vector<int> next;      // child on that longest way, -1 at a leaf
  float eps = 0.0f;           // offsets up to this are zero-length helpers

  explicit Geometry(const SourceSkeleton& sk) : s(sk) {
    const size_t n = static_cast<size_t>(s.joint_count());
    pos.resize(n);
    rot.resize(n);
    children.resize(n);
    offset.assign(n, 0.0f);
    reach.assign(n, 0.0f);
    next.assign(n, -1);
    float longest = 0.0f;
    for (size_t j = 0; j < n; ++j) {
      const int p = s.parents[j];
      const glm::quat r = glm::normalize(s.rest_local[j].rotation);
      if (p < 0) {
        rot[j] = r;
        pos[j] = s.rest_local[j].position;
      } else {
        const auto up = static_cast<size_t>(p);
        rot[j] = glm::normalize(rot[up] * r);
        pos[j] = pos[up] + rot[up] * s.rest_local[j].position;
        offset[j] = glm::length(pos[j] - pos[up]);
        children[up].push_back(static_cast<int>(j));
        longest = std::max(longest, offset[j]);
      }
    }
    eps = 1e-4f * longest;
    for (size_t k = n; k-- > 0;) {
      reach[k] = end_site(static_cast<int>(k));
      for (int c : children[k]) {
        const float r = offset[static_cast<size_t>(c)] + reach[static_cast<size_t>(c)];
        if (next[k] < 0 || r > reach[k]) {
          reach[k] = std::max(reach[k], r);
          next[k] = c;
        }
      }
    }
  }
  float end_site(int j) const {
    return s.end_sites.size() == pos.size() ? glm::length(s.end_sites[static_cast<size_t>(j)]) : 0.0f;
  }
  bool helper(int j) const { return s.parents[static_cast<size_t>(j)] >= 0 && offset[static_cast<size_t>(j)] <= eps; }
  glm::vec3 at(int j) const { return pos[static_cast<size_t>(j)]; }
  // The end of the longest way down from j (the end site of its last joint, if any).
  glm::vec3 tip(int j) const {
    while (next[static_cast<size_t>(j)] >= 0) j = next[static_cast<size_t>(j)];
    const auto u = static_cast<size_t>(j);
    return s.end_sites.size() == pos.size() ? pos[u] + rot[u] * s.end_sites[u] : pos[u];
  }
  // The joints along the longest way down from c that are not zero-length helpers.
  std::vector<int> chain(int c) const {
    std::vector<int> out;
    for (int j = c; j >= 0; j = next[static_cast<size_t>(j)])
      if (!helper(j)) out.push_back(j);
    return out;
  }
  float branch_length(int c) const { return offset[static_cast<size_t>(c)] + reach[static_cast<size_t>(c)]; }
  bool descends(int j, int ancestor) const {
    for (; j >= 0; j = s.parents[static_cast<size_t>(j)])
      if (j == ancestor) return true;
    return false;
  }
  int common_ancestor(int a, int b) const {
    for (; a >= 0; a = s.parents[static_cast<size_t>(a)])
      if (descends(b, a)) return a;
    return -1;
  }
};

struct LimbPair {
  int joint;  // where both chains branch off
  int a, b;   // the two branch children
  float length;
};

// A limb along the branch from `c` (child of `base`): upper, lower, end (hand or foot) and the
// joint after the end (toes), picked as the two consecutive long bones followed by a short one.
struct Limb {
  int first = -1, upper = -1, lower = -1, end = -1, after = -1;
};

Limb find_limb(const Geometry& g, int base, int c) {
  Limb limb;
  limb.first = c;
  const std::vector<int> joints = g.chain(c);
  if (joints.size() < 3) return limb;
  std::vector<glm::vec3> nodes{g.at(base)};
  for (int j : joints) nodes.push_back(g.at(j));
  nodes.push_back(g.tip(c));
  std::vector<float> bone;  // bone[i]: nodes[i] -> nodes[i + 1]
  for (size_t i = 0; i + 1 < nodes.size(); ++i) bone.push_back(glm::length(nodes[i + 1] - nodes[i]));
  // Joint k (1-based along nodes) is the upper joint; k + 2 must be a joint (the end).
  size_t best = 1;
  float best_score = -1e30f;
  for (size_t k = 1; k + 2 <= joints.size(); ++k) {
    const float score = bone[k] + bone[k + 1] - bone[k + 2];
    if (score > best_score) {
      best_score = score;
      best = k;
    }
  }
  limb.upper = joints[best - 1];
  limb.lower = joints[best];
  limb.end = joints[best + 1];
  if (best + 2 < joints.size()) limb.after = joints[best + 2];
  return limb;
}

}  // namespace

RoleMap structure_roles(const SourceSkeleton& source) {
  RoleMap roles;
  const int n = source.joint_count();
  if (n == 0 || source.parents.size() != static_cast<size_t>(n) || source.rest_local.size() != static_cast<size_t>(n))
    return roles;
  const Geometry g(source);

  // Candidate limb pairs: two branches of one joint, each with 3+ real joints, lengths within 25%.
  std::vector<LimbPair> pairs;
  for (int j = 0; j < n; ++j) {
    const auto& ch = g.children[static_cast<size_t>(j)];
    for (size_t x = 0; x < ch.size(); ++x)
      for (size_t y = x + 1; y < ch.size(); ++y) {
        const int a = ch[x], b = ch[y];
        if (g.chain(a).size() < 3 || g.chain(b).size() < 3) continue;
        const float la = g.branch_length(a), lb = g.branch_length(b);
        if (!(std::min(la, lb) >= 0.8f * std::max(la, lb))) continue;
        pairs.push_back({j, a, b, la + lb});
      }
  }
  // Legs and arms: the longest two pairs where the arms hang from the spine side of the legs'
  // branch point (not inside a leg, not above it) and the legs not inside an arm.
  const LimbPair* legs = nullptr;
  const LimbPair* arms = nullptr;
  float best = -1.0f;
  for (const LimbPair& l : pairs)
    for (const LimbPair& a : pairs) {
      if (&l == &a) continue;
      if (g.descends(a.joint, l.a) || g.descends(a.joint, l.b) || g.descends(l.joint, a.a) || g.descends(l.joint, a.b))
        continue;
      if (l.joint != a.joint && g.descends(l.joint, a.joint)) continue;  // legs below the arms' joint
      if (l.joint == a.joint && (l.a == a.a || l.a == a.b || l.b == a.a || l.b == a.b || l.length < a.length)) continue;
      if (l.length + a.length > best) {
        best = l.length + a.length;
        legs = &l;
        arms = &a;
      }
    }
  if (!legs) return roles;

  auto set = [&](Role r, int j) {
    if (j < 0) return;
    roles[r] = source.joint_names[static_cast<size_t>(j)];
    roles.origin[static_cast<size_t>(r)] = RoleOrigin::kStructure;
  };
  const int hips = g.common_ancestor(legs->joint, arms->joint);
  set(Role::kHips, hips);

  // Torso: the real joints from the hips (excluded) up to the joint carrying the arms.
  std::vector<int> torso;
  for (int j = arms->joint; j >= 0 && j != hips; j = source.parents[static_cast<size_t>(j)])
    if (j == arms->joint || !g.helper(j)) torso.insert(torso.begin(), j);
  if (torso.size() == 1) {
    set(Role::kChest, torso[0]);
  } else if (torso.size() == 2) {
    set(Role::kSpine, torso[0]);
    set(Role::kChest, torso[1]);
  } else if (torso.size() >= 3) {
    set(Role::kSpine, torso[0]);
    set(Role::kChest, torso[torso.size() - 2]);
    set(Role::kUpperChest, torso.back());
  }

  // Neck and head: the longest other branch of the arms' joint.
  int head = -1;
  if (arms->joint != hips) {
    int neck_branch = -1;
    for (int c : g.children[static_cast<size_t>(arms->joint)])
      if (c != arms->a && c != arms->b && (neck_branch < 0 || g.branch_length(c) > g.branch_length(neck_branch)))
        neck_branch = c;
    if (neck_branch >= 0) {
      std::vector<int> chain = g.chain(neck_branch);
      // A trailing end joint (a leaf with no end site, e.g. glTF "HeadTop_End") is no head.
      if (chain.size() >= 3 && g.children[static_cast<size_t>(chain.back())].empty() && g.end_site(chain.back()) <= g.eps)
        chain.pop_back();
      if (!chain.empty()) {
        head = chain.size() >= 2 ? chain[1] : chain[0];
        if (chain.size() >= 2) set(Role::kNeck, chain[0]);
        set(Role::kHead, head);
      }
    }
  }

  // Limbs along each branch, then left and right by chirality.
  const Limb leg[2] = {find_limb(g, legs->joint, legs->a), find_limb(g, legs->joint, legs->b)};
  const Limb arm[2] = {find_limb(g, arms->joint, arms->a), find_limb(g, arms->joint, arms->b)};
  const glm::vec3 up = g.at(head >= 0 ? head : arms->joint) - g.at(hips);
  if (glm::length(up) <= g.eps) return roles;
  const glm::vec3 upn = glm::normalize(up);
  glm::vec3 forward(0.0f);
  for (const Limb& l : leg) forward += g.tip(l.end) - g.at(l.end);
  forward -= glm::dot(forward, upn) * upn;
  const float scale = std::max(g.branch_length(legs->a), g.eps);
  if (glm::length(forward) < 1e-3f * scale) return roles;
  const glm::vec3 left = glm::cross(upn, glm::normalize(forward));
  const float leg_side = glm::dot(g.at(leg[0].upper) - g.at(leg[1].upper), left);
  const float arm_side = glm::dot(g.at(arm[0].upper) - g.at(arm[1].upper), left);
  if (std::fabs(leg_side) < 1e-3f * scale || std::fabs(arm_side) < 1e-3f * scale) return roles;
  const Limb& left_leg = leg_side > 0.0f ? leg[0] : leg[1];
  const Limb& right_leg = leg_side > 0.0f ? leg[1] : leg[0];
  const Limb& left_arm = arm_side > 0.0f ? arm[0] : arm[1];
  const Limb& right_arm = arm_side > 0.0f ? arm[1] : arm[0];
  set(Role::kLeftUpperLeg, left_leg.upper);
  set(Role::kLeftLowerLeg, left_leg.lower);
  set(Role::kLeftFoot, left_leg.end);
  set(Role::kLeftToes, left_leg.after);
  set(Role::kRightUpperLeg, right_leg.upper);
  set(Role::kRightLowerLeg, right_leg.lower);
  set(Role::kRightFoot, right_leg.end);
  set(Role::kRightToes, right_leg.after);
  set(Role::kLeftUpperArm, left_arm.upper);
  set(Role::kLeftLowerArm, left_arm.lower);
  set(Role::kLeftHand, left_arm.end);
  set(Role::kRightUpperArm, right_arm.upper);
  set(Role::kRightLowerArm, right_arm.lower);
  set(Role::kRightHand, right_arm.end);
  // A first arm joint before the upper arm (a clavicle, even a zero-length one) is the shoulder.
  if (left_arm.first != left_arm.upper) set(Role::kLeftShoulder, left_arm.first);
  if (right_arm.first != right_arm.upper) set(Role::kRightShoulder, right_arm.first);
  return roles;
}

}  // namespace asterune
