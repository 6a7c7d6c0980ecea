// Animator: the layer between sampling/retargeting and the control stack (rules AN1-AN10). It
// plays several tracks at once (idle, walk, an action on one arm), each a clip with its binding
// and its own playback state, and composes them per joint into the starting pose the controls
// adjust. Roblox AnimationTrack semantics: linear fades from the current weight, priorities
// Core < Idle < Movement < Action < Action2 < Action3 < Action4, a higher level taking the
// weight budget first (docs/animator.md gives every formula).
//
//   setup (allocates, may fail)                per frame (no allocation, no throw, no lock)
//   TrackDesc[] --build_animator--> Animator   play/stop/adjust_* (commands, any time)
//     clip + AnimationBinding (shared)         update(dt): advance fades and time, report
//     priority, loop, mask, additive           events, sample the tracks with weight, compose
//                                              overrides by priority, add additive layers,
//                                              decay an inertial transition, root motion
//
// The clips and bindings are shared, read-only and not owned (they must outlive the animator);
// everything the animator writes (track state, sampling scratch) is its own, so characters that
// each own an Animator can update on any number of threads with bit-identical results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asterune/anim/blending_job.hpp"
#include "asterune/anim/pose_source.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/retarget/animation.hpp"

namespace asterune {

class Rig;

/// Track priority, ordered by rank (rule AN3): Core lowest, Action4 highest. (Roblox's enum
/// stores Core as 1000; the rank is what composition uses.)
enum class TrackPriority : std::uint8_t { kCore, kIdle, kMovement, kAction, kAction2, kAction3, kAction4 };
inline constexpr int kTrackPriorityCount = 7;

/// "Core", "Idle", "Movement", "Action", "Action2", "Action3", "Action4".
const char* to_string(TrackPriority priority);
/// The priority named `name` (the names of to_string, case-sensitive), or nullopt.
std::optional<TrackPriority> parse_track_priority(std::string_view name);

/// The joint root motion is taken from (rule AN9): the first joint in layout order whose parent
/// part is the rig's root part (R15: Root, placing LowerTorso); -1 when the rig has none.
int root_motion_joint(const Rig& rig);

/// How levels share a joint (rule AN4). kBudget (default, Roblox): levels take the remaining
/// budget from the top; within a level claims are normalised only when they sum past 1.
/// kRemainder (Unity-style layers): each level is blended over what is below it by its summed
/// claim (min 1), i.e. lower = blend(lower, level, min(W, 1)); the rest pose is the bottom. Both
/// modes expand into one weight per contribution and blend once (docs/animator.md).
enum class CompositionMode : std::uint8_t { kBudget, kRemainder };

/// Per-joint weights for a track, by part names (rule AN5). Resolved at build.
struct TrackMask {
  std::vector<std::string> parts;  // child part names (or parent-qualified, rule R6); empty = whole body
  bool descendants = true;         // a named part's whole subtree gets the weight too
  float weight = 1.0f;             // weight of the named joints, in [0, 1]; others get 0
};

/// Everything a track is built from. The clip and binding are not owned.
struct TrackDesc {
  std::string name;                            // unique within the animator
  const Clip* clip = nullptr;
  const AnimationBinding* binding = nullptr;   // build_animation_binding(*clip, rig, ...)
  /// Rule GR15: instead of clip + binding, a pose source (an animation graph) the track plays:
  /// it advances by dt x |speed| while the track contributes; looped, never additive; its
  /// marker events are the track's (rule AN12); root motion when the source extracts it.
  /// Not owned; it must outlive the animator (copies of the animator share it).
  PoseSource* source = nullptr;
  TrackPriority priority = TrackPriority::kCore;
  bool looped = true;
  float weight = 1.0f;   // weight when playing at start (play() takes PlayOptions::weight)
  float speed = 1.0f;    // clip seconds per second of dt; negative plays backwards
  float time = 0.0f;     // start time position (seconds)
  bool playing = true;   // playing from the start at `weight`, no fade
  TrackMask mask;        // empty parts: every joint weight 1
  bool additive = false;        // rule AN6: adds its difference from a reference pose
  float reference_time = 0.0f;  // additive: the reference pose's clip time
  bool root_motion = false;     // rule AN9: the root joint's travel and yaw become a delta
  /// Non-looped only: clamp at the ends and keep playing at full weight (no stop, no fade-out),
  /// as a single clip sampled with WrapMode::kClamp does (runtime's CharacterSetup::wrap).
  bool hold_end = false;
};

/// How play() brings a track in (rule AN8).
enum class TransitionKind : std::uint8_t {
  kCrossfade,  // the weight moves linearly to the target over `fade`
  kInertial,   // the weight jumps to the target, other non-additive tracks of the same priority
               // stop at once, and the pose's jump decays to zero over `fade` (one pose evaluated)
};

struct PlayOptions {
  float fade = 0.1f;    // seconds, >= 0
  float weight = 1.0f;  // target weight (>= 0; additive tracks may be negative)
  float speed = 1.0f;
  TransitionKind transition = TransitionKind::kCrossfade;
};

/// A track's public state (AnimationTrack properties).
struct TrackState {
  bool playing = false;         // IsPlaying
  float weight_current = 0.0f;  // WeightCurrent
  float weight_target = 0.0f;   // WeightTarget
  float time_position = 0.0f;   // TimePosition, seconds in [0, length]
  float speed = 1.0f;           // Speed
};

/// What happened to a track during an update (rule AN7).
enum class AnimEventKind : std::uint8_t {
  kMarker,    // a KeyframeMarker (name, value) was crossed
  kKeyframe,  // a named Keyframe was reached
  kLooped,    // a looped track wrapped (DidLoop)
  kStopped,   // a track stopped: stop() was called or a non-looped track reached its end
  kEnded,     // a stopped track's weight reached 0 (it no longer contributes)
};

/// One reported event. `name`/`value` point into the clip's marker (valid while the clip lives);
/// empty for kLooped/kStopped/kEnded.
struct AnimEvent {
  int track = -1;
  AnimEventKind kind = AnimEventKind::kMarker;
  std::string_view name;
  std::string_view value;
  float time = 0.0f;  // clip time of the marker (kLooped: the time the track wrapped to)
  /// Rule AN12: the event's influence on this frame's pose: the track's effective weight (its
  /// largest per-joint share of the composed pose), times the graph event's weight (rule GR11)
  /// for a pose-source track's marker.
  float weight = 1.0f;
  int node = -1;  // a pose-source (graph) track's marker: the graph Clip node; else -1
};

/// What update() did.
struct AnimatorReport {
  bool ok = false;           // false: wrong span sizes or rig (nothing written, rule RG4)
  int events_written = 0;    // events stored in the caller's buffer, in time order
  int events_dropped = 0;    // events that did not fit the buffer (counted, not stored)
  /// Rule AN9: the root part's motion this frame from root-motion tracks (travel in the root
  /// part's frame at the previous frame, turn about +Y), blended by their effective weights.
  /// Identity when no track extracts root motion. The engine applies it: root = root * delta.
  Transform root_delta;
};

class Animator {
 public:
  Animator();
  ~Animator();
  Animator(const Animator&);
  Animator(Animator&&) noexcept;
  Animator& operator=(const Animator&);
  Animator& operator=(Animator&&) noexcept;

