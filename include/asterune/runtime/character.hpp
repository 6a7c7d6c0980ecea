// Characters and the batch update: many characters that share one immutable rig, clips and
// animation bindings, each with its own animator (tracks, fades, sampling scratch), pose,
// control stack and time, updated in one call through a parallel-for the engine supplies (the
// library never creates a thread).
//
//   shared, read-only             per character, written only by its own update
//   +---------------------+       +--------------------------------------------------+
//   | Rig                 |       | root, scene time   Pose (local T, coverage)      |
//   | Clips               |  -->  | Animator (tracks: time, weights, sampling        |
//   | AnimationBindings   |       |   scratch; composition; inertial state)          |
//   | TrackDescs          |       | events buffer, root_delta   world scratch        |
//   +---------------------+       | ControlStack (smoothed targets, solver history)  |
//                                 +--------------------------------------------------+
//
// One frame of one character: the animator advances its tracks by dt, samples and composes them
// into the pose (rules AN1-AN10), the root moves by the frame's root motion
// (root = root * root_delta, rule AN16), then the control stack runs on it at that root (which
// leaves the final world placements in `world`). The single `clip` + `animation` of a setup is one looped Core
// track at weight 1 and gives exactly the sampled clip (rule AN10). Because nothing mutable is
// shared, a batch gives the same bits as updating the characters one by one, in any order and on
// any number of threads.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "asterune/anim/animator.hpp"
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
  /// One animation: a Core track at weight 1, looped (kLoop) or held at its ends (kClamp), whose
  /// time and rate are Character::time and playback_rate. Used when `tracks` is empty.
  const Clip* clip = nullptr;
  const AnimationBinding* animation = nullptr;  // build_animation_binding(*clip, *rig, ...)
  WrapMode wrap = WrapMode::kLoop;
  /// Ground for feet controls (rule G1), shared by every character: its cast() is const and is
  /// called from every thread of a batch at once. nullptr = no ground (every foot ray misses).
  const GroundQuery* ground = nullptr;
  /// Several tracks (rules AN1-AN10): when not empty, each character's animator plays these
  /// (clip and animation above are then ignored); the engine drives them through
  /// Character::animator's commands. The span and what it points to must outlive the build only;
  /// the clips and bindings must outlive the characters.
  std::span<const TrackDesc> tracks = {};
  CompositionMode composition = CompositionMode::kBudget;
  /// Events each character can report per update (Character::events' size).
  int event_capacity = 32;
};

/// One character's own state. Built once (build_character, allocates); updates then only write
/// into it. Move it, don't share it between threads during an update.
struct Character {
  Transform root;                // world placement of the root part; the engine places it, the update adds root motion (AN16)
  float time = 0.0f;             // single animation: clip time in seconds (wrapped or clamped)
  float playback_rate = 1.0f;    // single animation: clip seconds per second of dt
  float scene_time = 0.0f;       // seconds since start, advanced by dt: the stack's path-target time
  Pose pose;                     // the final pose after the last update
  std::vector<Transform> world;  // world placements of the final pose (rig.joint_count())
  Animator animator;             // tracks, their sampling scratch and playback state
  std::vector<AnimEvent> events; // event buffer (setup.event_capacity entries)
  int event_count = 0;           // events of the last update, in events[0, event_count)
  int events_dropped = 0;        // events of the last update that did not fit
  Transform root_delta;          // last update's root motion (rule AN9), already applied to root (AN16)
  ControlStack stack;
  bool ok = false;               // false: a stage of the last update did not run (bad sizes, rig or root)
};

/// Sizes a character for `setup` and binds `controls` to the rig. Fails on a setup with a
/// missing rig, clip or binding, a binding made for another rig (by layout signature, rule R7),
/// a track that does not build, or a control that does not bind (message names it). Allocates
/// (setup only).
Result<Character> build_character(const CharacterSetup& setup, std::span<const ControlDesc> controls,
                                  const Transform& root = Transform::identity(), float time = 0.0f);

/// One frame of one character, in this order (rule AN16): the animator's update (single
/// animation: its track takes character.time and playback_rate first, and character.time its
/// time after), events into character.events, root_delta, then character.root =
/// character.root * root_delta (rotation normalized; skipped if it would not be finite), then
/// the stack at that root (StackFrame{root, dt, scene_time, setup.ground}). An engine that
/// places the root itself each frame writes it before the update without this frame's delta. Returns
/// character.ok: false when any stage did not run (wrong sizes, another rig, a nonfinite root).
/// Allocation-free, no exceptions, no locks; reads `setup`, writes `character` only.
bool update_character(const CharacterSetup& setup, Character& character, float dt);

/// Rule AN14: bytes snapshot_character() writes for this character; fixed after build (the
/// animator's tracks with each graph's state, the stack's controls).
std::size_t character_snapshot_size(const Character& character);
/// Saves the whole animation state of a character into one caller-owned buffer (>=
/// character_snapshot_size bytes): root, times, the animator (tracks, fades, inertial offsets,
/// every graph track's GraphInstance state) and the control stack's retained state. The
/// outputs (pose, world, events, root_delta) are not saved: the next update writes them.
/// False (nothing written) when `out` is too small. Allocation-free.
bool snapshot_character(const Character& character, std::span<std::byte> out);
/// Restores a snapshot_character() of this character (or of one built from the same setup);
/// then the same commands, parameters and dt reproduce the same frames bit for bit. False on a
/// size mismatch (nothing changed) or when the animator or stack part is of another shape.
/// Allocation-free.
bool restore_character(Character& character, std::span<const std::byte> in);

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
