// Test helpers for retargeting (random rotations and angles: support/math.hpp):
// re-expressing a source skeleton in other joint axes, and a small hand-built T-pose source.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "asterune/math/transform.hpp"
#include "asterune/rig/source_skeleton.hpp"
#include "support/math.hpp"

namespace asterune::test {

/// Re-expresses joint j's frame as frame_j * Q_j (Q per joint), compensating offsets, rest
/// rotations and end sites so that every world position is unchanged:
///   r'_j = Q_p^-1 r_j Q_j,  o'_j = Q_p^-1 o_j,  e'_j = Q_j^-1 e_j.
inline SourceSkeleton reexpress(const SourceSkeleton& s, const std::vector<glm::quat>& q) {
  SourceSkeleton out = s;
  for (size_t j = 0; j < s.joint_names.size(); ++j) {
    const int p = s.parents[j];
    const glm::quat qp = p >= 0 ? q[static_cast<size_t>(p)] : glm::quat(1, 0, 0, 0);
    out.rest_local[j].rotation = glm::normalize(glm::conjugate(qp) * s.rest_local[j].rotation * q[j]);
    out.rest_local[j].position = glm::conjugate(qp) * s.rest_local[j].position;
    if (!s.end_sites.empty()) out.end_sites[j] = glm::conjugate(q[j]) * s.end_sites[j];
  }
  return out;
}

/// The same re-expression for one sampled pose of full locals.
inline void reexpress_pose(const SourceSkeleton& s, const std::vector<glm::quat>& q,
                           const std::vector<Transform>& in, std::vector<Transform>& out) {
  out = in;
  for (size_t j = 0; j < in.size(); ++j) {
    const int p = s.parents[j];
    const glm::quat qp = p >= 0 ? q[static_cast<size_t>(p)] : glm::quat(1, 0, 0, 0);
    out[j].rotation = glm::normalize(glm::conjugate(qp) * in[j].rotation * q[j]);
    out[j].position = glm::conjugate(qp) * in[j].position;
  }
}

/// A small CMU-like T-pose skeleton facing +Z (left side at +X), BVH-style: identity rest
/// rotations, offsets only. Joint order: Hips, Spine, Chest, Head, LArm, LForeArm, LHand,
/// RArm, RForeArm, RHand, LUpLeg, LLeg, LFoot, RUpLeg, RLeg, RFoot.
inline SourceSkeleton tpose_source() {
  SourceSkeleton s;
  s.name = "tpose";
  auto add = [&](const char* name, int parent, glm::vec3 offset, glm::vec3 end = glm::vec3(0)) {
    s.joint_names.push_back(name);
    s.parents.push_back(parent);
    s.rest_local.push_back(Transform::from_position(offset));
    s.end_sites.push_back(end);
  };
  add("Hips", -1, {0, 17, 0});
  add("Spine", 0, {0, 2, 0.1f});
  add("Chest", 1, {0, 3, 0});
  add("Head", 2, {0, 3, 0}, {0, 2, 0});
  add("LArm", 2, {3, 1.5f, 0});
  add("LForeArm", 4, {5, 0, 0});
  add("LHand", 5, {3, 0, 0}, {1, 0, 0});
  add("RArm", 2, {-3, 1.5f, 0});
  add("RForeArm", 7, {-5, 0, 0});
  add("RHand", 8, {-3, 0, 0}, {-1, 0, 0});
  add("LUpLeg", 0, {1.6f, -1.8f, 0.7f});
  add("LLeg", 10, {2.3f, -6.4f, 0});
  add("LFoot", 11, {2.7f, -7.5f, 0}, {0.2f, -0.5f, 2});
  add("RUpLeg", 0, {-1.6f, -1.8f, 0.7f});
  add("RLeg", 13, {-2.3f, -6.4f, 0});
  add("RFoot", 14, {-2.7f, -7.5f, 0}, {-0.2f, -0.5f, 2});
  s.units_to_studs = 1.0f;
  return s;
}

}  // namespace asterune::test
