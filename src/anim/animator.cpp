#include "asterune/anim/animator.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "asterune/core/assert.hpp"
#include "asterune/core/prefetch.hpp"
#include "asterune/rig/rig.hpp"
#include "math/sse_quat.hpp"  // ASTERUNE_SSE2 and the SSE2 intrinsics

namespace asterune {

#if defined(ASTERUNE_SSE2)
// The composition loads a transform's floats 3-6 (rotation w, position) as one register.
static_assert(sizeof(Transform) == 28 && offsetof(Transform, position) == 16,
              "the SSE2 composition expects a packed transform: rotation x, y, z, w, then position");
#endif

namespace {

constexpr const char* kPriorityNames[kTrackPriorityCount] = {"Core",    "Idle",    "Movement", "Action",
                                                              "Action2", "Action3", "Action4"};
// Whole loops a root-motion delta walks in one update (rule AN9); more are not added.
constexpr int kMaxRootLoops = 1024;

int rank(TrackPriority p) { return static_cast<int>(p); }

// Heading of a part placement (rule AN9): the turn about +Y that takes -Z (the facing direction,
// rule R0) to the placement's horizontal facing, and its horizontal position.
Transform heading(const Transform& p) {
  const glm::vec3 f = p.rotation * glm::vec3(0.0f, 0.0f, -1.0f);
  const float yaw = (f.x == 0.0f && f.z == 0.0f) ? 0.0f : std::atan2(-f.x, -f.z);
  return Transform{glm::angleAxis(yaw, glm::vec3(0.0f, 1.0f, 0.0f)), glm::vec3(p.position.x, 0.0f, p.position.z)};
}

float yaw_of(const glm::quat& q) { return 2.0f * std::atan2(q.y, q.w); }

// Bollo's inertialization quintic x(t) (GDC 2018) with x(t1) = x'(t1) = x''(t1) = 0.
float decay_value(float x0, float v0, float a0, float a, float b, float c, float t1, float t) {
  if (!(t < t1)) return 0.0f;
  return ((((a * t + b) * t + c) * t + 0.5f * a0) * t + v0) * t + x0;
}

// A track's claims a = w * coverage (* mask) (rule AN4), written to `claim` and to the level's
// sum: copied by the level's first track, added by the others in composition order.
template <bool kMask, bool kFirst>
void claim_pass(float w, const float* __restrict cov, const float* __restrict mask, float* __restrict claim,
                float* __restrict sum, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    const float c = kMask ? w * cov[j] * mask[j] : w * cov[j];
    claim[j] = c;
    sum[j] = kFirst ? c : sum[j] + c;
  }
}

// One level's share of the budget per joint (rule AN4, docs/animator.md): from the summed
// claims w and the remaining budget r, the scale n_i = a_i * scale and the new budget.
template <bool kBudget>
void level_scale(const float* sum, float* rest, float* scale, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    const float w = sum[j];
    if (!(w > 0.0f)) {
      scale[j] = 0.0f;
      continue;
    }
    const float m = std::min(w, 1.0f);
    const float k = kBudget ? std::min(1.0f, rest[j] / m) : rest[j];
    scale[j] = k / std::max(w, 1.0f);
    rest[j] -= m * k;
    if (!(rest[j] > 0.0f)) rest[j] = 0.0f;  // lower levels then take nothing
  }
}

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

struct Animator::Track {
  TrackDesc desc;
  TrackState state;
  AnimationContext context;
  std::vector<Transform> local;      // this update's sample (joint count)
  std::vector<float> coverage;
  std::vector<float> mask;           // per joint; empty: 1 for every joint
  mutable std::vector<float> claim;  // composition scratch: this update's claim per joint
  std::vector<Transform> reference;  // additive: the reference pose
  std::vector<int> markers;          // clip marker indexes in time order
  float length = 0.0f;
  float rate = 0.0f;        // weight units per second toward weight_target
  float end_fade = 0.1f;    // the fade of the last play(): a non-looped track fades out over it
  bool ending = false;      // stopped, kEnded not yet reported
  bool stop_pending = false;  // a command stopped it: kStopped at the next update's start
  bool sampled = false;     // sampled this update (contributes)

  // Root motion (rule AN9): headings of the root joint's part at clip time 0, at the end, and
  // at the previous update's time.
  Transform heading_start, heading_end, heading_prev;
  bool heading_valid = false;
  Transform root_step;      // this update's delta
  mutable float root_weight = 0.0f;  // effective weight of the root joint (set by composition)
  int wraps = 0;            // loop wraps this update

