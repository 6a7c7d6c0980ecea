// The reference pose of a retarget source (rules RT13, RT14); see source_rest.hpp.
#include "asterune/retarget/source_rest.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "axes.hpp"

namespace asterune {
namespace {

// Skeleton-space positions of every joint for full locals `local` (parents first).
std::vector<glm::vec3> positions(const SourceSkeleton& s, std::span<const Transform> local) {
  std::vector<Transform> world(local.size());
  source_world(s, local, world);
  std::vector<glm::vec3> pos(world.size());
  for (size_t j = 0; j < world.size(); ++j) pos[j] = world[j].position;
  return pos;
}

// End point of joint j's end site (its own position when it has none), for rest locals.
glm::vec3 tip_of(const SourceSkeleton& s, int j) {
  glm::vec3 pos(0.0f);
  std::vector<int> path;
  for (int k = j; k >= 0; k = s.parents[static_cast<size_t>(k)]) path.push_back(k);
  glm::quat rot(1, 0, 0, 0);
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const Transform& t = s.rest_local[static_cast<size_t>(*it)];
    pos += rot * t.position;
    rot = glm::normalize(rot * t.rotation);
  }
  const glm::vec3 end = s.end_sites.size() == s.rest_local.size() ? s.end_sites[static_cast<size_t>(j)] : glm::vec3(0.0f);
  return pos + rot * end;
}

using detail::snap_axis;

int find_role(const SourceSkeleton& s, const RoleMap& roles, Role r) { return roles.has(r) ? s.find(roles[r]) : -1; }

// The highest torso joint with a role: head, neck, upper chest, chest, spine.
int top_joint(const SourceSkeleton& s, const RoleMap& roles) {
  for (Role r : {Role::kHead, Role::kNeck, Role::kUpperChest, Role::kChest, Role::kSpine}) {
    const int j = find_role(s, roles, r);
    if (j >= 0) return j;
  }
  return -1;
}

// Key times of the clip, sorted and unique: the clip's frames.
std::vector<float> key_times(const Clip& clip) {
  std::set<float> t;
  for (const ClipTrack& track : clip.tracks) {
    t.insert(track.rotation_times.begin(), track.rotation_times.end());
    t.insert(track.translation_times.begin(), track.translation_times.end());
  }
  return {t.begin(), t.end()};
}

}  // namespace

std::optional<std::string> degenerate_rest(const SourceSkeleton& s, const RoleMap& roles) {
  const int hips = find_role(s, roles, Role::kHips);
  const int top = top_joint(s, roles);
  if (hips < 0 || top < 0) return std::nullopt;
  const int ul = find_role(s, roles, Role::kLeftUpperLeg), ur = find_role(s, roles, Role::kRightUpperLeg);
  if (ul < 0 || ur < 0) {
    // The structure found hips with two legs, but could not tell them apart.
    if (roles.origin[static_cast<size_t>(Role::kHips)] == RoleOrigin::kStructure)
      return "its left and right legs cannot be told apart";
    return std::nullopt;
  }
  const std::vector<glm::vec3> pos = positions(s, s.rest_local);
  const glm::vec3 up = pos[static_cast<size_t>(top)] - pos[static_cast<size_t>(hips)];
  if (!(glm::length(up) > 0.0f)) return "its head is at its hips";
  const glm::vec3 upn = glm::normalize(up);
  glm::vec3 forward(0.0f);
  for (Role side : {Role::kLeftFoot, Role::kRightFoot}) {
    int low = find_role(s, roles, side);
    if (low < 0) low = find_role(s, roles, side == Role::kLeftFoot ? Role::kLeftLowerLeg : Role::kRightLowerLeg);
    if (low < 0) low = side == Role::kLeftFoot ? ul : ur;
    const glm::vec3 d = pos[static_cast<size_t>(low)] - pos[static_cast<size_t>(hips)];
    // Below the hips: clearly down along up, not sideways.
    if (!(glm::dot(d, upn) < -0.5f * glm::length(d))) return "its legs are not below its hips";
    const int toes = find_role(s, roles, side == Role::kLeftFoot ? Role::kLeftToes : Role::kRightToes);
    forward += tip_of(s, toes >= 0 ? toes : low) - pos[static_cast<size_t>(low)];
  }
  forward -= glm::dot(forward, upn) * upn;
  if (glm::length(forward) > 1e-4f * glm::length(up)) {
    const glm::vec3 left = glm::cross(upn, glm::normalize(forward));
    if (!(glm::dot(pos[static_cast<size_t>(ul)] - pos[static_cast<size_t>(ur)], left) > 0.0f))
      return "its left and right legs are on the same side";
  }
  return std::nullopt;
}

