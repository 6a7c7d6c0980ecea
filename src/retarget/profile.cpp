#include "asterune/retarget/profile.hpp"

#include <algorithm>

#include "core/hash.hpp"

namespace asterune {

std::uint64_t profile_key(const RetargetProfile& profile) {
  detail::Fnv1a h;
  h.str("asterune.retarget_profile/1");
  h.str(profile.name);
  std::vector<const JointMapping*> sorted;
  sorted.reserve(profile.joints.size());
  for (const auto& m : profile.joints) sorted.push_back(&m);
  std::sort(sorted.begin(), sorted.end(), [](const JointMapping* a, const JointMapping* b) {
    return a->target != b->target ? a->target < b->target : a->source < b->source;
  });
  h.u64(sorted.size());
  for (const auto* m : sorted) {
    h.str(m->target);
    h.str(m->source);
    if (!m->aim.empty()) {  // hashed only when set, so profiles without aims keep their keys
      h.str("aim");
      h.str(m->aim);
    }
  }
  h.f32(profile.facing.w);
  h.f32(profile.facing.x);
  h.f32(profile.facing.y);
  h.f32(profile.facing.z);
  h.u64(profile.rest_matching ? 1 : 0);
  h.u64(profile.translation ? 1 : 0);
  h.u64(profile.rest_on_ground ? 1 : 0);
  h.f32(profile.scale);
  h.u64(profile.auto_scale ? 1 : 0);
  h.u64(profile.source_leg.size());
  for (const auto& s : profile.source_leg) h.str(s);
  h.u64(profile.target_leg.size());
  for (const auto& s : profile.target_leg) h.str(s);
  if (profile.floor) {  // hashed only when set, so profiles without a floor keep their keys
    h.str("floor");
    h.f32(*profile.floor);
  }
  return h.value();
}

}  // namespace asterune
