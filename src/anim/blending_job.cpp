// The blending job (rules BL1-BL4): four joints per block in SSE2 registers (structure of
// arrays), one pass over the layers per block, the additive layers applied before the block is
// stored; the scalar path below (ASTERUNE_SCALAR_KERNELS, targets without SSE2) computes the
// same formula one joint at a time.
#include "asterune/anim/blending_job.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>

#include "asterune/core/assert.hpp"
#include "math/sse_quat.hpp"  // ASTERUNE_SSE2 and the SSE2 intrinsics

namespace asterune {

namespace {

// Rule BL3: a weight contributes when 0 < e <= kMaxWeight. The bound keeps every sum and
// squared length of a blend finite (1e15 squared times thousands of layers is far from
// FLT_MAX), so an infinite or absurd weight is skipped like a NaN instead of overflowing.
constexpr float kMaxWeight = 1e15f;
// Below this squared length a blended rotation has no direction: the sign reference is kept.
constexpr float kMinLength2 = 1e-20f;

bool sizes_ok(const BlendingJob& job) {
  const size_t n = job.output.size();
  const auto fits = [n](size_t size) { return size == 0 || size == n; };
  for (const BlendLayer& l : job.layers)
    if (l.pose.size() != n || !fits(l.joint_weights.size())) return false;
  for (const AdditiveLayer& l : job.additive)
    if (l.delta.size() != n || !fits(l.joint_weights.size())) return false;
  return fits(job.rest_pose.size()) && fits(job.rest_weights.size()) && fits(job.coverage.size());
}

}  // namespace

#if defined(ASTERUNE_SSE2)

// The block kernel loads a transform's floats 0-3 (rotation) and 3-6 (rotation w, position)
// as two registers.
static_assert(sizeof(Transform) == 28 && offsetof(Transform, position) == 16,
              "the SSE2 blend expects a packed transform: rotation x, y, z, w, then position");

namespace {

struct Q4 {
  __m128 x, y, z, w;
};
struct P4 {
  __m128 x, y, z;
};

inline __m128 select(__m128 mask, __m128 a, __m128 b) {  // mask ? a : b, lane by lane
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
inline Q4 select(__m128 mask, const Q4& a, const Q4& b) {
  return {select(mask, a.x, b.x), select(mask, a.y, b.y), select(mask, a.z, b.z), select(mask, a.w, b.w)};
}
inline P4 select(__m128 mask, const P4& a, const P4& b) {
  return {select(mask, a.x, b.x), select(mask, a.y, b.y), select(mask, a.z, b.z)};
}
inline Q4 flip(const Q4& q, __m128 sign) {  // q with its sign bits xor-ed by `sign` (all four)
  return {_mm_xor_ps(q.x, sign), _mm_xor_ps(q.y, sign), _mm_xor_ps(q.z, sign), _mm_xor_ps(q.w, sign)};
}
inline __m128 sign_bits() { return _mm_set1_ps(-0.0f); }

// Four transforms into registers: the rotations transposed, and floats 3-6 (w, p) transposed
// for the positions. Lane k reads t[min(k, count - 1)]: the last block's lanes past its end
// repeat its last joint (their weights are 0 or their results are not stored), so nothing is
// read past a span and nothing is copied.
inline void load4(const Transform* base, size_t count, Q4& q, P4& p) {
  const Transform* t[4] = {base, base + (count > 1 ? 1 : 0), base + (count > 2 ? 2 : count - 1),
                           base + (count > 3 ? 3 : count - 1)};
  __m128 a = _mm_loadu_ps(&t[0]->rotation.x), b = _mm_loadu_ps(&t[1]->rotation.x);
  __m128 c = _mm_loadu_ps(&t[2]->rotation.x), d = _mm_loadu_ps(&t[3]->rotation.x);
  _MM_TRANSPOSE4_PS(a, b, c, d);
  q = {a, b, c, d};
  const __m128 r0 = _mm_loadu_ps(&t[0]->rotation.w), r1 = _mm_loadu_ps(&t[1]->rotation.w);
  const __m128 r2 = _mm_loadu_ps(&t[2]->rotation.w), r3 = _mm_loadu_ps(&t[3]->rotation.w);
  const __m128 lo01 = _mm_unpacklo_ps(r0, r1), lo23 = _mm_unpacklo_ps(r2, r3);  // w w px px
  const __m128 hi01 = _mm_unpackhi_ps(r0, r1), hi23 = _mm_unpackhi_ps(r2, r3);  // py py pz pz
  p = {_mm_shuffle_ps(lo01, lo23, _MM_SHUFFLE(3, 2, 3, 2)), _mm_shuffle_ps(hi01, hi23, _MM_SHUFFLE(1, 0, 1, 0)),
       _mm_shuffle_ps(hi01, hi23, _MM_SHUFFLE(3, 2, 3, 2))};
}

// The inverse of load4 for the first `count` lanes. Each transform is written as floats 0-3,
// then floats 3-6 (w twice, the same value), so no store reaches past the transform.
inline void store4(const Q4& q, const P4& p, Transform* t, size_t count) {
  __m128 a = q.x, b = q.y, c = q.z, d = q.w;
  _MM_TRANSPOSE4_PS(a, b, c, d);
  __m128 e = q.w, f = p.x, g = p.y, h = p.z;
  _MM_TRANSPOSE4_PS(e, f, g, h);
  _mm_storeu_ps(&t[0].rotation.x, a);
  _mm_storeu_ps(&t[0].rotation.w, e);
  if (count < 2) return;
  _mm_storeu_ps(&t[1].rotation.x, b);
  _mm_storeu_ps(&t[1].rotation.w, f);
  if (count < 3) return;
  _mm_storeu_ps(&t[2].rotation.x, c);
  _mm_storeu_ps(&t[2].rotation.w, g);
  if (count < 4) return;
  _mm_storeu_ps(&t[3].rotation.x, d);
  _mm_storeu_ps(&t[3].rotation.w, h);
}

// glm's quaternion dot, lane by lane: (w w' + x x') + (y y' + z z').
inline __m128 dot(const Q4& a, const Q4& b) {
  return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a.w, b.w), _mm_mul_ps(a.x, b.x)),
                    _mm_add_ps(_mm_mul_ps(a.y, b.y), _mm_mul_ps(a.z, b.z)));
}