Result<PreparedSource> prepare_source(const SourceSkeleton& source, const Clip& clip, const SourceRestOptions& options) {
  PreparedSource out;
  out.skeleton = source;
  SourceSkeleton& s = out.skeleton;
  const std::string who = "source skeleton '" + source.name + "'";
  auto binding = build_clip_binding(clip, source);
  if (!binding) return make_error(who + ": " + binding.message());
  const std::vector<float> times = key_times(clip);
  const size_t n = static_cast<size_t>(source.joint_count());
  std::vector<Transform> local(n);
  std::vector<float> coverage(n);
  auto sample = [&](float t) { sample_clip(clip, binding.value(), t, WrapMode::kClamp, local, coverage); };

  // The reference pose: the rest, or a frame (its rotations; each root keeps its rest position,
  // so the travel reference and "origin" keep their meaning).
  auto use_frame = [&](int frame) {
    sample(times[static_cast<size_t>(frame)]);
    for (size_t j = 0; j < n; ++j) {
      const glm::vec3 keep = s.rest_local[j].position;
      s.rest_local[j] = local[j];
      if (s.parents[j] < 0) s.rest_local[j].position = keep;
    }
  };
  if (options.mode == SourceRestMode::kFrame) {
    if (options.frame < 0 || static_cast<size_t>(options.frame) >= times.size())
      return make_error(who + ": rest frame " + std::to_string(options.frame) + " is out of range (the clip has " +
                        std::to_string(times.size()) + " frames" +
                        (times.empty() ? std::string(")") : ": give 0.." + std::to_string(times.size() - 1) + ")"));
    use_frame(options.frame);
    out.notes.push_back(who + ": the reference pose is frame " + std::to_string(options.frame));
  }
  auto roles = source_roles(s, options.role_overrides);
  if (!roles) return roles.error();
  if (options.mode == SourceRestMode::kAuto && !times.empty()) {
    if (const auto why = degenerate_rest(s, roles.value())) {
      use_frame(0);
      out.notes.push_back(who + ": the rest is not a standing body (" + *why + "); the reference pose is frame 0");
      roles = source_roles(s, options.role_overrides);
      if (!roles) return roles.error();
    }
  }

  // Up of the rest and of the motion (hips -> top joint, snapped).
  const int hips = find_role(s, roles.value(), Role::kHips);
  const int top = top_joint(s, roles.value());
  glm::vec3 motion_up(0.0f);
  if (hips >= 0 && top >= 0 && !times.empty()) {
    glm::vec3 sum(0.0f);
    for (float t : times) {
      sample(t);
      const std::vector<glm::vec3> p = positions(s, local);
      const glm::vec3 d = p[static_cast<size_t>(top)] - p[static_cast<size_t>(hips)];
      if (is_finite(d) && glm::length(d) > 0.0f) sum += glm::normalize(d);
    }
    if (glm::length(sum) > 0.0f) motion_up = snap_axis(sum);
    const std::vector<glm::vec3> rest = positions(s, s.rest_local);
    const glm::vec3 d = rest[static_cast<size_t>(top)] - rest[static_cast<size_t>(hips)];
    if (glm::length(motion_up) > 0.0f && glm::length(d) > 0.0f) {
      const glm::vec3 rest_up = snap_axis(d);
      if (glm::dot(rest_up, motion_up) < 0.5f) {
        // Turn the rest as a whole so its up is the motion's: rest -> upright.
        const glm::quat turn = rotation_between(rest_up, motion_up);
        for (size_t j = 0; j < n; ++j)
          if (s.parents[j] < 0) {
            s.rest_local[j].rotation = glm::normalize(turn * s.rest_local[j].rotation);
            s.rest_local[j].position = turn * s.rest_local[j].position;
          }
        out.notes.push_back(who + ": the rest lies on its side (its up is not the clip's); it is turned upright");
      }
    }
  }

  if (options.origin == SourceOrigin::kFirstFrame && !times.empty()) {
    int joint = hips;
    if (joint < 0)
      for (size_t j = 0; j < n && joint < 0; ++j)
        if (s.parents[j] < 0) joint = static_cast<int>(j);
    if (joint >= 0) {
      int root = joint;
      while (s.parents[static_cast<size_t>(root)] >= 0) root = s.parents[static_cast<size_t>(root)];
      sample(times.front());
      const glm::vec3 start = positions(s, local)[static_cast<size_t>(joint)];
      const glm::vec3 rest = positions(s, s.rest_local)[static_cast<size_t>(joint)];
      const glm::vec3 up = glm::length(motion_up) > 0.0f ? motion_up : glm::vec3(0, 1, 0);
      glm::vec3 shift = start - rest;
      shift -= glm::dot(shift, up) * up;
      if (is_finite(shift)) s.rest_local[static_cast<size_t>(root)].position += shift;
    }
  }
  return out;
}

}  // namespace asterune
