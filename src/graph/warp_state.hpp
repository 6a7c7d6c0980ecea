// Private: the rig binding the graph's warp nodes share (legs, pelvis, spine, found once from
// the rig's humanoid roles) and each warp node's per-update values (src/graph/nodes_warp.cpp).
#pragma once

#include <array>

#include <glm/glm.hpp>

#include "asterune/solvers/locomotion_warp.hpp"

namespace asterune::graph_detail {

struct WarpLegJoints {
  int hip = -1, knee = -1, ankle = -1;  // layout indexes (upper leg, lower leg, foot)
};

struct WarpRig {
  int legs = 0;
  std::array<WarpLegJoints, kMaxWarpLegs> leg{};
  int pelvis = -1;  // the joint the legs hang from
  int spine = 0;    // joints from the pelvis up to the chest, pelvis side first
  std::array<int, kMaxWarpSpine> spine_joint{};
};

// Recomputed by every update's tick (never snapshotted: no warp keeps state across updates).
struct WarpState {
  float stride_scale = 1.0f, play_rate = 1.0f, pose_speed = 0.0f, pelvis_drop = 0.0f, yaw = 0.0f;
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  // StrideWarp: travel direction in the pose's frame
  bool clamped = false, ignored = false;
};

}  // namespace asterune::graph_detail
