// The animator's setup, commands and frame (rules AN1-AN10): build() binds the tracks, the
// commands set fades and times, update() runs the seven steps of docs/animator.md, each in its
// own function (playback and events: animator_playback.cpp; composition:
// animator_compose.cpp; sampling, inertial offsets, root motion: animator_motion.cpp).
#include "asterune/anim/animator.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>

#include "anim/animator_track.hpp"
#include "asterune/clip/binding.hpp"
#include "asterune/core/assert.hpp"
#include "asterune/core/prefetch.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {

using animator_detail::heading;
using animator_detail::rank;
using animator_detail::set_fade;

namespace {

constexpr const char* kPriorityNames[kTrackPriorityCount] = {"Core",    "Idle",    "Movement", "Action",
                                                             "Action2", "Action3", "Action4"};

}  // namespace

const char* to_string(TrackPriority priority) {
  const int r = rank(priority);
  return r >= 0 && r < kTrackPriorityCount ? kPriorityNames[r] : "?";
}

std::optional<TrackPriority> parse_track_priority(std::string_view name) {
  for (int r = 0; r < kTrackPriorityCount; ++r)
    if (name == kPriorityNames[r]) return static_cast<TrackPriority>(r);
  return std::nullopt;
}

int root_motion_joint(const Rig& rig) {
  for (int j = 0; j < rig.joint_count(); ++j)
    if (rig.parent(j) < 0 && rig.part0()[static_cast<size_t>(j)] == rig.root_part()) return j;
  return -1;
}

Animator::Animator() = default;
Animator::~Animator() = default;
Animator::Animator(const Animator&) = default;
Animator::Animator(Animator&&) noexcept = default;
Animator& Animator::operator=(const Animator&) = default;
Animator& Animator::operator=(Animator&&) noexcept = default;

