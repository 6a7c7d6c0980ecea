#include "asterune/runtime/character.hpp"

#include <cmath>

#include "asterune/core/prefetch.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {

Result<Character> build_character(const CharacterSetup& setup, std::span<const ControlDesc> controls,
                                  const Transform& root, float time) {
  if (!setup.rig || !setup.clip || !setup.animation)
    return make_error("character setup: rig, clip and animation binding are all required");
  const Rig& rig = *setup.rig;
  const AnimationBinding& binding = *setup.animation;
  if (binding.mode == AnimationMode::kNative && binding.clip_binding.joint_count() != rig.joint_count())
    return make_error("character setup: the clip binding was made for a rig of " +
                      std::to_string(binding.clip_binding.joint_count()) + " joints, rig '" + rig.name() + "' has " +
                      std::to_string(rig.joint_count()));
  if (binding.mode == AnimationMode::kRetarget &&
      (!binding.retarget || binding.retarget->target_signature != rig.signature()))
    return make_error("character setup: the retarget binding was not made for rig '" + rig.name() + "'");
  if (!is_finite(root)) return make_error("character setup: the root placement is not finite");
  auto stack = ControlStack::build(rig, controls);
  if (!stack) return stack.error();
  Character c;
  c.root = root;
  c.time = wrap_clip_time(time, setup.clip->duration, setup.wrap);
  c.pose = make_pose(rig);
  c.world.assign(static_cast<size_t>(rig.joint_count()), Transform::identity());
  c.animation = make_animation_context(binding);
  c.stack = std::move(stack).value();
  return c;
}

bool update_character(const CharacterSetup& setup, Character& c, float dt) {
  c.ok = false;
  if (!setup.rig || !setup.clip || !setup.animation) return false;
  const Rig& rig = *setup.rig;
  if (std::isfinite(dt) && dt > 0.0f) {
    const float rate = std::isfinite(c.playback_rate) ? c.playback_rate : 0.0f;
    c.time = wrap_clip_time(c.time + rate * dt, setup.clip->duration, setup.wrap);
    c.scene_time += dt;
  }
  if (!sample_animation(*setup.clip, *setup.animation, rig, c.time, setup.wrap, c.animation, c.pose.local,
                        c.pose.coverage))
    return false;
  if (c.world.size() != static_cast<size_t>(rig.joint_count())) return false;
  c.stack.update(rig, StackFrame{c.root, dt, c.scene_time, setup.ground}, c.pose, c.world);
  c.ok = true;
  return true;
}

namespace {

void prefetch_arrays(const Character& c) {
  prefetch_vectors(c.pose.local, c.pose.coverage, c.world, c.animation.source_local, c.animation.source_coverage,
                   c.animation.retarget.source_orientation, c.animation.retarget.source_position,
                   c.animation.retarget.target_rotation, c.animation.cursor.keys);
  c.stack.prefetch_slots();
}

}  // namespace

void update_characters(const CharacterSetup& setup, std::span<Character> characters, float dt,
                       ParallelFor parallel_for) {
  Character* data = characters.data();
  // While character i updates (microseconds), the next one's state comes into cache: the
  // arrays it owns and its stack's slots two ahead, what the slots point to one ahead.
  const auto body = [&setup, data, dt](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (i + 2 < end) prefetch_arrays(data[i + 2]);
      if (i + 1 < end) data[i + 1].stack.prefetch_state();
      update_character(setup, data[i], dt);
    }
  };
  parallel_for(characters.size(), CharacterRange(body));
}

}  // namespace asterune
