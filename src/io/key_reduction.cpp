// Error-bounded key reduction (key_reduction.hpp, rule F7).
#include "asterune/io/key_reduction.hpp"

#include <algorithm>
#include <cmath>

namespace asterune::io {
namespace {

// Budgets of the passes, as fractions of the tolerance. The last stays 10% under it: players
// that slerp (Roblox, glTF viewers) and the library's sampler (normalized lerp for keys under
// 20 degrees apart, kNlerpMaxError) differ by a fraction of that margin.
constexpr float kPassBudgets[] = {0.25f, 0.5f, 0.75f, 0.9f};

Transform lerp_key(const Transform& a, const Transform& b, float alpha) {
  return Transform{nlerp_or_slerp(a.rotation, b.rotation, alpha), a.position + (b.position - a.position) * alpha};
}

// Sample points: 2 * frames - 1, even = a frame, odd = the midpoint between two frames.
struct Samples {
  size_t frames = 0;
  size_t count() const { return frames == 0 ? 0 : 2 * frames - 1; }
};

// Track i's local at sample s when it keeps key frames a <= s/2 <= b (a, b kept, a < b or equal).
Transform reduced_local(const KeyTracks& k, size_t i, size_t a, size_t b, size_t s) {
  const size_t n = k.track_count();
  const Transform& A = k.local[a * n + i];
  if (a == b) return A;
  const Transform& B = k.local[b * n + i];
  const float t = (s % 2 == 0) ? k.times[s / 2] : 0.5f * (k.times[s / 2] + k.times[s / 2 + 1]);
  const float alpha = std::clamp((t - k.times[a]) / (k.times[b] - k.times[a]), 0.0f, 1.0f);
  return lerp_key(A, B, alpha);
}

// The unreduced local at sample s (the two frames around a midpoint, interpolated halfway).
Transform full_local(const KeyTracks& k, size_t i, size_t s) {
  const size_t n = k.track_count();
  if (s % 2 == 0) return k.local[(s / 2) * n + i];
  return lerp_key(k.local[(s / 2) * n + i], k.local[(s / 2 + 1) * n + i], 0.5f);
}

Transform base_at(const KeyTracks& k, size_t s) {
  if (s % 2 == 0) return k.base[s / 2];
  return lerp_key(k.base[s / 2], k.base[s / 2 + 1], 0.5f);
}

// World placements of every track at every sample from per-sample locals.
void world_all(const KeyTracks& k, const std::vector<Transform>& local, std::vector<Transform>& world) {
  const size_t n = k.track_count();
  const size_t count = Samples{k.times.size()}.count();
  world.resize(count * n);
  for (size_t s = 0; s < count; ++s) {
    const Transform base = base_at(k, s);
    for (size_t i = 0; i < n; ++i) {
      const int p = k.parent[i];
      const Transform& parent = p >= 0 ? world[s * n + static_cast<size_t>(p)] : base;
      world[s * n + i] = parent * k.pre[i] * local[s * n + i] * k.post[i];
    }
  }
}

std::vector<Transform> locals_from_keys(const KeyTracks& k, const std::vector<std::vector<int>>& keys) {
  const size_t n = k.track_count();
  const size_t count = Samples{k.times.size()}.count();
  std::vector<Transform> local(count * n);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<int>& kk = keys[i];
    size_t seg = 0;
    for (size_t s = 0; s < count; ++s) {
      // The segment [kk[seg], kk[seg + 1]] holding s (the last segment holds the last frame).
      while (seg + 2 < kk.size() && static_cast<size_t>(kk[seg + 1]) * 2 <= s) ++seg;
      const auto a = static_cast<size_t>(kk[seg]);
      const auto b = seg + 1 < kk.size() ? static_cast<size_t>(kk[seg + 1]) : a;
      local[s * n + i] = reduced_local(k, i, a, b, s);
    }
  }
  return local;
}

}  // namespace

