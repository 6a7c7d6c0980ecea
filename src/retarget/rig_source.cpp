#include "asterune/retarget/rig_source.hpp"

#include <algorithm>

#include "asterune/clip/sample.hpp"
#include "asterune/core/assert.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {
namespace {

Transform rest_local_of(const Rig& rig, int j) {
  const auto u = static_cast<size_t>(j);
  const int p = rig.parent(j);
  const Transform base = p >= 0 ? rig.c1_inverse()[static_cast<size_t>(p)] : rig.anchor()[u];
  return base * rig.c0()[u];
}

// True when joint j's child part is a skeleton joint hanging off its part0's node.
bool part_node_matches(const Rig& rig, const SourceSkeleton& skeleton, int j) {
  if (rig.lookup_name(j) != rig.child_name(j)) return false;  // part names must be unique
  const int node = skeleton.find(rig.child_name(j));
  if (node < 0 || !rig.connected(j)) return false;
  const int p = skeleton.parents[static_cast<size_t>(node)];
  if (p < 0) return false;
  const bool off_root = rig.part0()[static_cast<size_t>(j)] == rig.root_part();
  if (rig.parent(j) < 0 && !off_root) return false;
  return skeleton.joint_names[static_cast<size_t>(p)] == rig.parent_name(j);
}

// glTF's cubic Hermite (tangents per second, span dt) at fraction u.
glm::vec3 hermite_point(const glm::vec3& p0, const glm::vec3& m0, const glm::vec3& p1, const glm::vec3& m1, float dt,
                        float u) {
  const float u2 = u * u, u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * dt * m0 + (-2 * u3 + 3 * u2) * p1 + (u3 - u2) * dt * m1;
}

// T = inverse(C0) * L * C1 for one part-node track of joint j.
ClipTrack motor_track_from_part_node(const ClipTrack& node, const Rig& rig, int j, const Transform& rest) {
  const Transform& c0 = rig.c0()[static_cast<size_t>(j)];
  const Transform& c1 = rig.c1()[static_cast<size_t>(j)];
  const glm::quat c0_inv = glm::conjugate(c0.rotation);
  ClipTrack t;
  t.name = rig.lookup_name(j);
  t.rotation_times = node.rotation_times;
  t.rotation_interpolation = node.rotation_interpolation;
  t.rotation_easing = node.rotation_easing;
  auto turn = [&](const glm::quat& q) { return c0_inv * q * c1.rotation; };
  for (const glm::quat& q : node.rotations) t.rotations.push_back(turn(q));
  for (const glm::quat& q : node.rotation_in_tangents) t.rotation_in_tangents.push_back(turn(q));
  for (const glm::quat& q : node.rotation_out_tangents) t.rotation_out_tangents.push_back(turn(q));
  std::vector<float> times = node.translation_times;
  times.insert(times.end(), node.rotation_times.begin(), node.rotation_times.end());
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  auto position_at = [&](float time) {
    const Transform l = sample_track(node, time, rest);
    return glm::conjugate(c0.rotation) * (l.position + glm::normalize(l.rotation) * c1.position - c0.position);
  };
  constexpr float kStep = 1e-4f;  // seconds: one-sided slopes, well inside any key span
  auto slope_in = [&](float time) { return (position_at(time) - position_at(time - kStep)) / kStep; };
  auto slope_out = [&](float time) { return (position_at(time + kStep) - position_at(time)) / kStep; };
  t.translation_interpolation = Interpolation::kCubicSpline;
  auto put = [&](float time, const glm::vec3& in, bool last) {
    t.translation_times.push_back(time);
    t.translations.push_back(position_at(time));
    t.translation_in_tangents.push_back(in);
    t.translation_out_tangents.push_back(last ? glm::vec3(0.0f) : slope_out(time));
  };
  if (times.empty()) return t;
  put(times[0], glm::vec3(0.0f), times.size() == 1);
  // A span whose Hermite strays over kFit from the exact position at its quarter points is
  // halved, at most kDepth times: the keys stay bounded by the file's key count.
  constexpr float kFit = 1e-4f;  // studs
  constexpr int kDepth = 6;
  std::vector<std::pair<float, int>> ends;
  for (size_t k = 1; k < times.size(); ++k) {
    ends.assign(1, {times[k], 0});
    while (!ends.empty()) {
      const auto [b, depth] = ends.back();
      const float a = t.translation_times.back();
      const glm::vec3 vb = slope_in(b);
      bool fits = depth >= kDepth;
      for (float u = 0.25f; !fits && u < 1.0f; u += 0.25f) {
        const glm::vec3 h = hermite_point(t.translations.back(), t.translation_out_tangents.back(), position_at(b), vb,
                                          b - a, u);
        if (glm::length(h - position_at(a + u * (b - a))) > kFit) break;
        fits = u > 0.7f;
      }
      if (!fits) {
        ends.push_back({0.5f * (a + b), depth + 1});
        continue;
      }
      ends.pop_back();
      put(b, vb, b == times.back());
    }
  }
  return t;
}

}  // namespace

