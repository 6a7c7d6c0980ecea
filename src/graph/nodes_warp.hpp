// Private: the StrideWarp and OrientationWarp nodes' parts of the graph's passes (rules
// LO6-LO9), called from the tick, evaluate, root-motion and build code by node type.
#pragma once

#include <string>

#include "graph/graph_tick.hpp"

namespace asterune::graph_detail {

/// Build: binds the warp nodes to the rig's legs, pelvis and spine (humanoid roles, rule RT8).
/// Does nothing when the graph has no warp node. False with `error` set (one line).
bool prepare_warp(GraphInstance::Impl& impl, const Rig& rig, std::string& error);

/// Tick pass: decides the warp (stride scale and play rate, or yaw) from the parameters and the
/// input's nominal root speed, then ticks the input (a StrideWarp at dt x its play rate).
void tick_warp(Ticker& ticker, int node, float dt, float share, float escale, const Drive* drive);

/// Ticker::duration of a warp node: the input's, over a StrideWarp's play rate.
float warp_duration(Ticker& ticker, int node);

/// Evaluate pass: the input's pose, warped. False when the input could not be evaluated.
bool evaluate_warp(GraphInstance::Impl& impl, const Rig& rig, int node);

/// Root motion (rule GR16) after the input's step was passed through: a StrideWarp scales the
/// travel by its stride scale, an OrientationWarp turns it by its yaw.
void warp_step(GraphInstance::Impl& impl, int node);

}  // namespace asterune::graph_detail
