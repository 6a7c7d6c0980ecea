// SSE2 quaternion and vector kernels for the per-frame walks (world placement, retarget
// sampling): a quaternion product or a vector rotation four lanes at a time instead of sixteen
// scalar multiplies. Internal to the core library. `QuatReg` and the q* functions at the end
// are the portable face: SSE2 registers where the target has them, glm otherwise, so a walk is
// written once.
#pragma once

#include "asterune/math/transform.hpp"

// ASTERUNE_SCALAR_KERNELS (CMake option) forces the scalar path on an SSE2 machine, so the
// path other targets take is built and tested too (make core-only).
#if defined(__SSE2__) && !defined(ASTERUNE_SCALAR_KERNELS)
#define ASTERUNE_SSE2 1
#include <emmintrin.h>

#include <cstdint>

namespace asterune::sse {

// glm's quaternion stores x, y, z, w in memory (no GLM_FORCE_QUAT_DATA_WXYZ), so a quaternion
// loads as one register.
static_assert(sizeof(glm::quat) == 16, "the SSE2 kernels expect a packed glm quaternion");
#if defined(GLM_FORCE_QUAT_DATA_WXYZ)
#error "the SSE2 kernels expect glm quaternions stored as x, y, z, w"
#endif

#define ASTERUNE_SHUF(v, a, b, c, d) _mm_shuffle_ps((v), (v), _MM_SHUFFLE((d), (c), (b), (a)))

inline __m128 load(const glm::quat& q) { return _mm_loadu_ps(&q.x); }
inline void store(__m128 q, glm::quat& out) { _mm_storeu_ps(&out.x, q); }

/// a * b (Hamilton product), lanes x, y, z, w. Each lane sums its four products in the order
/// of a's components (w, x, y, z).
inline __m128 quat_mul(__m128 a, __m128 b) {
  // r = aw*b + ax*(bw,-bz,by,-bx) + ay*(bz,bw,-bx,-by) + az*(-by,bx,bw,-bz)   (x, y, z, w lanes)
  const __m128 sx = _mm_castsi128_ps(_mm_set_epi32(INT32_MIN, 0, INT32_MIN, 0));  // +,-,+,-
  const __m128 sy = _mm_castsi128_ps(_mm_set_epi32(INT32_MIN, INT32_MIN, 0, 0));  // +,+,-,-
  const __m128 sz = _mm_castsi128_ps(_mm_set_epi32(INT32_MIN, 0, 0, INT32_MIN));  // -,+,+,-
  __m128 r = _mm_mul_ps(ASTERUNE_SHUF(a, 3, 3, 3, 3), b);
  r = _mm_add_ps(r, _mm_mul_ps(ASTERUNE_SHUF(a, 0, 0, 0, 0), _mm_xor_ps(ASTERUNE_SHUF(b, 3, 2, 1, 0), sx)));
  r = _mm_add_ps(r, _mm_mul_ps(ASTERUNE_SHUF(a, 1, 1, 1, 1), _mm_xor_ps(ASTERUNE_SHUF(b, 2, 3, 0, 1), sy)));
  r = _mm_add_ps(r, _mm_mul_ps(ASTERUNE_SHUF(a, 2, 2, 2, 2), _mm_xor_ps(ASTERUNE_SHUF(b, 1, 0, 3, 2), sz)));
  return r;
}

/// The conjugate (inverse of a unit quaternion): x, y, z negated.
inline __m128 conjugate(__m128 q) {
  return _mm_xor_ps(q, _mm_castsi128_ps(_mm_set_epi32(0, INT32_MIN, INT32_MIN, INT32_MIN)));
}

inline __m128 cross3(__m128 a, __m128 b) {
  // a.yzx * b.zxy - a.zxy * b.yzx (lane 3 ends up 0 for inputs with lane 3 = 0)
  return _mm_sub_ps(_mm_mul_ps(ASTERUNE_SHUF(a, 1, 2, 0, 3), ASTERUNE_SHUF(b, 2, 0, 1, 3)),
                    _mm_mul_ps(ASTERUNE_SHUF(a, 2, 0, 1, 3), ASTERUNE_SHUF(b, 1, 2, 0, 3)));
}

/// q * v for unit q: v + 2 w (u x v) + 2 u x (u x v), u = q.xyz (v's lane 3 must be 0).
inline __m128 rotate(__m128 q, __m128 v) {
  const __m128 u = _mm_and_ps(q, _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1)));
  const __m128 uv = cross3(u, v);
  const __m128 uuv = cross3(u, uv);
  const __m128 two = _mm_set1_ps(2.0f);
  return _mm_add_ps(v, _mm_mul_ps(two, _mm_add_ps(_mm_mul_ps(ASTERUNE_SHUF(q, 3, 3, 3, 3), uv), uuv)));
}

/// q / |q| exactly as glm::normalize computes it: the squared length summed in glm's order,
/// one square root, one reciprocal, four products; a length <= 0 gives the identity.
inline __m128 normalize(__m128 q) {
  const __m128 sq = _mm_mul_ps(q, q);
  // glm's quaternion dot: (w*w + x*x) + (y*y + z*z).
  const __m128 wx = _mm_add_ss(ASTERUNE_SHUF(sq, 3, 3, 3, 3), sq);
  const __m128 yz = _mm_add_ss(ASTERUNE_SHUF(sq, 1, 1, 1, 1), ASTERUNE_SHUF(sq, 2, 2, 2, 2));
  const float len = _mm_cvtss_f32(_mm_sqrt_ss(_mm_add_ss(wx, yz)));
  if (len <= 0.0f) return _mm_set_ps(1.0f, 0.0f, 0.0f, 0.0f);
  return _mm_mul_ps(q, _mm_set1_ps(1.0f / len));
}

