// Level feet in stance (rule RT22): each foot is calibrated from the clip's own contacts, so
// that the source's mid-stance foot orientation becomes the target's level foot while the motion
// relative to it is kept. Setup-time code (allocates); docs/retarget.md "Level feet (RT22)".
#pragma once

#include <map>
#include <string>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/retarget/profile.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {

class Rig;

/// What level_feet() did for one foot.
struct FootLevel {
  std::string source;        // the source foot joint whose track was calibrated
  int contacts = 0;          // contacts that gave a calibration key
  int skipped = 0;           // contacts left out (a mid-stance correction beyond 60 degrees)
  float largest_degrees = 0; // the largest correction applied at a key
};

/// Rule RT22. For each watched foot of `contacts` whose target foot (the rig's left_foot /
/// right_foot role; R6's legs have none and are left alone) is driven through `profile` by a
/// source joint s: r = K * C1^-1 * +Y is the target part's up in s's own frame (K the binding's
/// carry of the foot, C1 the joint's C1). Per contact, over its middle third, v = the mean of
/// S_s^-1 * (F^-1 * +Y) (the source up in s's frame; S_s from forward kinematics of the clip),
/// normalized: the calibration key at the contact's middle time is Y = rotation_between(r, v),
/// which makes that mean mid-stance foot level on the target. Corrections beyond 60 degrees are
/// left out. Between keys Y is slerped, held before the first and after the last; every rotation
/// key of s's track becomes L * Y(t) (cubic tangents too), so the motion relative to the
/// calibrated stance is kept and the foot's subtree follows. A foot with no usable contact or
/// no track is left as it is. Fails when the clip or the profile does not bind.
Result<std::vector<FootLevel>> level_feet(Clip& clip, const SourceSkeleton& source, const Rig& rig,
                                          const RetargetProfile& profile, const FootContacts& contacts);

/// Rule RT22 as a scene uses it, before the floor is fitted (the calibration moves the soles):
/// the contacts (find_foot_contacts() with the profile's facing and `overrides`), level_feet(),
/// and once more on the calibrated clip, whose contacts shift a little with the feet's new
/// lowest points. Returns the second pass's report. Fails as those do.
Result<std::vector<FootLevel>> level_clip_feet(Clip& clip, const SourceSkeleton& source, const Rig& rig,
                                               const RetargetProfile& profile,
                                               const std::map<std::string, std::string>& overrides = {});

}  // namespace asterune