std::optional<Clip> clip_from_part_nodes(const Clip& clip, const SourceSkeleton& skeleton, const Rig& rig) {
  const int n = rig.joint_count();
  if (n == 0 || rig.root_part() < 0) return std::nullopt;
  for (int j = 0; j < n; ++j)
    if (!part_node_matches(rig, skeleton, j)) return std::nullopt;
  Clip out;
  out.name = clip.name;
  out.duration = clip.duration;
  out.markers = clip.markers;
  for (int j = 0; j < n; ++j) {
    const std::string& part = rig.child_name(j);
    const auto track = std::find_if(clip.tracks.begin(), clip.tracks.end(),
                                     [&](const ClipTrack& t) { return t.name == part; });
    if (track == clip.tracks.end()) continue;  // an unkeyed joint stays at T = identity
    const Transform& rest = skeleton.rest_local[static_cast<size_t>(skeleton.find(part))];
    out.tracks.push_back(motor_track_from_part_node(*track, rig, j, rest));
  }
  return out;
}

SourceSkeleton source_skeleton_from_rig(const Rig& rig) {
  SourceSkeleton s;
  s.name = rig.name();
  const int n = rig.joint_count();
  for (int j = 0; j < n; ++j) {
    s.joint_names.push_back(rig.lookup_name(j));
    s.parents.push_back(rig.parent(j));
    s.rest_local.push_back(rest_local_of(rig, j));
  }
  s.end_sites.assign(static_cast<size_t>(n), glm::vec3(0.0f));
  s.units_to_studs = 1.0f;
  return s;
}

void add_part_end_sites(const Rig& rig, SourceSkeleton& skeleton) {
  const int n = rig.joint_count();
  if (skeleton.joint_count() != n) return;
  skeleton.end_sites.assign(static_cast<size_t>(n), glm::vec3(0.0f));
  for (int j = 0; j < n; ++j) {
    if (rig.subtree_end(j) != j + 1) continue;  // has child joints
    const glm::vec3 size = rig.part(rig.part1()[static_cast<size_t>(j)]).size;
    if (!is_finite(size)) continue;
    skeleton.end_sites[static_cast<size_t>(j)] =
        transform_point(rig.c1_inverse()[static_cast<size_t>(j)], glm::vec3(0.0f, -0.5f * size.y, 0.0f));
  }
}

bool source_pose_from_rig(const Rig& rig, std::span<const Transform> motor, std::span<Transform> out) {
  const int n = rig.joint_count();
  ASTERUNE_EXPECT_OR_RETURN(motor.size() == static_cast<size_t>(n) && out.size() == static_cast<size_t>(n),
                            "motor and out hold rig.joint_count() entries", false);
  for (int j = 0; j < n; ++j) out[static_cast<size_t>(j)] = rest_local_of(rig, j) * motor[static_cast<size_t>(j)];
  return true;
}

Clip clip_as_rig_source(const Clip& clip, const Rig& rig) {
  Clip out = clip;
  out.tracks.clear();
  for (const ClipTrack& track : clip.tracks) {
    const JointLookup j = rig.find_joint(track.name);
    if (!j.found()) continue;
    const Transform rest = rest_local_of(rig, j.index);
    ClipTrack t = track;
    t.name = rig.lookup_name(j.index);
    for (auto& q : t.rotations) q = rest.rotation * q;
    for (auto& q : t.rotation_in_tangents) q = rest.rotation * q;
    for (auto& q : t.rotation_out_tangents) q = rest.rotation * q;
    for (auto& p : t.translations) p = rest.position + rest.rotation * p;
    for (auto& v : t.translation_in_tangents) v = rest.rotation * v;
    for (auto& v : t.translation_out_tangents) v = rest.rotation * v;
    out.tracks.push_back(std::move(t));
  }
  return out;
}

}  // namespace asterune
