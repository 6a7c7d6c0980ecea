// What a graph's warp nodes did in the last update (rules LO6-LO9): StrideWarp's stride scale and
// play rate, OrientationWarp's lower-body yaw, and whether a parameter was ignored. Read through
// GraphInstance::warp_report() for reports (the CLI's frame JSON) and tests; plain data.
#pragma once

namespace asterune {

struct GraphWarpReport {
  bool warp = false;            ///< the node is a StrideWarp or an OrientationWarp that ran this update
  float stride_scale = 1.0f;    ///< StrideWarp: the scale of the feet along the travel (rule LO6)
  float play_rate = 1.0f;       ///< StrideWarp: the rate its pose played at (what the clamp left)
  float pose_speed = 0.0f;      ///< StrideWarp: the input pose's nominal root speed, studs/s
  float pelvis_drop = 0.0f;     ///< StrideWarp: studs the pelvis lowered (rule LO7)
  float lower_body_yaw = 0.0f;  ///< OrientationWarp: radians the root and legs turned (rule LO8)
  bool clamped = false;         ///< the ratio or direction was clamped
  /// Rule LO9: the parameter gave an unusable value (a negative or nonfinite speed, a ratio that
  /// overflows, a nonfinite direction); the node passed its pose through unwarped.
  bool ignored = false;
};

}  // namespace asterune
