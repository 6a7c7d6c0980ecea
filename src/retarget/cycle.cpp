// The cycle search (rules LO1, LO2): contact starts of one foot bound the candidate spans, a
// pose-and-velocity mismatch between the two ends ranks them. docs/locomotion.md.
#include "asterune/retarget/cycle.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "cycle_frames.hpp"

namespace asterune {

namespace detail {

glm::vec3 rotation_log(const glm::quat& q_in) {
  glm::quat q = glm::normalize(q_in);
  if (q.w < 0.0f) q = -q;  // the shortest way
  const glm::vec3 v(q.x, q.y, q.z);
  const float s = glm::length(v);
  if (s < 1e-8f) return 2.0f * v;
  return v * (2.0f * std::atan2(s, q.w) / s);
}

glm::quat rotation_exp(const glm::vec3& v) {
  const float angle = glm::length(v);
  if (angle < 1e-8f) return glm::normalize(glm::quat(1.0f, 0.5f * v.x, 0.5f * v.y, 0.5f * v.z));
  return glm::angleAxis(angle, v / angle);
}

namespace {

// The joint carrying the travel (rule RT6): the first, parents first, whose track has moving
// translation keys; a clip without any travels nowhere and its first joint is the root.
int travel_joint(const Clip& clip, const std::vector<int>& track_of) {
  for (size_t j = 0; j < track_of.size(); ++j) {
    if (track_of[j] < 0) continue;
    const ClipTrack& t = clip.tracks[static_cast<size_t>(track_of[j])];
    for (size_t k = 1; k < t.translations.size(); ++k)
      if (t.translations[k] != t.translations[0]) return static_cast<int>(j);
  }
  return 0;
}

// A horizontal reference direction: the skeleton axis least along up, made horizontal.
glm::vec3 horizontal_reference(const glm::vec3& up) {
  glm::vec3 axis(1.0f, 0.0f, 0.0f);
  float along = std::fabs(up.x);
  if (std::fabs(up.z) < along) {
    axis = glm::vec3(0.0f, 0.0f, 1.0f);
    along = std::fabs(up.z);
  }
  if (std::fabs(up.y) < along) axis = glm::vec3(0.0f, 1.0f, 0.0f);
  return glm::normalize(axis - glm::dot(axis, up) * up);
}

}  // namespace

Result<CycleFrames> sample_cycle_frames(const Clip& clip, const SourceSkeleton& source, int frames, float dt,
                                        const glm::vec3& up) {
  auto binding = build_clip_binding(clip, source);
  if (!binding) return binding.error();
  CycleFrames out;
  out.frames = frames;
  out.joints = source.joint_count();
  out.dt = dt;
  out.up = glm::normalize(up);
  const auto n = static_cast<size_t>(out.joints);
  out.local.resize(static_cast<size_t>(frames) * n);
  out.world.resize(out.local.size());
  out.track_of.assign(binding.value().track_of_joint().begin(), binding.value().track_of_joint().end());
  std::vector<float> coverage(n);
  const float duration = std::max(0.0f, clip.duration);
  for (int f = 0; f < frames; ++f) {
    const std::span<Transform> local(out.local.data() + static_cast<size_t>(f) * n, n);
    sample_clip(clip, binding.value(), std::min(duration, static_cast<float>(f) * dt), WrapMode::kClamp, local, coverage);
    source_world(source, local, std::span<Transform>(out.world.data() + static_cast<size_t>(f) * n, n));
  }
  out.travel = travel_joint(clip, out.track_of);
  std::vector<Transform> rest(n);
  source_world(source, source.rest_local, rest);
  const glm::quat rest_inverse = glm::conjugate(rest[static_cast<size_t>(out.travel)].rotation);
  const glm::vec3 f0 = horizontal_reference(out.up);
  out.heading.resize(static_cast<size_t>(frames));
  float previous = 0.0f;
  for (int f = 0; f < frames; ++f) {
    glm::vec3 v = out.w(f, out.travel).rotation * rest_inverse * f0;
    v -= glm::dot(v, out.up) * out.up;
    float h = previous;
    if (glm::length(v) > 1e-4f) {
      h = std::atan2(glm::dot(glm::cross(f0, v), out.up), glm::dot(f0, v));
      // Unwrapped, so a turning walk's heading change over a cycle may exceed a half turn.
      while (h - previous > glm::pi<float>()) h -= glm::two_pi<float>();
      while (h - previous < -glm::pi<float>()) h += glm::two_pi<float>();
    }
    out.heading[static_cast<size_t>(f)] = h;
    previous = h;
  }
  return out;
}

}  // namespace detail

namespace {

// Per-frame features of rule LO2 (the mismatch compares them at the two ends).
struct CycleFeatures {
  int frames = 0;
  int rotations = 0;              // pose joints: those with a track, the travel joint heading-relative
  int feet = 0;
  std::vector<glm::quat> rot;     // [f * rotations + k]
  std::vector<glm::vec3> spin;    // angular velocity, rad/s, same layout
  std::vector<glm::vec3> foot;    // [f * feet + i]: foot relative to the pelvis, heading frame, L
  std::vector<glm::vec3> velocity;  // travel joint velocity, heading frame, L/s
  std::vector<float> turn;        // heading rate, rad/s
};

CycleFeatures features(const detail::CycleFrames& s, const FootContacts& contacts) {
  CycleFeatures c;
  c.frames = s.frames;
  std::vector<int> pose;
  for (int j = 0; j < s.joints; ++j)
    if (s.track_of[static_cast<size_t>(j)] >= 0 || j == s.travel) pose.push_back(j);
  c.rotations = static_cast<int>(pose.size());
  c.feet = static_cast<int>(contacts.feet.size());
  const float leg = contacts.leg_length > 0.0f ? contacts.leg_length : 1.0f;
  c.rot.resize(static_cast<size_t>(s.frames * c.rotations));
  c.spin.resize(c.rot.size());
  c.foot.resize(static_cast<size_t>(s.frames * c.feet));
  c.velocity.resize(static_cast<size_t>(s.frames));
  c.turn.resize(static_cast<size_t>(s.frames));
  for (int f = 0; f < s.frames; ++f) {
    const glm::quat unturn = glm::conjugate(detail::yaw(s.heading[static_cast<size_t>(f)], s.up));
    for (int k = 0; k < c.rotations; ++k) {
      const int j = pose[static_cast<size_t>(k)];
      c.rot[static_cast<size_t>(f * c.rotations + k)] =
          j == s.travel ? glm::normalize(unturn * s.w(f, j).rotation) : s.l(f, j).rotation;
    }
    const glm::vec3 pelvis = s.w(f, s.travel).position;
    for (int i = 0; i < c.feet; ++i)
      c.foot[static_cast<size_t>(f * c.feet + i)] = unturn * (s.w(f, contacts.feet[static_cast<size_t>(i)].joint).position - pelvis) / leg;
  }
  for (int f = 0; f < s.frames; ++f) {  // central differences, one-sided at the ends
    const int p = std::max(0, f - 1), q = std::min(s.frames - 1, f + 1);
    const float span = static_cast<float>(q - p) * s.dt;
    if (span <= 0.0f) continue;
    for (int k = 0; k < c.rotations; ++k) {
      const glm::quat& r0 = c.rot[static_cast<size_t>(p * c.rotations + k)];
      const glm::quat& r1 = c.rot[static_cast<size_t>(q * c.rotations + k)];
      c.spin[static_cast<size_t>(f * c.rotations + k)] = detail::rotation_log(r1 * glm::conjugate(r0)) / span;
    }
    const glm::quat unturn = glm::conjugate(detail::yaw(s.heading[static_cast<size_t>(f)], s.up));
    c.velocity[static_cast<size_t>(f)] = unturn * (s.w(q, s.travel).position - s.w(p, s.travel).position) / (span * leg);
    c.turn[static_cast<size_t>(f)] = (s.heading[static_cast<size_t>(q)] - s.heading[static_cast<size_t>(p)]) / span;
  }
  return c;
}

constexpr float kTie = 1e-6f;

float rotation_angle(const glm::quat& a, const glm::quat& b) {
  return 2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(glm::normalize(a), glm::normalize(b)))));
}