Result<Animator> Animator::build(const Rig& rig, std::span<const TrackDesc> tracks, CompositionMode mode) {
  Animator a;
  a.rig_signature_ = rig.signature();
  a.joint_count_ = rig.joint_count();
  a.mode_ = mode;
  const auto n = static_cast<size_t>(rig.joint_count());
  a.root_joint_ = asterune::root_motion_joint(rig);
  for (size_t t = 0; t < tracks.size(); ++t) {
    TrackDesc d = tracks[t];
    const std::string label = "animator track '" + d.name + "' on rig '" + rig.name() + "'";
    for (size_t u = 0; u < t; ++u)
      if (tracks[u].name == d.name) return make_error(label + ": a track of that name already exists");
    // Rule GR15: a pose-source track plays a stand-in clip (empty, 1 s) so playback, fades and
    // composition run as for any looped track.
    std::shared_ptr<Clip> own_clip;
    std::shared_ptr<AnimationBinding> own_binding;
    if (d.source) {
      if (d.additive) return make_error(label + ": a pose-source (graph) track cannot be additive");
      if (d.root_motion && !d.source->extracts_root_motion())
        return make_error(label + ": its pose source does not extract root motion");
      own_clip = std::make_shared<Clip>();
      own_clip->name = d.name;
      own_clip->duration = 1.0f;
      auto cb = build_clip_binding(*own_clip, rig);
      if (!cb.ok()) return make_error(label + ": " + cb.message());
      own_binding = std::make_shared<AnimationBinding>();
      own_binding->clip_binding = std::move(cb).value();
      d.clip = own_clip.get();
      d.binding = own_binding.get();
      d.looped = true;
    }
    if (!d.clip || !d.binding) return make_error(label + ": the clip and its binding are required");
    const AnimationBinding& b = *d.binding;
    if (b.mode == AnimationMode::kNative && b.clip_binding.target_signature() != rig.signature())
      return make_error(label + ": the clip binding was made for another rig (layout signature differs, rule R7)");
    if (b.mode == AnimationMode::kRetarget && (!b.retarget || b.retarget->target_signature != rig.signature()))
      return make_error(label + ": the retarget binding was not made for this rig (layout signature differs, rule R7)");
    if (!std::isfinite(d.weight) || !std::isfinite(d.speed) || !std::isfinite(d.time) ||
        !std::isfinite(d.reference_time) || !std::isfinite(d.mask.weight))
      return make_error(label + ": weight, speed, time, reference time and mask weight must be finite");
    Track tr;
    tr.desc = d;
    tr.own_clip = own_clip;
    tr.own_binding = own_binding;
    tr.length = std::isfinite(d.clip->duration) && d.clip->duration > 0.0f ? d.clip->duration : 0.0f;
    tr.context = make_animation_context(b);
    tr.local.assign(n, Transform::identity());
    tr.coverage.assign(n, 0.0f);
    tr.claim.assign(n, 0.0f);
    if (d.additive) tr.delta.assign(n, Transform::identity());
    if (!d.mask.parts.empty()) {
      tr.mask.assign(n, 0.0f);
      const float w = std::clamp(d.mask.weight, 0.0f, 1.0f);
      for (const std::string& part : d.mask.parts) {
        const JointLookup lookup = rig.find_joint(part);
        if (!lookup.found())
          return make_error(label + ": mask part '" + part + "' is not a joint of the rig" +
                            (lookup.message.empty() ? std::string() : " (" + lookup.message + ")"));
        const int end = d.mask.descendants ? rig.subtree_end(lookup.index) : lookup.index + 1;
        for (int j = lookup.index; j < end; ++j) tr.mask[static_cast<size_t>(j)] = w;
      }
    }
    for (size_t m = 0; m < d.clip->markers.size(); ++m) {
      if (!std::isfinite(d.clip->markers[m].time))
        return make_error(label + ": marker '" + d.clip->markers[m].name + "' has a nonfinite time");
      tr.markers.push_back(static_cast<int>(m));
    }
    std::stable_sort(tr.markers.begin(), tr.markers.end(), [&](int x, int y) {
      return d.clip->markers[static_cast<size_t>(x)].time < d.clip->markers[static_cast<size_t>(y)].time;
    });
    const WrapMode wrap = d.looped ? WrapMode::kLoop : WrapMode::kClamp;
    if (d.additive) {
      tr.reference.assign(n, Transform::identity());
      if (!sample_animation(*d.clip, b, rig, d.reference_time, wrap, tr.context, tr.reference, tr.coverage))
        return make_error(label + ": the reference pose could not be sampled");
    }
    if (d.source) {
      tr.source_events.assign(static_cast<size_t>(std::max(0, d.source->event_capacity())), PoseSourceEvent{});
      if (d.root_motion && a.root_joint_ < 0) return make_error(label + ": root motion needs a joint on the root part");
    } else if (d.root_motion) {
      if (d.additive) return make_error(label + ": an additive track cannot extract root motion");
      if (a.root_joint_ < 0) return make_error(label + ": root motion needs a joint on the root part");
      const auto r = static_cast<size_t>(a.root_joint_);
      if (b.mode == AnimationMode::kNative && b.clip_binding.track_of(a.root_joint_) < 0)
        return make_error(label + ": root motion: the clip does not drive joint '" + rig.joint_name(a.root_joint_) +
                          "'");
      // Rule AN15: a clip that starts upside down starts at yaw 0; one that ends so, at its start's.
      const auto head = [&](float time, Transform& out, const Transform& fallback) {
        if (!sample_animation(*d.clip, b, rig, time, WrapMode::kClamp, tr.context, tr.local, tr.coverage)) return false;
        out = heading(rig.c0()[r] * tr.local[r] * rig.c1_inverse()[r], 2.0f * std::atan2(fallback.rotation.y, fallback.rotation.w));
        return true;
      };
      if (!head(0.0f, tr.heading_start, Transform::identity()) || !head(tr.length, tr.heading_end, tr.heading_start))
        return make_error(label + ": the root joint could not be sampled");
    }
    tr.state.speed = d.speed;
    tr.state.time_position = wrap_clip_time(d.time, tr.length, wrap);
    if (d.root_motion && !d.source) {
      // The first step's travel starts from the start time's heading.
      const auto r = static_cast<size_t>(a.root_joint_);
      if (!sample_animation(*d.clip, b, rig, tr.state.time_position, wrap, tr.context, tr.local, tr.coverage))
        return make_error(label + ": the root joint could not be sampled");
      tr.heading_prev = heading(rig.c0()[r] * tr.local[r] * rig.c1_inverse()[r],
                                2.0f * std::atan2(tr.heading_start.rotation.y, tr.heading_start.rotation.w));
      tr.heading_valid = true;
    }
    // A fresh context: the build's samples must not leave a cursor position behind.
    tr.context = make_animation_context(b);
    tr.state.playing = d.playing;
    const float w = d.additive ? d.weight : std::max(0.0f, d.weight);
    tr.state.weight_current = tr.state.weight_target = d.playing ? w : 0.0f;
    a.tracks_.push_back(std::move(tr));
  }
  // Composition orders (rule AN4, AN6): stable sorts keep build order within a priority.
  for (int t = 0; t < a.track_count(); ++t)
    (a.tracks_[static_cast<size_t>(t)].desc.additive ? a.additive_order_ : a.override_order_).push_back(t);
  const auto prio = [&](int t) { return rank(a.tracks_[static_cast<size_t>(t)].desc.priority); };
  std::stable_sort(a.override_order_.begin(), a.override_order_.end(), [&](int x, int y) { return prio(x) > prio(y); });
  std::stable_sort(a.additive_order_.begin(), a.additive_order_.end(), [&](int x, int y) { return prio(x) < prio(y); });
  for (size_t i = 0; i < a.override_order_.size(); ++i)
    if (i + 1 == a.override_order_.size() || prio(a.override_order_[i + 1]) != prio(a.override_order_[i]))
      a.level_end_.push_back(static_cast<int>(i + 1));
  a.last_out_.assign(n, Transform::identity());
  a.prev_out_.assign(n, Transform::identity());
  a.next_out_.assign(n, Transform::identity());
  a.decay_rotation_.assign(n, Decay{});
  a.decay_position_.assign(n, Decay{});
  a.scratch_rest_.assign(n, 0.0f);
  a.scratch_sum_.assign(n, 0.0f);
  a.scratch_scale_.assign(n, 0.0f);
  a.scratch_layers_.assign(std::max<size_t>(1, a.override_order_.size()), BlendLayer{});
  a.scratch_additive_.assign(a.additive_order_.size(), AdditiveLayer{});
  return a;
}

