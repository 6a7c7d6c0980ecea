// The update's first pass (rules GR2-GR9, GR11): from the output down, each node decides what
// is active (selectors, sequences), computes its inputs' weights (blend spaces, transitions),
// and advances its active inputs: clips move their play progress (their own rate, or driven
// by a synced blend's shared phase or the leader's markers) and report the markers crossed
// with the weight their path passes them. Inactive branches are not visited.
#include <algorithm>
#include <cmath>

#include "graph/graph_tick.hpp"
#include "graph/nodes_warp.hpp"
#include "asterune/clip/markers.hpp"

namespace asterune::graph_detail {
namespace {

float fract(float v) { return v - std::floor(v); }
// v wrapped into (-0.5, 0.5].
float signed_wrap(float v) { return v - std::ceil(v - 0.5f); }

}  // namespace

Ticker::Trim Ticker::trim(const NodeDef& d) const {
  const float len = d.clip->duration;
  float ts = std::clamp(impl.num(d.trim_start), 0.0f, len);
  const float raw_end = impl.num(d.trim_end);
  float te = raw_end < 0.0f ? len : std::clamp(raw_end, 0.0f, len);
  if (te < ts) te = ts;
  Trim t{ts, te, !impl.flag(d.reverse) != (impl.num(d.speed) < 0.0f)};
  if (d.distance_matching != GraphDistanceMatching::kNone) t.forward = true;  // rule LO12
  return t;
}

float Ticker::clip_time(const NodeDef& d, float u) const {
  const Trim t = trim(d);
  float f = u;
  if (d.play_mode == GraphPlayMode::kPingPong) f = u < 0.5f ? 2.0f * u : 2.0f - 2.0f * u;
  f = std::clamp(f, 0.0f, 1.0f);
  return t.forward ? t.ts + f * (t.te - t.ts) : t.te - f * (t.te - t.ts);
}

float Ticker::duration(int node) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  const NodeState& st = impl.state[static_cast<size_t>(node)];
  switch (d.type) {
    case GraphNodeType::kClip: {
      const Trim t = trim(d);
      const float rate = std::abs(impl.num(d.speed));
      const float cycle = (t.te - t.ts) * (d.play_mode == GraphPlayMode::kPingPong ? 2.0f : 1.0f);
      return rate > 0.0f && std::isfinite(rate) ? cycle / rate : 0.0f;
    }
    case GraphNodeType::kBlend1D:
    case GraphNodeType::kBlend2D: {
      float* w = weights(node);
      float sum = 0.0f, total = 0.0f;
      for (size_t k = 0; k < d.inputs.size(); ++k) {
        const float wk = std::clamp(w[k], 0.0f, 1.0f);
        if (wk <= 0.0f) continue;
        sum += wk * duration(d.inputs[k].node);
        total += wk;
      }
      return total > 0.0f ? sum / total : 0.0f;
    }
    case GraphNodeType::kSelect:
    case GraphNodeType::kPrioritySelect:
    case GraphNodeType::kSequence:
    case GraphNodeType::kRandomSequence:
      return st.cur >= 0 ? duration(d.inputs[static_cast<size_t>(st.cur)].node) : 0.0f;
    case GraphNodeType::kOver:
    case GraphNodeType::kAdd: return duration(d.base);
    case GraphNodeType::kSubtract: return duration(d.a);
    case GraphNodeType::kMask: return duration(d.pose);
    case GraphNodeType::kSpeed: {
      const float s = std::abs(impl.num(d.speed));
      return s > 0.0f ? duration(d.pose) / s : 0.0f;
    }
    case GraphNodeType::kStrideWarp:
    case GraphNodeType::kOrientationWarp: return warp_duration(*this, node);
  }
  return 0.0f;
}

