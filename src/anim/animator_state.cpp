// The animator's snapshot and restore (rule AN14): one walk over what the next update reads
// (per track its state, fade and pending events, a clip track's root-motion heading; each pose
// source's own state; the last two outputs and the inertial transition). Samples, claims and
// the step's walk are recomputed by every update and are not stored; an inertial offset keeps
// only its axis, start value, start velocity and length, its quintic is derived again.
#include <cstring>

#include "anim/animator_track.hpp"
#include "core/state_archive.hpp"

namespace asterune {

namespace {

struct Header {
  std::uint64_t signature;
  std::uint64_t size;
};

}  // namespace

template <class Archive>
void Animator::state_layout(Archive& ar) {
  const auto n = static_cast<size_t>(joint_count_);
  for (Track& tr : tracks_) {
    ar.flag(tr.state.playing);
    ar.field(tr.state.weight_current);
    ar.field(tr.state.weight_target);
    ar.field(tr.state.time_position);
    ar.field(tr.state.speed);
    ar.field(tr.rate);
    ar.field(tr.end_fade);
    ar.flag(tr.ending);
    ar.flag(tr.stop_pending);
    if (tr.desc.root_motion && !tr.desc.source) {
      ar.flag(tr.heading_valid);
      ar.field(tr.heading_prev);
    }
    if (tr.desc.source) {
      const std::size_t bytes = tr.desc.source->state_size();
      if (ar.mode == detail::StateMode::kWrite)
        tr.desc.source->save_state(std::span<std::byte>(ar.out + ar.at, bytes));
      else if (ar.mode == detail::StateMode::kRead)
        tr.desc.source->load_state(std::span<const std::byte>(ar.in + ar.at, bytes));
      ar.at += bytes;
    }
  }
  ar.flag(has_last_);
  ar.flag(has_prev_);
  ar.field(last_dt_);
  ar.array(last_out_.data(), n);
  ar.array(prev_out_.data(), n);
  ar.flag(inertial_pending_);
  ar.flag(inertial_active_);
  ar.field(inertial_time_);
  ar.field(inertial_elapsed_);
  if (!inertial_active_ && !ar.reading()) {
    // No transition running: the offsets are never read again (a capture rewrites them).
    std::byte zero[6 * sizeof(float)] = {};
    for (size_t j = 0; j < 2 * n; ++j) ar.bytes(zero, sizeof zero);
    return;
  }
  for (std::vector<Decay>* decays : {&decay_rotation_, &decay_position_})
    for (Decay& d : *decays) {
      ar.field(d.axis);
      ar.field(d.x0);
      ar.field(d.v0);
      ar.field(d.t1);
      if (ar.reading()) decay_coefficients(d);
    }
}

std::uint64_t Animator::state_signature() const {
  std::uint64_t s = rig_signature_ ^ 0x9e3779b97f4a7c15ull;
  auto mix = [&](std::uint64_t v) { s = (s ^ v) * 0x100000001b3ull; };
  mix(tracks_.size());
  for (const Track& tr : tracks_) {
    mix((tr.desc.source ? 1u : 0u) | (tr.desc.root_motion ? 2u : 0u));
    if (tr.desc.source) mix(tr.desc.source->state_size());
  }
  return s;
}

std::size_t Animator::snapshot_size() const {
  detail::StateArchive ar;
  ar.at = sizeof(Header);
  const_cast<Animator*>(this)->state_layout(ar);  // sizing reads nothing, writes nothing
  return ar.at;
}

bool Animator::snapshot(std::span<std::byte> out) const {
  const std::size_t size = snapshot_size();
  if (out.size() < size) return false;
  const Header h{state_signature(), size};
  std::memcpy(out.data(), &h, sizeof h);
  detail::StateArchive ar{detail::StateMode::kWrite, out.data(), nullptr, sizeof h};
  const_cast<Animator*>(this)->state_layout(ar);  // writing copies out of the fields only
  return true;
}

bool Animator::restore(std::span<const std::byte> in) {
  const std::size_t size = snapshot_size();
  if (in.size() < size) return false;
  Header h{};
  std::memcpy(&h, in.data(), sizeof h);
  if (h.signature != state_signature() || h.size != size) return false;
  detail::StateArchive ar{detail::StateMode::kRead, nullptr, in.data(), sizeof h};
  state_layout(ar);
  return true;
}

}  // namespace asterune