// Rule LO2: E(a, b) = mean_k (theta_k^2 + T^2 |d omega_k|^2) + mean_i |d foot_i|^2
//                     + Tr^2 (|d v|^2 + (d turn)^2).
float mismatch(const CycleFeatures& c, int a, int b, float t, float tr, float* largest) {
  float rot = 0.0f, gap = 0.0f;
  for (int k = 0; k < c.rotations; ++k) {
    const size_t ia = static_cast<size_t>(a * c.rotations + k), ib = static_cast<size_t>(b * c.rotations + k);
    const float theta = rotation_angle(c.rot[ia], c.rot[ib]);
    const glm::vec3 dw = c.spin[ia] - c.spin[ib];
    rot += theta * theta + t * t * glm::dot(dw, dw);
    gap = std::max(gap, theta);
  }
  float feet = 0.0f;
  for (int i = 0; i < c.feet; ++i) {
    const glm::vec3 d = c.foot[static_cast<size_t>(a * c.feet + i)] - c.foot[static_cast<size_t>(b * c.feet + i)];
    feet += glm::dot(d, d);
  }
  const glm::vec3 dv = c.velocity[static_cast<size_t>(a)] - c.velocity[static_cast<size_t>(b)];
  const float dturn = c.turn[static_cast<size_t>(a)] - c.turn[static_cast<size_t>(b)];
  if (largest) *largest = gap;
  return (c.rotations > 0 ? rot / static_cast<float>(c.rotations) : 0.0f) +
         (c.feet > 0 ? feet / static_cast<float>(c.feet) : 0.0f) + tr * tr * (glm::dot(dv, dv) + dturn * dturn);
}