float* Ticker::weights(int node) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  float* w = impl.input_weight.data() + d.weight_offset;
  std::uint8_t& fresh = impl.weights_fresh[static_cast<size_t>(node)];
  if (fresh) return w;
  fresh = 1;
  if (d.type == GraphNodeType::kBlend1D) blend1d_weights(d, impl.num(d.position), w);
  else if (d.type == GraphNodeType::kBlend2D) blend2d_weights(d, impl.num(d.x), impl.num(d.y), w);
  return w;
}

void Ticker::reset(int node) {
  NodeState& st = impl.state[static_cast<size_t>(node)];
  const std::uint64_t rng = st.rng;
  const std::uint8_t shown = st.shown;
  st = NodeState{};
  st.rng = rng;
  st.shown = shown;
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  for (const InputDef& in : d.inputs) reset(in.node);
  for (const int c : {d.base, d.over, d.additive, d.a, d.b, d.pose})
    if (c >= 0) reset(c);
}

// Rule GR11: the markers whose play progress lies in (u0, u0 + du], lap by lap (at most four
// laps are reported; a longer step is a skip).
void Ticker::emit(int node, float u0, float du, float weight) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  if (weight == 0.0f || du <= 0.0f || d.markers.empty()) return;
  const Trim t = trim(d);
  const float L = t.te - t.ts;
  const bool ping = d.play_mode == GraphPlayMode::kPingPong;
  const bool once = d.play_mode == GraphPlayMode::kOnceAndHold || d.play_mode == GraphPlayMode::kOnceAndReset;
  const float u1 = u0 + du;
  const int m = static_cast<int>(d.markers.size());
  for (int lap = static_cast<int>(std::floor(u0)); lap <= static_cast<int>(std::floor(u1)) && lap - std::floor(u0) < 4; ++lap) {
    if (once && lap > 0) break;
    for (int half = 0; half < (ping ? 2 : 1); ++half) {
      // Markers in the order play meets them: ascending clip time when this half moves forward.
      const bool ascending = t.forward != (half == 1);
      for (int k = 0; k < m; ++k) {
        const int mi = d.markers[static_cast<size_t>(ascending ? k : m - 1 - k)];
        const ClipMarker& mk = d.clip->markers[static_cast<size_t>(mi)];
        if (mk.time < t.ts || mk.time > t.te) continue;  // rule GR2: only markers inside the trim
        if (!ping && !once && is_loop_seam_twin(*d.clip, mi, t.ts, t.te, t.forward)) continue;  // rule AN17
        float f = L > 0.0f ? (t.forward ? (mk.time - t.ts) / L : (t.te - mk.time) / L) : 0.0f;
        // Rule AN17: a PingPong's turns are one instant each, reported by the half that reaches them.
        if (ping && half == 1 && (f <= 0.0f || f >= 1.0f)) continue;
        float up = ping ? (half == 0 ? 0.5f * f : 1.0f - 0.5f * f) : f;
        up += static_cast<float>(lap);
        const bool crossed = up > u0 && up <= u1;
        if (!crossed) continue;
        // When in the step (rule AN7's order across tracks): the start's markers at 0.
        const float at = u0 < 0.0f || !(du > 0.0f) ? 0.0f : std::clamp((up - u0) / du, 0.0f, 1.0f);
        if (impl.events_written < impl.event_capacity)
          impl.events[impl.events_written++] = GraphEvent{node, mk.name, mk.value, mk.time, weight, at};
        else
          ++impl.events_dropped;
      }
    }
  }
}