  // This update's walk over the clip (rule AN7), in "progress" coordinates v: v = t forward,
  // v = length - t backward, so backwards play walks markers like forward play.
  bool walk = false;
  bool forward = true;
  bool looped_walk = true;
  bool reached_end = false;
  double v0 = 0.0, v_end = 0.0, span = 0.0;
  float s_stop = -1.0f, s_end = -1.0f;  // step fractions of the end-of-clip stop and of kEnded
  bool report_stop = false, report_end = false;  // command events at the step start
  float end_time = 0.0f;                         // time position when kEnded happens
  // Event cursor.
  int phase = 0;
  long long lap = 0;
  int k = 0;
  int emitted = 0;
  bool has_peek = false;
  float peek_s = 0.0f;
  AnimEvent peek;
};

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
  for (int j = 0; j < rig.joint_count(); ++j)
    if (rig.parent(j) < 0 && rig.part0()[static_cast<size_t>(j)] == rig.root_part()) {
      a.root_joint_ = j;
      break;
    }
  for (size_t t = 0; t < tracks.size(); ++t) {
    const TrackDesc& d = tracks[t];
    const std::string label = "animator track '" + d.name + "' on rig '" + rig.name() + "'";
    for (size_t u = 0; u < t; ++u)
      if (tracks[u].name == d.name) return make_error(label + ": a track of that name already exists");
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
    tr.length = std::isfinite(d.clip->duration) && d.clip->duration > 0.0f ? d.clip->duration : 0.0f;
    tr.context = make_animation_context(b);
    tr.local.assign(n, Transform::identity());
    tr.coverage.assign(n, 0.0f);
    tr.claim.assign(n, 0.0f);
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
    std::stable_sort(tr.markers.begin(), tr.markers.end(),
                     [&](int x, int y) { return d.clip->markers[static_cast<size_t>(x)].time < d.clip->markers[static_cast<size_t>(y)].time; });
    const WrapMode wrap = d.looped ? WrapMode::kLoop : WrapMode::kClamp;
    if (d.additive) {
      tr.reference.assign(n, Transform::identity());
      if (!sample_animation(*d.clip, b, rig, d.reference_time, wrap, tr.context, tr.reference, tr.coverage))
        return make_error(label + ": the reference pose could not be sampled");
    }
    if (d.root_motion) {
      if (d.additive) return make_error(label + ": an additive track cannot extract root motion");
      if (a.root_joint_ < 0) return make_error(label + ": root motion needs a joint on the root part");
      const auto r = static_cast<size_t>(a.root_joint_);
      if (b.mode == AnimationMode::kNative && b.clip_binding.track_of(a.root_joint_) < 0)
        return make_error(label + ": root motion: the clip does not drive joint '" + rig.joint_name(a.root_joint_) + "'");
      const auto head = [&](float time, Transform& out) {
        if (!sample_animation(*d.clip, b, rig, time, WrapMode::kClamp, tr.context, tr.local, tr.coverage)) return false;
        out = heading(rig.c0()[r] * tr.local[r] * rig.c1_inverse()[r]);
        return true;
      };
      if (!head(0.0f, tr.heading_start) || !head(tr.length, tr.heading_end))
        return make_error(label + ": the root joint could not be sampled");
    }
    tr.state.speed = d.speed;
    tr.state.time_position = wrap_clip_time(d.time, tr.length, wrap);
    if (d.root_motion) {
      // The first step's travel starts from the start time's heading.
      const auto r = static_cast<size_t>(a.root_joint_);
      if (!sample_animation(*d.clip, b, rig, tr.state.time_position, wrap, tr.context, tr.local, tr.coverage))
        return make_error(label + ": the root joint could not be sampled");
      tr.heading_prev = heading(rig.c0()[r] * tr.local[r] * rig.c1_inverse()[r]);
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
  a.scratch_single_e_.assign(n, 0.0f);
  a.scratch_count_.assign(n, 0);
  a.scratch_single_.assign(n, 0);
  a.scratch_sums_.assign(3 * n, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
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

namespace {

// Sets a linear fade from the current weight to `target` over `fade` seconds (rule AN2).
template <class T>
void set_fade(T& tr, float target, float fade) {
  tr.state.weight_target = target;
  const float diff = std::fabs(target - tr.state.weight_current);
  if (fade > 0.0f && diff > 0.0f) {
    tr.rate = diff / fade;
  } else {
    tr.rate = 0.0f;
    tr.state.weight_current = target;
  }
}

// Moves the weight toward its target for h seconds; returns the time at which it arrived, or
// -1 when it is still on its way (or was already there).
template <class T>
float advance_weight(T& tr, float h) {
  const float diff = tr.state.weight_target - tr.state.weight_current;
  if (diff == 0.0f) return -1.0f;
  const float step = tr.rate * h;
  // Arrival within 1e-6 of the target counts: a fade of f seconds in frames that add up to f
  // in float must end on its last frame (rule AN2), not leave a rounding residue.
  if (!(step + 1e-6f < std::fabs(diff))) {
    tr.state.weight_current = tr.state.weight_target;
    return tr.rate > 0.0f ? std::fabs(diff) / tr.rate : 0.0f;
  }
  tr.state.weight_current += diff > 0.0f ? step : -step;
  return -1.0f;
}

}  // namespace

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

namespace {

// The next event of a track's walk in its step (rule AN7), in time order: command events at the
// start, then markers and wraps lap by lap, the end-of-clip stop, kEnded. Returns false when the
// track has no more.
template <class T>
bool next_event(T& tr, const Clip& clip, int index) {
  AnimEvent& ev = tr.peek;
  ev = AnimEvent{};
  ev.track = index;
  const double L = static_cast<double>(tr.length);
  const auto m_count = static_cast<int>(tr.markers.size());
  for (;;) {
    switch (tr.phase) {
      case 0:
        tr.phase = 1;
        if (tr.report_stop) {
          ev.kind = AnimEventKind::kStopped;
          ev.time = tr.state.time_position;
          tr.peek_s = 0.0f;
          return true;
        }
        break;
      case 1:
        tr.phase = 2;
        if (tr.report_end) {
          ev.kind = AnimEventKind::kEnded;
          ev.time = tr.state.time_position;
          tr.peek_s = 0.0f;
          return true;
        }
        break;
      case 2: {
        if (!tr.walk) {
          tr.phase = 3;
          break;
        }
        const double end = tr.looped_walk ? tr.v_end : std::min(tr.v_end, L);
        if (tr.k < m_count) {
          const int mi = tr.markers[static_cast<size_t>(tr.forward ? tr.k : m_count - 1 - tr.k)];
          ++tr.k;
          const ClipMarker& m = clip.markers[static_cast<size_t>(mi)];
          const double t = std::clamp(static_cast<double>(m.time), 0.0, L);
          const double u = static_cast<double>(tr.lap) * L + (tr.forward ? t : L - t);
          if (!(u > tr.v0)) break;
          if (u > end) {
            tr.phase = 3;
            break;
          }
          ev.kind = m.kind == ClipMarkerKind::kKeyframe ? AnimEventKind::kKeyframe : AnimEventKind::kMarker;
          ev.name = m.name;
          ev.value = m.value;
          ev.time = m.time;
          tr.peek_s = static_cast<float>((u - tr.v0) / tr.span);
          return true;
        }
        if (!tr.looped_walk) {
          tr.phase = 3;
          break;
        }
        const double u = static_cast<double>(tr.lap + 1) * L;
        ++tr.lap;
        tr.k = 0;
        if (u > end) {
          tr.phase = 3;
          break;
        }
        if (!(u > tr.v0)) break;
        ev.kind = AnimEventKind::kLooped;
        ev.time = tr.forward ? 0.0f : tr.length;
        tr.peek_s = static_cast<float>((u - tr.v0) / tr.span);
        return true;
      }
      case 3:
        tr.phase = 4;
        if (tr.walk && tr.reached_end) {
          ev.kind = AnimEventKind::kStopped;
          ev.time = tr.forward ? tr.length : 0.0f;
          tr.peek_s = tr.s_stop;
          return true;
        }
        break;
      case 4:
        tr.phase = 5;
        if (tr.s_end >= 0.0f) {
          ev.kind = AnimEventKind::kEnded;
          ev.time = tr.end_time;
          tr.peek_s = tr.s_end;
          return true;
        }
        break;
      default:
        return false;
    }
  }
}

// How many events the track's step has in all (for the dropped count once the buffer is full).
template <class T>
double event_total(const T& tr, const Clip& clip) {
  double total = (tr.report_stop ? 1 : 0) + (tr.report_end ? 1 : 0) + (tr.s_end >= 0.0f ? 1 : 0);
  if (!tr.walk) return total;
  const double L = static_cast<double>(tr.length);
  for (const int mi : tr.markers) {
    const double t = std::clamp(static_cast<double>(clip.markers[static_cast<size_t>(mi)].time), 0.0, L);
    const double vm = tr.forward ? t : L - t;
    if (tr.looped_walk)
      total += std::floor((tr.v_end - vm) / L) - std::floor((tr.v0 - vm) / L);
    else if (vm > tr.v0 && vm <= std::min(tr.v_end, L))
      total += 1.0;
  }
  if (tr.looped_walk) total += std::floor(tr.v_end / L) - std::floor(tr.v0 / L);
  else if (tr.reached_end) total += 1.0;
  return total;
}

}  // namespace

bool Animator::compose_samples(std::span<Transform> local, std::span<float> coverage, Transform* history) const {
  // Overrides by priority (rule AN4), or the lone full-weight track as sampled (rule AN10).
  int overrides = 0;
  bool any_additive = false, any_root = false;
  const Track* lone_track = nullptr;
  for (const Track& tr : tracks_) {
    if (!tr.sampled) continue;
    if (tr.desc.additive) {
      any_additive = true;
      continue;
    }
    ++overrides;
    lone_track = &tr;
    any_root = any_root || (tr.desc.root_motion && root_joint_ >= 0);
  }
  const auto n = static_cast<size_t>(joint_count_);
  for (const Track& tr : tracks_) tr.root_weight = 0.0f;
  if (overrides == 1 && !any_root && lone_track->state.weight_current == 1.0f && lone_track->mask.empty()) {
    std::copy(lone_track->local.begin(), lone_track->local.end(), local.begin());
    std::copy(lone_track->coverage.begin(), lone_track->coverage.end(), coverage.begin());
    if (history) std::copy(lone_track->local.begin(), lone_track->local.end(), history);
  } else {
    // Track-major (each pass runs over the joints of one track, no per-joint indirection), in
    // the same order of operations per joint as the formula: levels from the top, tracks in
    // composition order within a level.
    const bool budget = mode_ == CompositionMode::kBudget;
    float* rest = scratch_rest_.data();
    float* sum = scratch_sum_.data();
    float* scale = scratch_scale_.data();
    float* single_e = scratch_single_e_.data();
    int* count = scratch_count_.data();
    int* single = scratch_single_.data();
    // Per joint, side by side: the weighted rotation sum, the position sum (floats 1-3; float 0
    // is scratch) and the first contribution's rotation, one register each. A joint's first
    // contribution writes them (its sums are 0 + e q and 0 + e p, as if added to zeroed sums:
    // 0 + x is not x for x = -0), so they need no clearing; a joint with none reads no sums.
    glm::quat* sums = scratch_sums_.data();
    for (size_t j = 0; j < n; ++j) {
      rest[j] = 1.0f;
      count[j] = 0;
    }
#if defined(ASTERUNE_SSE2)
    const __m128 sign_bit = _mm_set_ss(-0.0f);
#endif
    int begin = 0;
    for (const int level_end : level_end_) {
      bool any = false;
      for (int i = begin; i < level_end; ++i) {
        const Track& tr = tracks_[static_cast<size_t>(override_order_[static_cast<size_t>(i)])];
        if (!tr.sampled) continue;
        const float w = tr.state.weight_current;
        const float* cov = tr.coverage.data();
        // The claims and the level's sum in one pass (the first track's claims are the sum).
        float* claim = tr.claim.data();
        const float* mask = tr.mask.empty() ? nullptr : tr.mask.data();
        if (!any) {
          if (mask)
            claim_pass<true, true>(w, cov, mask, claim, sum, n);
          else
            claim_pass<false, true>(w, cov, mask, claim, sum, n);
          any = true;
        } else {
          if (mask)
            claim_pass<true, false>(w, cov, mask, claim, sum, n);
          else
            claim_pass<false, false>(w, cov, mask, claim, sum, n);
        }
      }
      if (any) {
        // An unclaimed joint is skipped by a branch: a branch-free loop the compiler runs four
        // joints at a time was slower (it divides for every joint; docs/performance.md).
        if (budget)
          level_scale<true>(sum, rest, scale, n);
        else
          level_scale<false>(sum, rest, scale, n);
        for (int i = begin; i < level_end; ++i) {
          const int t = override_order_[static_cast<size_t>(i)];
          const Track& tr = tracks_[static_cast<size_t>(t)];
          if (!tr.sampled) continue;
          const float* claim = tr.claim.data();
          const Transform* x = tr.local.data();
          glm::quat* js = sums;
          for (size_t j = 0; j < n; ++j, js += 3) {
            const float e = claim[j] * scale[j];
            if (!(e > 0.0f)) continue;
            const bool first = count[j] == 0;
            ++count[j];
#if defined(ASTERUNE_SSE2)
            // One quaternion per register: glm's dot (w*w' + x*x') + (y*y' + z*z') for the sign,
            // applied to e by its sign bit; then sum + sg * q and sum + e * p lane by lane. The
            // position loads with the rotation's w before it (floats 3-6 of the transform).
            const __m128 q = _mm_loadu_ps(&x[j].rotation.x);
            const __m128 p = _mm_loadu_ps(&x[j].rotation.w);
            const __m128 ev = _mm_set_ss(e);
            const __m128 eb = _mm_shuffle_ps(ev, ev, 0);
            if (first) {  // sign +1 (dot(q, q) is never below 0); the lone-track copy reads t, e
              _mm_storeu_ps(&js[2].x, q);
              single[j] = t;
              single_e[j] = e;
              _mm_storeu_ps(&js[0].x, _mm_add_ps(_mm_setzero_ps(), _mm_mul_ps(eb, q)));
              _mm_storeu_ps(&js[1].x, _mm_add_ps(_mm_setzero_ps(), _mm_mul_ps(eb, p)));
            } else {
              const __m128 pr = _mm_mul_ps(_mm_loadu_ps(&js[2].x), q);
              const __m128 wx = _mm_add_ss(_mm_shuffle_ps(pr, pr, _MM_SHUFFLE(3, 3, 3, 3)), pr);
              const __m128 yz = _mm_add_ss(_mm_shuffle_ps(pr, pr, _MM_SHUFFLE(1, 1, 1, 1)), _mm_movehl_ps(pr, pr));
              const __m128 dot = _mm_add_ss(wx, yz);
              const __m128 sg = _mm_xor_ps(ev, _mm_and_ps(_mm_cmplt_ss(dot, _mm_setzero_ps()), sign_bit));
              _mm_storeu_ps(&js[0].x, _mm_add_ps(_mm_loadu_ps(&js[0].x), _mm_mul_ps(_mm_shuffle_ps(sg, sg, 0), q)));
              _mm_storeu_ps(&js[1].x, _mm_add_ps(_mm_loadu_ps(&js[1].x), _mm_mul_ps(eb, p)));
            }
#else
            const glm::quat& q = x[j].rotation;
            const glm::vec3& p = x[j].position;
            glm::quat& acc = js[0];
            float* ps = &js[1].x;
            if (first) {  // sign +1 (dot(q, q) is never below 0); the lone-track copy reads t, e
              js[2] = q;
              single[j] = t;
              single_e[j] = e;
              acc = glm::quat(0.0f + e * q.w, 0.0f + e * q.x, 0.0f + e * q.y, 0.0f + e * q.z);
              ps[1] = 0.0f + e * p.x;
              ps[2] = 0.0f + e * p.y;
              ps[3] = 0.0f + e * p.z;
            } else {
              const float sg = glm::dot(js[2], q) < 0.0f ? -e : e;
              acc = glm::quat(acc.w + sg * q.w, acc.x + sg * q.x, acc.y + sg * q.y, acc.z + sg * q.z);
              ps[1] += e * p.x;
              ps[2] += e * p.y;
              ps[3] += e * p.z;
            }
#endif
          }
          if (root_joint_ >= 0) {
            const auto r = static_cast<size_t>(root_joint_);
            const float e = claim[r] * scale[r];
            tr.root_weight = e > 0.0f ? e : 0.0f;
          }
        }
      }
      begin = level_end;
    }
    for (size_t j = 0; j < n; ++j) {
      Transform out;  // identity, coverage 0: no contribution
      float cov = 0.0f;
      if (count[j] == 0) {
      } else if (count[j] == 1 && single_e[j] == 1.0f) {
        out = tracks_[static_cast<size_t>(single[j])].local[j];
        cov = 1.0f;
      } else {
        const glm::quat& first = sums[3 * j + 2];
        glm::quat q = sums[3 * j];
        q.w += first.w < 0.0f ? -rest[j] : rest[j];  // the rest pose's identity, sign-aligned
        const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
        out.rotation = len2 > 1e-20f ? q * (1.0f / std::sqrt(len2)) : first;
        const float* ps = &sums[3 * j + 1].x;
        out.position = glm::vec3(ps[1], ps[2], ps[3]);
        cov = 1.0f - rest[j];
      }
      local[j] = out;
      coverage[j] = cov;
      if (history) history[j] = out;  // the inertial history, written with the output
    }
  }

  // Additive tracks (rule AN6), ascending priority then build order.
  if (any_additive) {
    for (const int t : additive_order_) {
      const Track& tr = tracks_[static_cast<size_t>(t)];
      if (!tr.sampled) continue;
      for (size_t j = 0; j < n; ++j) {
        const float a = tr.state.weight_current * tr.coverage[j] * (tr.mask.empty() ? 1.0f : tr.mask[j]);
        if (a == 0.0f || !std::isfinite(a)) continue;
        glm::quat d = tr.local[j].rotation * glm::conjugate(tr.reference[j].rotation);
        if (a < 0.0f) d = glm::conjugate(d);
        if (d.w < 0.0f) d = -d;
        const float b = std::fabs(a);
        const glm::quat q((1.0f - b) + b * d.w, b * d.x, b * d.y, b * d.z);
        const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
        if (len2 > 1e-20f) local[j].rotation = glm::normalize((q * (1.0f / std::sqrt(len2))) * local[j].rotation);
        local[j].position += a * (tr.local[j].position - tr.reference[j].position);
      }
    }
  }
  return !any_additive;  // with additive layers, `history` holds the overrides only
}

bool Animator::compose(const Rig& rig, std::span<Transform> local, std::span<float> coverage) const {
  const auto n = static_cast<size_t>(joint_count_);
  ASTERUNE_EXPECT_OR_RETURN(rig.signature() == rig_signature_ && rig.joint_count() == joint_count_ &&
                                local.size() == n && coverage.size() == n,
                            "the rig is the animator's and local and coverage hold its joint count", false);
  compose_samples(local, coverage, nullptr);
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

  // 1. Fades, time and this step's walk for the events (rules AN1, AN2, AN7).
  for (Track& tr : tracks_) {
    tr.report_stop = tr.stop_pending;
    tr.stop_pending = false;
    tr.report_end = tr.ending && tr.state.weight_current == 0.0f;
    if (tr.report_end) tr.ending = false;
    tr.walk = false;
    tr.reached_end = false;
    tr.s_stop = tr.s_end = -1.0f;
    tr.wraps = 0;
    tr.phase = 0;
    tr.lap = 0;
    tr.k = 0;
    tr.emitted = 0;
    if (!advance) continue;
    const float speed = tr.state.speed;
    const float t0 = tr.state.time_position;
    const bool was_playing = tr.state.playing;
    const bool moves = (was_playing || tr.state.weight_current != 0.0f) && tr.length > 0.0f && speed != 0.0f;
    if (moves) {
      const double L = static_cast<double>(tr.length);
      tr.forward = speed > 0.0f;
      tr.looped_walk = tr.desc.looped;
      tr.span = std::fabs(static_cast<double>(speed) * static_cast<double>(dt));
      tr.v0 = tr.forward ? static_cast<double>(t0) : L - static_cast<double>(t0);
      tr.v_end = tr.v0 + tr.span;
      if (tr.desc.looped) {
        tr.state.time_position = wrap_clip_time(t0 + speed * dt, tr.length, WrapMode::kLoop);
        const double w = std::floor(tr.v_end / L) - std::floor(tr.v0 / L);
        tr.wraps = static_cast<int>(std::min(w, 1e9));
      } else {
        tr.state.time_position = std::clamp(t0 + speed * dt, 0.0f, tr.length);
        if (was_playing && !tr.desc.hold_end && tr.v_end >= L) {
          tr.reached_end = true;
          tr.s_stop = static_cast<float>(std::clamp((L - tr.v0) / tr.span, 0.0, 1.0));
          tr.state.playing = false;
          tr.ending = true;
          tr.state.time_position = tr.forward ? tr.length : 0.0f;
        }
      }
      tr.walk = was_playing;
    }
    // Weights: the current fade up to the stop, then the fade-out over the last play's fade.
    const float before = tr.state.weight_current;
    float start = 0.0f;
    if (tr.reached_end) {
      start = dt * tr.s_stop;
      advance_weight(tr, start);
      set_fade(tr, 0.0f, tr.end_fade);
      if (tr.state.weight_current == 0.0f) {  // fade 0 (or already at 0): it ends with the stop
        tr.s_end = tr.s_stop;
        tr.ending = false;
      }
    }
    if (tr.s_end < 0.0f) {
      const float was = tr.state.weight_current;
      const float reached = advance_weight(tr, dt - start);
      if (tr.ending && reached >= 0.0f && tr.state.weight_current == 0.0f && (was != 0.0f || before != 0.0f)) {
        tr.s_end = std::clamp((start + reached) / dt, 0.0f, 1.0f);
        tr.ending = false;
      }
    }
    tr.end_time = tr.state.time_position;
  }

  // 2. Events, merged across tracks by when in the step they happen (ties: build order).
  {
    const int track_n = track_count();
    for (int t = 0; t < track_n; ++t) {
      Track& tr = tracks_[static_cast<size_t>(t)];
      tr.has_peek = next_event(tr, *tr.desc.clip, t);
    }
    int written = 0;
    bool full = false;
    for (;;) {
      int best = -1;
      for (int t = 0; t < track_n; ++t) {
        const Track& tr = tracks_[static_cast<size_t>(t)];
        if (tr.has_peek && (best < 0 || tr.peek_s < tracks_[static_cast<size_t>(best)].peek_s)) best = t;
      }
      if (best < 0) break;
      if (written >= static_cast<int>(events.size())) {
        full = true;
        break;
      }
      Track& tr = tracks_[static_cast<size_t>(best)];
      events[static_cast<size_t>(written++)] = tr.peek;
      ++tr.emitted;
      tr.has_peek = next_event(tr, *tr.desc.clip, best);
    }
    report.events_written = written;
    if (full) {
      double dropped = 0.0;
      for (const Track& tr : tracks_) dropped += std::max(0.0, event_total(tr, *tr.desc.clip) - tr.emitted);
      report.events_dropped = static_cast<int>(std::min(dropped, 2e9));
    }
  }

  // 3. Sample the tracks that contribute (rule AN4: a weight of 0 claims nothing).
  bool any_root = false;
  for (Track& tr : tracks_) {
    tr.sampled = false;
    tr.root_weight = 0.0f;
    tr.root_step = Transform::identity();
    if (tr.state.weight_current == 0.0f || !std::isfinite(tr.state.weight_current)) {
      tr.heading_valid = false;
      continue;
    }
    tr.sampled = sample_animation(*tr.desc.clip, *tr.desc.binding, rig, tr.state.time_position,
                                  tr.desc.looped ? WrapMode::kLoop : WrapMode::kClamp, tr.context, tr.local,
                                  tr.coverage);
    if (!tr.sampled) {
      tr.heading_valid = false;
      continue;
    }
    if (tr.desc.additive) continue;
    if (tr.desc.root_motion && root_joint_ >= 0) {
      // Rule AN9: this step's heading change, then the pose keeps the clip-start heading.
      any_root = true;
      const auto r = static_cast<size_t>(root_joint_);
      const Transform part = rig.c0()[r] * tr.local[r] * rig.c1_inverse()[r];
      const Transform h = heading(part);
      if (tr.heading_valid) {
        Transform walk = inverse(tr.heading_prev);
        if (tr.wraps > 0) {
          const Transform& first = tr.forward ? tr.heading_end : tr.heading_start;
          const Transform& second = tr.forward ? tr.heading_start : tr.heading_end;
          const Transform loop = inverse(second) * first;
          walk = walk * first;
          for (int w = 1; w < std::min(tr.wraps, kMaxRootLoops); ++w) walk = walk * loop;
          walk = walk * inverse(second);
        }
        tr.root_step = tr.heading_start * (walk * h) * inverse(tr.heading_start);
      }
      tr.heading_prev = h;
      tr.heading_valid = true;
      const Transform kept = tr.heading_start * inverse(h) * part;
      tr.local[r] = inverse(rig.c0()[r]) * kept * rig.c1()[r];
    } else {
      tr.heading_valid = false;
    }
  }

  // 4-5. Overrides by priority, then the additive tracks. The composition also writes this
  // frame's output into next_out_, the inertial history (step 6 still reads the last two).
  bool history_current = compose_samples(local, coverage, next_out_.data());

  // 6. Inertial transition (rule AN8): capture the jump once, then decay it.
  if (inertial_pending_) {
    inertial_pending_ = false;
    if (has_last_ && inertial_time_ > 0.0f) {
      inertial_active_ = true;
      inertial_elapsed_ = 0.0f;
      const bool velocity = has_prev_ && last_dt_ > 0.0f;
      const auto setup = [&](Decay& d, float x0, float x_prev) {
        float v0 = velocity ? (x0 - x_prev) / last_dt_ : 0.0f;
        if (!std::isfinite(v0) || v0 > 0.0f) v0 = 0.0f;  // moving away: not carried (no overshoot)
        float t1 = inertial_time_;
        if (v0 < 0.0f) t1 = std::min(t1, -5.0f * x0 / v0);
        d.x0 = x0;
        d.v0 = v0;
        d.t1 = t1;
        if (!(t1 > 0.0f) || !(x0 > 0.0f)) {
          d.t1 = 0.0f;
          return;
        }
        const float t2 = t1 * t1, t3 = t2 * t1;
        d.a0 = (-8.0f * v0 * t1 - 20.0f * x0) / t2;
        d.a = -(d.a0 * t2 + 6.0f * v0 * t1 + 12.0f * x0) / (2.0f * t3 * t2);
        d.b = (3.0f * d.a0 * t2 + 16.0f * v0 * t1 + 30.0f * x0) / (2.0f * t2 * t2);
        d.c = -(3.0f * d.a0 * t2 + 12.0f * v0 * t1 + 20.0f * x0) / (2.0f * t3);
      };
      for (size_t j = 0; j < n; ++j) {
        // Rotation: the offset turn last * conj(new) as an angle about a fixed axis.
        glm::quat off = last_out_[j].rotation * glm::conjugate(local[j].rotation);
        if (off.w < 0.0f) off = -off;
        const glm::vec3 v(off.x, off.y, off.z);
        const float sin_half = glm::length(v);
        Decay& dr = decay_rotation_[j];
        dr = Decay{};
        if (sin_half > 1e-7f && is_finite(off)) {
          dr.axis = v / sin_half;
          const float x0 = 2.0f * std::atan2(sin_half, off.w);
          glm::quat prev = prev_out_[j].rotation * glm::conjugate(local[j].rotation);
          if (glm::dot(prev, off) < 0.0f) prev = -prev;
          const float x_prev = 2.0f * std::atan2(glm::dot(glm::vec3(prev.x, prev.y, prev.z), dr.axis), prev.w);
          setup(dr, x0, x_prev);
        }
        // Position: the offset vector along its direction.
        const glm::vec3 dp = last_out_[j].position - local[j].position;
        const float len = glm::length(dp);
        Decay& dq = decay_position_[j];
        dq = Decay{};
        if (len > 1e-7f && std::isfinite(len)) {
          dq.axis = dp / len;
          setup(dq, len, glm::dot(prev_out_[j].position - local[j].position, dq.axis));
        }
      }
    }
  }
  if (inertial_active_) {
    history_current = false;
    if (advance) inertial_elapsed_ += dt;
    const float t = inertial_elapsed_;
    bool any = false;
    for (size_t j = 0; j < n; ++j) {
      const Decay& dr = decay_rotation_[j];
      if (t < dr.t1) {
        any = true;
        const float x = decay_value(dr.x0, dr.v0, dr.a0, dr.a, dr.b, dr.c, dr.t1, t);
        local[j].rotation = glm::normalize(glm::angleAxis(x, dr.axis) * local[j].rotation);
      }
      const Decay& dq = decay_position_[j];
      if (t < dq.t1) {
        any = true;
        local[j].position += dq.axis * decay_value(dq.x0, dq.v0, dq.a0, dq.a, dq.b, dq.c, dq.t1, t);
      }
    }
    if (!any) inertial_active_ = false;
  }

  // 7. Root motion (rule AN9): each track's step blended by its root joint's effective weight.
  if (any_root) {
    float yaw = 0.0f;
    glm::vec3 travel(0.0f);
    for (const Track& tr : tracks_) {
      if (!tr.sampled || !tr.desc.root_motion || tr.root_weight == 0.0f) continue;
      yaw += tr.root_weight * yaw_of(tr.root_step.rotation);
      travel += tr.root_weight * tr.root_step.position;
    }
    report.root_delta = Transform{glm::angleAxis(yaw, glm::vec3(0.0f, 1.0f, 0.0f)), travel};
  }

  // The last two outputs, for an inertial transition's capture.
  // The last outputs rotate through three buffers; the output is copied only when an additive
  // layer or an inertial offset changed it after the composition wrote next_out_.
  if (!history_current) std::copy(local.begin(), local.end(), next_out_.begin());
  std::swap(prev_out_, last_out_);
  std::swap(last_out_, next_out_);
  has_prev_ = has_last_;
  has_last_ = true;
  last_dt_ = advance ? dt : 0.0f;
  report.ok = true;
  return report;
}

}  // namespace asterune