float key_reduction_error(const KeyTracks& k, const std::vector<std::vector<int>>& keys) {
  const size_t n = k.track_count();
  const size_t count = Samples{k.times.size()}.count();
  if (count == 0 || keys.size() != n) return 0.0f;
  std::vector<Transform> full(count * n), ref, got;
  for (size_t s = 0; s < count; ++s)
    for (size_t i = 0; i < n; ++i) full[s * n + i] = full_local(k, i, s);
  world_all(k, full, ref);
  world_all(k, locals_from_keys(k, keys), got);
  float worst = 0.0f;
  for (size_t x = 0; x < ref.size(); ++x) worst = std::max(worst, glm::length(ref[x].position - got[x].position));
  return worst;
}

KeyReduction reduce_keys(const KeyTracks& k, float tolerance) {
  const size_t n = k.track_count();
  const size_t frames = k.times.size();
  const size_t count = Samples{frames}.count();
  KeyReduction out;
  out.keys.resize(n);
  out.keys_before = n * frames;
  std::vector<std::vector<unsigned char>> kept(n, std::vector<unsigned char>(frames, 1));
  if (frames > 0) {
    // The unreduced playback, and the current (reduced) locals and worlds.
    std::vector<Transform> local(count * n), ref, world;
    for (size_t s = 0; s < count; ++s)
      for (size_t i = 0; i < n; ++i) local[s * n + i] = full_local(k, i, s);
    world_all(k, local, ref);
    world = ref;
    // Subtrees (parents first: a descendant comes after its ancestor).
    std::vector<std::vector<size_t>> subtree(n);
    for (size_t i = 0; i < n; ++i)
      for (size_t d = i; d < n; ++d) {
        int a = static_cast<int>(d);
        while (a >= 0 && static_cast<size_t>(a) != i) a = k.parent[static_cast<size_t>(a)];
        if (a >= 0) subtree[i].push_back(d);
      }
    std::vector<Transform> cand_local, cand_world;
    for (float fraction : kPassBudgets) {
      const float budget = fraction * tolerance;
      for (size_t i = 0; i < n; ++i) {
        const std::vector<size_t>& sub = subtree[i];
        size_t prev = 0;  // the last kept key before the candidate
        for (size_t f = 1; f + 1 < frames; ++f) {
          if (!kept[i][f]) continue;
          size_t next = f + 1;
          while (!kept[i][next]) ++next;
          // Samples strictly between prev and next change: check them for the whole subtree.
          const size_t s0 = 2 * prev + 1, s1 = 2 * next;  // [s0, s1)
          const size_t span = s1 - s0;
          cand_local.resize(span);
          cand_world.resize(span * sub.size());
          bool ok = true;
          for (size_t s = s0; s < s1 && ok; ++s) {
            const size_t r = s - s0;
            cand_local[r] = reduced_local(k, i, prev, next, s);
            for (size_t m = 0; m < sub.size() && ok; ++m) {
              const size_t d = sub[m];
              const int p = k.parent[d];
              Transform parent;
              if (m == 0) {
                parent = p >= 0 ? world[s * n + static_cast<size_t>(p)] : base_at(k, s);
              } else {
                // The parent is in the subtree (listed before d).
                const auto it = std::find(sub.begin(), sub.begin() + static_cast<long>(m), static_cast<size_t>(p));
                parent = cand_world[r * sub.size() + static_cast<size_t>(it - sub.begin())];
              }
              const Transform& l = m == 0 ? cand_local[r] : local[s * n + d];
              const Transform w = parent * k.pre[d] * l * k.post[d];
              cand_world[r * sub.size() + m] = w;
              ok = glm::length(w.position - ref[s * n + d].position) <= budget;
            }
          }
          if (!ok) {
            prev = f;
            continue;
          }
          kept[i][f] = 0;
          for (size_t s = s0; s < s1; ++s) {
            const size_t r = s - s0;
            local[s * n + i] = cand_local[r];
            for (size_t m = 0; m < sub.size(); ++m) world[s * n + sub[m]] = cand_world[r * sub.size() + m];
          }
        }
      }
    }
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t f = 0; f < frames; ++f)
      if (kept[i][f]) out.keys[i].push_back(static_cast<int>(f));
  for (const auto& kk : out.keys) out.keys_after += kk.size();
  out.max_error = key_reduction_error(k, out.keys);
  return out;
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