void Ticker::advance_clip(int node, float du, float escale) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  if (!std::isfinite(du)) du = 0.0f;
  const bool once = d.play_mode == GraphPlayMode::kOnceAndHold || d.play_mode == GraphPlayMode::kOnceAndReset;
  if (once) {
    if (st.done) du = 0.0f;
    const float u1 = std::clamp(st.phase + du, 0.0f, 1.0f);
    emit(node, st.phase, u1 - st.phase, escale);
    st.phase = u1;
    if (u1 >= 1.0f) {
      // Rule GR16: OnceAndReset jumps back to its start as a lap does (no travel back).
      if (!st.done && d.play_mode == GraphPlayMode::kOnceAndReset) impl.wraps[static_cast<size_t>(node)] = 1;
      st.done = 1;
      st.cycles = 1;
    }
  } else {
    emit(node, st.phase, du, escale);
    const float u1 = st.phase + du;
    const float laps = std::floor(u1);
    // Rule GR16: the laps a Loop crossed (PingPong's time is continuous across them).
    if (d.play_mode == GraphPlayMode::kLoop)
      impl.wraps[static_cast<size_t>(node)] += static_cast<std::int32_t>(std::clamp(laps, -1.0e6f, 1.0e6f));
    if (laps > 0.0f) st.cycles += static_cast<int>(std::min(laps, 1.0e6f));
    st.phase = fract(u1);
    if (st.phase >= 1.0f) st.phase = 0.0f;
  }
  const float shown_u = (d.play_mode == GraphPlayMode::kOnceAndReset && st.done) ? 0.0f : st.phase;
  st.time = clip_time(d, shown_u);
}

void Ticker::clip(int node, float dt, float escale, const Drive* drive) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  if (!st.started) {
    st.started = 1;
    st.head = 2;  // rule GR16: root motion walks from the play start's heading
    st.phase = 0.0f;
    st.time = clip_time(d, 0.0f);
    // Starting reports the markers at the start (later steps report (u0, u1]).
    emit(node, -1e-7f, 1e-7f, escale);
  }
  if (d.distance_matching != GraphDistanceMatching::kNone) {  // rule LO12: the distance, not the clock
    advance_clip(node, distance_step(impl, node, trim(d), dt), escale);
    return;
  }
  float du = 0.0f;
  if (drive) {
    if (drive->target_time >= 0.0f) {
      // Markers sync (rule GR9): the follower's clip time, given; its progress follows.
      const Trim t = trim(d);
      const float L = t.te - t.ts;
      const float p = L > 0.0f ? (drive->target_time - t.ts) / L : 0.0f;
      du = signed_wrap(p - st.phase);
    } else {
      du = drive->dphase + signed_wrap(drive->phase - fract(st.phase + drive->dphase));
    }
  } else {
    const Trim t = trim(d);
    const float L = (t.te - t.ts) * (d.play_mode == GraphPlayMode::kPingPong ? 2.0f : 1.0f);
    const float rate = impl.num(d.speed);
    du = L > 0.0f ? dt * std::abs(rate) / L : 0.0f;
  }
  if (du < 0.0f && d.play_mode != GraphPlayMode::kLoop) du = std::max(du, -st.phase);
  advance_clip(node, du, escale);
}

