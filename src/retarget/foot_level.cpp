#include "asterune/retarget/foot_level.hpp"

#include <algorithm>
#include <cmath>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {
namespace {

// Beyond this the mid-stance foot is not flat on the floor (a toe or heel stand), or its roll is
// not the foot's: no calibration from that contact.
constexpr float kMaxCorrectionDegrees = 60.0f;
constexpr float kDegrees = 57.29577951308232f;

struct Key {
  float time;
  glm::quat y;
};

// Y(t): slerp between the keys (ascending times), held at the ends.
glm::quat calibration_at(const std::vector<Key>& keys, float t) {
  if (!(t > keys.front().time)) return keys.front().y;
  if (!(t < keys.back().time)) return keys.back().y;
  const auto next = std::upper_bound(keys.begin(), keys.end(), t, [](float x, const Key& k) { return x < k.time; });
  const Key& a = *(next - 1);
  const Key& b = *next;
  const float span = b.time - a.time;
  return glm::normalize(glm::slerp(a.y, b.y, span > 0.0f ? (t - a.time) / span : 1.0f));
}

// The calibration keys of one foot: one per contact whose middle third gives a usable mean.
std::vector<Key> foot_keys(const Clip& clip, const SourceSkeleton& source, const ClipBinding& clip_binding,
                           const FootContacts& contacts, size_t foot, int s, const glm::vec3& r,
                           const glm::vec3& up_source, FootLevel& report) {
  const auto ns = static_cast<size_t>(source.joint_count());
  std::vector<Transform> local(ns), world(ns);
  std::vector<float> coverage(ns);
  std::vector<Key> keys;
  for (const ContactSpan& span : contacts.spans()) {
    if (span.foot != foot) continue;
    const int n = span.last - span.first + 1;
    glm::dvec3 sum(0.0);
    for (int f = span.first + n / 3; f <= span.last - n / 3; ++f) {
      const float time = std::min(clip.duration, static_cast<float>(f) * contacts.dt);
      sample_clip(clip, clip_binding, time, WrapMode::kClamp, local, coverage);
      source_world(source, local, world);
      const glm::vec3 v = glm::conjugate(glm::normalize(world[static_cast<size_t>(s)].rotation)) * up_source;
      if (is_finite(v)) sum += glm::dvec3(v);
    }
    const double len = glm::length(sum);
    if (!(len > 1e-9)) continue;
    const glm::quat y = rotation_between(r, glm::vec3(sum / len));
    const float degrees = 2.0f * std::acos(std::clamp(std::abs(y.w), 0.0f, 1.0f)) * kDegrees;
    if (!(degrees <= kMaxCorrectionDegrees)) {
      ++report.skipped;
      continue;
    }
    keys.push_back(Key{0.5f * static_cast<float>(span.first + span.last) * contacts.dt, y});
    report.largest_degrees = std::max(report.largest_degrees, degrees);
    ++report.contacts;
  }
  std::stable_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) { return a.time < b.time; });
  return keys;
}

}  // namespace

Result<std::vector<FootLevel>> level_feet(Clip& clip, const SourceSkeleton& source, const Rig& rig,
                                          const RetargetProfile& profile, const FootContacts& contacts) {
  std::vector<FootLevel> out;
  const size_t nf = contacts.feet.size();
  if (nf == 0 || contacts.frame_count <= 0 || !(contacts.dt > 0.0f)) return out;
  auto roles = rig_roles(rig);
  if (!roles) return roles.error();
  auto binding = build_retarget_binding(source, rig, profile);
  if (!binding) return binding.error();
  auto clip_binding = build_clip_binding(clip, source);
  if (!clip_binding) return clip_binding.error();
  const RetargetBinding& b = binding.value();
  const glm::vec3 up_source = glm::conjugate(b.facing) * glm::vec3(0.0f, 1.0f, 0.0f);

  std::vector<std::vector<Key>> keys(nf);
  std::vector<int> driver(nf, -1);
  for (size_t i = 0; i < nf; ++i) {
    const Role role = contacts.feet[i].side == "Left" ? Role::kLeftFoot : Role::kRightFoot;
    if (!roles.value().has(role)) continue;
    const JointLookup t = rig.find_joint(roles.value()[role]);
    if (!t.found() || b.source_index[static_cast<size_t>(t.index)] < 0) continue;
    const auto ut = static_cast<size_t>(t.index);
    const int s = b.source_index[ut];
    const glm::vec3 r = glm::normalize(b.carry[ut] * (rig.c1_inverse()[ut].rotation * glm::vec3(0.0f, 1.0f, 0.0f)));
    FootLevel report{source.joint_names[static_cast<size_t>(s)], 0, 0, 0.0f};
    keys[i] = foot_keys(clip, source, clip_binding.value(), contacts, i, s, r, up_source, report);
    driver[i] = s;
    out.push_back(report);
  }
  // Applied after every foot was measured, so the measures all see the clip as it came.
  for (size_t i = 0; i < nf; ++i) {
    if (driver[i] < 0 || keys[i].empty()) continue;
    const std::string& name = source.joint_names[static_cast<size_t>(driver[i])];
    auto track = std::find_if(clip.tracks.begin(), clip.tracks.end(), [&](const ClipTrack& t) { return t.name == name; });
    if (track == clip.tracks.end()) continue;
    const bool cubic = track->rotation_interpolation == Interpolation::kCubicSpline;
    for (size_t k = 0; k < track->rotation_times.size() && k < track->rotations.size(); ++k) {
      const glm::quat y = calibration_at(keys[i], track->rotation_times[k]);
      track->rotations[k] = glm::normalize(track->rotations[k] * y);
      if (cubic && k < track->rotation_in_tangents.size() && k < track->rotation_out_tangents.size()) {
        track->rotation_in_tangents[k] = track->rotation_in_tangents[k] * y;
        track->rotation_out_tangents[k] = track->rotation_out_tangents[k] * y;
      }
    }
  }
  return out;
}

Result<std::vector<FootLevel>> level_clip_feet(Clip& clip, const SourceSkeleton& source, const Rig& rig,
                                               const RetargetProfile& profile,
                                               const std::map<std::string, std::string>& overrides) {
  std::vector<FootLevel> report;
  for (int pass = 0; pass < 2; ++pass) {
    auto contacts = find_foot_contacts(clip, source, profile.facing, ContactThresholds{}, overrides);
    if (!contacts) return contacts.error();
    auto levelled = level_feet(clip, source, rig, profile, contacts.value());
    if (!levelled) return levelled.error();
    report = std::move(levelled).value();
  }
  return report;
}

}  // namespace asterune
