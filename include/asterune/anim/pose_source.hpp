// PoseSource: what an Animator track plays when it is not a clip (rule GR15): something above
// the animator (an animation graph) that advances by the track's scaled dt and writes a pose
// and coverage, and may hand back its marker events (rule AN12) and its root motion.
// The animator owns none; the source must outlive it. anim knows only this interface,
// so the modules above it (graph) plug in without anim including them.
//
//   Animator::update --sample(rig, dt, pose, events, root joint)--> source
//                    <--pose, coverage, events (weight, node, when), root step--
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;

/// One marker event a source crossed in an update. `name`/`value` point into the clip's marker
/// (valid while the clip lives). A graph's GraphEvent is this type (rule GR11).
struct PoseSourceEvent {
  int node = -1;  // the source's node that crossed it (a graph's Clip node index)
  std::string_view name;
  std::string_view value;
  float time = 0.0f;    // clip time of the marker (seconds)
  float weight = 0.0f;  // the event's influence in the source's output (rule GR11)
  float at = 0.0f;      // when in the update's step it happened, in [0, 1] (orders events, rule AN7)
};

/// What sample() wrote besides the pose.
struct PoseSourceSample {
  bool ok = false;         // false: wrong rig or span sizes (nothing written)
  int events_written = 0;  // events stored in the given buffer
  int events_dropped = 0;  // events that did not fit (counted, not stored)
  /// Rule AN9, when root motion was asked for: the root heading's change this update (turn
  /// about +Y and horizontal travel, in the frame the pose is held in), blended by the source.
  Transform root_step;
};

class PoseSource {
 public:
  virtual ~PoseSource() = default;
  /// Advances by `dt` seconds (the track's speed applied; 0 when the track does not move) and
  /// writes the motor transforms and coverage (rig.joint_count() each). Returns false (nothing
  /// written) on a wrong rig or span size. Must be allocation-free, no throw, deterministic.
  virtual bool sample_pose(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage) = 0;

  /// sample_pose() that also writes the update's marker events into `events` (what does not fit
  /// is counted) and, with `root_joint` >= 0 (rule AN9's joint; only when extracts_root_motion()),
  /// keeps that joint in place and reports its heading change as root_step. The default plays
  /// sample_pose() with no events and no root motion. Allocation-free, no throw, deterministic.
  virtual PoseSourceSample sample(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage,
                                  std::span<PoseSourceEvent> events, int root_joint) {
    (void)events;
    (void)root_joint;
    PoseSourceSample s;
    s.ok = sample_pose(rig, dt, local, coverage);
    return s;
  }
  /// Most events one sample() can write (the animator sizes its buffer once, at build).
  virtual int event_capacity() const { return 0; }
  /// True when sample() honours root_joint (a track may then extract root motion, rule AN9).
  virtual bool extracts_root_motion() const { return false; }

  /// Bytes save_state() writes (fixed after the source is built); 0: the source keeps no state
  /// the animator's snapshot has to carry.
  virtual std::size_t state_size() const { return 0; }
  /// Writes the source's whole state into `out` (state_size() bytes). False: nothing written.
  virtual bool save_state(std::span<std::byte> out) const {
    (void)out;
    return true;
  }
  /// Restores a save_state() of this source. False (nothing changed) on a mismatch.
  virtual bool load_state(std::span<const std::byte> in) {
    (void)in;
    return true;
  }
};

}  // namespace asterune
