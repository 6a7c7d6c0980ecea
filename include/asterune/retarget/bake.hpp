// Baking (rule RT9): retarget a clip once per (clip, source skeleton, target rig) into a Clip in
// the target's joint space, keyed by the target's joint names at the source's key times. The
// baked clip binds natively to the rig and samples like any native clip; at the key times it
// equals live retargeting (between keys it slerps the target rotations instead of the source's).
#pragma once

#include <cstdint>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/retarget/binding.hpp"

namespace asterune {

class Rig;

/// Stable 64-bit hash (FNV-1a) of a clip's whole content: name, duration, every track's name,
/// interpolation, key times and values. Equal clips give equal keys; any edit changes it. The
/// clip identity in BakeCache (cache.hpp).
std::uint64_t clip_key(const Clip& clip);

/// Sorted, de-duplicated union of every rotation and translation key time of the clip.
std::vector<float> clip_key_times(const Clip& clip);

/// Bakes `clip` (bound to the source skeleton by `source_binding`) through `binding` onto `rig`.
/// One track per mapped target joint whose source joint has a track (named by child part name,
/// parent-qualified when shared), with a rotation key at every source key time, plus
/// translation keys on the joint that carries the travel. Unmapped joints get no track, so
/// they keep coverage 0 when the baked clip is sampled (rule RT5). Fails when the binding does
/// not belong to `rig` or the clip has no keys.
Result<Clip> bake_retarget(const Clip& clip, const ClipBinding& source_binding, const RetargetBinding& binding,
                           const Rig& rig);

}  // namespace asterune
