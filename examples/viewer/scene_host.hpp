// asterune-viewer: a scene as an engine holds it. Everything the characters share is built once
// (rig, ground, bound clips, TrackDescs: one CharacterSetup), every character is a Character of
// runtime/character.hpp, and one frame is advance(dt): place the roots, update_characters on the
// viewer's worker pool (the batch API), apply the root motion, run the scene's commands due.
// Scenes are read with the CLI's own code (io::read_scene_file, cli::bind_clip, cli::bind_graph),
// so the viewer opens every scene asterune-solve opens. A graph track's GraphInstance is the
// track's pose source (rule GR15) and holds that character's graph state, so every character of
// a crowd gets its own instance of the bound graph (its clips shared, rule GR13).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "animation_source.hpp"
#include "graph_track.hpp"
#include "asterune/controls/ground.hpp"
#include "asterune/documents/scene_file.hpp"
#include "asterune/retarget/cache.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"
#include "worker_pool.hpp"

namespace asterune::viewer {

inline constexpr int kMaxCrowd = 10000;
inline constexpr float kCrowdSpacing = 4.0f;  // studs between crowd characters

/// The crowd grid: character i's offset from character 0 (i = 0 at the origin; rows along +Z).
glm::vec3 crowd_offset(int i, int count);

class SceneHost {
 public:
  /// Loads `scene_file` like asterune-solve does; throws cli::CliError naming the file.
  explicit SceneHost(const std::string& scene_file);

  /// One frame of the engine: roots placed for the time after this step, update_characters
  /// through `pool`, root motion applied, the commands due at this frame's time run.
  /// The first frame after a reset advances by 0 (the start state), as asterune-solve's frame 0.
  void advance(float dt, WorkerPool& pool);
  /// Back to frame 0 with the current crowd size and control settings.
  void reset();
  /// Rebuilds the crowd with n characters (1..kMaxCrowd) from the start state. Throws
  /// cli::CliError when a character's graph cannot be built (it was built once already).
  void set_crowd(int n);
  /// Character 0's graph of animator track `track` (rule F10), or nullptr for a clip track: what
  /// the panel shows. Set parameters through for_each_graph, so the crowd follows.
  GraphInstance* graph(int track);
  bool has_graphs() const { return has_graphs_; }
  /// Calls f(GraphInstance&) on every character's graph of animator track `track` (none for a
  /// clip track): the panel's and the commands' SetParameter reach the whole crowd.
  template <class F>
  void for_each_graph(int track, F&& f) {
    if (!graph(track)) return;
    f(*graph(track));
    for (auto& graphs : crowd_graphs_) f(*graphs[static_cast<size_t>(track)]);
  }
  /// A parameter set from the panel: a running ramp of it (a set_parameter command) stops.
  void cancel_ramp(int track, GraphParameter parameter);

  // Controls: edits go to every character (targets shifted by each crowd offset).
  int control_count() const { return static_cast<int>(controls_.size()); }
  ControlDesc& control_desc(int i) { return controls_[static_cast<size_t>(i)]; }
  const ControlDesc& control_desc(int i) const { return controls_[static_cast<size_t>(i)]; }
  int find_control(const std::string& name) const;
  void set_enabled(int i, bool enabled);
  void set_weight(int i, float weight);
  void set_priority(int i, int priority);
  void set_smooth_time(int i, float seconds);
  void set_target(int i, const glm::vec3& world_point_for_character0);
  /// After editing control_desc(i)'s solver settings: rebinds every stack (setup-time work).
  /// Fails (the old stacks kept) with the library's message.
  std::string rebind_controls();

  const Rig& rig() const { return rig_; }
  const io::SceneDesc& scene() const { return scene_; }
  const Ground* ground() const { return ground_ ? &*ground_ : nullptr; }
  const CharacterSetup& setup() const { return setup_; }
  std::vector<Character>& characters() { return characters_; }
  const std::vector<Character>& characters() const { return characters_; }
  int frame() const { return frame_; }
  float time() const { return time_; }
  /// The root's start placement of character 0 (the default camera looks at it).
  Transform start_root() const;
  std::vector<std::string> notes;  // how the tracks were bound (retargeted or native)

 private:
  Transform root_at(float t) const;  // the scene's root placement at scene time t (character 0)
  void run_commands(float t);

  io::SceneDesc scene_;
  Rig rig_;
  std::optional<Ground> ground_;
  RetargetCache cache_;
  std::vector<std::unique_ptr<cli::BoundClip>> clips_;
  std::vector<std::unique_ptr<cli::BoundGraph>> graphs_;  // per animator track; null for a clip track
  std::vector<std::vector<std::byte>> graph_start_;         // per animator track: its graph's state at frame 0
  // Characters 1..n-1 of a crowd with graph tracks: their graphs (per animator track, null for a
  // clip track) and their animators as built, pointing at them (reset copies these back).
  std::vector<std::vector<std::unique_ptr<GraphInstance>>> crowd_graphs_;
  std::vector<Animator> crowd_animators_;
  void build_crowd_graphs(int n);
  // A set_parameter command with "over": as asterune-solve's (animator_source.hpp).
  struct Ramp {
    int track = -1;
    GraphParameter parameter;
    float from = 0.0f, to = 0.0f, start = 0.0f, over = 0.0f;
  };
  std::vector<Ramp> ramps_;
  // A snapshot command's id (rule F27): per character its snapshot_character() buffer and root
  // motion so far, and the ramps running when it ran (restored with the time they had left).
  struct Snapshot {
    std::string id;
    std::vector<std::vector<std::byte>> characters;
    std::vector<Transform> motion;
    std::vector<Ramp> ramps;
    float time = 0.0f;
  };
  std::vector<Snapshot> snapshots_;
  void run_state_command(const io::SceneCommand& command, float time);
  bool has_graphs_ = false;
  Clip pose_clip_;                 // the scene's pose (or the rest pose) as a one-key clip
  AnimationBinding pose_binding_;
  std::vector<TrackDesc> tracks_;
  CharacterSetup setup_;
  std::vector<ControlDesc> controls_;
  Character start_;                // character 0 as built: the crowd is made of copies
  std::vector<Character> characters_;
  std::vector<Transform> motion_;  // per character: root motion so far (rule AN9)
  std::vector<int> command_track_;
  std::vector<bool> applied_;
  bool root_motion_ = false;
  int frame_ = 0;
  float time_ = 0.0f;
};

}  // namespace asterune::viewer
