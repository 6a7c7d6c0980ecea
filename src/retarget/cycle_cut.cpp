// The cut and the seam blend (rules LO3, LO4): frames [a, b] keyed from 0, a cubic offset near
// each end that meets the other end's pose and velocity halfway, the travelling joint blended
// in its heading frame so its travel and heading continue one cycle on. docs/locomotion.md.
#include <algorithm>
#include <cmath>

#include "asterune/clip/sample.hpp"
#include "asterune/retarget/cycle.hpp"
#include "cycle_frames.hpp"

namespace asterune {

namespace {

using detail::CycleFrames;
using detail::rotation_exp;
using detail::rotation_log;

// The seam blend's geometry: keys 0..n of the loop (frame a + k), `width` keys on each side.
struct Seam {
  int a = 0, b = 0, n = 0;
  int width = 1;
  float dt = 0.0f;
  // Offset at key k from the two ends' targets: at the seam the value `p` and the time rate `v`,
  // fading to 0 with zero slope `width` keys inward (cubic Hermite h00, h10 in s = distance/width).
  template <class V>
  V offset(int k, const V& p_start, const V& v_start, const V& p_end, const V& v_end) const {
    const float w = static_cast<float>(width) * dt;
    auto shape = [&](float s, const V& p, const V& slope) {
      const float h00 = 2.0f * s * s * s - 3.0f * s * s + 1.0f, h10 = s * s * s - 2.0f * s * s + s;
      return p * h00 + slope * h10;
    };
    V out = p_start * 0.0f;
    if (k <= width) out = out + shape(static_cast<float>(k) / static_cast<float>(width), p_start, v_start * w);
    if (n - k <= width) out = out + shape(static_cast<float>(n - k) / static_cast<float>(width), p_end, -v_end * w);
    return out;
  }
};

// Central-difference rate of a per-frame value at frame f (one-sided at the grid's ends).
template <class F>
auto rate(const CycleFrames& s, int f, F value) {
  const int p = std::max(0, f - 1), q = std::min(s.frames - 1, f + 1);
  return (value(q) - value(p)) / (static_cast<float>(q - p) * s.dt);
}

// A rotation channel: each end moves halfway to the other's pose, with the mean angular
// velocity (left-multiplied offsets: q' = exp(r) q).
struct RotationSeam {
  glm::vec3 p_start{0.0f}, v_start{0.0f}, p_end{0.0f}, v_end{0.0f};
};

template <class Q>
RotationSeam rotation_seam(const CycleFrames& s, const Seam& seam, Q rotation) {
  auto spin = [&](int f) {
    const int p = std::max(0, f - 1), q = std::min(s.frames - 1, f + 1);
    return rotation_log(rotation(q) * glm::conjugate(rotation(p))) / (static_cast<float>(q - p) * s.dt);
  };
  RotationSeam r;
  r.p_end = 0.5f * rotation_log(rotation(seam.a) * glm::conjugate(rotation(seam.b)));
  r.p_start = -r.p_end;
  const glm::vec3 wa = spin(seam.a), wb = spin(seam.b), mid = 0.5f * (wa + wb);
  r.v_start = mid - wa;
  r.v_end = mid - wb;
  return r;
}

template <class V, class X>
void value_seam(const CycleFrames& s, const Seam& seam, X value, V& p_start, V& v_start, V& p_end, V& v_end) {
  const V xa = value(seam.a), xb = value(seam.b);
  const V mid = (xa + xb) * 0.5f;
  p_start = mid - xa;
  p_end = mid - xb;
  const V va = rate(s, seam.a, value), vb = rate(s, seam.b, value);
  const V vmid = (va + vb) * 0.5f;
  v_start = vmid - va;
  v_end = vmid - vb;
}

// Rule LO4: the travelling joint's placements over the loop (skeleton space): its pose in its
// heading frame blended like any joint, its heading and horizontal travel kept at both ends
// (only their rates meet halfway), so key n is key 0 moved by one cycle's turn and travel.
std::vector<Transform> travel_placements(const CycleFrames& s, const Seam& seam) {
  const int j = s.travel;
  const glm::vec3 up = s.up;
  auto heading = [&](int f) { return s.heading[static_cast<size_t>(f)]; };
  auto turned = [&](int f) { return glm::normalize(glm::conjugate(detail::yaw(heading(f), up)) * s.w(f, j).rotation); };
  auto height = [&](int f) { return glm::dot(s.w(f, j).position, up); };
  auto ground = [&](int f) { return s.w(f, j).position - height(f) * up; };
  const RotationSeam pose = rotation_seam(s, seam, turned);
  float hp0, hv0, hp1, hv1;
  value_seam(s, seam, height, hp0, hv0, hp1, hv1);
  const float ta = rate(s, seam.a, heading), tb = rate(s, seam.b, heading), tmid = 0.5f * (ta + tb);
  // Horizontal velocity in each end's heading frame, met halfway and turned back.
  auto local_velocity = [&](int f) { return glm::conjugate(detail::yaw(heading(f), up)) * rate(s, f, ground); };
  const glm::vec3 la = local_velocity(seam.a), lb = local_velocity(seam.b), lmid = 0.5f * (la + lb);
  const glm::vec3 ga = detail::yaw(heading(seam.a), up) * (lmid - la), gb = detail::yaw(heading(seam.b), up) * (lmid - lb);
  std::vector<Transform> out(static_cast<size_t>(seam.n + 1));
  for (int k = 0; k <= seam.n; ++k) {
    const int f = seam.a + k;
    const glm::vec3 r = seam.offset(k, pose.p_start, pose.v_start, pose.p_end, pose.v_end);
    const float psi = heading(f) + seam.offset(k, 0.0f, tmid - ta, 0.0f, tmid - tb);
    const float y = height(f) + seam.offset(k, hp0, hv0, hp1, hv1);
    const glm::vec3 g = ground(f) + seam.offset(k, glm::vec3(0.0f), ga, glm::vec3(0.0f), gb);
    out[static_cast<size_t>(k)] =
        Transform{glm::normalize(detail::yaw(psi, up) * rotation_exp(r) * turned(f)), g + y * up};
  }
  return out;
}

}  // namespace

Result<Clip> cut_cycle(const Clip& clip, const SourceSkeleton& source, const CycleSpan& span, const glm::vec3& up,
                       const CycleOptions& options) {
  const std::string who = "clip '" + clip.name + "': cycle auto";
  if (!(span.dt > 0.0f) || span.first < 0 || span.last - span.first < 4 ||
      static_cast<float>(span.last) * span.dt > clip.duration + 0.5f * span.dt)
    return make_error(who + ": the span is not a loop of at least 4 frames inside the clip");
  auto sampled = detail::sample_cycle_frames(clip, source, span.last + 2, span.dt, up);
  if (!sampled) return make_error(who + ": " + sampled.message());
  const CycleFrames& s = sampled.value();
  Seam seam;
  seam.a = span.first;
  seam.b = span.last;
  seam.n = span.last - span.first;
  seam.dt = span.dt;
  const float blend = std::isfinite(options.blend_time) && options.blend_time > 0.0f ? options.blend_time : 0.3f;
  seam.width = std::max(1, std::min(static_cast<int>(std::lround(blend / span.dt)), seam.n / 4));

  Clip out;
  out.name = clip.name;
  out.duration = static_cast<float>(seam.n) * span.dt;
  out.tracks.resize(clip.tracks.size());
  for (size_t t = 0; t < clip.tracks.size(); ++t) out.tracks[t].name = clip.tracks[t].name;
  const std::vector<Transform> travel = travel_placements(s, seam);
  const int travel_parent = source.parents[static_cast<size_t>(s.travel)];
  for (int j = 0; j < s.joints; ++j) {
    const int ti = s.track_of[static_cast<size_t>(j)];
    if (ti < 0) continue;
    const ClipTrack& in = clip.tracks[static_cast<size_t>(ti)];
    ClipTrack& o = out.tracks[static_cast<size_t>(ti)];
    auto rotation = [&](int f) { return s.l(f, j).rotation; };
    auto position = [&](int f) { return s.l(f, j).position; };
    const RotationSeam rs = rotation_seam(s, seam, rotation);
    glm::vec3 tp0, tv0, tp1, tv1;
    value_seam(s, seam, position, tp0, tv0, tp1, tv1);
    for (int k = 0; k <= seam.n; ++k) {
      const int f = seam.a + k;
      const float time = static_cast<float>(k) * span.dt;
      Transform local{glm::normalize(rotation_exp(seam.offset(k, rs.p_start, rs.v_start, rs.p_end, rs.v_end)) * rotation(f)),
                      position(f) + seam.offset(k, tp0, tv0, tp1, tv1)};
      if (j == s.travel) {  // back from skeleton space through the (unblended) parent
        const Transform& w = travel[static_cast<size_t>(k)];
        local = travel_parent < 0 ? w : inverse(s.w(f, travel_parent)) * w;
        local.rotation = glm::normalize(local.rotation);
      }
      if (!in.rotations.empty()) {
        o.rotation_times.push_back(time);
        o.rotations.push_back(local.rotation);
      }
      if (!in.translations.empty()) {
        o.translation_times.push_back(time);
        o.translations.push_back(local.position);
      }
      if (!in.scales.empty()) {
        o.scale_times.push_back(time);
        o.scales.push_back(sample_track_scale(in, std::min(clip.duration, static_cast<float>(f) * span.dt)));
      }
    }
  }
  // A marker at b would sound again at the next loop's 0: the loop holds [a, b).
  const float t0 = span.start_time(), t1 = span.end_time(), eps = 1e-4f * span.dt;
  for (const ClipMarker& m : clip.markers) {
    if (m.time < t0 - eps || m.time >= t1 - eps) continue;
    ClipMarker shifted = m;
    shifted.time = std::clamp(m.time - t0, 0.0f, out.duration);
    out.markers.push_back(shifted);
  }
  return out;
}

}  // namespace asterune
