#include "animation_source.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <iostream>

#include "asterune/formats/compressed_clip_file.hpp"
#include "asterune/retarget/cycle.hpp"
#include "asterune/retarget/first_frame.hpp"
#include "asterune/retarget/foot_level.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::cli {

namespace {
// One process-wide bake cache: a CLI run bakes each (clip, binding) once (rule RT9).
BakeCache& bake_cache() {
  static BakeCache cache;
  return cache;
}
}  // namespace

void bind_clip(BoundClip& out, const std::filesystem::path& path, const io::SceneRetarget& retarget, const Rig& rig,
               bool bake, RetargetCache* cache, bool keep_first_frame, io::ClipCycle cycle) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".asclip") {  // rule P8: played as it is, natively, on the rig it was made for
    auto read = io::load_compressed_clip(path);
    if (!read) throw CliError(read.message());
    auto compressed = std::make_shared<const CompressedClip>(std::move(read).value());
    out.source = io::SourceClip{};
    out.source.native_only = true;
    out.source.clip = compressed_clip_shell(*compressed, rig);
    auto b = build_compressed_animation_binding(out.source.clip, std::move(compressed), rig);
    if (!b) throw CliError(path.string() + ": " + b.message());
    out.binding = std::move(b).value();
    return;
  }
  auto loaded = io::load_source_clip(path, retarget.units_to_studs);
  if (!loaded) throw CliError(loaded.message());
  out.source = std::move(loaded).value();
  if (!out.source.native_only && !keep_first_frame) {  // rule RT23: a converter's T-pose is not motion
    const FirstFrameCheck first = detect_synthetic_first_frame(out.source.clip, out.source.skeleton);
    if (first.synthetic) {
      drop_first_frame(out.source.clip, first.frame_time);
      std::cerr << "asterune-solve: note: " << path.string() << ": " << first.note << " (--keep-first-frame keeps it)\n";
    }
  }
  // A KeyframeSequence from another Roblox rig retargets from it, or plays what matches; a
  // skeleton source gets its reference pose and origin. What changed goes to stderr.
  // Native binding first (rule P3); the profile is only built when the names do not bind, and
  // with rest "auto" frame 0 is tried when the rest's roles fail (rule RT24).
  std::vector<std::string> notes;
  auto prepared = io::prepare_scene_retarget(out.source, retarget, rig, path.string(), notes, &out.roles);
  for (const std::string& note : notes) std::cerr << "asterune-solve: note: " << note << "\n";
  if (!prepared) throw CliError(prepared.message().rfind(path.string(), 0) == 0 ? prepared.message()
                                                                                 : path.string() + ": " + prepared.message());
  if (!prepared.value()) {
    if (cycle == io::ClipCycle::kAuto)
      throw CliError(path.string() + ": cycle auto: the clip uses the rig's own names, so there is no source skeleton to find "
                     "its strides on (leave \"cycle\" out)");
    auto b = build_animation_binding(out.source.clip, rig, nullptr, nullptr);
    if (!b) throw CliError(path.string() + ": " + b.message());
    out.binding = std::move(b).value();
    return;
  }
  auto profile = Result<RetargetProfile>(std::move(*prepared.value()));
  // Rule RT22: each foot calibrated from its own contacts, so mid-stance feet are level; first,
  // because it moves the soles the floor is then fitted to.
  auto levelled = level_clip_feet(out.source.clip, out.source.skeleton, rig, profile.value());
  if (!levelled) throw CliError(path.string() + ": " + levelled.message());
  // Rules RT16, RT17: the clip's foot contacts set the floor and become Footstep markers.
  auto contacts = io::resolve_scene_floor(retarget, out.source, rig, profile.value());
  if (!contacts) throw CliError(path.string() + ": " + contacts.message());
  out.contacts = std::move(contacts).value();
  if (cycle == io::ClipCycle::kAuto) {  // rules LO1-LO5, on the floor-levelled clip and its contacts
    auto span = find_cycle(out.source.clip, out.source.skeleton, out.contacts);
    if (!span) throw CliError(path.string() + ": " + span.message());
    auto cut = cut_cycle(out.source.clip, out.source.skeleton, span.value(), out.contacts.up);
    if (!cut) throw CliError(path.string() + ": " + cut.message());
    out.source.clip = std::move(cut).value();
    out.cycle = span.value().describe();
    std::cerr << "asterune-solve: note: " << path.string() << ": " << out.cycle << "\n";
    auto again = io::resolve_scene_floor(retarget, out.source, rig, profile.value());
    if (!again) throw CliError(path.string() + ": " + again.message());
    out.contacts = std::move(again).value();
  }
  if (!out.contacts.has_floor) out.contact_note = path.string() + ": " + out.contacts.note;
  const std::vector<ClipMarker> steps = footstep_markers(out.contacts);
  std::vector<ClipMarker>& markers = out.source.clip.markers;
  markers.insert(markers.end(), steps.begin(), steps.end());
  std::stable_sort(markers.begin(), markers.end(), [](const ClipMarker& a, const ClipMarker& b) { return a.time < b.time; });
  auto b = build_animation_binding(out.source.clip, rig, &out.source.skeleton, &profile.value(), cache,
                                   !out.source.skeleton_only);
  if (!b) throw CliError(path.string() + ": " + b.message());
  out.binding = std::move(b).value();
  out.mapped = out.binding.retarget->mapped_count();
  if (retarget.plant_feet && out.contacts.in_place())  // rule RT20: the ground slides under it
    std::cerr << "asterune-solve: note: " << path.string() << ": the clip walks in place: plant_feet is not applied\n";
  if (retarget.plant_feet && !out.contacts.spans().empty() && !out.contacts.in_place()) {  // rule RT19
    auto plant = build_foot_plant(out.source.clip, out.binding, rig, out.contacts);
    if (!plant) throw CliError(path.string() + ": " + plant.message());
    out.binding.plant = std::make_shared<const FootPlant>(std::move(plant).value());
    if (bake)
      std::cerr << "asterune-solve: note: " << path.string()
                << ": plant_feet is applied live; --bake plays the baked retarget without it\n";
  }
  if (bake) {
    auto baked = bake_cache().get(out.source.clip, out.binding.clip_binding, *out.binding.retarget, rig);
    if (!baked) throw CliError(path.string() + ": " + baked.message());
    out.baked = baked.value();
    auto native = build_animation_binding(*out.baked, rig, nullptr, nullptr);
    if (!native) throw CliError(path.string() + ": baked clip: " + native.message());
    out.binding = std::move(native).value();
  }
}

