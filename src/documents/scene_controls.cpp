#include "scene_controls.hpp"

#include <cmath>

#include "asterune/solvers/spring.hpp"

namespace asterune::io::detail {
namespace {

// {"position": p} | {"path": [{"t", "position"}...]} | {"part": name, "offset": p}
Target read_target(const Json& v, const std::string& pointer) {
  require_object(v, pointer);
  check_keys(v, pointer, {"position", "path", "part", "offset"});
  const Json* position = find_member(v, "position");
  const Json* path = find_member(v, "path");
  const Json* part = find_member(v, "part");
  const int forms = (position ? 1 : 0) + (path ? 1 : 0) + (part ? 1 : 0);
  if (forms != 1) fail(pointer, "a target needs exactly one of 'position', 'path' or 'part'");
  if (find_member(v, "offset") && !part) fail(child_pointer(pointer, "offset"), "'offset' only goes with 'part'");
  if (position) return target_at(read_vec3(*position, child_pointer(pointer, "position")));
  if (part) {
    glm::vec3 offset(0.0f);
    if (const Json* o = find_member(v, "offset")) offset = read_vec3(*o, child_pointer(pointer, "offset"));
    return target_on_part(read_name(*part, child_pointer(pointer, "part")), offset);
  }
  const std::string pp = child_pointer(pointer, "path");
  require_array(*path, pp);
  if (path->empty()) fail(pp, "a path needs at least one key");
  std::vector<PathKey> keys;
  for (size_t i = 0; i < path->size(); ++i) {
    const std::string kp = child_pointer(pp, i);
    const Json& k = (*path)[i];
    require_object(k, kp);
    check_keys(k, kp, {"t", "position"});
    PathKey key;
    key.t = read_float(require_member(k, kp, "t"), child_pointer(kp, "t"));
    key.position = read_vec3(require_member(k, kp, "position"), child_pointer(kp, "position"));
    if (!keys.empty() && key.t < keys.back().t) fail(child_pointer(kp, "t"), "path times must not decrease");
    keys.push_back(key);
  }
  return target_path(std::move(keys));
}

float read_weight(const Json& v, const std::string& pointer) {
  const float w = read_float(v, pointer);
  if (w < 0.0f || w > 1.0f) fail(pointer, "must be in [0, 1]");
  return w;
}

float read_angle_limit(const Json& v, const std::string& pointer) {
  const float a = read_float(v, pointer);
  if (a < 0.0f || a > 180.0f) fail(pointer, "must be an angle in degrees in [0, 180]");
  return a;
}

// The keys every control type shares: name, priority, weight, smooth_time, enabled.
void read_common(const Json& v, const std::string& pointer, ControlDesc& d) {
  d.name = read_name(require_member(v, pointer, "name"), child_pointer(pointer, "name"));
  if (const Json* p = find_member(v, "priority")) d.priority = read_int(*p, child_pointer(pointer, "priority"));
  if (const Json* w = find_member(v, "weight")) d.weight = read_weight(*w, child_pointer(pointer, "weight"));
  if (const Json* s = find_member(v, "smooth_time")) {
    d.smooth_time = read_float(*s, child_pointer(pointer, "smooth_time"));
    if (d.smooth_time < 0.0f) fail(child_pointer(pointer, "smooth_time"), "must be >= 0 seconds (0 = no smoothing)");
  }
  if (const Json* e = find_member(v, "enabled")) d.enabled = read_bool(*e, child_pointer(pointer, "enabled"));
}

float read_positive(const Json& v, const std::string& pointer, bool zero_ok) {
  const float x = read_float(v, pointer);
  if (zero_ok ? x < 0.0f : !(x > 0.0f)) fail(pointer, zero_ok ? "must be >= 0" : "must be > 0");
  return x;
}

// {"type": "feet", "legs": [{"chain_root", "end", "sole_offset"?}...], "probe_height", "max_lift",
//  "pelvis", "align_to_normal", "max_tilt_deg", "smooth_time", "up", "step_shorten_ratio", "lean",
//  "max_lean_deg"} (rules G1-G9).
ControlDesc read_feet(const Json& v, const std::string& pointer) {
  check_keys(v, pointer, {"type", "name", "legs", "probe_height", "max_lift", "pelvis", "align_to_normal",
                          "max_tilt_deg", "up", "step_shorten_ratio", "lean", "max_lean_deg", "priority", "weight",
                          "smooth_time", "enabled"});
  ControlDesc d;
  read_common(v, pointer, d);
  FeetSettings f;
  const std::string lp = child_pointer(pointer, "legs");
  const Json& legs = require_member(v, pointer, "legs");
  require_array(legs, lp);
  if (legs.empty() || legs.size() > static_cast<size_t>(kMaxFeet))
    fail(lp, "a feet control needs 1 or " + std::to_string(kMaxFeet) + " legs");
  for (size_t i = 0; i < legs.size(); ++i) {
    const std::string ip = child_pointer(lp, i);
    require_object(legs[i], ip);
    check_keys(legs[i], ip, {"chain_root", "end", "sole_offset"});
    FeetLeg leg;
    leg.chain_root = read_name(require_member(legs[i], ip, "chain_root"), child_pointer(ip, "chain_root"));
    leg.end = read_name(require_member(legs[i], ip, "end"), child_pointer(ip, "end"));
    if (const Json* o = find_member(legs[i], "sole_offset")) leg.sole_offset = read_vec3(*o, child_pointer(ip, "sole_offset"));
    f.legs.push_back(std::move(leg));
  }
  if (const Json* x = find_member(v, "probe_height")) f.probe_height = read_positive(*x, child_pointer(pointer, "probe_height"), false);
  if (const Json* x = find_member(v, "max_lift")) f.max_lift = read_positive(*x, child_pointer(pointer, "max_lift"), true);
  if (const Json* x = find_member(v, "pelvis")) f.pelvis = read_bool(*x, child_pointer(pointer, "pelvis"));
  if (const Json* x = find_member(v, "align_to_normal")) f.align_to_normal = read_bool(*x, child_pointer(pointer, "align_to_normal"));
  if (const Json* x = find_member(v, "max_tilt_deg")) {
    f.max_tilt_deg = read_float(*x, child_pointer(pointer, "max_tilt_deg"));
    if (f.max_tilt_deg < 0.0f || f.max_tilt_deg > 90.0f) fail(child_pointer(pointer, "max_tilt_deg"), "must be an angle in degrees in [0, 90]");
  }
  if (const Json* x = find_member(v, "step_shorten_ratio")) {
    f.step_shorten_ratio = read_float(*x, child_pointer(pointer, "step_shorten_ratio"));
    if (f.step_shorten_ratio < 0.0f || f.step_shorten_ratio > 1.0f)
      fail(child_pointer(pointer, "step_shorten_ratio"), "must be in [0, 1]");
  }
  if (const Json* x = find_member(v, "lean")) f.lean = read_bool(*x, child_pointer(pointer, "lean"));
  if (const Json* x = find_member(v, "max_lean_deg")) {
    f.max_lean_deg = read_float(*x, child_pointer(pointer, "max_lean_deg"));
    if (f.max_lean_deg < 0.0f || f.max_lean_deg > 45.0f) fail(child_pointer(pointer, "max_lean_deg"), "must be an angle in degrees in [0, 45]");
  }
  if (f.lean && !f.pelvis) fail(child_pointer(pointer, "lean"), "lean tilts the pelvis, so it needs \"pelvis\": true");
  if (const Json* x = find_member(v, "up")) {
    f.up = read_vec3(*x, child_pointer(pointer, "up"));
    if (!(glm::length(f.up) > 1e-6f)) fail(child_pointer(pointer, "up"), "the up vector must not be zero");
  }
  d.settings = std::move(f);
  return d;
}

float read_nonnegative(const Json& v, const std::string& pointer, float max, const char* unit) {
  const float x = read_float(v, pointer);
  if (x < 0.0f || x > max)
    fail(pointer, "must be in [0, " + std::to_string(static_cast<int>(max)) + "] (" + unit + ")");
  return x;
}

// {"type": "sphere"|"capsule", "part", "offset", ["offset_end"], "radius"}
SpringCollider read_collider(const Json& v, const std::string& pointer) {
  require_object(v, pointer);
  const std::string type = read_name(require_member(v, pointer, "type"), child_pointer(pointer, "type"));
  SpringCollider c;
  if (type == "sphere") {
    check_keys(v, pointer, {"type", "part", "offset", "radius"});
  } else if (type == "capsule") {
    check_keys(v, pointer, {"type", "part", "offset", "offset_end", "radius"});
    c.shape = SpringColliderShape::kCapsule;
    c.offset_end = read_vec3(require_member(v, pointer, "offset_end"), child_pointer(pointer, "offset_end"));
  } else {
    fail(child_pointer(pointer, "type"), "unknown collider type '" + type + "' (expected sphere or capsule)");
  }
  c.part = read_name(require_member(v, pointer, "part"), child_pointer(pointer, "part"));
  if (const Json* o = find_member(v, "offset")) c.offset = read_vec3(*o, child_pointer(pointer, "offset"));
  c.radius = read_float(require_member(v, pointer, "radius"), child_pointer(pointer, "radius"));
  if (!(c.radius > 0.0f)) fail(child_pointer(pointer, "radius"), "must be a positive number of studs");
  return c;
}

// A spring chain (rules S1-S7): no target, it follows the animated pose.
ControlDesc read_spring_control(const Json& v, const std::string& pointer) {
  check_keys(v, pointer, {"type", "name", "chain_root", "end", "end_offset", "stiffness", "damping", "gravity",
                          "colliders", "priority", "weight", "enabled"});
  ControlDesc d;
  read_common(v, pointer, d);
  SpringSettings sp;
  sp.chain_root = read_name(require_member(v, pointer, "chain_root"), child_pointer(pointer, "chain_root"));
  sp.end = read_name(require_member(v, pointer, "end"), child_pointer(pointer, "end"));
  if (const Json* o = find_member(v, "end_offset")) sp.end_offset = read_vec3(*o, child_pointer(pointer, "end_offset"));
  if (const Json* k = find_member(v, "stiffness"))
    sp.stiffness = read_nonnegative(*k, child_pointer(pointer, "stiffness"), kSpringMaxStiffness, "1/s^2");
  if (const Json* c = find_member(v, "damping"))
    sp.damping = read_nonnegative(*c, child_pointer(pointer, "damping"), kSpringMaxDamping, "1/s");
  if (const Json* g = find_member(v, "gravity")) sp.gravity = read_vec3(*g, child_pointer(pointer, "gravity"));
  if (const Json* cs = find_member(v, "colliders")) {
    const std::string cp = child_pointer(pointer, "colliders");
    require_array(*cs, cp);
    for (size_t i = 0; i < cs->size(); ++i) sp.colliders.push_back(read_collider((*cs)[i], child_pointer(cp, i)));
  }
  d.settings = sp;
  return d;
}

float read_range(const Json& v, const std::string& pointer, float lo, float hi, const char* what) {
  const float x = read_float(v, pointer);
  if (x < lo || x > hi) fail(pointer, std::string("must be ") + what);
  return x;
}

// {"part", "type": "hinge" | "cone", "axis", "min_deg", "max_deg", "cone_deg"}
IkJointLimit read_limit(const Json& v, const std::string& pointer) {
  require_object(v, pointer);
  check_keys(v, pointer, {"part", "type", "axis", "min_deg", "max_deg", "cone_deg"});
  IkJointLimit l;
  l.part = read_name(require_member(v, pointer, "part"), child_pointer(pointer, "part"));
  const std::string tp = child_pointer(pointer, "type");
  const std::string type = read_string(require_member(v, pointer, "type"), tp);
  if (type == "hinge") l.kind = JointLimitKind::kHinge;
  else if (type == "cone") l.kind = JointLimitKind::kBallSocket;
  else fail(tp, "unknown limit type '" + type + "' (expected hinge or cone)");
  l.axis = read_vec3(require_member(v, pointer, "axis"), child_pointer(pointer, "axis"));
  if (!(glm::length(l.axis) > 1e-6f)) fail(child_pointer(pointer, "axis"), "the axis must not be zero");
  const char* range = "an angle in degrees in [-180, 180]";
  if (const Json* a = find_member(v, "min_deg")) l.min_deg = read_range(*a, child_pointer(pointer, "min_deg"), -180.0f, 180.0f, range);
  if (const Json* a = find_member(v, "max_deg")) l.max_deg = read_range(*a, child_pointer(pointer, "max_deg"), -180.0f, 180.0f, range);
  if (l.min_deg > l.max_deg) fail(child_pointer(pointer, "max_deg"), "must be >= min_deg");
  if (const Json* a = find_member(v, "cone_deg")) {
    if (l.kind != JointLimitKind::kBallSocket) fail(child_pointer(pointer, "cone_deg"), "'cone_deg' only goes with type cone");
    l.cone_deg = read_range(*a, child_pointer(pointer, "cone_deg"), 0.0f, 180.0f, "an angle in degrees in [0, 180]");
  } else if (l.kind == JointLimitKind::kBallSocket) {
    fail(pointer, "a cone limit needs 'cone_deg'");
  }
  return l;
}

ReachWindow read_reach_window(const Json& v, const std::string& pointer) {
  require_object(v, pointer);
  check_keys(v, pointer, {"forward", "up", "side", "up_limit_deg", "across_limit_deg", "behind_limit_deg", "falloff_deg"});
  ReachWindow w;
  if (const Json* f = find_member(v, "forward")) w.forward = read_vec3(*f, child_pointer(pointer, "forward"));
  if (const Json* u = find_member(v, "up")) w.up = read_vec3(*u, child_pointer(pointer, "up"));
  if (const Json* sd = find_member(v, "side")) {
    const std::string sp = child_pointer(pointer, "side");
    const std::string side = read_string(*sd, sp);
    if (side == "left") w.side = -1.0f;
    else if (side == "right") w.side = 1.0f;
    else if (side == "auto") w.side = 0.0f;
    else fail(sp, "unknown side '" + side + "' (expected left, right or auto)");
  }
  const char* angle = "an angle in degrees in [0, 180]";
  if (const Json* a = find_member(v, "up_limit_deg")) w.up_limit_deg = read_range(*a, child_pointer(pointer, "up_limit_deg"), 0.0f, 180.0f, angle);
  if (const Json* a = find_member(v, "across_limit_deg"))
    w.across_limit_deg = read_range(*a, child_pointer(pointer, "across_limit_deg"), 0.0f, 180.0f, angle);
  if (const Json* a = find_member(v, "behind_limit_deg"))
    w.behind_limit_deg = read_range(*a, child_pointer(pointer, "behind_limit_deg"), 0.0f, 180.0f, angle);
  if (const Json* a = find_member(v, "falloff_deg")) w.falloff_deg = read_range(*a, child_pointer(pointer, "falloff_deg"), 0.0f, 180.0f, angle);
  return w;
}

CharacterPole read_character_pole(const Json& v, const std::string& pointer) {
  require_object(v, pointer);
  check_keys(v, pointer, {"back", "outward", "outward_deg", "slide_deg"});
  CharacterPole p;
  if (const Json* b = find_member(v, "back")) p.back = read_vec3(*b, child_pointer(pointer, "back"));
  if (const Json* o = find_member(v, "outward")) p.outward = read_vec3(*o, child_pointer(pointer, "outward"));
  if (const Json* a = find_member(v, "outward_deg"))
    p.outward_deg = read_range(*a, child_pointer(pointer, "outward_deg"), 0.0f, 90.0f, "an angle in degrees in [0, 90]");
  if (const Json* a = find_member(v, "slide_deg"))
    p.slide_deg = read_range(*a, child_pointer(pointer, "slide_deg"), 0.001f, 90.0f, "an angle in degrees in (0, 90]");
  return p;
}

ControlDesc read_control(const Json& v, const std::string& pointer) {
  require_object(v, pointer);
  const std::string type = read_name(require_member(v, pointer, "type"), child_pointer(pointer, "type"));
  if (type == "spring") return read_spring_control(v, pointer);
  if (type == "feet") return read_feet(v, pointer);
  if (type != "ik" && type != "look_at")
    fail(child_pointer(pointer, "type"), "unknown control type '" + type + "' (expected ik, look_at, spring or feet)");
  if (type == "ik")
    check_keys(v, pointer, {"type", "name", "chain_root", "end", "end_offset", "target", "pole", "solver", "priority",
                            "weight", "smooth_time", "enabled", "orientation", "soft_reach", "stretch", "tolerance",
                            "max_passes", "max_extension", "pole_turn_rate_deg_per_s", "limits", "reach_window",
                            "character_pole"});
  else
    check_keys(v, pointer, {"type", "name", "chain_root", "end", "target", "priority", "weight", "smooth_time",
                            "enabled", "forward", "yaw_limit_deg", "pitch_limit_deg", "joint_weights", "eye_offset",
                            "tracking_speed_deg_per_s", "easing", "ease_time"});

  ControlDesc d;
  read_common(v, pointer, d);
  d.target = read_target(require_member(v, pointer, "target"), child_pointer(pointer, "target"));
  const std::string chain_root = read_name(require_member(v, pointer, "chain_root"), child_pointer(pointer, "chain_root"));
  const std::string end = read_name(require_member(v, pointer, "end"), child_pointer(pointer, "end"));

  if (type == "ik") {
    IkSettings ik;
    ik.chain_root = chain_root;
    ik.end = end;
    if (const Json* o = find_member(v, "end_offset")) ik.end_offset = read_vec3(*o, child_pointer(pointer, "end_offset"));
    if (const Json* p = find_member(v, "pole")) ik.pole = read_target(*p, child_pointer(pointer, "pole"));
    if (const Json* s = find_member(v, "solver")) {
      const std::string sp = child_pointer(pointer, "solver");
      const std::string solver = read_string(*s, sp);
      if (solver == "auto") ik.solver = IkSolver::kAuto;
      else if (solver == "two_bone") ik.solver = IkSolver::kTwoBone;
      else if (solver == "fabrik") ik.solver = IkSolver::kFabrik;
      else if (solver == "ccd") ik.solver = IkSolver::kCcd;
      else fail(sp, "unknown solver '" + solver + "' (expected auto, two_bone, fabrik or ccd)");
    }
    if (const Json* o = find_member(v, "orientation"))
      ik.orientation_goal = read_placement(Json{{"rotation", *o}}, child_pointer(pointer, "orientation")).rotation;
    if (const Json* x = find_member(v, "soft_reach"))
      ik.soft_reach = read_range(*x, child_pointer(pointer, "soft_reach"), 0.0f, 0.999f, "a fraction in [0, 1) (0 = off)");
    if (const Json* x = find_member(v, "stretch"))
      ik.stretch = read_range(*x, child_pointer(pointer, "stretch"), 1.0f, 2.0f, "a factor in [1, 2] (1 = off)");
    if (const Json* x = find_member(v, "tolerance"))
      ik.tolerance = read_range(*x, child_pointer(pointer, "tolerance"), 0.0f, 1e6f, "a distance >= 0 studs");
    if (const Json* x = find_member(v, "max_passes")) {
      ik.max_passes = read_int(*x, child_pointer(pointer, "max_passes"));
      if (ik.max_passes < 1 || ik.max_passes > 64) fail(child_pointer(pointer, "max_passes"), "must be in 1..64");
    }
    if (const Json* x = find_member(v, "max_extension"))
      ik.max_extension = read_range(*x, child_pointer(pointer, "max_extension"), 0.0f, 0.999f, "a fraction in [0, 1) (0 = off)");
    if (const Json* x = find_member(v, "pole_turn_rate_deg_per_s"))
      ik.pole_turn_rate_deg_per_s =
          read_range(*x, child_pointer(pointer, "pole_turn_rate_deg_per_s"), 0.0f, 1e9f, "a rate >= 0 degrees per second (0 = unlimited)");
    if (const Json* l = find_member(v, "limits")) {
      const std::string lp = child_pointer(pointer, "limits");
      require_array(*l, lp);
      for (size_t i = 0; i < l->size(); ++i) ik.limits.push_back(read_limit((*l)[i], child_pointer(lp, i)));
    }
    if (const Json* w = find_member(v, "reach_window")) ik.reach_window = read_reach_window(*w, child_pointer(pointer, "reach_window"));
    if (const Json* p = find_member(v, "character_pole")) {
      if (ik.pole) fail(child_pointer(pointer, "character_pole"), "give either 'pole' or 'character_pole', not both");
      ik.character_pole = read_character_pole(*p, child_pointer(pointer, "character_pole"));
    }
    d.settings = ik;
  } else {
    LookAtSettings la;
    la.chain_root = chain_root;
    la.end = end;
    if (const Json* f = find_member(v, "forward")) {
      const std::string fp = child_pointer(pointer, "forward");
      la.forward = read_vec3(*f, fp);
      if (!(glm::length(la.forward) > 1e-6f)) fail(fp, "the forward axis must not be zero");
    }
    if (const Json* y = find_member(v, "yaw_limit_deg")) la.yaw_limit_deg = read_angle_limit(*y, child_pointer(pointer, "yaw_limit_deg"));
    if (const Json* p = find_member(v, "pitch_limit_deg"))
      la.pitch_limit_deg = read_angle_limit(*p, child_pointer(pointer, "pitch_limit_deg"));
    if (const Json* w = find_member(v, "joint_weights")) {
      const std::string wp = child_pointer(pointer, "joint_weights");
      require_array(*w, wp);
      for (size_t i = 0; i < w->size(); ++i) la.joint_weights.push_back(read_weight((*w)[i], child_pointer(wp, i)));
    }
    if (const Json* e = find_member(v, "eye_offset")) la.eye_offset = read_vec3(*e, child_pointer(pointer, "eye_offset"));
    if (const Json* t = find_member(v, "tracking_speed_deg_per_s"))
      la.tracking_speed_deg_per_s =
          read_range(*t, child_pointer(pointer, "tracking_speed_deg_per_s"), 0.0f, 1e9f, "a speed >= 0 degrees per second (0 = no tracking)");
    if (const Json* e = find_member(v, "easing")) la.easing = read_bool(*e, child_pointer(pointer, "easing"));
    if (const Json* e = find_member(v, "ease_time"))
      la.ease_time = read_range(*e, child_pointer(pointer, "ease_time"), 0.0f, 60.0f, "a time in [0, 60] seconds");
    d.settings = la;
  }
  return d;
}

}  // namespace

void read_scene_controls(const Json& value, const std::string& pointer, const SceneBlockContext&, SceneDesc& scene) {
  require_array(value, pointer);
  std::vector<ControlDesc> controls;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string cp = child_pointer(pointer, i);
    ControlDesc d = read_control(value[i], cp);
    for (const ControlDesc& other : controls)
      if (other.name == d.name) fail(child_pointer(cp, "name"), "control name '" + d.name + "' is used twice");
    controls.push_back(std::move(d));
  }
  scene.controls = std::move(controls);
}

}  // namespace asterune::io::detail
