#include "scene_host.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/documents/pose_file.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/documents/scene_tracks.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/rig/pose.hpp"
#include "run.hpp"

namespace asterune::viewer {

glm::vec3 crowd_offset(int i, int count) {
  const int side = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count)))));
  return {kCrowdSpacing * static_cast<float>(i % side), 0.0f, kCrowdSpacing * static_cast<float>(i / side)};
}

namespace {

// A pose as a clip of one key per joint (named as the rig names them, so it binds natively,
// rule P3): how the viewer plays a scene's "pose" (or the rest pose) through the animator.
Clip pose_as_clip(const Rig& rig, const Pose& pose) {
  Clip c;
  c.name = "pose";
  c.duration = 1.0f;
  for (int j = 0; j < rig.joint_count(); ++j) {
    const auto i = static_cast<size_t>(j);  // every joint: an uncovered one keys identity, its rest
    ClipTrack t;
    t.name = rig.child_name(j);
    t.rotation_times = {0.0f};
    t.rotations = {pose.local[i].rotation};
    t.translation_times = {0.0f};
    t.translations = {pose.local[i].position};
    c.tracks.push_back(std::move(t));
  }
  return c;
}

}  // namespace

SceneHost::SceneHost(const std::string& scene_file) {
  Result<io::SceneDesc> s = io::read_scene_file(scene_file);
  if (!s) throw cli::CliError(s.message());
  scene_ = std::move(s.value());
  const std::string file = scene_.file.string();
  Result<Rig> rig = io::load_rig(scene_.rig);
  if (!rig) throw cli::CliError(rig.message());
  rig_ = std::move(rig.value());
  if (rig_.joint_count() == 0) throw cli::CliError(scene_.rig + ": the rig has no usable joints");
  if (scene_.ground) {
    Result<Ground> g = build_ground(*scene_.ground);
    if (!g) throw cli::CliError(file + ": ground: " + g.message());
    ground_ = std::move(g.value());
  }

  // Tracks as asterune-solve's animator source binds them: the "animation" block first (the
  // Core track "animation", rule AN10), then "tracks" in file order.
  if (Status masks = io::check_track_masks(scene_.tracks, rig_, file); !masks) throw cli::CliError(masks.message());
  std::vector<io::SceneTrack> tracks;
  if (scene_.animation) tracks.push_back(io::animation_track(*scene_.animation));
  tracks.insert(tracks.end(), scene_.tracks.begin(), scene_.tracks.end());
  for (size_t i = 0; i < tracks.size(); ++i) {
    const io::SceneTrack& t = tracks[i];
    if (t.graph) {  // rule F10, as asterune-solve binds it
      auto graph = std::make_unique<cli::BoundGraph>();
      cli::bind_graph(*graph, t, rig_, false, &cache_, false,
                      cli::graph_label(t, file, static_cast<int>(i) - (scene_.animation ? 1 : 0)));
      TrackDesc d = cli::graph_track_desc(t, *graph);
      root_motion_ = root_motion_ || t.root_motion;
      notes.push_back("track " + t.name + ": graph " +
                      (t.graph_file.empty() ? std::string("(inline)") : t.graph_file.filename().string()) + ", " +
                      std::to_string(graph->instance.node_count()) + " nodes");
      std::vector<std::byte> start(graph->instance.snapshot_size());
      graph->instance.snapshot(start);
      graph_start_.push_back(std::move(start));
      tracks_.push_back(d);
      clips_.push_back(nullptr);
      graphs_.push_back(std::move(graph));
      has_graphs_ = true;
      continue;
    }
    auto bound = std::make_unique<cli::BoundClip>();
    cli::bind_clip(*bound, t.clip, t.retarget, rig_, false, &cache_);
    const TrackDesc d = cli::scene_track_desc(t, *bound, scene_.animation && i == 0);
    root_motion_ = root_motion_ || t.root_motion;
    notes.push_back("track " + t.name + ": " + t.clip.filename().string() + ", " + bound->description(rig_));
    tracks_.push_back(d);
    clips_.push_back(std::move(bound));
    graphs_.push_back(nullptr);
    graph_start_.emplace_back();
  }
  // The scene's pose (or, with nothing else to play, the rest pose) is a Core track under the
  // others; a Core "animation" block then moves up to Idle so that it overrides the pose where
  // it covers a joint, as asterune-solve writes the clip over the pose.
  if (scene_.pose || tracks_.empty()) {
    Pose pose = make_pose(rig_);
    if (scene_.pose) {
      Result<Pose> p = io::read_pose_file(*scene_.pose, rig_);
      if (!p) throw cli::CliError(p.message());
      pose = std::move(p.value());
    }
    pose_clip_ = pose_as_clip(rig_, pose);
    Result<AnimationBinding> b = build_animation_binding(pose_clip_, rig_, nullptr, nullptr);
    if (!b) throw cli::CliError(file + ": pose: " + b.message());
    pose_binding_ = std::move(b.value());
    for (TrackDesc& d : tracks_)
      if (d.priority == TrackPriority::kCore) d.priority = TrackPriority::kIdle;
    TrackDesc d;
    d.name = scene_.pose ? "pose" : "rest";
    d.clip = &pose_clip_;
    d.binding = &pose_binding_;
    d.priority = TrackPriority::kCore;
    tracks_.insert(tracks_.begin(), std::move(d));
    graphs_.insert(graphs_.begin(), nullptr);  // graphs_ stays indexed by animator track
    graph_start_.insert(graph_start_.begin(), std::vector<std::byte>{});
  }

  setup_.rig = &rig_;
  setup_.tracks = tracks_;
  setup_.ground = ground();
  controls_ = scene_.controls;
  Result<Character> c = build_character(setup_, controls_, root_at(0.0f));
  if (!c) throw cli::CliError(file + ": " + c.message());
  start_ = std::move(c.value());
  for (const io::SceneCommand& cmd : scene_.commands) {
    if (cmd.kind == io::SceneCommandKind::kSnapshot || cmd.kind == io::SceneCommandKind::kRestore) {
      command_track_.push_back(-1);  // whole-character (rule F27)
      if (cmd.kind == io::SceneCommandKind::kSnapshot &&
          std::none_of(snapshots_.begin(), snapshots_.end(), [&](const Snapshot& s) { return s.id == cmd.snapshot; }))
        snapshots_.push_back(Snapshot{cmd.snapshot, {}, {}, {}, 0.0f});
      continue;
    }
    const int track = start_.animator.find_track(cmd.track);
    if (track < 0) throw cli::CliError(file + ": command: unknown track '" + cmd.track + "'");
    command_track_.push_back(track);
  }
  set_crowd(1);
}

