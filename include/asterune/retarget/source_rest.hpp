// The reference pose of a retarget source (rules RT13, RT14), chosen at setup before the
// binding is built: the skeleton's rest as it is, a frame of the clip (for sources whose rest is
// not a standing body), a rest turned as a whole set upright again, and where travel starts.
// Everything here rewrites the source skeleton's rest locals; the binding then takes every
// rest-relative quantity (facing, carry, rest matching, scale, travel reference) from it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {

enum class SourceRestMode {
  kRest,   // the skeleton's rest, as it is
  kFrame,  // the pose at one frame of the clip
  kAuto,   // the rest, or frame 0 when the rest is not a standing body (degenerate_rest)
};

enum class SourceOrigin {
  kClip,        // travel as the clip has it (absolute positions stay absolute)
  kFirstFrame,  // the root's horizontal position at frame 0 lands on the target's root
};

struct SourceRestOptions {
  SourceRestMode mode = SourceRestMode::kAuto;
  int frame = 0;  // kFrame: 0-based index into the clip's key times
  SourceOrigin origin = SourceOrigin::kClip;
  std::map<std::string, std::string> role_overrides;  // role -> source joint (source_roles)
};

struct PreparedSource {
  SourceSkeleton skeleton;         // rest locals rewritten as asked
  std::vector<std::string> notes;  // one line per change made (for stderr)
};

/// Why the skeleton's rest is not a standing body, or nullopt when it is (or cannot be judged:
/// no hips or no legs): the feet (lower legs) not below the hips along up = hips -> head, left
/// and right legs on the same side (left = up x forward, forward the way the toes point), or
/// hips found but the two legs not told apart.
std::optional<std::string> degenerate_rest(const SourceSkeleton& source, const RoleMap& roles);

/// Rule RT13: picks the reference pose (options.mode), then, when the rest's up (hips -> head,
/// snapped to an axis) differs from the clip's up (the same vector averaged over every key time,
/// snapped), turns the roots' rest by the shortest arc between them, so a rest lying on its side
/// as a whole retargets like the upright one (facing about the up axis stays the rest's).
/// Rule RT14: kFirstFrame shifts the roots' rest position horizontally (across the clip's up) so
/// the hips' travel is zero at frame 0. Fails on a frame out of range or a clip that does not
/// bind to the skeleton; the message names the skeleton and the reason.
Result<PreparedSource> prepare_source(const SourceSkeleton& source, const Clip& clip, const SourceRestOptions& options);

}  // namespace asterune
