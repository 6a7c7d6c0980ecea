#include "asterune/controls/stack.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

namespace asterune {

const char* to_string(ControlStatus status) {
  switch (status) {
    case ControlStatus::kNotRun: return "not_run";
    case ControlStatus::kSolved: return "solved";
    case ControlStatus::kDisabled: return "disabled";
    case ControlStatus::kZeroWeight: return "zero_weight";
    case ControlStatus::kBadTarget: return "bad_target";
  }
  return "unknown";
}

namespace {

bool same_bits(const Transform& a, const Transform& b) {
  return a.rotation.w == b.rotation.w && a.rotation.x == b.rotation.x && a.rotation.y == b.rotation.y &&
         a.rotation.z == b.rotation.z && a.position.x == b.position.x && a.position.y == b.position.y &&
         a.position.z == b.position.z;
}

std::span<const int> chain_of(const std::variant<IkControl, LookAtControl>& bound) {
  if (const auto* ik = std::get_if<IkControl>(&bound)) return ik->joints;
  if (const auto* la = std::get_if<LookAtControl>(&bound)) return la->joints;
  return {};
}

}  // namespace

Result<ControlStack::Slot> ControlStack::bind(const Rig& rig, const ControlDesc& control) {
  const std::string what = "control '" + control.name + "'";
  if (control.name.empty()) return make_error("a control has an empty name");
  if (std::isnan(control.weight)) return make_error(what + ": weight is not a number");
  if (std::isnan(control.smooth_time)) return make_error(what + ": smooth_time is not a number");
  Slot slot;
  slot.desc = control;
  if (auto st = resolve_target(slot.desc.target, rig, what + " target"); !st) return st.error();
  if (auto* ik = std::get_if<IkSettings>(&slot.desc.settings)) {
    if (ik->pole) {
      if (auto st = resolve_target(*ik->pole, rig, what + " pole"); !st) return st.error();
    }
    auto bound = build_ik_control(rig, *ik, what);
    if (!bound) return bound.error();
    slot.bound = std::move(bound).value();
  } else {
    auto bound = build_look_at_control(rig, std::get<LookAtSettings>(slot.desc.settings), what);
    if (!bound) return bound.error();
    slot.bound = std::move(bound).value();
  }
  slot.candidates.resize(chain_of(slot.bound).size());
  return slot;
}

Result<ControlStack> ControlStack::build(const Rig& rig, std::span<const ControlDesc> controls) {
  ControlStack stack;
  stack.rig_signature_ = rig.signature();
  stack.joint_count_ = rig.joint_count();
  for (const ControlDesc& c : controls) {
    if (auto st = stack.add(rig, c); !st) return st.error();
  }
  return stack;
}

Status ControlStack::add(const Rig& rig, const ControlDesc& control) {
  if (slots_.empty()) {
    rig_signature_ = rig.signature();
    joint_count_ = rig.joint_count();
  } else if (rig.signature() != rig_signature_ || rig.joint_count() != joint_count_) {
    return make_error("control '" + control.name + "': the stack was built for a different rig");
  }
  if (find(control.name) >= 0) return make_error("control '" + control.name + "': the name is used twice");
  auto slot = bind(rig, control);
  if (!slot) return slot.error();
  slots_.push_back(std::move(slot).value());
  order_.push_back(static_cast<int>(order_.size()));
  return Success{};
}

int ControlStack::find(std::string_view name) const {
  for (size_t i = 0; i < slots_.size(); ++i)
    if (slots_[i].desc.name == name) return static_cast<int>(i);
  return -1;
}

void ControlStack::reset(int i) {
  Slot& s = slots_[static_cast<size_t>(i)];
  s.has_smoothed = false;
  s.smoothed = glm::vec3(0.0f);
  if (auto* ik = std::get_if<IkControl>(&s.bound)) reset_ik_control(*ik);
}

void ControlStack::set_enabled(int i, bool enabled) {
  Slot& s = slots_[static_cast<size_t>(i)];
  if (s.desc.enabled != enabled) reset(i);
  s.desc.enabled = enabled;
}

void ControlStack::set_weight(int i, float weight) { slots_[static_cast<size_t>(i)].desc.weight = weight; }
void ControlStack::set_priority(int i, int priority) { slots_[static_cast<size_t>(i)].desc.priority = priority; }
void ControlStack::set_smooth_time(int i, float seconds) { slots_[static_cast<size_t>(i)].desc.smooth_time = seconds; }

void ControlStack::set_target_position(int i, const glm::vec3& world_point) {
  Target& t = slots_[static_cast<size_t>(i)].desc.target;
  t.kind = TargetKind::kPosition;
  t.position = world_point;
  t.resolved = true;
}

void ControlStack::update(const Rig& rig, const StackFrame& frame, Pose& pose, std::span<Transform> world) {
  update(rig, frame, pose.local_span(), pose.coverage_span(), world);
}

void ControlStack::update(const Rig& rig, const StackFrame& frame, std::span<Transform> local,
                          std::span<float> coverage, std::span<Transform> world) {
  for (Slot& s : slots_) s.report = ControlReport{};
  const size_t n = static_cast<size_t>(joint_count_);
  if (rig.signature() != rig_signature_ || rig.joint_count() != joint_count_ || local.size() != n ||
      coverage.size() != n || world.size() != n || !is_finite(frame.root))
    return;
  Transform root = frame.root;
  root.rotation = glm::normalize(root.rotation);
  if (!is_finite(root)) return;
  StackFrame f = frame;
  f.root = root;

  evaluate_world(rig, root, local, world);

  // CS1: ascending priority, stable for ties (insertion sort over a preallocated index list).
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
  for (size_t i = 1; i < order_.size(); ++i) {
    const int v = order_[i];
    const int pv = slots_[static_cast<size_t>(v)].desc.priority;
    size_t k = i;
    while (k > 0 && slots_[static_cast<size_t>(order_[k - 1])].desc.priority > pv) {
      order_[k] = order_[k - 1];
      --k;
    }
    order_[k] = v;
  }
  for (int i : order_) run(slots_[static_cast<size_t>(i)], rig, f, local, coverage, world);
}

void ControlStack::run(Slot& s, const Rig& rig, const StackFrame& frame, std::span<Transform> local,
                       std::span<float> coverage, std::span<Transform> world) {
  ControlReport& rep = s.report;
  if (!s.desc.enabled) {
    // CS7: a disabled control keeps no state, however it was disabled.
    s.has_smoothed = false;
    if (auto* ik = std::get_if<IkControl>(&s.bound)) reset_ik_control(*ik);
    rep.status = ControlStatus::kDisabled;
    return;
  }
  const float weight = std::isfinite(s.desc.weight) ? std::min(s.desc.weight, 1.0f) : 0.0f;
  if (!(weight > 0.0f)) {
    rep.status = ControlStatus::kZeroWeight;
    return;
  }

  // Target, then smoothing (CS6) before the solve.
  const glm::vec3 raw = evaluate_target(s.desc.target, frame.root, world, frame.time);
  if (!is_finite(raw)) {
    rep.status = ControlStatus::kBadTarget;
    return;
  }
  const float tau = s.desc.smooth_time;
  if (!s.has_smoothed || !(tau > 0.0f) || !std::isfinite(tau)) {
    s.smoothed = raw;
  } else if (frame.dt > 0.0f) {  // false for NaN; +infinity converges (response 1)
    const float response = 1.0f - std::exp(-frame.dt / tau);
    s.smoothed = response >= 1.0f ? raw : s.smoothed + response * (raw - s.smoothed);
  }  // dt <= 0 or NaN: the smoothed target holds still
  s.has_smoothed = true;
  const glm::vec3 target = s.smoothed;
  rep.target = target;

  const auto joints = chain_of(s.bound);
  std::span<Transform> cand(s.candidates);
  if (auto* ik = std::get_if<IkControl>(&s.bound)) {
    const auto* settings = std::get_if<IkSettings>(&s.desc.settings);
    glm::vec3 pole(0.0f);
    const glm::vec3* pole_ptr = nullptr;
    if (settings != nullptr && settings->pole) {
      pole = evaluate_target(*settings->pole, frame.root, world, frame.time);
      if (is_finite(pole)) pole_ptr = &pole;
    }
    solve_ik_control(*ik, rig, frame.root, local, world, target, pole_ptr, cand);
  } else {
    solve_look_at_control(*std::get_if<LookAtControl>(&s.bound), rig, frame.root, local, world, target, cand);
  }

  // CS3-CS5: blend changed joints, skip nonfinite candidates, raise coverage.
  int first_changed = -1;
  for (size_t k = 0; k < joints.size(); ++k) {
    const size_t j = static_cast<size_t>(joints[k]);
    const Transform& c = cand[k];
    if (!is_finite(c) || same_bits(c, local[j])) continue;
    const Transform blended = weight >= 1.0f ? c : interpolate(local[j], c, weight);
    if (!is_finite(blended)) continue;
    local[j] = blended;
    coverage[j] = std::max(coverage[j], weight);
    ++rep.changed_joints;
    if (first_changed < 0) first_changed = static_cast<int>(k);
  }
  // The chain is a parent-linked run, so the first changed joint's subtree holds the rest.
  if (first_changed >= 0) evaluate_world_subtree(rig, frame.root, local, world, joints[static_cast<size_t>(first_changed)]);

  rep.status = ControlStatus::kSolved;
  if (const auto* ik = std::get_if<IkControl>(&s.bound)) {
    if (ik->position_goal) {
      rep.residual = distance_between(ik_endpoint(*ik, world), target);
    } else {
      const glm::quat end = world[static_cast<size_t>(ik->joints.back())].rotation;
      rep.residual = rotation_angle(glm::normalize(glm::conjugate(ik->orientation_goal) * end));
    }
    rep.reached = rep.residual <= 1e-3f;
  } else {
    const LookAtReport r = measure_look_at_control(*std::get_if<LookAtControl>(&s.bound), frame.root, world, target);
    rep.residual = r.residual;
    rep.clamped = r.clamped;
    rep.reached = r.valid && r.reached;
  }
}

}  // namespace asterune
