#include "asterune/runtime/character.hpp"

#include <cmath>
#include <cstring>

#include "asterune/core/prefetch.hpp"
#include "asterune/rig/rig.hpp"
#include "runtime/character_frame.hpp"

namespace asterune {

namespace {

// The one track a setup's single clip and binding make (rule AN10).
TrackDesc single_track(const CharacterSetup& setup, float time) {
  TrackDesc d;
  d.name = "animation";
  d.clip = setup.clip;
  d.binding = setup.animation;
  d.priority = TrackPriority::kCore;
  d.looped = setup.wrap == WrapMode::kLoop;
  d.hold_end = !d.looped;
  d.time = std::isfinite(time) ? time : 0.0f;
  return d;
}

}  // namespace

Result<Character> build_character(const CharacterSetup& setup, std::span<const ControlDesc> controls,
                                  const Transform& root, float time) {
  if (!setup.rig) return make_error("character setup: the rig is required");
  const bool single = setup.tracks.empty();
  if (single && (!setup.clip || !setup.animation))
    return make_error("character setup: rig, clip and animation binding are all required (or tracks)");
  const Rig& rig = *setup.rig;
  if (!is_finite(root)) return make_error("character setup: the root placement is not finite");
  if (setup.event_capacity < 0) return make_error("character setup: the event capacity is negative");
  const TrackDesc one = single ? single_track(setup, time) : TrackDesc{};
  auto animator = Animator::build(rig, single ? std::span<const TrackDesc>(&one, 1) : setup.tracks, setup.composition);
  if (!animator) return make_error("character setup: " + animator.message());
  auto stack = ControlStack::build(rig, controls);
  if (!stack) return stack.error();
  Character c;
  c.root = root;
  c.animator = std::move(animator).value();
  if (single) c.time = c.animator.state(0).time_position;
  c.pose = make_pose(rig);
  c.world.assign(static_cast<size_t>(rig.joint_count()), Transform::identity());
  c.events.assign(static_cast<size_t>(setup.event_capacity), AnimEvent{});
  c.stack = std::move(stack).value();
  return c;
}

bool update_character(const CharacterSetup& setup, Character& c, float dt) {
  if (!detail::animate_character(setup, c, c.animator, c.pose.local, c.pose.coverage, c.world.size(), c.events, dt))
    return false;
  detail::control_character(setup, c, c.stack, c.pose.local, c.pose.coverage, c.world, dt);
  return true;
}


namespace {

void prefetch_arrays(const Character& c) {
  prefetch_vectors(c.pose.local, c.pose.coverage, c.world);
  c.animator.prefetch();
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

namespace {

// Rule AN14: the character's own fields, then the animator's and the stack's snapshots.
struct CharacterHeader {
  std::uint64_t animator_bytes;
  std::uint64_t stack_bytes;
  Transform root;
  float time, playback_rate, scene_time;
};

}  // namespace

std::size_t character_snapshot_size(const Character& c) {
  return sizeof(CharacterHeader) + c.animator.snapshot_size() + c.stack.snapshot_size();
}

bool snapshot_character(const Character& c, std::span<std::byte> out) {
  const std::size_t a = c.animator.snapshot_size(), k = c.stack.snapshot_size();
  if (out.size() < sizeof(CharacterHeader) + a + k) return false;
  const CharacterHeader h{a, k, c.root, c.time, c.playback_rate, c.scene_time};
  std::memcpy(out.data(), &h, sizeof h);
  return c.animator.snapshot(out.subspan(sizeof h, a)) && c.stack.snapshot(out.subspan(sizeof h + a, k));
}

bool restore_character(Character& c, std::span<const std::byte> in) {
  const std::size_t a = c.animator.snapshot_size(), k = c.stack.snapshot_size();
  if (in.size() < sizeof(CharacterHeader) + a + k) return false;
  CharacterHeader h{};
  std::memcpy(&h, in.data(), sizeof h);
  if (h.animator_bytes != a || h.stack_bytes != k) return false;
  if (!c.animator.restore(in.subspan(sizeof h, a))) return false;
  if (!c.stack.restore(in.subspan(sizeof h + a, k))) return false;
  c.root = h.root;
  c.time = h.time;
  c.playback_rate = h.playback_rate;
  c.scene_time = h.scene_time;
  return true;
}

}  // namespace asterune