int Animator::track_count() const { return static_cast<int>(tracks_.size()); }

int Animator::find_track(std::string_view name) const {
  for (size_t t = 0; t < tracks_.size(); ++t)
    if (tracks_[t].desc.name == name) return static_cast<int>(t);
  return -1;
}

const TrackDesc& Animator::desc(int track) const {
  static const TrackDesc kNone;
  return track >= 0 && track < track_count() ? tracks_[static_cast<size_t>(track)].desc : kNone;
}

const TrackState& Animator::state(int track) const {
  static const TrackState kNone;
  return track >= 0 && track < track_count() ? tracks_[static_cast<size_t>(track)].state : kNone;
}

float Animator::length(int track) const {
  return track >= 0 && track < track_count() ? tracks_[static_cast<size_t>(track)].length : 0.0f;
}

void Animator::play(int track, const PlayOptions& o) {
  if (track < 0 || track >= track_count()) return;
  if (!std::isfinite(o.fade) || !std::isfinite(o.weight) || !std::isfinite(o.speed)) return;
  Track& tr = tracks_[static_cast<size_t>(track)];
  const float fade = std::max(0.0f, o.fade);
  const float weight = tr.desc.additive ? o.weight : std::max(0.0f, o.weight);
  tr.state.playing = true;
  tr.state.speed = o.speed;
  tr.state.time_position = o.speed < 0.0f ? tr.length : 0.0f;
  tr.end_fade = fade;
  tr.ending = false;
  tr.stop_pending = false;
  // Root motion walks from the restart's heading (the clip's start, or its end backwards).
  tr.heading_prev = o.speed < 0.0f ? tr.heading_end : tr.heading_start;
  tr.heading_valid = true;
  if (o.transition == TransitionKind::kInertial && !tr.desc.additive) {
    // Rule AN8: the incoming track takes its weight at once, the others of its level stop at
    // once, and the pose's jump decays over `fade` from the next update.
    set_fade(tr, weight, 0.0f);
    for (size_t u = 0; u < tracks_.size(); ++u) {
      Track& other = tracks_[u];
      if (static_cast<int>(u) == track || other.desc.additive || other.desc.priority != tr.desc.priority) continue;
      if (other.state.playing) {
        other.state.playing = false;
        other.stop_pending = true;
        other.ending = true;
      }
      set_fade(other, 0.0f, 0.0f);
    }
    inertial_pending_ = fade > 0.0f;
    inertial_time_ = fade;
  } else {
    set_fade(tr, weight, fade);
  }
}

