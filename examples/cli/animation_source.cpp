#include "animation_source.hpp"

#include <algorithm>

#include "asterune/rig/rig.hpp"

namespace asterune::cli {

namespace {
// One process-wide bake cache: a CLI run bakes each (clip, binding) once (rule RT9).
BakeCache& bake_cache() {
  static BakeCache cache;
  return cache;
}
}  // namespace

AnimationPoseSource::AnimationPoseSource(const io::SceneAnimation& animation, const Rig& rig, std::optional<Pose> base,
                                         bool bake)
    : rig_(rig), base_(std::move(base)) {
  scratch_local_.resize(static_cast<size_t>(rig.joint_count()));
  scratch_coverage_.resize(static_cast<size_t>(rig.joint_count()));
  auto loaded = io::load_source_clip(animation.clip, animation.retarget.units_to_studs);
  if (!loaded) throw CliError(loaded.message());
  clip_ = std::move(loaded).value();
  wrap_ = animation.loop ? WrapMode::kLoop : WrapMode::kClamp;
  if (clip_.native_only) {
    // A KeyframeSequence names parts directly and has no skeleton to retarget from. Like
    // Roblox's Animator, Poses naming no joint of this rig are ignored.
    std::erase_if(clip_.clip.tracks, [&](const ClipTrack& t) { return !rig.find_joint(t.name).found(); });
    if (clip_.clip.tracks.empty())
      throw CliError(animation.clip.string() + ": no Pose names a joint of rig '" + rig.name() +
                     "' (a KeyframeSequence plays natively only: its Pose names must be the rig's part names)");
  }
  // Native binding first (rule P3); the profile is only built when the names do not bind.
  if (clip_binds_natively(clip_.clip, rig)) {
    auto b = build_animation_binding(clip_.clip, rig, nullptr, nullptr);
    if (!b) throw CliError(animation.clip.string() + ": " + b.message());
    binding_ = std::move(b).value();
  } else {
    auto profile = io::build_scene_profile(animation.retarget, clip_.skeleton, rig, clip_.rest_on_ground);
    if (!profile) throw CliError(animation.clip.string() + ": " + profile.message());
    // Rules RT16, RT17: the clip's foot contacts set the floor and become Footstep markers.
    auto contacts = io::resolve_scene_floor(animation.retarget, clip_, rig, profile.value());
    if (!contacts) throw CliError(animation.clip.string() + ": " + contacts.message());
    contacts_ = std::move(contacts).value();
    if (!contacts_.has_floor) contact_note_ = animation.clip.string() + ": " + contacts_.note;
    const std::vector<ClipMarker> steps = footstep_markers(contacts_);
    clip_.clip.markers.insert(clip_.clip.markers.end(), steps.begin(), steps.end());
    std::stable_sort(clip_.clip.markers.begin(), clip_.clip.markers.end(),
                     [](const ClipMarker& a, const ClipMarker& b) { return a.time < b.time; });
    auto b = build_animation_binding(clip_.clip, rig, &clip_.skeleton, &profile.value());
    if (!b) throw CliError(animation.clip.string() + ": " + b.message());
    binding_ = std::move(b).value();
    mapped_ = binding_.retarget->mapped_count();
    if (bake) {
      auto baked = bake_cache().get(clip_.clip, binding_.clip_binding, *binding_.retarget, rig);
      if (!baked) throw CliError(animation.clip.string() + ": " + baked.message());
      baked_ = baked.value();
      auto native = build_animation_binding(*baked_, rig, nullptr, nullptr);
      if (!native) throw CliError(animation.clip.string() + ": baked clip: " + native.message());
      binding_ = std::move(native).value();
    }
  }
  context_ = make_animation_context(binding_);
}

void AnimationPoseSource::sample(float time, std::span<Transform> local, std::span<float> coverage) {
  const Clip& clip = baked_ ? *baked_ : clip_.clip;
  if (!base_) {
    sample_animation(clip, binding_, rig_, time, wrap_, context_, local, coverage);
    return;
  }
  std::copy(base_->local.begin(), base_->local.end(), local.begin());
  std::copy(base_->coverage.begin(), base_->coverage.end(), coverage.begin());
  sample_animation(clip, binding_, rig_, time, wrap_, context_, scratch_local_, scratch_coverage_);
  for (size_t j = 0; j < scratch_local_.size(); ++j) {
    if (scratch_coverage_[j] <= 0.0f) continue;
    local[j] = scratch_local_[j];
    coverage[j] = scratch_coverage_[j];
  }
}

void AnimationPoseSource::foot_contacts(float time, std::vector<io::FootContactRecord>& out) const {
  out.clear();
  const float t = wrap_clip_time(time, clip_.clip.duration, wrap_);
  for (size_t i = 0; i < contacts_.feet.size(); ++i)
    out.push_back(io::FootContactRecord{contacts_.feet[i].label, contacts_.in_contact(i, t)});
}

std::string AnimationPoseSource::description() const {
  if (baked_) {
    size_t keys = 0;
    for (const ClipTrack& t : baked_->tracks) keys += t.rotation_times.size();
    return "retargeted (" + std::to_string(mapped_) + " of " + std::to_string(rig_.joint_count()) +
           " joints mapped), baked once into '" + baked_->name + "' (" + std::to_string(baked_->tracks.size()) +
           " tracks, " + std::to_string(keys) + " rotation keys) and played natively";
  }
  if (binding_.mode == AnimationMode::kNative) return "native";
  return "retargeted (" + std::to_string(binding_.retarget->mapped_count()) + " of " +
         std::to_string(rig_.joint_count()) + " joints mapped)";
}

}  // namespace asterune::cli
