#include "asterune/retarget/binding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "asterune/core/assert.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "core/hash.hpp"
#include "math/sse_quat.hpp"

namespace asterune {
namespace {

constexpr float kMinBoneLength = 1e-6f;

bool is_source_descendant(std::span<const int> parents, int joint, int ancestor) {
  for (int j = parents[static_cast<size_t>(joint)]; j >= 0; j = parents[static_cast<size_t>(j)])
    if (j == ancestor) return true;
  return false;
}

Status validate_source(const SourceSkeleton& source) {
  const size_t n = source.joint_names.size();
  const std::string who = "source skeleton '" + source.name + "'";
  if (n == 0) return make_error(who + ": has no joints");
  if (source.parents.size() != n || source.rest_local.size() != n)
    return make_error(who + ": joint_names, parents and rest_local sizes differ (" + std::to_string(n) + ", " +
                      std::to_string(source.parents.size()) + ", " + std::to_string(source.rest_local.size()) + ")");
  if (!source.end_sites.empty() && source.end_sites.size() != n)
    return make_error(who + ": end_sites has " + std::to_string(source.end_sites.size()) + " entries for " +
                      std::to_string(n) + " joints");
  for (size_t j = 0; j < n; ++j) {
    const int p = source.parents[j];
    if (p < -1 || p >= static_cast<int>(j))
      return make_error(who + ": joint '" + source.joint_names[j] + "' has parent index " + std::to_string(p) +
                        ", which does not come before it");
    if (!is_finite(source.rest_local[j]) || !normalized_rotation(source.rest_local[j].rotation))
      return make_error(who + ": joint '" + source.joint_names[j] + "' has a nonfinite or zero rest transform");
    if (!source.end_sites.empty() && !is_finite(source.end_sites[j]))
      return make_error(who + ": joint '" + source.joint_names[j] + "' has a nonfinite end site");
  }
  return Success{};
}

struct SourceRest {
  std::vector<glm::quat> orientation;  // G_s
  std::vector<glm::vec3> position;     // X_s
};

SourceRest source_rest(const SourceSkeleton& source) {
  const size_t n = source.joint_names.size();
  SourceRest rest{std::vector<glm::quat>(n), std::vector<glm::vec3>(n)};
  for (size_t j = 0; j < n; ++j) {
    const int p = source.parents[j];
    const glm::quat r = *normalized_rotation(source.rest_local[j].rotation);
    if (p < 0) {
      rest.orientation[j] = r;
      rest.position[j] = source.rest_local[j].position;
    } else {
      const auto up = static_cast<size_t>(p);
      rest.orientation[j] = glm::normalize(rest.orientation[up] * r);
      rest.position[j] = rest.position[up] + rest.orientation[up] * source.rest_local[j].position;
    }
  }
  return rest;
}

// Hip-to-sole length of a source leg (upper leg[, lower leg[, foot]]), in source units: the
// pivot-to-pivot lengths along the chain plus the height of the last joint above the lowest
// point of its subtree (joints and end sites) along the source's up axis. A leg of one joint
// (an R6-style single leg part) is measured from the hip to its lowest point.
Result<float> source_leg_length(const SourceSkeleton& source, const SourceRest& rest,
                                const std::vector<std::string>& leg, const glm::vec3& up) {
  if (leg.empty() || leg.size() > 3)
    return make_error("auto scale: the source leg needs 1 to 3 joints (upper leg[, lower leg[, foot]])");
  std::vector<int> idx(leg.size());
  for (size_t i = 0; i < leg.size(); ++i) {
    idx[i] = source.find(leg[i]);
    if (idx[i] < 0) return make_error("auto scale: source leg joint '" + leg[i] + "' is not in source skeleton '" + source.name + "'");
  }
  float length = 0.0f;
  for (size_t i = 1; i < idx.size(); ++i)
    length += glm::length(rest.position[static_cast<size_t>(idx[i])] - rest.position[static_cast<size_t>(idx[i - 1])]);
  const int last = idx.back();
  const glm::vec3 ankle = rest.position[static_cast<size_t>(last)];
  float sole = 0.0f;
  for (int k = 0; k < source.joint_count(); ++k) {
    if (k != last && !is_source_descendant(source.parents, k, last)) continue;
    const auto uk = static_cast<size_t>(k);
    sole = std::max(sole, glm::dot(ankle - rest.position[uk], up));
    if (!source.end_sites.empty()) {
      const glm::vec3 end = rest.position[uk] + rest.orientation[uk] * source.end_sites[uk];
      sole = std::max(sole, glm::dot(ankle - end, up));
    }
  }
  return length + sole;
}

// Hip-to-sole length of a target leg (upper leg[, lower leg[, foot]]) in studs: pivot-to-pivot
// lengths plus the height of the last pivot above the lowest corner of its part and the parts
// below it. R6's single "Left Leg" part is measured from the hip pivot to the bottom of the part.
Result<float> target_leg_length(const Rig& rig, std::span<const Transform> rest_world,
                                std::span<const glm::vec3> pivots, const std::vector<std::string>& leg) {
  if (leg.empty() || leg.size() > 3)
    return make_error("auto scale: the target leg needs 1 to 3 joints (upper leg[, lower leg[, foot]])");
  std::vector<int> idx(leg.size());
  for (size_t i = 0; i < leg.size(); ++i) {
    const JointLookup found = rig.find_joint(leg[i]);
    if (!found.found()) return make_error("auto scale: target leg joint '" + leg[i] + "': " + found.message);
    idx[i] = found.index;
  }
  float length = 0.0f;
  for (size_t i = 1; i < idx.size(); ++i)
    length += glm::length(pivots[static_cast<size_t>(idx[i])] - pivots[static_cast<size_t>(idx[i - 1])]);
  const int last = idx.back();
  const glm::vec3 ankle = pivots[static_cast<size_t>(last)];
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  float sole = 0.0f;
  for (int k = last; k < rig.subtree_end(last); ++k) {
    const Transform& w = rest_world[static_cast<size_t>(k)];
    const glm::vec3 half = 0.5f * rig.part(rig.part1()[static_cast<size_t>(k)]).size;
    for (int c = 0; c < 8; ++c) {
      const glm::vec3 corner((c & 1) ? half.x : -half.x, (c & 2) ? half.y : -half.y, (c & 4) ? half.z : -half.z);
      sole = std::max(sole, glm::dot(ankle - transform_point(w, corner), up));
    }
  }
  return length + sole;
}

// Rule RT21: the long axis of joint t's part in rig space (its longest box side), signed to
// point from the joint's pivot towards the part's centre: the direction a one-part limb hangs.
glm::vec3 part_long_axis(const Rig& rig, const Transform& part, const glm::vec3& pivot, int t) {
  const glm::vec3 size = rig.part(rig.part1()[static_cast<size_t>(t)]).size;
  glm::vec3 axis(0.0f);
  const int k = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
  axis[k] = 1.0f;
  axis = part.rotation * axis;
  return glm::dot(axis, part.position - pivot) < 0.0f ? -axis : axis;
}

}  // namespace

int RetargetBinding::mapped_count() const {
  return static_cast<int>(std::count_if(source_index.begin(), source_index.end(), [](int s) { return s >= 0; }));
}

std::uint64_t source_skeleton_key(const SourceSkeleton& source) {
  detail::Fnv1a h;
  h.str("asterune.source_skeleton/1");
  h.u64(source.joint_names.size());
  for (size_t j = 0; j < source.joint_names.size(); ++j) {
    h.str(source.joint_names[j]);
    h.i32(j < source.parents.size() ? source.parents[j] : -2);
    if (j < source.rest_local.size()) {
      const Transform& t = source.rest_local[j];
      for (float v : {t.rotation.w, t.rotation.x, t.rotation.y, t.rotation.z, t.position.x, t.position.y, t.position.z})
        h.f32(v);
    }
    if (j < source.end_sites.size())
      for (float v : {source.end_sites[j].x, source.end_sites[j].y, source.end_sites[j].z}) h.f32(v);
  }
  h.f32(source.units_to_studs);
  return h.value();
}

namespace {

// The target rig at rest, seen from each joint's attachment: R_t = rotation of P_rest * C0 and
// the pivot where the joint sits, plus every part's rest placement.
struct TargetRest {
  std::vector<Transform> world;
  std::vector<glm::quat> attachment;  // R_t
  std::vector<glm::vec3> pivot;
};

TargetRest target_rest(const Rig& rig) {
  const auto nt = static_cast<size_t>(rig.joint_count());
  TargetRest rest{std::vector<Transform>(nt), std::vector<glm::quat>(nt), std::vector<glm::vec3>(nt)};
  evaluate_rest_world(rig, Transform::identity(), rest.world);
  for (size_t t = 0; t < nt; ++t) {
    const int jt = static_cast<int>(t);
    const Transform a = attachment_frame(rig, parent_placement(rig, Transform::identity(), rest.world, jt), jt);
    rest.attachment[t] = glm::normalize(a.rotation);
    rest.pivot[t] = a.position;
  }
  return rest;
}

// Resolves the profile's names into b.source_index and b.aim_source (rule RT21 for aims).
Status resolve_mapping(const SourceSkeleton& source, const Rig& rig, const RetargetProfile& profile,
                       const std::string& who, RetargetBinding& b) {
  for (const JointMapping& m : profile.joints) {
    const JointLookup t = rig.find_joint(m.target);
    if (!t.found())
      return make_error(who + ": target joint '" + m.target + "' in rig '" + rig.name() + "': " + t.message);
    const int s = source.find(m.source);
    if (s < 0)
      return make_error(who + ": source joint '" + m.source + "' (for target '" + m.target +
                        "') is not in source skeleton '" + source.name + "'");
    int& slot = b.source_index[static_cast<size_t>(t.index)];
    if (slot >= 0)
      return make_error(who + ": target joint '" + m.target + "' is mapped twice (sources '" +
                        source.joint_names[static_cast<size_t>(slot)] + "' and '" + m.source + "')");
    slot = s;
    if (!m.aim.empty()) {
      const int a = source.find(m.aim);
      if (a < 0 || a == s || !is_source_descendant(source.parents, a, s))
        return make_error(who + ": aim joint '" + m.aim + "' (for target '" + m.target + "') is not below source joint '" +
                          m.source + "' in source skeleton '" + source.name + "'");
      b.aim_source[static_cast<size_t>(t.index)] = a;
    }
  }
  return Success{};
}

// Nearest mapped strict ancestor of every target joint (parents come first in the layout).
std::vector<int> nearest_mapped_ancestors(const Rig& rig, std::span<const int> source_index) {
  std::vector<int> mapped_ancestor(static_cast<size_t>(rig.joint_count()), -1);
  for (int t = 0; t < rig.joint_count(); ++t) {
    const int p = rig.parent(t);
    if (p < 0) continue;
    mapped_ancestor[static_cast<size_t>(t)] =
        source_index[static_cast<size_t>(p)] >= 0 ? p : mapped_ancestor[static_cast<size_t>(p)];
  }
  return mapped_ancestor;
}

// Rule RT3: the rest correction M_t of mapped joint t. One bone direction when it has exactly
// one mapped child whose source joint descends from its own source joint; otherwise (and
// before that test) the correction of the nearest mapped ancestor, so hands, feet and heads
// turn rigidly with their limb. A one-part limb with an aim (rule RT21) takes the source limb's
// direction along its part's long axis instead.
glm::quat rest_correction(const SourceSkeleton& source, const SourceRest& src, const Rig& rig, const TargetRest& rest,
                          const RetargetProfile& profile, std::span<const int> mapped_ancestor, const RetargetBinding& b,
                          int t) {
  const auto ut = static_cast<size_t>(t);
  const int s = b.source_index[ut];
  const int anc = mapped_ancestor[ut];
  glm::quat m = anc >= 0 ? b.rest_correction[static_cast<size_t>(anc)] : glm::quat(1, 0, 0, 0);
  if (!profile.rest_matching) return m;
  int child = -1;
  int count = 0;
  for (int c = t + 1; c < rig.subtree_end(t); ++c) {
    const int sc = b.source_index[static_cast<size_t>(c)];
    if (sc < 0 || mapped_ancestor[static_cast<size_t>(c)] != t) continue;
    if (!is_source_descendant(source.parents, sc, s)) continue;
    child = c;
    ++count;
  }
  if (count == 1) {
    const glm::vec3 ds = b.facing * (src.position[static_cast<size_t>(b.source_index[static_cast<size_t>(child)])] -
                                     src.position[static_cast<size_t>(s)]);
    const glm::vec3 dt = rest.pivot[static_cast<size_t>(child)] - rest.pivot[ut];
    if (glm::length(ds) > kMinBoneLength && glm::length(dt) > kMinBoneLength)
      m = rotation_between(glm::normalize(ds), glm::normalize(dt));
  }
  if (b.aim_source[ut] >= 0) {
    // The one-part limb's rest direction (its part's long axis, the way from the pivot to the
    // part's centre) takes the source limb's (driving joint to aim joint).
    const glm::vec3 ds =
        b.facing * (src.position[static_cast<size_t>(b.aim_source[ut])] - src.position[static_cast<size_t>(s)]);
    const glm::vec3 dt = part_long_axis(rig, rest.world[ut], rest.pivot[ut], t);
    if (glm::length(ds) > kMinBoneLength && glm::length(dt) > kMinBoneLength)
      m = rotation_between(glm::normalize(ds), glm::normalize(dt));
  }
  return m;
}

// Rest corrections, carry rotations K_t = G_s^-1 * F^-1 * M_t^-1 * R_t and aim directions of
// every mapped joint (rules RT2, RT3, RT21).
void match_rest(const SourceSkeleton& source, const SourceRest& src, const Rig& rig, const TargetRest& rest,
                const RetargetProfile& profile, RetargetBinding& b) {
  const std::vector<int> mapped_ancestor = nearest_mapped_ancestors(rig, b.source_index);
  for (int t = 0; t < rig.joint_count(); ++t) {
    const auto ut = static_cast<size_t>(t);
    const int s = b.source_index[ut];
    if (s < 0) continue;
    const glm::quat m = rest_correction(source, src, rig, rest, profile, mapped_ancestor, b, t);
    if (b.aim_source[ut] >= 0) {
      const glm::vec3 d = src.position[static_cast<size_t>(b.aim_source[ut])] - src.position[static_cast<size_t>(s)];
      if (glm::length(d) > kMinBoneLength)
        b.aim_rest[ut] = glm::conjugate(src.orientation[static_cast<size_t>(s)]) * glm::normalize(d);
      else
        b.aim_source[ut] = -1;  // a zero-length limb has no direction to follow
    }
    b.rest_correction[ut] = m;
    b.carry[ut] = glm::normalize(glm::conjugate(src.orientation[static_cast<size_t>(s)]) * glm::conjugate(b.facing) *
                                 glm::conjugate(m) * rest.attachment[ut]);
    b.source_rest_position[ut] = src.position[static_cast<size_t>(s)];
  }
}

// Travel (RT6, RT10): a mapped source joint carries travel when it is a source root, or hangs
// below one through joints that each have this one child (a root bone above the hips:
// "Armature", "Root"), mapped or not. Its motion is taken in skeleton space, through those
// animated ancestors, so a root bone's travel folds onto the pelvis instead of being lost, and
// when the root bone drives a target root bone of its own, the pelvis still lands where the
// hips go. A limb mapped alone (its ancestors branch) never translates.
void mark_travel(const SourceSkeleton& source, const TargetRest& rest, RetargetBinding& b) {
  const int ns = source.joint_count();
  std::vector<int> child_count(static_cast<size_t>(ns), 0);
  for (int s = 0; s < ns; ++s)
    if (source.parents[static_cast<size_t>(s)] >= 0) ++child_count[static_cast<size_t>(source.parents[static_cast<size_t>(s)])];
  for (int t = 0; t < b.target_joint_count; ++t) {
    const int s = b.source_index[static_cast<size_t>(t)];
    if (s < 0) continue;
    bool travels = true;
    for (int a = source.parents[static_cast<size_t>(s)]; a >= 0; a = source.parents[static_cast<size_t>(a)])
      if (child_count[static_cast<size_t>(a)] != 1) travels = false;
    if (!travels) continue;
    b.translates[static_cast<size_t>(t)] = 1;
    b.rest_pivot[static_cast<size_t>(t)] = rest.pivot[static_cast<size_t>(t)];
    for (int a = s; a >= 0; a = source.parents[static_cast<size_t>(a)]) b.source_travel_chain[static_cast<size_t>(a)] = 1;
  }
}

// What the sampler reads (rule RT5: the rest is written identity with coverage 0): source
// joints that drive a target joint and their ancestors, target joints that are mapped and
// their ancestors (parents come before children on both sides).
void mark_needed(const SourceSkeleton& source, const Rig& rig, RetargetBinding& b) {
  b.source_needed.assign(static_cast<size_t>(source.joint_count()), 0);
  b.target_needed.assign(static_cast<size_t>(rig.joint_count()), 0);
  for (int t = rig.joint_count() - 1; t >= 0; --t) {
    const auto ut = static_cast<size_t>(t);
    if (b.source_index[ut] >= 0) b.target_needed[ut] = 1;
    const int p = rig.parent(t);
    if (b.target_needed[ut] && p >= 0) b.target_needed[static_cast<size_t>(p)] = 1;
    for (int a = b.source_index[ut]; a >= 0 && !b.source_needed[static_cast<size_t>(a)];
         a = source.parents[static_cast<size_t>(a)])
      b.source_needed[static_cast<size_t>(a)] = 1;
    for (int a = b.aim_source[ut]; a >= 0 && !b.source_needed[static_cast<size_t>(a)];
         a = source.parents[static_cast<size_t>(a)])
      b.source_needed[static_cast<size_t>(a)] = 1;
  }
}

// Travel reference on the ground (profile.rest_on_ground): lift the root's rest position so
// that the lowest rest point is at height 0 along the source up; with a floor (rule RT16), so
// that it is at the floor's height.
void place_rest_on_floor(const SourceSkeleton& source, const SourceRest& src, float floor, RetargetBinding& b) {
  const glm::vec3 up_source = glm::conjugate(b.facing) * glm::vec3(0.0f, 1.0f, 0.0f);
  float lowest = std::numeric_limits<float>::infinity();
  for (int s = 0; s < source.joint_count(); ++s) {
    const auto us = static_cast<size_t>(s);
    lowest = std::min(lowest, glm::dot(src.position[us], up_source));
    if (!source.end_sites.empty())
      lowest = std::min(lowest, glm::dot(src.position[us] + src.orientation[us] * source.end_sites[us], up_source));
  }
  for (int t = 0; t < b.target_joint_count; ++t)
    if (b.translates[static_cast<size_t>(t)]) b.source_rest_position[static_cast<size_t>(t)] += (floor - lowest) * up_source;
}

// Translation scale (RT6): the profile's, or the target's leg over the source's.
Status set_translation_scale(const SourceSkeleton& source, const SourceRest& src, const Rig& rig,
                             const TargetRest& rest, const RetargetProfile& profile, const std::string& who,
                             RetargetBinding& b) {
  const float units = (std::isfinite(source.units_to_studs) && source.units_to_studs > 0.0f) ? source.units_to_studs : 1.0f;
  if (profile.auto_scale) {
    const glm::vec3 up_source = glm::conjugate(b.facing) * glm::vec3(0.0f, 1.0f, 0.0f);
    auto ls = source_leg_length(source, src, profile.source_leg, up_source);
    if (!ls) return make_error(who + ": " + ls.message());
    auto lt = target_leg_length(rig, rest.world, rest.pivot, profile.target_leg);
    if (!lt) return make_error(who + ": " + lt.message());
    b.source_leg_length = ls.value() * units;
    b.target_leg_length = lt.value();
    if (!(b.source_leg_length > kMinBoneLength) || !(b.target_leg_length > kMinBoneLength) ||
        !std::isfinite(b.source_leg_length) || !std::isfinite(b.target_leg_length))
      return make_error(who + ": auto scale: a leg has zero length (source " + std::to_string(b.source_leg_length) +
                        ", target " + std::to_string(b.target_leg_length) + " studs)");
    b.scale = b.target_leg_length / b.source_leg_length;
  } else {
    b.scale = (std::isfinite(profile.scale) && profile.scale > 0.0f) ? profile.scale : 1.0f;
  }
  b.translation = profile.translation;
  b.translation_scale = profile.translation ? units * b.scale : 0.0f;
  return Success{};
}

// The binding's identity and its per-joint arrays at their neutral values.
RetargetBinding empty_binding(const SourceSkeleton& source, const Rig& rig, const RetargetProfile& profile,
                              const glm::quat& facing) {
  const auto nt = static_cast<size_t>(rig.joint_count());
  const auto ns = static_cast<size_t>(source.joint_count());
  RetargetBinding b;
  b.profile_key = profile_key(profile);
  b.target_signature = rig.signature();
  b.source_key = source_skeleton_key(source);
  b.target_joint_count = rig.joint_count();
  b.source_joint_count = source.joint_count();
  b.facing = facing;
  b.source_index.assign(nt, -1);
  b.carry.assign(nt, glm::quat(1, 0, 0, 0));
  b.rest_correction.assign(nt, glm::quat(1, 0, 0, 0));
  b.aim_source.assign(nt, -1);
  b.aim_rest.assign(nt, glm::vec3(0.0f));
  b.translates.assign(nt, 0);
  b.source_rest_position.assign(nt, glm::vec3(0.0f));
  b.rest_pivot.assign(nt, glm::vec3(0.0f));
  b.source_parents = source.parents;
  b.source_rest_rotation.resize(ns);
  for (size_t s = 0; s < ns; ++s) b.source_rest_rotation[s] = *normalized_rotation(source.rest_local[s].rotation);
  return b;
}

}  // namespace

Result<RetargetBinding> build_retarget_binding(const SourceSkeleton& source, const Rig& rig,
                                               const RetargetProfile& profile) {
  if (Status s = validate_source(source); !s) return s.error();
  const std::string who = "retarget profile '" + profile.name + "'";
  const auto facing = normalized_rotation(profile.facing);
  if (!facing) return make_error(who + ": facing alignment is zero or nonfinite");
  if (profile.floor && !std::isfinite(*profile.floor)) return make_error(who + ": the floor height is nonfinite");

  RetargetBinding b = empty_binding(source, rig, profile, *facing);
  if (Status s = resolve_mapping(source, rig, profile, who, b); !s) return s.error();
  const SourceRest src = source_rest(source);
  const TargetRest rest = target_rest(rig);
  match_rest(source, src, rig, rest, profile, b);
  b.source_travel_chain.assign(static_cast<size_t>(source.joint_count()), 0);
  if (profile.translation) mark_travel(source, rest, b);
  mark_needed(source, rig, b);
  if (profile.rest_on_ground || profile.floor) place_rest_on_floor(source, src, profile.floor.value_or(0.0f), b);
  if (Status s = set_translation_scale(source, src, rig, rest, profile, who, b); !s) return s.error();
  return b;
}

// Rig-space placement (root part at identity) of the part joint j places, from the T already
// written to `target_local` for j and its ancestors. Walks up the ancestors: used only for
// the translating joints, so the per-joint walk carries rotations alone.
namespace {
Transform rig_space_placement(const Rig& rig, std::span<const Transform> target_local, size_t j) {
  const auto parents = rig.parents();
  const auto c0 = rig.c0();
  const auto c1_inverse = rig.c1_inverse();
  Transform placement = c0[j] * target_local[j] * c1_inverse[j];
  size_t top = j;
  for (int a = parents[j]; a >= 0; a = parents[static_cast<size_t>(a)]) {
    const auto ua = static_cast<size_t>(a);
    placement = c0[ua] * target_local[ua] * c1_inverse[ua] * placement;
    top = ua;
  }
  return rig.anchor()[top] * placement;
}
}  // namespace

namespace {
// Rule RT21: the swing (skeleton space) that turns the driving joint's rest limb direction,
// as it is now, onto the direction to the aim joint this frame (summed along the chain from the
// source's sampled orientations and local offsets); identity when either is degenerate.
QuatReg aim_swing(const RetargetBinding& b, std::span<const Transform> source_local, const RetargetContext& ctx,
                  size_t t) {
  const auto s = static_cast<size_t>(b.source_index[t]);
  glm::vec3 to_end(0.0f);
  for (int c = b.aim_source[t]; c >= 0 && static_cast<size_t>(c) != s; c = b.source_parents[static_cast<size_t>(c)]) {
    const int p = b.source_parents[static_cast<size_t>(c)];
    if (p < 0) break;
    to_end += ctx.source_orientation[static_cast<size_t>(p)] * source_local[static_cast<size_t>(c)].position;
  }
  const glm::vec3 now = ctx.source_orientation[s] * b.aim_rest[t];
  const float len = glm::length(to_end);
  if (!(len > 1e-6f) || !std::isfinite(len) || !is_finite(now)) return qload(glm::quat(1, 0, 0, 0));
  return qload(rotation_between(now, to_end / len));
}
}  // namespace

RetargetContext make_retarget_context(const RetargetBinding& binding) {
  RetargetContext c;
  c.source_orientation.assign(static_cast<size_t>(binding.source_joint_count), glm::quat(1, 0, 0, 0));
  c.source_position.assign(static_cast<size_t>(binding.source_joint_count), glm::vec3(0.0f));
  c.target_rotation.assign(static_cast<size_t>(binding.target_joint_count), glm::quat(1, 0, 0, 0));
  return c;
}

RetargetReport sample_retarget(const RetargetBinding& b, const Rig& rig, std::span<const Transform> source_local,
                               std::span<const float> source_coverage, RetargetContext& ctx,
                               std::span<Transform> target_local, std::span<float> target_coverage) {
  RetargetReport report;
  const auto nt = static_cast<size_t>(b.target_joint_count);
  const auto ns = static_cast<size_t>(b.source_joint_count);
  ASTERUNE_EXPECT_OR_RETURN(
      rig.signature() == b.target_signature && static_cast<size_t>(rig.joint_count()) == nt &&
          source_local.size() == ns && (source_coverage.empty() || source_coverage.size() == ns) &&
          target_local.size() == nt && target_coverage.size() == nt && ctx.source_orientation.size() == ns &&
          ctx.source_position.size() == ns && ctx.target_rotation.size() == nt && b.source_travel_chain.size() == ns &&
          b.source_needed.size() == ns && b.target_needed.size() == nt,
      "the rig is the binding's target and every span matches the binding's joint counts", report);

  // Source side: S_s = S_parent * L_s, L_s the full sampled local rotation (= rest * delta).
  // Products of unit quaternions stay unit to float rounding along a chain this short, so
  // only the input rotations are normalized (and only when they are off by more than that).
  // A joint that drives no target joint, directly or through a descendant, is skipped.
  for (size_t s = 0; s < ns; ++s) {
    if (!b.source_needed[s]) continue;
    glm::quat q = source_local[s].rotation;
    const float n2 = glm::dot(q, q);
    if (!(std::abs(n2 - 1.0f) <= 4e-7f)) {  // also false for NaN
      if (auto n = normalized_rotation(q)) {
        q = *n;
      } else {
        q = b.source_rest_rotation[s];
        ++report.sanitized;
      }
    }
    const int p = b.source_parents[s];
    if (p >= 0) {
      qstore(qmul(qload(ctx.source_orientation[static_cast<size_t>(p)]), qload(q)), ctx.source_orientation[s]);
    } else {
      ctx.source_orientation[s] = q;
    }
    // Skeleton-space positions, only along the chains that carry travel (nonfinite values
    // propagate and are caught at the translating joint).
    if (b.source_travel_chain[s]) {
      const glm::vec3& lp = source_local[s].position;
      ctx.source_position[s] =
          p >= 0 ? ctx.source_position[static_cast<size_t>(p)] + ctx.source_orientation[static_cast<size_t>(p)] * lp : lp;
    }
  }

  // Target side, parents first: drive the joint frame, convert through the CURRENT parent.
  // Only rotations are needed: the frame F = P * C0 * T fixes T = (P C0)^-1 F, and the part's
  // rig-space rotation is F * C1^-1.
  const auto parents = rig.parents();
  const auto c0 = rig.c0();
  const auto c1_inverse = rig.c1_inverse();
  const auto anchor = rig.anchor();
  // Quaternions stay in registers (math/sse_quat.hpp); an exact identity C0 or C1 (a
  // translation-only attachment) skips its product, which would change no bit.
  for (size_t t = 0; t < nt; ++t) {
    if (!b.target_needed[t]) {  // no source drives it or anything below it (rule RT5)
      target_local[t] = Transform::identity();
      target_coverage[t] = 0.0f;
      continue;
    }
    const int p = parents[t];
    const QuatReg parent = qload(p >= 0 ? ctx.target_rotation[static_cast<size_t>(p)] : anchor[t].rotation);
    const QuatReg c0q = qload(c0[t].rotation);
    const QuatReg attach = qis_identity(c0q) ? parent : qmul(parent, c0q);
    const int s = b.source_index[t];
    Transform local = Transform::identity();
    float coverage = 0.0f;
    // The part's rig-space rotation is F * C1^-1 for a driven joint, straight from the frame
    // rather than through attach * T (equal to rounding), so no joint waits on its parent's
    // normalized T; an undriven joint (T = identity) hangs from its attachment.
    QuatReg frame = attach;
    if (s >= 0) {
      const auto us = static_cast<size_t>(s);
      // Rule RT21: a one-part limb turns by the swing onto its aim joint first: F * A * S_s * K.
      const QuatReg oriented = b.aim_source[t] >= 0 ? qmul(aim_swing(b, source_local, ctx, t), qload(ctx.source_orientation[us]))
                                                    : qload(ctx.source_orientation[us]);
      frame = qmul(qmul(qload(b.facing), oriented), qload(b.carry[t]));
      qstore(qnormalize(qmul(qconjugate(attach), frame)), local.rotation);
      if (b.translates[t]) {
        glm::quat attach_rotation;
        qstore(attach, attach_rotation);
        const glm::vec3 sp = ctx.source_position[us];
        // A huge source position or scale can overflow the travel: sanitized like a NaN (rule RT6).
        const glm::vec3 travel = b.facing * (sp - b.source_rest_position[t]) * b.translation_scale;
        // Rule RT10: the pivot goes to rest pivot + travel in rig space, so the offset from the
        // current attachment adds what the animated parents moved it away from its rest place
        // (exactly zero for a joint on the root part, whose attachment never moves).
        const Transform parent_placement =
            p >= 0 ? rig_space_placement(rig, target_local, static_cast<size_t>(p)) : anchor[t];
        const glm::vec3 attach_position = transform_point(parent_placement, c0[t].position);
        const glm::vec3 moved = glm::conjugate(attach_rotation) * (travel + (b.rest_pivot[t] - attach_position));
        if (is_finite(sp) && is_finite(moved)) {
          local.position = moved;
          // Finite travel that still overflows the part's placement gives no travel either.
          if (!is_finite(parent_placement * c0[t] * local * c1_inverse[t])) {
            local.position = glm::vec3(0.0f);
            ++report.sanitized;
          }
        } else {
          ++report.sanitized;
        }
      }
      coverage = source_coverage.empty() ? 1.0f : source_coverage[us];
      coverage = std::isfinite(coverage) ? std::clamp(coverage, 0.0f, 1.0f) : 0.0f;
      ++report.mapped;
    }
    const QuatReg c1q = qload(c1_inverse[t].rotation);
    qstore(qis_identity(c1q) ? frame : qmul(frame, c1q), ctx.target_rotation[t]);
    target_local[t] = local;
    target_coverage[t] = coverage;
  }
  report.ok = true;
  return report;
}

}  // namespace asterune