void Animator::stop(int track, float fade) {
  if (track < 0 || track >= track_count() || !std::isfinite(fade)) return;
  Track& tr = tracks_[static_cast<size_t>(track)];
  if (tr.state.playing) {
    tr.state.playing = false;
    tr.stop_pending = true;
    tr.ending = true;
  }
  if (!tr.ending) return;  // neither playing nor fading out: nothing to stop
  set_fade(tr, 0.0f, std::max(0.0f, fade));
}

void Animator::adjust_weight(int track, float weight, float fade) {
  if (track < 0 || track >= track_count() || !std::isfinite(weight) || !std::isfinite(fade)) return;
  Track& tr = tracks_[static_cast<size_t>(track)];
  set_fade(tr, tr.desc.additive ? weight : std::max(0.0f, weight), std::max(0.0f, fade));
}

void Animator::adjust_speed(int track, float speed) {
  if (track < 0 || track >= track_count() || !std::isfinite(speed)) return;
  tracks_[static_cast<size_t>(track)].state.speed = speed;
}

void Animator::set_time(int track, float time) {
  if (track < 0 || track >= track_count() || !std::isfinite(time)) return;
  Track& tr = tracks_[static_cast<size_t>(track)];
  tr.state.time_position = wrap_clip_time(time, tr.length, tr.desc.looped ? WrapMode::kLoop : WrapMode::kClamp);
  tr.heading_valid = false;
}

void Animator::prefetch() const {
  for (const Track& tr : tracks_) {
    prefetch_vectors(tr.local, tr.coverage, tr.mask, tr.context.cursor.keys, tr.context.source_local,
                     tr.context.source_coverage);
  }
  prefetch_vectors(last_out_, prev_out_, next_out_);
}
bool Animator::compose(const Rig& rig, std::span<Transform> local, std::span<float> coverage) const {
  const auto n = static_cast<size_t>(joint_count_);
  ASTERUNE_EXPECT_OR_RETURN(rig.signature() == rig_signature_ && rig.joint_count() == joint_count_ &&
                                local.size() == n && coverage.size() == n,
                            "the rig is the animator's and local and coverage hold its joint count", false);
  compose_samples(local, coverage);
  return true;
}

AnimatorReport Animator::update(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage,
                                std::span<AnimEvent> events) {
  AnimatorReport report;
  const auto n = static_cast<size_t>(joint_count_);
  ASTERUNE_EXPECT_OR_RETURN(rig.signature() == rig_signature_ && rig.joint_count() == joint_count_ &&
                                local.size() == n && coverage.size() == n,
                            "the rig is the animator's and local and coverage hold its joint count", report);
  const bool advance = std::isfinite(dt) && dt > 0.0f;
  advance_tracks(dt, advance);               // 1. fades, time, the step's walk (AN1, AN2)
  const bool any_root = sample_tracks(rig);  // 2. samples, sources' events, root motion (AN9)
  write_events(events, report);              // 3. events in step order (AN7, AN12)
  compose_samples(local, coverage);          // 4-5. overrides by priority, additive tracks (AN4-AN6)
  weigh_events(events, report.events_written);  // 5b. the events' weights (AN12)
  capture_inertial(local);                   // 6. an inertial transition's offsets (AN8)
  decay_inertial(local, dt, advance);
  if (any_root) report.root_delta = root_delta();  // 7. root motion (AN9)
  // The last two outputs, for an inertial transition's capture: three buffers rotate, this
  // frame's output copied into the oldest.
  std::copy(local.begin(), local.end(), next_out_.begin());
  std::swap(prev_out_, last_out_);
  std::swap(last_out_, next_out_);
  has_prev_ = has_last_;
  has_last_ = true;
  last_dt_ = advance ? dt : 0.0f;
  report.ok = true;
  return report;
}

}  // namespace asterune
