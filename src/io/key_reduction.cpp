// Error-bounded key reduction (key_reduction.hpp, rule F7).
#include "asterune/io/key_reduction.hpp"

#include <algorithm>
#include <cmath>

namespace asterune::io {
namespace {

// The budget of every track's fit, as a fraction of the tolerance. Each fit is checked on the
// final state of its ancestors (parents are fitted first), so the budget is not split along a
// chain; it stays under the tolerance by the margin the final check needs (players that slerp
// exactly and the library's nlerp sampler, kNlerpMaxError, differ by a fraction of it).
constexpr float kBudget = 0.95f;
// Attempts: the budget is scaled down by this factor when the final check finds an error over
// the tolerance (not expected: every fit is checked on the final state of its part).
constexpr float kRetryScale = 0.8f;
constexpr int kAttempts = 4;
// Candidate next keys tried past the last one that held, before a span is closed.
constexpr int kLookahead = 12;

enum class Interp { kSampler, kSlerp };

Transform lerp_key(const Transform& a, const Transform& b, float alpha, Interp how = Interp::kSampler) {
  const glm::quat q = how == Interp::kSampler ? nlerp_or_slerp(a.rotation, b.rotation, alpha)
                                               : slerp_shortest(a.rotation, b.rotation, alpha);
  return Transform{q, a.position + (b.position - a.position) * alpha};
}

// Sample points: 2 * frames - 1, even = a frame, odd = the midpoint between two frames.
size_t sample_count(size_t frames) { return frames == 0 ? 0 : 2 * frames - 1; }

float sample_time(const KeyTracks& k, size_t s) {
  return (s % 2 == 0) ? k.times[s / 2] : 0.5f * (k.times[s / 2] + k.times[s / 2 + 1]);
}

// Playback weight of key b at sample s between keys a < b.
float key_alpha(const KeyTracks& k, size_t a, size_t b, size_t s) {
  return std::clamp((sample_time(k, s) - k.times[a]) / (k.times[b] - k.times[a]), 0.0f, 1.0f);
}

// The unreduced local at sample s (the two frames around a midpoint, interpolated halfway).
Transform full_local(const KeyTracks& k, size_t i, size_t s, Interp how = Interp::kSampler) {
  const size_t n = k.track_count();
  if (s % 2 == 0) return k.local[(s / 2) * n + i];
  return lerp_key(k.local[(s / 2) * n + i], k.local[(s / 2 + 1) * n + i], 0.5f, how);
}

Transform base_at(const KeyTracks& k, size_t s, Interp how = Interp::kSampler) {
  if (s % 2 == 0) return k.base[s / 2];
  return lerp_key(k.base[s / 2], k.base[s / 2 + 1], 0.5f, how);
}

// World placements of every track at every sample from per-sample locals.
void world_all(const KeyTracks& k, const std::vector<Transform>& local, std::vector<Transform>& world,
               Interp how = Interp::kSampler) {
  const size_t n = k.track_count();
  const size_t count = sample_count(k.times.size());
  world.resize(count * n);
  for (size_t s = 0; s < count; ++s) {
    const Transform base = base_at(k, s, how);
    for (size_t i = 0; i < n; ++i) {
      const int p = k.parent[i];
      const Transform& parent = p >= 0 ? world[s * n + static_cast<size_t>(p)] : base;
      world[s * n + i] = parent * k.pre[i] * local[s * n + i] * k.post[i];
    }
  }
}

// Track i's local at every sample played from keys (frame indices) and their values (empty:
// the frames' own locals).
std::vector<Transform> track_locals(const KeyTracks& k, size_t i, const std::vector<int>& keys,
                                    const std::vector<Transform>& values, Interp how) {
  const size_t n = k.track_count();
  const size_t count = sample_count(k.times.size());
  const bool own = values.size() == keys.size();
  auto value = [&](size_t m) { return own ? values[m] : k.local[static_cast<size_t>(keys[m]) * n + i]; };
  std::vector<Transform> local(count);
  size_t seg = 0;
  for (size_t s = 0; s < count; ++s) {
    // The segment [keys[seg], keys[seg + 1]] holding s (the last segment holds the last frame).
    while (seg + 2 < keys.size() && static_cast<size_t>(keys[seg + 1]) * 2 <= s) ++seg;
    if (seg + 1 >= keys.size()) {
      local[s] = value(seg);
      continue;
    }
    const auto a = static_cast<size_t>(keys[seg]), b = static_cast<size_t>(keys[seg + 1]);
    local[s] = lerp_key(value(seg), value(seg + 1), key_alpha(k, a, b, s), how);
  }
  return local;
}

std::vector<Transform> locals_from_keys(const KeyTracks& k, const std::vector<std::vector<int>>& keys,
                                        const std::vector<std::vector<Transform>>& values, Interp how) {
  const size_t n = k.track_count();
  const size_t count = sample_count(k.times.size());
  std::vector<Transform> local(count * n);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<Transform> none;
    const std::vector<Transform> t = track_locals(k, i, keys[i], values.size() == n ? values[i] : none, how);
    for (size_t s = 0; s < count; ++s) local[s * n + i] = t[s];
  }
  return local;
}

float error_with(const KeyTracks& k, const std::vector<std::vector<int>>& keys,
                 const std::vector<std::vector<Transform>>& values, Interp how) {
  const size_t n = k.track_count();
  const size_t count = sample_count(k.times.size());
  std::vector<Transform> full(count * n), ref, got;
  for (size_t s = 0; s < count; ++s)
    for (size_t i = 0; i < n; ++i) full[s * n + i] = full_local(k, i, s, how);
  world_all(k, full, ref, how);
  world_all(k, locals_from_keys(k, keys, values, how), got, how);
  float worst = 0.0f;
  for (size_t x = 0; x < ref.size(); ++x) worst = std::max(worst, glm::length(ref[x].position - got[x].position));
  return worst;
}

glm::vec4 as_vec(const glm::quat& q) { return glm::vec4(q.x, q.y, q.z, q.w); }
glm::quat as_quat(const glm::vec4& v) {
  const float len = glm::length(v);
  if (!(len > 1e-12f)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  return glm::quat(v.w / len, v.x / len, v.y / len, v.z / len);
}

// One track's fit (see reduce_keys): the targets it follows and the state it is checked on.
struct TrackFit {
  const KeyTracks& k;
  size_t track;
  const std::vector<size_t>& sub;          // the track's subtree, the track first
  const std::vector<int>& sub_parent;      // per subtree entry: its parent's subtree index (-1: the track's parent)
  const std::vector<Transform>& full;      // unreduced locals per sample
  const std::vector<Transform>& ref;       // unreduced worlds per sample
  const std::vector<Transform>& world;     // current worlds (the track's ancestors final)
  std::vector<glm::vec4> target_q;         // per sample, one hemisphere along time
  std::vector<glm::vec3> target_p;
  bool fixed_position = false;             // the unreduced track never translates: keep its position
  glm::vec3 position{0.0f};
  std::vector<Transform> scratch;

  Transform parent_world(size_t s) const {
    const int p = k.parent[track];
    return p >= 0 ? world[s * k.track_count() + static_cast<size_t>(p)] : base_at(k, s);
  }

  void make_targets() {
    const size_t n = k.track_count();
    const size_t count = sample_count(k.times.size());
    // The local that puts the track's part exactly where the unreduced export has it, given the
    // (reduced) parent: a fit toward it corrects the ancestors' errors instead of adding to them.
    target_q.resize(count);
    target_p.resize(count);
    fixed_position = true;
    position = k.local[track].position;
    for (size_t f = 0; f < k.times.size(); ++f)
      if (k.local[f * n + track].position != position) fixed_position = false;
    for (size_t s = 0; s < count; ++s) {
      const Transform t = inverse(parent_world(s) * k.pre[track]) * ref[s * n + track] * inverse(k.post[track]);
      glm::vec4 q = as_vec(glm::normalize(t.rotation));
      if (s > 0 && glm::dot(q, target_q[s - 1]) < 0.0f) q = -q;
      target_q[s] = q;
      target_p[s] = t.position;
    }
  }

  Transform value_of(const glm::vec4& q, const glm::vec3& p) const {
    return Transform{as_quat(q), fixed_position ? position : p};
  }

  // Largest world position error over the subtree for samples [s0, s1] with the track played
  // from keys (a, A) and (b, B), or a = b (held); stops once over `budget`.
  float span_error(size_t a, const Transform& A, size_t b, const Transform& B, size_t s0, size_t s1, float budget) {
    const size_t n = k.track_count();
    scratch.resize(sub.size());
    float worst = 0.0f;
    for (size_t s = s0; s <= s1; ++s) {
      const Transform l = a == b ? A : lerp_key(A, B, key_alpha(k, a, b, s));
      for (size_t m = 0; m < sub.size(); ++m) {
        const size_t d = sub[m];
        const Transform parent = m == 0 ? parent_world(s) : scratch[static_cast<size_t>(sub_parent[m])];
        const Transform& local = m == 0 ? l : full[s * n + d];
        scratch[m] = parent * k.pre[d] * local * k.post[d];
        worst = std::max(worst, glm::length(scratch[m].position - ref[s * n + d].position));
        if (worst > budget) return worst;
      }
    }
    return worst;
  }

  // Least-squares value of key b given key (a, A): the one that best follows the targets over
  // the samples (2a, 2b] played linearly from A.
  Transform fit_end(size_t a, const Transform& A, size_t b) const {
    glm::vec4 qa = as_vec(A.rotation);
    if (glm::dot(qa, target_q[2 * a]) < 0.0f) qa = -qa;
    glm::vec4 num_q(0.0f);
    glm::vec3 num_p(0.0f);
    float den = 0.0f;
    for (size_t s = 2 * a + 1; s <= 2 * b; ++s) {
      const float u = key_alpha(k, a, b, s);
      num_q += u * (target_q[s] - (1.0f - u) * qa);
      num_p += u * (target_p[s] - (1.0f - u) * A.position);
      den += u * u;
    }
    return value_of(num_q / den, num_p / den);
  }

  // Least-squares values of every key at once (keys fixed): the tridiagonal normal equations of
  // the piecewise-linear fit, per component.
  std::vector<Transform> refit(const std::vector<int>& keys) const {
    const size_t m = keys.size();
    std::vector<float> diag(m, 0.0f), off(m, 0.0f);  // off[j]: between j and j + 1
    std::vector<glm::vec4> rq(m, glm::vec4(0.0f));
    std::vector<glm::vec3> rp(m, glm::vec3(0.0f));
    for (size_t j = 0; j + 1 < m; ++j) {
      const auto a = static_cast<size_t>(keys[j]), b = static_cast<size_t>(keys[j + 1]);
      for (size_t s = 2 * a + (j == 0 ? 0 : 1); s <= 2 * b; ++s) {
        const float u = key_alpha(k, a, b, s), w = 1.0f - u;
        diag[j] += w * w;
        diag[j + 1] += u * u;
        off[j] += u * w;
        rq[j] += w * target_q[s];
        rq[j + 1] += u * target_q[s];
        rp[j] += w * target_p[s];
        rp[j + 1] += u * target_p[s];
      }
    }
    if (m == 1) {
      diag[0] = 1.0f;
      rq[0] = target_q[0];
      rp[0] = target_p[0];
    }
    // Thomas algorithm (the system is symmetric positive definite).
    for (size_t j = 1; j < m; ++j) {
      const float f = off[j - 1] / diag[j - 1];
      diag[j] -= f * off[j - 1];
      rq[j] -= f * rq[j - 1];
      rp[j] -= f * rp[j - 1];
    }
    std::vector<glm::vec4> xq(m);
    std::vector<glm::vec3> xp(m);
    for (size_t j = m; j-- > 0;) {
      xq[j] = (rq[j] - (j + 1 < m ? off[j] * xq[j + 1] : glm::vec4(0.0f))) / diag[j];
      xp[j] = (rp[j] - (j + 1 < m ? off[j] * xp[j + 1] : glm::vec3(0.0f))) / diag[j];
    }
    std::vector<Transform> out(m);
    for (size_t j = 0; j < m; ++j) out[j] = value_of(xq[j], xp[j]);
    return out;
  }

  float keys_error(const std::vector<int>& keys, const std::vector<Transform>& values, float budget) {
    float worst = span_error(0, values[0], 0, values[0], 0, 0, budget);
    for (size_t j = 0; j + 1 < keys.size() && worst <= budget; ++j) {
      const auto a = static_cast<size_t>(keys[j]), b = static_cast<size_t>(keys[j + 1]);
      worst = std::max(worst, span_error(a, values[j], b, values[j + 1], 2 * a + 1, 2 * b, budget));
    }
    return worst;
  }

  // Greedy: from each key, the farthest next key whose least-squares value keeps the span within
  // the budget; then one joint least-squares refit of all values, kept when it holds too.
  void fit(float budget, std::vector<int>& keys, std::vector<Transform>& values) {
    const size_t frames = k.times.size();
    keys.assign(1, 0);
    values.assign(1, value_of(target_q[0], target_p[0]));
    if (span_error(0, values[0], 0, values[0], 0, 0, budget) > budget) values[0] = k.local[track];
    size_t a = 0;
    while (a + 1 < frames) {
      size_t best = a + 1;
      Transform best_value = k.local[(a + 1) * k.track_count() + track];
      int misses = 0;
      for (size_t b = a + 1; b < frames && misses < kLookahead; ++b) {
        if (a == 0) {  // the first span fits both its keys
          const std::vector<Transform> two = refit({0, static_cast<int>(b)});
          if (span_error(0, two[0], b, two[1], 0, 2 * b, budget) <= budget) {
            values[0] = two[0];
            best = b;
            best_value = two[1];
            misses = 0;
          } else {
            ++misses;
          }
          continue;
        }
        const Transform B = fit_end(a, values.back(), b);
        if (span_error(a, values.back(), b, B, 2 * a + 1, 2 * b, budget) <= budget) {
          best = b;
          best_value = B;
          misses = 0;
        } else {
          ++misses;
        }
      }
      keys.push_back(static_cast<int>(best));
      values.push_back(best_value);
      a = best;
    }
    std::vector<Transform> joint = refit(keys);
    if (keys_error(keys, joint, budget) <= budget) values = std::move(joint);
  }
};

}  // namespace

float key_reduction_error(const KeyTracks& k, const std::vector<std::vector<int>>& keys,
                          const std::vector<std::vector<Transform>>& values) {
  if (k.times.empty() || keys.size() != k.track_count()) return 0.0f;
  for (const auto& kk : keys)
    if (kk.empty()) return 0.0f;
  return std::max(error_with(k, keys, values, Interp::kSampler), error_with(k, keys, values, Interp::kSlerp));
}

namespace {

// One attempt at the budgets scaled by `scale`: every track fitted once, parents first.
KeyReduction reduce_at(const KeyTracks& k, float tolerance, float scale) {
  const size_t n = k.track_count();
  const size_t frames = k.times.size();
  const size_t count = sample_count(frames);
  KeyReduction out;
  out.keys.resize(n);
  out.values.resize(n);
  out.keys_before = n * frames;
  std::vector<Transform> full(count * n), ref, world;
  for (size_t s = 0; s < count; ++s)
    for (size_t i = 0; i < n; ++i) full[s * n + i] = full_local(k, i, s);
  world_all(k, full, ref);
  world = ref;
  for (size_t i = 0; i < n; ++i) {
    // The subtree (parents first: a descendant comes after its ancestor), with parent indices.
    std::vector<size_t> sub{i};
    std::vector<int> sub_parent{-1};
    for (size_t d = i + 1; d < n; ++d) {
      const auto it = std::find(sub.begin(), sub.end(), static_cast<size_t>(std::max(k.parent[d], 0)));
      if (k.parent[d] < 0 || it == sub.end()) continue;
      sub_parent.push_back(static_cast<int>(it - sub.begin()));
      sub.push_back(d);
    }
    TrackFit fit{k, i, sub, sub_parent, full, ref, world, {}, {}, false, glm::vec3(0.0f), {}};
    fit.make_targets();
    fit.fit(kBudget * scale * tolerance, out.keys[i], out.values[i]);
    // The track's new playback: its subtree's worlds (descendants still unreduced).
    const std::vector<Transform> local = track_locals(k, i, out.keys[i], out.values[i], Interp::kSampler);
    for (size_t s = 0; s < count; ++s)
      for (size_t m = 0; m < sub.size(); ++m) {
        const size_t d = sub[m];
        const Transform parent = m == 0 ? fit.parent_world(s) : world[s * n + sub[static_cast<size_t>(sub_parent[m])]];
        world[s * n + d] = parent * k.pre[d] * (m == 0 ? local[s] : full[s * n + d]) * k.post[d];
      }
  }
  for (const auto& kk : out.keys) out.keys_after += kk.size();
  out.max_error = key_reduction_error(k, out.keys, out.values);
  return out;
}

}  // namespace

KeyReduction reduce_keys(const KeyTracks& k, float tolerance) {
  const size_t n = k.track_count();
  const size_t frames = k.times.size();
  if (frames == 0 || n == 0 || !(tolerance > 0.0f)) {
    KeyReduction all;
    all.keys_before = all.keys_after = n * frames;
    all.keys.resize(n);
    all.values.resize(n);
    for (size_t i = 0; i < n; ++i)
      for (size_t f = 0; f < frames; ++f) {
        all.keys[i].push_back(static_cast<int>(f));
        all.values[i].push_back(k.local[f * n + i]);
      }
    return all;
  }
  float scale = 1.0f;
  for (int attempt = 0; attempt < kAttempts; ++attempt, scale *= kRetryScale) {
    KeyReduction r = reduce_at(k, tolerance, scale);
    if (r.max_error <= tolerance) return r;
  }
  // Never expected: the unreduced export, which holds any tolerance.
  return reduce_keys(k, 0.0f);
}

KeyTracks keyframe_sequence_tracks(const Rig& rig, std::span<const FrameRecord> frames) {
  const auto n = static_cast<size_t>(rig.joint_count());
  KeyTracks k;
  k.parent.assign(rig.parents().begin(), rig.parents().end());
  for (size_t j = 0; j < n; ++j) {
    k.pre.push_back(k.parent[j] >= 0 ? rig.c0()[j] : rig.anchor()[j] * rig.c0()[j]);
    k.post.push_back(rig.c1_inverse()[j]);
  }
  for (const FrameRecord& r : frames) {
    k.times.push_back(r.time);
    k.base.push_back(Transform::identity());
    k.local.insert(k.local.end(), r.local.begin(), r.local.begin() + static_cast<long>(std::min(n, r.local.size())));
    k.local.resize(k.times.size() * n, Transform::identity());
  }
  return k;
}

KeyTracks gltf_node_tracks(const Rig& rig, std::span<const FrameRecord> frames) {
  const auto nj = static_cast<size_t>(rig.joint_count());
  KeyTracks k;
  k.parent.push_back(-1);
  for (size_t j = 0; j < nj; ++j) {
    const int pj = rig.parent(static_cast<int>(j));
    k.parent.push_back(pj >= 0 ? 1 + pj : 0);
  }
  k.pre.assign(nj + 1, Transform::identity());
  k.post.assign(nj + 1, Transform::identity());
  std::vector<Transform> world(nj + 1);
  for (const FrameRecord& r : frames) {
    k.times.push_back(r.time);
    k.base.push_back(Transform::identity());
    world[0] = r.root;
    for (size_t j = 0; j < nj; ++j) world[j + 1] = j < r.world.size() ? r.world[j] : Transform::identity();
    for (size_t i = 0; i <= nj; ++i) {
      const int p = k.parent[i];
      k.local.push_back(p >= 0 ? inverse(world[static_cast<size_t>(p)]) * world[i] : world[i]);
    }
  }
  return k;
}

}  // namespace asterune::io
