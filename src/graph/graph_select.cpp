// Selectors and sequences (rules GR3-GR6, GR8): which input is active, when it changes, and the
// transition that brings the new input in. Select and PrioritySelect decide from the
// parameters at the start of their tick; Sequence and RandomSequence after their inputs
// advanced (the input that finished this update hands over in the same update).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "graph/graph_tick.hpp"

namespace asterune::graph_detail {

// Rule GR8: starts input `k` with its transition. A transition interrupted mid-way starts from
// the node's shown pose (copied); an uninterrupted one blends the previous input live.
void Ticker::start_input(int node, int k) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  const GraphTransition& tr = d.inputs[static_cast<size_t>(k)].transition;
  const bool in_transition = st.prev >= 0 || st.frozen || st.inertial;
  const size_t n = static_cast<size_t>(impl.joints);
  auto freeze = [&] {
    Transform* from = impl.from_poses.data() + static_cast<size_t>(d.from_slot) * n;
    float* from_cov = impl.from_covs.data() + static_cast<size_t>(d.from_slot) * std::max<size_t>(n, 1);
    std::memcpy(static_cast<void*>(from), impl.pose(node), n * sizeof(Transform));
    std::memcpy(from_cov, impl.cov(node), n * sizeof(float));
  };
  st.te = 0.0f;
  st.td = tr.duration;
  st.curve = static_cast<std::uint8_t>(tr.curve);
  st.frozen = 0;
  st.inertial = 0;
  const int old = st.cur;
  st.prev = -1;
  st.cur = k;
  if (!st.shown || tr.duration <= 0.0f || old < 0) {
    st.td = 0.0f;
  } else if (tr.curve == GraphCurve::kInertial) {
    freeze();
    st.inertial = 1;  // the offsets are taken at the first evaluation of the new input
  } else if (in_transition || old == k) {
    freeze();
    st.frozen = 1;
  } else {
    st.prev = old;
  }
  reset(d.inputs[static_cast<size_t>(k)].node);
  st.last_trigger = impl.flag(d.inputs[static_cast<size_t>(k)].wait_for_trigger) ? 1 : 0;
}

// A sequence handed over after its inputs advanced: the new input is placed at its start (no
// time step) and the transition shows the old side alone in this update.
void Ticker::enter(int node, float share, float escale, const Drive* drive) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  const bool fading = st.prev >= 0 || st.frozen;
  st.phase = fading ? 0.0f : 1.0f;
  if (st.prev >= 0) impl.state[static_cast<size_t>(d.inputs[static_cast<size_t>(st.prev)].node)].weight = share;
  tick(d.inputs[static_cast<size_t>(st.cur)].node, 0.0f, fading ? 0.0f : share, escale, drive);
}