std::string BoundClip::description(const Rig& rig) const {
  if (baked) {
    size_t keys = 0;
    for (const ClipTrack& t : baked->tracks) keys += t.rotation_times.size();
    return "retargeted (" + std::to_string(mapped) + " of " + std::to_string(rig.joint_count()) +
           " joints mapped), baked once into '" + baked->name + "' (" + std::to_string(baked->tracks.size()) +
           " tracks, " + std::to_string(keys) + " rotation keys) and played natively; source roles: " + roles +
           (cycle.empty() ? "" : "; " + cycle);
  }
  if (binding.compressed) return "native, compressed";
  if (binding.mode == AnimationMode::kNative) return "native";
  return "retargeted (" + std::to_string(binding.retarget->mapped_count()) + " of " + std::to_string(rig.joint_count()) +
         " joints mapped); source roles: " + roles + (cycle.empty() ? "" : "; " + cycle);
}

AnimationPoseSource::AnimationPoseSource(const io::SceneAnimation& animation, const Rig& rig, std::optional<Pose> base,
                                         bool bake, bool keep_first_frame, bool once_by_default)
    : rig_(rig), base_(std::move(base)) {
  scratch_local_.resize(static_cast<size_t>(rig.joint_count()));
  scratch_coverage_.resize(static_cast<size_t>(rig.joint_count()));
  bind_clip(clip_, animation.clip, animation.retarget, rig, bake, nullptr, keep_first_frame, animation.cycle);
  // Rule AN11: the scene's (or the flag's) loop, else the file's own Loop, else the default; a
  // clip played once is clamped, so its last frame at t = duration is its last pose. A cut cycle
  // (rule LO1) is made to loop, so it loops unless told otherwise.
  const bool file_loop = clip_.source.loop.value_or(!once_by_default);
  const bool loop = animation.loop.value_or(animation.cycle == io::ClipCycle::kAuto || file_loop);
  wrap_ = loop ? WrapMode::kLoop : WrapMode::kClamp;
  context_ = make_animation_context(clip_.binding);
}

void AnimationPoseSource::sample(float time, float, std::span<Transform> local, std::span<float> coverage) {
  const Clip& clip = clip_.clip();
  if (!base_) {
    sample_animation(clip, clip_.binding, rig_, time, wrap_, context_, local, coverage);
    return;
  }
  std::copy(base_->local.begin(), base_->local.end(), local.begin());
  std::copy(base_->coverage.begin(), base_->coverage.end(), coverage.begin());
  sample_animation(clip, clip_.binding, rig_, time, wrap_, context_, scratch_local_, scratch_coverage_);
  for (size_t j = 0; j < scratch_local_.size(); ++j) {
    if (scratch_coverage_[j] <= 0.0f) continue;
    local[j] = scratch_local_[j];
    coverage[j] = scratch_coverage_[j];
  }
}

void AnimationPoseSource::foot_contacts(float time, std::vector<io::FootContactRecord>& out) const {
  out.clear();
  const float t = wrap_clip_time(time, clip_.source.clip.duration, wrap_);
  for (size_t i = 0; i < clip_.contacts.feet.size(); ++i)
    out.push_back(io::FootContactRecord{clip_.contacts.feet[i].label, clip_.contacts.in_contact(i, t)});
}

std::string AnimationPoseSource::description() const { return clip_.description(rig_); }

TrackDesc scene_track_desc(const io::SceneTrack& track, const BoundClip& bound, bool is_animation_block) {
  TrackDesc d;
  d.name = track.name;
  d.clip = &bound.clip();
  d.binding = &bound.binding;
  d.priority = track.priority.value_or(bound.source.priority.value_or(TrackPriority::kCore));
  d.looped = track.loop.value_or(bound.source.loop.value_or(true));
  d.weight = track.weight;
  d.speed = track.speed;
  d.time = track.time;
  d.playing = track.playing;
  d.mask.parts = track.mask_parts;
  d.mask.descendants = track.mask_descendants;
  d.additive = track.additive;
  d.reference_time = track.reference_time;
  d.root_motion = track.root_motion;
  d.hold_end = is_animation_block && !d.looped;
  return d;
}

}  // namespace asterune::cli
