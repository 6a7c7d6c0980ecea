// Distance matching of a graph Clip node (rules LO12-LO14): a start or stop clip whose time
// follows the distance the game's character travelled (or has left to travel), so its feet land
// where the game moves it instead of where the clip's clock would. The clip's cumulative root
// travel is sampled once at build; per frame the wanted time is a binary search in it.
#include <algorithm>
#include <cmath>

#include "anim/animator_track.hpp"
#include "asterune/rig/rig.hpp"
#include "graph/graph_tick.hpp"

namespace asterune::graph_detail {
namespace {

// 120 samples a second: finer than any capture's frames, so the curve's linear pieces follow the
// keys' own interpolation; a hard cap keeps a mistaken hour-long clip from exhausting memory.
constexpr float kSamplesPerSecond = 120.0f;
constexpr int kMaxSamples = 1 << 20;
// Below this a sample's step is rounding, not travel (0.12 mm/s at 120 samples a second): a
// standing root is an exact plateau, so its first instant is found (rule LO13).
constexpr float kStill = 1e-6f;

}  // namespace

float travel_at(const NodeDef& d, float t) {
  if (d.travel.empty()) return 0.0f;
  if (!(d.travel_dt > 0.0f) || !(t > 0.0f)) return d.travel.front();
  const float x = t / d.travel_dt;
  const size_t last = d.travel.size() - 1;
  if (x >= static_cast<float>(last)) return d.travel.back();
  const size_t k = static_cast<size_t>(x);
  const float f = x - static_cast<float>(k);
  return d.travel[k] + f * (d.travel[k + 1] - d.travel[k]);
}

// Rule LO13: the earliest time reaching `travelled`, so a plateau (the root standing still)
// resolves to its first instant whatever the float noise of the samples after it.
float time_at_travel(const NodeDef& d, float travelled, float ts, float te) {
  if (d.travel.empty() || !(d.travel_dt > 0.0f) || travelled <= travel_at(d, ts)) return ts;
  const auto it = std::lower_bound(d.travel.begin(), d.travel.end(), travelled);
  if (it == d.travel.end()) return te;
  const size_t k = static_cast<size_t>(it - d.travel.begin());
  if (k == 0) return ts;
  const float a = d.travel[k - 1], b = d.travel[k];
  const float f = b > a ? (travelled - a) / (b - a) : 0.0f;
  return std::clamp((static_cast<float>(k - 1) + f) * d.travel_dt, ts, te);
}

float distance_step(GraphInstance::Impl& impl, int node, const Ticker::Trim& t, float dt) {
  const NodeDef& d = impl.defs[static_cast<size_t>(node)];
  const NodeState& st = impl.state[static_cast<size_t>(node)];
  const float len = t.te - t.ts;
  if (!(len > 0.0f)) return 0.0f;
  const float want = impl.num(d.distance);
  if (!std::isfinite(want)) {  // rule LO14: ignored (the clip holds), reported
    ++impl.ignored_values;
    return 0.0f;
  }
  const float d0 = travel_at(d, t.ts), d1 = travel_at(d, t.te);
  const float span = d1 - d0;
  const float dist = std::max(want, 0.0f);
  const bool start = d.distance_matching == GraphDistanceMatching::kStart;
  const float target = start ? d0 + std::min(dist, span) : d1 - std::min(dist, span);
  const float u = (time_at_travel(d, target, t.ts, t.te) - t.ts) / len;
  float du = std::max(0.0f, u - st.phase);  // rule LO12: never backwards
  // Rule LO12: past what the distance can place (a start's whole travel done, a stop reached),
  // the clip plays on at its own rate (the start's last steps, the stop's settle).
  const bool free = start ? dist >= span : dist <= 0.0f;
  const float rate = std::abs(impl.num(d.speed));
  if (free && std::isfinite(rate) && dt > 0.0f) du = std::max(du, dt * rate / len);
  return du;
}

bool prepare_distance(GraphInstance::Impl& impl, const Rig& rig, std::string& error) {
  const size_t joints = static_cast<size_t>(impl.joints);
  std::vector<Transform> pose(joints);
  std::vector<float> cov(joints);
  for (size_t i = 0; i < impl.defs.size(); ++i) {
    NodeDef& d = impl.defs[i];
    if (d.type != GraphNodeType::kClip || d.distance_matching == GraphDistanceMatching::kNone) continue;
    const std::string who = "graph node '" + d.id + "' (#" + std::to_string(i) + ", Clip)";
    if (impl.root_joint < 0) {
      error = who + ": distance_matching needs the rig's root-motion joint (rule AN9), rig '" + rig.name() + "' has none";
      return false;
    }
    const float len = d.clip->duration;
    const int samples = std::clamp(static_cast<int>(std::ceil(len * kSamplesPerSecond)) + 1, 2, kMaxSamples);
    d.travel_dt = len / static_cast<float>(samples - 1);
    d.travel.assign(static_cast<size_t>(samples), 0.0f);
    const size_t r = static_cast<size_t>(impl.root_joint);
    AnimationContext& context = impl.contexts[static_cast<size_t>(d.context)];
    glm::vec2 last{0.0f};
    for (int k = 0; k < samples; ++k) {
      const float t = std::min(len, static_cast<float>(k) * d.travel_dt);
      if (!sample_animation(*d.clip, *d.binding, rig, t, WrapMode::kClamp, context, pose, cov)) {
        error = who + ": the clip could not be sampled for its travel";
        return false;
      }
      // The horizontal place root motion moves (rule AN9's heading), path length so it never falls.
      const Transform h = animator_detail::heading(rig.c0()[r] * pose[r] * rig.c1_inverse()[r]);
      const glm::vec2 p(h.position.x, h.position.z);
      const float moved = k > 0 ? glm::length(p - last) : 0.0f;
      if (k > 0) d.travel[static_cast<size_t>(k)] = d.travel[static_cast<size_t>(k - 1)] + (moved > kStill ? moved : 0.0f);
      if (k == 0 || moved > kStill) last = p;
    }
    context = make_animation_context(*d.binding);  // the build's samples leave no cursor behind
  }
  return true;
}

}  // namespace asterune::graph_detail
