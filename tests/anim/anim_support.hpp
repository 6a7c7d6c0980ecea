// Animator test fixtures: the hand-typed R15 rig (tests/support/r15_rig.hpp) and hand-made
// clips whose keys are constant or linear, so every expected blend is computed by hand.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "asterune/anim/animator.hpp"
#include "asterune/clip/binding.hpp"
#include "asterune/retarget/animation.hpp"
#include "support/r15_rig.hpp"

namespace asterune::test {

/// A clip of `length` seconds with one track per entry: the part name, a constant rotation and a
/// constant translation (keys at 0 and length).
struct ConstKey {
  std::string part;
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 position{0.0f};
};

inline Clip const_clip(const std::string& name, const std::vector<ConstKey>& keys, float length = 1.0f) {
  Clip c;
  c.name = name;
  c.duration = length;
  for (const ConstKey& k : keys) {
    ClipTrack t;
    t.name = k.part;
    t.rotation_times = {0.0f, length};
    t.rotations = {k.rotation, k.rotation};
    t.translation_times = {0.0f, length};
    t.translations = {k.position, k.position};
    c.tracks.push_back(std::move(t));
  }
  return c;
}

/// A clip whose one track moves linearly from (from) at 0 to (to) at `length`.
inline Clip linear_clip(const std::string& name, const std::string& part, const Transform& from, const Transform& to,
                        float length = 1.0f) {
  Clip c;
  c.name = name;
  c.duration = length;
  ClipTrack t;
  t.name = part;
  t.rotation_times = {0.0f, length};
  t.rotations = {from.rotation, to.rotation};
  t.translation_times = {0.0f, length};
  t.translations = {from.position, to.position};
  c.tracks.push_back(std::move(t));
  return c;
}

inline std::unique_ptr<AnimationBinding> native_binding(const Clip& clip, const Rig& rig) {
  auto b = build_clip_binding(clip, rig);
  INFO((b.ok() ? std::string() : b.message()));
  REQUIRE(b.ok());
  auto out = std::make_unique<AnimationBinding>();
  out->mode = AnimationMode::kNative;
  out->clip_binding = std::move(b).value();
  return out;
}

inline TrackDesc track(const std::string& name, const Clip& clip, const AnimationBinding& binding,
                       TrackPriority priority, float weight = 1.0f) {
  TrackDesc d;
  d.name = name;
  d.clip = &clip;
  d.binding = &binding;
  d.priority = priority;
  d.weight = weight;
  return d;
}

inline Animator build_animator(const Rig& rig, const std::vector<TrackDesc>& tracks,
                               CompositionMode mode = CompositionMode::kBudget) {
  auto a = Animator::build(rig, tracks, mode);
  INFO((a.ok() ? std::string() : a.message()));
  REQUIRE(a.ok());
  return std::move(a).value();
}

/// The pose an animator writes, sized for the rig.
struct Out {
  std::vector<Transform> local;
  std::vector<float> coverage;
  explicit Out(const Rig& rig)
      : local(static_cast<size_t>(rig.joint_count())), coverage(static_cast<size_t>(rig.joint_count())) {}
};

}  // namespace asterune::test
