// The animator's motion steps: sampling the tracks with the root-motion heading (rule AN9),
// the inertial transition's offsets (rule AN8) and the root-motion delta (rule AN9).
#include <algorithm>
#include <cmath>

#include "anim/animator_track.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {

using animator_detail::heading;

namespace {

// Whole loops a root-motion delta walks in one update (rule AN9); more are not added.
constexpr int kMaxRootLoops = 1024;

float yaw_of(const glm::quat& q) { return 2.0f * std::atan2(q.y, q.w); }

// Bollo's inertialization quintic x(t) (GDC 2018) with x(t1) = x'(t1) = x''(t1) = 0.
float decay_value(float x0, float v0, float a0, float a, float b, float c, float t1, float t) {
  if (!(t < t1)) return 0.0f;
  return ((((a * t + b) * t + c) * t + 0.5f * a0) * t + v0) * t + x0;
}

}  // namespace

bool Animator::sample_tracks(const Rig& rig) {
  // Step 3. Sample the tracks that contribute (rule AN4: a weight of 0 claims nothing).
  bool any_root = false;
  for (Track& tr : tracks_) {
    tr.sampled = false;
    tr.root_weight = 0.0f;
    tr.root_step = Transform::identity();
    if (tr.state.weight_current == 0.0f || !std::isfinite(tr.state.weight_current)) {
      tr.heading_valid = false;
      continue;
    }
    if (tr.desc.source) {  // rules GR15, AN12: the source keeps its root in place itself
      tr.sampled = sample_source(rig, tr);
      any_root = any_root || (tr.sampled && tr.desc.root_motion);
      continue;
    }
    tr.sampled = sample_animation(*tr.desc.clip, *tr.desc.binding, rig, tr.state.time_position,
                                  tr.desc.looped ? WrapMode::kLoop : WrapMode::kClamp, tr.context, tr.local, tr.coverage);
    if (!tr.sampled) {
      tr.heading_valid = false;
      continue;
    }
    if (tr.desc.additive) continue;
    if (tr.desc.root_motion && root_joint_ >= 0) {
      // Rule AN9: this step's heading change, then the pose keeps the clip-start heading.
      any_root = true;
      const auto r = static_cast<size_t>(root_joint_);
      const Transform part = rig.c0()[r] * tr.local[r] * rig.c1_inverse()[r];
      // Nearly upside down the previous heading is kept (rule AN15).
      const Transform h = heading(part, yaw_of((tr.heading_valid ? tr.heading_prev : tr.heading_start).rotation));
      if (tr.heading_valid) {
        Transform walk = inverse(tr.heading_prev);
        if (tr.wraps > 0) {
          const Transform& first = tr.forward ? tr.heading_end : tr.heading_start;
          const Transform& second = tr.forward ? tr.heading_start : tr.heading_end;
          const Transform loop = inverse(second) * first;
          walk = walk * first;
          for (int w = 1; w < std::min(tr.wraps, kMaxRootLoops); ++w) walk = walk * loop;
          walk = walk * inverse(second);
        }
        tr.root_step = tr.heading_start * (walk * h) * inverse(tr.heading_start);
      }
      tr.heading_prev = h;
      tr.heading_valid = true;
      const Transform kept = tr.heading_start * inverse(h) * part;
      tr.local[r] = inverse(rig.c0()[r]) * kept * rig.c1()[r];
    } else {
      tr.heading_valid = false;
    }
  }
  return any_root;
}

void Animator::decay_coefficients(Decay& d) {
  const float x0 = d.x0, v0 = d.v0, t1 = d.t1;
  if (!(t1 > 0.0f) || !(x0 > 0.0f)) {
    d.t1 = 0.0f;
    return;
  }
  const float t2 = t1 * t1, t3 = t2 * t1;
  d.a0 = (-8.0f * v0 * t1 - 20.0f * x0) / t2;
  d.a = -(d.a0 * t2 + 6.0f * v0 * t1 + 12.0f * x0) / (2.0f * t3 * t2);
  d.b = (3.0f * d.a0 * t2 + 16.0f * v0 * t1 + 30.0f * x0) / (2.0f * t2 * t2);
  d.c = -(3.0f * d.a0 * t2 + 12.0f * v0 * t1 + 20.0f * x0) / (2.0f * t3);
}

