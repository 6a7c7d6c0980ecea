#include "asterune/clip/binding.hpp"

#include <cmath>
#include <utility>

#include "asterune/rig/source_skeleton.hpp"
#include "asterune/rig/rig.hpp"
#include "clip/key_stream.hpp"

namespace asterune {

namespace {

std::string clip_label(const Clip& clip) { return "clip '" + clip.name + "'"; }

std::string track_label(const Clip& clip, size_t t) {
  return clip_label(clip) + ": track #" + std::to_string(t) + " '" + clip.tracks[t].name + "'";
}

Status check_times(const Clip& clip, size_t t, const std::vector<float>& times, size_t value_count,
                   const char* channel) {
  if (times.size() != value_count)
    return make_error(track_label(clip, t) + ": " + channel + " has " + std::to_string(times.size()) +
                      " times but " + std::to_string(value_count) + " values");
  for (size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k]))
      return make_error(track_label(clip, t) + ": " + channel + " key " + std::to_string(k) + " has a nonfinite time");
    if (k > 0 && times[k] < times[k - 1])
      return make_error(track_label(clip, t) + ": " + channel + " key " + std::to_string(k) +
                        " time goes backwards (" + std::to_string(times[k]) + " < " + std::to_string(times[k - 1]) + ")");
  }
  return Success{};
}

}  // namespace

int ClipBinding::bound_count() const {
  int n = 0;
  for (int t : track_of_joint_) n += t >= 0 ? 1 : 0;
  return n;
}

Status validate_clip(const Clip& clip) {
  for (size_t t = 0; t < clip.tracks.size(); ++t) {
    const ClipTrack& track = clip.tracks[t];
    if (Status s = check_times(clip, t, track.rotation_times, track.rotations.size(), "rotation"); !s) return s;
    if (Status s = check_times(clip, t, track.translation_times, track.translations.size(), "translation"); !s)
      return s;
    for (size_t k = 0; k < track.rotations.size(); ++k) {
      const glm::quat& q = track.rotations[k];
      if (!is_finite(q))
        return make_error(track_label(clip, t) + ": rotation key " + std::to_string(k) + " is nonfinite");
      const float len = std::sqrt(glm::dot(q, q));
      if (std::fabs(len - 1.0f) > 1e-3f)
        return make_error(track_label(clip, t) + ": rotation key " + std::to_string(k) +
                          " is not unit length (|q| = " + std::to_string(len) + ")");
    }
    for (size_t k = 0; k < track.translations.size(); ++k)
      if (!is_finite(track.translations[k]))
        return make_error(track_label(clip, t) + ": translation key " + std::to_string(k) + " is nonfinite");
    if (Status s = check_times(clip, t, track.scale_times, track.scales.size(), "scale"); !s) return s;
    for (size_t k = 0; k < track.scales.size(); ++k)
      if (!is_finite(track.scales[k]))
        return make_error(track_label(clip, t) + ": scale key " + std::to_string(k) + " is nonfinite");
    // Cubic channels need one finite in- and out-tangent per key.
    auto check_tangents = [&](Interpolation mode, size_t keys, size_t in, size_t out, auto finite,
                              const char* channel) -> Status {
      if (mode != Interpolation::kCubicSpline) return Success{};
      if (in != keys || out != keys)
        return make_error(track_label(clip, t) + ": cubic " + channel + " has " + std::to_string(keys) + " keys but " +
                          std::to_string(in) + " in- and " + std::to_string(out) + " out-tangents");
      if (!finite()) return make_error(track_label(clip, t) + ": cubic " + channel + " has a nonfinite tangent");
      return Success{};
    };
    auto all_finite = [](const auto& a, const auto& b) {
      for (const auto& v : a)
        if (!is_finite(v)) return false;
      for (const auto& v : b)
        if (!is_finite(v)) return false;
      return true;
    };
    if (Status s = check_tangents(track.rotation_interpolation, track.rotations.size(), track.rotation_in_tangents.size(),
                                  track.rotation_out_tangents.size(),
                                  [&] { return all_finite(track.rotation_in_tangents, track.rotation_out_tangents); },
                                  "rotation");
        !s)
      return s;
    if (Status s = check_tangents(track.translation_interpolation, track.translations.size(),
                                  track.translation_in_tangents.size(), track.translation_out_tangents.size(),
                                  [&] { return all_finite(track.translation_in_tangents, track.translation_out_tangents); },
                                  "translation");
        !s)
      return s;
    if (Status s = check_tangents(track.scale_interpolation, track.scales.size(), track.scale_in_tangents.size(),
                                  track.scale_out_tangents.size(),
                                  [&] { return all_finite(track.scale_in_tangents, track.scale_out_tangents); },
                                  "scale");
        !s)
      return s;
    // Per-key easing (rule P5): none, or one known style and direction per key of a linear channel.
    auto check_easing = [&](const std::vector<KeyEasing>& easing, size_t keys, Interpolation mode,
                            const char* channel) -> Status {
      if (easing.empty()) return Success{};
      if (easing.size() != keys)
        return make_error(track_label(clip, t) + ": " + channel + " has " + std::to_string(keys) + " keys but " +
                          std::to_string(easing.size()) + " easings");
      if (mode != Interpolation::kLinear)
        return make_error(track_label(clip, t) + ": " + channel + " has per-key easing but is not linear");
      for (size_t k = 0; k < easing.size(); ++k)
        if (!is_easing_style(static_cast<int>(easing[k].style)) ||
            !is_easing_direction(static_cast<int>(easing[k].direction)))
          return make_error(track_label(clip, t) + ": " + channel + " key " + std::to_string(k) +
                            " has an unknown easing style or direction");
      return Success{};
    };
    if (Status s = check_easing(track.rotation_easing, track.rotations.size(), track.rotation_interpolation, "rotation");
        !s)
      return s;
    if (Status s = check_easing(track.translation_easing, track.translations.size(), track.translation_interpolation,
                                "translation");
        !s)
      return s;
  }
  return Success{};
}

