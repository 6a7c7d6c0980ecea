// The blending job (rules BL1-BL5): four joints per block in SSE2 registers (structure of
// arrays), one pass over the layers per block, the additive layers applied before the block is
// stored; the scalar path below (ASTERUNE_SCALAR_KERNELS, targets without SSE2) computes the
// same formula one joint at a time. Both run one template over either layout (rule BL5): the
// per-joint Transform spans (loaded by transposing) or SoaTransform blocks (loaded as they are).
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

size_t joints_of(const BlendingJob& job) { return job.output.size(); }
size_t joints_of(const SoaBlendingJob& job) { return job.joint_count; }
// Entries of a pose span: joints, or blocks of four.
size_t pose_size(const BlendingJob& job) { return job.output.size(); }
size_t pose_size(const SoaBlendingJob& job) { return soa_block_count(job.joint_count); }

template <class Job>
bool sizes_ok(const Job& job) {
  const size_t n = joints_of(job), m = pose_size(job);
  const auto fits = [](size_t size, size_t want) { return size == 0 || size == want; };
  if (job.output.size() != m) return false;
  for (const auto& l : job.layers)
    if (l.pose.size() != m || !fits(l.joint_weights.size(), n)) return false;
  for (const auto& l : job.additive)
    if (l.delta.size() != m || !fits(l.joint_weights.size(), n)) return false;
  return fits(job.rest_pose.size(), m) && fits(job.rest_weights.size(), n) && fits(job.coverage.size(), n);
}

