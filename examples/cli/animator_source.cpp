#include "animator_source.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/rig/rig.hpp"

namespace asterune::cli {

namespace {

const char* event_kind_name(AnimEventKind kind) {
  switch (kind) {
    case AnimEventKind::kMarker: return "marker";
    case AnimEventKind::kKeyframe: return "keyframe";
    case AnimEventKind::kLooped: return "looped";
    case AnimEventKind::kStopped: return "stopped";
    case AnimEventKind::kEnded: return "ended";
  }
  return "marker";
}

}  // namespace

AnimatorPoseSource::AnimatorPoseSource(const io::SceneDesc& scene, const Rig& rig, float frame_dt,
                                       std::optional<Pose> base, bool bake, bool keep_first_frame)
    : rig_(rig), base_(std::move(base)), frame_dt_(frame_dt) {
  const std::string file = scene.file.empty() ? std::string("scene") : scene.file.string();
  const size_t n = static_cast<size_t>(rig.joint_count());
  scratch_local_.resize(n);
  scratch_coverage_.resize(n);

  if (Status masks = io::check_track_masks(scene.tracks, rig, file); !masks) throw CliError(masks.message());
  std::vector<io::SceneTrack> tracks;
  if (scene.animation) {
    // --clip may add an "animation" block to a scene whose tracks already use the name.
    for (const io::SceneTrack& t : scene.tracks)
      if (t.name == io::kAnimationTrackName)
        throw CliError(file + ": the track name 'animation' is taken by the scene's \"animation\" block (or --clip)");
    tracks.push_back(io::animation_track(*scene.animation));
  }
  tracks.insert(tracks.end(), scene.tracks.begin(), scene.tracks.end());

  std::vector<TrackDesc> descs;
  for (size_t i = 0; i < tracks.size(); ++i) {
    const io::SceneTrack& t = tracks[i];
    const bool is_animation_block = scene.animation && i == 0;
    if (t.graph) {  // rule F10: the track plays the graph (rule GR15)
      const int index = static_cast<int>(i) - (scene.animation ? 1 : 0);  // its place in "tracks"
      auto graph = std::make_unique<BoundGraph>();
      bind_graph(*graph, t, rig, bake, &cache_, keep_first_frame, graph_label(t, file, index));
      TrackDesc d = graph_track_desc(t, *graph);  // rule GR16: root_motion is the graph's blended root step
      root_motion_ = root_motion_ || t.root_motion;
      std::string note = "track " + t.name + ": graph " +
                         (t.graph_file.empty() ? std::string("(inline)") : t.graph_file.string()) + " (" +
                         std::to_string(graph->instance.node_count()) + " nodes), " + to_string(d.priority) +
                         (t.mask_parts.empty() ? "" : ", masked");
      for (size_t k = 0; k < graph->clips.size(); ++k)
        note += "; node " + graph->instance.node_id(graph->clip_node[k]) + ": " +
                t.graph->desc.nodes[static_cast<size_t>(graph->clip_node[k])].clip_source + ", " +
                graph->clips[k]->description(rig);
      notes_.push_back(std::move(note));
      descs.push_back(std::move(d));
      clips_.push_back(nullptr);
      graphs_.push_back(std::move(graph));
      continue;
    }
    auto bound = std::make_unique<BoundClip>();
    bind_clip(*bound, t.clip, t.retarget, rig, bake, &cache_, keep_first_frame, t.cycle);
    const TrackDesc d = scene_track_desc(t, *bound, is_animation_block);
    root_motion_ = root_motion_ || t.root_motion;
    notes_.push_back("track " + t.name + ": " + t.clip.string() + ", " + to_string(d.priority) + ", " +
                     (d.looped ? "looped" : "once") + (t.additive ? ", additive" : "") +
                     (t.mask_parts.empty() ? "" : ", masked") + (t.root_motion ? ", root motion" : "") + ", " +
                     bound->description(rig));
    descs.push_back(std::move(d));
    clips_.push_back(std::move(bound));
    graphs_.push_back(nullptr);
  }
  Result<Animator> built = Animator::build(rig, descs);
  if (!built) throw CliError(file + ": " + built.message());
  animator_ = std::move(built).value();

  commands_ = scene.commands;
  size_t ramp_commands = 0;
  for (const io::SceneCommand& c : commands_) {
    ramp_commands += c.kind == io::SceneCommandKind::kSetParameter ? 1 : 0;
    if (c.kind == io::SceneCommandKind::kSnapshot || c.kind == io::SceneCommandKind::kRestore) {
      command_track_.push_back(-1);  // whole-character (rule F27)
      if (c.kind == io::SceneCommandKind::kSnapshot &&
          std::none_of(snapshots_.begin(), snapshots_.end(), [&](const Snapshot& s) { return s.id == c.snapshot; }))
        snapshots_.push_back(Snapshot{c.snapshot, std::vector<std::byte>(animator_.snapshot_size()), {}, 0.0f, {}, {}});
      continue;
    }
    const int track = animator_.find_track(c.track);
    if (track < 0) throw CliError(file + ": command at t = " + std::to_string(c.t) + ": unknown track '" + c.track + "'");
    command_track_.push_back(track);
  }
  applied_.assign(commands_.size(), false);
  // Reserved so that a ramp and a snapshot's copy of the ramps never allocate during the run.
  ramps_.reserve(ramp_commands);
  pending_.reserve(commands_.size());
  for (Snapshot& snap : snapshots_) snap.ramps.reserve(ramp_commands);
  tracks_.resize(static_cast<size_t>(animator_.track_count()));
  for (int t = 0; t < animator_.track_count(); ++t) tracks_[static_cast<size_t>(t)].name = animator_.desc(t).name;
  events_.resize(static_cast<size_t>(kMaxFrameEvents));
}

void AnimatorPoseSource::run_set_parameter(int track, const io::SceneParameterValue& value, float time) {
  GraphInstance& graph = graphs_[static_cast<size_t>(track)]->instance;
  const GraphParameter p = graph.find_parameter(value.name);
  // A new value replaces a ramp still moving the same parameter, as a script's last call wins.
  std::erase_if(ramps_, [&](const Ramp& r) { return r.track == track && r.parameter.index == p.index; });
  if (value.type == GraphParameterType::kNumber && value.over > 0.0f) {
    ramps_.push_back(Ramp{track, p, graph.number(p), value.number, time, value.over});
    return;
  }
  set_graph_parameter(graph, value, value.number);
}

void AnimatorPoseSource::run_state_command(const io::SceneCommand& c, float time) {
  int index = 0;
  while (snapshots_[static_cast<size_t>(index)].id != c.snapshot) ++index;  // the reader checked the id
  Snapshot& snap = snapshots_[static_cast<size_t>(index)];
  if (c.kind == io::SceneCommandKind::kSnapshot) {
    animator_.snapshot(snap.animator);
    snap.ramps = ramps_;
    snap.time = time;
    pending_.push_back(PendingState{index, false});
    return;
  }
  animator_.restore(snap.animator);
  // The scene clock goes on: a ramp saved running resumes with the time it had left.
  ramps_ = snap.ramps;
  for (Ramp& r : ramps_) r.start += time - snap.time;
  pending_.push_back(PendingState{index, true});
}

void AnimatorPoseSource::prepare_rollback(std::span<const std::unique_ptr<FrameStep>> steps) {
  for (Snapshot& snap : snapshots_) {
    snap.steps.clear();
    for (const auto& step : steps) snap.steps.emplace_back(step->state_size());
  }
}

void AnimatorPoseSource::finish_rollback(std::optional<Transform>& motion,
                                         std::span<const std::unique_ptr<FrameStep>> steps) {
  for (const PendingState& p : pending_) {
    Snapshot& snap = snapshots_[static_cast<size_t>(p.snapshot)];
    if (p.restore) motion = snap.motion;
    else snap.motion = motion;
    for (size_t i = 0; i < steps.size() && i < snap.steps.size(); ++i) {
      if (p.restore) steps[i]->load_state(snap.steps[i]);
      else steps[i]->save_state(snap.steps[i]);
    }
  }
  pending_.clear();
}

void AnimatorPoseSource::record_graph(int track, io::TrackRecord& r) const {
  const BoundGraph* bound = graphs_[static_cast<size_t>(track)].get();
  if (!bound) return;
  const GraphInstance& g = bound->instance;
  io::GraphRecord rec;
  for (int p = 0; p < g.parameter_count(); ++p) {
    io::GraphParameterRecord pr;
    pr.name = g.parameter_name(p);
    const GraphParameter h{p};
    switch (g.parameter_type(p)) {
      case GraphParameterType::kNumber: pr.type = io::GraphParameterRecord::Type::kNumber; pr.number = g.number(h); break;
      case GraphParameterType::kBool: pr.type = io::GraphParameterRecord::Type::kBool; pr.boolean = g.boolean(h); break;
      case GraphParameterType::kString:
        pr.type = io::GraphParameterRecord::Type::kString;
        pr.string = std::string(g.string(h));
        break;
    }
    rec.parameters.push_back(std::move(pr));
  }
  for (int n = 0; n < g.node_count(); ++n) {
    rec.nodes.push_back(io::GraphNodeRecord{g.node_id(n), g.node_weight(n), g.node_time(n), g.node_phase(n), {}});
    if (const GraphWarpReport w = g.warp_report(n); w.warp)  // rule LO9
      rec.nodes.back().warp = io::GraphWarpRecord{w.stride_scale, w.play_rate, w.lower_body_yaw, w.pelvis_drop, w.ignored};
  }
  r.graph = std::move(rec);
}

void AnimatorPoseSource::sample(float time, float dt, std::span<Transform> local, std::span<float> coverage) {
  // Ramps first: the value a script would set at the start of this frame (rule F10).
  for (const Ramp& r : ramps_) {
    const float u = std::clamp((time - r.start) / r.over, 0.0f, 1.0f);
    graphs_[static_cast<size_t>(r.track)]->instance.set_number(r.parameter, u >= 1.0f ? r.to : r.from + (r.to - r.from) * u);
  }
  std::erase_if(ramps_, [&](const Ramp& r) { return time - r.start >= r.over; });
  if (!base_) {
    report_ = animator_.update(rig_, dt, local, coverage, events_);
  } else {
    std::copy(base_->local.begin(), base_->local.end(), local.begin());
    std::copy(base_->coverage.begin(), base_->coverage.end(), coverage.begin());
    report_ = animator_.update(rig_, dt, scratch_local_, scratch_coverage_, events_);
    for (size_t j = 0; j < scratch_local_.size(); ++j) {
      if (scratch_coverage_[j] <= 0.0f) continue;
      local[j] = scratch_local_[j];
      coverage[j] = scratch_coverage_[j];
    }
  }
  // The state the pose was composed with, before this frame's commands change it.
  for (int t = 0; t < animator_.track_count(); ++t) {
    const TrackState& st = animator_.state(t);
    io::TrackRecord& r = tracks_[static_cast<size_t>(t)];
    r.weight = st.weight_current;
    r.time = st.time_position;
    r.playing = st.playing;
    r.weight_target = st.weight_target;
    r.speed = st.speed;
    record_graph(t, r);
  }
  // Commands due at this frame, in file order (a thousandth of a step absorbs the rounding of
  // frame * dt, so a command at t = 1 runs at frame 60 of a 60 Hz run).
  const float due = time + 1e-3f * frame_dt_;
  for (size_t i = 0; i < commands_.size(); ++i) {
    if (applied_[i] || commands_[i].t > due) continue;
    applied_[i] = true;
    const io::SceneCommand& c = commands_[i];
    const int track = command_track_[i];
    switch (c.kind) {
      case io::SceneCommandKind::kPlay: animator_.play(track, c.play); break;
      case io::SceneCommandKind::kStop: animator_.stop(track, c.fade); break;
      case io::SceneCommandKind::kAdjustWeight: animator_.adjust_weight(track, c.weight, c.fade); break;
      case io::SceneCommandKind::kAdjustSpeed: animator_.adjust_speed(track, c.speed); break;
      case io::SceneCommandKind::kSetTime: animator_.set_time(track, c.time); break;
      case io::SceneCommandKind::kSetParameter: run_set_parameter(track, c.parameter, time); break;
      case io::SceneCommandKind::kSnapshot:
      case io::SceneCommandKind::kRestore: run_state_command(c, time); break;
    }
  }
}

std::optional<Transform> AnimatorPoseSource::finish_frame(io::FrameRecord& record) {
  record.tracks.insert(record.tracks.end(), tracks_.begin(), tracks_.end());
  if (report_.ok) {
    for (int i = 0; i < report_.events_written; ++i) {
      const AnimEvent& e = events_[static_cast<size_t>(i)];
      io::EventRecord r;
      r.track = e.track >= 0 && e.track < animator_.track_count() ? animator_.desc(e.track).name : std::string();
      r.kind = event_kind_name(e.kind);
      r.name = std::string(e.name);
      r.value = std::string(e.value);
      r.time = e.time;
      const BoundGraph* graph =
          e.track >= 0 && e.track < static_cast<int>(graphs_.size()) ? graphs_[static_cast<size_t>(e.track)].get() : nullptr;
      if (graph && e.node >= 0 && e.node < graph->instance.node_count()) {  // rules F10, AN12
        r.node = graph->instance.node_id(e.node);
        r.weight = e.weight;
      }
      record.events.push_back(std::move(r));
    }
    record.events_dropped = report_.events_dropped;
  }
  if (!root_motion_) return std::nullopt;
  return report_.ok ? report_.root_delta : Transform::identity();
}

std::vector<std::string> AnimatorPoseSource::notes() const { return notes_; }

void AnimatorPoseSource::foot_contacts(float, std::vector<io::FootContactRecord>& out) const {
  out.clear();
  // The heaviest playing track with feet: a clip track's contacts at its time, or a graph
  // track's blended contacts (rule GR16: its Clips' states weighted as their poses).
  int best = -1;
  float weight = 0.0f;
  for (size_t t = 0; t < clips_.size() && t < tracks_.size(); ++t) {
    const bool feet = clips_[t] ? !clips_[t]->contacts.feet.empty() : graphs_[t]->instance.foot_count() > 0;
    if (!feet || !tracks_[t].playing || (best >= 0 && tracks_[t].weight <= weight)) continue;
    best = static_cast<int>(t);
    weight = tracks_[t].weight;
  }
  if (best < 0) return;
  const auto b = static_cast<size_t>(best);
  if (const BoundGraph* g = graphs_[b].get()) {
    for (int f = 0; f < g->instance.foot_count(); ++f)
      out.push_back(io::FootContactRecord{std::string(g->instance.foot_label(f)), g->instance.foot_contact(f)});
    return;
  }
  const BoundClip& clip = *clips_[b];
  for (size_t i = 0; i < clip.contacts.feet.size(); ++i)
    out.push_back(io::FootContactRecord{clip.contacts.feet[i].label, clip.contacts.in_contact(i, tracks_[b].time)});
}

std::vector<std::string> AnimatorPoseSource::contact_notes() const {
  std::vector<std::string> out;
  for (const auto& clip : clips_)
    if (clip && !clip->contact_note.empty()) out.push_back(clip->contact_note);
  for (const auto& graph : graphs_)
    for (size_t k = 0; graph && k < graph->clips.size(); ++k)
      if (!graph->clips[k]->contact_note.empty()) out.push_back(graph->clips[k]->contact_note);
  return out;
}

}  // namespace asterune::cli
