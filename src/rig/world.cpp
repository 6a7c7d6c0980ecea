#include "asterune/rig/world.hpp"

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "asterune/core/assert.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune {
namespace {

#if defined(__SSE2__)
// SSE2 form of the whole joint, w = P * (C0 * T * C1^-1): quaternion products and vector
// rotations four lanes at a time. glm's quaternion stores x, y, z, w in memory (no
// GLM_FORCE_QUAT_DATA_WXYZ), so a quaternion loads as one register. Positions are 12 bytes and
// are moved as 8 + 4 (a 16-byte access would touch the next placement).
static_assert(sizeof(glm::quat) == 16, "world walk expects a packed glm quaternion");
#if defined(GLM_FORCE_QUAT_DATA_WXYZ)
#error "the SSE2 world walk expects glm quaternions stored as x, y, z, w"
#endif

#define ASTERUNE_SHUF(v, a, b, c, d) _mm_shuffle_ps((v), (v), _MM_SHUFFLE((d), (c), (b), (a)))

inline __m128 quat_mul(__m128 a, __m128 b) {
  // r = aw*b + ax*(bw,-bz,by,-bx) + ay*(bz,bw,-bx,-by) + az*(-by,bx,bw,-bz)   (x, y, z, w lanes)
  const __m128 sx = _mm_castsi128_ps(_mm_set_epi32(INT32_MIN, 0, INT32_MIN, 0));          // +,-,+,-
  const __m128 sy = _mm_castsi128_ps(_mm_set_epi32(INT32_MIN, INT32_MIN, 0, 0));          // +,+,-,-
  const __m128 sz = _mm_castsi128_ps(_mm_set_epi32(INT32_MIN, 0, 0, INT32_MIN));          // -,+,+,-
  __m128 r = _mm_mul_ps(ASTERUNE_SHUF(a, 3, 3, 3, 3), b);
  r = _mm_add_ps(r, _mm_mul_ps(ASTERUNE_SHUF(a, 0, 0, 0, 0), _mm_xor_ps(ASTERUNE_SHUF(b, 3, 2, 1, 0), sx)));
  r = _mm_add_ps(r, _mm_mul_ps(ASTERUNE_SHUF(a, 1, 1, 1, 1), _mm_xor_ps(ASTERUNE_SHUF(b, 2, 3, 0, 1), sy)));
  r = _mm_add_ps(r, _mm_mul_ps(ASTERUNE_SHUF(a, 2, 2, 2, 2), _mm_xor_ps(ASTERUNE_SHUF(b, 1, 0, 3, 2), sz)));
  return r;
}

inline __m128 cross3(__m128 a, __m128 b) {
  // a.yzx * b.zxy - a.zxy * b.yzx (lane 3 ends up 0 for inputs with lane 3 = 0)
  return _mm_sub_ps(_mm_mul_ps(ASTERUNE_SHUF(a, 1, 2, 0, 3), ASTERUNE_SHUF(b, 2, 0, 1, 3)),
                    _mm_mul_ps(ASTERUNE_SHUF(a, 2, 0, 1, 3), ASTERUNE_SHUF(b, 1, 2, 0, 3)));
}

// q * v for unit q: v + 2 w (u x v) + 2 u x (u x v), u = q.xyz.
inline __m128 rotate(__m128 q, __m128 v) {
  const __m128 u = _mm_and_ps(q, _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1)));
  const __m128 uv = cross3(u, v);
  const __m128 uuv = cross3(u, uv);
  const __m128 two = _mm_set1_ps(2.0f);
  return _mm_add_ps(v, _mm_mul_ps(two, _mm_add_ps(_mm_mul_ps(ASTERUNE_SHUF(q, 3, 3, 3, 3), uv), uuv)));
}

// x and y as one 8-byte move, z as a 4-byte one: never touches the 4 bytes after the vector.
inline __m128 load_position(const glm::vec3& p) {
  const __m128 xy = _mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(&p.x));
  return _mm_movelh_ps(xy, _mm_load_ss(&p.z));
}

inline void store(__m128 q, __m128 p, Transform& out) {
  _mm_storeu_ps(&out.rotation.x, q);
  _mm_storel_pi(reinterpret_cast<__m64*>(&out.position.x), p);
  _mm_store_ss(&out.position.z, _mm_movehl_ps(p, p));
}

inline bool is_identity(__m128 q) {
  return _mm_movemask_ps(_mm_cmpeq_ps(q, _mm_set_ps(1.0f, 0.0f, 0.0f, 0.0f))) == 0xF;
}

// world = P * (C0 * T * C1^-1), every step in registers. The identity tests take the same
// branches as joint_local(), so a translation-only C0 or C1 skips its product here too.
inline void place_joint(const Transform& parent, const Transform& c0, const Transform& t, const Transform& c1_inverse,
                        Transform& out) {
  const __m128 tq = _mm_loadu_ps(&t.rotation.x);
  const __m128 c1q = _mm_loadu_ps(&c1_inverse.rotation.x);
  __m128 q = is_identity(c1q) ? tq : quat_mul(tq, c1q);
  __m128 p = _mm_add_ps(load_position(t.position), rotate(tq, load_position(c1_inverse.position)));
  const __m128 c0q = _mm_loadu_ps(&c0.rotation.x);
  if (is_identity(c0q)) {
    p = _mm_add_ps(p, load_position(c0.position));
  } else {
    q = quat_mul(c0q, q);
    p = _mm_add_ps(load_position(c0.position), rotate(c0q, p));
  }
  const __m128 pq = _mm_loadu_ps(&parent.rotation.x);
  store(quat_mul(pq, q), _mm_add_ps(load_position(parent.position), rotate(pq, p)), out);
}
#undef ASTERUNE_SHUF
#else
// Exactly the identity rotation (as built from a translation-only C0/C1, the common case).
inline bool is_identity_rotation(const glm::quat& q) {
  return q.w == 1.0f && q.x == 0.0f && q.y == 0.0f && q.z == 0.0f;
}