// One joint of either layout, for the scalar path and the rule-BL4 copies.
Transform get(std::span<const Transform> s, size_t j) { return s[j]; }
Transform get(std::span<const SoaTransform> s, size_t j) {
  const SoaTransform& b = s[j / 4];
  const size_t k = j % 4;
  Transform t;
  t.rotation = glm::quat(b.qw[k], b.qx[k], b.qy[k], b.qz[k]);
  t.position = glm::vec3(b.px[k], b.py[k], b.pz[k]);
  return t;
}
void put(std::span<Transform> s, size_t j, const Transform& t) { s[j] = t; }
void put(std::span<SoaTransform> s, size_t j, const Transform& t) {
  SoaTransform& b = s[j / 4];
  const size_t k = j % 4;
  b.qx[k] = t.rotation.x;
  b.qy[k] = t.rotation.y;
  b.qz[k] = t.rotation.z;
  b.qw[k] = t.rotation.w;
  b.px[k] = t.position.x;
  b.py[k] = t.position.y;
  b.pz[k] = t.position.z;
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

// A block of either layout into registers and back (rule BL5). A SoaTransform block is already
// four joints wide: aligned loads and stores, all four lanes (padding included).
inline void load_block(std::span<const Transform> s, size_t j0, size_t count, Q4& q, P4& p) {
  load4(s.data() + j0, count, q, p);
}
inline void load_block(std::span<const SoaTransform> s, size_t j0, size_t, Q4& q, P4& p) {
  const SoaTransform& b = s[j0 / 4];
  q = {_mm_load_ps(b.qx), _mm_load_ps(b.qy), _mm_load_ps(b.qz), _mm_load_ps(b.qw)};
  p = {_mm_load_ps(b.px), _mm_load_ps(b.py), _mm_load_ps(b.pz)};
}
inline void store_block(const Q4& q, const P4& p, std::span<Transform> s, size_t j0, size_t count) {
  store4(q, p, s.data() + j0, count);
}
inline void store_block(const Q4& q, const P4& p, std::span<SoaTransform> s, size_t j0, size_t) {
  SoaTransform& b = s[j0 / 4];
  _mm_store_ps(b.qx, q.x);
  _mm_store_ps(b.qy, q.y);
  _mm_store_ps(b.qz, q.z);
  _mm_store_ps(b.qw, q.w);
  _mm_store_ps(b.px, p.x);
  _mm_store_ps(b.py, p.y);
  _mm_store_ps(b.pz, p.z);
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
// contribution's rotation), the summed weight and the number of contributions per lane.
struct Sums {
  Q4 q{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
  P4 p{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
  Q4 ref{_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
  __m128 wsum = _mm_setzero_ps();
  int have = 0;   // lanes with a contribution (bit k: lane k; scalar: the vector registers are all taken)
  int multi = 0;  // lanes with more than one
};

// The layer's effective weights for the block, 0 where it does not contribute (rule BL3), and
// the lanes where it does.
inline __m128 effective(std::span<const float> joint_weights, float w, size_t j0, size_t count, __m128& active) {
  const __m128 e_raw = weights_of(joint_weights, w, j0, count);
  active = _mm_and_ps(_mm_cmpgt_ps(e_raw, _mm_setzero_ps()), _mm_cmple_ps(e_raw, _mm_set1_ps(kMaxWeight)));
  return _mm_and_ps(e_raw, active);
}

inline void accumulate(Sums& s, const Q4& q, const P4& p, __m128 sg, __m128 e, int mask) {
  s.q.x = _mm_add_ps(s.q.x, _mm_mul_ps(sg, q.x));
  s.q.y = _mm_add_ps(s.q.y, _mm_mul_ps(sg, q.y));
  s.q.z = _mm_add_ps(s.q.z, _mm_mul_ps(sg, q.z));
  s.q.w = _mm_add_ps(s.q.w, _mm_mul_ps(sg, q.w));
  s.p.x = _mm_add_ps(s.p.x, _mm_mul_ps(e, p.x));
  s.p.y = _mm_add_ps(s.p.y, _mm_mul_ps(e, p.y));
  s.p.z = _mm_add_ps(s.p.z, _mm_mul_ps(e, p.z));
  s.wsum = _mm_add_ps(s.wsum, e);
  s.multi |= mask & s.have;
  s.have |= mask;
}

// Every lane's weight and sign is applied by masks, never by a branch per joint; a layer that
// contributes to no joint of the block is skipped whole (a mask's other blocks). The sums of a
// lane start at +0 (0 + e q: a -0 component becomes +0, docs/animator.md).
template <bool kFull, class Layer>
inline void add_layers(std::span<const Layer> layers, size_t j0, size_t tail_count, Sums& s) {
  const size_t count = kFull ? 4 : tail_count;
  const __m128 zero = _mm_setzero_ps(), sign = sign_bits();
  for (size_t i = 0; i < layers.size(); ++i) {
    __m128 active;
    const __m128 e = effective(layers[i].joint_weights, layers[i].weight, j0, count, active);
    const int mask = _mm_movemask_ps(active);
    if (mask == 0) continue;
    Q4 q;
    P4 p;
    load_block(layers[i].pose, j0, count, q, p);
    __m128 sg = e;
    if (s.have == 0) {  // the block's first contributing layer: the reference of every lane
      s.ref = q;        // (where it does not contribute, the lane's first contribution replaces it)
    } else {
      if ((mask & ~s.have) != 0)  // a lane's first contribution: its sign reference
        s.ref = select(_mm_andnot_ps(_mm_cmpgt_ps(s.wsum, zero), active), q, s.ref);
      sg = _mm_xor_ps(e, _mm_and_ps(_mm_cmplt_ps(dot(s.ref, q), zero), sign));  // dot(q, q) >= 0: no flip
    }
    accumulate(s, q, p, sg, e, mask);
  }
}

// The first layer that contributes to joint j (rule BL4's copy: taken only for such joints).
template <class Layer>
size_t first_contributor(std::span<const Layer> layers, size_t j) {
  for (size_t i = 0; i < layers.size(); ++i) {
    const float e = layers[i].joint_weights.empty() ? layers[i].weight : layers[i].weight * layers[i].joint_weights[j];
    if (e > 0.0f && e <= kMaxWeight) return i;
  }
  return 0;
}

// One additive layer on a block (rule BL2, AN6's formula in its order of operations).
template <bool kFull, bool exact, class Additive>
inline void add_additive(const Additive& l, size_t j0, size_t tail_count, Q4& out_q, P4& out_p) {
  const size_t count = kFull ? 4 : tail_count;
  const __m128 zero = _mm_setzero_ps(), sign = sign_bits();
  const __m128 a = weights_of(l.joint_weights, l.weight, j0, count);
  const __m128 b = _mm_andnot_ps(sign, a);  // |a|
  const __m128 active = _mm_and_ps(_mm_cmpneq_ps(a, zero), _mm_cmple_ps(b, _mm_set1_ps(kMaxWeight)));
  if (_mm_movemask_ps(active) == 0) return;
  Q4 d;
  P4 pd;
  load_block(l.delta, j0, count, d, pd);
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
template <class Job>
inline __m128 rest_share(const Job& job, const Sums& s, size_t j0, size_t count) {
  const __m128 zero = _mm_setzero_ps();
  if (job.rest_weights.empty()) return _mm_max_ps(_mm_sub_ps(_mm_set1_ps(1.0f), s.wsum), zero);
  const __m128 r = weights_of(job.rest_weights, 1.0f, j0, count);
  return _mm_and_ps(r, _mm_and_ps(_mm_cmpgt_ps(r, zero), _mm_cmple_ps(r, _mm_set1_ps(kMaxWeight))));
}

// One block of up to four joints, from the layers to the stored output.
// kFull: four joints (else the last block's tail_count); kExact: BlendNormalize::kExact;
// kIdentityRest: no rest pose (identities). One instantiation per case keeps the branches and
// the registers they hold out of the block.
template <bool kFull, bool exact, bool kIdentityRest, class Job>
void blend_block(const Job& job, size_t j0, size_t tail_count) {
  const size_t count = kFull ? 4 : tail_count;
  Sums s;
  add_layers<kFull>(job.layers, j0, count, s);
  const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), sign = sign_bits();
  const __m128 r = rest_share(job, s, j0, count);
  const int have = s.have;
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
    load_block(job.rest_pose, j0, count, rq, rp);
    const Q4 ref = have == 0xF ? s.ref : select(_mm_cmpgt_ps(s.wsum, zero), s.ref, rq);
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
  if (have != 0xF) {
    const __m128 any = _mm_cmpgt_ps(s.wsum, zero);
    q = select(any, q, rq);
    p = select(any, p, rp);
    cov = _mm_and_ps(any, cov);
  }
  // Rule BL4: one contribution of weight exactly 1 -> that layer's transform (patched below).
  const int copy = s.have & ~s.multi & _mm_movemask_ps(_mm_cmpeq_ps(s.wsum, one));
  store_block(q, p, job.output, j0, count);
  if (copy != 0) {
    for (size_t k = 0; k < count; ++k)
      if (copy & (1 << k)) put(job.output, j0 + k, get(job.layers[first_contributor(job.layers, j0 + k)].pose, j0 + k));
    cov = select(
        _mm_castsi128_ps(_mm_set_epi32(copy & 8 ? -1 : 0, copy & 4 ? -1 : 0, copy & 2 ? -1 : 0, copy & 1 ? -1 : 0)),
        one, cov);
  }
  if (!job.additive.empty()) {  // on the copied transforms too
    if (copy != 0) load_block(job.output, j0, count, q, p);
    for (const auto& l : job.additive) add_additive<kFull, exact>(l, j0, count, q, p);
    store_block(q, p, job.output, j0, count);
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

template <class Job>
void blend_all(const Job& job) {
  const size_t n = joints_of(job);
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
}

}  // namespace

#else  // the scalar path: one joint at a time, the same formula (kFast normalises exactly)

namespace {

float weight_at(std::span<const float> s, float w, size_t j) { return s.empty() ? w : w * s[j]; }

template <class Job>
void blend_joint(const Job& job, size_t j) {
  const Transform rest = job.rest_pose.empty() ? Transform::identity() : get(job.rest_pose, j);
  glm::quat acc(0.0f, 0.0f, 0.0f, 0.0f), ref = rest.rotation;
  glm::vec3 pos(0.0f);
  float wsum = 0.0f;
  int count = 0;
  size_t first = 0;
  for (size_t i = 0; i < job.layers.size(); ++i) {
    const auto& l = job.layers[i];
    const float e = weight_at(l.joint_weights, l.weight, j);
    if (!(e > 0.0f && e <= kMaxWeight)) continue;
    const Transform x = get(l.pose, j);
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
    out = get(job.layers[first].pose, j);
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
  for (const auto& l : job.additive) {
    const float a = weight_at(l.joint_weights, l.weight, j);
    if (a == 0.0f || !(std::fabs(a) <= kMaxWeight)) continue;
    const Transform delta = get(l.delta, j);
    glm::quat d = delta.rotation;
    if (a < 0.0f) d = glm::conjugate(d);
    if (d.w < 0.0f) d = -d;
    const float b = std::fabs(a);
    const glm::quat q((1.0f - b) + b * d.w, b * d.x, b * d.y, b * d.z);
    const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (len2 > kMinLength2) out.rotation = glm::normalize((q * (1.0f / std::sqrt(len2))) * out.rotation);
    out.position += a * delta.position;
  }
  put(job.output, j, out);
  if (!job.coverage.empty()) job.coverage[j] = cov;
}

template <class Job>
void blend_all(const Job& job) {
  for (size_t j = 0; j < joints_of(job); ++j) blend_joint(job, j);
}

}  // namespace

#endif

bool blend_poses(const BlendingJob& job) {
  ASTERUNE_EXPECT_OR_RETURN(
      sizes_ok(job), "every span of the blending job holds output.size() entries (or is an empty optional)", false);
  blend_all(job);
  return true;
}

bool blend_poses(const SoaBlendingJob& job) {
  ASTERUNE_EXPECT_OR_RETURN(sizes_ok(job),
                            "every span of the four-wide blending job holds soa_block_count(joint_count) blocks "
                            "or joint_count floats (or is an empty optional)",
                            false);
  blend_all(job);
  return true;
}

bool to_soa(std::span<const Transform> pose, std::span<SoaTransform> out) {
  ASTERUNE_EXPECT_OR_RETURN(out.size() == soa_block_count(pose.size()), "to_soa: one block per four joints", false);
  for (size_t j = 0; j < out.size() * 4; ++j) put(out, j, j < pose.size() ? pose[j] : Transform::identity());
  return true;
}

bool from_soa(std::span<const SoaTransform> blocks, std::span<Transform> out) {
  ASTERUNE_EXPECT_OR_RETURN(blocks.size() == soa_block_count(out.size()), "from_soa: one block per four joints", false);
  for (size_t j = 0; j < out.size(); ++j) out[j] = get(blocks, j);
  return true;
}

}  // namespace asterune