Transform SceneHost::root_at(float t) const {
  if (!scene_.root_path.empty()) return io::sample_root_path(scene_.root_path, t);
  return scene_.root ? *scene_.root : io::default_root_placement(rig_);
}

Transform SceneHost::start_root() const { return root_at(0.0f); }

GraphInstance* SceneHost::graph(int track) {
  if (track < 0 || track >= static_cast<int>(graphs_.size()) || !graphs_[static_cast<size_t>(track)]) return nullptr;
  return &graphs_[static_cast<size_t>(track)]->instance;
}

void SceneHost::cancel_ramp(int track, GraphParameter p) {
  std::erase_if(ramps_, [&](const Ramp& r) { return r.track == track && r.parameter.index == p.index; });
}

// Copies of a character share its animator's pose sources, so characters 1..n-1 each get their
// own instances of the bound graphs and an animator built to play them.
void SceneHost::build_crowd_graphs(int n) {
  crowd_graphs_.clear();
  crowd_animators_.clear();
  if (!has_graphs_) return;
  for (int i = 1; i < n; ++i) {
    std::vector<std::unique_ptr<GraphInstance>> own(graphs_.size());
    std::vector<TrackDesc> tracks = tracks_;
    for (size_t t = 0; t < graphs_.size(); ++t) {
      if (!graphs_[t]) continue;
      Result<GraphInstance> g = build_graph(graphs_[t]->desc, rig_);
      if (!g) throw cli::CliError(scene_.file.string() + ": crowd character " + std::to_string(i) + ": " + g.message());
      own[t] = std::make_unique<GraphInstance>(std::move(g).value());
      tracks[t].source = own[t].get();
    }
    Result<Animator> a = Animator::build(rig_, tracks, setup_.composition);
    if (!a) throw cli::CliError(scene_.file.string() + ": crowd character " + std::to_string(i) + ": " + a.message());
    crowd_graphs_.push_back(std::move(own));
    crowd_animators_.push_back(std::move(a).value());
  }
}

