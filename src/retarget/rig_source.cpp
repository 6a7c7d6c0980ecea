#include "asterune/retarget/rig_source.hpp"

#include "asterune/core/assert.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {
namespace {

Transform rest_local_of(const Rig& rig, int j) {
  const auto u = static_cast<size_t>(j);
  const int p = rig.parent(j);
  const Transform base = p >= 0 ? rig.c1_inverse()[static_cast<size_t>(p)] : rig.anchor()[u];
  return base * rig.c0()[u];
}

}  // namespace

SourceSkeleton source_skeleton_from_rig(const Rig& rig) {
  SourceSkeleton s;
  s.name = rig.name();
  const int n = rig.joint_count();
  for (int j = 0; j < n; ++j) {
    s.joint_names.push_back(rig.lookup_name(j));
    s.parents.push_back(rig.parent(j));
    s.rest_local.push_back(rest_local_of(rig, j));
  }
  s.end_sites.assign(static_cast<size_t>(n), glm::vec3(0.0f));
  s.units_to_studs = 1.0f;
  return s;
}

void add_part_end_sites(const Rig& rig, SourceSkeleton& skeleton) {
  const int n = rig.joint_count();
  if (skeleton.joint_count() != n) return;
  skeleton.end_sites.assign(static_cast<size_t>(n), glm::vec3(0.0f));
  for (int j = 0; j < n; ++j) {
    if (rig.subtree_end(j) != j + 1) continue;  // has child joints
    const glm::vec3 size = rig.part(rig.part1()[static_cast<size_t>(j)]).size;
    if (!is_finite(size)) continue;
    skeleton.end_sites[static_cast<size_t>(j)] =
        transform_point(rig.c1_inverse()[static_cast<size_t>(j)], glm::vec3(0.0f, -0.5f * size.y, 0.0f));
  }
}

bool source_pose_from_rig(const Rig& rig, std::span<const Transform> motor, std::span<Transform> out) {
  const int n = rig.joint_count();
  ASTERUNE_EXPECT_OR_RETURN(motor.size() == static_cast<size_t>(n) && out.size() == static_cast<size_t>(n),
                            "motor and out hold rig.joint_count() entries", false);
  for (int j = 0; j < n; ++j) out[static_cast<size_t>(j)] = rest_local_of(rig, j) * motor[static_cast<size_t>(j)];
  return true;
}

Clip clip_as_rig_source(const Clip& clip, const Rig& rig) {
  Clip out = clip;
  out.tracks.clear();
  for (const ClipTrack& track : clip.tracks) {
    const JointLookup j = rig.find_joint(track.name);
    if (!j.found()) continue;
    const Transform rest = rest_local_of(rig, j.index);
    ClipTrack t = track;
    t.name = rig.lookup_name(j.index);
    for (auto& q : t.rotations) q = rest.rotation * q;
    for (auto& q : t.rotation_in_tangents) q = rest.rotation * q;
    for (auto& q : t.rotation_out_tangents) q = rest.rotation * q;
    for (auto& p : t.translations) p = rest.position + rest.rotation * p;
    for (auto& v : t.translation_in_tangents) v = rest.rotation * v;
    for (auto& v : t.translation_out_tangents) v = rest.rotation * v;
    out.tracks.push_back(std::move(t));
  }
  return out;
}

}  // namespace asterune
