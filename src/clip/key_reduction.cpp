// Error-bounded key reduction (key_reduction.hpp, rule F7).
#include "asterune/clip/key_reduction.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>

#include "asterune/math/scalar.hpp"

namespace asterune {
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
// Candidate ends are tried frame by frame up to this span; beyond it the step doubles after each
// end that holds (back to single frames after one that fails). Each candidate is checked over
// its whole span, so trying every frame of a span of L frames costs O(L^2) checks (a still joint
// on a 10,000-frame clip: 10^8); doubling costs O(L) per span: linear in the clip's length.
constexpr size_t kDenseSpan = 32;

enum class Interp { kSampler, kSlerp };

Transform lerp_key(const Transform& a, const Transform& b, float alpha, Interp how = Interp::kSampler) {
  const glm::quat q = how == Interp::kSampler ? nlerp_or_slerp(a.rotation, b.rotation, alpha)
                                               : slerp_shortest(a.rotation, b.rotation, alpha);
  return Transform{q, a.position + (b.position - a.position) * alpha};
}

glm::vec4 as_vec(const glm::quat& q) { return glm::vec4(q.x, q.y, q.z, q.w); }
glm::quat as_quat(const glm::vec4& v) {
  const float len = glm::length(v);
  if (!(len > 1e-12f)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  return glm::quat(v.w / len, v.x / len, v.y / len, v.z / len);
}
glm::quat raw_quat(const glm::vec4& v) { return glm::quat(v.w, v.x, v.y, v.z); }

// glTF's cubic Hermite basis (Appendix C) at s in [0, 1], tangents already times dt.
struct Hermite {
  float h00, h10, h01, h11;
  explicit Hermite(float s) {
    const float s2 = s * s, s3 = s2 * s;
    h00 = 2.0f * s3 - 3.0f * s2 + 1.0f;
    h10 = s3 - 2.0f * s2 + s;
    h01 = -2.0f * s3 + 3.0f * s2;
    h11 = s3 - s2;
  }
};

// A kept key: its value and how the segment around it plays.
struct Key {
  Transform value;
  KeyEasing easing{};  // kEased: the segment starting here
  KeyTangents tan{};   // kCubicSpline, kEulerCubic
  glm::vec3 euler{0.0f};  // kEulerCubic: the angles (value.rotation = euler_rotation(euler, order))
  RotationOrder order = RotationOrder::kXYZ;
};

// The curves fitted as Hermite splines (least-squares segments with tangents).
bool is_cubic(KeyCurve c) { return c == KeyCurve::kCubicSpline || c == KeyCurve::kEulerCubic; }

glm::vec3 xyz(const glm::quat& q) { return glm::vec3(q.x, q.y, q.z); }
glm::quat raw_xyz(const glm::vec3& v) { return glm::quat(0.0f, v.x, v.y, v.z); }

// Easings a kEased segment may pick: Linear and the three CubicV2 curves (legacy Cubic has the
// same curves; Elastic and Bounce overshoot and oscillate, which captured motion does not).
constexpr KeyEasing kEasings[] = {{EasingStyle::kLinear, EasingDirection::kIn},
                                  {EasingStyle::kCubicV2, EasingDirection::kIn},
                                  {EasingStyle::kCubicV2, EasingDirection::kOut},
                                  {EasingStyle::kCubicV2, EasingDirection::kInOut}};

// Sample points: every frame and kSteps - 1 points evenly between two frames (sample s is
// frame s / kSteps, a fraction (s % kSteps) / kSteps of the way to the next). Halfway alone is
// not enough once keys are curves: a CubicV2 InOut segment over one frame is exact at its ends
// and its middle and 0.19 of the step off a quarter of the way.
constexpr size_t kSteps = 4;
size_t sample_count(size_t frames) { return frames == 0 ? 0 : kSteps * (frames - 1) + 1; }
float sample_fraction(size_t s) { return static_cast<float>(s % kSteps) / static_cast<float>(kSteps); }

float sample_time(const KeyTracks& k, size_t s) {
  const size_t f = s / kSteps;
  return (s % kSteps == 0) ? k.times[f] : k.times[f] + sample_fraction(s) * (k.times[f + 1] - k.times[f]);
}

// Playback weight of key b at sample s between keys a < b.
float key_alpha(const KeyTracks& k, size_t a, size_t b, size_t s) {
  return std::clamp((sample_time(k, s) - k.times[a]) / (k.times[b] - k.times[a]), 0.0f, 1.0f);
}

// The segment from key (a, A) to key (b, B) at sample s, as the file plays it.
Transform play(const KeyTracks& k, KeyCurve curve, size_t a, const Key& A, size_t b, const Key& B, size_t s,
               Interp how) {
  if (a == b) return A.value;
  const float u = key_alpha(k, a, b, s);
  if (curve == KeyCurve::kEulerCubic) {  // rule F8: each channel its own Hermite FloatCurve
    if (!(u > 0.0f)) return A.value;
    const Hermite h(u);
    const float dt = k.times[b] - k.times[a];
    const glm::vec3 e = h.h00 * A.euler + h.h10 * dt * xyz(A.tan.out_rotation) + h.h01 * B.euler +
                        h.h11 * dt * xyz(B.tan.in_rotation);
    const glm::vec3 p = h.h00 * A.value.position + h.h10 * dt * A.tan.out_position + h.h01 * B.value.position +
                        h.h11 * dt * B.tan.in_position;
    return Transform{euler_rotation(e, A.order), p};
  }
  if (curve == KeyCurve::kCubicSpline) {
    if (!(u > 0.0f)) return A.value;
    const Hermite h(u);
    const float dt = k.times[b] - k.times[a];
    const glm::vec4 q = h.h00 * as_vec(A.value.rotation) + h.h10 * dt * as_vec(A.tan.out_rotation) +
                        h.h01 * as_vec(B.value.rotation) + h.h11 * dt * as_vec(B.tan.in_rotation);
    const glm::vec3 p = h.h00 * A.value.position + h.h10 * dt * A.tan.out_position + h.h01 * B.value.position +
                        h.h11 * dt * B.tan.in_position;
    // As the library's sampler: a spline through zero keeps the interpolated keys.
    const std::optional<glm::quat> r = normalized_rotation(raw_quat(q));
    return Transform{r ? *r : nlerp_or_slerp(A.value.rotation, B.value.rotation, u), p};
  }
  return lerp_key(A.value, B.value, curve == KeyCurve::kEased ? ease(A.easing, u) : u, how);
}

// The unreduced local at sample s (the two frames around it, interpolated linearly).
Transform full_local(const KeyTracks& k, size_t i, size_t s, Interp how = Interp::kSampler) {
  const size_t n = k.track_count(), f = s / kSteps;
  if (s % kSteps == 0) return k.local[f * n + i];
  return lerp_key(k.local[f * n + i], k.local[(f + 1) * n + i], sample_fraction(s), how);
}

Transform base_at(const KeyTracks& k, size_t s, Interp how = Interp::kSampler) {
  const size_t f = s / kSteps;
  if (s % kSteps == 0) return k.base[f];
  return lerp_key(k.base[f], k.base[f + 1], sample_fraction(s), how);
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

// The error of track i's part placed at `got` instead of `ref`: the farthest of its virtual
// vertices (rule P7), or its origin when the tracks carry no vertices.
float part_error(const KeyTracks& k, size_t i, const Transform& ref, const Transform& got) {
  if (k.point_begin.size() != k.track_count() + 1) return glm::length(ref.position - got.position);
  float worst = 0.0f;
  for (std::uint32_t v = k.point_begin[i]; v < k.point_begin[i + 1]; ++v) {
    const float d = glm::length(transform_point(ref, k.points[v]) - transform_point(got, k.points[v]));
    worst = std::isfinite(d) ? std::max(worst, d) : std::numeric_limits<float>::infinity();
  }
  return worst;
}

// Track i's local at every sample played from keys (frame indices) and their Keys.
std::vector<Transform> track_locals(const KeyTracks& k, KeyCurve curve, const std::vector<int>& keys,
                                    const std::vector<Key>& values, Interp how) {
  const size_t count = sample_count(k.times.size());
  std::vector<Transform> local(count);
  size_t seg = 0;
  for (size_t s = 0; s < count; ++s) {
    // The segment [keys[seg], keys[seg + 1]] holding s (the last segment holds the last frame).
    while (seg + 2 < keys.size() && static_cast<size_t>(keys[seg + 1]) * kSteps <= s) ++seg;
    if (seg + 1 >= keys.size()) {
      local[s] = values[seg].value;
      continue;
    }
    const auto a = static_cast<size_t>(keys[seg]), b = static_cast<size_t>(keys[seg + 1]);
    local[s] = play(k, curve, a, values[seg], b, values[seg + 1], s, how);
  }
  return local;
}

// The Keys of track i in a reduction (values empty: the frames' own locals).
std::vector<Key> track_keys(const KeyTracks& k, size_t i, const std::vector<int>& keys,
                            const std::vector<Transform>& values, const std::vector<KeyEasing>& easing,
                            const std::vector<KeyTangents>& tangents, const std::vector<glm::vec3>& euler,
                            RotationOrder order) {
  std::vector<Key> out(keys.size());
  for (size_t m = 0; m < keys.size(); ++m) {
    out[m].value = values.size() == keys.size() ? values[m] : k.local[static_cast<size_t>(keys[m]) * k.track_count() + i];
    if (easing.size() == keys.size()) out[m].easing = easing[m];
    if (tangents.size() == keys.size()) out[m].tan = tangents[m];
    if (euler.size() == keys.size()) out[m].euler = euler[m];
    out[m].order = order;
  }
  return out;
}

float error_with(const KeyTracks& k, const KeyReduction& r, Interp how) {
  const size_t n = k.track_count();
  const size_t count = sample_count(k.times.size());
  std::vector<Transform> full(count * n), local(count * n), ref, got;
  for (size_t s = 0; s < count; ++s)
    for (size_t i = 0; i < n; ++i) full[s * n + i] = full_local(k, i, s, how);
  static const std::vector<Transform> no_values;
  static const std::vector<KeyEasing> no_easing;
  static const std::vector<KeyTangents> no_tangents;
  static const std::vector<glm::vec3> no_euler;
  for (size_t i = 0; i < n; ++i) {
    const std::vector<Key> keys =
        track_keys(k, i, r.keys[i], r.values.size() == n ? r.values[i] : no_values,
                   r.easing.size() == n ? r.easing[i] : no_easing, r.tangents.size() == n ? r.tangents[i] : no_tangents,
                   r.euler.size() == n ? r.euler[i] : no_euler,
                   r.rotation_order.size() == n ? r.rotation_order[i] : RotationOrder::kXYZ);
    const std::vector<Transform> t = track_locals(k, r.curve, r.keys[i], keys, how);
    for (size_t s = 0; s < count; ++s) local[s * n + i] = t[s];
  }
  world_all(k, full, ref, how);
  world_all(k, local, got, how);
  float worst = 0.0f;
  for (size_t x = 0; x < ref.size(); ++x) worst = std::max(worst, part_error(k, x % n, ref[x], got[x]));
  return worst;
}

// Solves the symmetric positive definite system m x = r (size u <= 4, 7 right-hand sides:
// a quaternion's 4 components and a position's 3) by Gaussian elimination in double.
void solve_spd(int u, double m[4][4], double r[4][7]) {
  for (int c = 0; c < u; ++c) {
    const double piv = m[c][c] != 0.0 ? m[c][c] : 1e-30;
    for (int row = c + 1; row < u; ++row) {
      const double f = m[row][c] / piv;
      for (int x = c; x < u; ++x) m[row][x] -= f * m[c][x];
      for (int x = 0; x < 7; ++x) r[row][x] -= f * r[c][x];
    }
  }
  for (int c = u; c-- > 0;) {
    for (int x = 0; x < 7; ++x) {
      double v = r[c][x];
      for (int y = c + 1; y < u; ++y) v -= m[c][y] * r[y][x];
      r[c][x] = v / (m[c][c] != 0.0 ? m[c][c] : 1e-30);
    }
  }
}

// Weight of the pull of a fitted tangent toward the capture's slope (central differences), in
// all (not per sample): it pins what a one-frame span cannot (four samples, one of them A's,
// for three unknowns per component, and a nearly flat direction), and is negligible against the
// samples of a long span, so the fit is not biased toward the capture's noisy slopes.
constexpr double kTangentPrior = 1e-2;

// One track's fit (see reduce_keys): the targets it follows and the state it is checked on.
struct TrackFit {
  const KeyTracks& k;
  KeyCurve curve;
  size_t track;
  const std::vector<size_t>& sub;          // the track's subtree, the track first
  const std::vector<int>& sub_parent;      // per subtree entry: its parent's subtree index (-1: the track's parent)
  const std::vector<Transform>& full;      // unreduced locals per sample
  const std::vector<Transform>& ref;       // unreduced worlds per sample
  const std::vector<Transform>& world;     // current worlds (the track's ancestors final)
  std::vector<glm::vec4> target_q;         // per sample, one hemisphere along time
  std::vector<glm::vec3> target_p;
  std::vector<glm::vec4> slope_q;          // per frame: d target / dt (central differences)
  std::vector<glm::vec3> slope_p;
  bool fixed_position = false;             // the unreduced track never translates: keep its position
  glm::vec3 position{0.0f};
  RotationOrder order = RotationOrder::kXYZ;  // kEulerCubic
  std::vector<Transform> scratch;
  size_t work = 0;  // sample x part placements checked (KeyReduction::work)

  Transform parent_world(size_t s) const {
    const int p = k.parent[track];
    return p >= 0 ? world[s * k.track_count() + static_cast<size_t>(p)] : base_at(k, s);
  }

  void make_targets() {
    const size_t n = k.track_count();
    const size_t frames = k.times.size();
    const size_t count = sample_count(frames);
    // The local that puts the track's part exactly where the unreduced export has it, given the
    // (reduced) parent: a fit toward it corrects the ancestors' errors instead of adding to them.
    target_q.resize(count);
    target_p.resize(count);
    fixed_position = true;
    position = k.local[track].position;
    if (curve == KeyCurve::kEulerCubic) order = best_order();
    for (size_t f = 0; f < frames; ++f)
      if (k.local[f * n + track].position != position) fixed_position = false;
    for (size_t s = 0; s < count; ++s) {
      const Transform t = inverse(parent_world(s) * k.pre[track]) * ref[s * n + track] * inverse(k.post[track]);
      glm::vec4 q = as_vec(glm::normalize(t.rotation));
      if (curve == KeyCurve::kEulerCubic) {  // the angles, continuous along time (rule F8)
        const glm::vec3 e = euler_angles(glm::normalize(t.rotation), order, s > 0 ? glm::vec3(target_q[s - 1]) : glm::vec3(0.0f));
        q = glm::vec4(e, 0.0f);
      } else if (s > 0 && glm::dot(q, target_q[s - 1]) < 0.0f) {
        q = -q;
      }
      target_q[s] = q;
      target_p[s] = fixed_position ? position : t.position;
    }
    slope_q.assign(frames, glm::vec4(0.0f));
    slope_p.assign(frames, glm::vec3(0.0f));
    for (size_t f = 0; f < frames && frames > 1; ++f) {
      const size_t lo = f > 0 ? f - 1 : 0, hi = std::min(f + 1, frames - 1);
      const float dt = k.times[hi] - k.times[lo];
      slope_q[f] = (target_q[kSteps * hi] - target_q[kSteps * lo]) / dt;
      slope_p[f] = (target_p[kSteps * hi] - target_p[kSteps * lo]) / dt;
    }
  }

  // The RotationOrder whose middle angle stays farthest from +-90 degrees over the track's
  // unreduced locals: |sin middle| is |R[first][last]|, so the order with the smallest largest
  // |R[first][last]| (rule F8).
  RotationOrder best_order() const {
    static constexpr int kAxes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
    const size_t n = k.track_count();
    float best = 2.0f;
    int pick = 0;
    for (int o = 0; o < 6; ++o) {
      float worst = 0.0f;
      for (size_t f = 0; f < k.times.size(); ++f) {
        const glm::mat3 m = glm::mat3_cast(glm::normalize(k.local[f * n + track].rotation));
        worst = std::max(worst, std::fabs(m[kAxes[o][2]][kAxes[o][0]]));  // R[first][last]
      }
      if (worst < best - 1e-6f) {
        best = worst;
        pick = o;
      }
    }
    return static_cast<RotationOrder>(pick);
  }

  Transform value_of(const glm::vec4& q, const glm::vec3& p) const {
    if (curve == KeyCurve::kEulerCubic) return Transform{euler_rotation(glm::vec3(q), order), fixed_position ? position : p};
    return Transform{as_quat(q), fixed_position ? position : p};
  }
  // A key of value (q, p): q the rotation's 4-vector, or (kEulerCubic) the angles in x, y, z.
  void set_key(Key& key, const glm::vec4& q, const glm::vec3& p) const {
    key.value = value_of(q, p);
    key.order = order;
    if (curve == KeyCurve::kEulerCubic) key.euler = glm::vec3(q);
  }
  // The 4-vector the fit works on for a key (kEulerCubic: its angles, w = 0).
  glm::vec4 channels_of(const Key& key) const {
    return curve == KeyCurve::kEulerCubic ? glm::vec4(key.euler, 0.0f) : as_vec(key.value.rotation);
  }

  // Largest virtual-vertex error (part_error) over the subtree for samples [s0, s1] with the track played
  // from keys (a, A) and (b, B), or a = b (held); stops once over `budget`.
  float span_error(size_t a, const Key& A, size_t b, const Key& B, size_t s0, size_t s1, float budget) {
    const size_t n = k.track_count();
    scratch.resize(sub.size());
    float worst = 0.0f;
    for (size_t s = s0; s <= s1; ++s) {
      work += sub.size();
      const Transform l = play(k, curve, a, A, b, B, s, Interp::kSampler);
      for (size_t m = 0; m < sub.size(); ++m) {
        const size_t d = sub[m];
        const Transform parent = m == 0 ? parent_world(s) : scratch[static_cast<size_t>(sub_parent[m])];
        const Transform& local = m == 0 ? l : full[s * n + d];
        scratch[m] = parent * k.pre[d] * local * k.post[d];
        worst = std::max(worst, part_error(k, d, ref[s * n + d], scratch[m]));
        if (worst > budget) return worst;
      }
    }
    return worst;
  }

  // Linear / eased: the least-squares value of key b given key (a, A) with A's easing: the one
  // that best follows the targets over the samples after frame a up to frame b, played from A.
  Key fit_end(size_t a, const Key& A, size_t b) const {
    glm::vec4 qa = as_vec(A.value.rotation);
    if (glm::dot(qa, target_q[kSteps * a]) < 0.0f) qa = -qa;
    glm::vec4 num_q(0.0f);
    glm::vec3 num_p(0.0f);
    float den = 0.0f;
    for (size_t s = kSteps * a + 1; s <= kSteps * b; ++s) {
      const float u = ease(A.easing, key_alpha(k, a, b, s));
      num_q += u * (target_q[s] - (1.0f - u) * qa);
      num_p += u * (target_p[s] - (1.0f - u) * A.value.position);
      den += u * u;
    }
    Key B;
    B.value = value_of(num_q / den, num_p / den);
    return B;
  }

  // Linear / eased: least-squares values of every key at once (keys and easings fixed): the
  // tridiagonal normal equations of the piecewise fit, per component.
  std::vector<Key> refit(const std::vector<int>& keys, const std::vector<Key>& easing_of) const {
    const size_t m = keys.size();
    std::vector<float> diag(m, 0.0f), off(m, 0.0f);  // off[j]: between j and j + 1
    std::vector<glm::vec4> rq(m, glm::vec4(0.0f));
    std::vector<glm::vec3> rp(m, glm::vec3(0.0f));
    for (size_t j = 0; j + 1 < m; ++j) {
      const auto a = static_cast<size_t>(keys[j]), b = static_cast<size_t>(keys[j + 1]);
      for (size_t s = kSteps * a + (j == 0 ? 0 : 1); s <= kSteps * b; ++s) {
        const float u = ease(easing_of[j].easing, key_alpha(k, a, b, s)), w = 1.0f - u;
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
    std::vector<Key> out(m);
    for (size_t j = 0; j < m; ++j) {
      out[j].value = value_of(xq[j], xp[j]);
      out[j].easing = easing_of[j].easing;
    }
    return out;
  }

  // Cubic: the least-squares Hermite segment over the samples of [a, b]: A's out-tangent, B's
  // value and B's in-tangent given A's value (or, for the first span, A's value too), each
  // tangent pulled lightly toward the capture's slope. A keeps its in-tangent.
  void fit_cubic(size_t a, Key& A, size_t b, bool free_a, Key& B) const {
    const int u = free_a ? 4 : 3;
    const double dt = static_cast<double>(k.times[b] - k.times[a]);
    double m[4][4] = {}, r[4][7] = {};
    const glm::vec4 qa = channels_of(A);
    const glm::vec3 pa = A.value.position;
    auto add_row = [&](const double* phi, const double* y, double w) {
      for (int i = 0; i < u; ++i) {
        for (int j = 0; j < u; ++j) m[i][j] += w * phi[i] * phi[j];
        for (int x = 0; x < 7; ++x) r[i][x] += w * phi[i] * y[x];
      }
    };
    for (size_t s = free_a ? kSteps * a : kSteps * a + 1; s <= kSteps * b; ++s) {
      const Hermite h(key_alpha(k, a, b, s));
      double y[7] = {target_q[s].x, target_q[s].y, target_q[s].z, target_q[s].w,
                     target_p[s].x, target_p[s].y, target_p[s].z};
      if (free_a) {
        const double phi[4] = {h.h00, h.h10, h.h01, h.h11};
        add_row(phi, y, 1.0);
      } else {
        const double known[7] = {qa.x, qa.y, qa.z, qa.w, pa.x, pa.y, pa.z};
        for (int x = 0; x < 7; ++x) y[x] -= h.h00 * known[x];
        const double phi[3] = {h.h10, h.h01, h.h11};
        add_row(phi, y, 1.0);
      }
    }
    // Priors: dt * tangent ~ dt * the capture's slope at the key.
    const double w = kTangentPrior;
    const int out_a = free_a ? 1 : 0, in_b = free_a ? 3 : 2;
    for (int which = 0; which < 2; ++which) {
      const size_t f = which == 0 ? a : b;
      double phi[4] = {0.0, 0.0, 0.0, 0.0};
      phi[which == 0 ? out_a : in_b] = 1.0;
      const double y[7] = {dt * slope_q[f].x, dt * slope_q[f].y, dt * slope_q[f].z, dt * slope_q[f].w,
                           dt * slope_p[f].x, dt * slope_p[f].y, dt * slope_p[f].z};
      add_row(phi, y, w);
    }
    solve_spd(u, m, r);
    auto quat_of = [&](int i) { return glm::vec4(r[i][0], r[i][1], r[i][2], r[i][3]); };
    auto vec_of = [&](int i) { return glm::vec3(r[i][4], r[i][5], r[i][6]); };
    if (free_a) set_key(A, quat_of(0), vec_of(0));
    const float inv = static_cast<float>(1.0 / dt);
    A.tan.out_rotation = raw_quat(quat_of(out_a) * inv);
    A.tan.out_position = fixed_position ? glm::vec3(0.0f) : vec_of(out_a) * inv;
    B = Key{};
    set_key(B, quat_of(out_a + 1), vec_of(out_a + 1));
    B.tan.in_rotation = raw_quat(quat_of(in_b) * inv);
    B.tan.in_position = fixed_position ? glm::vec3(0.0f) : vec_of(in_b) * inv;
  }

  float keys_error(const std::vector<int>& keys, const std::vector<Key>& values, float budget) {
    float worst = span_error(0, values[0], 0, values[0], 0, 0, budget);
    for (size_t j = 0; j + 1 < keys.size() && worst <= budget; ++j) {
      const auto a = static_cast<size_t>(keys[j]), b = static_cast<size_t>(keys[j + 1]);
      worst = std::max(worst, span_error(a, values[j], b, values[j + 1], kSteps * a + 1, kSteps * b, budget));
    }
    return worst;
  }

  // The candidate segments from key (a, A) to frame b: per easing for kEased, one otherwise.
  // Returns the best that holds within the budget (smallest error), with A as it must become
  // (the first span refits A; cubic sets A's out-tangent).
  bool try_span(size_t a, const Key& A, size_t b, float budget, Key& A_out, Key& B_out) {
    float best = budget;
    bool found = false;
    const size_t easings = curve == KeyCurve::kEased ? std::size(kEasings) : 1;
    for (size_t e = 0; e < easings; ++e) {
      Key a_try = A, b_try;
      if (is_cubic(curve)) {
        fit_cubic(a, a_try, b, a == 0, b_try);
      } else {
        a_try.easing = kEasings[e];
        if (a == 0) {  // the first span fits both its keys
          const std::vector<Key> two = refit({0, static_cast<int>(b)}, {a_try, a_try});
          a_try.value = two[0].value;
          b_try = two[1];
        } else {
          b_try = fit_end(a, a_try, b);
        }
      }
      const float err = span_error(a, a_try, b, b_try, a == 0 ? 0 : kSteps * a + 1, kSteps * b, best);
      if (err <= best) {
        best = err;
        found = true;
        A_out = a_try;
        B_out = b_try;
      }
    }
    return found;
  }

  // Greedy: from each key, the farthest next key whose least-squares segment keeps the span
  // within the budget; then (linear, eased) one joint least-squares refit of all values, kept
  // when it holds too.
  void fit(float budget, std::vector<int>& keys, std::vector<Key>& values) {
    const size_t frames = k.times.size();
    keys.assign(1, 0);
    values.assign(1, Key{});
    set_key(values[0], target_q[0], target_p[0]);
    if (span_error(0, values[0], 0, values[0], 0, 0, budget) > budget) {
      values[0].value = k.local[track];
      if (curve == KeyCurve::kEulerCubic) values[0].euler = euler_angles(k.local[track].rotation, order, glm::vec3(target_q[0]));
    }
    size_t a = 0;
    while (a + 1 < frames) {
      size_t best = a + 1;
      Key best_a = values.back(), best_b;
      best_a.easing = KeyEasing{};
      best_a.tan.out_rotation = raw_quat(slope_q[a]);
      if (curve == KeyCurve::kEulerCubic) best_a.tan.out_rotation = raw_xyz(glm::vec3(slope_q[a]));
      best_a.tan.out_position = fixed_position ? glm::vec3(0.0f) : slope_p[a];
      // Fallback when no span holds: the next frame's target, exact there given the reduced
      // parent (the frame's own local would add the parent's rotation error, times the lever
      // arm, to every part below).
      if (is_cubic(curve)) set_key(best_b, target_q[kSteps * (a + 1)], target_p[kSteps * (a + 1)]);
      else best_b.value = k.local[(a + 1) * k.track_count() + track];
      if (curve == KeyCurve::kEulerCubic) {
        // Fallback for a one-frame span that fails: both keys' values pinned (B exact at its
        // frame), the two tangents of every channel fitted by least squares to the samples
        // between the frames (the closest this segment's cubic comes to the unreduced export).
        const float dt = k.times[a + 1] - k.times[a];
        const glm::vec4 va(best_a.euler, 0.0f), vb(best_b.euler, 0.0f);
        double m00 = 0, m01 = 0, m11 = 0;
        glm::dvec4 r0q(0.0), r1q(0.0);
        glm::dvec3 r0p(0.0), r1p(0.0);
        for (size_t s = kSteps * a + 1; s < kSteps * (a + 1); ++s) {
          const Hermite h(key_alpha(k, a, a + 1, s));
          m00 += h.h10 * h.h10;
          m01 += h.h10 * h.h11;
          m11 += h.h11 * h.h11;
          const glm::dvec4 yq = glm::dvec4(target_q[s] - h.h00 * va - h.h01 * vb);
          const glm::dvec3 yp = glm::dvec3(target_p[s] - h.h00 * best_a.value.position - h.h01 * best_b.value.position);
          r0q += static_cast<double>(h.h10) * yq;
          r1q += static_cast<double>(h.h11) * yq;
          r0p += static_cast<double>(h.h10) * yp;
          r1p += static_cast<double>(h.h11) * yp;
        }
        const double det = m00 * m11 - m01 * m01;
        if (std::fabs(det) > 1e-18) {
          const glm::dvec4 t0q = (m11 * r0q - m01 * r1q) / det, t1q = (m00 * r1q - m01 * r0q) / det;
          const glm::dvec3 t0p = (m11 * r0p - m01 * r1p) / det, t1p = (m00 * r1p - m01 * r0p) / det;
          best_a.tan.out_rotation = raw_xyz(glm::vec3(t0q) / dt);
          best_b.tan.in_rotation = raw_xyz(glm::vec3(t1q) / dt);
          best_a.tan.out_position = fixed_position ? glm::vec3(0.0f) : glm::vec3(t0p) / dt;
          best_b.tan.in_position = fixed_position ? glm::vec3(0.0f) : glm::vec3(t1p) / dt;
        }
      } else if (curve == KeyCurve::kCubicSpline) {
        // Fallback for a one-frame span that fails: tangents that follow the slerp from A to B
        // (its derivative at both ends, the cubic closest to the great circle), so the segment
        // plays as the unreduced export does between two frames even across a wide turn.
        glm::vec4 qa = as_vec(best_a.value.rotation), qb = as_vec(best_b.value.rotation);
        if (glm::dot(qa, qb) < 0.0f) qb = -qb;
        best_b.value.rotation = raw_quat(qb);
        const float dt = k.times[a + 1] - k.times[a];
        const float c = std::clamp(glm::dot(qa, qb), -1.0f, 1.0f), omega = std::acos(c), sn = std::sin(omega);
        const float f = sn > 1e-6f ? omega / (sn * dt) : 1.0f / dt;
        best_a.tan.out_rotation = raw_quat(sn > 1e-6f ? f * (qb - c * qa) : f * (qb - qa));
        best_b.tan.in_rotation = raw_quat(sn > 1e-6f ? f * (c * qb - qa) : f * (qb - qa));
        best_a.tan.out_position = best_b.tan.in_position = (best_b.value.position - best_a.value.position) / dt;
      }
      int misses = 0;
      size_t step = 1;
      for (size_t b = a + 1; b < frames && misses < kLookahead;) {
        Key A2, B2;
        if (try_span(a, values.back(), b, budget, A2, B2)) {
          best = b;
          best_a = A2;
          best_b = B2;
          misses = 0;
          if (b - a >= kDenseSpan) step *= 2;
        } else if (step > 1) {  // overshot: search on frame by frame from the last end that held
          step = 1;
          b = best;
        } else {
          ++misses;
        }
        const size_t next = b + step;
        b = next >= frames && b + 1 < frames ? frames - 1 : next;
      }
      values.back() = best_a;
      keys.push_back(static_cast<int>(best));
      values.push_back(best_b);
      a = best;
    }
    if (!is_cubic(curve)) {
      std::vector<Key> joint = refit(keys, values);
      if (keys_error(keys, joint, budget) <= budget) values = std::move(joint);
    }
  }
};

}  // namespace

float key_reduction_error(const KeyTracks& k, const KeyReduction& r) {
  if (k.times.empty() || r.keys.size() != k.track_count()) return 0.0f;
  for (const auto& kk : r.keys)
    if (kk.empty()) return 0.0f;
  return std::max(error_with(k, r, Interp::kSampler), error_with(k, r, Interp::kSlerp));
}

float key_reduction_error(const KeyTracks& k, const std::vector<std::vector<int>>& keys,
                          const std::vector<std::vector<Transform>>& values) {
  KeyReduction r;
  r.keys = keys;
  r.values = values;
  return key_reduction_error(k, r);
}

namespace {

// One attempt at the budgets scaled by `scale`: every track fitted once, parents first.
KeyReduction reduce_at(const KeyTracks& k, float tolerance, float scale, KeyCurve curve,
                       const std::function<void(size_t, size_t)>& progress) {
  const size_t n = k.track_count();
  const size_t frames = k.times.size();
  const size_t count = sample_count(frames);
  KeyReduction out;
  out.curve = curve;
  out.keys.resize(n);
  out.values.resize(n);
  if (curve == KeyCurve::kEased) out.easing.resize(n);
  if (is_cubic(curve)) out.tangents.resize(n);
  if (curve == KeyCurve::kEulerCubic) {
    out.euler.resize(n);
    out.rotation_order.resize(n);
  }
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
    TrackFit fit{k, curve, i, sub, sub_parent, full, ref, world, {}, {}, {}, {}, false, glm::vec3(0.0f),
                 RotationOrder::kXYZ, {}, 0};
    fit.make_targets();
    std::vector<Key> keys;
    fit.fit(kBudget * scale * tolerance, out.keys[i], keys);
    out.work += fit.work;
    if (progress) progress(i + 1, n);
    for (Key& key : keys) {
      out.values[i].push_back(key.value);
      if (curve == KeyCurve::kEased) out.easing[i].push_back(key.easing);
      if (is_cubic(curve)) out.tangents[i].push_back(key.tan);
      if (curve == KeyCurve::kEulerCubic) out.euler[i].push_back(key.euler);
      if (curve == KeyCurve::kEulerCubic) out.rotation_order[i] = fit.order;
    }
    if (curve == KeyCurve::kEased) out.easing[i].back() = KeyEasing{};  // the last key starts no segment
    // The track's new playback: its subtree's worlds (descendants still unreduced).
    const std::vector<Transform> local = track_locals(k, curve, out.keys[i], keys, Interp::kSampler);
    for (size_t s = 0; s < count; ++s)
      for (size_t m = 0; m < sub.size(); ++m) {
        const size_t d = sub[m];
        const Transform parent = m == 0 ? fit.parent_world(s) : world[s * n + sub[static_cast<size_t>(sub_parent[m])]];
        world[s * n + d] = parent * k.pre[d] * (m == 0 ? local[s] : full[s * n + d]) * k.post[d];
      }
  }
  for (const auto& kk : out.keys) out.keys_after += kk.size();
  out.max_error = key_reduction_error(k, out);
  return out;
}

}  // namespace

KeyReduction reduce_keys(const KeyTracks& k, float tolerance, KeyCurve curve,
                         const std::function<void(size_t, size_t)>& progress) {
  const size_t n = k.track_count();
  const size_t frames = k.times.size();
  if (frames == 0 || n == 0 || !(tolerance > 0.0f)) {
    KeyReduction all;  // every frame, played linearly: the unreduced export itself
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
  std::optional<KeyReduction> best;
  for (int attempt = 0; attempt < kAttempts; ++attempt, scale *= kRetryScale) {
    KeyReduction r = reduce_at(k, tolerance, scale, curve, progress);
    if (best) r.work += best->work;
    if (r.max_error <= tolerance) return r;
    if (!best || r.max_error < best->max_error) best = std::move(r);
  }
  // kEulerCubic: a segment no cubic of Euler angles can follow (a flip within a frame or two)
  // already fell back to its own one-frame keys in the fit, per joint and segment; every key of
  // the clip would play that segment no closer, so the best attempt stands, its error reported.
  if (curve == KeyCurve::kEulerCubic) return std::move(*best);
  // Never expected for the other curves: the unreduced export, which holds any tolerance.
  KeyReduction all = reduce_keys(k, 0.0f);
  all.work = best->work;
  return all;
}

}  // namespace asterune