void SceneHost::set_crowd(int n) {
  n = std::clamp(n, 1, kMaxCrowd);
  build_crowd_graphs(n);
  characters_.assign(static_cast<size_t>(n), start_);
  motion_.assign(static_cast<size_t>(n), Transform::identity());
  for (Snapshot& snap : snapshots_) {  // sized here, so a snapshot command allocates nothing
    snap.characters.assign(static_cast<size_t>(n), std::vector<std::byte>(character_snapshot_size(start_)));
    snap.motion.assign(static_cast<size_t>(n), Transform::identity());
    snap.ramps.reserve(scene_.commands.size());
  }
  ramps_.reserve(scene_.commands.size());
  // The stacks were built from controls_ with their current edits (enabled, weight, ...):
  // copies of start_ carry the scene's values, so the edits are applied again.
  for (int i = 0; i < control_count(); ++i) {
    const ControlDesc& d = controls_[static_cast<size_t>(i)];
    set_enabled(i, d.enabled);
    set_weight(i, d.weight);
    set_priority(i, d.priority);
    set_smooth_time(i, d.smooth_time);
    if (d.target.kind == TargetKind::kPosition) set_target(i, d.target.position);
  }
  reset();
}

void SceneHost::reset() {
  for (size_t i = 0; i < characters_.size(); ++i) {
    Character& c = characters_[i];
    c.animator = i == 0 || crowd_animators_.empty() ? start_.animator : crowd_animators_[i - 1];
    c.scene_time = 0.0f;
    for (int k = 0; k < c.stack.size(); ++k) c.stack.reset(k);
    motion_[i] = Transform::identity();
  }
  for (size_t t = 0; t < graphs_.size(); ++t)
    for_each_graph(static_cast<int>(t), [&](GraphInstance& g) { g.restore(graph_start_[t]); });
  ramps_.clear();
  applied_.assign(scene_.commands.size(), false);
  frame_ = 0;
  time_ = 0.0f;
}

void SceneHost::advance(float dt, WorkerPool& pool) {
  const float step = frame_ == 0 ? 0.0f : dt;
  const float t = frame_ == 0 ? 0.0f : time_ + dt;
  for (const Ramp& r : ramps_) {  // the value a script would set before this frame (rule F10)
    const float u = std::clamp((t - r.start) / r.over, 0.0f, 1.0f);
    const float value = u >= 1.0f ? r.to : r.from + (r.to - r.from) * u;
    for_each_graph(r.track, [&](GraphInstance& g) { g.set_number(r.parameter, value); });
  }
  std::erase_if(ramps_, [&](const Ramp& r) { return t - r.start >= r.over; });
  const Transform base = root_at(t);
  const int n = static_cast<int>(characters_.size());
  for (int i = 0; i < n; ++i) {
    Transform root = root_motion_ ? base * motion_[static_cast<size_t>(i)] : base;
    root.position += crowd_offset(i, n);
    characters_[static_cast<size_t>(i)].root = root;
  }
  update_characters(setup_, characters_, step,
                    [&pool](std::size_t count, CharacterRange body) { pool.run(count, body); });
  // The update moved each root by this frame's root motion before its controls ran (rule AN16);
  // the motion so far goes under next frame's root path (as asterune-solve's run_frames does).
  if (root_motion_)
    for (size_t i = 0; i < characters_.size(); ++i) motion_[i] = motion_[i] * characters_[i].root_delta;
  run_commands(t);
  time_ = t;
  ++frame_;
}