// Rule GR9 (Markers): the follower's clip time that puts it between its own matching markers
// at the fraction the leader is between its markers; -1 when the clips cannot be matched.
float Ticker::marker_time(int leader, int follower) const {
  const NodeDef& ld = impl.defs[static_cast<size_t>(leader)];
  const NodeDef& fd = impl.defs[static_cast<size_t>(follower)];
  if (ld.type != GraphNodeType::kClip || fd.type != GraphNodeType::kClip) return -1.0f;
  const Trim lt = trim(ld), ft = trim(fd);
  if (!lt.forward || !ft.forward || ld.play_mode != GraphPlayMode::kLoop || fd.play_mode != GraphPlayMode::kLoop)
    return -1.0f;
  auto in_trim = [](const NodeDef& d, const Trim& t, int* out) {
    int count = 0;
    for (const int m : d.sync_markers) {
      const float tm = d.clip->markers[static_cast<size_t>(m)].time;
      if (tm >= t.ts && tm < t.te && count < 32) out[count++] = m;
    }
    return count;
  };
  int lm[32], fm[32];
  const int ln = in_trim(ld, lt, lm), fn = in_trim(fd, ft, fm);
  if (ln == 0 || fn == 0) return -1.0f;
  const float llen = lt.te - lt.ts, flen = ft.te - ft.ts;
  const float tl = impl.state[static_cast<size_t>(leader)].time;
  auto lt_of = [&](int k) { return ld.clip->markers[static_cast<size_t>(lm[k])].time; };
  auto ft_of = [&](int k) { return fd.clip->markers[static_cast<size_t>(fm[k])].time; };
  int a = ln - 1;
  for (int k = 0; k < ln; ++k)
    if (lt_of(k) <= tl) a = k;
  const int b = (a + 1) % ln;
  float ta = lt_of(a), tb = lt_of(b);
  if (ta > tl) ta -= llen;  // before the first marker: the last one, a lap earlier
  if (tb <= ta) tb += llen;
  const float f = tb > ta ? (tl - ta) / (tb - ta) : 0.0f;
  const std::string& va = ld.clip->markers[static_cast<size_t>(lm[a])].value;
  const std::string& vb = ld.clip->markers[static_cast<size_t>(lm[b])].value;
  // Of the follower's pairs with those values (a clip of two strides has two Right -> Left
  // pairs), the one that puts it nearest its current time: the follower keeps its stride and
  // never jumps to another one of the same values when the leader crosses a marker a frame
  // before the follower does.
  const float tf = impl.state[static_cast<size_t>(follower)].time;
  float best = -1.0f, best_gap = 0.0f;
  for (int j = 0; j < fn; ++j) {
    const int j1 = (j + 1) % fn;
    if (fd.clip->markers[static_cast<size_t>(fm[j])].value != va || fd.clip->markers[static_cast<size_t>(fm[j1])].value != vb)
      continue;
    float s0 = ft_of(j), s1 = ft_of(j1);
    if (s1 <= s0) s1 += flen;
    float out = s0 + f * (s1 - s0);
    if (out >= ft.te) out -= flen;
    if (out < ft.ts) out += flen;
    float gap = std::fabs(out - tf);
    gap = std::min(gap, flen - gap);  // around the loop
    if (best < 0.0f || gap < best_gap) {
      best = out;
      best_gap = gap;
    }
  }
  return best;
}

void Ticker::blend(int node, float dt, float share, float escale, const Drive* drive) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  const float* w = weights(node);
  const int n = static_cast<int>(d.inputs.size());
  // Rule GR11: only the highest-weight input's events pass, scaled by its weight.
  int lead = 0;
  for (int k = 1; k < n; ++k)
    if (w[k] > w[lead]) lead = k;
  auto child_scale = [&](int k) { return k == lead ? escale * w[k] : 0.0f; };
  if (drive || d.phase_sync == GraphPhaseSync::kUnsynced) {
    for (int k = 0; k < n; ++k)
      if (w[k] != 0.0f) tick(d.inputs[static_cast<size_t>(k)].node, dt, share * w[k], child_scale(k), drive);
    return;
  }
  if (d.phase_sync == GraphPhaseSync::kMarkers) {
    st.leader = lead;
    const int ln = d.inputs[static_cast<size_t>(lead)].node;
    tick(ln, dt, share * w[lead], child_scale(lead), nullptr);
    const NodeState& ls = impl.state[static_cast<size_t>(ln)];
    st.phase = ls.phase;
    for (int k = 0; k < n; ++k) {
      if (k == lead || w[k] == 0.0f) continue;
      const int fnode = d.inputs[static_cast<size_t>(k)].node;
      Drive follow;
      follow.target_time = marker_time(ln, fnode);
      if (follow.target_time < 0.0f) {  // unmatched: the leader's normalized phase (Synced)
        follow.phase = ls.phase;
        follow.dphase = signed_wrap(ls.phase - fract(impl.state[static_cast<size_t>(fnode)].phase));
        if (follow.dphase < 0.0f) follow.dphase = 0.0f;
      }
      tick(fnode, dt, share * w[k], 0.0f, &follow);
    }
    return;
  }
  // Synced (rule GR9): one normalized phase over the weight-averaged duration.
  const float D = duration(node);
  const float dphase = D > 0.0f && dt > 0.0f ? dt / D : 0.0f;
  const float p1 = st.phase + dphase;
  if (p1 >= 1.0f) st.cycles += static_cast<int>(std::min(std::floor(p1), 1.0e6f));
  st.phase = fract(p1);
  Drive shared;
  shared.phase = st.phase;
  shared.dphase = dphase;
  for (int k = 0; k < n; ++k)
    if (w[k] != 0.0f) tick(d.inputs[static_cast<size_t>(k)].node, dt, share * w[k], child_scale(k), &shared);
}

