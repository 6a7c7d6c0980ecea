#include "asterune/retarget/contacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

namespace asterune {
namespace {

constexpr float kDefaultFrameSeconds = 1.0f / 30.0f;
constexpr float kFloorGuessQuantile = 0.05f;
constexpr float kFloorSmoothingSeconds = 0.05f;  // rule RT18: half-width of the target floor's min and mean filters
// Rule RT18: the lowest contacting sole is put this fraction of the target leg length into the
// ground (R15: 0.02 studs), so the median contacting sole, which the other foot and the filters
// lift, comes out on it.
constexpr float kContactDepth = 0.01f;
constexpr float kDefaultTargetLeg = 2.0f;  // studs (R15) when the binding did not measure the legs

bool in_subtree(const std::vector<int>& parents, int joint, int top) {
  for (int j = joint; j >= 0; j = parents[static_cast<size_t>(j)])
    if (j == top) return true;
  return false;
}

// The q-quantile of `v` (nearest rank on the sorted values); v must not be empty.
float quantile(std::vector<float> v, float q) {
  std::sort(v.begin(), v.end());
  const float pos = std::clamp(q, 0.0f, 1.0f) * static_cast<float>(v.size() - 1);
  return v[static_cast<size_t>(std::lround(pos))];
}

// Keys sorted by time, keys at equal times (both feet's contacts centred on one frame) averaged.
std::vector<FloorKey> sorted_keys(std::vector<FloorKey> keys) {
  std::stable_sort(keys.begin(), keys.end(), [](const FloorKey& a, const FloorKey& b) { return a.time < b.time; });
  std::vector<FloorKey> out;
  int same = 0;
  for (const FloorKey& k : keys) {
    if (!out.empty() && out.back().time == k.time) {
      ++same;
      out.back().height += (k.height - out.back().height) / static_cast<float>(same + 1);
    } else {
      out.push_back(k);
      same = 0;
    }
  }
  return out;
}


// The foot joint's subtree: the points whose lowest one is the sole.
std::vector<size_t> foot_points(const SourceSkeleton& source, const FootSpec& foot) {
  std::vector<size_t> points;
  for (size_t j = 0; j < source.parents.size(); ++j)
    if (foot.joint >= 0 && in_subtree(source.parents, static_cast<int>(j), foot.joint)) points.push_back(j);
  return points;
}

// Rule RT20: the velocity of the ground under an in-place clip (source units per second, across
// `up`), zero for a clip whose body travels. Per frame, the lowest point of the lowest foot is
// the supporting one; the median of its horizontal velocity is the ground's motion. A body whose
// own root travels less than half of that over the clip walks on a treadmill: the ground moves.
glm::vec3 ground_velocity(const SampledSource& samples, const SourceSkeleton& source, const std::vector<FootSpec>& feet,
                          const glm::vec3& up, float leg_length, const ContactThresholds& th) {
  const auto frames = static_cast<size_t>(samples.frame_count);
  const auto n = static_cast<size_t>(samples.joint_count);
  if (frames < 3 || feet.empty()) return glm::vec3(0.0f);
  std::vector<std::vector<size_t>> points;
  for (const FootSpec& f : feet) points.push_back(foot_points(source, f));
  const auto flat = [&](const glm::vec3& v) { return v - glm::dot(v, up) * up; };
  std::vector<float> vx, vy, vz;
  for (size_t f = 1; f + 1 < frames; ++f) {
    float low = std::numeric_limits<float>::infinity();
    glm::vec3 vel(0.0f);
    for (const auto& pts : points)
      for (size_t j : pts)
        for (const auto* set : {&samples.joint, &samples.end_site}) {
          const float h = glm::dot((*set)[f * n + j], up);
          if (!(h < low)) continue;
          low = h;
          vel = flat((*set)[(f + 1) * n + j] - (*set)[(f - 1) * n + j]) / (2.0f * samples.dt);
        }
    if (!std::isfinite(low) || !is_finite(vel)) continue;
    vx.push_back(vel.x);
    vy.push_back(vel.y);
    vz.push_back(vel.z);
  }
  if (vx.empty()) return glm::vec3(0.0f);
  const glm::vec3 g = flat(glm::vec3(quantile(vx, 0.5f), quantile(vy, 0.5f), quantile(vz, 0.5f)));
  size_t root = 0;
  while (root < n && source.parents[root] >= 0) ++root;
  if (root >= n) return glm::vec3(0.0f);
  const float seconds = static_cast<float>(frames - 1) * samples.dt;
  const glm::vec3 travel = flat(samples.joint[(frames - 1) * n + root] - samples.joint[root]) / seconds;
  const float ground = glm::length(g);
  if (!(ground > th.in_place_speed * leg_length) || !(glm::length(travel) < 0.5f * ground)) return glm::vec3(0.0f);
  return g;
}

// Rule RT20: one foot-down is one contact. Per foot, a lift shorter than merge_gap between two
// contacts joins them, then a contact shorter than min_contact is dropped (a touch, not a step).
void clean_contacts(FootContacts& c, const ContactThresholds& th) {
  const size_t nf = c.feet.size();
  const auto frames = static_cast<long>(c.frame_count);
  if (nf == 0 || frames == 0 || !(c.dt > 0.0f)) return;
  const long max_gap = std::lround(th.merge_gap / c.dt);
  const long min_len = std::max(1L, std::lround(th.min_contact / c.dt));
  const auto at = [&](long f, size_t i) -> unsigned char& { return c.contact[static_cast<size_t>(f) * nf + i]; };
  for (size_t i = 0; i < nf; ++i) {
    long last_on = -1;
    for (long f = 0; f < frames; ++f) {
      if (!at(f, i)) continue;
      if (last_on >= 0 && f - last_on - 1 > 0 && f - last_on - 1 <= max_gap)
        for (long g = last_on + 1; g < f; ++g) at(g, i) = 1;
      last_on = f;
    }
    for (long f = 0; f < frames;) {
      if (!at(f, i)) {
        ++f;
        continue;
      }
      long end = f;
      while (end + 1 < frames && at(end + 1, i)) ++end;
      // A contact cut by the clip's ends may be longer than it shows: keep it.
      if (end - f + 1 < min_len && f > 0 && end + 1 < frames)
        for (long g = f; g <= end; ++g) at(g, i) = 0;
      f = end + 1;
    }
  }
}

}  // namespace

float floor_at(const std::vector<FloorKey>& keys, float time, float fallback) {
  if (keys.empty()) return fallback;
  if (!(time > keys.front().time)) return keys.front().height;
  if (!(time < keys.back().time)) return keys.back().height;
  const auto next = std::upper_bound(keys.begin(), keys.end(), time,
                                     [](float t, const FloorKey& k) { return t < k.time; });
  const FloorKey& b = *next;
  const FloorKey& a = *(next - 1);
  const float span = b.time - a.time;
  const float u = span > 0.0f ? (time - a.time) / span : 1.0f;
  return a.height + (b.height - a.height) * u;
}

std::vector<ContactSpan> FootContacts::spans() const {
  std::vector<ContactSpan> out;
  const size_t nf = feet.size();
  for (int f = 0; f < frame_count; ++f)
    for (size_t i = 0; i < nf; ++i) {
      const size_t k = static_cast<size_t>(f) * nf + i;
      if (!contact[k] || (f > 0 && contact[k - nf])) continue;
      int last = f;
      while (last + 1 < frame_count && contact[static_cast<size_t>(last + 1) * nf + i]) ++last;
      out.push_back(ContactSpan{i, f, last});
    }
  return out;
}

Result<SampledSource> sample_source(const Clip& clip, const SourceSkeleton& source) {
  auto binding = build_clip_binding(clip, source);
  if (!binding) return binding.error();
  size_t keys = 0;
  for (const ClipTrack& t : clip.tracks) keys = std::max({keys, t.rotation_times.size(), t.translation_times.size()});
  const float duration = std::isfinite(clip.duration) && clip.duration > 0.0f ? clip.duration : 0.0f;
  SampledSource out;
  out.dt = keys > 1 && duration > 0.0f ? duration / static_cast<float>(keys - 1) : kDefaultFrameSeconds;
  out.frame_count = static_cast<int>(std::lround(duration / out.dt)) + 1;
  out.joint_count = source.joint_count();
  const auto n = static_cast<size_t>(out.joint_count);
  out.joint.resize(static_cast<size_t>(out.frame_count) * n);
  out.end_site.resize(out.joint.size());
  std::vector<Transform> local(n);
  std::vector<float> coverage(n);
  std::vector<Transform> world(n);
  for (int f = 0; f < out.frame_count; ++f) {
    const float time = std::min(duration, static_cast<float>(f) * out.dt);
    sample_clip(clip, binding.value(), time, WrapMode::kClamp, local, coverage);
    source_world(source, local, world);
    glm::vec3* pos = out.joint.data() + static_cast<size_t>(f) * n;
    glm::vec3* end = out.end_site.data() + static_cast<size_t>(f) * n;
    for (size_t j = 0; j < n; ++j) {
      pos[j] = world[j].position;
      end[j] = source.end_sites.empty() ? pos[j] : pos[j] + world[j].rotation * source.end_sites[j];
    }
  }
  return out;
}

bool FootContacts::in_contact(size_t foot, float time) const {
  if (foot >= feet.size() || frame_count <= 0 || !(dt > 0.0f) || !std::isfinite(time)) return false;
  const long k = std::clamp(std::lround(time / dt), 0L, static_cast<long>(frame_count - 1));
  return contact[static_cast<size_t>(k) * feet.size() + foot] != 0;
}

FootContacts detect_foot_contacts(const SampledSource& samples, const SourceSkeleton& source,
                                  const std::vector<FootSpec>& feet, const glm::vec3& up, float leg_length,
                                  const ContactThresholds& th) {
  FootContacts out;
  out.feet = feet;
  out.dt = samples.dt;
  out.frame_count = samples.frame_count;
  out.leg_length = leg_length;
  out.up = up;
  const size_t nf = feet.size();
  const auto frames = static_cast<size_t>(std::max(0, samples.frame_count));
  out.contact.assign(frames * nf, 0);
  const auto n = static_cast<size_t>(samples.joint_count);
  if (nf == 0) {
    out.note = "no recognisable feet in source '" + source.name + "': floor from the rest pose, no contacts";
    return out;
  }
  if (frames == 0 || !(leg_length > 0.0f) || !std::isfinite(leg_length) || !(samples.dt > 0.0f) ||
      samples.joint.size() != frames * n || source.parents.size() != n) {
    out.note = "source '" + source.name + "' has no usable samples or leg length: floor from the rest pose, no contacts";
    return out;
  }

  // Per foot and frame: the height of the foot's lowest point and the smallest point speed,
  // the speed measured against the ground's own motion (rule RT20: zero unless in place).
  out.ground_velocity = ground_velocity(samples, source, feet, up, leg_length, th);
  const glm::vec3 g = out.ground_velocity;
  std::vector<float> height(frames * nf), speed(frames * nf);
  for (size_t i = 0; i < nf; ++i) {
    const std::vector<size_t> points = foot_points(source, feet[i]);
    for (size_t f = 0; f < frames; ++f) {
      float h = std::numeric_limits<float>::infinity();
      float v = std::numeric_limits<float>::infinity();
      const size_t a = f > 0 ? f - 1 : f, b = f + 1 < frames ? f + 1 : f;
      const float span = static_cast<float>(b - a) * samples.dt;
      for (size_t j : points) {
        for (const auto* set : {&samples.joint, &samples.end_site}) {
          h = std::min(h, glm::dot((*set)[f * n + j], up));
          if (span > 0.0f) v = std::min(v, glm::length(((*set)[b * n + j] - (*set)[a * n + j]) / span - g));
        }
      }
      height[f * nf + i] = h;
      speed[f * nf + i] = span > 0.0f ? v : 0.0f;
    }
  }

  std::vector<float> finite;
  for (float h : height)
    if (std::isfinite(h)) finite.push_back(h);
  if (finite.empty()) {
    out.note = "the feet of source '" + source.name + "' have no finite position: floor from the rest pose, no contacts";
    return out;
  }
  const float L = leg_length;
  const float guess = quantile(finite, kFloorGuessQuantile);
  std::vector<float> candidates;
  for (size_t k = 0; k < height.size(); ++k)
    if (height[k] <= guess + th.enter_height * L && speed[k] <= th.enter_speed * L) candidates.push_back(height[k]);
  if (candidates.empty()) {
    out.note = "the feet of source '" + source.name + "' never touch a floor (never low and still): floor from the rest pose, no contacts";
    return out;
  }
  out.floor = quantile(candidates, th.floor_percentile);
  out.has_floor = true;

  // Hysteresis against a floor that may vary over time: the constant floor first, then (rule
  // RT18) the floor through the first pass's contacts, so a capture floor that drifts along
  // the clip does not push the contacts at its far ends out of the band.
  const auto find_contacts = [&](const std::vector<FloorKey>& keys) {
    for (size_t i = 0; i < nf; ++i) {
      bool on = false;
      for (size_t f = 0; f < frames; ++f) {
        const float ground = floor_at(keys, static_cast<float>(f) * samples.dt, out.floor);
        const float h = height[f * nf + i] - ground, v = speed[f * nf + i];
        // |h|: a foot far below the floor is not on it either (the capture's floor is elsewhere
        // there, or the foot went through it).
        on = on ? (std::abs(h) <= th.exit_height * L && v <= th.exit_speed * L)
                : (std::abs(h) <= th.enter_height * L && v <= th.enter_speed * L);
        out.contact[f * nf + i] = on ? 1 : 0;
      }
    }
    clean_contacts(out, th);
    std::vector<FloorKey> next;
    for (const ContactSpan& span : out.spans()) {
      std::vector<float> h;
      for (int f = span.first; f <= span.last; ++f) h.push_back(height[static_cast<size_t>(f) * nf + span.foot]);
      next.push_back(FloorKey{0.5f * static_cast<float>(span.first + span.last) * samples.dt, quantile(h, 0.5f)});
    }
    return sorted_keys(std::move(next));
  };
  out.floor_keys = find_contacts({});
  out.floor_keys = find_contacts(out.floor_keys);
  return out;
}

Result<FootContacts> find_foot_contacts(const Clip& clip, const SourceSkeleton& source, const glm::quat& facing,
                                        const ContactThresholds& thresholds,
                                        const std::map<std::string, std::string>& overrides) {
  auto samples = sample_source(clip, source);
  if (!samples) return samples.error();
  // Rule RT20: the feet the retarget maps (names, structure, the author's overrides).
  auto found_roles = source_roles(source, overrides);
  if (!found_roles) return found_roles.error();
  const RoleMap& roles = found_roles.value();
  const glm::vec3 up = glm::normalize(glm::conjugate(glm::normalize(facing)) * glm::vec3(0.0f, 1.0f, 0.0f));

  // Rest positions in skeleton space.
  const size_t n = source.joint_names.size();
  std::vector<glm::vec3> pos(n), end(n);
  std::vector<Transform> world(n);
  source_world(source, source.rest_local, world);
  for (size_t j = 0; j < n; ++j) {
    pos[j] = world[j].position;
    end[j] = source.end_sites.empty() ? pos[j] : pos[j] + world[j].rotation * source.end_sites[j];
  }

  std::vector<FootSpec> feet;
  float top = -std::numeric_limits<float>::infinity();
  float bottom = std::numeric_limits<float>::infinity();
  const struct {
    Role foot, upper;
    const char *label, *side;
  } sides[] = {{Role::kLeftFoot, Role::kLeftUpperLeg, "LeftFoot", "Left"},
               {Role::kRightFoot, Role::kRightUpperLeg, "RightFoot", "Right"}};
  for (const auto& s : sides) {
    if (!roles.has(s.foot)) continue;
    const int foot = source.find(roles[s.foot]);
    if (foot < 0) continue;
    feet.push_back(FootSpec{s.label, s.side, foot});
    const int hip = roles.has(s.upper) ? source.find(roles[s.upper]) : (roles.has(Role::kHips) ? source.find(roles[Role::kHips]) : -1);
    if (hip >= 0) top = std::max(top, glm::dot(pos[static_cast<size_t>(hip)], up));
    for (size_t j = 0; j < n; ++j)
      if (in_subtree(source.parents, static_cast<int>(j), foot))
        bottom = std::min({bottom, glm::dot(pos[j], up), glm::dot(end[j], up)});
  }
  const float leg = top - bottom;
  if (!feet.empty() && !(leg > 0.0f && std::isfinite(leg))) feet.clear();  // no hip above the feet: not a leg
  return detect_foot_contacts(samples.value(), source, feet, up, feet.empty() ? 0.0f : leg, thresholds);
}

namespace {
// Lowest world height of the corners of the box of `size` placed at `p`.
float lowest_corner(const Transform& p, const glm::vec3& size) {
  float lowest = std::numeric_limits<float>::infinity();
  for (int c = 0; c < 8; ++c) {
    const glm::vec3 corner(((c & 1) ? 0.5f : -0.5f) * size.x, ((c & 2) ? 0.5f : -0.5f) * size.y,
                           ((c & 4) ? 0.5f : -0.5f) * size.z);
    lowest = std::min(lowest, (p.position + p.rotation * corner).y);
  }
  return lowest;
}
}  // namespace

namespace {

// The target's sole height above its ground for every contact (frame, foot), NaN where there is
// none (rules RT16, RT18). Empty when there is nothing to measure; `scale` receives the
// binding's translation scale (studs per source unit).
Result<std::vector<float>> contact_soles(const Clip& clip, const SourceSkeleton& source, const Rig& rig,
                                         const RetargetProfile& profile, const FootContacts& contacts, float& scale,
                                         float* target_leg = nullptr) {
  std::vector<float> none;
  if (!contacts.has_floor || !profile.floor || !profile.translation) return none;
  std::vector<int> target(contacts.feet.size(), -1);  // the target foot joint of each source foot
  auto roles = rig_roles(rig);
  if (!roles) return roles.error();
  for (size_t i = 0; i < contacts.feet.size(); ++i) {
    // Rule RT21: the leg's lowest part is the foot; a rig without one (R6) stands on its lower
    // or its only leg part, whose box's lowest corner is then the sole.
    const bool left = contacts.feet[i].side == "Left";
    const Role chain[] = {left ? Role::kLeftFoot : Role::kRightFoot, left ? Role::kLeftLowerLeg : Role::kRightLowerLeg,
                          left ? Role::kLeftUpperLeg : Role::kRightUpperLeg};
    for (Role role : chain) {
      if (!roles.value().has(role)) continue;
      const JointLookup j = rig.find_joint(roles.value()[role]);
      if (j.found()) target[i] = j.index;
      break;
    }
  }
  auto binding = build_retarget_binding(source, rig, profile);
  if (!binding) return binding.error();
  auto clip_binding = build_clip_binding(clip, source);
  if (!clip_binding) return clip_binding.error();
  scale = binding.value().translation_scale;
  if (target_leg) *target_leg = binding.value().target_leg_length > 0.0f ? binding.value().target_leg_length : kDefaultTargetLeg;
  if (!(scale > 0.0f)) return none;

  const auto nt = static_cast<size_t>(rig.joint_count());
  const auto ns = static_cast<size_t>(source.joint_count());
  std::vector<Transform> world(nt), local(nt), source_local(ns);
  std::vector<float> coverage(nt), source_coverage(ns);
  evaluate_rest_world(rig, Transform::identity(), world);
  float ground = std::numeric_limits<float>::infinity();
  for (int j : target)
    if (j >= 0) ground = std::min(ground, lowest_corner(world[static_cast<size_t>(j)], rig.part(rig.part1()[static_cast<size_t>(j)]).size));
  if (!std::isfinite(ground)) return none;

  RetargetContext ctx = make_retarget_context(binding.value());
  const size_t nf = contacts.feet.size();
  std::vector<float> soles(contacts.contact.size(), std::numeric_limits<float>::quiet_NaN());
  bool any_sole = false;
  for (int f = 0; f < contacts.frame_count; ++f) {
    bool any = false;
    for (size_t i = 0; i < nf; ++i) any = any || (contacts.contact[static_cast<size_t>(f) * nf + i] && target[i] >= 0);
    if (!any) continue;
    const float time = std::min(clip.duration, static_cast<float>(f) * contacts.dt);
    sample_clip(clip, clip_binding.value(), time, WrapMode::kClamp, source_local, source_coverage);
    if (!sample_retarget(binding.value(), rig, source_local, source_coverage, ctx, local, coverage).ok) continue;
    evaluate_world(rig, Transform::identity(), local, world);
    for (size_t i = 0; i < nf; ++i) {
      if (!contacts.contact[static_cast<size_t>(f) * nf + i] || target[i] < 0) continue;
      const auto j = static_cast<size_t>(target[i]);
      const float h = lowest_corner(world[j], rig.part(rig.part1()[j]).size) - ground;
      if (!std::isfinite(h)) continue;
      soles[static_cast<size_t>(f) * nf + i] = h;
      any_sole = true;
    }
  }
  if (!any_sole) return none;
  return soles;
}

}  // namespace

Result<float> fit_floor_to_target(const Clip& clip, const SourceSkeleton& source, const Rig& rig,
                                  const RetargetProfile& profile, const FootContacts& contacts) {
  const float unchanged = profile.floor.value_or(contacts.floor);
  float scale = 0.0f;
  auto soles = contact_soles(clip, source, rig, profile, contacts, scale);
  if (!soles) return soles.error();
  std::vector<float> measured;
  for (float h : soles.value())
    if (std::isfinite(h)) measured.push_back(h);
  if (measured.empty()) return unchanged;
  return *profile.floor + quantile(measured, 0.5f) / scale;
}

Result<std::vector<FloorKey>> fit_floor_keys_to_target(const Clip& clip, const SourceSkeleton& source, const Rig& rig,
                                                       const RetargetProfile& profile, const FootContacts& contacts) {
  float scale = 0.0f, target_leg = kDefaultTargetLeg;
  auto soles = contact_soles(clip, source, rig, profile, contacts, scale, &target_leg);
  if (!soles) return soles.error();
  const float depth = kContactDepth * target_leg;
  std::vector<FloorKey> keys;
  if (soles.value().empty()) return keys;
  const size_t nf = contacts.feet.size();
  const auto frames = static_cast<size_t>(contacts.frame_count);
  // e(f): the lowest contacting sole of frame f; frames without one take the line between
  // their nearest contact frames (held at the ends).
  std::vector<float> e(frames, std::numeric_limits<float>::quiet_NaN());
  for (size_t f = 0; f < frames; ++f)
    for (size_t i = 0; i < nf; ++i) {
      const float h = soles.value()[f * nf + i];
      if (std::isfinite(h) && !(e[f] <= h)) e[f] = h;
    }
  long previous = -1;
  for (size_t f = 0; f <= frames; ++f) {
    if (f < frames && !std::isfinite(e[f])) continue;
    if (f == frames && previous < 0) break;  // no contact frame at all
    const size_t from = previous < 0 ? 0 : static_cast<size_t>(previous) + 1;
    for (size_t g = from; g < f; ++g) {
      if (previous < 0) e[g] = e[f];
      else if (f == frames) e[g] = e[static_cast<size_t>(previous)];
      else e[g] = e[static_cast<size_t>(previous)] + (e[f] - e[static_cast<size_t>(previous)]) *
                                                          static_cast<float>(g - static_cast<size_t>(previous)) /
                                                          static_cast<float>(f - static_cast<size_t>(previous));
    }
    if (f < frames) previous = static_cast<long>(f);
  }
  if (previous < 0) return keys;
  // c = mean over +-w of (min over +-w of e): every c(f) <= e(f) (each min in the mean covers f),
  // so no contacting sole ends below the ground, and c changes by at most (its jump) / (2w + 1)
  // per frame, so the pelvis never jumps where one foot takes over from the other.
  const auto w = static_cast<long>(std::max(1L, std::lround(kFloorSmoothingSeconds / contacts.dt)));
  const auto n = static_cast<long>(frames);
  std::vector<float> low(frames);
  for (long f = 0; f < n; ++f) {
    float m = std::numeric_limits<float>::infinity();
    for (long g = std::max(0L, f - w); g <= std::min(n - 1, f + w); ++g) m = std::min(m, e[static_cast<size_t>(g)]);
    low[static_cast<size_t>(f)] = m;
  }
  keys.reserve(frames);
  for (long f = 0; f < n; ++f) {
    double sum = 0.0;
    long count = 0;
    for (long g = std::max(0L, f - w); g <= std::min(n - 1, f + w); ++g, ++count) sum += low[static_cast<size_t>(g)];
    keys.push_back(FloorKey{static_cast<float>(f) * contacts.dt,
                            *profile.floor + (static_cast<float>(sum / static_cast<double>(count)) + depth) / scale});
  }
  return keys;
}

void level_clip_floor(Clip& clip, const SourceSkeleton& source, const std::vector<FloorKey>& keys, float reference,
                      const glm::vec3& up) {
  if (keys.empty()) return;
  const auto offset = [&](float t) { return -(floor_at(keys, t, reference) - reference) * up; };
  // The floor's slope at t (per second), for cubic tangents: the slope of its segment.
  const auto slope = [&](float t) {
    const float e = 1e-4f;
    return (offset(t + e) - offset(t - e)) / (2.0f * e);
  };
  for (size_t j = 0; j < source.parents.size(); ++j) {
    if (source.parents[j] >= 0) continue;
    auto track = std::find_if(clip.tracks.begin(), clip.tracks.end(),
                              [&](const ClipTrack& t) { return t.name == source.joint_names[j]; });
    if (track == clip.tracks.end()) {
      clip.tracks.push_back(ClipTrack{});
      track = clip.tracks.end() - 1;
      track->name = source.joint_names[j];
    }
    if (track->translation_times.empty()) {
      // No translation keys: the root stands at its rest position; key it there, moved.
      std::vector<float> times = {0.0f};
      for (const FloorKey& k : keys)
        if (k.time > times.back() && k.time < clip.duration) times.push_back(k.time);
      if (clip.duration > times.back()) times.push_back(clip.duration);
      track->translation_times = times;
      track->translations.clear();
      for (float t : times) track->translations.push_back(source.rest_local[j].position + offset(t));
      track->translation_interpolation = Interpolation::kLinear;
      track->translation_in_tangents.clear();
      track->translation_out_tangents.clear();
      track->translation_easing.clear();
      continue;
    }
    const bool cubic = track->translation_interpolation == Interpolation::kCubicSpline;
    for (size_t k = 0; k < track->translation_times.size() && k < track->translations.size(); ++k) {
      const float t = track->translation_times[k];
      track->translations[k] += offset(t);
      if (cubic && k < track->translation_in_tangents.size() && k < track->translation_out_tangents.size()) {
        track->translation_in_tangents[k] += slope(t);
        track->translation_out_tangents[k] += slope(t);
      }
    }
  }
}

std::vector<ClipMarker> footstep_markers(const FootContacts& c) {
  std::vector<ClipMarker> out;
  const size_t nf = c.feet.size();
  for (int f = 0; f < c.frame_count; ++f)
    for (size_t i = 0; i < nf; ++i) {
      const size_t k = static_cast<size_t>(f) * nf + i;
      if (c.contact[k] && (f == 0 || !c.contact[k - nf]))
        out.push_back(ClipMarker{static_cast<float>(f) * c.dt, "Footstep", c.feet[i].side, ClipMarkerKind::kMarker});
    }
  return out;
}

}  // namespace asterune
