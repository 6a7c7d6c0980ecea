#include "asterune/formats/export_tracks.hpp"

#include <algorithm>

#include "asterune/clip/error_metric.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::io {
namespace {

// The tracks' virtual vertices (rule P7): joint j's part box corners on track first + j, the
// tracks before `first` (a root node) with none of their own.
void add_virtual_vertices(const Rig& rig, size_t first, KeyTracks& k) {
  const VirtualVertices v = make_virtual_vertices(rig);
  k.point_begin.assign(first + 1, 0);
  for (size_t j = 0; j + 1 < v.begin.size(); ++j) k.point_begin.push_back(v.begin[j + 1]);
  k.points = v.points;
}

}  // namespace

KeyTracks keyframe_sequence_tracks(const Rig& rig, std::span<const FrameRecord> frames) {
  const auto n = static_cast<size_t>(rig.joint_count());
  KeyTracks k;
  k.parent.assign(rig.parents().begin(), rig.parents().end());
  for (size_t j = 0; j < n; ++j) {
    k.pre.push_back(k.parent[j] >= 0 ? rig.c0()[j] : rig.anchor()[j] * rig.c0()[j]);
    k.post.push_back(rig.c1_inverse()[j]);
  }
  for (const FrameRecord& r : frames) {
    k.times.push_back(r.time);
    k.base.push_back(Transform::identity());
    k.local.insert(k.local.end(), r.local.begin(), r.local.begin() + static_cast<long>(std::min(n, r.local.size())));
    k.local.resize(k.times.size() * n, Transform::identity());
  }
  add_virtual_vertices(rig, 0, k);
  return k;
}

KeyTracks gltf_node_tracks(const Rig& rig, std::span<const FrameRecord> frames) {
  const auto nj = static_cast<size_t>(rig.joint_count());
  KeyTracks k;
  k.parent.push_back(-1);
  for (size_t j = 0; j < nj; ++j) {
    const int pj = rig.parent(static_cast<int>(j));
    k.parent.push_back(pj >= 0 ? 1 + pj : 0);
  }
  k.pre.assign(nj + 1, Transform::identity());
  k.post.assign(nj + 1, Transform::identity());
  std::vector<Transform> world(nj + 1);
  for (const FrameRecord& r : frames) {
    k.times.push_back(r.time);
    k.base.push_back(Transform::identity());
    world[0] = r.root;
    for (size_t j = 0; j < nj; ++j) world[j + 1] = j < r.world.size() ? r.world[j] : Transform::identity();
    for (size_t i = 0; i <= nj; ++i) {
      const int p = k.parent[i];
      k.local.push_back(p >= 0 ? inverse(world[static_cast<size_t>(p)]) * world[i] : world[i]);
    }
  }
  add_virtual_vertices(rig, 1, k);
  return k;
}

}  // namespace asterune::io