// Commands due at this frame's time, in file order, after its update (they show from the next
// frame, as in asterune-solve; a thousandth of a step absorbs the rounding of frame * dt).
void SceneHost::run_commands(float t) {
  const float due = t + 1e-3f * scene_.dt;
  for (size_t k = 0; k < scene_.commands.size(); ++k) {
    if (applied_[k] || scene_.commands[k].t > due) continue;
    applied_[k] = true;
    const io::SceneCommand& c = scene_.commands[k];
    const int track = command_track_[k];
    if (c.kind == io::SceneCommandKind::kSnapshot || c.kind == io::SceneCommandKind::kRestore) {
      run_state_command(c, t);
      continue;
    }
    if (c.kind == io::SceneCommandKind::kSetParameter) {  // the graph, not the characters' animators
      GraphInstance* g = graph(track);
      if (!g) continue;
      const GraphParameter p = g->find_parameter(c.parameter.name);
      cancel_ramp(track, p);
      if (c.parameter.type == GraphParameterType::kNumber && c.parameter.over > 0.0f)
        ramps_.push_back(Ramp{track, p, g->number(p), c.parameter.number, t, c.parameter.over});
      else
        for_each_graph(track, [&](GraphInstance& each) { cli::set_graph_parameter(each, c.parameter, c.parameter.number); });
      continue;
    }
    for (Character& ch : characters_) {
      switch (c.kind) {
        case io::SceneCommandKind::kPlay: ch.animator.play(track, c.play); break;
        case io::SceneCommandKind::kStop: ch.animator.stop(track, c.fade); break;
        case io::SceneCommandKind::kAdjustWeight: ch.animator.adjust_weight(track, c.weight, c.fade); break;
        case io::SceneCommandKind::kAdjustSpeed: ch.animator.adjust_speed(track, c.speed); break;
        case io::SceneCommandKind::kSetTime: ch.animator.set_time(track, c.time); break;
        case io::SceneCommandKind::kSetParameter:
        case io::SceneCommandKind::kSnapshot:
        case io::SceneCommandKind::kRestore: break;  // handled above
      }
    }
  }
}

// Rule F27: every character of the crowd saves (or gets back) its whole state and root motion.
void SceneHost::run_state_command(const io::SceneCommand& c, float t) {
  auto snap = std::find_if(snapshots_.begin(), snapshots_.end(), [&](const Snapshot& s) { return s.id == c.snapshot; });
  if (snap == snapshots_.end()) return;  // the reader checked the id
  for (size_t i = 0; i < characters_.size() && i < snap->characters.size(); ++i) {
    if (c.kind == io::SceneCommandKind::kSnapshot) {
      snapshot_character(characters_[i], snap->characters[i]);
      snap->motion[i] = motion_[i];
    } else {
      restore_character(characters_[i], snap->characters[i]);
      motion_[i] = snap->motion[i];
    }
  }
  if (c.kind == io::SceneCommandKind::kSnapshot) {
    snap->ramps = ramps_;
    snap->time = t;
    return;
  }
  ramps_ = snap->ramps;
  for (Ramp& r : ramps_) r.start += t - snap->time;
}

int SceneHost::find_control(const std::string& name) const { return start_.stack.find(name); }

void SceneHost::set_enabled(int i, bool enabled) {
  controls_[static_cast<size_t>(i)].enabled = enabled;
  for (Character& c : characters_) c.stack.set_enabled(i, enabled);
}
void SceneHost::set_weight(int i, float weight) {
  controls_[static_cast<size_t>(i)].weight = weight;
  for (Character& c : characters_) c.stack.set_weight(i, weight);
}
void SceneHost::set_priority(int i, int priority) {
  controls_[static_cast<size_t>(i)].priority = priority;
  for (Character& c : characters_) c.stack.set_priority(i, priority);
}
void SceneHost::set_smooth_time(int i, float seconds) {
  controls_[static_cast<size_t>(i)].smooth_time = seconds;
  for (Character& c : characters_) c.stack.set_smooth_time(i, seconds);
}
void SceneHost::set_target(int i, const glm::vec3& p) {
  controls_[static_cast<size_t>(i)].target = target_at(p);
  const int n = static_cast<int>(characters_.size());
  for (int k = 0; k < n; ++k) characters_[static_cast<size_t>(k)].stack.set_target_position(i, p + crowd_offset(k, n));
}

std::string SceneHost::rebind_controls() {
  Result<ControlStack> stack = ControlStack::build(rig_, controls_);
  if (!stack) return stack.message();
  start_.stack = std::move(stack.value());
  for (Character& c : characters_) c.stack = start_.stack;
  for (int i = 0; i < control_count(); ++i) {  // crowd copies: static targets at their own offset
    const ControlDesc& d = controls_[static_cast<size_t>(i)];
    if (d.target.kind == TargetKind::kPosition) set_target(i, d.target.position);
  }
  return {};
}

}  // namespace asterune::viewer