// 1 / sqrt(len2) per lane. kExact: the correctly rounded square root and quotient, the bits of
// the scalar 1.0f / std::sqrt(len2). kFast: the estimate (12 bits) and one Newton step,
// y (1.5 - 0.5 len2 y^2), relative error about 2^-22 (rule BL1: unit within 1e-6).
inline __m128 inv_sqrt(__m128 len2, bool exact) {
  if (exact) return _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(len2));
  const __m128 y = _mm_rsqrt_ps(len2);
  const __m128 half_l = _mm_mul_ps(_mm_set1_ps(0.5f), len2);
  return _mm_mul_ps(y, _mm_sub_ps(_mm_set1_ps(1.5f), _mm_mul_ps(half_l, _mm_mul_ps(y, y))));
}
inline Q4 scale(const Q4& q, __m128 s) {
  return {_mm_mul_ps(q.x, s), _mm_mul_ps(q.y, s), _mm_mul_ps(q.z, s), _mm_mul_ps(q.w, s)};
}

// a * b per lane in glm's order of operations (type_quat.inl operator*=), so the animator's
// additive step keeps its bits.
inline Q4 glm_mul(const Q4& p, const Q4& q) {
  const auto m = [](__m128 a, __m128 b) { return _mm_mul_ps(a, b); };
  Q4 r;
  r.w = _mm_sub_ps(_mm_sub_ps(_mm_sub_ps(m(p.w, q.w), m(p.x, q.x)), m(p.y, q.y)), m(p.z, q.z));
  r.x = _mm_sub_ps(_mm_add_ps(_mm_add_ps(m(p.w, q.x), m(p.x, q.w)), m(p.y, q.z)), m(p.z, q.y));
  r.y = _mm_sub_ps(_mm_add_ps(_mm_add_ps(m(p.w, q.y), m(p.y, q.w)), m(p.z, q.x)), m(p.x, q.z));
  r.z = _mm_sub_ps(_mm_add_ps(_mm_add_ps(m(p.w, q.z), m(p.z, q.w)), m(p.x, q.y)), m(p.y, q.x));
  return r;
}

