#include "asterune/controls/stack.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <optional>
#include <type_traits>
#include <variant>

#include "asterune/core/assert.hpp"
#include "asterune/core/prefetch.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "core/state_archive.hpp"
#include "controls/bound_target.hpp"
#include "controls/feet_control.hpp"
#include "controls/ik_control.hpp"
#include "controls/look_at_control.hpp"
#include "controls/spring_control.hpp"

namespace asterune {

const char* to_string(ControlStatus status) {
  switch (status) {
    case ControlStatus::kNotRun: return "not_run";
    case ControlStatus::kSolved: return "solved";
    case ControlStatus::kDisabled: return "disabled";
    case ControlStatus::kZeroWeight: return "zero_weight";
    case ControlStatus::kBadTarget: return "bad_target";
    case ControlStatus::kNoTarget: return "no_target";
    case ControlStatus::kReleasing: return "releasing";
  }
  return "unknown";
}

// A bound control. Adding a control kind means: a bound type in `Bound`, a branch in bind(),
// and overloads of the per-kind hooks below (joints_of, reset_kind, solve_kind, measure_kind).
using Bound = std::variant<detail::IkControl, detail::LookAtControl, detail::SpringControl, detail::FeetControl>;

struct ControlStack::Slot {
  ControlDesc desc;
  detail::BoundTarget target;
  std::optional<detail::BoundTarget> pole;
  Bound bound;
  std::vector<Transform> candidates;  // one per joint of joints_of(bound)
  std::vector<unsigned char> changed;  // per joint of joints_of(bound): blended this frame
  bool has_smoothed = false;
  glm::vec3 smoothed{0.0f};
  bool has_target = true;     // false after clear_target() until a new target is set
  float weight_scale = 1.0f;  // set by solve_kind (reach window fade); multiplies the weight
  ControlReport report;
};

namespace {

using Slot = ControlStack::Slot;

// Bitwise equality (not float ==): -0 vs +0 or a NaN payload counts as a change, so a
// candidate equal to the current transform leaves the joint, its coverage and its report alone.
bool bitwise_equal(const Transform& a, const Transform& b) {
  static_assert(sizeof(Transform) == 7 * sizeof(float), "Transform must be tightly packed");
  return std::memcmp(&a, &b, sizeof(Transform)) == 0;
}

// What every control kind reads in a frame.
struct FrameInputs {
  const Rig& rig;
  const StackFrame& frame;  // root normalized and finite
  std::span<const Transform> local;
  std::span<const Transform> world;
};

// What a solve_kind hook says about this frame. A hook may also return bool (true =
// kSolved, false = kBadTarget).
enum class SolveOutcome { kSolved, kBadTarget, kIdle };
[[maybe_unused]] SolveOutcome to_outcome(bool ran) { return ran ? SolveOutcome::kSolved : SolveOutcome::kBadTarget; }
SolveOutcome to_outcome(SolveOutcome o) { return o; }

// --- per-kind hooks ------------------------------------------------------------------------
// joints_of: the joints a kind may change, parents first (ascending layout order).
std::span<const int> joints_of(const detail::IkControl& c) { return c.joints; }
std::span<const int> joints_of(const detail::LookAtControl& c) { return c.joints; }
std::span<const int> joints_of(const detail::SpringControl& c) { return c.joints; }
std::span<const int> joints_of(const detail::FeetControl& c) { return c.joints; }

// reset_kind: forget retained solver state (rule CS7).
void reset_kind(detail::IkControl& c) { detail::reset_ik_control(c); }
void reset_kind(detail::LookAtControl& c) { detail::reset_look_at_control(c); }
void reset_kind(detail::SpringControl& c) { detail::reset_spring_control(c); }
void reset_kind(detail::FeetControl& c) { detail::reset_feet_control(c); }

// releasing_kind: true while a kind still holds a pose offset it eases out of after its
// target was cleared or it was disabled (a tracking look-at); such a control keeps running
// (status releasing) and is reset once home. Kinds without easing never release.
template <class Kind>
bool releasing_kind(const Kind&) { return false; }
bool releasing_kind(const detail::LookAtControl& c) { return detail::look_at_releasing(c); }

// targeted_kind: whether a kind reaches for the slot's target, so that clear_target() leaves
// it with nothing to reach (rule CS10). Springs and feet follow the pose and the ground instead.
constexpr bool targeted_kind(const detail::IkControl&) { return true; }
constexpr bool targeted_kind(const detail::LookAtControl&) { return true; }
constexpr bool targeted_kind(const detail::SpringControl&) { return false; }
constexpr bool targeted_kind(const detail::FeetControl&) { return false; }

// The smoothed target of a targeted control (rule CS6), or nullopt when it is not finite.
std::optional<glm::vec3> smoothed_target(Slot& s, const FrameInputs& in) {
  const StackFrame& frame = in.frame;
  const glm::vec3 raw = detail::evaluate_target(s.target, frame.root, in.world, frame.time);
  if (!is_finite(raw)) return std::nullopt;
  const float tau = s.desc.smooth_time;
  if (!s.has_smoothed || !(tau > 0.0f) || !std::isfinite(tau)) {
    s.smoothed = raw;
  } else if (frame.dt > 0.0f) {  // false for NaN; +infinity converges (response 1)
    const float response = 1.0f - std::exp(-frame.dt / tau);
    const glm::vec3 next = s.smoothed + response * (raw - s.smoothed);
    // raw - smoothed overflows for far-apart finite points (then 0 * inf is NaN): the same step
    // in double stays a convex combination of two finite floats.
    s.smoothed = response >= 1.0f ? raw
                 : is_finite(next) ? next
                                   : glm::vec3(glm::dvec3(s.smoothed) +
                                               static_cast<double>(response) * (glm::dvec3(raw) - glm::dvec3(s.smoothed)));
  }  // dt <= 0 or NaN: the smoothed target holds still
  s.has_smoothed = true;
  s.report.target = s.smoothed;
  return s.smoothed;
}

// solve_kind: fills s.candidates (one per joints_of entry; unchanged joints keep their
// current transform bit for bit). Returns kBadTarget (or false) when the control cannot run
// this frame, kIdle when it has nothing to do (no target; a release that is home): nothing is
// blended. It may set s.weight_scale (a reach window's fade) to scale the blend weight.
SolveOutcome solve_kind(detail::IkControl& c, Slot& s, const FrameInputs& in) {
  if (!s.has_target) return SolveOutcome::kIdle;
  const auto target = smoothed_target(s, in);
  if (!target) return SolveOutcome::kBadTarget;
  glm::vec3 pole(0.0f);
  const glm::vec3* pole_ptr = nullptr;
  if (s.pole) {
    pole = detail::evaluate_target(*s.pole, in.frame.root, in.world, in.frame.time);
    if (is_finite(pole)) pole_ptr = &pole;
    s.report.has_pole = pole_ptr != nullptr;
    s.report.pole = pole;
  }
  detail::solve_ik_control(c, in.rig, in.frame.root, in.local, in.world, *target, pole_ptr, in.frame.dt, s.candidates);
  s.weight_scale = c.reach_weight;
  return SolveOutcome::kSolved;
}

SolveOutcome solve_kind(detail::LookAtControl& c, Slot& s, const FrameInputs& in) {
  const bool active = s.desc.enabled && s.has_target;
  glm::vec3 target(0.0f);
  if (active) {
    const auto t = smoothed_target(s, in);
    if (!t) return SolveOutcome::kBadTarget;
    target = *t;
  }
  const bool ran = detail::solve_look_at_control(c, in.rig, in.frame.root, in.local, in.world, active ? &target : nullptr,
                                                 in.frame.dt, s.candidates);
  return ran ? SolveOutcome::kSolved : SolveOutcome::kIdle;
}

// A spring follows the animated pose, not a target (rules S1-S7).
bool solve_kind(detail::SpringControl& c, Slot& s, const FrameInputs& in) {
  const detail::SpringFrameReport r =
      detail::solve_spring_control(c, in.rig, in.frame.root, in.local, in.world, in.frame.dt, s.candidates);
  s.report.substeps = r.substeps;
  s.report.resets = r.resets;
  if (r.ok) s.report.target = c.targets.back();
  return r.ok;
}

// Feet (rules G1-G6): no target; the ground comes with the frame.
bool solve_kind(detail::FeetControl& c, Slot& s, const FrameInputs& in) {
  detail::solve_feet_control(c, in.rig, in.frame.root, in.frame.dt, s.desc.smooth_time, in.frame.ground, in.local,
                             in.world, s.candidates, s.report);
  return true;
}

// measure_kind: fills the report from the blended pose (`in.world` is current again).
void measure_kind(const detail::IkControl& c, Slot& s, const FrameInputs& in) {
  ControlReport& rep = s.report;
  rep.endpoint_snapped = c.endpoint_is_pivot;
  rep.reached = true;
  if (c.position_goal) {
    rep.distance = distance_between(detail::ik_endpoint(c, in.world), s.smoothed);
    rep.reached = rep.distance <= c.chain.tolerance;
  }
  if (c.has_orientation_goal) {
    const glm::quat end = in.world[static_cast<size_t>(c.joints.back())].rotation;
    rep.angle = rotation_angle(glm::normalize(glm::conjugate(c.orientation_goal) * end));
    rep.reached = rep.reached && rep.angle <= 1e-3f;
  }
  rep.clamped = c.last.clamped;
  rep.passes = c.last.passes;
  rep.stretch = c.stretch_used;
}

void measure_kind(const detail::LookAtControl& c, Slot& s, const FrameInputs& in) {
  if (!(s.desc.enabled && s.has_target)) return;  // releasing: no target to measure against
  const detail::LookAtResidual r = detail::measure_look_at_control(c, in.frame.root, in.world, s.smoothed);
  s.report.angle = r.residual;
  s.report.clamped = r.clamped;
  s.report.reached = r.valid && r.reached;
}

void measure_kind(const detail::SpringControl& c, Slot& s, const FrameInputs& in) {
  s.report.distance = distance_between(detail::spring_tip(c, in.world), c.targets.back());
  s.report.reached = s.report.distance <= 1e-3f;
}

void measure_kind(const detail::FeetControl& c, Slot& s, const FrameInputs& in) {
  detail::measure_feet_control(c, in.world, s.report);
}

std::span<const int> joints_of(const Bound& b) {
  return std::visit([](const auto& c) { return joints_of(c); }, b);
}

Result<Slot> bind_slot(const Rig& rig, const ControlDesc& control) {
  const std::string what = "control '" + control.name + "'";
  if (control.name.empty()) return make_error("a control has an empty name");
  if (std::isnan(control.weight)) return make_error(what + ": weight is not a number");
  if (std::isnan(control.smooth_time)) return make_error(what + ": smooth_time is not a number");
  Slot slot;
  slot.desc = control;
  auto target = detail::build_bound_target(control.target, rig, what + " target");
  if (!target) return target.error();
  slot.target = std::move(target).value();
  if (const auto* ik = std::get_if<IkSettings>(&control.settings)) {
    if (ik->pole) {
      auto pole = detail::build_bound_target(*ik->pole, rig, what + " pole");
      if (!pole) return pole.error();
      slot.pole = std::move(pole).value();
    }
    auto bound = detail::build_ik_control(rig, *ik, what);
    if (!bound) return bound.error();
    slot.bound = std::move(bound).value();
  } else if (const auto* spring = std::get_if<SpringSettings>(&control.settings)) {
    auto bound = detail::build_spring_control(rig, *spring, what);
    if (!bound) return bound.error();
    slot.bound = std::move(bound).value();
  } else if (const auto* feet = std::get_if<FeetSettings>(&control.settings)) {
    auto bound = detail::build_feet_control(rig, *feet, what);
    if (!bound) return bound.error();
    slot.bound = std::move(bound).value();
  } else {
    auto bound = detail::build_look_at_control(rig, std::get<LookAtSettings>(control.settings), what);
    if (!bound) return bound.error();
    slot.bound = std::move(bound).value();
  }
  slot.candidates.resize(joints_of(slot.bound).size());
  slot.changed.resize(joints_of(slot.bound).size());
  return slot;
}

}  // namespace

ControlStack::ControlStack() = default;
ControlStack::~ControlStack() = default;
ControlStack::ControlStack(ControlStack&&) noexcept = default;
ControlStack& ControlStack::operator=(ControlStack&&) noexcept = default;
ControlStack::ControlStack(const ControlStack&) = default;
ControlStack& ControlStack::operator=(const ControlStack&) = default;

namespace {

void prefetch_kind(const detail::IkControl& c) {
  prefetch_vectors(c.joints, c.limits, c.rest_local, c.points, c.solved, c.deltas, c.turns, c.orientations);
}
void prefetch_kind(const detail::LookAtControl& c) {
  prefetch_vectors(c.joints, c.weights, c.pivots, c.turns, c.world_turns);
}
void prefetch_kind(const detail::SpringControl& c) {
  prefetch_vectors(c.joints, c.colliders, c.points, c.velocities, c.lengths, c.previous_targets, c.previous_shapes,
                   c.targets, c.frame_lengths, c.shapes, c.before, c.after, c.turns);
}
void prefetch_kind(const detail::FeetControl& c) { prefetch_vectors(c.joints); }

}  // namespace

void ControlStack::prefetch_slots() const { prefetch_vectors(slots_, order_); }

void ControlStack::prefetch_state() const {
  for (const Slot& slot : slots_) {
    prefetch_vectors(slot.candidates, slot.changed, slot.target.target.path);
    if (slot.pole) prefetch_vectors(slot.pole->target.path);
    std::visit([](const auto& bound) { prefetch_kind(bound); }, slot.bound);
  }
}

int ControlStack::size() const { return static_cast<int>(slots_.size()); }
namespace {
// Rule CS11: the slot a handle names, or nullptr for a bad handle (find("typo") is -1): every
// per-frame edit through a bad handle does nothing.
template <class Slots>
auto* slot_at(Slots& slots, int i) {
  return i >= 0 && static_cast<size_t>(i) < slots.size() ? &slots[static_cast<size_t>(i)] : nullptr;
}
}  // namespace

const ControlDesc& ControlStack::desc(int i) const {
  static const ControlDesc none{};  // rule CS11: a bad handle reads an empty description
  const Slot* s = slot_at(slots_, i);
  return s ? s->desc : none;
}
const ControlReport& ControlStack::report(int i) const {
  static const ControlReport none{};  // rule CS11: a bad handle reads an empty report
  const Slot* s = slot_at(slots_, i);
  return s ? s->report : none;
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
  auto slot = bind_slot(rig, control);
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
  Slot* found = slot_at(slots_, i);
  if (!found) return;
  Slot& s = *found;
  s.has_smoothed = false;
  s.smoothed = glm::vec3(0.0f);
  std::visit([](auto& c) { reset_kind(c); }, s.bound);
}

void ControlStack::set_enabled(int i, bool enabled) {
  Slot* found = slot_at(slots_, i);
  if (!found) return;
  Slot& s = *found;
  if (s.desc.enabled != enabled) {
    // CS7: the target history goes either way. A kind that eases out of its pose offset
    // (a tracking look-at) keeps that offset, so the pose does not snap; run() resets it
    // once it is home.
    s.has_smoothed = false;
    s.smoothed = glm::vec3(0.0f);
    if (!std::visit([](const auto& c) { return releasing_kind(c); }, s.bound))
      std::visit([](auto& c) { reset_kind(c); }, s.bound);
  }
  s.desc.enabled = enabled;
}

void ControlStack::clear_target(int i) {
  Slot* found = slot_at(slots_, i);
  if (!found) return;
  Slot& s = *found;
  s.has_target = false;
  s.has_smoothed = false;
}

void ControlStack::set_weight(int i, float weight) {
  if (Slot* s = slot_at(slots_, i)) s->desc.weight = weight;
}
void ControlStack::set_priority(int i, int priority) {
  if (Slot* s = slot_at(slots_, i)) s->desc.priority = priority;
}
void ControlStack::set_smooth_time(int i, float seconds) {
  if (Slot* s = slot_at(slots_, i)) s->desc.smooth_time = seconds;
}

void ControlStack::set_target_position(int i, const glm::vec3& world_point) {
  Slot* found = slot_at(slots_, i);
  if (!found) return;
  Slot& s = *found;
  s.desc.target.kind = TargetKind::kPosition;
  s.desc.target.position = world_point;
  s.target.target.kind = TargetKind::kPosition;
  s.target.target.position = world_point;
  s.has_target = true;
}

namespace {

// Every report says this frame only. The feet part (FeetReport: most of the report's bytes) is
// written by a feet control alone, and only after it has set foot_count (>= 1: a feet control
// has one or two legs), so a report whose foot_count is 0 already holds an empty feet part: the
// rest is reset by a fixed-size copy and the feet part only when a frame wrote it. The same
// bytes as assigning ControlReport{} (and no per-slot `rep stos`).
void reset_reports(std::vector<Slot>& slots) {
  static_assert(std::is_trivially_copyable_v<ControlReport> && std::is_standard_layout_v<ControlReport>,
                "the report is reset by a partial memcpy");
  static_assert(offsetof(ControlReport, feet) + sizeof(FeetReport) == sizeof(ControlReport),
                "the feet part is the report's last member");
  static const ControlReport empty{};
  for (Slot& s : slots) {
    std::memcpy(static_cast<void*>(&s.report), &empty, offsetof(ControlReport, feet));
    if (s.report.feet.foot_count != 0) s.report.feet = FeetReport{};
  }
}

}  // namespace

void ControlStack::update(const Rig& rig, const StackFrame& frame, Pose& pose, std::span<Transform> world) {
  update(rig, frame, pose.local_span(), pose.coverage_span(), world);
}

void ControlStack::update(const Rig& rig, const StackFrame& frame, std::span<Transform> local,
                          std::span<float> coverage, std::span<Transform> world) {
  reset_reports(slots_);
  const size_t n = static_cast<size_t>(joint_count_);
  ASTERUNE_EXPECT_OR_RETURN(rig.signature() == rig_signature_ && rig.joint_count() == joint_count_ &&
                                local.size() == n && coverage.size() == n && world.size() == n,
                            "the rig is the stack's and local, coverage and world hold its joint count");
  if (!is_finite(frame.root)) return;
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
  const bool releasing = std::visit([](const auto& c) { return releasing_kind(c); }, s.bound);
  if (!s.desc.enabled && !releasing) {
    // CS7: a disabled control keeps no state, however it was disabled.
    s.has_smoothed = false;
    std::visit([](auto& c) { reset_kind(c); }, s.bound);
    rep.status = ControlStatus::kDisabled;
    return;
  }
  float weight = std::isfinite(s.desc.weight) ? std::min(s.desc.weight, 1.0f) : 0.0f;
  if (!(weight > 0.0f)) {
    // CS9: a control that does not run keeps no history, so its weight coming back is a fresh
    // start (as after CS7), not a step from a root, target or ground it no longer saw.
    s.has_smoothed = false;
    std::visit([](auto& c) { reset_kind(c); }, s.bound);
    rep.status = ControlStatus::kZeroWeight;
    return;
  }

  const FrameInputs in{rig, frame, local, world};
  s.weight_scale = 1.0f;
  const SolveOutcome outcome = std::visit([&](auto& c) { return to_outcome(solve_kind(c, s, in)); }, s.bound);
  if (outcome == SolveOutcome::kBadTarget) {
    rep.status = ControlStatus::kBadTarget;
    return;
  }
  if (outcome == SolveOutcome::kIdle) {  // no target, or a release that is home: nothing to blend
    std::visit([](auto& c) { reset_kind(c); }, s.bound);
    rep.status = s.desc.enabled ? ControlStatus::kNoTarget : ControlStatus::kDisabled;
    return;
  }
  weight *= std::isfinite(s.weight_scale) ? std::clamp(s.weight_scale, 0.0f, 1.0f) : 0.0f;
  rep.weight = weight;

  // CS3-CS5: blend changed joints, skip nonfinite candidates, raise coverage. Joints are
  // parents first, so re-evaluating the subtree of each changed joint not already inside a
  // re-evaluated subtree brings the whole world pose up to date.
  const auto joints = joints_of(s.bound);
  for (size_t k = 0; k < joints.size(); ++k) {
    const size_t j = static_cast<size_t>(joints[k]);
    const Transform& c = s.candidates[k];
    s.changed[k] = 0;
    if (!(weight > 0.0f) || !is_finite(c) || bitwise_equal(c, local[j])) continue;
    const Transform blended = weight >= 1.0f ? c : interpolate(local[j], c, weight);
    if (!is_finite(blended)) continue;
    local[j] = blended;
    coverage[j] = std::max(coverage[j], weight);
    s.changed[k] = 1;
    ++rep.changed_joints;
  }
  // The joints to place again: the subtrees of the changed joints not inside another's. When
  // they cost more than the whole walk four joints at a time (about one joint per root and
  // three per block of four), the whole walk runs instead: it gives every joint the same bits
  // as a one-at-a-time walk (world.cpp), and the joints outside the subtrees are recomputed
  // from unchanged inputs, so nothing but the time differs (a pelvis moves the whole body).
  int stale = 0;
  int refreshed_end = -1;
  for (size_t k = 0; k < joints.size(); ++k) {
    if (!s.changed[k] || joints[k] < refreshed_end) continue;
    refreshed_end = rig.subtree_end(joints[k]);
    stale += refreshed_end - joints[k];
  }
  const int whole_walk = static_cast<int>(rig.walk_roots().size() + 3 * (rig.walk_order().size() / 4));
  if (stale > 0 && !rig.walk_roots().empty() && stale >= whole_walk) {
    evaluate_world(rig, frame.root, local, world);
  } else {
    refreshed_end = -1;
    for (size_t k = 0; k < joints.size(); ++k) {
      if (!s.changed[k] || joints[k] < refreshed_end) continue;
      evaluate_world_subtree(rig, frame.root, local, world, joints[k]);
      refreshed_end = rig.subtree_end(joints[k]);
    }
  }

  const bool targetless = !s.has_target && std::visit([](const auto& c) { return targeted_kind(c); }, s.bound);
  rep.status = !s.desc.enabled || targetless ? ControlStatus::kReleasing
               : weight > 0.0f               ? ControlStatus::kSolved
                                             : ControlStatus::kZeroWeight;
  std::visit([&](const auto& c) { measure_kind(c, s, in); }, s.bound);
}

// --- snapshot / restore (rule AN14): per control the edits that persist (enabled, weight,
// priority, smoothing time, a static target set per frame) and the retained history each kind
// carries into the next frame; scratch and reports are recomputed by the next update. --------
namespace {

struct StackHeader {
  std::uint64_t signature;
  std::uint64_t size;
};

template <class T>
void vec_state(detail::StateArchive& ar, std::vector<T>& v) {
  ar.array(v.data(), v.size());
}

void kind_state(detail::StateArchive& ar, detail::IkControl& c) {
  ar.field(c.previous_bend);
  ar.field(c.stretch_used);
  ar.field(c.reach_weight);
}
void kind_state(detail::StateArchive& ar, detail::LookAtControl& c) {
  ar.flag(c.track.active);
  ar.field(c.track.gaze);
  ar.field(c.track.goal);
  ar.field(c.track.velocity);
}
void kind_state(detail::StateArchive& ar, detail::SpringControl& c) {
  ar.flag(c.has_state);
  vec_state(ar, c.points);
  vec_state(ar, c.velocities);
  vec_state(ar, c.clock_targets);
  ar.field(c.clock_root);
  ar.field(c.lag);
  vec_state(ar, c.lengths);
  ar.field(c.previous_root);
  vec_state(ar, c.previous_targets);
  vec_state(ar, c.previous_shapes);
  ar.field(c.prior_dt);
  ar.field(c.prior_root);
  vec_state(ar, c.prior_targets);
  vec_state(ar, c.prior_shapes);
}
void kind_state(detail::StateArchive& ar, detail::FeetControl& c) {
  ar.flag(c.has_state);
  ar.field(c.lift);
  ar.field(c.normal);
  ar.field(c.shorten);
  ar.field(c.lean_direction);
}

void slot_state(detail::StateArchive& ar, ControlStack::Slot& s) {
  ar.flag(s.desc.enabled);
  ar.field(s.desc.weight);
  ar.field(s.desc.priority);
  ar.field(s.desc.smooth_time);
  ar.field(s.desc.target.kind);
  ar.field(s.desc.target.position);
  ar.field(s.target.target.kind);
  ar.field(s.target.target.position);
  ar.flag(s.has_target);
  ar.flag(s.has_smoothed);
  ar.field(s.smoothed);
  ar.field(s.weight_scale);
  std::visit([&](auto& c) { kind_state(ar, c); }, s.bound);
}

}  // namespace

std::size_t ControlStack::snapshot_size() const {
  detail::StateArchive ar;
  ar.at = sizeof(StackHeader);
  for (const Slot& s : slots_) slot_state(ar, const_cast<Slot&>(s));  // sizing touches nothing
  return ar.at;
}

std::uint64_t ControlStack::state_signature() const {
  std::uint64_t sig = rig_signature_ ^ 0xc2b2ae3d27d4eb4full;
  for (const Slot& s : slots_) {
    sig = (sig ^ static_cast<std::uint64_t>(s.bound.index())) * 0x100000001b3ull;
    sig = (sig ^ s.changed.size()) * 0x100000001b3ull;
  }
  return sig;
}

bool ControlStack::snapshot(std::span<std::byte> out) const {
  const std::size_t size = snapshot_size();
  if (out.size() < size) return false;
  const StackHeader h{state_signature(), size};
  std::memcpy(out.data(), &h, sizeof h);
  detail::StateArchive ar{detail::StateMode::kWrite, out.data(), nullptr, sizeof h};
  for (const Slot& s : slots_) slot_state(ar, const_cast<Slot&>(s));  // writing copies out only
  return true;
}

bool ControlStack::restore(std::span<const std::byte> in) {
  const std::size_t size = snapshot_size();
  if (in.size() < size) return false;
  StackHeader h{};
  std::memcpy(&h, in.data(), sizeof h);
  if (h.signature != state_signature() || h.size != size) return false;
  detail::StateArchive ar{detail::StateMode::kRead, nullptr, in.data(), sizeof h};
  for (Slot& s : slots_) slot_state(ar, s);
  return true;
}

}  // namespace asterune
