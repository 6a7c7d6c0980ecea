// AnimationBinding: plays a clip on a rig, choosing native binding when the clip already uses
// the rig's names (rule P3: even when a retarget profile exists) and rest-space retargeting
// from the clip's source skeleton otherwise (rule RT4). Setup binds once; per frame,
// sample_animation() writes the rig's motor transforms and coverage without allocating.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/clip/compressed_clip.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/core/result.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/foot_plant.hpp"

namespace asterune {

class RetargetCache;  // retarget/cache.hpp: bindings shared by layout signature

class Rig;

enum class AnimationMode { kNative, kRetarget };

struct AnimationBinding {
  AnimationMode mode = AnimationMode::kNative;
  /// To the rig (native) or to the source skeleton. In kRetarget mode a source joint the retarget
  /// does not read (RetargetBinding::source_needed false: fingers, toes) has no track (-1), so it
  /// is not sampled: it gets its rest local with coverage 0 (rule RT4).
  ClipBinding clip_binding;
  std::shared_ptr<const RetargetBinding> retarget;  // set in kRetarget mode
  /// kRetarget mode, optional (rule RT19): planted feet applied after the retarget
  /// (build_foot_plant). Null: the retargeted pose as it is.
  std::shared_ptr<const FootPlant> plant;
  /// kNative mode, optional (rule P8): the clip's compressed form (compress_clip for this rig),
  /// sampled instead of the clip's keys; the clip then only gives the length and the markers
  /// (build_compressed_animation_binding).
  std::shared_ptr<const CompressedClip> compressed;
};

/// Binds `clip` for playback on `rig`. Native when clip_binds_natively(clip, rig) and
/// `allow_native` (false for a skeleton clip whose keys are node locals, whatever its names:
/// a glTF, rule F20); otherwise the clip is bound to `source` and retargeted through `profile`
/// (the binding comes from `cache` when one is given). Fails when neither applies (names the
/// clip, the rig and why).
Result<AnimationBinding> build_animation_binding(const Clip& clip, const Rig& rig, const SourceSkeleton* source,
                                        const RetargetProfile* profile, RetargetCache* cache = nullptr,
                                        bool allow_native = true);

/// A native binding that plays `compressed` on `rig` (rule P8). `shell` is the clip players are
/// given beside it: compressed_clip_shell(*compressed, rig), or the float clip it was compressed
/// from. Fails when the compressed clip was made for another rig layout (Rig::signature, rule R7)
/// or the shell does not bind natively to the rig.
Result<AnimationBinding> build_compressed_animation_binding(const Clip& shell,
                                                            std::shared_ptr<const CompressedClip> compressed,
                                                            const Rig& rig);

/// Per-character scratch for sample_animation().
struct AnimationContext {
  std::vector<Transform> source_local;
  std::vector<float> source_coverage;
  RetargetContext retarget;
  ClipCursor cursor;  // playback cursor for clip_binding; left empty, sampling searches every key
  CompressedClipCursor compressed_cursor;  // for binding.compressed; left empty, each sample decodes its headers
  std::vector<Transform> world;  // rig-space placements for the planted feet (binding.plant)
};

/// Sizes the scratch for a binding (setup time).
AnimationContext make_animation_context(const AnimationBinding& binding);

/// Samples the clip at `time` into the rig's motor transforms T and coverage (rig joint count
/// entries each). Allocation-free, no throw. Returns false (nothing written) on size mismatch.
/// With binding.plant, the planted feet (rule RT19) are applied at the wrapped clip time.
bool sample_animation(const Clip& clip, const AnimationBinding& binding, const Rig& rig, float time, WrapMode wrap,
                      AnimationContext& context, std::span<Transform> local, std::span<float> coverage);

}  // namespace asterune
