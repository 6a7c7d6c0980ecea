// The animator's playback steps (rules AN1, AN2, AN7): fades and time advance by dt, and the
// step's events are reported in time order across tracks.
#include <algorithm>
#include <cmath>

#include "anim/animator_track.hpp"
#include "asterune/clip/markers.hpp"

namespace asterune {

using animator_detail::advance_weight;
using animator_detail::set_fade;

void Animator::advance_tracks(float dt, bool advance) {
  // Step 1. Fades, time and this step's walk for the events (rules AN1, AN2, AN7).
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
    tr.source_dt = 0.0f;
    tr.source_written = tr.source_dropped = tr.source_next = 0;
    if (!advance) continue;
    const float speed = tr.state.speed;
    const float t0 = tr.state.time_position;
    const bool was_playing = tr.state.playing;
    const bool moves = (was_playing || tr.state.weight_current != 0.0f) && tr.length > 0.0f && speed != 0.0f;
    if (moves) {
      tr.source_dt = std::fabs(speed * dt);  // rule GR15: what a pose source advances
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
        if (tr.desc.source) {
          // Rule AN12: a source track's walk is its source's markers (the stand-in clip has
          // none, and its 1 s laps mean nothing, so they are not reported).
          if (tr.source_next >= tr.source_written) {
            tr.phase = 3;
            break;
          }
          const PoseSourceEvent& se = tr.source_events[static_cast<size_t>(tr.source_next++)];
          ev.kind = AnimEventKind::kMarker;
          ev.name = se.name;
          ev.value = se.value;
          ev.time = se.time;
          ev.weight = se.weight;
          ev.node = se.node;
          tr.peek_s = std::clamp(se.at, 0.0f, 1.0f);
          return true;
        }
        if (!tr.walk) {
          tr.phase = 3;
          break;
        }
        const double end = tr.looped_walk ? tr.v_end : std::min(tr.v_end, L);
        if (tr.k < m_count) {
          const int mi = tr.markers[static_cast<size_t>(tr.forward ? tr.k : m_count - 1 - tr.k)];
          ++tr.k;
          const ClipMarker& m = clip.markers[static_cast<size_t>(mi)];
          if (tr.looped_walk && is_loop_seam_twin(clip, mi, 0.0f, tr.length, tr.forward)) break;  // rule AN17
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
      default: return false;
    }
  }
}

// How many events the track's step has in all (for the dropped count once the buffer is full).
template <class T>
double event_total(const T& tr, const Clip& clip) {
  double total = (tr.report_stop ? 1 : 0) + (tr.report_end ? 1 : 0) + (tr.s_end >= 0.0f ? 1 : 0);
  if (tr.desc.source) return total + tr.source_written + tr.source_dropped;  // rule AN12
  if (!tr.walk) return total;
  const double L = static_cast<double>(tr.length);
  for (const int mi : tr.markers) {
    if (tr.looped_walk && is_loop_seam_twin(clip, mi, 0.0f, tr.length, tr.forward)) continue;  // rule AN17
    const double t = std::clamp(static_cast<double>(clip.markers[static_cast<size_t>(mi)].time), 0.0, L);
    const double vm = tr.forward ? t : L - t;
    if (tr.looped_walk)
      total += std::floor((tr.v_end - vm) / L) - std::floor((tr.v0 - vm) / L);
    else if (vm > tr.v0 && vm <= std::min(tr.v_end, L))
      total += 1.0;
  }
  if (tr.looped_walk)
    total += std::floor(tr.v_end / L) - std::floor(tr.v0 / L);
  else if (tr.reached_end)
    total += 1.0;
  return total;
}

}  // namespace

void Animator::write_events(std::span<AnimEvent> events, AnimatorReport& report) {
  // Step 2. Events, merged across tracks by when in the step they happen (ties: build order).
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
  } else {
    for (const Track& tr : tracks_) report.events_dropped += tr.source_dropped;  // the sources' own overflow
  }
}

}  // namespace asterune