// Frames where a contact of `foot` begins (a contact already under way at frame 0 is not one).
std::vector<int> contact_starts(const FootContacts& contacts, size_t foot) {
  std::vector<int> starts;
  const size_t feet = contacts.feet.size();
  for (int f = 1; f < contacts.frame_count; ++f)
    if (contacts.contact[static_cast<size_t>(f) * feet + foot] && !contacts.contact[static_cast<size_t>(f - 1) * feet + foot])
      starts.push_back(f);
  return starts;
}

}  // namespace

std::string CycleSpan::describe() const {
  char text[256];
  std::snprintf(text, sizeof text,
                "cycle %.3f-%.3f s (frames %d-%d), %d stride%s of %s, seam mismatch %.4f (largest joint gap %.1f deg "
                "before the blend)",
                static_cast<double>(start_time()), static_cast<double>(end_time()), first, last, strides,
                strides == 1 ? "" : "s", foot.c_str(), static_cast<double>(mismatch),
                static_cast<double>(glm::degrees(largest_gap)));
  return text;
}

Result<CycleSpan> find_cycle(const Clip& clip, const SourceSkeleton& source, const FootContacts& contacts,
                             const CycleOptions& options) {
  const std::string who = "clip '" + clip.name + "': cycle auto";
  if (contacts.frame_count < 4 || !(contacts.dt > 0.0f) ||
      contacts.contact.size() != static_cast<size_t>(contacts.frame_count) * contacts.feet.size())
    return make_error(who + ": the clip has no foot contacts to cut strides from");
  auto sampled = detail::sample_cycle_frames(clip, source, contacts.frame_count, contacts.dt, contacts.up);
  if (!sampled) return make_error(who + ": " + sampled.message());
  const detail::CycleFrames& s = sampled.value();
  for (const FootSpec& f : contacts.feet)
    if (f.joint < 0 || f.joint >= s.joints) return make_error(who + ": the contacts' feet are not joints of the skeleton");
  const CycleFeatures c = features(s, contacts);
  const float t = std::isfinite(options.velocity_time) ? std::max(0.0f, options.velocity_time) : 0.1f;
  const float tr = std::isfinite(options.travel_time) ? std::max(0.0f, options.travel_time) : 0.1f;
  const float window = std::isfinite(options.search_window) ? std::clamp(options.search_window, 0.0f, 0.4f) : 0.1f;
  CycleSpan best;
  best.dt = s.dt;
  float best_e = std::numeric_limits<float>::infinity();
  std::vector<std::vector<int>> all_starts;
  for (size_t foot = 0; foot < contacts.feet.size(); ++foot) all_starts.push_back(contact_starts(contacts, foot));
  // A stride is a step of each foot: between two starts of one foot, every other foot starts as
  // many contacts as there are strides (a weight shift while standing is no stride).
  auto alternates = [&](size_t foot, int from, int to, int strides) {
    for (size_t other = 0; other < all_starts.size(); ++other) {
      if (other == foot) continue;
      const auto& s = all_starts[other];
      if (std::count_if(s.begin(), s.end(), [&](int f) { return f > from && f < to; }) != strides) return false;
    }
    return true;
  };
  for (size_t foot = 0; foot < contacts.feet.size(); ++foot) {
    const std::vector<int>& starts = all_starts[foot];
    for (size_t p = 0; p < starts.size(); ++p) {
      for (size_t q = p + 1; q < starts.size(); ++q) {
        const int strides = static_cast<int>(q - p);
        if (!alternates(foot, starts[p], starts[q], strides)) continue;
        const float period = static_cast<float>(starts[q] - starts[p]) / static_cast<float>(strides);
        const int w = static_cast<int>(std::lround(window * period));
        for (int a = std::max(1, starts[p] - w); a <= std::min(s.frames - 2, starts[p] + w); ++a) {
          for (int b = std::max(a + 4, starts[q] - w); b <= std::min(s.frames - 2, starts[q] + w); ++b) {
            float gap = 0.0f;
            const float e = mismatch(c, a, b, t, tr, &gap);
            // Spans that match equally well (within float noise): the longer loop.
            if (e < best_e - kTie || (e <= best_e + kTie && strides > best.strides)) {
              best_e = e;
              best.first = a;
              best.last = b;
              best.strides = strides;
              best.foot = contacts.feet[foot].label;
              best.mismatch = e;
              best.largest_gap = gap;
            }
          }
        }
      }
    }
  }
  if (!std::isfinite(best_e))
    return make_error(who + ": no foot has two contact starts inside the clip (a cycle needs one whole stride)");
  return best;
}

}  // namespace asterune