void Animator::capture_inertial(std::span<const Transform> local) {
  // Step 6a. Inertial transition (rule AN8): capture the jump once (the first update after an
  // inertial play()), as one decaying offset per joint.
  const auto n = static_cast<size_t>(joint_count_);
  if (inertial_pending_) {
    inertial_pending_ = false;
    if (has_last_ && inertial_time_ > 0.0f) {
      inertial_active_ = true;
      inertial_elapsed_ = 0.0f;
      const bool velocity = has_prev_ && last_dt_ > 0.0f;
      const auto setup = [&](Decay& d, float x0, float x_prev) {
        float v0 = velocity ? (x0 - x_prev) / last_dt_ : 0.0f;
        if (!std::isfinite(v0) || v0 > 0.0f) v0 = 0.0f;  // moving away: not carried (no overshoot)
        float t1 = inertial_time_;
        if (v0 < 0.0f) t1 = std::min(t1, -5.0f * x0 / v0);
        d.x0 = x0;
        d.v0 = v0;
        d.t1 = t1;
        decay_coefficients(d);
      };
      for (size_t j = 0; j < n; ++j) {
        // Rotation: the offset turn last * conj(new) as an angle about a fixed axis.
        glm::quat off = last_out_[j].rotation * glm::conjugate(local[j].rotation);
        if (off.w < 0.0f) off = -off;
        const glm::vec3 v(off.x, off.y, off.z);
        const float sin_half = glm::length(v);
        Decay& dr = decay_rotation_[j];
        dr = Decay{};
        if (sin_half > 1e-7f && is_finite(off)) {
          dr.axis = v / sin_half;
          const float x0 = 2.0f * std::atan2(sin_half, off.w);
          glm::quat prev = prev_out_[j].rotation * glm::conjugate(local[j].rotation);
          if (glm::dot(prev, off) < 0.0f) prev = -prev;
          const float x_prev = 2.0f * std::atan2(glm::dot(glm::vec3(prev.x, prev.y, prev.z), dr.axis), prev.w);
          setup(dr, x0, x_prev);
        }
        // Position: the offset vector along its direction.
        const glm::vec3 dp = last_out_[j].position - local[j].position;
        const float len = glm::length(dp);
        Decay& dq = decay_position_[j];
        dq = Decay{};
        if (len > 1e-7f && std::isfinite(len)) {
          dq.axis = dp / len;
          setup(dq, len, glm::dot(prev_out_[j].position - local[j].position, dq.axis));
        }
      }
    }
  }
}

void Animator::decay_inertial(std::span<Transform> local, float dt, bool advance) {
  // Step 6b. The captured offsets, decayed to this update's time, added to the pose.
  const auto n = static_cast<size_t>(joint_count_);
  if (inertial_active_) {
    if (advance) inertial_elapsed_ += dt;
    const float t = inertial_elapsed_;
    bool any = false;
    for (size_t j = 0; j < n; ++j) {
      const Decay& dr = decay_rotation_[j];
      if (t < dr.t1) {
        any = true;
        const float x = decay_value(dr.x0, dr.v0, dr.a0, dr.a, dr.b, dr.c, dr.t1, t);
        local[j].rotation = glm::normalize(glm::angleAxis(x, dr.axis) * local[j].rotation);
      }
      const Decay& dq = decay_position_[j];
      if (t < dq.t1) {
        any = true;
        local[j].position += dq.axis * decay_value(dq.x0, dq.v0, dq.a0, dq.a, dq.b, dq.c, dq.t1, t);
      }
    }
    if (!any) inertial_active_ = false;
  }
}

Transform Animator::root_delta() const {
  // Step 7. Root motion (rule AN9): each track's step blended by its root joint's effective weight.
  float yaw = 0.0f;
  glm::vec3 travel(0.0f);
  for (const Track& tr : tracks_) {
    if (!tr.sampled || !tr.desc.root_motion || tr.root_weight == 0.0f) continue;
    // Rule AN15: the step's turn the short way round, then weighted (170 to 190 degrees is +20).
    yaw += tr.root_weight * animator_detail::wrap_angle(yaw_of(tr.root_step.rotation));
    travel += tr.root_weight * tr.root_step.position;
  }
  return Transform{glm::angleAxis(yaw, glm::vec3(0.0f, 1.0f, 0.0f)), travel};
}

}  // namespace asterune
