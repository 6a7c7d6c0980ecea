// GraphInstance: a built animation graph (Roblox Animation Graph semantics, rules GR1-GR14).
// build_graph() validates a GraphDesc once against a rig (inputs, cycles, blend-space
// geometry, parameter types), resolves every parameter binding to an index, triangulates the
// Blend2D spaces and sizes every buffer; update() then evaluates the graph from its output
// node down, weights first, so inactive branches are neither advanced nor sampled.
//
//   setup (allocates, may fail)                    per frame (no allocation, no throw, no lock)
//   GraphDesc --build_graph--> GraphInstance       set_number/set_bool/set_string (handles)
//     parameters, nodes by index                   update(dt): decide selectors, propagate
//     clips + AnimationBinding (shared)            weights, advance clips (phase sync), sample
//                                                  the active clips, blend bottom-up, events
//   snapshot_size() after build                    snapshot()/restore(): the whole state
//
// Clips and bindings are shared and read-only (not owned, they must outlive the instance);
// everything update() writes is the instance's own, so instances update on any number of
// threads with bit-identical results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "asterune/anim/pose_source.hpp"
#include "asterune/core/result.hpp"
#include "asterune/graph/graph_desc.hpp"
#include "asterune/graph/warp_nodes.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;

/// A parameter handle (rule GR1): an index found by name at setup; -1 is no parameter.
struct GraphParameter {
  int index = -1;
  bool valid() const { return index >= 0; }
};

/// One marker event a Clip node crossed, with its weight (rule GR11): the influence of its
/// source on the graph's output along the path of nodes that pass it (never 0: a weight of 0
/// silences). `node` is the Clip node, `time` the marker's clip time, `at` the fraction of the
/// Clip node's step at which it was crossed. The PoseSource event type (anim/pose_source.hpp),
/// so the animator takes a graph's events without copying (rule AN12).
using GraphEvent = PoseSourceEvent;

/// What update() did.
struct GraphReport {
  bool ok = false;          // false: wrong span sizes or rig (nothing written, rule RG4)
  int events_written = 0;   // events in the caller's buffer, in node order then time order
  int events_dropped = 0;   // events that did not fit the buffer (counted, not stored)
  /// Rule GR16, with root_motion: the root joint's heading change this update (turn about +Y,
  /// horizontal travel, in the frame the pose is held in), blended as the pose; else identity.
  Transform root_step;
  /// Per-frame values this update ignored, the pose left unpoisoned (rule LO14: a nonfinite
  /// distance holds its Clip's time).
  int ignored_values = 0;
};

/// Plays as one Animator track through PoseSource (rule GR15): TrackDesc::source = &instance.
class GraphInstance : public PoseSource {
 public:
  GraphInstance();
  ~GraphInstance() override;
  GraphInstance(const GraphInstance&) = delete;
  GraphInstance& operator=(const GraphInstance&) = delete;
  GraphInstance(GraphInstance&&) noexcept;
  GraphInstance& operator=(GraphInstance&&) noexcept;

  int node_count() const;
  int parameter_count() const;
  /// The description's node ids and parameter names.
  const std::string& node_id(int node) const;
  const std::string& parameter_name(int parameter) const;
  GraphParameterType parameter_type(int parameter) const;
  /// The node named `id`, or -1.
  int find_node(std::string_view id) const;
  /// The handle of the parameter named `name` (setup time: compares strings), or invalid.
  GraphParameter find_parameter(std::string_view name) const;

  // --- parameters (allocation-free; rule GR1) ----------------------------------------
  /// Sets a number parameter. Returns false (nothing changed) for an invalid handle, a
  /// parameter of another type or a nonfinite value.
  bool set_number(GraphParameter p, float value);
  bool set_bool(GraphParameter p, bool value);
  /// Sets a string parameter; false for a value longer than string_capacity() (nothing changed).
  bool set_string(GraphParameter p, std::string_view value);
  float number(GraphParameter p) const;
  bool boolean(GraphParameter p) const;
  std::string_view string(GraphParameter p) const;
  /// Longest string value a string parameter holds (>= 64, and >= every name the graph uses).
  int string_capacity() const;

