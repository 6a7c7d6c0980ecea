// The animator's pose-source tracks (rules GR15, AN12): sampling a source with its
// events and root step, and the weights every reported event carries (rule AN12).
#include <algorithm>
#include <cmath>

#include "anim/animator_track.hpp"

namespace asterune {

bool Animator::sample_source(const Rig& rig, Track& tr) {
  const int root = tr.desc.root_motion ? root_joint_ : -1;
  const PoseSourceSample s = tr.desc.source->sample(rig, tr.source_dt, tr.local, tr.coverage, tr.source_events, root);
  if (!s.ok) return false;
  const int cap = static_cast<int>(tr.source_events.size());
  tr.source_written = std::clamp(s.events_written, 0, cap);
  tr.source_dropped = std::max(0, s.events_dropped) + (s.events_written - tr.source_written);
  // Rule AN7: the walk reports a track's events in step order; a source writes them per node
  // (a graph: node order, then time), so a stable insertion sort by step fraction (a few
  // events, no allocation) puts them in order with ties kept as the source wrote them.
  PoseSourceEvent* ev = tr.source_events.data();
  for (int i = 1; i < tr.source_written; ++i) {
    const PoseSourceEvent e = ev[i];
    int k = i;
    for (; k > 0 && ev[k - 1].at > e.at; --k) ev[k] = ev[k - 1];
    ev[k] = e;
  }
  if (root >= 0) {
    const glm::quat q = s.root_step.rotation;
    tr.root_step = is_finite(q) && std::isfinite(s.root_step.position.x) && std::isfinite(s.root_step.position.y) &&
                           std::isfinite(s.root_step.position.z)
                       ? s.root_step
                       : Transform::identity();  // a bad step never moves the character
  }
  return true;
}

void Animator::weigh_events(std::span<AnimEvent> events, int written) const {
  // Rule AN12: a track's effective weight is its largest per-joint share of this frame's pose:
  // the composition's effective weights e_j (overrides) or claims a_j (additive), left in
  // `claim`; on the lone-track path (rule AN10, weight 1, no mask) the coverage.
  if (written <= 0) return;
  const auto n = static_cast<size_t>(joint_count_);
  for (int t = 0; t < track_count(); ++t) {
    const Track& tr = tracks_[static_cast<size_t>(t)];
    bool any = false;
    for (int i = 0; i < written && !any; ++i) any = events[static_cast<size_t>(i)].track == t;
    if (!any) continue;
    float w = 0.0f;
    if (tr.sampled) {
      const bool claims = tr.desc.additive || claims_ready_;
      const float* v = claims ? tr.claim.data() : tr.coverage.data();
      for (size_t j = 0; j < n; ++j)
        if (std::fabs(v[j]) > std::fabs(w)) w = v[j];
      if (!claims) w *= tr.state.weight_current;
    }
    for (int i = 0; i < written; ++i) {
      AnimEvent& e = events[static_cast<size_t>(i)];
      if (e.track == t) e.weight *= w;
    }
  }
}

}  // namespace asterune
