// asterune-solve: a PoseSource that plays a scene's "tracks" through an Animator (docs/animator.md)
// and runs its "commands" at their times (docs/formats.md). Each track's clip is loaded and bound
// like the "animation" block's (bind_clip), retargeted tracks sharing one RetargetCache; a graph
// track (rule F10) plays its GraphInstance, whose Clip nodes are bound the same way and share
// the cache.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/documents/scene_file.hpp"
#include "asterune/retarget/cache.hpp"
#include "animation_source.hpp"
#include "graph_track.hpp"
#include "run.hpp"

namespace asterune::cli {

/// How many events one frame can report; more are counted (FrameRecord::events_dropped).
inline constexpr int kMaxFrameEvents = 4096;

class AnimatorPoseSource final : public PoseSource {
 public:
  /// Binds every track of `scene` to `rig` (scene.tracks in file order; with an "animation"
  /// block too, that block is first, as the Core track "animation", rule AN10), checks the mask
  /// parts and builds the animator. `frame_dt` is the run's time step (commands run at the
  /// first frame whose time is >= their t, within a thousandth of a step). `base` (optional, the
  /// scene's pose) is written first; the animator's pose replaces the joints it covers.
  /// Throws CliError naming the scene (or clip) and the reason.
  AnimatorPoseSource(const io::SceneDesc& scene, const Rig& rig, float frame_dt, std::optional<Pose> base = {},
                     bool bake = false, bool keep_first_frame = false);  // keep_first_frame: rule RT23

  /// Advances the animator by `dt` and composes the frame (update(0) on the first frame: the
  /// tracks' start state), then runs the commands due at `time` in file order: they show from
  /// the next frame on, as calls a script makes during a frame.
  void sample(float time, float dt, std::span<Transform> local, std::span<float> coverage) override;
  /// The tracks' state this frame's pose was composed with (before the frame's commands) and
  /// its events; the root motion delta when a track extracts root motion.
  std::optional<Transform> finish_frame(io::FrameRecord& record) override;

  /// One line per track for the table's header: "track Walk: FILE, Movement, looped, native"
  /// (a graph track: "track Loco: graph FILE (N nodes), Movement; node walk: FILE, retargeted ...").
  std::vector<std::string> notes() const;
  /// The foot contacts (rule RT17) of the heaviest playing track that has them, at its own
  /// time; none when no track has feet.
  void foot_contacts(float time, std::vector<io::FootContactRecord>& out) const override;
  /// Retargeted tracks whose floor comes from the rest pose (rule RT16): one line each.
  std::vector<std::string> contact_notes() const;
  const Animator& animator() const { return animator_; }
  /// Rule F27: one buffer per snapshot id, sized here once the steps are known.
  void prepare_rollback(std::span<const std::unique_ptr<FrameStep>> steps) override;
  /// Rule F27: the frame's snapshot saves, or its restore puts back, the root motion and steps.
  void finish_rollback(std::optional<Transform>& motion, std::span<const std::unique_ptr<FrameStep>> steps) override;

 private:
  Rig rig_;  // a copy: the Run that owns this source may move its own rig
  std::optional<Pose> base_;
  float frame_dt_ = 0.0f;
  std::vector<Transform> scratch_local_;
  std::vector<float> scratch_coverage_;
  RetargetCache cache_;                             // shared by the tracks retargeted from one skeleton
  std::vector<std::unique_ptr<BoundClip>> clips_;   // one per track (null for a graph track); the animator points into them
  std::vector<std::unique_ptr<BoundGraph>> graphs_; // one per track (null for a clip track)
  // A set_parameter command with "over" (rule F10): the value moves linearly from `from` (the
  // value when the command ran, at `start`) to `to`, set before each frame's update.
  struct Ramp {
    int track = -1;
    GraphParameter parameter;
    float from = 0.0f, to = 0.0f, start = 0.0f, over = 0.0f;
  };
  std::vector<Ramp> ramps_;
  void run_set_parameter(int track, const io::SceneParameterValue& value, float time);
  // A snapshot command's buffer (rule F27): the animator's state (with every graph's), the
  // ramps, the root motion so far and each step's state, saved after the frame's commands.
  struct Snapshot {
    std::string id;
    std::vector<std::byte> animator;
    std::vector<Ramp> ramps;
    float time = 0.0f;  // the frame it was taken at: a restored ramp keeps its remaining time
    std::optional<Transform> motion;
    std::vector<std::vector<std::byte>> steps;
  };
  std::vector<Snapshot> snapshots_;
  // This frame's snapshot and restore commands in file order, finished in finish_rollback.
  struct PendingState {
    int snapshot = 0;
    bool restore = false;
  };
  std::vector<PendingState> pending_;
  void run_state_command(const io::SceneCommand& command, float time);
  void record_graph(int track, io::TrackRecord& record) const;
  std::vector<std::string> notes_;
  Animator animator_;
  std::vector<io::SceneCommand> commands_;
  std::vector<int> command_track_;                  // animator track of each command
  std::vector<bool> applied_;
  std::vector<io::TrackRecord> tracks_;             // the tracks' state the last pose was composed with
  bool root_motion_ = false;
  std::vector<AnimEvent> events_;
  AnimatorReport report_;
};

}  // namespace asterune::cli