  /// One frame (rules GR2-GR13): decides the selectors, propagates weights from the output
  /// down, advances the active clips by dt (dt <= 0 or nonfinite: nothing advances, the pose
  /// is still evaluated), writes the marker events with weights into `events`, and writes the
  /// blended motor transforms and coverage into `local`/`coverage` (rig.joint_count() each).
  /// With `root_motion` (rule GR16) every Clip keeps its root joint in place and the report
  /// gives the blended root step; the blended foot contacts are updated in any case.
  /// Allocation-free, no exceptions, deterministic.
  GraphReport update(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage,
                     std::span<GraphEvent> events = {}, bool root_motion = false);

  /// PoseSource (rule GR15): update() without events; true when the pose was written.
  bool sample_pose(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage) override;
  /// PoseSource (rules GR15, AN12): update() with events (and root motion when asked).
  PoseSourceSample sample(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage,
                          std::span<PoseSourceEvent> events, int root_joint) override;
  /// Most events one update can write: every Clip node's markers inside the clip, over the laps
  /// rule GR11 reports (five: the start and four laps), twice for PingPong.
  int event_capacity() const override;
  /// True when the rig has a root-motion joint (rule AN9): a graph track may extract root motion.
  bool extracts_root_motion() const override;

  // --- foot contacts of the last update (rule GR16) ---------------------------------------
  /// The feet the Clip nodes' contacts name (GraphNodeDesc::contacts), in order of first
  /// appearance; 0 when no Clip has contacts.
  int foot_count() const;
  std::string_view foot_label(int foot) const;  // "LeftFoot"...; empty for a bad index
  /// The foot's blended contact state in [0, 1]: the contact states (1 down, 0 up) of the Clips
  /// that know the foot, weighted as their poses are at the root joint.
  float foot_contact_weight(int foot) const;
  /// foot_contact_weight(foot) >= 0.5.
  bool foot_contact(int foot) const;

  // --- what the last update did (for reports and tools) --------------------------------
  /// The node's share of the output pose in the last update (rule GR12); 0 when inactive.
  float node_weight(int node) const;
  /// A Clip node's clip time in seconds (other nodes: 0).
  float node_time(int node) const;
  /// A Clip node's normalized time in [0, 1) within its trim; a Blend node's synced phase.
  float node_phase(int node) const;
  /// How many cycles the node completed since it last started (rule GR5: a once clip 1 when
  /// done, a loop its laps, a sequence its passes).
  int node_cycles(int node) const;
  /// A StrideWarp's or OrientationWarp's last update (rules LO6-LO9); `warp` false otherwise.
  GraphWarpReport warp_report(int node) const;

  // --- snapshot / restore (rule GR14) ----------------------------------------------------
  /// Bytes snapshot() writes; fixed after build.
  std::size_t snapshot_size() const;
  /// Writes the whole state (parameters, node states, transitions, RNG, the poses transitions
  /// start from) into `out` (>= snapshot_size() bytes). Returns false (nothing written) when it
  /// is too small. Allocation-free.
  bool snapshot(std::span<std::byte> out) const;
  /// Restores a snapshot of this instance (or of one built from the same description and rig).
  /// Returns false (nothing changed) on a size or signature mismatch. Allocation-free.
  bool restore(std::span<const std::byte> in);

  /// PoseSource (rule AN14): the animator's snapshot carries the graph's, as snapshot() writes it.
  std::size_t state_size() const override;
  bool save_state(std::span<std::byte> out) const override;
  bool load_state(std::span<const std::byte> in) override;

  struct Impl;  // src/graph/graph_internal.hpp

 private:
  friend Result<GraphInstance> build_graph(const GraphDesc& desc, const Rig& rig);
  std::unique_ptr<Impl> impl_;
};

/// Validates `desc` against `rig` and builds the runtime instance (rules GR1-GR10). Fails with
/// one line naming the node (its id and index) and the reason: an input naming no node, a
/// node without the inputs its type needs, a cycle, a Clip without clip/binding or with a
/// binding for another rig, a bad trim, equal Blend1D positions, a Blend2D with fewer than 3
/// non-collinear points, a parameter that does not exist or has the wrong type for the
/// property, a Mask part not in the rig, a nonfinite literal, a negative transition duration,
/// no output. Allocates (setup only).
Result<GraphInstance> build_graph(const GraphDesc& desc, const Rig& rig);

}  // namespace asterune