inline __m128 weights_of(std::span<const float> s, float w, size_t j0, size_t count) {
  const __m128 wb = _mm_set1_ps(w);
  if (s.empty()) return wb;
  const float* v = s.data() + j0;
  if (count == 4) return _mm_mul_ps(wb, _mm_loadu_ps(v));
  // The last block: lanes past the end get 0, built in registers (four float stores read back
  // as one register stall on store forwarding).
  return _mm_mul_ps(wb, _mm_setr_ps(v[0], count > 1 ? v[1] : 0.0f, count > 2 ? v[2] : 0.0f, 0.0f));
}

// The weighted layers of one block (rule BL1): the sums, the sign reference (the first
// contribution's rotation), the summed weight, which lanes have one and which more than one
// contribution; `first` receives each lane's first contributing layer. (Kept apart from the
// sums: an indexed array in the struct kept the whole struct, sums too, in memory.)
struct Sums {
  Q4 q{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
  P4 p{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
  Q4 ref{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
  __m128 wsum = _mm_setzero_ps();
  int have = 0;   // lanes with a contribution (bit k: lane k)
  int multi = 0;  // lanes with more than one
};

template <bool kFull>
inline void add_layers(std::span<const BlendLayer> layers, size_t j0, size_t tail_count, Sums& s, int* first) {
  const size_t count = kFull ? 4 : tail_count;
  const __m128 zero = _mm_setzero_ps(), max_w = _mm_set1_ps(kMaxWeight), sign = sign_bits();
  for (size_t i = 0; i < layers.size(); ++i) {
    const BlendLayer& l = layers[i];
    const __m128 e_raw = weights_of(l.joint_weights, l.weight, j0, count);
    const __m128 active = _mm_and_ps(_mm_cmpgt_ps(e_raw, zero), _mm_cmple_ps(e_raw, max_w));
    const int mask = _mm_movemask_ps(active);
    if (mask == 0) continue;
    Q4 q;
    P4 p;
    load4(l.pose.data() + j0, count, q, p);
    // Lanes without a contribution yet take this one as their sign reference (dot(q, q) >= 0,
    // so their first sum is 0 + e q: a -0 component becomes +0, docs/animator.md).
    const int fresh = mask & ~s.have;
    const __m128 e = mask == 0xF ? e_raw : _mm_and_ps(e_raw, active);  // +0 where it does not contribute
    __m128 sg = e;
    if (fresh == 0xF) {  // the first layer of a block, usually: no sign to find
      s.ref = q;
      for (int k = 0; k < 4; ++k) first[k] = static_cast<int>(i);
    } else {
      if (fresh != 0) {
        s.ref = select(_mm_andnot_ps(_mm_cmpgt_ps(s.wsum, zero), active), q, s.ref);
        for (int k = 0; k < 4; ++k)
          if (fresh & (1 << k)) first[k] = static_cast<int>(i);
      }
      sg = _mm_xor_ps(e, _mm_and_ps(_mm_cmplt_ps(dot(s.ref, q), zero), sign));
    }
    s.multi |= mask & s.have;
    s.have |= mask;
    s.q.x = _mm_add_ps(s.q.x, _mm_mul_ps(sg, q.x));
    s.q.y = _mm_add_ps(s.q.y, _mm_mul_ps(sg, q.y));
    s.q.z = _mm_add_ps(s.q.z, _mm_mul_ps(sg, q.z));
    s.q.w = _mm_add_ps(s.q.w, _mm_mul_ps(sg, q.w));
    s.p.x = _mm_add_ps(s.p.x, _mm_mul_ps(e, p.x));
    s.p.y = _mm_add_ps(s.p.y, _mm_mul_ps(e, p.y));
    s.p.z = _mm_add_ps(s.p.z, _mm_mul_ps(e, p.z));
    s.wsum = _mm_add_ps(s.wsum, e);
  }
}

// One additive layer on a block (rule BL2, AN6's formula in its order of operations).
template <bool kFull, bool exact>
inline void add_additive(const AdditiveLayer& l, size_t j0, size_t tail_count, Q4& out_q, P4& out_p) {
  const size_t count = kFull ? 4 : tail_count;
  const __m128 zero = _mm_setzero_ps(), sign = sign_bits();
  const __m128 a = weights_of(l.joint_weights, l.weight, j0, count);
  const __m128 b = _mm_andnot_ps(sign, a);  // |a|
  const __m128 active = _mm_and_ps(_mm_cmpneq_ps(a, zero), _mm_cmple_ps(b, _mm_set1_ps(kMaxWeight)));
  if (_mm_movemask_ps(active) == 0) return;
  Q4 d;
  P4 pd;
  load4(l.delta.data() + j0, count, d, pd);
  const __m128 conj = _mm_and_ps(a, sign);  // a < 0: the conjugate delta
  d.x = _mm_xor_ps(d.x, conj);
  d.y = _mm_xor_ps(d.y, conj);
  d.z = _mm_xor_ps(d.z, conj);
  d = flip(d, _mm_and_ps(_mm_cmplt_ps(d.w, zero), sign));  // w >= 0
  const Q4 t{_mm_mul_ps(b, d.x), _mm_mul_ps(b, d.y), _mm_mul_ps(b, d.z),
             _mm_add_ps(_mm_sub_ps(_mm_set1_ps(1.0f), b), _mm_mul_ps(b, d.w))};
  const __m128 len2 = _mm_add_ps(
      _mm_add_ps(_mm_add_ps(_mm_mul_ps(t.w, t.w), _mm_mul_ps(t.x, t.x)), _mm_mul_ps(t.y, t.y)), _mm_mul_ps(t.z, t.z));
  const __m128 turn = _mm_and_ps(active, _mm_cmpgt_ps(len2, _mm_set1_ps(kMinLength2)));
  const Q4 m = glm_mul(scale(t, inv_sqrt(len2, exact)), out_q);
  // glm::normalize: 1 / sqrt(dot(m, m)) in glm's dot order; a length <= 0 gives the identity.
  const __m128 mlen2 = dot(m, m);
  Q4 mn = scale(m, inv_sqrt(mlen2, exact));
  const __m128 degenerate = _mm_cmple_ps(mlen2, zero);
  mn = select(degenerate, Q4{zero, zero, zero, _mm_set1_ps(1.0f)}, mn);
  out_q = select(turn, mn, out_q);
  out_p = select(active,
                 P4{_mm_add_ps(out_p.x, _mm_mul_ps(a, pd.x)), _mm_add_ps(out_p.y, _mm_mul_ps(a, pd.y)),
                    _mm_add_ps(out_p.z, _mm_mul_ps(a, pd.z))},
                 out_p);
}

// The rest share r per lane: the caller's (a bad one counts as 0), or max(0, 1 - W).
inline __m128 rest_share(const BlendingJob& job, const Sums& s, size_t j0, size_t count) {
  const __m128 zero = _mm_setzero_ps();
  if (job.rest_weights.empty()) return _mm_max_ps(_mm_sub_ps(_mm_set1_ps(1.0f), s.wsum), zero);
  const __m128 r = weights_of(job.rest_weights, 1.0f, j0, count);
  return _mm_and_ps(r, _mm_and_ps(_mm_cmpgt_ps(r, zero), _mm_cmple_ps(r, _mm_set1_ps(kMaxWeight))));
}

// One block of up to four joints, from the layers to the stored output.
// kFull: four joints (else the last block's tail_count); kExact: BlendNormalize::kExact;
// kIdentityRest: no rest pose (identities). One instantiation per case keeps the branches and
// the registers they hold out of the block.
template <bool kFull, bool exact, bool kIdentityRest>
void blend_block(const BlendingJob& job, size_t j0, size_t tail_count) {
  const size_t count = kFull ? 4 : tail_count;
  Sums s;
  int first[4] = {0, 0, 0, 0};
  add_layers<kFull>(job.layers, j0, count, s, first);
  const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), sign = sign_bits();
  const __m128 r = rest_share(job, s, j0, count);
  // The rest pose, sign-aligned to the reference (to itself where nothing contributes), added
  // with weight r. The identity (no rest pose) adds r to w only: dot(ref, identity) has the sign
  // of ref.w, and the +-0 it would add to x, y, z and the position changes no sum (a sum
  // starts at +0 and never becomes -0).
  Q4 q = s.q;
  P4 p = s.p;
  Q4 rq{zero, zero, zero, one};
  P4 rp{zero, zero, zero};
  if (kIdentityRest) {
    q.w = _mm_add_ps(q.w, _mm_xor_ps(r, _mm_and_ps(_mm_cmplt_ps(s.ref.w, zero), sign)));
  } else {
    load4(job.rest_pose.data() + j0, count, rq, rp);
    const Q4 ref = s.have == 0xF ? s.ref : select(_mm_cmpgt_ps(s.wsum, zero), s.ref, rq);
    const __m128 sr = _mm_xor_ps(r, _mm_and_ps(_mm_cmplt_ps(dot(ref, rq), zero), sign));
    q = {_mm_add_ps(q.x, _mm_mul_ps(sr, rq.x)), _mm_add_ps(q.y, _mm_mul_ps(sr, rq.y)),
         _mm_add_ps(q.z, _mm_mul_ps(sr, rq.z)), _mm_add_ps(q.w, _mm_mul_ps(sr, rq.w))};
    p = {_mm_add_ps(p.x, _mm_mul_ps(r, rp.x)), _mm_add_ps(p.y, _mm_mul_ps(r, rp.y)),
         _mm_add_ps(p.z, _mm_mul_ps(r, rp.z))};
  }
  if (job.rest_weights.empty()) {  // W > 1: the weights divided by W (r is 0 there)
    const __m128 over = _mm_cmpgt_ps(s.wsum, one);
    if (_mm_movemask_ps(over) != 0) {
      const __m128 inv = select(over, _mm_div_ps(one, s.wsum), one);
      p = {_mm_mul_ps(p.x, inv), _mm_mul_ps(p.y, inv), _mm_mul_ps(p.z, inv)};
    }
  }
  // |q|^2 summed as ((w w + x x) + y y) + z z, then q / |q| (or the reference when degenerate).
  const __m128 len2 = _mm_add_ps(
      _mm_add_ps(_mm_add_ps(_mm_mul_ps(q.w, q.w), _mm_mul_ps(q.x, q.x)), _mm_mul_ps(q.y, q.y)), _mm_mul_ps(q.z, q.z));
  const __m128 long_enough = _mm_cmpgt_ps(len2, _mm_set1_ps(kMinLength2));
  q = scale(q, inv_sqrt(len2, exact));
  if (_mm_movemask_ps(long_enough) != 0xF) q = select(long_enough, q, s.ref);
  // Rule BL4: nothing contributes -> the rest pose, coverage 0; coverage 1 - r elsewhere.
  __m128 cov = _mm_sub_ps(one, r);
  if (s.have != 0xF) {
    const __m128 have = _mm_cmpgt_ps(s.wsum, zero);
    q = select(have, q, rq);
    p = select(have, p, rp);
    cov = _mm_and_ps(have, cov);
  }
  // Rule BL4: one contribution of weight exactly 1 -> that layer's transform (patched below).
  const int copy = s.have & ~s.multi & _mm_movemask_ps(_mm_cmpeq_ps(s.wsum, one));
  Transform* out = job.output.data() + j0;
  Transform* dst = out;
  store4(q, p, dst, count);
  if (copy != 0) {
    for (size_t k = 0; k < count; ++k)
      if (copy & (1 << k)) dst[k] = job.layers[static_cast<size_t>(first[k])].pose[j0 + k];
    cov = select(
        _mm_castsi128_ps(_mm_set_epi32(copy & 8 ? -1 : 0, copy & 4 ? -1 : 0, copy & 2 ? -1 : 0, copy & 1 ? -1 : 0)),
        one, cov);
  }
  if (!job.additive.empty()) {  // on the copied transforms too
    if (copy != 0) load4(dst, count, q, p);
    for (const AdditiveLayer& l : job.additive) add_additive<kFull, exact>(l, j0, count, q, p);
    store4(q, p, dst, count);
  }
  if (job.coverage.empty()) return;
  if (count == 4) {
    _mm_storeu_ps(job.coverage.data() + j0, cov);
  } else {
    float c[4];
    _mm_storeu_ps(c, cov);
    for (size_t k = 0; k < count; ++k) job.coverage[j0 + k] = c[k];
  }
}

}  // namespace

bool blend_poses(const BlendingJob& job) {
  ASTERUNE_EXPECT_OR_RETURN(
      sizes_ok(job), "every span of the blending job holds output.size() entries (or is an empty optional)", false);
  const size_t n = job.output.size();
  const size_t full = n / 4 * 4;
  const auto run = [&](auto block) {
    for (size_t j0 = 0; j0 < full; j0 += 4) block(std::true_type{}, j0);
    if (full < n) block(std::false_type{}, full);
  };
  const bool exact = job.normalize == BlendNormalize::kExact, identity_rest = job.rest_pose.empty();
  const auto with = [&](auto kExact, auto kIdentityRest) {
    run([&](auto kFull, size_t j0) { blend_block<kFull, kExact, kIdentityRest>(job, j0, n - j0); });
  };
  if (exact)
    identity_rest ? with(std::true_type{}, std::true_type{}) : with(std::true_type{}, std::false_type{});
  else
    identity_rest ? with(std::false_type{}, std::true_type{}) : with(std::false_type{}, std::false_type{});
  return true;
}

#else  // the scalar path: one joint at a time, the same formula (kFast normalises exactly)

namespace {

float weight_at(std::span<const float> s, float w, size_t j) { return s.empty() ? w : w * s[j]; }

void blend_joint(const BlendingJob& job, size_t j) {
  const Transform rest = job.rest_pose.empty() ? Transform::identity() : job.rest_pose[j];
  glm::quat acc(0.0f, 0.0f, 0.0f, 0.0f), ref = rest.rotation;
  glm::vec3 pos(0.0f);
  float wsum = 0.0f;
  int count = 0;
  size_t first = 0;
  for (size_t i = 0; i < job.layers.size(); ++i) {
    const BlendLayer& l = job.layers[i];
    const float e = weight_at(l.joint_weights, l.weight, j);
    if (!(e > 0.0f && e <= kMaxWeight)) continue;
    const Transform& x = l.pose[j];
    if (count++ == 0) {
      ref = x.rotation;
      first = i;
    }
    const float sg = glm::dot(ref, x.rotation) < 0.0f ? -e : e;
    acc = glm::quat(acc.w + sg * x.rotation.w, acc.x + sg * x.rotation.x, acc.y + sg * x.rotation.y,
                    acc.z + sg * x.rotation.z);
    pos = glm::vec3(pos.x + e * x.position.x, pos.y + e * x.position.y, pos.z + e * x.position.z);
    wsum += e;
  }
  Transform out = rest;
  float cov = 0.0f;
  if (count == 1 && wsum == 1.0f) {
    out = job.layers[first].pose[j];
    cov = 1.0f;
  } else if (count > 0) {
    float r;
    if (!job.rest_weights.empty()) {
      r = job.rest_weights[j];
      if (!(r > 0.0f && r <= kMaxWeight)) r = 0.0f;
    } else {
      r = std::max(1.0f - wsum, 0.0f);
    }
    const float sr = glm::dot(ref, rest.rotation) < 0.0f ? -r : r;
    glm::quat q(acc.w + sr * rest.rotation.w, acc.x + sr * rest.rotation.x, acc.y + sr * rest.rotation.y,
                acc.z + sr * rest.rotation.z);
    glm::vec3 p(pos.x + r * rest.position.x, pos.y + r * rest.position.y, pos.z + r * rest.position.z);
    if (job.rest_weights.empty() && wsum > 1.0f) p *= 1.0f / wsum;
    const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    out.rotation = len2 > kMinLength2 ? q * (1.0f / std::sqrt(len2)) : ref;
    out.position = p;
    cov = 1.0f - r;
  }
  for (const AdditiveLayer& l : job.additive) {
    const float a = weight_at(l.joint_weights, l.weight, j);
    if (a == 0.0f || !(std::fabs(a) <= kMaxWeight)) continue;
    glm::quat d = l.delta[j].rotation;
    if (a < 0.0f) d = glm::conjugate(d);
    if (d.w < 0.0f) d = -d;
    const float b = std::fabs(a);
    const glm::quat q((1.0f - b) + b * d.w, b * d.x, b * d.y, b * d.z);
    const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (len2 > kMinLength2) out.rotation = glm::normalize((q * (1.0f / std::sqrt(len2))) * out.rotation);
    out.position += a * l.delta[j].position;
  }
  job.output[j] = out;
  if (!job.coverage.empty()) job.coverage[j] = cov;
}

}  // namespace

bool blend_poses(const BlendingJob& job) {
  ASTERUNE_EXPECT_OR_RETURN(
      sizes_ok(job), "every span of the blending job holds output.size() entries (or is an empty optional)", false);
  for (size_t j = 0; j < job.output.size(); ++j) blend_joint(job, j);
  return true;
}

#endif

}  // namespace asterune
