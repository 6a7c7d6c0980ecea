// The animator's private parts shared by its source files (src/anim/animator*.cpp): the
// per-track state and scratch, and the small helpers more than one step uses.
#pragma once

#include <cmath>
#include <memory>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/math/scalar.hpp"
#include "asterune/math/swing_twist.hpp"

namespace asterune {

struct Animator::Track {
  TrackDesc desc;
  TrackState state;
  AnimationContext context;
  std::vector<Transform> local;  // this update's sample (joint count)
  std::vector<float> coverage;
  std::vector<float> mask;  // per joint; empty: 1 for every joint
  // Composition scratch: this update's claim per joint, then its effective weight (overrides)
  // or its additive weight (additive tracks), the blending job's per-joint weights.
  mutable std::vector<float> claim;
  std::vector<Transform> reference;      // additive: the reference pose
  mutable std::vector<Transform> delta;  // additive composition scratch: sample * inverse(reference)
  std::vector<int> markers;              // clip marker indexes in time order
  float length = 0.0f;
  float rate = 0.0f;          // weight units per second toward weight_target
  float end_fade = 0.1f;      // the fade of the last play(): a non-looped track fades out over it
  bool ending = false;        // stopped, kEnded not yet reported
  bool stop_pending = false;  // a command stopped it: kStopped at the next update's start
  bool sampled = false;       // sampled this update (contributes)
  // Rule GR15: a pose-source track carries a stand-in clip (empty, 1 s, looped) and its binding
  // so playback runs unchanged; source_dt is this update's advance for the source.
  std::shared_ptr<const Clip> own_clip;
  std::shared_ptr<const AnimationBinding> own_binding;
  float source_dt = 0.0f;
  // Rule AN12: the source's events of this update (sized at build to its event_capacity()),
  // by step fraction; the cursor walks them in phase 2 of the event walk.
  std::vector<PoseSourceEvent> source_events;
  int source_written = 0, source_dropped = 0, source_next = 0;

  // Root motion (rule AN9): headings of the root joint's part at clip time 0, at the end, and
  // at the previous update's time.
  Transform heading_start, heading_end, heading_prev;
  bool heading_valid = false;
  Transform root_step;               // this update's delta
  mutable float root_weight = 0.0f;  // effective weight of the root joint (set by composition)
  int wraps = 0;                     // loop wraps this update

  // This update's walk over the clip (rule AN7), in "progress" coordinates v: v = t forward,
  // v = length - t backward, so backwards play walks markers like forward play.
  bool walk = false;
  bool forward = true;
  bool looped_walk = true;
  bool reached_end = false;
  double v0 = 0.0, v_end = 0.0, span = 0.0;
  float s_stop = -1.0f, s_end = -1.0f;           // step fractions of the end-of-clip stop and of kEnded
  bool report_stop = false, report_end = false;  // command events at the step start
  float end_time = 0.0f;                         // time position when kEnded happens
  // Event cursor.
  int phase = 0;
  long long lap = 0;
  int k = 0;
  int emitted = 0;
  bool has_peek = false;
  float peek_s = 0.0f;
  AnimEvent peek;
};

namespace animator_detail {

inline int rank(TrackPriority p) { return static_cast<int>(p); }

// Below this cos(swing / 2) (a tilt of the up axis past about 151 degrees: nearly upside down)
// the twist about up turns by up to 1 / cos(swing / 2) times any sideways lean: its heading is
// held instead (rule AN15).
inline constexpr float kHeadingMinUpright = 0.25f;

// An angle wrapped to (-pi, pi] (rule AN15: a yaw step is the short way round).
inline float wrap_angle(float a) {
  const float w = std::remainder(a, 2.0f * kPi);
  return w <= -kPi ? w + 2.0f * kPi : w;
}

// Yaw of a rotation (rule AN15): the angle of its twist about +Y in a swing-twist decomposition,
// which stays defined when the facing axis -Z points up or down (a prone swim, a dive), unlike
// the direction of -Z projected on the ground. Nearly upside down (a flip's top) the twist is
// ill-conditioned and `fallback` is returned.
inline float heading_yaw(const glm::quat& q, float fallback) {
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  const SwingTwist st = swing_twist(glm::normalize(q), up);
  if (!(st.swing.w >= kHeadingMinUpright)) return fallback;
  return wrap_angle(twist_angle(st.twist, up));
}

// Heading of a part placement (rule AN9): its yaw about +Y (heading_yaw, rule AN15; `fallback`
// when nearly upside down) and its horizontal position.
inline Transform heading(const Transform& p, float fallback = 0.0f) {
  const float yaw = heading_yaw(p.rotation, fallback);
  return Transform{glm::angleAxis(yaw, glm::vec3(0.0f, 1.0f, 0.0f)), glm::vec3(p.position.x, 0.0f, p.position.z)};
}

// Sets a linear fade from the current weight to `target` over `fade` seconds (rule AN2).
template <class T>
void set_fade(T& tr, float target, float fade) {
  tr.state.weight_target = target;
  const float diff = std::fabs(target - tr.state.weight_current);
  if (fade > 0.0f && diff > 0.0f) {
    tr.rate = diff / fade;
  } else {
    tr.rate = 0.0f;
    tr.state.weight_current = target;
  }
}

// Moves the weight toward its target for h seconds; returns the time at which it arrived, or
// -1 when it is still on its way (or was already there).
template <class T>
float advance_weight(T& tr, float h) {
  const float diff = tr.state.weight_target - tr.state.weight_current;
  if (diff == 0.0f) return -1.0f;
  const float step = tr.rate * h;
  // Arrival within 1e-6 of the target counts: a fade of f seconds in frames that add up to f
  // in float must end on its last frame (rule AN2), not leave a rounding residue.
  if (!(step + 1e-6f < std::fabs(diff))) {
    tr.state.weight_current = tr.state.weight_target;
    return tr.rate > 0.0f ? std::fabs(diff) / tr.rate : 0.0f;
  }
  tr.state.weight_current += diff > 0.0f ? step : -step;
  return -1.0f;
}

}  // namespace animator_detail
}  // namespace asterune
