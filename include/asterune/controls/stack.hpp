// ControlStack: the per-character, caller-owned list of procedural controls that runs after
// the clip/retarget pose is composed (rule CS1-CS8). Built once at setup (allocates there,
// fails with a message); update() then runs every frame without allocating or throwing:
//
//   evaluate world from (root, pose)
//   for each enabled control with weight > 0, by ascending priority (ties: insertion order):
//       target  = evaluate (static / path / part-relative, from the CURRENT world pose)
//       target' = smoothed target  (response 1 - exp(-dt / smooth_time), before the solve)
//       candidate local T per chain joint = solver(current pose)
//       per changed joint: T = slerp/lerp(T, candidate, weight); coverage = max(coverage, weight)
//       re-evaluate the world of the changed subtree only
//       report (reached, distance, angle, ...) measured on the blended pose
//
// The stack writes motor transforms only; it never moves the root (CS8).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "asterune/controls/control.hpp"
#include "asterune/controls/ground.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/rig/pose.hpp"

namespace asterune {

class Rig;

/// Per-frame inputs of a stack update.
struct StackFrame {
  Transform root;       // world placement of the rig's root part (read, never written)
  float dt = 0.0f;      // seconds since the previous update; <= 0 or NaN: smoothing holds still;
                        // huge or +inf: the smoothed target jumps to the target. Springs add
                        // min(dt, 0.05) to their own clock of 1/240 s steps (rules S3, S8), none for <= 0 or NaN
  float time = 0.0f;    // scene time in seconds, for path targets
  /// Ground for feet controls (rule G1); nullptr = no ground: every foot ray misses. Read
  /// during update() only, never kept.
  const GroundQuery* ground = nullptr;
};

class ControlStack {
 public:
  ControlStack();
  ~ControlStack();
  ControlStack(ControlStack&&) noexcept;
  ControlStack& operator=(ControlStack&&) noexcept;
  ControlStack(const ControlStack&);
  ControlStack& operator=(const ControlStack&);

  /// Binds every description to `rig` (names, chains, solver choice, scratch). Fails on the
  /// first bad control with a message naming it; nothing half-built is returned.
  static Result<ControlStack> build(const Rig& rig, std::span<const ControlDesc> controls);

  /// Adds one control at setup. On failure the stack is unchanged. Allocates.
  Status add(const Rig& rig, const ControlDesc& control);

  /// Runs the stack on `pose` in place (rule CS1-CS8). `world` is caller scratch of
  /// rig.joint_count() entries; on return it holds the world placements of the final pose.
  /// `rig` must be the rig the stack was built for (same signature) and `pose`/`world` must
  /// match its joint count; otherwise, or with a nonfinite root, nothing is written and every
  /// report says kNotRun. Allocation-free, no exceptions, deterministic.
  void update(const Rig& rig, const StackFrame& frame, Pose& pose, std::span<Transform> world);
  /// The same on bare spans: `local` and `coverage` are the pose's arrays (layout order).
  void update(const Rig& rig, const StackFrame& frame, std::span<Transform> local, std::span<float> coverage,
              std::span<Transform> world);

  /// Number of controls.
  int size() const;
  /// Index of the control named `name`, or -1.
  int find(std::string_view name) const;
  /// The description control `i` was built from (with the per-frame edits applied).
  const ControlDesc& desc(int i) const;
  /// What control `i` did in the last update().
  const ControlReport& report(int i) const;

  /// Cache hints for a batch (update_characters): prefetch_slots() asks for the slot array,
  /// prefetch_state() for the buffers the slots point to (targets, scratch, solver history),
  /// reading the slots to find them, so it is best called once the slots have arrived. No effect
  /// on results; allocation-free.
  void prefetch_slots() const;
  void prefetch_state() const;

  // --- per-frame edits (allocation-free) -----------------------------------------------
  // Rule CS11: `i` is a handle from find(); a bad one (-1 from find("typo"), or out of range)
  // makes every edit do nothing, and desc() / report() return an empty description / report.
  /// Disabling clears the control's retained state (CS7); enabling starts fresh. A tracking
  /// look-at first eases back to the animated pose (status releasing), then clears.
  void set_enabled(int i, bool enabled);
  void set_weight(int i, float weight);
  void set_priority(int i, int priority);
  void set_smooth_time(int i, float seconds);
  /// Makes the target a static world point (kept path keys are ignored, not freed).
  void set_target_position(int i, const glm::vec3& world_point);
  /// Clears the target: an IK control stops (status no_target); a tracking look-at eases
  /// back to the animated pose (status releasing) and then stops. set_target_position()
  /// gives it a target again.
  void clear_target(int i);
  /// Forgets the control's smoothed target and solver history.
  void reset(int i);

  // --- snapshot / restore (rule AN14) -----------------------------------------------------
  /// Bytes snapshot() writes; fixed after the last add().
  std::size_t snapshot_size() const;
  /// Writes the controls' retained state into `out` (>= snapshot_size() bytes): the per-frame
  /// edits (enabled, weight, priority, smoothing time, a static target), the smoothed targets
  /// and each kind's history (IK bend, look-at gaze and speed, spring points, velocities and
  /// clock, feet lifts, normals and lean). False (nothing written) when `out` is too small.
  bool snapshot(std::span<std::byte> out) const;
  /// Restores a snapshot of this stack (or of one built from the same controls and rig); then
  /// the same frames reproduce the same poses bit for bit. False (nothing changed) on a size or
  /// shape mismatch. Allocation-free.
  bool restore(std::span<const std::byte> in);

 /// A bound control (description, bound state, candidates, retained history). Opaque: it is
  /// defined inside the library so that bound state stays out of the public API.
  struct Slot;

 private:
  void run(Slot& slot, const Rig& rig, const StackFrame& frame, std::span<Transform> local, std::span<float> coverage,
           std::span<Transform> world);

  std::uint64_t state_signature() const;
  std::vector<Slot> slots_;
  std::vector<int> order_;
  std::uint64_t rig_signature_ = 0;
  int joint_count_ = 0;
};

}  // namespace asterune
