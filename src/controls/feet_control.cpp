#include "controls/feet_control.hpp"

#include <algorithm>
#include <cmath>

#include "controls/ground_detail.hpp"
#include "controls/rig_chain.hpp"
#include "asterune/math/scalar.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "asterune/solvers/two_bone.hpp"

namespace asterune::detail {

namespace {

// Below these a lift, a tilt or a pelvis drop counts as none, so float noise in the reference
// height never bends a straight leg on flat ground (the pose stays bit-identical).
constexpr float kLiftDeadBand = 1e-4f;   // studs
constexpr float kTiltDeadBand = 1e-5f;   // radians

// A usable engine hit: finite point, finite nonzero normal (normalized here). Else a miss.
GroundHit sanitize(const GroundHit& h) {
  if (!h.hit || !is_finite(h.point) || !is_finite(h.normal)) return GroundHit{};
  const float len = glm::length(h.normal);
  if (!(len > 1e-6f) || !std::isfinite(len)) return GroundHit{};
  GroundHit out = h;
  out.normal = h.normal / len;
  return out;
}

}  // namespace

float foot_ground_weight(bool hit, float clearance) {
  if (!hit || std::isnan(clearance)) return 0.0f;
  return std::clamp(1.0f - clearance / kSwingClearance, 0.0f, 1.0f);
}

glm::vec3 blend_ground_normal(const glm::vec3& a, float wa, const glm::vec3& b, float wb, const glm::vec3& up) {
  const float ka = wa > 0.0f ? wa : 0.0f;  // NaN -> 0
  const float kb = wb > 0.0f ? wb : 0.0f;
  if (!(ka + kb > 0.0f)) return up;  // nothing to measure a slope from: level
  const glm::vec3 m = ka * a + kb * b;
  const float len = glm::length(m);
  return len > 1e-6f && std::isfinite(len) ? m / len : up;
}

glm::vec3 mirror_ground_normal(const glm::vec3& normal, const glm::vec3& up) {
  return 2.0f * glm::dot(normal, up) * up - normal;
}

float step_shorten(bool hit, float deficit, float ratio, float ahead) {
  if (!hit || !(deficit > 0.0f) || !(ratio > 0.0f)) return 0.0f;
  const float s = std::min(deficit * std::min(ratio, 1.0f), std::fabs(ahead));
  return std::isfinite(s) ? s : 0.0f;
}

Result<FeetControl> build_feet_control(const Rig& rig, const FeetSettings& s, const std::string& what) {
  FeetControl c;
  if (s.legs.empty() || s.legs.size() > static_cast<size_t>(kMaxFeet))
    return make_error(what + ": a feet control needs 1 or " + std::to_string(kMaxFeet) + " legs, got " +
                      std::to_string(s.legs.size()));
  if (!(s.probe_height > 0.0f) || !std::isfinite(s.probe_height)) return make_error(what + ": probe_height must be > 0");
  if (!(s.max_lift >= 0.0f) || !std::isfinite(s.max_lift)) return make_error(what + ": max_lift must be >= 0");
  if (!(s.max_tilt_deg >= 0.0f && s.max_tilt_deg <= 90.0f))
    return make_error(what + ": max_tilt_deg must be in [0, 90]");
  if (!(s.step_shorten_ratio >= 0.0f && s.step_shorten_ratio <= 1.0f))
    return make_error(what + ": step_shorten_ratio must be in [0, 1]");
  if (!(s.max_lean_deg >= 0.0f && s.max_lean_deg <= 45.0f))
    return make_error(what + ": max_lean_deg must be in [0, 45]");
  if (s.lean && !s.pelvis) return make_error(what + ": lean tilts the pelvis, so it needs pelvis on");
  const float up_len = glm::length(s.up);
  if (!is_finite(s.up) || !(up_len > 1e-6f)) return make_error(what + ": the up vector must be finite and not zero");
  c.probe_height = s.probe_height;
  c.max_lift = s.max_lift;
  c.align_to_normal = s.align_to_normal;
  c.max_tilt_rad = s.max_tilt_deg * kDegToRad;
  c.up_local = s.up / up_len;
  c.step_shorten_ratio = s.step_shorten_ratio;
  c.lean = s.lean;
  c.max_lean_rad = s.max_lean_deg * kDegToRad;
  c.leg_count = static_cast<int>(s.legs.size());

  std::vector<Transform> rest(static_cast<size_t>(rig.joint_count()));
  evaluate_rest_world(rig, Transform{}, rest);
  for (int i = 0; i < c.leg_count; ++i) {
    const FeetLeg& leg = s.legs[static_cast<size_t>(i)];
    const std::string lw = what + " leg " + std::to_string(i);
    auto chain = resolve_chain(rig, leg.chain_root, leg.end, lw);
    if (!chain) return chain.error();
    if (chain.value().size() != 3)
      return make_error(lw + ": the chain from '" + leg.chain_root + "' to '" + leg.end + "' has " +
                        std::to_string(chain.value().size()) + " joints; a leg needs exactly 3 (hip, knee, ankle)");
    FeetLegBound& b = c.legs[static_cast<size_t>(i)];
    std::copy(chain.value().begin(), chain.value().end(), b.joints.begin());
    const int ankle = b.joints[2];
    b.ankle_in_foot = rig.c1()[static_cast<size_t>(ankle)].position;
    if (leg.sole_offset) {
      if (!is_finite(*leg.sole_offset)) return make_error(lw + ": sole_offset is not finite");
      b.sole = *leg.sole_offset;
    } else {
      const glm::vec3 size = rig.part(rig.part1()[static_cast<size_t>(ankle)]).size;
      b.sole = glm::vec3(0.0f, -0.5f * size.y, 0.0f);
    }
    b.rest_sole_height = glm::dot(transform_point(rest[static_cast<size_t>(ankle)], b.sole), c.up_local);
    for (int k = 0; k < i; ++k)
      for (int a : c.legs[static_cast<size_t>(k)].joints)
        for (int bj : b.joints)
          if (a == bj) return make_error(lw + ": shares joint '" + rig.joint_name(a) + "' with leg " + std::to_string(k));
  }
  if (s.pelvis) {
    c.pelvis = rig.parent(c.legs[0].joints[0]);
    if (c.pelvis < 0)
      return make_error(what + ": pelvis is on but '" + s.legs[0].chain_root + "' hangs from the root part, not a joint");
    for (int i = 1; i < c.leg_count; ++i)
      if (rig.parent(c.legs[static_cast<size_t>(i)].joints[0]) != c.pelvis)
        return make_error(what + ": pelvis is on but the legs do not hang from one joint ('" + s.legs[0].chain_root +
                          "' and '" + s.legs[static_cast<size_t>(i)].chain_root + "' have different parents)");
    c.joints.push_back(c.pelvis);
  }
  for (int i = 0; i < c.leg_count; ++i)
    for (int j : c.legs[static_cast<size_t>(i)].joints) c.joints.push_back(j);
  std::sort(c.joints.begin(), c.joints.end());
  const auto slot_of = [&](int j) {
    return static_cast<int>(std::lower_bound(c.joints.begin(), c.joints.end(), j) - c.joints.begin());
  };
  if (c.pelvis >= 0) c.pelvis_slot = slot_of(c.pelvis);
  for (int i = 0; i < c.leg_count; ++i) {
    FeetLegBound& b = c.legs[static_cast<size_t>(i)];
    for (int k = 0; k < 3; ++k) b.slots[static_cast<size_t>(k)] = slot_of(b.joints[static_cast<size_t>(k)]);
  }
  return c;
}

void reset_feet_control(FeetControl& c) {
  c.has_state = false;
  c.lift.fill(0.0f);
  c.normal.fill(glm::vec3(0.0f));
  c.shorten.fill(0.0f);
  c.lean_direction = glm::vec3(0.0f);
}

namespace {

// What every stage of one feet solve reads: the frame's axes and smoothing, the animated soles
// and raw lifts, and the pelvis lean (rule G9) that carries the legs.
struct FeetFrame {
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  glm::vec3 facing{0.0f, 0.0f, -1.0f};
  float root_height = 0.0f;
  bool first = true;
  float response = 1.0f;
  std::array<glm::vec3, kMaxFeet> sole_anim{};
  std::array<GroundLift, kMaxFeet> raw{};
  glm::quat lean{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 pelvis_pivot{0.0f};
  bool leaning = false;

  glm::vec3 carried(const glm::vec3& p) const { return leaning ? pelvis_pivot + lean * (p - pelvis_pivot) : p; }
};

// Per leg: the tilted foot, its ankle target, the carried pivots and what the pelvis must give.
struct LegTargets {
  std::array<glm::quat, kMaxFeet> foot_rot{};
  std::array<glm::vec3, kMaxFeet> ankle_target{};
  std::array<glm::vec3, kMaxFeet> hip{}, knee{}, ankle{};
  std::array<float, kMaxFeet> need{};
  std::array<float, kMaxFeet> reach{};  // the straight leg's length, hip to knee to ankle
  std::array<bool, kMaxFeet> moved{};
};

const glm::quat kIdentity(1.0f, 0.0f, 0.0f, 0.0f);

// Rule G6: up from the root (default its +Y); the knee pole follows the root's facing (-Z).
FeetFrame feet_frame(const FeetControl& c, const Transform& root, float dt, float smooth_time) {
  FeetFrame f;
  f.up = glm::normalize(root.rotation * c.up_local);
  glm::vec3 facing = root.rotation * glm::vec3(0.0f, 0.0f, -1.0f);
  facing -= f.up * glm::dot(facing, f.up);
  f.facing = glm::length(facing) > 1e-4f ? glm::normalize(facing) : any_orthogonal(f.up);
  f.root_height = glm::dot(root.position, f.up);
  f.first = !c.has_state;
  f.response = f.first ? 1.0f : smoothing_response(dt, smooth_time);
  return f;
}

// Rule G1: one ray per foot, from probe_height above the animated sole down through 2 x probe_height.
void cast_feet_rays(FeetControl& c, const GroundQuery* ground, std::span<const Transform> world, FeetFrame& f) {
  const auto n = static_cast<size_t>(c.leg_count);
  for (size_t i = 0; i < n; ++i) {
    const FeetLegBound& b = c.legs[i];
    f.sole_anim[i] = transform_point(world[static_cast<size_t>(b.joints[2])], b.sole);
    c.rays[i] = GroundRay{f.sole_anim[i] + c.probe_height * f.up, -f.up, 2.0f * c.probe_height};
    c.hits[i] = GroundHit{};
  }
  if (ground != nullptr) ground->cast(std::span<const GroundRay>(c.rays.data(), n), std::span<GroundHit>(c.hits.data(), n));
  for (size_t i = 0; i < n; ++i) c.hits[i] = sanitize(c.hits[i]);  // NaN / infinite hits are misses
}

// Rule G2: lift = ground height - reference ground (rest soles carried by the root), bounded;
// rule G6: a missed ray matches the other foot's lift, else holds the animated height.
void update_lifts(FeetControl& c, FeetFrame& f) {
  const auto n = static_cast<size_t>(c.leg_count);
  for (size_t i = 0; i < n; ++i) {
    const float ground_height = glm::dot(c.hits[i].point, f.up);
    f.raw[i] = clamp_ground_lift(c.hits[i].hit, ground_height - (f.root_height + c.legs[i].rest_sole_height), c.max_lift);
  }
  for (size_t i = 0; i < n; ++i) {
    float target_lift = f.raw[i].lift;
    if (f.raw[i].missed) target_lift = (n == 2) ? resolve_missed_lift(!f.raw[1 - i].missed, f.raw[1 - i].lift) : 0.0f;
    const glm::vec3 target_normal = c.hits[i].hit ? c.hits[i].normal : f.up;
    if (f.first) {
      c.lift[i] = target_lift;
      c.normal[i] = target_normal;
    } else {
      c.lift[i] += f.response * (target_lift - c.lift[i]);
      c.normal[i] = smooth_direction(c.normal[i], target_normal, f.response);
    }
    if (!std::isfinite(c.lift[i])) c.lift[i] = target_lift;
    if (!is_finite(c.normal[i])) c.normal[i] = target_normal;
  }
  c.has_state = true;
}

// Rule G9: the planted feet's ground normals, blended and mirrored into the hill, tilt the
// pelvis about its pivot; the legs then hang from the tilted hips.
void update_lean(FeetControl& c, const Rig& rig, std::span<const Transform> world, FeetFrame& f, FeetReport& fr) {
  float lean_angle = 0.0f;
  if (c.lean) {
    const auto n = static_cast<size_t>(c.leg_count);
    std::array<float, kMaxFeet> weight{};
    for (size_t i = 0; i < n; ++i)
      weight[i] = foot_ground_weight(c.hits[i].hit,
                                     glm::dot(f.sole_anim[i], f.up) - f.root_height - c.legs[i].rest_sole_height);
    const glm::vec3 blended = n == 2 ? blend_ground_normal(c.hits[0].normal, weight[0], c.hits[1].normal, weight[1], f.up)
                                     : blend_ground_normal(c.hits[0].normal, weight[0], f.up, 0.0f, f.up);
    const glm::vec3 target = mirror_ground_normal(blended, f.up);
    c.lean_direction = f.first ? target : smooth_direction(c.lean_direction, target, f.response);
    if (!is_finite(c.lean_direction)) c.lean_direction = target;
    f.lean = capped_tilt(f.up, c.lean_direction, c.max_lean_rad, &lean_angle);
    if (lean_angle < kTiltDeadBand) {
      f.lean = kIdentity;
      lean_angle = 0.0f;
    }
    f.pelvis_pivot = joint_pivot(rig, world, c.pelvis);
  }
  f.leaning = f.lean != kIdentity;
  fr.lean_deg = lean_angle * kRadToDeg;
}

// Rule G3 (and G5 for the tilt): leg i's tilted foot, sole and ankle targets and its
// ground-induced reach deficit.
void leg_target(FeetControl& c, const Rig& rig, std::span<const Transform> world, const FeetFrame& f, size_t i,
                LegTargets& l, FootReport& foot) {
  const FeetLegBound& b = c.legs[i];
  const float lift = std::fabs(c.lift[i]) < kLiftDeadBand ? 0.0f : c.lift[i];
  float tilt = 0.0f;
  bool capped = false;
  glm::quat q = kIdentity;
  if (c.align_to_normal) q = capped_tilt(f.up, c.normal[i], c.max_tilt_rad, &tilt, &capped);
  if (tilt < kTiltDeadBand) {
    q = kIdentity;
    tilt = 0.0f;
  }
  foot.hit = c.hits[i].hit;
  foot.ray_origin = c.rays[i].origin;
  foot.ray_end = foot.hit ? c.hits[i].point : c.rays[i].origin + c.rays[i].length * c.rays[i].direction;
  foot.hit_normal = foot.hit ? c.hits[i].normal : f.up;
  foot.lift = lift;
  foot.tilt_deg = tilt * kRadToDeg;
  foot.clamped = f.raw[i].clamped || capped;
  const Transform& foot_w = world[static_cast<size_t>(b.joints[2])];
  l.foot_rot[i] = q == kIdentity ? foot_w.rotation : glm::normalize(q * foot_w.rotation);
  c.sole_target[i] = f.sole_anim[i] + lift * f.up;
  // The sole, not the ankle, lands: the ankle sits where the tilted foot puts it above the sole.
  l.ankle_target[i] = c.sole_target[i] + l.foot_rot[i] * (b.ankle_in_foot - b.sole);
  l.hip[i] = f.carried(joint_pivot(rig, world, b.joints[0]));
  l.knee[i] = f.carried(joint_pivot(rig, world, b.joints[1]));
  l.ankle[i] = f.carried(joint_pivot(rig, world, b.joints[2]));
  l.moved[i] = lift != 0.0f || q != kIdentity;
  l.reach[i] = glm::length(l.knee[i] - l.hip[i]) + glm::length(l.ankle[i] - l.knee[i]);
}

// Rule G8: pull leg i's target back toward the point under the hip by a share of the deficit,
// then ask again what the pelvis must still give (the deficit is not split in advance: on a
// slope it is mostly vertical, shortening barely helps and the pelvis still gets it).
void shorten_step(FeetControl& c, const FeetFrame& f, size_t i, float animated_drop, LegTargets& l, FootReport& foot) {
  foot.shorten = 0.0f;
  if (!(c.step_shorten_ratio > 0.0f)) return;
  const float ahead = glm::dot(l.ankle_target[i] - l.hip[i], f.facing);
  const float target_shorten = step_shorten(!f.raw[i].missed, l.need[i], c.step_shorten_ratio, ahead);
  c.shorten[i] = f.first ? target_shorten : c.shorten[i] + f.response * (target_shorten - c.shorten[i]);
  if (!std::isfinite(c.shorten[i])) c.shorten[i] = target_shorten;
  float applied = std::min(c.shorten[i], std::fabs(ahead));  // a lagging value never passes the hip
  if (!(applied >= kLiftDeadBand)) applied = 0.0f;
  if (applied <= 0.0f) return;
  const glm::vec3 back = (ahead > 0.0f ? -applied : applied) * f.facing;
  c.sole_target[i] += back;
  l.ankle_target[i] += back;
  l.need[i] = ground_induced_drop(leg_drop_needed(l.hip[i], l.ankle_target[i], f.up, l.reach[i]), animated_drop);
  l.moved[i] = true;
  foot.shorten = applied;
}

// Rule G3/G6: the pelvis lowers by the smooth compromise of the legs' needs, never rises; the
// lean (rule G9) turns it first.
float lower_pelvis(const FeetControl& c, const Rig& rig, const Transform& root, std::span<const Transform> local,
                   std::span<const Transform> world, const FeetFrame& f, const LegTargets& l,
                   std::span<Transform> candidates) {
  const auto n = static_cast<size_t>(c.leg_count);
  float drop = 0.0f;
  if (c.pelvis >= 0) drop = n == 2 ? compromise_pelvis_drop(l.need[0], l.need[1], c.max_lift) : std::min(l.need[0], c.max_lift);
  if (!(drop >= kLiftDeadBand)) drop = 0.0f;
  if (f.leaning) {
    const int pelvis_joint[1] = {c.pelvis};
    const glm::quat pelvis_turn[1] = {f.lean};
    candidates_from_turns(rig, root, local, world, pelvis_joint, pelvis_turn,
                          candidates.subspan(static_cast<size_t>(c.pelvis_slot), 1));
  }
  if (drop > 0.0f) {
    const Transform attach = attachment_frame(rig, parent_placement(rig, root, world, c.pelvis), c.pelvis);
    Transform& t = candidates[static_cast<size_t>(c.pelvis_slot)];
    t.position += glm::conjugate(attach.rotation) * (-drop * f.up);
  }
  return drop;
}

// Rule G4: leg i solves from its lowered hip toward its ankle target; knee pole = facing.
void solve_leg(const FeetControl& c, const Rig& rig, const Transform& root, std::span<const Transform> local,
               std::span<const Transform> world, const FeetFrame& f, const LegTargets& l, size_t i, float drop,
               std::span<Transform> candidates) {
  const FeetLegBound& b = c.legs[i];
  const glm::vec3 lowered = -drop * f.up;
  TwoBoneInput in;
  in.root = l.hip[i] + lowered;
  in.mid = l.knee[i] + lowered;
  in.end = l.ankle[i] + lowered;
  in.target = l.ankle_target[i];
  in.pole = in.mid + l.reach[i] * f.facing;
  in.has_pole = true;
  const TwoBoneResult r = solve_two_bone(in);
  if (r.report.residual < 0.0f) return;  // the solver refused the input: the leg keeps its pose
  std::array<glm::quat, 3> turns{};
  turns[0] = is_finite(r.delta_upper) ? r.delta_upper : kIdentity;
  turns[1] = is_finite(r.delta_lower) ? r.delta_lower : kIdentity;
  // The foot takes its tilted world rotation whatever the leg turns (and the lean) did to it.
  const glm::quat ankle_rot = world[static_cast<size_t>(b.joints[2])].rotation;
  const glm::quat ankle_carried = glm::normalize(turns[1] * turns[0] * (f.leaning ? f.lean * ankle_rot : ankle_rot));
  turns[2] = glm::normalize(l.foot_rot[i] * glm::conjugate(ankle_carried));
  // The turns are world turns of the leaned leg; candidates_from_turns walks from the unleaned
  // pelvis in `world`, so each is taken into that frame: lean^-1 * turn * lean.
  if (f.leaning)
    for (glm::quat& t : turns)
      if (t != kIdentity) t = glm::normalize(glm::conjugate(f.lean) * t * f.lean);
  std::array<Transform, 3> out{};
  candidates_from_turns(rig, root, local, world, b.joints, turns, out);
  for (size_t k = 0; k < 3; ++k) candidates[static_cast<size_t>(b.slots[k])] = out[k];
}

}  // namespace

void solve_feet_control(FeetControl& c, const Rig& rig, const Transform& root, float dt, float smooth_time,
                        const GroundQuery* ground, std::span<const Transform> local, std::span<const Transform> world,
                        std::span<Transform> candidates, ControlReport& report) {
  for (size_t k = 0; k < c.joints.size(); ++k) candidates[k] = local[static_cast<size_t>(c.joints[k])];
  const auto n = static_cast<size_t>(c.leg_count);
  FeetReport& fr = report.feet;
  fr.foot_count = c.leg_count;

  FeetFrame f = feet_frame(c, root, dt, smooth_time);
  cast_feet_rays(c, ground, world, f);
  update_lifts(c, f);
  update_lean(c, rig, world, f, fr);
  LegTargets l;
  for (size_t i = 0; i < n; ++i) {
    leg_target(c, rig, world, f, i, l, fr.feet[i]);
    const float animated_drop = leg_drop_needed(l.hip[i], l.ankle[i], f.up, l.reach[i]);
    l.need[i] = ground_induced_drop(leg_drop_needed(l.hip[i], l.ankle_target[i], f.up, l.reach[i]), animated_drop);
    shorten_step(c, f, i, animated_drop, l, fr.feet[i]);
  }
  const float drop = lower_pelvis(c, rig, root, local, world, f, l, candidates);
  fr.pelvis_drop = drop;
  for (size_t i = 0; i < n; ++i)
    if (l.moved[i] || drop != 0.0f || f.leaning)  // flat ground: the leg stays exactly as animated
      solve_leg(c, rig, root, local, world, f, l, i, drop, candidates);
}

void measure_feet_control(const FeetControl& c, std::span<const Transform> world, ControlReport& report) {
  float worst = 0.0f;
  for (size_t i = 0; i < static_cast<size_t>(c.leg_count); ++i) {
    const FeetLegBound& b = c.legs[i];
    const glm::vec3 sole = transform_point(world[static_cast<size_t>(b.joints[2])], b.sole);
    FootReport& foot = report.feet.feet[i];
    foot.sole_error = distance_between(sole, c.sole_target[i]);  // finite for far-apart finite points
    if (foot.hit) worst = std::max(worst, foot.sole_error);
  }
  report.distance = worst;
  report.reached = worst <= 1e-3f;
}

}  // namespace asterune::detail
