// The update's passes over the node tree (src/graph/graph_tick.cpp: weights, activity and
// clip progress; graph_select.cpp: selectors and sequences; graph_eval.cpp: sampling and
// blending bottom-up). Private to the graph module.
#pragma once

#include "graph/graph_internal.hpp"

namespace asterune {
class Rig;
}

namespace asterune::graph_detail {

// How a parent drives a node's progress instead of its own rate (rule GR9).
struct Drive {
  float phase = 0.0f;         // Synced: the shared normalized phase after this update
  float dphase = 0.0f;        // Synced: its advance this update
  float target_time = -1.0f;  // Markers: the follower's clip time (>= 0), else unused
};

struct Ticker {
  GraphInstance::Impl& impl;

  struct Trim {
    float ts, te;
    bool forward;  // reverse XOR negative speed
  };
  Trim trim(const NodeDef& d) const;
  float clip_time(const NodeDef& d, float u) const;
  float duration(int node);
  float* weights(int node);
  void reset(int node);
  void emit(int node, float u0, float du, float weight);
  void advance_clip(int node, float du, float escale);
  void clip(int node, float dt, float escale, const Drive* drive);
  float marker_time(int leader, int follower) const;
  void blend(int node, float dt, float share, float escale, const Drive* drive);
  void selector(int node, float dt, float share, float escale, const Drive* drive);
  void start_input(int node, int input);
  void enter(int node, float share, float escale, const Drive* drive);
  void tick(int node, float dt, float share, float escale, const Drive* drive);
};

/// Rules LO12-LO14: a distance-matched Clip's progress step this update (>= 0).
float distance_step(GraphInstance::Impl& impl, int node, const Ticker::Trim& trim, float dt);

/// The second pass: evaluates the active nodes bottom-up into their pose buffers. False when a
/// clip could not be sampled (wrong rig).
bool evaluate(GraphInstance::Impl& impl, const Rig& rig, int node);

}  // namespace asterune::graph_detail
