// Characters and the batch update: many characters that share one immutable rig, clip and
// animation binding, each with its own pose, scratch, playback cursor, control stack and time,
// updated in one call through a parallel-for the engine supplies (the library never creates a
// thread).
//
//   shared, read-only          per character, written only by its own update
//   +------------------+       +--------------------------------------------------+
//   | Rig              |       | time, root     Pose (local T, coverage)          |
//   | Clip             |  -->  | AnimationContext (source scratch, retarget       |
//   | AnimationBinding |       |   scratch, clip cursor)   world scratch          |
//   +------------------+       | ControlStack (smoothed targets, solver history)  |
//                              +--------------------------------------------------+
//
// One frame of one character: advance time by dt, sample the clip (natively or retargeted)
// into the pose, run the control stack on it (which leaves the final world placements in
// `world`). Because nothing mutable is shared, a batch gives the same bits as updating the
// characters one by one, in any order and on any number of threads.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/controls/stack.hpp"
#include "asterune/core/function_ref.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/rig/pose.hpp"

namespace asterune {

class Rig;

/// What every character of a batch shares. Not owned: the rig, clip and binding must outlive
/// every character built from it and must not change while an update runs (they are only read,
/// from any number of threads at once).
struct CharacterSetup {
  const Rig* rig = nullptr;
  const Clip* clip = nullptr;
  const AnimationBinding* animation = nullptr;  // build_animation_binding(*clip, *rig, ...)
  WrapMode wrap = WrapMode::kLoop;
  /// Ground for feet controls (rule G1), shared by every character: its cast() is const and is
  /// called from every thread of a batch at once. nullptr = no ground (every foot ray misses).
  const GroundQuery* ground = nullptr;
};

/// One character's own state. Built once (build_character, allocates); updates then only write
/// into it. Move it, don't share it between threads during an update.
struct Character {
  Transform root;                // world placement of the root part; the engine moves it
  float time = 0.0f;             // clip time in seconds (kept wrapped or clamped to the clip)
  float playback_rate = 1.0f;    // clip seconds per second of dt
  float scene_time = 0.0f;       // seconds since start, advanced by dt: the stack's path-target time
  Pose pose;                     // the final pose after the last update
  std::vector<Transform> world;  // world placements of the final pose (rig.joint_count())
  AnimationContext animation;    // sampling scratch + playback cursor
  ControlStack stack;
  bool ok = false;               // false: the last update found sizes that did not match (nothing ran)
};

/// Sizes a character for `setup` and binds `controls` to the rig. Fails on a setup with a
/// missing rig, clip or binding, a binding made for another rig, or a control that does not
/// bind (message names it). Allocates (setup only).
Result<Character> build_character(const CharacterSetup& setup, std::span<const ControlDesc> controls,
                                  const Transform& root = Transform::identity(), float time = 0.0f);

/// One frame of one character: time += playback_rate * dt (dt <= 0 or nonfinite: time holds),
/// sample the clip into the pose, run the stack (StackFrame{root, dt, scene_time, setup.ground}). Returns
/// character.ok. Allocation-free, no exceptions, no locks; reads `setup`, writes `character` only.
bool update_character(const CharacterSetup& setup, Character& character, float dt);

/// The body a parallel-for runs: update the characters [begin, end).
using CharacterRange = FunctionRef<void(std::size_t begin, std::size_t end)>;

/// The engine's parallel-for, a plain function object: called once per batch with the number
/// of characters and a body, it must call body(begin, end) on disjoint ranges that together
/// cover [0, count) exactly once, from whatever threads it likes, and return when all are
/// done. The library never creates threads. A serial one: [](size_t n, CharacterRange body) { body(0, n); }.
using ParallelFor = FunctionRef<void(std::size_t count, CharacterRange body)>;

/// update_character() for every character through `parallel_for`. Characters share only
/// `setup` (read-only), so the result is bit-identical to updating them one by one in any
/// order and with any number of threads. Allocation-free, no locks, no shared mutable state.
void update_characters(const CharacterSetup& setup, std::span<Character> characters, float dt,
                       ParallelFor parallel_for);

}  // namespace asterune