  /// Binds every track to `rig` (masks resolved, additive references sampled, scratch sized).
  /// Fails naming the track and the reason: no clip/binding, a binding for another rig (by
  /// layout signature, rule R7), a duplicate name, a mask part not in the rig, a nonfinite
  /// weight/speed/time. Allocates (setup only).
  static Result<Animator> build(const Rig& rig, std::span<const TrackDesc> tracks,
                                CompositionMode mode = CompositionMode::kBudget);

  int track_count() const;
  /// Index of the track named `name`, or -1.
  int find_track(std::string_view name) const;
  const TrackDesc& desc(int track) const;
  const TrackState& state(int track) const;
  /// Clip length in seconds.
  float length(int track) const;
  CompositionMode mode() const { return mode_; }
  /// The joint root motion is taken from (rule AN9): the first joint in layout order whose parent
  /// part is the rig's root part (R15: Root, placing LowerTorso); -1 when the rig has none.
  int root_motion_joint() const { return root_joint_; }

  // --- commands (allocation-free; a bad index or nonfinite value is ignored) ----------
  /// Starts (or restarts from time 0, or from the end when speed < 0) the track (rule AN1).
  void play(int track, const PlayOptions& options = {});
  /// Fades the weight to 0 in exactly `fade` seconds from wherever it is (rule AN2).
  void stop(int track, float fade = 0.1f);
  /// Fades the weight linearly from the current weight to `weight` over `fade` seconds.
  void adjust_weight(int track, float weight, float fade = 0.1f);
  void adjust_speed(int track, float speed);
  /// Jumps the time position (clamped to [0, length], wrapped when looped). No events.
  void set_time(int track, float time);

  /// One frame (rules AN1-AN10): advances every track by dt (dt <= 0 or nonfinite: nothing
  /// advances, the pose is still composed), writes events into `events` (time order; what does
  /// not fit is counted), samples the tracks with nonzero weight, and writes the composed motor
  /// transforms and coverage (1 - rest share) into `local`/`coverage` (rig.joint_count() each).
  /// Allocation-free, no exceptions, deterministic.
  AnimatorReport update(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage,
                        std::span<AnimEvent> events = {});