// The joint's own placement relative to its parent part, C0 * T * inverse(C1). It does not
// depend on the parent, so the walk computes it off the parent-to-child dependency chain and
// the only compose that waits for the parent is the final one. A translation-only C0 or C1
// skips its quaternion product (multiplying by an exact identity changes no bit of it).
inline Transform joint_local(const Transform& c0, const Transform& t, const Transform& c1_inverse) {
  Transform tc;
  if (is_identity_rotation(c1_inverse.rotation)) {
    tc.rotation = t.rotation;
    tc.position = t.position + t.rotation * c1_inverse.position;
  } else {
    tc = t * c1_inverse;
  }
  if (is_identity_rotation(c0.rotation)) {
    tc.position += c0.position;
    return tc;
  }
  return c0 * tc;
}

inline void place_joint(const Transform& parent, const Transform& c0, const Transform& t, const Transform& c1_inverse,
                        Transform& out) {
  out = parent * joint_local(c0, t, c1_inverse);
}
#endif

// One forward walk over the layout range [begin, end); parents come before children.
// world = P * (C0 * T * inverse(C1)): the same placement as ((P * C0) * T) * inverse(C1) up to
// float rounding of the regrouping.
void evaluate_range(const Rig& rig, const Transform& root, std::span<const Transform> local,
                    std::span<Transform> world, int begin, int end) {
  const int* parents = rig.parents().data();
  const Transform* c0 = rig.c0().data();
  const Transform* c1_inverse = rig.c1_inverse().data();
  const Transform* anchor = rig.anchor().data();
  const Transform* t = local.data();
  Transform* w = world.data();
  for (int i = begin; i < end; ++i) {
    const int p = parents[i];
    if (p >= 0) {
      place_joint(w[p], c0[i], t[i], c1_inverse[i], w[i]);
    } else {
      place_joint(root * anchor[i], c0[i], t[i], c1_inverse[i], w[i]);
    }
  }
}

}  // namespace

static bool pose_sizes_match(const Rig& rig, std::span<const Transform> local, std::span<Transform> world) {
  const size_t n = static_cast<size_t>(rig.joint_count());
  return local.size() == n && world.size() == n;
}

bool evaluate_world_subtree(const Rig& rig, const Transform& root, std::span<const Transform> local,
                            std::span<Transform> world, int j) {
  ASTERUNE_EXPECT_OR_RETURN(pose_sizes_match(rig, local, world) && j >= 0 && j < rig.joint_count(),
                            "local and world hold rig.joint_count() entries and j is a joint", false);
  evaluate_range(rig, root, local, world, j, rig.subtree_end(j));
  return true;
}

bool evaluate_world(const Rig& rig, const Transform& root, std::span<const Transform> local,
                    std::span<Transform> world) {
  ASTERUNE_EXPECT_OR_RETURN(pose_sizes_match(rig, local, world), "local and world hold rig.joint_count() entries",
                            false);
  evaluate_range(rig, root, local, world, 0, rig.joint_count());
  return true;
}

Transform parent_placement(const Rig& rig, const Transform& root, std::span<const Transform> world, int j) {
  const int p = rig.parents()[static_cast<size_t>(j)];
  return p >= 0 ? world[static_cast<size_t>(p)] : root * rig.anchor()[static_cast<size_t>(j)];
}

Transform attachment_frame(const Rig& rig, const Transform& parent_world, int j) {
  return parent_world * rig.c0()[static_cast<size_t>(j)];
}

glm::vec3 joint_pivot(const Rig& rig, std::span<const Transform> world, int j) {
  return transform_point(world[static_cast<size_t>(j)], rig.c1()[static_cast<size_t>(j)].position);
}

glm::quat local_rotation_for_frame(const Rig& rig, const Transform& parent_world, int j, const glm::quat& frame_world) {
  const glm::quat a = parent_world.rotation * rig.c0()[static_cast<size_t>(j)].rotation;
  return glm::normalize(glm::conjugate(a) * frame_world);
}

glm::quat local_rotation_for_part(const Rig& rig, const Transform& parent_world, int j, const glm::quat& part_world) {
  return local_rotation_for_frame(rig, parent_world, j, part_world * rig.c1()[static_cast<size_t>(j)].rotation);
}

Transform local_for_part(const Rig& rig, const Transform& parent_world, int j, const Transform& part_world) {
  const Transform a = attachment_frame(rig, parent_world, j);
  Transform t = inverse(a) * part_world * rig.c1()[static_cast<size_t>(j)];
  t.rotation = glm::normalize(t.rotation);
  return t;
}

bool evaluate_rest_world(const Rig& rig, const Transform& root, std::span<Transform> world) {
  ASTERUNE_EXPECT_OR_RETURN(world.size() == static_cast<size_t>(rig.joint_count()),
                            "world holds rig.joint_count() entries", false);
  const auto parents = rig.parents();
  const auto c0 = rig.c0();
  const auto c1_inverse = rig.c1_inverse();
  const auto anchor = rig.anchor();
  const size_t n = static_cast<size_t>(rig.joint_count());
  for (size_t u = 0; u < n; ++u) {
    const int p = parents[u];
    const Transform parent = p >= 0 ? world[static_cast<size_t>(p)] : root * anchor[u];
    world[u] = parent * c0[u] * c1_inverse[u];
  }
  return true;
}

}  // namespace asterune