/// True when q is exactly the identity rotation (x, y, z = 0, w = 1; -0 counts as 0).
inline bool is_identity(__m128 q) {
  return _mm_movemask_ps(_mm_cmpeq_ps(q, _mm_set_ps(1.0f, 0.0f, 0.0f, 0.0f))) == 0xF;
}

// x and y as one 8-byte move, z as a 4-byte one: never touches the 4 bytes after the vector.
inline __m128 load(const glm::vec3& p) {
  const __m128 xy = _mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(&p.x));
  return _mm_movelh_ps(xy, _mm_load_ss(&p.z));
}

inline void store(__m128 p, glm::vec3& out) {
  _mm_storel_pi(reinterpret_cast<__m64*>(&out.x), p);
  _mm_store_ss(&out.z, _mm_movehl_ps(p, p));
}

#undef ASTERUNE_SHUF

// Four quaternions or vectors, one per lane (structure of arrays): a product or a rotation
// four at a time costs no shuffles, where the one-at-a-time kernels above spend half their
// instructions moving lanes.
struct Quat4 {
  __m128 x, y, z, w;
};
struct Vec4 {
  __m128 x, y, z;
};

/// a * b per lane, each component summed in the order quat_mul above sums it, so a joint
/// placed four at a time and one at a time gets the same bits.
inline Quat4 quat_mul(const Quat4& a, const Quat4& b) {
  Quat4 r;
  r.x = _mm_sub_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(a.w, b.x), _mm_mul_ps(a.x, b.w)), _mm_mul_ps(a.y, b.z)),
                   _mm_mul_ps(a.z, b.y));
  r.y = _mm_add_ps(_mm_add_ps(_mm_sub_ps(_mm_mul_ps(a.w, b.y), _mm_mul_ps(a.x, b.z)), _mm_mul_ps(a.y, b.w)),
                   _mm_mul_ps(a.z, b.x));
  r.z = _mm_add_ps(_mm_sub_ps(_mm_add_ps(_mm_mul_ps(a.w, b.z), _mm_mul_ps(a.x, b.y)), _mm_mul_ps(a.y, b.x)),
                   _mm_mul_ps(a.z, b.w));
  r.w = _mm_sub_ps(_mm_sub_ps(_mm_sub_ps(_mm_mul_ps(a.w, b.w), _mm_mul_ps(a.x, b.x)), _mm_mul_ps(a.y, b.y)),
                   _mm_mul_ps(a.z, b.z));
  return r;
}

inline Vec4 cross(__m128 ax, __m128 ay, __m128 az, const Vec4& b) {
  return {_mm_sub_ps(_mm_mul_ps(ay, b.z), _mm_mul_ps(az, b.y)), _mm_sub_ps(_mm_mul_ps(az, b.x), _mm_mul_ps(ax, b.z)),
          _mm_sub_ps(_mm_mul_ps(ax, b.y), _mm_mul_ps(ay, b.x))};
}

/// q * v per lane for unit q, in rotate's order above: v + 2 (w (u x v) + u x (u x v)).
inline Vec4 rotate(const Quat4& q, const Vec4& v) {
  const Vec4 uv = cross(q.x, q.y, q.z, v);
  const Vec4 uuv = cross(q.x, q.y, q.z, uv);
  const __m128 two = _mm_set1_ps(2.0f);
  return {_mm_add_ps(v.x, _mm_mul_ps(_mm_add_ps(_mm_mul_ps(uv.x, q.w), uuv.x), two)),
          _mm_add_ps(v.y, _mm_mul_ps(_mm_add_ps(_mm_mul_ps(uv.y, q.w), uuv.y), two)),
          _mm_add_ps(v.z, _mm_mul_ps(_mm_add_ps(_mm_mul_ps(uv.z, q.w), uuv.z), two))};
}

inline Vec4 add(const Vec4& a, const Vec4& b) {
  return {_mm_add_ps(a.x, b.x), _mm_add_ps(a.y, b.y), _mm_add_ps(a.z, b.z)};
}

}  // namespace asterune::sse
#endif

namespace asterune {

#if defined(ASTERUNE_SSE2)
/// A quaternion held in a register (x, y, z, w lanes).
using QuatReg = __m128;
inline QuatReg qload(const glm::quat& q) { return sse::load(q); }
inline void qstore(QuatReg r, glm::quat& out) { sse::store(r, out); }
inline QuatReg qmul(QuatReg a, QuatReg b) { return sse::quat_mul(a, b); }
inline QuatReg qconjugate(QuatReg q) { return sse::conjugate(q); }
inline QuatReg qnormalize(QuatReg q) { return sse::normalize(q); }
inline bool qis_identity(QuatReg q) { return sse::is_identity(q); }
#else
using QuatReg = glm::quat;
inline QuatReg qload(const glm::quat& q) { return q; }
inline void qstore(QuatReg r, glm::quat& out) { out = r; }
inline QuatReg qmul(QuatReg a, QuatReg b) { return a * b; }
inline QuatReg qconjugate(QuatReg q) { return glm::conjugate(q); }
inline QuatReg qnormalize(QuatReg q) { return glm::normalize(q); }
inline bool qis_identity(QuatReg q) { return q.w == 1.0f && q.x == 0.0f && q.y == 0.0f && q.z == 0.0f; }
#endif

}  // namespace asterune