void Ticker::selector(int node, float dt, float share, float escale, const Drive* drive) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  NodeState& st = impl.state[static_cast<size_t>(node)];
  const int n = static_cast<int>(d.inputs.size());
  auto cycles_of = [&](int k) { return impl.state[static_cast<size_t>(d.inputs[static_cast<size_t>(k)].node)].cycles; };
  auto first_trigger = [&] {
    for (int k = 0; k < n; ++k)
      if (impl.flag(d.inputs[static_cast<size_t>(k)].trigger)) return k;
    return -1;
  };
  auto by_name = [&] {
    const std::string_view want = impl.str(d.selection);
    for (int k = 0; k < n; ++k)
      if (d.inputs[static_cast<size_t>(k)].name == want) return k;
    return -1;
  };
  // Rule GR6: an independent draw, probability weight / sum of weights (nonfinite or
  // negative weights count 0); -1 when every weight is 0.
  auto draw = [&] {
    double total = 0.0;
    for (int k = 0; k < n; ++k) {
      const float w = impl.num(d.inputs[static_cast<size_t>(k)].weight);
      if (w > 0.0f && std::isfinite(w)) total += w;
    }
    if (!(total > 0.0)) return -1;
    const double u = unit_draw(st.rng) * total;
    double acc = 0.0;
    int last = -1;
    for (int k = 0; k < n; ++k) {
      const float w = impl.num(d.inputs[static_cast<size_t>(k)].weight);
      if (!(w > 0.0f && std::isfinite(w))) continue;
      acc += w;
      last = k;
      if (u < acc) return k;
    }
    return last;
  };
  if (!st.started) {
    st.started = 1;
    int k = 0;
    if (d.type == GraphNodeType::kSelect) k = std::max(by_name(), 0);
    else if (d.type == GraphNodeType::kPrioritySelect) k = std::max(first_trigger(), 0);
    else if (d.type == GraphNodeType::kRandomSequence) k = std::max(draw(), 0);
    st.cur = -1;
    start_input(node, k);
  } else if (d.type == GraphNodeType::kSelect) {
    const int k = by_name();  // rule GR3: an unknown name keeps the current input
    if (k >= 0 && k != st.cur) start_input(node, k);
  } else if (d.type == GraphNodeType::kPrioritySelect) {
    // Rule GR4: the first true trigger plays. A higher-priority one takes over as the current
    // input's interruptible allows; a current input whose trigger fell gives way at once.
    const int k = first_trigger();
    if (k >= 0 && k != st.cur) {
      const InputDef& cur = d.inputs[static_cast<size_t>(st.cur)];
      bool allowed = true;
      if (k < st.cur && impl.flag(cur.trigger)) {
        if (cur.interruptible == GraphInterruptible::kFinished) allowed = cycles_of(st.cur) >= 1;
        else if (cur.interruptible == GraphInterruptible::kTrigger) allowed = impl.flag(cur.interruptible_trigger);
      }
      if (allowed) start_input(node, k);
    }
  }
  // Transition weights (rule GR8), from the time elapsed before this update: the update at
  // `duration` after the start shows the new input alone. The factor (Inertial: the offset's
  // remaining share) is kept in st.phase for the evaluation.
  if (st.td > 0.0f && st.te >= st.td) {
    st.td = 0.0f;
    st.prev = -1;
    st.frozen = 0;
    st.inertial = 0;
  }
  float alpha = 1.0f;
  if (st.td > 0.0f && (st.prev >= 0 || st.frozen)) alpha = transition_alpha(static_cast<GraphCurve>(st.curve), st.te / st.td);
  st.phase = st.inertial ? inertial_share(st.te / st.td) : alpha;
  // Rule GR11: the active input's events pass; the one fading out is silent.
  tick(d.inputs[static_cast<size_t>(st.cur)].node, dt, share * alpha, escale, drive);
  if (st.prev >= 0) tick(d.inputs[static_cast<size_t>(st.prev)].node, dt, share * (1.0f - alpha), 0.0f, drive);
  if (st.td > 0.0f && dt > 0.0f && std::isfinite(dt)) st.te += dt;
  if (d.type == GraphNodeType::kSequence) {
    // Rule GR5: Finished = the input completed a cycle; Trigger = its wait_for_trigger rose.
    const InputDef& in = d.inputs[static_cast<size_t>(st.cur)];
    const bool trig = impl.flag(in.wait_for_trigger);
    const bool advance = in.wait_for == GraphWaitFor::kTrigger ? (trig && !st.last_trigger) : cycles_of(st.cur) >= 1;
    st.last_trigger = trig ? 1 : 0;
    if (advance && !st.done) {
      int next = st.cur + 1;
      if (next == n) {
        ++st.loops;
        st.cycles = st.loops;
        if (d.loop_count > 0 && st.loops >= d.loop_count) st.done = 1;  // the last input keeps playing
        next = 0;
      }
      if (!st.done) {
        start_input(node, next);
        enter(node, share, escale, drive);
      }
    }
  } else if (d.type == GraphNodeType::kRandomSequence) {
    if (cycles_of(st.cur) >= 1 && !st.done) {
      ++st.loops;
      st.cycles = st.loops;
      if (d.play_count > 0 && st.loops >= d.play_count) {
        st.done = 1;
      } else {
        const int k = draw();
        if (k >= 0) {
          start_input(node, k);
          enter(node, share, escale, drive);
        }
      }
    }
  } else {
    st.cycles = cycles_of(st.cur);
  }
}

}  // namespace asterune::graph_detail