  /// Composes the tracks' last samples again into `local`/`coverage` (the overrides by
  /// priority and the additive tracks, rules AN4-AN6): no time, fade or event step, no
  /// sampling, no inertial offset or root-motion delta. For tools that re-read the pose and for
  /// measuring composition alone (bench). Returns false (nothing written) on the wrong rig or
  /// span sizes. Allocation-free.
  bool compose(const Rig& rig, std::span<Transform> local, std::span<float> coverage) const;

  /// Cache hint for a batch; no effect on results.
  void prefetch() const;

  // --- snapshot / restore (rule AN14) -----------------------------------------------------
  /// Bytes snapshot() writes; fixed after build.
  std::size_t snapshot_size() const;
  /// Writes the whole playback state into `out` (>= snapshot_size() bytes): per track its state,
  /// fade, pending stop and root-motion heading, each pose source's state (PoseSource::
  /// save_state, a graph's GraphInstance::snapshot), the last two outputs and the inertial
  /// transition. Returns false (nothing written) when `out` is too small. Allocation-free.
  bool snapshot(std::span<std::byte> out) const;
  /// Restores a snapshot of this animator (or of one built from the same tracks and rig);
  /// restore then the same commands and dt reproduce the same frames bit for bit. Returns false
  /// (nothing changed) on a size or shape mismatch. Allocation-free.
  bool restore(std::span<const std::byte> in);

 private:
  // Per-track state and scratch (src/anim/animator_track.hpp, the implementer's section).
  struct Track;
  // The snapshot's walk over the retained state (src/anim/animator_state.cpp).
  template <class Archive>
  void state_layout(Archive& ar);
  std::uint64_t state_signature() const;
  // The steps of update(), in order (docs/animator.md).
  void advance_tracks(float dt, bool advance);                            // 1 (AN1, AN2)
  bool sample_tracks(const Rig& rig);                                     // 2; true: root motion
  bool sample_source(const Rig& rig, Track& track);                       // 2, a pose source (GR15)
  void write_events(std::span<AnimEvent> events, AnimatorReport& report);  // 3 (AN7, AN12)
  void compose_samples(std::span<Transform> local, std::span<float> coverage) const;  // 4-5
  void weigh_events(std::span<AnimEvent> events, int written) const;       // 5b (AN12)
  void capture_inertial(std::span<const Transform> local);                // 6 (AN8)
  void decay_inertial(std::span<Transform> local, float dt, bool advance);
  Transform root_delta() const;                                           // 7 (AN9)
  // The composition's inputs to the blending job: the override layers with their budgeted
  // weights and the rest shares (AN4), and the additive layers (AN6); each returns its count.
  size_t budget_layers() const;
  size_t additive_layers() const;
  // One decaying offset of an inertial transition (rule AN8): x(t) along `axis` (an angle in
  // radians for a rotation, studs for a position), Bollo's quintic reaching 0 at t1.
  struct Decay {
    glm::vec3 axis{0.0f};
    float x0 = 0.0f, v0 = 0.0f, a0 = 0.0f, a = 0.0f, b = 0.0f, c = 0.0f, t1 = 0.0f;
  };
  // The quintic's a0, a, b, c from x0, v0 and t1 (t1 = 0 for no offset).
  static void decay_coefficients(Decay& d);
  std::vector<Track> tracks_;
  std::uint64_t rig_signature_ = 0;
  int joint_count_ = 0;
  CompositionMode mode_ = CompositionMode::kBudget;
  int root_joint_ = -1;
  std::vector<int> override_order_;  // non-additive tracks, highest priority first, then build order
  std::vector<int> level_end_;       // per level of override_order_: one past its last entry
  std::vector<int> additive_order_;  // additive tracks, ascending priority, then build order
  // The last two outputs (inertial capture) and the dt between them; next_out_ receives a copy
  // of this frame's output, then the three rotate.
  std::vector<Transform> last_out_, prev_out_, next_out_;
  float last_dt_ = 0.0f;
  bool has_last_ = false, has_prev_ = false;
  // Inertial transition state (rule AN8).
  std::vector<Decay> decay_rotation_, decay_position_;
  bool inertial_pending_ = false, inertial_active_ = false;
  float inertial_time_ = 0.0f, inertial_elapsed_ = 0.0f;
  // Composition scratch (compose() is const but writes these: one animator is never used from
  // two threads at once): per joint the remaining budget, a level's summed claims and scale;
  // the blending job's layers.
  mutable std::vector<float> scratch_rest_, scratch_sum_, scratch_scale_;
  mutable std::vector<BlendLayer> scratch_layers_;
  mutable std::vector<AdditiveLayer> scratch_additive_;
  mutable bool claims_ready_ = false;  // this composition left each track's effective weights in claim
};

}  // namespace asterune