Result<ClipBinding> build_clip_binding_from_tracks(const Clip& clip, std::vector<int> track_of_joint,
                                      std::vector<Transform> defaults,
                                      std::vector<std::string> unmatched_tracks) {
  if (Status s = validate_clip(clip); !s) return s.error();
  if (defaults.size() != track_of_joint.size())
    return make_error(clip_label(clip) + ": binding has " + std::to_string(track_of_joint.size()) +
                      " joints but " + std::to_string(defaults.size()) + " defaults");
  const int track_count = static_cast<int>(clip.tracks.size());
  std::vector<int> joint_of_track(clip.tracks.size(), -1);
  for (size_t j = 0; j < track_of_joint.size(); ++j) {
    const int t = track_of_joint[j];
    if (t < -1 || t >= track_count)
      return make_error(clip_label(clip) + ": joint " + std::to_string(j) + " refers to track " +
                        std::to_string(t) + " but the clip has " + std::to_string(track_count) + " tracks");
    if (!is_finite(defaults[j]))
      return make_error(clip_label(clip) + ": joint " + std::to_string(j) + " has a nonfinite default transform");
    if (t < 0) continue;
    if (joint_of_track[static_cast<size_t>(t)] >= 0)
      return make_error(track_label(clip, static_cast<size_t>(t)) + ": drives both joint " +
                        std::to_string(joint_of_track[static_cast<size_t>(t)]) + " and joint " + std::to_string(j));
    joint_of_track[static_cast<size_t>(t)] = static_cast<int>(j);
  }
  ClipBinding binding;
  binding.track_of_joint_ = std::move(track_of_joint);
  binding.defaults_ = std::move(defaults);
  binding.unmatched_ = std::move(unmatched_tracks);
  binding.track_count_ = track_count;
  // One source of truth for the keys (bound_clip): the snapshot, and the stream compiled from it.
  Clip keys;
  keys.name = clip.name;
  keys.duration = clip.duration;
  keys.tracks = clip.tracks;
  binding.clip_ = std::make_shared<const Clip>(std::move(keys));
  binding.stream_ = std::make_shared<const detail::KeyStream>(
      detail::compile_key_stream(*binding.clip_, binding.track_of_joint_, binding.defaults_));
  return binding;
}

Result<ClipBinding> build_clip_binding(const Clip& clip, const Rig& rig) {
  std::vector<int> track_of_joint(static_cast<size_t>(rig.joint_count()), -1);
  std::vector<std::string> unmatched;
  for (size_t t = 0; t < clip.tracks.size(); ++t) {
    const std::string& name = clip.tracks[t].name;
    const JointLookup lookup = rig.find_joint(name);
    if (lookup.status == LookupStatus::kAmbiguous)
      return make_error(track_label(clip, t) + " on rig '" + rig.name() + "': " + lookup.message);
    if (!lookup.found()) {
      unmatched.push_back(name);
      continue;
    }
    int& slot = track_of_joint[static_cast<size_t>(lookup.index)];
    if (slot >= 0)
      return make_error(track_label(clip, t) + " on rig '" + rig.name() + "': joint '" +
                        rig.parent_name(lookup.index) + "/" + rig.child_name(lookup.index) +
                        "' is already driven by track '" + clip.tracks[static_cast<size_t>(slot)].name + "'");
    slot = static_cast<int>(t);
  }
  std::vector<Transform> defaults(static_cast<size_t>(rig.joint_count()), Transform::identity());
  auto binding = build_clip_binding_from_tracks(clip, std::move(track_of_joint), std::move(defaults), std::move(unmatched));
  if (binding) binding.value().target_signature_ = rig.signature();  // rule R7: players check the layout
  return binding;
}

Result<ClipBinding> build_clip_binding(const Clip& clip, const SourceSkeleton& skeleton) {
  if (skeleton.rest_local.size() != skeleton.joint_names.size())
    return make_error(clip_label(clip) + ": source skeleton '" + skeleton.name + "' has " +
                      std::to_string(skeleton.joint_names.size()) + " joint names but " +
                      std::to_string(skeleton.rest_local.size()) + " rest transforms");
  std::vector<int> track_of_joint(skeleton.joint_names.size(), -1);
  std::vector<std::string> unmatched;
  for (size_t t = 0; t < clip.tracks.size(); ++t) {
    const std::string& name = clip.tracks[t].name;
    const int j = skeleton.find(name);
    if (j < 0) {
      unmatched.push_back(name);
      continue;
    }
    int& slot = track_of_joint[static_cast<size_t>(j)];
    if (slot >= 0)
      return make_error(track_label(clip, t) + " on skeleton '" + skeleton.name + "': joint '" + name +
                        "' is already driven by track #" + std::to_string(slot));
    slot = static_cast<int>(t);
  }
  return build_clip_binding_from_tracks(clip, std::move(track_of_joint), skeleton.rest_local, std::move(unmatched));
}

bool clip_binds_natively(const Clip& clip, const Rig& rig) {
  if (clip.tracks.empty()) return false;
  std::vector<char> used(static_cast<size_t>(rig.joint_count()), 0);
  for (const ClipTrack& track : clip.tracks) {
    const JointLookup lookup = rig.find_joint(track.name);
    if (!lookup.found()) return false;
    if (used[static_cast<size_t>(lookup.index)]) return false;
    used[static_cast<size_t>(lookup.index)] = 1;
  }
  return true;
}

}  // namespace asterune