void Ticker::tick(int node, float dt, float share, float escale, const Drive* drive) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  st.active = 1;
  st.weight = share;
  switch (d.type) {
    case GraphNodeType::kClip: clip(node, dt, escale, drive); break;
    case GraphNodeType::kBlend1D:
    case GraphNodeType::kBlend2D: blend(node, dt, share, escale, drive); break;
    case GraphNodeType::kSelect:
    case GraphNodeType::kPrioritySelect:
    case GraphNodeType::kSequence:
    case GraphNodeType::kRandomSequence: selector(node, dt, share, escale, drive); break;
    case GraphNodeType::kOver: {
      // Rule GR11: Base's events unchanged, Over's scaled by the weight.
      const float w = impl.num(d.weight);
      tick(d.base, dt, share, escale, drive);
      if (w != 0.0f && std::isfinite(w)) tick(d.over, dt, share * w, escale * w, drive);
      break;
    }
    case GraphNodeType::kAdd: {
      const float w = impl.num(d.weight);
      tick(d.base, dt, share, escale, drive);
      if (w != 0.0f && std::isfinite(w)) tick(d.additive, dt, share * w, escale, drive);
      break;
    }
    case GraphNodeType::kSubtract: {
      const float w = impl.num(d.weight);
      tick(d.a, dt, share, escale, drive);
      if (w != 0.0f && std::isfinite(w)) tick(d.b, dt, share * w, escale, drive);
      break;
    }
    case GraphNodeType::kMask: tick(d.pose, dt, share, escale, drive); break;
    case GraphNodeType::kSpeed: {
      // Rule GR10: dt below is scaled (a synced parent's phase still drives, unchanged).
      const float s = impl.num(d.speed);
      tick(d.pose, std::isfinite(s) ? dt * s : 0.0f, share, escale, drive);
      break;
    }
    case GraphNodeType::kStrideWarp:
    case GraphNodeType::kOrientationWarp: tick_warp(*this, node, dt, share, escale, drive); break;
  }
  if (d.type == GraphNodeType::kClip) return;
  // Cycles of pass-through nodes follow their base input (rule GR5's "finished").
  if (d.type == GraphNodeType::kOver || d.type == GraphNodeType::kAdd)
    st.cycles = impl.state[static_cast<size_t>(d.base)].cycles;
  else if (d.type == GraphNodeType::kSubtract)
    st.cycles = impl.state[static_cast<size_t>(d.a)].cycles;
  else if (d.type == GraphNodeType::kMask || d.type == GraphNodeType::kSpeed || d.type == GraphNodeType::kStrideWarp ||
           d.type == GraphNodeType::kOrientationWarp)
    st.cycles = impl.state[static_cast<size_t>(d.pose)].cycles;
  else if ((d.type == GraphNodeType::kBlend1D || d.type == GraphNodeType::kBlend2D) &&
           (drive || d.phase_sync != GraphPhaseSync::kSynced)) {
    int lead = 0;
    const float* w = impl.input_weight.data() + d.weight_offset;
    for (size_t k = 1; k < d.inputs.size(); ++k)
      if (w[k] > w[lead]) lead = static_cast<int>(k);
    st.cycles = impl.state[static_cast<size_t>(d.inputs[static_cast<size_t>(lead)].node)].cycles;
  }
}

}  // namespace asterune::graph_detail
