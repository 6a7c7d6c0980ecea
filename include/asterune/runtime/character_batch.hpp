// CharacterBatch: a crowd that shares one CharacterSetup, with every character's per-frame state
// held by the batch and laid out by stage, so that a batch update streams through memory instead
// of visiting each character's separate heap blocks:
//
//   one arena (allocated once, 64-byte aligned), each stage an array over all characters
//   +--------------------+--------------------+------------------+--------------------+-------------+
//   | CharacterState x N | local T   x N x J  | coverage x N x J | world     x N x J  | events x N  |
//   | root, time, rate,  | (the poses)        |                  | (final placements) |  x capacity |
//   | scene time, report |                    |                  |                    |             |
//   +--------------------+--------------------+------------------+--------------------+-------------+
//   then the N animators (track state, sampling scratch), their buffers allocated one character
//   after another, and the N control stacks (smoothed targets, solver history) likewise.
//
// What every character only reads (the rig, clips, bindings, ground) is the setup's and is not
// copied. A batch is built once (allocates) and then updated with no allocation; its results are
// bit for bit those of the same characters held as separate Character values (the per-frame code
// is the same), in any order and on any number of threads.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/controls/stack.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/runtime/character.hpp"

namespace asterune {

/// One character's scalar per-frame fields in a batch: Character's fields other than its arrays,
/// animator and stack, with the same meaning.
struct CharacterState {
  Transform root;              // world placement of the root part; the engine moves it
  float time = 0.0f;           // single animation: clip time in seconds
  float playback_rate = 1.0f;  // single animation: clip seconds per second of dt
  float scene_time = 0.0f;     // seconds since start: the stack's path-target time
  Transform root_delta;        // last update's root motion (rule AN9), already applied to root (AN16)
  int event_count = 0;         // events of the last update (CharacterBatch::events)
  int events_dropped = 0;      // events of the last update that did not fit
  bool ok = false;             // false: a stage of the last update did not run
};

/// The characters of a crowd, owned by the caller, built once for one setup. Move it, don't copy
/// it; during update_characters() don't touch it from another thread.
class CharacterBatch {
 public:
  CharacterBatch();
  ~CharacterBatch();
  CharacterBatch(CharacterBatch&&) noexcept;
  CharacterBatch& operator=(CharacterBatch&&) noexcept;
  CharacterBatch(const CharacterBatch&) = delete;
  CharacterBatch& operator=(const CharacterBatch&) = delete;

  std::size_t size() const { return count_; }
  int joint_count() const { return joints_; }
  int event_capacity() const { return event_capacity_; }

  CharacterState& state(std::size_t i) { return states_[i]; }
  const CharacterState& state(std::size_t i) const { return states_[i]; }
  /// The pose (motor transforms T and coverage, layout order) after the last update.
  std::span<Transform> local(std::size_t i) { return {local_ + i * joint_stride(), joint_stride()}; }
  std::span<const Transform> local(std::size_t i) const { return {local_ + i * joint_stride(), joint_stride()}; }
  std::span<float> coverage(std::size_t i) { return {coverage_ + i * joint_stride(), joint_stride()}; }
  std::span<const float> coverage(std::size_t i) const { return {coverage_ + i * joint_stride(), joint_stride()}; }
  /// World placements of the final pose after the last update.
  std::span<const Transform> world(std::size_t i) const { return {world_ + i * joint_stride(), joint_stride()}; }
  /// The last update's events: [0, state(i).event_count).
  std::span<const AnimEvent> events(std::size_t i) const {
    return {events_ + i * event_stride(), static_cast<std::size_t>(states_[i].event_count)};
  }
  /// Commands (play, stop, adjust_weight...) between updates, as for Character::animator.
  Animator& animator(std::size_t i) { return animators_[i]; }
  const Animator& animator(std::size_t i) const { return animators_[i]; }
  /// Per-frame edits (targets, weights...) between updates, as for Character::stack.
  ControlStack& stack(std::size_t i) { return stacks_[i]; }
  const ControlStack& stack(std::size_t i) const { return stacks_[i]; }

 private:
  friend Result<CharacterBatch> build_character_batch(const CharacterSetup&, std::span<const Character>);
  friend Result<CharacterBatch> build_character_batch(const CharacterSetup&, std::span<const ControlDesc>, std::size_t,
                                                      const Transform&, float);
  friend bool update_character(const CharacterSetup&, CharacterBatch&, std::size_t, float);
  friend void update_characters(const CharacterSetup&, CharacterBatch&, float, ParallelFor);
  // Addresses of a character's heap arrays, noted at build for the batch's prefetch.
  struct Hints {
    const void* tracks = nullptr;
    std::size_t track_bytes = 0;
    const void* slots = nullptr;
    std::size_t slot_bytes = 0;
  };
  struct ArenaDelete {
    void operator()(std::byte* p) const;
  };
  // Lays out n characters, character i a copy of at(i) (already checked against `setup`).
  static CharacterBatch make(const CharacterSetup& setup, std::size_t n, FunctionRef<const Character&(std::size_t)> at);
  std::size_t joint_stride() const { return static_cast<std::size_t>(joints_); }
  std::size_t event_stride() const { return static_cast<std::size_t>(event_capacity_); }

  std::unique_ptr<std::byte, ArenaDelete> arena_;
  std::size_t count_ = 0;
  int joints_ = 0;
  int event_capacity_ = 0;
  CharacterState* states_ = nullptr;  // the arena's stages (see the picture above)
  Transform* local_ = nullptr;
  float* coverage_ = nullptr;
  Transform* world_ = nullptr;
  AnimEvent* events_ = nullptr;
  std::vector<Animator> animators_;
  std::vector<ControlStack> stacks_;
  std::vector<Hints> hints_;
};

/// A batch holding copies of `characters` (built by build_character for this same setup; they
/// may differ in controls, tracks, time and root): each one's state, pose, world, events,
/// animator and stack, in the batch's layout. The characters are left as they are. Fails on a
/// setup without a rig, or a character whose pose, world or event buffer is not sized for this
/// setup (naming it). Allocates (setup only).
Result<CharacterBatch> build_character_batch(const CharacterSetup& setup, std::span<const Character> characters);

/// A batch of `count` characters with the same controls, all at `root` and `time` (give each its
/// own through state(i) before the first update: a changed single-animation time is taken then).
/// Fails as build_character() does. Allocates (setup only).
Result<CharacterBatch> build_character_batch(const CharacterSetup& setup, std::span<const ControlDesc> controls,
                                             std::size_t count, const Transform& root = Transform::identity(),
                                             float time = 0.0f);

/// update_character() for character i of the batch: the same stages on the same values, so the
/// same bits as a Character in the same state. Returns state(i).ok. Allocation-free, no locks.
bool update_character(const CharacterSetup& setup, CharacterBatch& batch, std::size_t i, float dt);

/// Every character of the batch through `parallel_for` (see ParallelFor): bit-identical to
/// updating them one by one in any order, on any number of threads. Reads `setup`, writes only
/// the batch; allocation-free, no locks, no shared mutable state. The parallel-for's own waiting
/// (a pool's wake-up and join) is the caller's.
void update_characters(const CharacterSetup& setup, CharacterBatch& batch, float dt, ParallelFor parallel_for);

}  // namespace asterune
