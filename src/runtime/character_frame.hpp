// One character's frame in two stages, shared by update_character (a Character) and the
// batch (a CharacterBatch, whose arrays live in its arena): the same code on the same values,
// so the two give the same bits. `S` is Character or CharacterState: both have the scalar
// fields root, time, playback_rate, scene_time, root_delta, event_count, events_dropped, ok.
#pragma once

#include <cmath>
#include <cstring>
#include <span>

#include "asterune/anim/animator.hpp"
#include "asterune/controls/stack.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/runtime/character.hpp"

namespace asterune::detail {

// The stack runs only on the root it accepts (ControlStack::update): finite, and still finite
// once its rotation is normalized.
inline bool root_usable(const Transform& root) {
  if (!is_finite(root)) return false;
  Transform r = root;
  r.rotation = glm::normalize(r.rotation);
  return is_finite(r);
}

inline const Transform kIdentityDelta = Transform::identity();

// Stage 1: the animator (time, fades, events, sampling, composition into local/coverage), then
// the root moved by the root motion (rule AN16).
// Returns true when the stack should run (stage 2); s.ok stays false until stage 2 ran.
template <class S>
bool animate_character(const CharacterSetup& setup, S& s, Animator& animator, std::span<Transform> local,
                       std::span<float> coverage, std::size_t world_size, std::span<AnimEvent> events, float dt) {
  s.ok = false;
  s.event_count = s.events_dropped = 0;
  s.root_delta = Transform::identity();
  if (!setup.rig) return false;
  const Rig& rig = *setup.rig;
  const bool single = setup.tracks.empty();
  if (single) {
    // The single animation's track follows the character's own time and rate fields.
    if (animator.track_count() != 1) return false;
    if (std::memcmp(&s.time, &animator.state(0).time_position, sizeof(float)) != 0) animator.set_time(0, s.time);
    animator.adjust_speed(0, std::isfinite(s.playback_rate) ? s.playback_rate : 0.0f);
  }
  if (world_size != static_cast<std::size_t>(rig.joint_count())) return false;
  const AnimatorReport r = animator.update(rig, dt, local, coverage, events);
  if (!r.ok) return false;
  s.event_count = r.events_written;
  s.events_dropped = r.events_dropped;
  s.root_delta = r.root_delta;
  // Rule AN16: the root moves by this frame's root motion before the controls run, so they see
  // the root the frame is drawn at (an identity delta leaves the root's bits alone).
  if (std::memcmp(&r.root_delta, &kIdentityDelta, sizeof(Transform)) != 0) {
    Transform moved = s.root * r.root_delta;
    moved.rotation = glm::normalize(moved.rotation);
    if (is_finite(moved)) s.root = moved;
  }
  if (single) s.time = animator.state(0).time_position;
  if (std::isfinite(dt) && dt > 0.0f) s.scene_time += dt;
  return root_usable(s.root);  // the stack would refuse it (nothing would run)
}

// Stage 2: the control stack on the composed pose; leaves the world placements in `world`.
template <class S>
void control_character(const CharacterSetup& setup, S& s, ControlStack& stack, std::span<Transform> local,
                       std::span<float> coverage, std::span<Transform> world, float dt) {
  stack.update(*setup.rig, StackFrame{s.root, dt, s.scene_time, setup.ground}, local, coverage, world);
  s.ok = true;
}

}  // namespace asterune::detail
